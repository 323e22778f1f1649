package budget

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestLookupPrice(t *testing.T) {
	cases := []struct {
		model string
		want  string
		ok    bool
	}{
		{"gpt-4o-mini", "gpt-4o-mini", true},
		{"gpt-4o-mini-2024-07-18", "gpt-4o-mini", true},
		{"openai/gpt-4o", "gpt-4o", true},
		{"GPT-4o", "gpt-4o", true},
		{"gpt-5-mini", "gpt-5-mini", true},
		{"meta-llama/llama-3.3-70b-instruct:free", "llama-3.3-70b-instruct", true},
		{"my-local-model", "", false},
		{"gpt-4o-minix", "gpt-4o", true}, // a name of the table and a suffix
		{"gpt-4ox", "", false},           // a name of the table and more, not a suffix
		{"gpt-4o:extended", "gpt-4o", true},
		{"my-local-model", "", false}, // the same name again
	}
	// Twice over, each name after another: the last answer is
	// remembered, and must be that name's.
	for range 2 {
		for _, c := range cases {
			p, ok := LookupPrice(c.model)
			if !c.ok {
				c.want = ""
			}
			if ok != c.ok || p.Model != c.want {
				t.Errorf("%s: got %q %v", c.model, p.Model, ok)
			}
		}
	}
}

func TestEstimatedCostMarked(t *testing.T) {
	u := WithEstimatedCost(Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000, TotalTokens: 2_000_000, TokensKnown: true, Calls: 1}, "gpt-4o-mini")
	if !u.CostEstimated || u.CostKnown || math.Abs(u.CostUSD-0.75) > 1e-9 {
		t.Fatalf("%+v", u)
	}
	reported := WithEstimatedCost(Usage{CostUSD: 0.5, CostKnown: true, Calls: 1}, "gpt-4o-mini")
	if reported.CostUSD != 0.5 || reported.CostEstimated {
		t.Fatal("reported cost overwritten")
	}
}

// EstimateCost and Prices agree with the table WithEstimatedCost uses.
func TestEstimateCostAndPrices(t *testing.T) {
	c, ok := EstimateCost("openai/gpt-4o-mini-2024-07-18", 1_000_000, 1_000_000)
	if !ok || math.Abs(c-0.75) > 1e-9 {
		t.Fatalf("EstimateCost = %v, %v; want 0.75, true", c, ok)
	}
	if _, ok := EstimateCost("no-such-model", 1, 1); ok {
		t.Fatal("an unpriced model has a cost")
	}
	ps := Prices()
	if len(ps) == 0 || !slices.IsSortedFunc(ps, func(a, b Price) int { return strings.Compare(a.Model, b.Model) }) {
		t.Fatalf("Prices() is empty or unsorted: %v", ps)
	}
	ps[0].InputPerMillion = -1 // a copy: the table is unchanged
	if p, _ := LookupPrice(ps[0].Model); p.InputPerMillion < 0 {
		t.Fatal("Prices() returned the table itself")
	}
}

func TestUsageAdd(t *testing.T) {
	a := Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3, TokensKnown: true, CostUSD: 1, CostKnown: true, Calls: 1}
	b := Usage{PromptTokens: 10, TotalTokens: 10, TokensKnown: true, CostUSD: 2, CostEstimated: true, Calls: 1}
	s := a.Add(b)
	if s.TotalTokens != 13 || s.CostUSD != 3 || s.CostKnown || !s.CostEstimated || s.Calls != 2 || !s.TokensKnown {
		t.Fatalf("%+v", s)
	}
	if (Usage{}).Add(a) != a || a.Add(Usage{}) != a {
		t.Fatal("zero is not identity")
	}
}
