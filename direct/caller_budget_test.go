package direct

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// A tool call carries the run's budget tracker, so that a run the tool
// starts (an rlm_subagent child) spends from it; and a direct run started
// by another run's tool call spends from that run's budget.
func TestCallerBudget(t *testing.T) {
	t.Run("a tool call carries the run's tracker", func(t *testing.T) {
		f := newFixture(t, fixOpts{}, completion("", call("c1", "probe_read", `{"q":"x"}`)), final("done"))
		res, err := f.run(t, "q")
		if err != nil {
			t.Fatal(err)
		}
		tr := f.caller.Load()
		if tr == nil || tr.Counters().ModelCalls != 2 || tr.Usage() != res.Usage {
			t.Fatalf("probe_read saw tracker %v: want the run's", tr)
		}
	})
	t.Run("a run started by a tool call spends from the caller", func(t *testing.T) {
		f := newFixture(t, fixOpts{}, final("done"))
		l, err := budget.Limits{MaxModelCalls: 1}.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		caller := budget.NewTracker(l)
		if err := caller.ModelCall(); err != nil {
			t.Fatal(err)
		}
		_, err = f.runCtx(t, budget.WithTracker(context.Background(), caller, 0), "q")
		if fault.KindOf(err) != budget.KindMaxModelCalls || f.requests() != 0 {
			t.Fatalf("run under a spent caller: %v after %d requests; want max_model_calls before any", err, f.requests())
		}
	})
}
