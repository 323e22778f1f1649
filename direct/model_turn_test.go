package direct

import (
	"testing"

	"github.com/rlm-go/rlm/budget"
)

// AUDIT: max_model_calls counts provider requests (docs/budget.md), and "a
// refused admission is counted in neither". When a turn's iteration is
// refused, no request is sent, yet the tree-wide model-call counter has
// already been incremented by ModelCall(): the shared tracker is charged
// a model call that never happened.
func TestRefusedIterationDoesNotChargeModelCall(t *testing.T) {
	l, err := budget.Limits{MaxIterations: 1}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	tr := budget.NewTracker(l)
	f := newFixture(t, fixOpts{edit: func(c *Config) { c.Tracker = tr }},
		completion("", call("a", "probe_read", validRead)), final("unreachable"))
	_, err = f.run(t, "probe")
	wantFault(t, err, "budget", budget.KindMaxIterations)
	if got, sent := tr.Counters().ModelCalls, int64(f.requests()); got != sent {
		t.Fatalf("model_calls counter = %d, provider requests sent = %d", got, sent)
	}
}
