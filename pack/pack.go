// Package pack chooses, under a hard token budget, one representation
// (variant) for each context unit so that the total utility is maximal.
//
// Each Item offers variants (for example "full" and "compact") with a token
// cost and a utility. An optional item also gets an "omitted" variant costing
// nothing; a mandatory item never does. Pack solves the resulting
// multiple-choice knapsack exactly within
//
//	max_context_tokens − reserve_output_tokens − safety_margin_tokens
//
// and breaks ties explicitly: higher total utility, then fewer tokens, then
// the lexicographically smallest choice vector (items in the given order,
// each item's variants in the given order, "omitted" last), so earlier items
// and earlier-listed variants win ties. A mandatory item
// that cannot fit fails with Kind context_budget_exceeded naming the item; it
// is never dropped silently. The Ledger records every charge.
//
// Token counts come from a Counter: CounterFor returns an exact BPE counter
// for known model families when the program links their encodings (package
// github.com/rlm-go/rlm/bpe) and a conservative estimate otherwise.
package pack

import (
	"math"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/tokens"
)

// PhasePack is the phase of errors from this package.
const PhasePack fault.Phase = "pack"

// Error kinds reported by this package.
const (
	KindContextBudgetExceeded fault.Kind = "context_budget_exceeded" // mandatory items cannot fit
	KindInvalidPolicy         fault.Kind = "invalid_policy"          // negative or inconsistent limits
	KindInvalidItem           fault.Kind = "invalid_item"            // an item without variants, negative tokens, ...
)

// Omitted is the kind of the variant added to every optional item.
const Omitted = "omitted"

// Default policy values.
const (
	DefaultMaxContextTokens    = 131072
	DefaultReserveOutputTokens = 16384
	DefaultSafetyMarginTokens  = 4096
)

// Counter counts tokens of rendered text. It is satisfied by the counters
// CounterFor returns.
type Counter interface {
	// Count returns the number of tokens of text.
	Count(text string) int
	// Method returns "exact" or "estimated".
	Method() string
	// Encoding returns the encoding name ("cl100k_base", "o200k_base") or
	// "estimate".
	Encoding() string
}

// CounterFor returns an exact counter for a known model family or encoding
// name (gpt-4o, gpt-4.1, gpt-5, o1/o3/o4 → o200k_base; gpt-4, gpt-3.5 →
// cl100k_base; or the encoding name itself) when package bpe is linked, and
// the conservative estimator otherwise, and for anything else, including "".
func CounterFor(model string) Counter { return tokens.ForModel(model) }

// Policy bounds the context window.
type Policy struct {
	// MaxContextTokens is the hard window size.
	MaxContextTokens int `json:"max_context_tokens"`
	// ReserveOutputTokens is kept free for the model's answer.
	ReserveOutputTokens int `json:"reserve_output_tokens"`
	// SafetyMarginTokens absorbs counting error and framing overhead.
	SafetyMarginTokens int `json:"safety_margin_tokens"`
}

// DefaultPolicy returns 131072 / 16384 / 4096.
func DefaultPolicy() Policy {
	return Policy{
		MaxContextTokens:    DefaultMaxContextTokens,
		ReserveOutputTokens: DefaultReserveOutputTokens,
		SafetyMarginTokens:  DefaultSafetyMarginTokens,
	}
}

// Available returns the tokens left for items, or an invalid_policy error
// when a field is negative, the window is not positive, or reserve plus
// margin exceed the window.
func (p Policy) Available() (int, error) {
	if p.MaxContextTokens <= 0 || p.ReserveOutputTokens < 0 || p.SafetyMarginTokens < 0 {
		return 0, fault.New(PhasePack, KindInvalidPolicy, "max_context_tokens must be positive and reserve and margin non-negative").
			With("max_context_tokens", p.MaxContextTokens).With("reserve_output_tokens", p.ReserveOutputTokens).With("safety_margin_tokens", p.SafetyMarginTokens)
	}
	// Compared without summing: reserve plus margin may pass int's range.
	if p.ReserveOutputTokens > p.MaxContextTokens-p.SafetyMarginTokens {
		return 0, fault.New(PhasePack, KindInvalidPolicy, "reserve_output_tokens plus safety_margin_tokens exceed max_context_tokens").
			With("max_context_tokens", p.MaxContextTokens).With("reserve_output_tokens", p.ReserveOutputTokens).With("safety_margin_tokens", p.SafetyMarginTokens)
	}
	return p.MaxContextTokens - p.ReserveOutputTokens - p.SafetyMarginTokens, nil
}

// Variant is one representation of an item.
type Variant struct {
	// Kind names the representation ("full", "compact", ...). It must not be
	// "omitted": Pack adds that variant itself for optional items.
	Kind string `json:"kind"`
	// Tokens is the exact charge of the rendered text.
	Tokens int `json:"tokens"`
	// Utility is what the variant is worth; higher is better.
	Utility int64 `json:"utility"`
}

