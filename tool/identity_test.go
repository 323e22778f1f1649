package tool

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
)

// identityRuntime is a runtime over one effectful tool that records every
// execution's arguments, on the journal at path, acting on root.
func identityRuntime(t *testing.T, path, root string, log *[]string, mu *sync.Mutex) *Runtime {
	t.Helper()
	reg := NewRegistry()
	mustRegister(t, reg, Spec{
		Name: "put", Effect: authority.EffectWrite,
		Args:   json.RawMessage(`{"type":"object","properties":{"v":{"type":"string"}},"required":["v"]}`),
		Result: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req Request) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			*log = append(*log, root+":"+string(req.Args))
			return map[string]any{"n": len(*log)}, nil
		},
	})
	j, err := effect.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	rt := NewRuntime(reg, Config{Journal: j, Root: root})
	rt.Authority().Set("session:t", authority.AllowSession)
	return rt
}

func putCall(v string) Call {
	return Call{Name: "put", Args: json.RawMessage(`{"v":"` + v + `"}`),
		Invocation: Invocation{Capabilities: capability.MustSet("tool:put"), AuthorityContext: "session:t"}}
}

// TestEffectIdentityIsTheOperation: v1, v2, v1 runs three times in one run
// and in three runs; another root is another effect; a resumed run replays
// exactly its own recorded calls, in occurrence order, marked replayed.
func TestEffectIdentityIsTheOperation(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	path := filepath.Join(t.TempDir(), "effects.db")
	rt := identityRuntime(t, path, "/ws/a", &log, &mu)

	// One run (the runtime's own session): three operations.
	for _, v := range []string{"v1", "v2", "v1"} {
		res, _ := rt.Invoke(ctx, putCall(v))
		if res.Status != StatusOK || res.Replayed {
			t.Fatalf("%s: %+v", v, res)
		}
	}
	// Three runs (three CLI invocations): three more.
	var runs []*Run
	for _, v := range []string{"v1", "v2", "v1"} {
		r := NewRun()
		runs = append(runs, r)
		res, _ := rt.Invoke(WithRun(ctx, r), putCall(v))
		if res.Status != StatusOK || res.Replayed {
			t.Fatalf("run %s: %+v", v, res)
		}
	}
	// Another root, same run id: another effect.
	other := identityRuntime(t, path, "/ws/b", &log, &mu)
	if res, _ := other.Invoke(WithRun(ctx, ResumeRun(runs[0].ID())), putCall("v1")); res.Status != StatusOK || res.Replayed {
		t.Fatalf("other root: %+v", res)
	}
	if len(log) != 7 {
		t.Fatalf("executions %v", log)
	}

	// Resume the first run: v1 (occurrence 1) replays; a second v1 in the
	// resumed run is a new operation (occurrence 2) and runs.
	resumed := ResumeRun(runs[0].ID())
	res, _ := rt.Invoke(WithRun(ctx, resumed), putCall("v1"))
	if res.Status != StatusOK || !res.Replayed || res.Trace.Status != TraceStatusReplayed || string(res.Value) != `{"n":4}` {
		t.Fatalf("resumed: %+v", res)
	}
	if resumed.Replayed() != 1 || !resumed.Resumed() {
		t.Fatalf("run counters: replayed %d", resumed.Replayed())
	}
	if res, _ := rt.Invoke(WithRun(ctx, resumed), putCall("v1")); res.Replayed || len(log) != 8 {
		t.Fatalf("second v1 in the resumed run: %+v %v", res, log)
	}
	// A run's calls never replay into another run.
	if res, _ := rt.Invoke(WithRun(ctx, NewRun()), putCall("v2")); res.Replayed || len(log) != 9 {
		t.Fatalf("new run replayed: %+v", res)
	}
}

// TestOccurrenceDeterministic: concurrent calls of one run get occurrence
// numbers per identical operation, so a resumed run replays every one of
// them however the originals interleaved.
func TestOccurrenceDeterministic(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	rt := identityRuntime(t, filepath.Join(t.TempDir(), "effects.db"), "/ws", &log, &mu)
	run := NewRun()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rt.Invoke(WithRun(ctx, run), putCall([]string{"a", "b"}[i%2]))
		}()
	}
	wg.Wait()
	if len(log) != 8 {
		t.Fatalf("executions %d", len(log))
	}
	resumed := ResumeRun(run.ID())
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res, _ := rt.Invoke(WithRun(ctx, resumed), putCall([]string{"b", "a"}[i%2])); !res.Replayed {
				t.Errorf("not replayed: %+v", res)
			}
		}()
	}
	wg.Wait()
	if len(log) != 8 || resumed.Replayed() != 8 {
		t.Fatalf("executions %d, replayed %d", len(log), resumed.Replayed())
	}
}
