package trace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestEndSnapshotsErrorCauses: a recorded error is exported with its
// cause chain (fault.Error's JSON has "cause"), so the snapshot taken at
// End covers the causes too: their secret-looking details and credentials
// in a plain cause's text are redacted, and a later annotation of a cause
// does not reach the record. The chain still answers errors.Is.
func TestEndSnapshotsErrorCauses(t *testing.T) {
	const secret = "sk-FAKE-cause-9876"
	inner := fault.New(fault.PhaseTool, "inner", "the inner failure").With("api_key", secret).With("status", 401)
	plain := fmt.Errorf("GET https://api.example/v1?api_key=%s: %w", secret, context.Canceled)
	for name, err := range map[string]error{
		"fault cause":         fault.Wrap(inner, fault.PhaseExecute, "outer", "failed"),
		"wrapped fault cause": fault.Wrap(fmt.Errorf("while calling: %w", inner), fault.PhaseExecute, "outer", "failed"),
		"plain cause":         fault.Wrap(plain, fault.PhaseExecute, "outer", "failed"),
		"plain error":         plain,
		"plain internal":      fmt.Errorf("dial: Authorization: Bearer %s refused", secret),
	} {
		t.Run(name, func(t *testing.T) {
			rec := NewRecorder()
			_, sp := Start(WithRecorder(context.Background(), rec), KindToolCall, "t")
			sp.End(err)
			inner.With("late", "annotation") // the producer keeps annotating its error
			js, jerr := json.Marshal(rec.Events())
			if jerr != nil {
				t.Fatal(jerr)
			}
			if strings.Contains(string(js), secret) {
				t.Fatalf("secret of a cause recorded: %s", js)
			}
			if strings.Contains(string(js), "annotation") {
				t.Fatalf("a later annotation of a cause reached the record: %s", js)
			}
			if !strings.Contains(string(js), Redacted) {
				t.Fatalf("nothing redacted: %s", js)
			}
			ev := rec.Events()[0]
			if strings.HasPrefix(name, "plain ") && name != "plain internal" && !errors.Is(ev.Error, context.Canceled) {
				t.Errorf("the recorded chain lost context.Canceled")
			}
			if !strings.HasPrefix(name, "plain ") && fault.As(ev.Error.Cause) == nil {
				t.Errorf("the recorded chain lost its fault cause")
			}
		})
		delete(inner.Detail, "late")
	}
}
