package budget

import (
	"math"
	"sync/atomic"

	"github.com/rlm-go/rlm/fault"
)

// MinReplyTokens is the floor of completion-bound shrinking: a model call
// whose requested max_tokens does not fit what is left of the token or
// cost budget is sent with a smaller bound only when at least this many
// completion tokens (or the requested bound, if smaller) still fit;
// otherwise it is refused before sending. A shorter reply is rarely
// useful: a JSON plan or an answer with its reasoning needs a few hundred
// tokens.
const MinReplyTokens = 256

// Worst is the worst case of one model call, asked for before it is sent.
type Worst struct {
	// Model prices the call with the price table (LookupPrice). An
	// unpriced model reserves no cost.
	Model string
	// Depth is the recursion depth the usage is charged to.
	Depth int
	// PromptTokens is the most the prompt can count: the tokenizer's count
	// (internal/tokens) or a conservative estimate, with message framing.
	PromptTokens int64
	// MaxTokens is the requested completion bound; zero or negative means
	// none, which a finite token or cost budget turns into what is left.
	MaxTokens int64
	// MinTokens is the smallest useful completion bound; zero means
	// MinReplyTokens.
	MinTokens int64
}

// spend is what the token and cost limits count.
type spend struct {
	tokens int64
	cost   float64
}

// add and sub keep a spend non-negative and finite: sums saturate, and a
// difference never goes below zero (held worst cases are only ever
// subtracted after being added).
func (s spend) add(o spend) spend {
	return spend{AddTokens(max(s.tokens, 0), max(o.tokens, 0)), addCost(cleanCost(s.cost), cleanCost(o.cost))}
}
func (s spend) sub(o spend) spend { return spend{max(s.tokens-o.tokens, 0), max(s.cost-o.cost, 0)} }

// charged is what usage u counts against the token and cost limits, for
// a call whose admitted worst case is worst (zero without a
// reservation). It is never negative, NaN or infinite, whatever u says:
//
//   - tokens: the worst case when u has none (unknown, not estimated and
//     zero) or an impossible count (a negative one); otherwise the larger
//     of TotalTokens and PromptTokens+CompletionTokens (a total below its
//     parts is not believed);
//   - cost: a reported or estimated cost that is finite and not
//     negative; +Inf counts as math.MaxFloat64; the worst case when the
//     cost is unknown (neither reported nor estimated, and zero), or is
//     NaN or negative; at least the worst case when the token counts
//     were not charged (unknown or impossible) and the cost is not a
//     reported one next to possible counts.
func charged(u Usage, worst spend) spend {
	s := worst
	tokensBad := u.PromptTokens < 0 || u.CompletionTokens < 0 || u.TotalTokens < 0 || u.CachedTokens < 0 || u.CacheWriteTokens < 0
	noTokens := tokensBad || (!u.TokensKnown && u.TotalTokens == 0)
	if !noTokens {
		s.tokens = max(u.TotalTokens, AddTokens(u.PromptTokens, u.CompletionTokens))
	}
	c := u.CostUSD
	switch {
	case math.IsNaN(c) || c < 0:
		// worst.cost
	case math.IsInf(c, 1):
		s.cost = math.MaxFloat64
	case u.CostKnown && !tokensBad:
		s.cost = c
	case noTokens:
		s.cost = max(c, worst.cost)
	case !u.CostEstimated && c == 0:
		// unknown: worst.cost
	default:
		s.cost = c
	}
	return s
}

// Reservation holds a model call's admitted worst case against the token
// and cost limits while the call is in flight. Settle it with the
// reported usage, or Release it when the call was not made; either is
// idempotent, so a deferred Release after Settle is harmless.
type Reservation struct {
	t         *Tracker
	depth     int
	maxTokens int64
	hold      spend // held in t and each of its parents
	done      atomic.Bool
}

// MaxTokens is the completion bound to send: the requested one, or the
// smaller one that fits the budget. Zero means "send none" (only when no
// token or priced cost limit applies and none was requested).
func (r *Reservation) MaxTokens() int64 { return r.maxTokens }

// Tokens is the admitted worst case in tokens (prompt plus MaxTokens).
func (r *Reservation) Tokens() int64 { return r.hold.tokens }

// CostUSD is the admitted worst case in USD (0 for an unpriced model).
func (r *Reservation) CostUSD() float64 { return r.hold.cost }

