package tool

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// A replayed outcome is held to the output limit of the call it answers,
// as a fresh run is: before, the journal's replay (a resumed run) and
// allow_once's replay (an exact retry) returned the recorded value
// whatever the caller's MaxOutputBytes.
func TestReplayHonoursCallOutputLimit(t *testing.T) {
	ctx := context.Background()
	tight := func(v string) Call {
		c := putCall(v)
		c.Options.MaxOutputBytes = 4
		return c
	}
	t.Run("journal", func(t *testing.T) {
		var mu sync.Mutex
		var log []string
		rt := identityRuntime(t, filepath.Join(t.TempDir(), "effects.db"), "/ws", &log, &mu)
		run := NewRun()
		if res, _ := rt.Invoke(WithRun(ctx, run), putCall("x")); res.Status != StatusOK || len(res.Value) <= 4 {
			t.Fatalf("%+v", res)
		}
		res, _ := rt.Invoke(WithRun(ctx, ResumeRun(run.ID())), tight("x"))
		if !res.Replayed || fault.KindOf(res.Error) != KindOversizedOutput {
			t.Fatalf("replayed %v, %s %s %v under a 4-byte limit; want oversized_output", res.Replayed, res.Status, res.Value, res.Error)
		}
	})
	t.Run("allow_once", func(t *testing.T) {
		var mu sync.Mutex
		var log []string
		rt := identityRuntime(t, filepath.Join(t.TempDir(), "effects.db"), "/ws", &log, &mu)
		rt.Authority().Set("session:t", authority.AllowOnce)
		if res, _ := rt.Invoke(ctx, putCall("x")); res.Status != StatusOK || len(res.Value) <= 4 {
			t.Fatalf("%+v", res)
		}
		res, _ := rt.Invoke(ctx, tight("x"))
		if !res.Replayed || fault.KindOf(res.Error) != KindOversizedOutput {
			t.Fatalf("replayed %v, %s %s %v under a 4-byte limit; want oversized_output", res.Replayed, res.Status, res.Value, res.Error)
		}
	})
}
