package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// codeRunWithException runs a code-mode engine whose first cell raises
// ZeroDivisionError on its second line and whose second reply finishes;
// it returns the run's trace.
func codeRunWithException(t *testing.T) []trace.Event {
	t.Helper()
	replies := []string{"```python\nprint(\"before\")\nx = 1 // 0\n```", "```python\nFINAL(\"recovered\")\n```"}
	turn := 0
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		turn++
		return &model.Response{Text: replies[min(turn, len(replies))-1]}, nil
	})
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "some text\n")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "test-model", Store: store, Mode: engine.ModeCode})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Answer != "recovered" {
		t.Fatalf("%v %+v", err, res)
	}
	return res.Trajectory
}

// A code cell that raised prints as a failed step (✗, its error kind and
// the exception's type), like a failed plan step, in a trace recorded by
// the engine and in the same trace read back from JSONL; the cell that
// finished, the turns and the run print ✓.
func TestTreeCellExceptionIsFailed(t *testing.T) {
	evs := codeRunWithException(t)
	var raw bytes.Buffer
	if err := trace.WriteJSONL(&raw, evs); err != nil {
		t.Fatal(err)
	}
	back, err := trace.Read(&raw)
	if err != nil {
		t.Fatal(err)
	}
	for name, evs := range map[string][]trace.Event{"recorded": evs, "read back": back} {
		var b bytes.Buffer
		if err := trace.WriteTree(&b, evs); err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			line = strings.TrimSpace(line)
			switch {
			case strings.Contains(line, "plan_step cell"):
				cells = append(cells, line)
			case strings.HasPrefix(line, "✗"):
				t.Errorf("%s: %s", name, line)
			}
		}
		if len(cells) != 2 {
			t.Fatalf("%s: cells %q\n%s", name, cells, b.String())
		}
		if bad := cells[0]; !strings.HasPrefix(bad, "✗ plan_step cell") || !strings.Contains(bad, " exception=ZeroDivisionError") ||
			!strings.Contains(bad, "status=error error=execute/cell_exception") {
			t.Errorf("%s: raising cell %q", name, bad)
		}
		if good := cells[1]; !strings.HasPrefix(good, "✓ plan_step cell") || strings.Contains(good, "exception") {
			t.Errorf("%s: finishing cell %q", name, good)
		}
	}
	// The recorded error names the type and line, never the message.
	for _, ev := range evs {
		if ev.Kind == trace.KindPlanStep && ev.Status == trace.StatusError {
			detail, _ := json.Marshal(ev.Error)
			if strings.Contains(string(detail), "division") || !strings.Contains(string(detail), `"line":2`) {
				t.Errorf("cell error %s", detail)
			}
		}
	}
}

// Line shows the exception type of a cell span, bounded.
func TestLineShowsCellException(t *testing.T) {
	ev := trace.Event{ID: "e1", Kind: trace.KindPlanStep, Name: "cell", Status: trace.StatusError,
		Attrs: map[string]any{"exception": strings.Repeat("E", 100)}}
	got := trace.Line(ev)
	if !strings.Contains(got, " exception="+strings.Repeat("E", 60)) || strings.Contains(got, strings.Repeat("E", 61)) {
		t.Fatalf("%q", got)
	}
}

// Line never marks a cell that raised ✓: a trace from before such cells
// ended as errors has status ok and the attribute exception. A span in
// flight (a live file's start line) is marked ….
func TestLineMarks(t *testing.T) {
	for _, tc := range []struct {
		ev   trace.Event
		want string
	}{
		{trace.Event{Kind: trace.KindPlanStep, Name: "cell", Status: trace.StatusOK, Attrs: map[string]any{"exception": "KeyError"}}, "✗ plan_step cell"},
		{trace.Event{Kind: trace.KindPlanStep, Name: "cell", Status: trace.StatusOK}, "✓ plan_step cell"},
		{trace.Event{Kind: trace.KindPlanStep, Name: "cell", Status: trace.StatusError}, "✗ plan_step cell"},
		{trace.Event{Kind: trace.KindModelCall, Name: "m", Status: trace.StatusStarted}, "… model_call m"},
		{trace.Event{Kind: trace.KindPlanStep, Name: "cell", Status: trace.StatusCancelled, Attrs: map[string]any{"exception": "KeyError"}}, "⊘ plan_step cell"},
	} {
		if got := trace.Line(tc.ev); !strings.HasPrefix(got, tc.want+" ") {
			t.Errorf("%+v: %q, want %q…", tc.ev, got, tc.want)
		}
	}
}
