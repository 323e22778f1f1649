package direct

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/budget"
)

// AUDIT: a direct run started under a caller's tracker spends from the
// caller's budget (docs/budget.md), so "more resolved calls than the
// tool-call budget still allows" must be judged against what the caller
// has left too. Otherwise the batch passes Classify, its first read runs,
// and the second read is refused mid-batch by the tracker: a partially
// executed batch instead of the batch-fatal tool_call_budget_exhausted
// with nothing run.
func TestCallerBudgetBatchFatalBeforeExecution(t *testing.T) {
	f := newFixture(t, fixOpts{},
		completion("", call("a", "probe_read", validRead), call("b", "probe_read", validRead)),
		final("unreachable"))
	l, err := budget.Limits{MaxToolCalls: 1}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	caller := budget.NewTracker(l) // one tool call left for the whole tree
	_, err = f.runCtx(t, budget.WithTracker(context.Background(), caller, 0), "probe")
	if f.reads.Load() != 0 {
		t.Errorf("batch partially executed: %d handler(s) ran", f.reads.Load())
	}
	de := wantFault(t, err, PhaseNativeCall, KindToolCallBudget)
	if de.ToolCalls != 0 {
		t.Errorf("tool_calls charged: %d", de.ToolCalls)
	}
}
