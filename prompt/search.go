package prompt

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/fault"
)

// Search limits.
const (
	DefaultSearchLimit = 8
	MaxSearchLimit     = 32
	MaxSearchQuery     = 512 // characters
)

// Search name bonuses: the unit's name tokens contain every query token, or
// the query contains every name token.
const (
	nameContainsQueryBonus = 80
	queryContainsNameBonus = 60
)

// SearchOptions bound a catalog search.
type SearchOptions struct {
	// Limit is the number of results: 0 means 8, more than 32 means 32.
	Limit int `json:"limit"`
	// DiscoveryScope and ParentDiscoveryScope filter the catalog as in
	// Compile, including the widening check.
	DiscoveryScope       Scope `json:"discovery_scope"`
	ParentDiscoveryScope Scope `json:"parent_discovery_scope"`
	// IncludeUnavailable also returns units whose available flag is false.
	IncludeUnavailable bool `json:"include_unavailable"`
}

// SearchHit is sanitized unit metadata: never content, schema parameters,
// representations, triggers or anything a handler could carry.
type SearchHit struct {
	Unit               UnitID `json:"unit"`
	Kind               Kind   `json:"kind"`
	Name               string `json:"name"`
	Category           string `json:"category"`
	Description        string `json:"description"`
	Available          bool   `json:"available"`
	RequiresCapability string `json:"requires_capability"`
	Provenance         string `json:"provenance"`
	Score              int64  `json:"score"`
}

// SearchResult is the bounded answer of Search.
type SearchResult struct {
	Results   []SearchHit `json:"results"`
	Truncated bool        `json:"truncated"`
}

// Search is bounded metadata discovery. A unit matches when it shares a
// non-stop token with the query (scored by the catalog's IDF weights) or
// when its name tokens contain the query's tokens (+80) or the query
// contains its name tokens (+60); its score then adds its priority.
// Capability is not checked: search finds, it neither activates nor
// authorizes. Results are ordered by score descending, then unit id.
func (c *Catalog) Search(ctx context.Context, query string, opts SearchOptions) (SearchResult, error) {
	if err := ctx.Err(); err != nil {
		return SearchResult{}, fault.FromContext(PhaseSearch, err)
	}
	if n := utf8.RuneCountInString(query); n < 1 || n > MaxSearchQuery || strings.TrimSpace(query) == "" {
		return SearchResult{}, fault.New(PhaseSearch, KindInvalidSearchQuery, "query must be 1..512 characters").With("length", n)
	}
	limit := opts.Limit
	switch {
	case limit < 0:
		return SearchResult{}, fault.New(PhaseSearch, KindInvalidSearchLimit, "limit must be positive").With("limit", limit)
	case limit == 0:
		limit = DefaultSearchLimit
	case limit > MaxSearchLimit:
		limit = MaxSearchLimit
	}
	if err := c.checkNarrowing(opts.ParentDiscoveryScope, opts.DiscoveryScope); err != nil {
		fe := fault.As(err)
		fe.Phase = PhaseSearch
		return SearchResult{}, fe
	}
	sl := c.getSlots()
	defer c.putSlots(sl)
	e := &evaluated{c: c, slots: sl}
	e.scope = c.evalScope(e, opts.DiscoveryScope, flagScopeUnit)
	e.parent = c.evalScope(e, opts.ParentDiscoveryScope, flagParentScopeUnit)

	var qtoks []int32 // distinct non-stop query tokens known to the catalog
	known := true
	tokenize(query, func(t string) {
		if stopTokens[t] {
			return
		}
		id, ok := c.dict[stem(t)]
		if !ok {
			known = false
			return
		}
		qtoks = append(qtoks, id)
	})
	slices.Sort(qtoks)
	qtoks = slices.Compact(qtoks)
	nameHits := sl.lex // reused as a per-unit count of name-token matches
	for _, t := range qtoks {
		for _, p := range c.postings[t] {
			sl.add(p.unit, int64(p.weight))
			if c.isNameToken(p.unit, t) {
				nameHits[p.unit]++
			}
		}
	}
	var hits []rank
	for _, u := range sl.touched {
		unit := &c.units[u]
		if (!unit.Available && !opts.IncludeUnavailable) || !e.allowed(u) {
			continue
		}
		score := sl.score[u]
		switch {
		case known && len(qtoks) > 0 && nameHits[u] == int64(len(qtoks)):
			score += nameContainsQueryBonus
		case c.nameToks[u] > 0 && nameHits[u] == int64(c.nameToks[u]):
			score += queryContainsNameBonus
		}
		hits = append(hits, rank{score: score + int64(unit.Priority), unit: u})
	}
	slices.SortFunc(hits, rank.cmp)
	res := SearchResult{Results: []SearchHit{}, Truncated: len(hits) > limit}
	for _, h := range hits[:min(limit, len(hits))] {
		u := c.units[h.unit]
		res.Results = append(res.Results, SearchHit{
			Unit: u.ID, Kind: u.Kind, Name: u.Name, Category: u.Category, Description: u.Description,
			Available: u.Available, RequiresCapability: u.RequiresCapability, Provenance: u.Provenance, Score: h.score,
		})
	}
	return res, nil
}

// isNameToken reports whether token t is one of unit u's name or alias
// tokens.
func (c *Catalog) isNameToken(u, t int32) bool {
	toks := c.unitToks[u]
	i, ok := slices.BinarySearchFunc(toks, t, func(a tokWeight, t int32) int { return int(a.tok - t) })
	return ok && toks[i].inName
}
