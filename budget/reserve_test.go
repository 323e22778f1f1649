package budget

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

func tracker(t *testing.T, l Limits) *Tracker {
	t.Helper()
	l, err := l.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return NewTracker(l)
}

func TestReserveAdmitsShrinksAndRefuses(t *testing.T) {
	cases := []struct {
		name    string
		limits  Limits
		worst   Worst
		kind    fault.Kind
		maxTok  int64
		holdTok int64
	}{
		{"fits", Limits{MaxTotalTokens: 1000}, Worst{PromptTokens: 100, MaxTokens: 500}, "", 500, 600},
		{"shrunk to what is left", Limits{MaxTotalTokens: 1000}, Worst{PromptTokens: 100, MaxTokens: 4096}, "", 900, 1000},
		{"shrinking would leave less than the floor", Limits{MaxTotalTokens: 300}, Worst{PromptTokens: 100, MaxTokens: 4096}, KindMaxTotalTokens, 0, 0},
		{"a small request is its own floor", Limits{MaxTotalTokens: 150}, Worst{PromptTokens: 100, MaxTokens: 50}, "", 50, 150},
		{"one token", Limits{MaxTotalTokens: 1}, Worst{PromptTokens: 10, MaxTokens: 4096}, KindMaxTotalTokens, 0, 0},
		{"no bound requested", Limits{MaxTotalTokens: 1000}, Worst{PromptTokens: 100}, "", 900, 1000},
		{"unlimited", Limits{MaxTotalTokens: -1, MaxCostUSD: -1}, Worst{PromptTokens: 100}, "", 0, 100},
		{"explicit floor", Limits{MaxTotalTokens: 200}, Worst{PromptTokens: 100, MaxTokens: 4096, MinTokens: 50}, "", 100, 200},
		// gpt-4o: $2.50 in, $10 out per million. $0.01 leaves
		// (0.01 - 1000*2.5e-6) / 10e-6 = 750 completion tokens.
		{"cost shrinks", Limits{MaxCostUSD: 0.01, MaxTotalTokens: -1}, Worst{Model: "gpt-4o", PromptTokens: 1000, MaxTokens: 4096}, "", 750, 1750},
		{"cost refuses", Limits{MaxCostUSD: 0.004, MaxTotalTokens: -1}, Worst{Model: "gpt-4o", PromptTokens: 1000, MaxTokens: 4096}, KindMaxCost, 0, 0},
		{"cost prompt alone too dear", Limits{MaxCostUSD: 0.001, MaxTotalTokens: -1}, Worst{Model: "gpt-4o", PromptTokens: 1000, MaxTokens: 10}, KindMaxCost, 0, 0},
		{"unpriced model reserves no cost", Limits{MaxCostUSD: 0.0001, MaxTotalTokens: -1}, Worst{Model: "unpriced-local", PromptTokens: 1000, MaxTokens: 10}, "", 10, 1010},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := tracker(t, c.limits)
			r, err := tr.Reserve(c.worst)
			if fault.KindOf(err) != c.kind {
				t.Fatalf("kind %q, want %q (%v)", fault.KindOf(err), c.kind, err)
			}
			if err != nil {
				if fault.PhaseOf(err) != fault.PhaseBudget {
					t.Fatalf("phase %s", fault.PhaseOf(err))
				}
				return
			}
			if r.MaxTokens() != c.maxTok || r.Tokens() != c.holdTok {
				t.Fatalf("max_tokens %d hold %d, want %d %d", r.MaxTokens(), r.Tokens(), c.maxTok, c.holdTok)
			}
			if c.limits.MaxCostUSD > 0 && r.CostUSD() > c.limits.MaxCostUSD {
				t.Fatalf("held cost %v over %v", r.CostUSD(), c.limits.MaxCostUSD)
			}
		})
	}
}

