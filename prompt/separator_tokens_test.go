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
