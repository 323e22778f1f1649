package budget

import (
	"slices"
	"strings"
	"sync/atomic"
)

// Price is the list price of a model in USD per million tokens.
type Price struct {
	Model            string  `json:"model"`
	InputPerMillion  float64 `json:"input_per_million"`
	OutputPerMillion float64 `json:"output_per_million"`
	// CachedInputPerMillion prices prompt tokens read from the provider's
	// prompt cache, and CacheWritePerMillion those written to it
	// (Anthropic); zero means the input price.
	CachedInputPerMillion float64 `json:"cached_input_per_million,omitempty"`
	CacheWritePerMillion  float64 `json:"cache_write_per_million,omitempty"`
}

// UsageCost is the cost of u at price p: cached and cache-written prompt
// tokens (parts of u.PromptTokens) at their prices, the rest of the
// prompt at the input price, the completion at the output price.
func (p Price) UsageCost(u Usage) float64 {
	cached, write := max(u.CachedTokens, 0), max(u.CacheWriteTokens, 0)
	plain := max(u.PromptTokens-cached-write, 0)
	cp, wp := p.CachedInputPerMillion, p.CacheWritePerMillion
	if cp == 0 {
		cp = p.InputPerMillion
	}
	if wp == 0 {
		wp = p.InputPerMillion
	}
	return (float64(plain)*p.InputPerMillion + float64(cached)*cp + float64(write)*wp + float64(u.CompletionTokens)*p.OutputPerMillion) / 1e6
}

// The price table is prices.json, compiled in as Go data (prices_table.go,
// written by genprices), so that the first look-up of a process decodes
// nothing: decoding the JSON was 0.17 ms of `rlm run`'s start-up.
//
//go:generate go run ./internal/genprices

// Prices returns a copy of the price table sorted by model name.
func Prices() []Price {
	out := slices.Clone(prices[:])
	slices.SortFunc(out, func(a, b Price) int { return strings.Compare(a.Model, b.Model) })
	return out
}

// LookupPrice finds the price of model. A provider prefix such as "openai/"
// is ignored, and dated or suffixed variants ("gpt-4o-mini-2024-07-18") match
// the longest listed name they start with.
func LookupPrice(model string) (Price, bool) {
	if last := lastPrice.Load(); last != nil && last.model == model {
		return last.p, last.ok
	}
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	m = strings.TrimSuffix(m, ":free")
	hit := &priceHit{model: model}
	for _, p := range prices { // longest names first
		if strings.HasPrefix(m, p.Model) && (len(m) == len(p.Model) || m[len(p.Model)] == '-' || m[len(p.Model)] == ':') {
			hit.p, hit.ok = p, true
			break
		}
	}
	lastPrice.Store(hit)
	return hit.p, hit.ok
}

// priceHit is a LookupPrice answer: a run looks up the price of the same
// model on every call, and the table is scanned once for it.
type priceHit struct {
	model string
	p     Price
	ok    bool
}

// lastPrice is the last answer LookupPrice gave.
var lastPrice atomic.Pointer[priceHit]

// EstimateCost returns the estimated cost in USD of a call to model with the
// given token counts, and whether the model is in the price table: the
// cost WithEstimatedCost gives a call with those counts and no cached
// tokens.
func EstimateCost(model string, promptTokens, completionTokens int64) (float64, bool) {
	p, ok := LookupPrice(model)
	if !ok {
		return 0, false
	}
	return p.UsageCost(Usage{PromptTokens: promptTokens, CompletionTokens: completionTokens}), true
}

// WithEstimatedCost fills in an estimated cost when u has no reported cost
// and model is priced. Reported costs are never overwritten, and a usage
// with no token counts at all (unknown, not estimated, and zero: a call
// whose server reported nothing, or something impossible) gets no
// estimate: an estimated $0 would read as a free call, where the tracker
// charges an unknown cost its admitted worst case.
func WithEstimatedCost(u Usage, model string) Usage {
	if u.CostKnown || (!u.TokensKnown && !u.TokensEstimated && u.PromptTokens == 0 && u.CompletionTokens == 0 && u.TotalTokens == 0) {
		return u
	}
	if p, ok := LookupPrice(model); ok {
		u.CostUSD = p.UsageCost(u)
		u.CostEstimated = true
	}
	return u
}