func TestReservationsHoldAndSettle(t *testing.T) {
	tr := tracker(t, Limits{MaxTotalTokens: 1000})
	a, err := tr.Reserve(Worst{PromptTokens: 100, MaxTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	// 400 held: a second call may have at most 600.
	b, err := tr.Reserve(Worst{PromptTokens: 100, MaxTokens: 4096})
	if err != nil || b.MaxTokens() != 500 {
		t.Fatalf("%v %d", err, b.MaxTokens())
	}
	if _, err := tr.Reserve(Worst{PromptTokens: 1, MaxTokens: 10}); fault.KindOf(err) != KindMaxTotalTokens {
		t.Fatalf("the budget is fully held: %v", err)
	}
	b.Release()
	b.Release()
	if err := a.Settle(Usage{PromptTokens: 90, CompletionTokens: 10, TotalTokens: 100, TokensKnown: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.Settle(Usage{TotalTokens: 1 << 40, TokensKnown: true}); err != nil || tr.Usage().TotalTokens != 100 {
		t.Fatalf("second settle counted: %v %+v", err, tr.Usage())
	}
	a.Release()
	c, err := tr.Reserve(Worst{PromptTokens: 100, MaxTokens: 4096})
	if err != nil || c.MaxTokens() != 800 {
		t.Fatalf("%v %d", err, c.MaxTokens())
	}
	// No reported counts: the worst case is charged against the limit,
	// the reported usage stays unknown.
	if err := c.Settle(Usage{}); err != nil {
		t.Fatal(err)
	}
	if u := tr.Usage(); u.TotalTokens != 100 || u.Calls != 2 {
		t.Fatalf("usage %+v", u)
	}
	if err := tr.Spendable(); fault.KindOf(err) != KindMaxTotalTokens {
		t.Fatalf("the unknown call's worst case was not charged: %v", err)
	}
}

func TestSettleAboveWorstCaseIsABudgetError(t *testing.T) {
	tr := tracker(t, Limits{MaxTotalTokens: 1000, MaxCostUSD: -1})
	r, err := tr.Reserve(Worst{PromptTokens: 100, MaxTokens: 100, Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	// More than the worst case, still within the limit: no overshoot.
	if err := r.Settle(Usage{TotalTokens: 300, TokensKnown: true}); err != nil {
		t.Fatal(err)
	}
	r, _ = tr.Reserve(Worst{PromptTokens: 100, MaxTokens: 100})
	err = r.Settle(Usage{TotalTokens: 5000, TokensKnown: true})
	fe := fault.As(err)
	if fe == nil || fe.Kind != KindMaxTotalTokens || fe.Phase != fault.PhaseBudget {
		t.Fatalf("got %v", err)
	}
	if u := tr.Usage(); u.TotalTokens != 5300 || u.Calls != 2 || tr.UsageByDepth()[1].TotalTokens != 300 {
		t.Fatalf("usage not kept: %+v", u)
	}
}

// TestHardBudgetProperty: over random fan-outs, limits and reported
// usages, concurrent calls admitted through Reserve never charge more than
// the token or cost limit unless some provider reported more than its
// call's admitted worst case, and then a Settle returned the limit's kind.
func TestHardBudgetProperty(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		lim := Limits{MaxTotalTokens: -1, MaxCostUSD: -1}
		model := "unpriced-local"
		kind := KindMaxTotalTokens
		if rng.IntN(2) == 0 {
			lim.MaxTotalTokens = 1 + rng.Int64N(20000)
		} else {
			lim.MaxCostUSD = float64(1+rng.IntN(20000)) / 1e6
			model = "gpt-4o-mini"
			kind = KindMaxCost
		}
		tr := tracker(t, lim)
		lie := rng.IntN(4) == 0 // some providers over-report
		calls := 1 + rng.IntN(40)
		type plan struct {
			worst  Worst
			report func(r *Reservation) Usage
		}
		plans := make([]plan, calls)
		for i := range plans {
			w := Worst{Model: model, PromptTokens: rng.Int64N(3000), MaxTokens: rng.Int64N(4000)}
			frac := rng.Float64()
			over := lie && rng.IntN(3) == 0
			known := rng.IntN(5) != 0
			plans[i] = plan{w, func(r *Reservation) Usage {
				if !known {
					return Usage{}
				}
				tok := int64(frac * float64(r.Tokens()))
				if over {
					tok = r.Tokens()*3 + 1000
				}
				u := Usage{PromptTokens: tok / 2, CompletionTokens: tok - tok/2, TotalTokens: tok, TokensKnown: true}
				return WithEstimatedCost(u, model)
			}}
		}
		var (
			mu      sync.Mutex
			errs    []error
			overRep bool
			wg      sync.WaitGroup
		)
		for _, p := range plans {
			wg.Go(func() {
				r, err := tr.Reserve(p.worst)
				if err != nil {
					if fault.PhaseOf(err) != fault.PhaseBudget {
						t.Errorf("seed %d: refusal %v", seed, err)
					}
					return
				}
				u := p.report(r)
				err = r.Settle(u)
				mu.Lock()
				defer mu.Unlock()
				if u.TotalTokens > r.Tokens() || u.CostUSD > r.CostUSD()+1e-12 {
					overRep = true
				}
				if err != nil {
					errs = append(errs, err)
				}
			})
		}
		wg.Wait()
		spent := tr.spent
		exceeded := (lim.MaxTotalTokens > 0 && spent.tokens > lim.MaxTotalTokens) ||
			(lim.MaxCostUSD > 0 && spent.cost > lim.MaxCostUSD+1e-12)
		if exceeded && !overRep {
			t.Fatalf("seed %d: charged %+v over %+v without any over-report", seed, spent, lim)
		}
		if exceeded {
			found := false
			for _, err := range errs {
				found = found || fault.KindOf(err) == kind
			}
			if !found {
				t.Fatalf("seed %d: over the limit without a %s error (%v)", seed, kind, errs)
			}
		}
		if !overRep && len(errs) > 0 {
			t.Fatalf("seed %d: settle errors without over-report: %v", seed, errs)
		}
		if tr.held != (spend{}) && !(tr.held.tokens == 0 && tr.held.cost < 1e-12 && tr.held.cost > -1e-12) {
			t.Fatalf("seed %d: still held %+v", seed, tr.held)
		}
	}
}
