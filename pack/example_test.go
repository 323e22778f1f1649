package pack_test

import (
	"fmt"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/pack"
)

// Choose one representation per unit under a hard token budget: the
// mandatory system prompt always fits, the rest get the variants that give
// the most utility in what is left (here 1000 - 200 - 100 = 700 tokens).
func ExamplePack() {
	items := []pack.Item{
		{ID: "system", Mandatory: true, Variants: []pack.Variant{{Kind: "full", Tokens: 300, Utility: 100}}},
		{ID: "tool:fs_read", Variants: []pack.Variant{{Kind: "full", Tokens: 250, Utility: 50}, {Kind: "compact", Tokens: 80, Utility: 30}}},
		{ID: "skill:deploy", Variants: []pack.Variant{{Kind: "full", Tokens: 400, Utility: 60}, {Kind: "compact", Tokens: 150, Utility: 40}}},
	}
	policy := pack.Policy{MaxContextTokens: 1000, ReserveOutputTokens: 200, SafetyMarginTokens: 100}
	res, err := pack.Pack(items, policy, pack.CounterFor("gpt-4o-mini"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range res.Choice {
		kind := pack.Omitted
		if c >= 0 {
			kind = items[i].Variants[c].Kind
		}
		fmt.Println(items[i].ID, kind)
	}
	fmt.Println(res.Ledger.AvailableTokens, res.Ledger.SelectedTokens, res.Ledger.Utility)

	policy.MaxContextTokens = 500
	_, err = pack.Pack(items, policy, pack.CounterFor("gpt-4o-mini"))
	fmt.Println(fault.KindOf(err))
	// Output:
	// system full
	// tool:fs_read full
	// skill:deploy compact
	// 700 700 190
	// context_budget_exceeded
}
