package pack

import (
	"math"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// Limits at the edge of int: a reserve and margin that together exceed the
// window must be refused, not wrap around to a small positive budget.
func TestPolicyAvailableDoesNotWrap(t *testing.T) {
	for _, p := range []Policy{
		{MaxContextTokens: 10, ReserveOutputTokens: math.MaxInt, SafetyMarginTokens: math.MaxInt},
		{MaxContextTokens: 10, ReserveOutputTokens: math.MaxInt, SafetyMarginTokens: 2},
		{MaxContextTokens: math.MaxInt, ReserveOutputTokens: math.MaxInt, SafetyMarginTokens: 1},
	} {
		if avail, err := p.Available(); fault.KindOf(err) != KindInvalidPolicy {
			t.Errorf("%+v: available %d, err %v; want invalid_policy", p, avail, err)
		}
	}
}

// Token counts at the edge of int never wrap a sum to a small or negative
// number: what does not fit is never chosen, and mandatory items that do
// not fit together fail with context_budget_exceeded.
func TestPackHugeTokensDoNotWrap(t *testing.T) {
	window := Policy{MaxContextTokens: math.MaxInt}
	huge := math.MaxInt - 5
	cases := []struct {
		name  string
		items []Item
		want  []int
		kind  fault.Kind
	}{
		{"two mandatory items overflowing together", []Item{
			{ID: "a", Mandatory: true, Variants: []Variant{v("full", huge, 1)}},
			{ID: "b", Mandatory: true, Variants: []Variant{v("full", huge, 1)}},
		}, nil, KindContextBudgetExceeded},
		{"greedy sum overflowing", []Item{
			{ID: "a", Variants: []Variant{v("full", huge, 10)}},
			{ID: "b", Variants: []Variant{v("full", huge, 10)}},
			{ID: "c", Variants: []Variant{v("full", 1, 1)}},
		}, []int{0, -1, 0}, ""},
		{"mandatory plus optional overflowing", []Item{
			{ID: "a", Mandatory: true, Variants: []Variant{v("full", huge, 1)}},
			{ID: "b", Variants: []Variant{v("full", huge, 100)}},
		}, []int{0, -1}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Pack(c.items, window, nil)
			if c.kind != "" {
				if fault.KindOf(err) != c.kind {
					t.Fatalf("choice %v err %v, want %s", res.Choice, err, c.kind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slicesEqual(res.Choice, c.want) {
				t.Fatalf("choice %v, want %v (selected %d tokens of %d)", res.Choice, c.want, res.Ledger.SelectedTokens, res.Ledger.AvailableTokens)
			}
			if res.Ledger.SelectedTokens < 0 || res.Ledger.SelectedTokens > res.Ledger.AvailableTokens {
				t.Fatalf("selected %d of %d", res.Ledger.SelectedTokens, res.Ledger.AvailableTokens)
			}
		})
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
