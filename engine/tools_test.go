package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

func upperTool(t *testing.T, calls *atomic.Int64) *tool.ModelTools {
	t.Helper()
	reg := tool.NewRegistry()
	err := reg.Register(tool.Spec{
		Name: "upper", Description: "upper-case a string",
		Args:   json.RawMessage(`{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}`),
		Result: json.RawMessage(`{"type":"string"}`),
		Effect: authority.EffectRead,
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			calls.Add(1)
			var a struct{ S string }
			if err := json.Unmarshal(req.Args, &a); err != nil {
				return nil, err
			}
			return strings.ToUpper(a.S), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	rt := tool.NewRuntime(reg, tool.Config{})
	return &tool.ModelTools{Registry: reg, Invoker: rt}
}

func TestToolStepThroughRuntime(t *testing.T) {
	var calls atomic.Int64
	tools := upperTool(t, &calls)
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:upper"))
	f := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps},
		reply("upper: upper-case a string", steps(
			map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": "abc"}, "bind": "u"},
			map[string]any{"op": "final", "value": ref("u")},
		)),
	)
	res, err := f.run(t, "shout")
	if err != nil || res.Answer != "ABC" || calls.Load() != 1 || res.Counters.ToolCalls != 1 {
		t.Fatalf("%v %+v calls=%d", err, res.Answer, calls.Load())
	}

	// Schema failure: the tool runtime's typed error becomes an observation.
	g := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps},
		reply("Query: shout", steps(map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": 1}, "bind": "u"})),
		reply("schema_validation_failed", `{"answer":"gave up"}`),
	)
	res, err = g.run(t, "shout")
	if err != nil || res.Answer != "gave up" || calls.Load() != 1 {
		t.Fatalf("%v %+v", err, res.Answer)
	}
}

// The child's tool calls are authorized against the child's narrowed set:
// the default child set has no tools.
func TestChildToolCallDenied(t *testing.T) {
	var calls atomic.Int64
	tools := upperTool(t, &calls)
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:upper"))
	f := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps},
		reply("Query: root", rlmPlan("child")),
		reply("Query: child", steps(map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": "x"}, "bind": "u"})),
	)
	_, err := f.run(t, "root")
	if fault.KindOf(err) != capability.KindDenied || calls.Load() != 0 {
		t.Fatalf("want capability_denied and no call, got %v (calls %d)", err, calls.Load())
	}
}

func TestToolCallBudget(t *testing.T) {
	var calls atomic.Int64
	tools := upperTool(t, &calls)
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:upper"))
	f := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps, Limits: budget.Limits{MaxToolCalls: 1}},
		reply("Query: q", steps(
			map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": "a"}, "bind": "a"},
			map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": "b"}, "bind": "b"},
		)),
	)
	res, err := f.run(t, "q")
	// The static estimate (2 tool calls) exceeds the remaining budget (1):
	// the plan is refused before anything runs.
	if fault.KindOf(err) != "budget_exceeded" || calls.Load() != 0 || res.Usage.Calls != 1 {
		t.Fatalf("%v calls=%d", err, calls.Load())
	}
	// At run time: a map fan-out needing more tool calls than remain.
	g := newFixture(t, haystack, Config{Tools: tools, Capabilities: caps, Limits: budget.Limits{MaxToolCalls: 2}},
		reply("Query: q", steps(
			map[string]any{"op": "map", "over": []any{"a", "b", "c"}, "as": "x", "bind": "out", "plan": map[string]any{"steps": []any{
				map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": ref("x")}, "bind": "u"},
			}}},
		)),
	)
	_, err = g.run(t, "q")
	if fault.KindOf(err) != budget.KindMaxToolCalls || calls.Load() != 0 {
		t.Fatalf("want max_tool_calls_exceeded before any call, got %v calls=%d", err, calls.Load())
	}
}

func TestTextBeyondPromptLimitIsObserved(t *testing.T) {
	f := newFixture(t, haystack, Config{PromptBytes: 10},
		reply("Query: q", steps(map[string]any{"op": "model", "prompt": map[string]any{"text": input("context")}, "bind": "m"})),
		reply("prompt_too_large", `{"answer":"too big"}`),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "too big" || res.Counters.ModelCalls != 2 {
		t.Fatalf("%v %+v", err, res)
	}
}

// Reading a handle's text is a slice: it needs context:slice and counts as a
// context operation.
func TestTextNeedsSliceAndCountsAsContextOp(t *testing.T) {
	prompt := steps(map[string]any{"op": "model", "prompt": map[string]any{"text": input("context")}, "bind": "m"},
		map[string]any{"op": "final", "value": ref("m")})
	f := newFixture(t, haystack, Config{}, reply("Query: q", prompt), reply("alpha line", "summary"))
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "summary" || res.Counters.ContextOps != 1 {
		t.Fatalf("%v %+v", err, res.Counters)
	}
	g := newFixture(t, haystack, Config{Capabilities: capability.MustSet("model:test-model", "context:search")}, reply("Query: q", prompt))
	_, err = g.run(t, "q")
	if fe := fault.As(err); fe == nil || fe.Kind != capability.KindDenied || fe.Detail["capability"] != "context:slice" {
		t.Fatalf("want capability_denied for context:slice, got %v", err)
	}
}
