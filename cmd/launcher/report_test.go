package launcher

import (
	"errors"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// Every hint is one line, and the table fills in a hint for the kinds whose
// producers cannot name the CLI's flags.
func TestHintTable(t *testing.T) {
	for k, h := range hints() {
		if h == "" || strings.ContainsAny(h, "\n\r") {
			t.Errorf("hint for %v is not one line: %q", k, h)
		}
	}
	tests := []struct {
		err  error
		want string // a word the hint must contain
	}{
		{fault.New(fault.PhaseValidate, engine.KindDeepRecursionRequired, "x"), "--max-depth"},
		{fault.New(fault.PhaseTool, effect.KindJournalLocked, "x"), "--state-dir"},
		{fault.New(fault.PhaseBudget, budget.KindMaxCost, "x"), "--max-cost"},
		// A wrapped error gets the hint of its cause.
		{fault.Wrap(fault.New(fault.PhaseBudget, budget.KindTimeLimit, "x"), fault.PhaseExecute, "child_failed", "child"), "--time-limit"},
		// The producer's hint wins over the table.
		{fault.New(fault.PhaseBudget, budget.KindMaxCost, "x").WithHint("producer hint"), "producer hint"},
		// Errors that are not *fault.Error (cobra's) are usage errors.
		{errors.New(`unknown flag: --nope`), "--help"},
	}
	for _, tt := range tests {
		fe := asFault(tt.err)
		if !strings.Contains(fe.Hint, tt.want) {
			t.Errorf("%v: hint %q lacks %q", tt.err, fe.Hint, tt.want)
		}
	}
	// asFault never mutates the library's error.
	orig := fault.New(fault.PhaseBudget, budget.KindMaxCost, "x")
	if asFault(orig); orig.Hint != "" {
		t.Fatal("asFault mutated its argument")
	}
}

// The text form prints each piece of text once: a server message repeated
// in detail.error_message and (JSON-escaped) in detail.body_excerpt, and a
// cause's message repeated by its wrapper, appear once.
func TestErrorTextOnce(t *testing.T) {
	msg := `replay cassette exhausted: no unused interaction matches this request (last message starts "Query: q")`
	inner := fault.New(fault.PhaseProvider, "http_status", "server answered HTTP 404: "+msg).
		With("status", 404).With("error_message", msg).With("host", "127.0.0.1").
		With("body_excerpt", `{"error":{"code":"cassette_exhausted","message":"replay cassette exhausted: no unused interaction matches this request (last message starts \"Query: q\")"}}`).
		WithHint("record it again")
	outer := fault.Wrap(inner, fault.PhaseExecute, "child_failed", inner.Message)
	text := console.ErrorText(asFault(outer))
	if n := strings.Count(text, "cassette exhausted"); n != 1 {
		t.Fatalf("message printed %d times:\n%s", n, text)
	}
	for _, want := range []string{"rlm: execute/child_failed: server answered HTTP 404", "\n  caused by: provider/http_status (", "status=404", "host=127.0.0.1", "\nhint: record it again"} {
		if !strings.Contains(text, want) {
			t.Fatalf("lacks %q:\n%s", want, text)
		}
	}
	// A plain cause is kept, unless its text was shown.
	text = console.ErrorText(asFault(fault.Wrap(errors.New("open x: no such file or directory"), fault.PhaseContext, "io_error", "cannot map file").With("path", "/some/long/path/to/x")))
	if !strings.HasSuffix(strings.SplitN(text, "\n", 2)[0], ": open x: no such file or directory") {
		t.Fatalf("cause lost:\n%s", text)
	}
}
