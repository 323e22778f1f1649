package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/tool"
)

// An effectful tool whose handler outlives its time limit leaves its
// outcome unknown (effect_indeterminate). docs/tools.md: "a step whose
// outcome is unknown is never retried automatically". A plan's retry step
// must not dispatch the effect again.
func TestRetryDoesNotRedispatchIndeterminateEffect(t *testing.T) {
	var dispatched atomic.Int64
	returned := make(chan struct{}, 8)
	tools, rt := putToolsWith(t, tool.Limits{TimeLimit: 30 * time.Millisecond}, func(ctx context.Context, req tool.Request) (any, error) {
		defer func() { returned <- struct{}{} }()
		dispatched.Add(1)
		<-ctx.Done()
		time.Sleep(30 * time.Millisecond) // the effect outlives the limit: outcome unknown
		return map[string]any{}, nil
	})
	rt.Authority().Set(tools.AuthorityContext, authority.Dangerous) // no approval: the write runs

	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:put"))
	plan := steps(map[string]any{"op": "retry", "attempts": 3, "bind": "r", "plan": map[string]any{"steps": []any{
		map[string]any{"op": "tool", "name": "put", "args": map[string]any{"v": "a"}, "bind": "w"},
	}}})
	f := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps},
		reply("Query:", plan), reply("Observation", `{"answer":"done"}`))
	res, err := f.run(t, "store it")
	// The run does not wait for the handler it abandoned: wait for it to
	// return (a fixed sleep missed a handler not yet scheduled).
	select {
	case <-returned:
	case <-time.After(time.Minute): // guards against a hang only
		t.Fatalf("the handler never returned (dispatched %d times)", dispatched.Load())
	}
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	t.Logf("observation-driven answer %v; handler dispatched %d times", res.Answer, dispatched.Load())
	if n := dispatched.Load(); n != 1 {
		t.Fatalf("an effect whose outcome is unknown was dispatched %d times by a plan retry; want 1", n)
	}
}
