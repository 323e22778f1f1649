package engine

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// {"text":E} needs context:slice (docs/engine.md, "Reading text"), and a
// plan "is validated whole before any step runs (... capabilities ...)".
// A plan using text without context:slice must be refused before its first
// step makes a sub-call.
func TestTextCapabilityCheckedBeforeAnyStep(t *testing.T) {
	p := steps(
		map[string]any{"op": "model", "prompt": "first", "bind": "a"},
		map[string]any{"op": "model", "prompt": map[string]any{"text": input("context")}, "bind": "b"},
		map[string]any{"op": "final", "value": ref("b")},
	)
	f := newFixture(t, haystack, Config{Capabilities: capability.MustSet("model:test-model", "context:search")},
		reply("Query: q", p), reply("first", "sub answer"))
	res, err := f.run(t, "q")
	if fe := fault.As(err); fe == nil || fe.Kind != capability.KindDenied {
		t.Fatalf("want capability_denied, got %v", err)
	}
	if fe := fault.As(err); fe.Phase != fault.PhaseValidate || res.Counters.ModelCalls != 1 {
		t.Fatalf("the denial came after execution started: phase %s, path %v, model calls %d (want 1: the root turn only)",
			fe.Phase, fe.Detail["path"], res.Counters.ModelCalls)
	}
}

// Each {"text":E} is one context operation against max_context_ops
// (docs/engine.md). A map whose items read text must be refused by Admit
// before any item runs, as it is when the items use context steps.
func TestMapAdmitCountsTextContextOps(t *testing.T) {
	items := []any{"a", "b", "c", "d", "e"}
	p := steps(
		map[string]any{"op": "map", "over": items, "as": "x", "concurrency": 1, "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "model", "prompt": map[string]any{"join": []any{ref("x"), map[string]any{"text": input("context")}}}, "bind": "m"},
		}}},
		map[string]any{"op": "final", "value": ref("out")},
	)
	f := newFixture(t, haystack, Config{Limits: budget.Limits{MaxContextOps: 2}},
		reply("Query: q", p), reply("alpha", "sub answer"))
	res, err := f.run(t, "q")
	if fault.KindOf(err) != budget.KindMaxContextOps {
		t.Fatalf("want max_context_ops_exceeded, got %v", err)
	}
	if res.Counters.ModelCalls != 1 {
		t.Fatalf("fan-out admitted although its items need %d context ops > 2: %d sub model calls made before the budget error (counters %+v)",
			len(items), res.Counters.ModelCalls-1, res.Counters)
	}
}

// A fan-out of rlm steps is admitted against the model calls its children
// need, one root turn each at the least: before, an rlm step counted none,
// so a map over five children was admitted with three calls left and ran
// children until the budget ran out.
func TestMapAdmitCountsRLMChildren(t *testing.T) {
	p := steps(
		map[string]any{"op": "map", "over": []any{"a", "b", "c", "d", "e"}, "as": "x", "concurrency": 1, "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "rlm", "query": "child", "context": input("context"), "bind": "m"},
		}}},
		map[string]any{"op": "final", "value": ref("out")},
	)
	f := newFixture(t, haystack, Config{Limits: budget.Limits{MaxModelCalls: 4}},
		reply("Query: q", p), reply("Query: child", `{"answer":"child answer"}`))
	res, err := f.run(t, "q")
	if fault.KindOf(err) != budget.KindMaxModelCalls || res.Counters.ModelCalls != 1 {
		t.Fatalf("err %v after %d model calls; want max_model_calls_exceeded before any child ran", err, res.Counters.ModelCalls)
	}
}

// The static estimate is checked against what is left of a calling run's
// budget too: a plan of three model steps under a caller with two calls
// left is refused before any step runs.
func TestStaticEstimateCountsCallerBudget(t *testing.T) {
	p := steps(
		map[string]any{"op": "model", "prompt": "sub 1", "bind": "a"},
		map[string]any{"op": "model", "prompt": "sub 2", "bind": "b"},
		map[string]any{"op": "model", "prompt": "sub 3", "bind": "c"},
		map[string]any{"op": "final", "value": ref("c")},
	)
	f := newFixture(t, haystack, Config{}, reply("Query: q", p), reply("sub", "sub answer"))
	l, err := budget.Limits{MaxModelCalls: 3}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	caller := budget.NewTracker(l)
	res, _ := f.eng.Run(budget.WithTracker(context.Background(), caller, 0), "q", f.h)
	if n := caller.Counters().ModelCalls; res.Status == StatusCompleted || n > 2 {
		t.Fatalf("status %s, caller charged %d model calls: a sub-call ran although the plan could not fit the caller's budget", res.Status, n)
	}
}
