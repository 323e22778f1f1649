package rlm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/compacttest"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// Issue 31's done-when through the library: a 60-turn code-mode session
// against a root model whose window is 16k tokens (Spec.ContextWindow)
// completes with compaction and fails without it (Spec.NoCompaction)
// with prompt_too_large, before the request that would not fit is sent.
func TestCompactSixtyTurnsThroughTheSpec(t *testing.T) {
	const window, turns = 16_000, 60
	ctxFile := filepath.Join(t.TempDir(), "ctx.txt")
	if err := os.WriteFile(ctxFile, []byte(strings.Repeat("a line of the context\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := Spec{Mode: engine.ModeCode, Context: []string{ctxFile}, ContextWindow: window}

	s := &compacttest.Session{Window: window, Turns: turns}
	res, err := Run(context.Background(), spec, "sum the turns", WithProvider(s))
	st := s.Stats()
	if err != nil || fmt.Sprint(res.Answer) != fmt.Sprint(s.Answer()) || res.Turns != turns || st.Over != 0 || !st.SawVars {
		t.Fatalf("%v: answer %v, %d turns, %+v", err, res.Answer, res.Turns, st)
	}
	n := 0
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindNote && ev.Name == engine.NoteCompaction {
			n++
		}
	}
	if n < 2 || n != st.SummaryCalls || res.Usage.Calls != int64(st.RootCalls+st.SummaryCalls) {
		t.Fatalf("%d compactions, %+v, usage %+v", n, st, res.Usage)
	}

	// A lower threshold compacts more often.
	low := &compacttest.Session{Window: window, Turns: turns}
	spec.CompactAt = 0.5
	if _, err := Run(context.Background(), spec, "sum the turns", WithProvider(low)); err != nil || low.Stats().SummaryCalls <= st.SummaryCalls {
		t.Fatalf("%v: %d summaries at 0.5, %d at the default", err, low.Stats().SummaryCalls, st.SummaryCalls)
	}

	off := &compacttest.Session{Window: window, Turns: turns}
	spec.CompactAt, spec.NoCompaction = 0, true
	res, err = Run(context.Background(), spec, "sum the turns", WithProvider(off))
	if fe := fault.As(err); fe == nil || fe.Kind != model.KindPromptTooLarge || fe.Detail["window"] != window || off.Stats().Over != 0 || res.Turns >= turns {
		t.Fatalf("%v, %+v", err, off.Stats())
	}
}
