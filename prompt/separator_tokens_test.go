package prompt

import (
	"context"
	"fmt"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/pack"
)

// TestRenderedTextWithinBudget: the packer charges each active unit's
// variant text on its own, but Compiled.Text joins the texts with blank
// lines ("\n\n"), which are never counted: the rendered text exceeds the
// budget the ledger claims it fits in.
func TestRenderedTextWithinBudget(t *testing.T) {
	var specs []Spec
	for i := range 40 {
		specs = append(specs, Spec{Unit: fmt.Sprintf("instruction:rule%02d", i), Activation: Always, Content: "Be terse"})
	}
	cat, err := NewCatalog(specs)
	if err != nil {
		t.Fatal(err)
	}
	counter := pack.CounterFor("gpt-4o")
	per := counter.Count("Be terse")
	policy := pack.Policy{MaxContextTokens: 40 * per} // room for exactly the 40 texts as charged
	r, err := cat.Compile(context.Background(), Input{Text: "hello"}, Options{Model: "gpt-4o", Policy: &policy})
	if fault.KindOf(err) == pack.KindContextBudgetExceeded {
		return // refusing is correct: the rendered text does not fit
	}
	if err != nil {
		t.Fatal(err)
	}
	got := counter.Count(r.Text)
	t.Logf("method %s, active %d, ledger selected %d / available %d, rendered text %d tokens",
		r.Ledger.Method, len(r.ActiveUnits), r.Ledger.SelectedTokens, r.Ledger.AvailableTokens, got)
	if got > r.Ledger.AvailableTokens {
		t.Fatalf("rendered text is %d tokens, over the %d available (ledger charged %d)", got, r.Ledger.AvailableTokens, r.Ledger.SelectedTokens)
	}
}

// byteCounter is a caller's own counter that calls itself by the
// estimator's names: one token per byte.
type byteCounter struct{}

func (byteCounter) Count(text string) int { return len(text) }
func (byteCounter) Method() string        { return "estimated" }
func (byteCounter) Encoding() string      { return "estimate" }

// Token counts cached for one counter are never a charge under another
// that shares its names. Before, the cache was keyed by encoding name
// alone, so a compile under a caller's counter after one under the
// estimator was charged the estimator's counts.
func TestTokenCacheIsPerCounter(t *testing.T) {
	cat, err := NewCatalog([]Spec{{Unit: "instruction:rule", Activation: Always, Content: "Be terse and cite the line numbers."}})
	if err != nil {
		t.Fatal(err)
	}
	est := pack.CounterFor("")
	if est.Encoding() != (byteCounter{}).Encoding() {
		t.Fatalf("the estimator is named %q: the test needs a counter sharing its names", est.Encoding())
	}
	selected := func(c pack.Counter) int {
		r, err := cat.Compile(context.Background(), Input{Text: "hello"}, Options{Counter: c})
		if err != nil {
			t.Fatal(err)
		}
		return r.Ledger.SelectedTokens
	}
	first := selected(est)
	if got, want := selected(byteCounter{}), selected(byteCounter{}); got != want || got == first {
		t.Fatalf("selected %d tokens under the byte counter (again %d), %d under the estimator: the counts are shared", got, want, first)
	}
}
