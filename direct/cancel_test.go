package direct

import (
	"context"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// TestCancellationAfterToolResultIsNotObserved: a tool result produced
// while the run was being cancelled is not turned into an observation or
// a native_tool event; the run ends cancelled.
func TestCancellationAfterToolResultIsNotObserved(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFixture(t, fixOpts{edit: func(c *Config) {
		c.Tools = invokerFunc(func(_ context.Context, cl tool.Call) (tool.Result, error) {
			cancel()
			return tool.Result{Status: tool.StatusError, Error: fault.New(fault.PhaseTool, fault.KindCancelled, "cancelled")}, nil
		})
	}}, completion("", call("a", "probe_read", validRead)), final("unreachable"))
	_, err := f.runCtx(t, ctx, "probe")
	de := wantFault(t, err, fault.PhaseExecute, fault.KindCancelled)
	if de.OutputBytes != 0 || de.ToolCalls != 1 {
		t.Errorf("err state %+v", de)
	}
	for _, e := range de.Events {
		if e.CallID != "" {
			t.Errorf("cancellation recorded as a call outcome: %+v", e)
		}
	}
}

// TestTimeLimitBoundsProviderCall: the run's time limit bounds a provider
// call in flight and ends the run with the budget error, state attached.
func TestTimeLimitBoundsProviderCall(t *testing.T) {
	f := newFixture(t, fixOpts{delayMS: 5000, limits: Limits{Limits: budget.Limits{TimeLimit: 150 * time.Millisecond}}}, final("late"))
	start := time.Now()
	_, err := f.run(t, "slow")
	de := wantFault(t, err, fault.PhaseBudget, budget.KindTimeLimit)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("the run took %v", el)
	}
	if de.Turns != 0 {
		t.Errorf("err state %+v", de)
	}
}
