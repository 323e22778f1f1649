package budget

import (
	"math"
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
	}
	for _, c := range cases {
		p, ok := LookupPrice(c.model)
		if ok != c.ok || p.Model != c.want {
			t.Errorf("%s: got %q %v", c.model, p.Model, ok)
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