// Reserve admits a model call whose worst case fits what is left of the
// token and cost budgets after the usage so far and the worst cases of
// the calls in flight, atomically: concurrent calls cannot together
// overshoot. When the requested completion bound does not fit, it is
// shrunk to what is left if that still leaves MinTokens; otherwise the
// call is refused with max_total_tokens_exceeded or max_cost_exceeded
// before anything is sent. The time limit is checked too. A child
// tracker's call must fit both its own budget and what is left of each
// parent's, and is held in all of them.
func (t *Tracker) Reserve(w Worst) (*Reservation, error) {
	if err := t.checkTime(); err != nil {
		return nil, err
	}
	prompt := max(w.PromptTokens, 0)
	bounded := w.MaxTokens > 0
	m := max(w.MaxTokens, 0)
	floor := w.MinTokens
	if floor <= 0 {
		floor = MinReplyTokens
	}
	if bounded {
		floor = min(floor, m)
	}
	price, priced := LookupPrice(w.Model)
	// Lock the chain child first, as every Reserve does, so that the
	// worst case is admitted against all of it at once.
	var chain []*Tracker
	for u := t; u != nil; u = u.parent {
		u.mu.Lock()
		defer u.mu.Unlock()
		chain = append(chain, u)
	}
	for _, u := range chain {
		used := u.spent.add(u.held)
		if lim := u.limits.MaxTotalTokens; lim > 0 {
			// used and prompt are at most math.MaxInt64 each: subtract
			// without wrapping.
			left := lim - used.tokens
			if left < math.MinInt64+prompt {
				left = math.MinInt64
			} else {
				left -= prompt
			}
			if !bounded || m > left {
				if left < floor {
					return nil, t.ofCaller(u, refused(KindMaxTotalTokens, "max_total_tokens", lim, used.tokens, prompt, w.MaxTokens, floor).
						With("held", u.held.tokens))
				}
				m, bounded = left, true
			}
		}
		if lim := u.limits.MaxCostUSD; lim > 0 && priced {
			left := lim - used.cost - float64(prompt)*price.InputPerMillion/1e6
			if left < 0 {
				return nil, t.ofCaller(u, refused(KindMaxCost, "max_cost_usd", lim, used.cost, prompt, w.MaxTokens, floor))
			}
			if price.OutputPerMillion > 0 {
				afford := math.Floor(left * 1e6 / price.OutputPerMillion)
				if !bounded || float64(m) > afford {
					if afford < float64(floor) {
						return nil, t.ofCaller(u, refused(KindMaxCost, "max_cost_usd", lim, used.cost, prompt, w.MaxTokens, floor))
					}
					m, bounded = int64(min(afford, 1<<62)), true
				}
			}
		}
	}
	hold := spend{tokens: AddTokens(prompt, m)}
	if priced {
		hold.cost = cost(price, prompt, m)
		// Rounding must not let the held cost exceed what is left. One
		// step is all rounding takes; the steps double so that a huge
		// bound, where one token is below the float's precision, still
		// ends.
		for _, u := range chain {
			used := u.spent.add(u.held)
			for lim, step := u.limits.MaxCostUSD, int64(1); lim > 0 && m > floor && used.cost+hold.cost > lim; step *= 2 {
				m = max(m-step, floor)
				hold = spend{tokens: AddTokens(prompt, m), cost: cost(price, prompt, m)}
			}
		}
	}
	for _, u := range chain {
		u.held = u.held.add(hold)
	}
	return &Reservation{t: t, depth: w.Depth, maxTokens: m, hold: hold}, nil
}

func cost(p Price, prompt, completion int64) float64 {
	return (float64(prompt)*p.InputPerMillion + float64(completion)*p.OutputPerMillion) / 1e6
}

func refused(kind fault.Kind, limit string, max, used any, prompt, requested, floor int64) *fault.Error {
	hint := " (raise --max-total-tokens: a call needs room for its prompt and its max_tokens)"
	if kind == KindMaxCost {
		hint = " (raise --max-cost: a call needs room for its prompt and its max_tokens at list price)"
	}
	return fault.New(fault.PhaseBudget, kind, "budget exhausted: "+limit+": the call's worst case does not fit what is left"+hint).
		With("limit", limit).With("max", max).With("used", used).
		With("prompt_tokens", prompt).With("max_tokens", requested).With("min_reply_tokens", floor)
}

// Settle ends the reservation with the usage the provider reported and
// charges it at the reservation's depth. A call whose provider reported
// no token counts (or no cost), or counts or a cost no call can have
// (negative, NaN), is charged its worst case against the limits; the
// reported Usage is recorded as it is, cleaned (Usage.Clean), so that
// nothing the tracker counts ever decreases. If the charged total then
// exceeds a limit, which only a provider reporting more than the admitted
// worst case can cause, Settle returns that limit's budget error; the
// usage stays charged. Settling twice, or after Release, does nothing.
func (r *Reservation) Settle(u Usage) error {
	if r.done.Swap(true) {
		return nil
	}
	s := charged(u, r.hold)
	var over error
	for t, d := r.t, r.depth; t != nil; d, t = d+t.base, t.parent {
		t.mu.Lock()
		t.held = t.held.sub(r.hold)
		t.chargeLocked(d, u, s)
		if over == nil {
			over = r.overshotLocked(t, s)
		}
		t.mu.Unlock()
	}
	return over
}

// overshotLocked reports the limit of t (r's tracker or a parent) that
// the charge s took it past.
func (r *Reservation) overshotLocked(t *Tracker, s spend) error {
	if lim := t.limits.MaxTotalTokens; lim > 0 && t.spent.tokens > lim {
		return r.t.ofCaller(t, overshoot(KindMaxTotalTokens, "max_total_tokens", lim, t.spent.tokens, r.hold.tokens, s.tokens))
	}
	if lim := t.limits.MaxCostUSD; lim > 0 && t.spent.cost > lim {
		return r.t.ofCaller(t, overshoot(KindMaxCost, "max_cost_usd", lim, t.spent.cost, r.hold.cost, s.cost))
	}
	return nil
}

func overshoot(kind fault.Kind, limit string, max, used, admitted, reported any) *fault.Error {
	return fault.New(fault.PhaseBudget, kind, "budget exceeded: "+limit+": the provider reported more than the call's admitted worst case").
		With("limit", limit).With("max", max).With("used", used).With("admitted", admitted).With("reported", reported)
}

// Release ends the reservation of a call that was not made, or that
// failed without a response: its worst case is returned unspent (record
// the attempt with Charge if it counts). Releasing twice, or after
// Settle, does nothing.
func (r *Reservation) Release() {
	if r.done.Swap(true) {
		return
	}
	for t := r.t; t != nil; t = t.parent {
		t.mu.Lock()
		t.held = t.held.sub(r.hold)
		t.mu.Unlock()
	}
}
