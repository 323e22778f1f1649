// Package budget holds usage accounting, run-time limits with shared
// counters, and the price table used to estimate cost.
package budget

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
// add up.
func (u Usage) Add(v Usage) Usage {
	out := u.addSpent(v)
	out.SavedCalls = u.SavedCalls + v.SavedCalls
	out.SavedTokens = u.SavedTokens + v.SavedTokens
	out.SavedCostUSD = u.SavedCostUSD + v.SavedCostUSD
	return out
}

// Saved returns the usage of a cache hit for a call that spent u: nothing
// spent, u's tokens and cost (and its own savings) recorded as saved.
func (u Usage) Saved() Usage {
	return Usage{SavedCalls: max(u.Calls, 1) + u.SavedCalls, SavedTokens: u.TotalTokens + u.SavedTokens, SavedCostUSD: u.CostUSD + u.SavedCostUSD}
}

func (u Usage) addSpent(v Usage) Usage {
	switch {
	case u.Calls == 0 && u.TotalTokens == 0 && u.CostUSD == 0:
		return v
	case v.Calls == 0 && v.TotalTokens == 0 && v.CostUSD == 0:
		return u
	}
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		TokensKnown:      u.TokensKnown && v.TokensKnown,
		CostUSD:          u.CostUSD + v.CostUSD,
		CostKnown:        u.CostKnown && v.CostKnown,
		CostEstimated:    u.CostEstimated || v.CostEstimated,
		Calls:            u.Calls + v.Calls,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		TokensEstimated:  u.TokensEstimated || v.TokensEstimated,
	}
}