// Item is one context unit offered to the packer.
type Item struct {
	// ID names the item in the ledger and in errors.
	ID string `json:"id"`
	// Mandatory items are never omitted.
	Mandatory bool `json:"mandatory"`
	// Variants in order of preference for tie-breaking.
	Variants []Variant `json:"variants"`
}

// Charge is one ledger line.
type Charge struct {
	// Item is the item ID, or "output_reserve" / "safety_margin".
	Item string `json:"item"`
	// Variant is the chosen variant kind ("" for reserve lines).
	Variant string `json:"variant,omitempty"`
	// Tokens charged by this line.
	Tokens int `json:"tokens"`
	// CumulativeTokens is the running total including this line.
	CumulativeTokens int `json:"cumulative_tokens"`
}

// Ledger records how the window was spent.
type Ledger struct {
	// Method and Encoding describe the token counter ("exact"/"cl100k_base",
	// "estimated"/"estimate").
	Method   string `json:"method"`
	Encoding string `json:"encoding"`
	// Limit is max_context_tokens.
	Limit int `json:"limit"`
	// ReserveOutputTokens and SafetyMarginTokens are charged up front.
	ReserveOutputTokens int `json:"reserve_output_tokens"`
	SafetyMarginTokens  int `json:"safety_margin_tokens"`
	// AvailableTokens is Limit minus reserve and margin.
	AvailableTokens int `json:"available_tokens"`
	// SelectedTokens is the sum over chosen variants.
	SelectedTokens int `json:"selected_tokens"`
	// TotalTokens is SelectedTokens plus reserve and margin.
	TotalTokens int `json:"total_tokens"`
	// RemainingTokens is Limit minus TotalTokens.
	RemainingTokens int `json:"remaining_tokens"`
	// Utility is the total utility of the chosen variants.
	Utility int64 `json:"utility"`
	// Charges lists every item in order (omitted items are charged 0), then
	// the output reserve and the safety margin.
	Charges []Charge `json:"charges"`
}

// Result is the outcome of Pack.
type Result struct {
	// Choice[i] is the index into items[i].Variants, or -1 when the item was
	// omitted.
	Choice []int
	// Ledger records the charges.
	Ledger Ledger
}

// Pack chooses one variant per item. The counter only labels the ledger
// (tokens are already in the variants); it may be nil.
func Pack(items []Item, policy Policy, counter Counter) (Result, error) {
	avail, err := policy.Available()
	if err != nil {
		return Result{}, err
	}
	opts, err := options(items)
	if err != nil {
		return Result{}, err
	}
	if err := checkMandatory(items, opts, avail); err != nil {
		return Result{}, err
	}
	choice := greedyIfFits(opts, avail)
	if choice == nil {
		choice = solve(opts, avail)
	}
	res := Result{Choice: make([]int, len(items))}
	led := Ledger{
		Method: tokens.MethodEstimated, Encoding: tokens.Estimate,
		Limit:               policy.MaxContextTokens,
		ReserveOutputTokens: policy.ReserveOutputTokens,
		SafetyMarginTokens:  policy.SafetyMarginTokens,
		AvailableTokens:     avail,
		Charges:             make([]Charge, 0, len(items)+2),
	}
	if counter != nil {
		led.Method, led.Encoding = counter.Method(), counter.Encoding()
	}
	cum := 0
	for i, o := range opts {
		v := o[choice[i]]
		res.Choice[i] = v.index
		cum += v.tokens
		led.SelectedTokens += v.tokens
		led.Utility += v.utility
		kind := Omitted
		if v.index >= 0 {
			kind = items[i].Variants[v.index].Kind
		}
		led.Charges = append(led.Charges, Charge{Item: items[i].ID, Variant: kind, Tokens: v.tokens, CumulativeTokens: cum})
	}
	cum += policy.ReserveOutputTokens
	led.Charges = append(led.Charges, Charge{Item: "output_reserve", Tokens: policy.ReserveOutputTokens, CumulativeTokens: cum})
	cum += policy.SafetyMarginTokens
	led.Charges = append(led.Charges, Charge{Item: "safety_margin", Tokens: policy.SafetyMarginTokens, CumulativeTokens: cum})
	led.TotalTokens = cum
	led.RemainingTokens = policy.MaxContextTokens - cum
	res.Ledger = led
	return res, nil
}

// option is a variant as the solver sees it; index -1 is "omitted".
type option struct {
	index   int
	tokens  int
	utility int64
}

func options(items []Item) ([][]option, error) {
	out := make([][]option, len(items))
	for i, it := range items {
		if len(it.Variants) == 0 && it.Mandatory {
			return nil, fault.New(PhasePack, KindInvalidItem, "a mandatory item has no variant").With("item", it.ID)
		}
		o := make([]option, 0, len(it.Variants)+1)
		for j, v := range it.Variants {
			if v.Tokens < 0 || v.Utility < 0 || v.Kind == Omitted || v.Kind == "" {
				return nil, fault.New(PhasePack, KindInvalidItem, "variants need a kind other than omitted and non-negative tokens and utility").
					With("item", it.ID).With("variant", j)
			}
			o = append(o, option{index: j, tokens: v.Tokens, utility: v.Utility})
		}
		if !it.Mandatory {
			o = append(o, option{index: -1})
		}
		out[i] = o
	}
	return out, nil
}

