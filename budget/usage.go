// Package budget holds usage accounting, run-time limits with shared
// counters, and the price table used to estimate cost.
package budget

import "math"

// Usage is the token and cost accounting of one or more model calls.
//
// Token counts are "known" when the server reported them. Cost is known when
// the server reported it (for example OpenRouter's usage.cost); otherwise it
// may be estimated from the price table, in which case CostEstimated is set.
type Usage struct {
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	TotalTokens      int64   `json:"total_tokens"`
	TokensKnown      bool    `json:"tokens_known"`
	CostUSD          float64 `json:"cost_usd"`
	CostKnown        bool    `json:"cost_known"`
	CostEstimated    bool    `json:"cost_estimated"`
	Calls            int64   `json:"calls"`
	// Cache savings: model calls answered from a cache (package
	// model/cache) instead of a provider, and the tokens and cost those
	// calls spent when they were first made. They are never counted in the
	// fields above (a hit costs nothing) and are omitted when zero.
	SavedCalls   int64   `json:"saved_calls,omitempty"`
	SavedTokens  int64   `json:"saved_tokens,omitempty"`
	SavedCostUSD float64 `json:"saved_cost_usd,omitempty"`
	// CachedTokens are the prompt tokens read from the provider's prompt
	// cache (part of PromptTokens, priced at the cached-input price), and
	// CacheWriteTokens those written to it (Anthropic; also part of
	// PromptTokens, priced at the cache-write price).
	CachedTokens     int64 `json:"cached_tokens,omitempty"`
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
	// TokensEstimated reports token counts the provider did not send,
	// counted with the tokenizer instead (TokensKnown is then false); they
	// are charged against token budgets like reported ones.
	TokensEstimated bool `json:"tokens_estimated,omitempty"`
}

// Add returns the sum of u and v. Flags combine conservatively: the sum's
// tokens (or cost) are known only when both parts are known (or when one side
// has no calls), and its cost is estimated when either part's is. Savings
// add up. Counts saturate at math.MaxInt64 and costs at
// math.MaxFloat64 instead of wrapping or becoming infinite.
func (u Usage) Add(v Usage) Usage {
	out := u.addSpent(v)
	out.SavedCalls = AddTokens(u.SavedCalls, v.SavedCalls)
	out.SavedTokens = AddTokens(u.SavedTokens, v.SavedTokens)
	out.SavedCostUSD = addCost(u.SavedCostUSD, v.SavedCostUSD)
	return out
}

// Saved returns the usage of a cache hit for a call that spent u: nothing
// spent, u's tokens and cost (and its own savings) recorded as saved.
func (u Usage) Saved() Usage {
	u = u.Clean()
	return Usage{SavedCalls: AddTokens(max(u.Calls, 1), u.SavedCalls), SavedTokens: AddTokens(u.TotalTokens, u.SavedTokens), SavedCostUSD: addCost(u.CostUSD, u.SavedCostUSD)}
}

// Possible reports whether u is a usage a call can have: no count is
// negative, and its costs are finite and not negative. A provider
// refuses a server's report that is not (docs/budget.md, "Usage a
// server cannot have"); the Tracker never lets one lower what it has
// counted.
func (u Usage) Possible() bool {
	for _, n := range [...]int64{u.PromptTokens, u.CompletionTokens, u.TotalTokens, u.Calls, u.SavedCalls, u.SavedTokens, u.CachedTokens, u.CacheWriteTokens} {
		if n < 0 {
			return false
		}
	}
	return goodCost(u.CostUSD) && goodCost(u.SavedCostUSD)
}

// Clean returns u with what Possible refuses made harmless: a negative
// count or cost (or a NaN cost) reads as 0 and an infinite cost as
// math.MaxFloat64, so that adding it never lowers a sum and the sum
// stays encodable as JSON. A possible usage is returned as it is.
func (u Usage) Clean() Usage {
	for _, n := range [...]*int64{&u.PromptTokens, &u.CompletionTokens, &u.TotalTokens, &u.Calls, &u.SavedCalls, &u.SavedTokens, &u.CachedTokens, &u.CacheWriteTokens} {
		*n = max(*n, 0)
	}
	u.CostUSD, u.SavedCostUSD = cleanCost(u.CostUSD), cleanCost(u.SavedCostUSD)
	return u
}

func goodCost(c float64) bool { return c >= 0 && !math.IsInf(c, 1) } // NaN fails c >= 0

func cleanCost(c float64) float64 {
	switch {
	case math.IsInf(c, 1):
		return math.MaxFloat64
	case !(c > 0): // NaN, negative, zero
		return 0
	}
	return c
}

// AddTokens returns a+b saturating at math.MaxInt64 (and math.MinInt64)
// instead of wrapping: two huge counts never add up to a negative one.
func AddTokens(a, b int64) int64 {
	s := a + b
	switch {
	case b > 0 && s < a:
		return math.MaxInt64
	case b < 0 && s > a:
		return math.MinInt64
	}
	return s
}

// addCost returns a+b, saturating at math.MaxFloat64.
func addCost(a, b float64) float64 {
	if s := a + b; !math.IsInf(s, 1) {
		return s
	}
	return math.MaxFloat64
}

func (u Usage) addSpent(v Usage) Usage {
	switch {
	case u.Calls == 0 && u.TotalTokens == 0 && u.CostUSD == 0:
		return v
	case v.Calls == 0 && v.TotalTokens == 0 && v.CostUSD == 0:
		return u
	}
	return Usage{
		PromptTokens:     AddTokens(u.PromptTokens, v.PromptTokens),
		CompletionTokens: AddTokens(u.CompletionTokens, v.CompletionTokens),
		TotalTokens:      AddTokens(u.TotalTokens, v.TotalTokens),
		TokensKnown:      u.TokensKnown && v.TokensKnown,
		CostUSD:          addCost(u.CostUSD, v.CostUSD),
		CostKnown:        u.CostKnown && v.CostKnown,
		CostEstimated:    u.CostEstimated || v.CostEstimated,
		Calls:            AddTokens(u.Calls, v.Calls),
		CachedTokens:     AddTokens(u.CachedTokens, v.CachedTokens),
		CacheWriteTokens: AddTokens(u.CacheWriteTokens, v.CacheWriteTokens),
		TokensEstimated:  u.TokensEstimated || v.TokensEstimated,
	}
}
