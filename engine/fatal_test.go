package engine

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

func TestIsFatalByPhaseAndKind(t *testing.T) {
	ctxTimeout := fault.FromContext(fault.PhaseTool, context.DeadlineExceeded)
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"tool's own time limit", fault.New(fault.PhaseTool, fault.KindTimeout, "the handler exceeded its time limit"), false},
		{"tool's own time limit under a step error", fault.Wrap(fault.New(fault.PhaseTool, fault.KindTimeout, "x"), fault.PhaseExecute, "step_failed", "step 1 failed"), false},
		{"tool call ended by the run's deadline", ctxTimeout, true},
		{"the run's deadline under a step error", fault.Wrap(ctxTimeout, fault.PhaseExecute, "step_failed", "step 1 failed"), true},
		{"provider timeout", fault.New(fault.PhaseProvider, fault.KindTimeout, "deadline exceeded"), true},
		{"execute timeout", fault.FromContext(fault.PhaseExecute, context.DeadlineExceeded), true},
		{"time limit budget", fault.New(fault.PhaseBudget, budget.KindTimeLimit, "x"), true},
		{"token budget", fault.New(fault.PhaseBudget, budget.KindMaxTotalTokens, "x"), true},
		{"tool cancelled", fault.FromContext(fault.PhaseTool, context.Canceled), true},
		{"tool handler failure", fault.New(fault.PhaseTool, tool.KindHandlerFailed, "x"), false},
		{"capability denied", fault.New(fault.PhaseValidate, capability.KindDenied, "x"), true},
		{"context file changed", fault.New(fault.PhaseContext, corpus.KindContextChanged, "x"), true},
		{"not a fault", context.DeadlineExceeded, true},
	}
	for _, c := range cases {
		if got := isFatal(c.err); got != c.want {
			t.Errorf("%s: isFatal = %v, want %v", c.name, got, c.want)
		}
	}
}

// blockingTool registers "wait", whose handler blocks until its context
// ends, with the given time limit.
func blockingTool(t *testing.T, limit time.Duration) *tool.ModelTools {
	t.Helper()
	reg := tool.NewRegistry()
	err := reg.Register(tool.Spec{
		Name: "wait", Description: "wait for something",
		Args:   json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Result: json.RawMessage(`{"type":"string"}`),
		Effect: authority.EffectRead,
		Limits: tool.Limits{TimeLimit: limit},
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &tool.ModelTools{Registry: reg, Invoker: tool.NewRuntime(reg, tool.Config{})}
}

// A tool's own time limit is an observation the model can react to.
func TestToolTimeoutIsObserved(t *testing.T) {
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:wait"))
	f := newFixture(t, haystack, Config{Tools: blockingTool(t, time.Millisecond), Capabilities: caps},
		reply("Query: stall", steps(map[string]any{"op": "tool", "name": "wait", "args": map[string]any{}, "bind": "w"})),
		reply("tool/timeout", `{"answer":"the tool timed out"}`),
	)
	res, err := f.run(t, "stall")
	if err != nil || res.Answer != "the tool timed out" || res.Turns != 2 {
		t.Fatalf("want the timeout observed and answered, got %v (answer %v, turns %d)", err, res.Answer, res.Turns)
	}
}

// The run's own time limit stays fatal even when it ends a tool call.
func TestRunTimeLimitDuringToolIsFatal(t *testing.T) {
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:wait"))
	f := newFixture(t, haystack, Config{Tools: blockingTool(t, time.Hour), Capabilities: caps,
		Limits: budget.Limits{TimeLimit: 100 * time.Millisecond}},
		reply("Query: stall", steps(map[string]any{"op": "tool", "name": "wait", "args": map[string]any{}, "bind": "w"})),
		reply("tool/timeout", `{"answer":"must not be asked"}`),
	)
	res, err := f.run(t, "stall")
	if fault.KindOf(err) != budget.KindTimeLimit || res.Turns != 1 {
		t.Fatalf("want %s after one turn, got %v (turns %d)", budget.KindTimeLimit, err, res.Turns)
	}
}