// checkMandatory fails when the cheapest variants of the mandatory items do
// not fit, naming the first item (in order) at which the running minimum
// exceeds the budget.
func checkMandatory(items []Item, opts [][]option, avail int) error {
	need := 0
	for i, it := range items {
		if !it.Mandatory {
			continue
		}
		least := opts[i][0].tokens
		for _, o := range opts[i][1:] {
			least = min(least, o.tokens)
		}
		if least > avail-need { // need <= avail here; need+least may pass int's range
			need = sat(need, least)
			return fault.New(PhasePack, KindContextBudgetExceeded, "a mandatory context unit does not fit the token budget").
				With("unit", it.ID).With("unit_tokens", least).With("required_tokens", need).With("available_tokens", avail)
		}
		need += least
	}
	return nil
}

// sat returns a+b for non-negative a and b, saturated at math.MaxInt.
func sat(a, b int) int {
	if b > math.MaxInt-a {
		return math.MaxInt
	}
	return a + b
}

// best returns the index of the preferred option of o: highest utility, then
// fewest tokens, then earliest.
func best(o []option) int {
	b := 0
	for j := 1; j < len(o); j++ {
		if o[j].utility > o[b].utility || (o[j].utility == o[b].utility && o[j].tokens < o[b].tokens) {
			b = j
		}
	}
	return b
}

// greedyIfFits returns the per-item preferred choice when it fits: it is
// then optimal, since each item contributes its own maximum.
func greedyIfFits(opts [][]option, avail int) []int {
	choice := make([]int, len(opts))
	total := 0
	for i, o := range opts {
		choice[i] = best(o)
		if o[choice[i]].tokens > avail-total { // total <= avail: no sum that could wrap
			return nil
		}
		total += o[choice[i]].tokens
	}
	return choice
}

// point is one state of the Pareto frontier after some prefix of items:
// the best utility reachable with exactly this many tokens, where no state
// with fewer tokens reaches as much.
type point struct {
	tokens  int
	utility int64
}

// link records how a frontier point was reached, for backtracking.
type link struct {
	parent int32 // index into the previous frontier
	option int32 // option chosen for the current item (an item may have more than 256 variants)
}

// solve runs an exact dynamic program over Pareto frontiers of (tokens,
// utility). Items with a single option (mandatory units with one variant)
// are fixed and only shrink the budget. The others are processed from the
// last to the first; at each step the next frontier is
// the merge of the previous one shifted by each option; a state survives
// only if its utility exceeds that of every state with fewer or equal
// tokens. Of two states with equal tokens and utility, the one with the
// smaller option for the current item survives; their parents then have
// equal tokens and are therefore the same point. Since items are processed
// last to first, this realizes the order (utility desc, tokens asc, choice
// vector lexicographically asc in the given item order) exactly. A dropped state can never complete to a better
// solution than the state that dropped it. checkMandatory has already
// ensured that a feasible assignment exists.
func solve(opts [][]option, avail int) []int {
	choice := make([]int, len(opts))
	var free []int // items with a real choice, last item first
	for i := len(opts) - 1; i >= 0; i-- {
		if o := opts[i]; len(o) == 1 {
			choice[i] = 0
			avail -= o[0].tokens
			continue
		}
		free = append(free, i)
	}
	frontier := []point{{}}
	links := make([][]link, len(free))
	var next []point
	heads := make([]int, 0, 8)
	for fi, i := range free {
		o := opts[i]
		next = next[:0]
		var lk []link
		heads = heads[:0]
		for range o {
			heads = append(heads, 0)
		}
		for {
			// Pick the head with the fewest tokens, then the highest
			// utility, then the smallest option.
			bo := -1
			var bt int
			var bu int64
			for oi, h := range heads {
				if h >= len(frontier) {
					continue
				}
				if o[oi].tokens > avail-frontier[h].tokens { // frontier tokens <= avail: no sum that could wrap
					heads[oi] = len(frontier) // sorted by tokens: the rest is over budget too
					continue
				}
				t := frontier[h].tokens + o[oi].tokens
				u := frontier[h].utility + o[oi].utility
				if bo < 0 || t < bt || (t == bt && u > bu) {
					bo, bt, bu = oi, t, u
				}
			}
			if bo < 0 {
				break
			}
			if len(next) == 0 || bu > next[len(next)-1].utility {
				next = append(next, point{tokens: bt, utility: bu})
				lk = append(lk, link{parent: int32(heads[bo]), option: int32(bo)})
			}
			heads[bo]++
		}
		links[fi] = lk
		frontier, next = next, frontier
	}
	// The final frontier has strictly increasing utility with tokens, so its
	// last point has the maximum utility at the fewest tokens.
	at := len(frontier) - 1
	for fi := len(free) - 1; fi >= 0; fi-- {
		l := links[fi][at]
		choice[free[fi]] = int(l.option)
		at = int(l.parent)
	}
	return choice
}
