package budget

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestLyingReportCannotLiftTheLimit is issue 30 item 6 at the tracker:
// one settle of total_tokens -1000000 (or cost -100) let 40 calls of
// 2,000 tokens (or $0.01) through a 20,000-token (or $0.10) limit.
func TestLyingReportCannotLiftTheLimit(t *testing.T) {
	tests := []struct {
		name   string
		lim    Limits
		lie    Usage
		honest Usage
	}{
		{"tokens", Limits{MaxTotalTokens: 20000, MaxCostUSD: -1},
			Usage{PromptTokens: 100, CompletionTokens: 100, TotalTokens: -1_000_000, TokensKnown: true},
			Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true}},
		{"tokens, all negative", Limits{MaxTotalTokens: 20000, MaxCostUSD: -1},
			Usage{PromptTokens: -500_000, CompletionTokens: -500_000, TotalTokens: -1_000_000, TokensKnown: true},
			Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true}},
		{"cost", Limits{MaxCostUSD: 0.1, MaxTotalTokens: -1},
			Usage{PromptTokens: 100, CompletionTokens: 100, TotalTokens: 200, TokensKnown: true, CostUSD: -100, CostKnown: true},
			Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true, CostUSD: 0.01, CostKnown: true}},
		{"NaN cost", Limits{MaxCostUSD: 0.1, MaxTotalTokens: -1},
			Usage{PromptTokens: 100, CompletionTokens: 100, TotalTokens: 200, TokensKnown: true, CostUSD: math.NaN(), CostKnown: true},
			Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true, CostUSD: 0.01, CostKnown: true}},
		{"-Inf cost", Limits{MaxCostUSD: 0.1, MaxTotalTokens: -1},
			Usage{PromptTokens: 100, CompletionTokens: 100, TotalTokens: 200, TokensKnown: true, CostUSD: math.Inf(-1), CostKnown: true},
			Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true, CostUSD: 0.01, CostKnown: true}},
	}
	for _, tt := range tests {
		for _, reserved := range []bool{true, false} {
			t.Run(tt.name+map[bool]string{true: "/reserved", false: "/charged"}[reserved], func(t *testing.T) {
				tr := tracker(t, tt.lim)
				settle := func(u Usage) error {
					// As the engine does: ModelCall checks what was spent,
					// Reserve the call's worst case.
					if err := tr.Spendable(); err != nil {
						return err
					}
					if !reserved {
						tr.Charge(1, u)
						return nil
					}
					r, err := tr.Reserve(Worst{Model: "unpriced-local", PromptTokens: 1000, MaxTokens: 1000})
					if err != nil {
						return err
					}
					_ = r.Settle(u)
					return nil
				}
				if err := settle(tt.lie); err != nil {
					t.Fatal(err)
				}
				admitted := 0
				for range 40 {
					if err := settle(tt.honest); err != nil {
						if fault.PhaseOf(err) != fault.PhaseBudget {
							t.Fatal(err)
						}
						break
					}
					admitted++
				}
				// 10 calls fit (the lie's own call is charged its worst case,
				// 2,000 tokens, when it was reserved); an unpriced model's
				// cost cannot be reserved ahead, and ten $0.01 add up to
				// just below $0.10 in floating point, so an eleventh may
				// start.
				most := 10
				if tt.lim.MaxCostUSD > 0 {
					most = 11
				}
				if admitted > most {
					t.Fatalf("%d calls of 2,000 tokens / $0.01 admitted after the lie", admitted)
				}
				u := tr.Usage()
				if !u.Possible() {
					t.Fatalf("recorded usage is impossible: %+v", u)
				}
				if _, err := json.Marshal(u); err != nil {
					t.Fatalf("usage does not encode: %v", err)
				}
			})
		}
	}
}

// adversarialCount is a token count from a hostile or broken server.
func adversarialCount(rng *rand.Rand) int64 {
	switch rng.IntN(8) {
	case 0:
		return -rng.Int64N(1 << 40)
	case 1:
		return math.MaxInt64 - rng.Int64N(1000)
	case 2:
		return math.MinInt64 + rng.Int64N(1000)
	case 3:
		return rng.Int64()
	}
	return rng.Int64N(5000)
}

// adversarialCost is a cost from a hostile or broken server.
func adversarialCost(rng *rand.Rand) float64 {
	switch rng.IntN(9) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return -rng.Float64() * 1000
	case 4:
		return math.MaxFloat64
	case 5:
		return -math.SmallestNonzeroFloat64
	}
	return rng.Float64() / 100
}

func adversarialUsage(rng *rand.Rand) Usage {
	return Usage{
		PromptTokens: adversarialCount(rng), CompletionTokens: adversarialCount(rng), TotalTokens: adversarialCount(rng),
		TokensKnown: rng.IntN(4) != 0, TokensEstimated: rng.IntN(8) == 0,
		CostUSD: adversarialCost(rng), CostKnown: rng.IntN(2) == 0, CostEstimated: rng.IntN(4) == 0,
		Calls: adversarialCount(rng), CachedTokens: adversarialCount(rng), CacheWriteTokens: adversarialCount(rng),
		SavedCalls: adversarialCount(rng), SavedTokens: adversarialCount(rng), SavedCostUSD: adversarialCost(rng),
	}
}

// TestSpendNeverDecreasesProperty: over random sequences of reserves,
// settles with adversarial usage (negative, huge, NaN, infinite, near the
// int64 bounds), releases, charges and cache savings, on a child tracker
// and its parent:
//
//   - what each tracker has counted against its limits, and every field
//     of its usage record and of each depth's, never decreases, and the
//     record is always a possible usage that encodes as JSON;
//   - a call is admitted only when its worst case fits what is left: at
//     admission, charged plus held never exceeds a limit;
//   - once the charged spend reaches a limit, no call is admitted.
func TestSpendNeverDecreasesProperty(t *testing.T) {
	for seed := range uint64(120) {
		rng := rand.New(rand.NewPCG(seed, 30))
		lim := func() Limits {
			l := Limits{MaxTotalTokens: -1, MaxCostUSD: -1, MaxModelCalls: -1}
			switch rng.IntN(3) {
			case 0:
				l.MaxTotalTokens = 1 + rng.Int64N(50_000)
			case 1:
				l.MaxCostUSD = float64(1+rng.IntN(100_000)) / 1e6
			default:
				l.MaxTotalTokens = 1 + rng.Int64N(50_000)
				l.MaxCostUSD = float64(1+rng.IntN(100_000)) / 1e6
			}
			return l
		}
		parent := tracker(t, lim())
		child := parent.Child(lim(), 1)
		trackers := []*Tracker{parent, child}
		type snap struct {
			spent spend
			usage Usage
			depth map[int]Usage
		}
		take := func(tr *Tracker) snap {
			tr.mu.Lock()
			s := tr.spent
			tr.mu.Unlock()
			return snap{s, tr.Usage(), tr.UsageByDepth()}
		}
		prev := []snap{take(parent), take(child)}
		var open []*Reservation
		for step := range 200 {
			tr := trackers[rng.IntN(2)]
			model := "unpriced-local"
			if rng.IntN(2) == 0 {
				model = "gpt-4o-mini"
			}
			switch op := rng.IntN(6); {
			case op <= 1:
				w := Worst{Model: model, Depth: rng.IntN(3), PromptTokens: adversarialCount(rng), MaxTokens: adversarialCount(rng), MinTokens: rng.Int64N(300)}
				r, err := tr.Reserve(w)
				if err != nil {
					if fault.PhaseOf(err) != fault.PhaseBudget {
						t.Fatalf("seed %d step %d: %v", seed, step, err)
					}
					break
				}
				if r.Tokens() < 0 || r.CostUSD() < 0 || math.IsNaN(r.CostUSD()) || r.MaxTokens() < 0 {
					t.Fatalf("seed %d step %d: reservation tokens %d cost %g max %d", seed, step, r.Tokens(), r.CostUSD(), r.MaxTokens())
				}
				for u := tr; u != nil; u = u.parent {
					u.mu.Lock()
					used := u.spent.add(u.held)
					u.mu.Unlock()
					if l := u.limits.MaxTotalTokens; l > 0 && used.tokens > l {
						t.Fatalf("seed %d step %d: admitted to %d tokens charged+held over %d", seed, step, used.tokens, l)
					}
					if l := u.limits.MaxCostUSD; l > 0 && used.cost > l*(1+1e-9) && model != "unpriced-local" {
						t.Fatalf("seed %d step %d: admitted to $%g charged+held over $%g", seed, step, used.cost, l)
					}
					if l := u.limits.MaxTotalTokens; l > 0 && prev[index(trackers, u)].spent.tokens >= l {
						t.Fatalf("seed %d step %d: admitted after the token limit was reached", seed, step)
					}
				}
				open = append(open, r)
			case op <= 3 && len(open) > 0:
				i := rng.IntN(len(open))
				_ = open[i].Settle(adversarialUsage(rng))
				open = append(open[:i], open[i+1:]...)
			case op == 4 && len(open) > 0:
				i := rng.IntN(len(open))
				open[i].Release()
				open = append(open[:i], open[i+1:]...)
			case op == 5:
				if rng.IntN(2) == 0 {
					tr.Charge(rng.IntN(3), adversarialUsage(rng))
				} else {
					tr.Save(rng.IntN(3), adversarialUsage(rng).Saved())
				}
			}
			for i, tr := range trackers {
				now := take(tr)
				if now.spent.tokens < prev[i].spent.tokens || now.spent.cost < prev[i].spent.cost || math.IsNaN(now.spent.cost) {
					t.Fatalf("seed %d step %d: spend went from %+v to %+v", seed, step, prev[i].spent, now.spent)
				}
				if !now.usage.Possible() || !notBelow(now.usage, prev[i].usage) {
					t.Fatalf("seed %d step %d: usage went from %+v to %+v", seed, step, prev[i].usage, now.usage)
				}
				if _, err := json.Marshal(now.usage); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
				for d, u := range now.depth {
					if !u.Possible() || !notBelow(u, prev[i].depth[d]) {
						t.Fatalf("seed %d step %d: depth %d usage went from %+v to %+v", seed, step, d, prev[i].depth[d], u)
					}
				}
				prev[i] = now
			}
		}
		for _, r := range open {
			r.Release()
		}
		for _, tr := range trackers {
			if tr.held.tokens != 0 || tr.held.cost > 1e-9 {
				t.Fatalf("seed %d: still held %+v", seed, tr.held)
			}
		}
	}
}

func index(ts []*Tracker, t *Tracker) int {
	for i, u := range ts {
		if u == t {
			return i
		}
	}
	return -1
}

// notBelow reports that no count or cost of u is below prev's.
func notBelow(u, prev Usage) bool {
	return u.PromptTokens >= prev.PromptTokens && u.CompletionTokens >= prev.CompletionTokens && u.TotalTokens >= prev.TotalTokens &&
		u.Calls >= prev.Calls && u.CachedTokens >= prev.CachedTokens && u.CacheWriteTokens >= prev.CacheWriteTokens &&
		u.SavedCalls >= prev.SavedCalls && u.SavedTokens >= prev.SavedTokens &&
		u.CostUSD >= prev.CostUSD && u.SavedCostUSD >= prev.SavedCostUSD
}

// TestUsageArithmeticSaturates: sums of huge counts and costs saturate
// instead of wrapping to negative numbers or becoming infinite.
func TestUsageArithmeticSaturates(t *testing.T) {
	big := Usage{PromptTokens: math.MaxInt64, CompletionTokens: math.MaxInt64, TotalTokens: math.MaxInt64, CostUSD: math.MaxFloat64, Calls: 1}
	s := big.Add(big)
	if s.TotalTokens != math.MaxInt64 || s.PromptTokens != math.MaxInt64 || s.CostUSD != math.MaxFloat64 || math.IsInf(s.CostUSD, 0) {
		t.Fatalf("%+v", s)
	}
	if AddTokens(math.MaxInt64, 1) != math.MaxInt64 || AddTokens(math.MinInt64, -1) != math.MinInt64 || AddTokens(2, 3) != 5 || AddTokens(-2, 3) != 1 {
		t.Fatal("AddTokens")
	}
	if sv := big.Saved(); sv.SavedTokens != math.MaxInt64 || sv.SavedCostUSD != math.MaxFloat64 {
		t.Fatalf("%+v", sv)
	}
	for _, u := range []Usage{{TotalTokens: -1}, {CostUSD: math.NaN()}, {CostUSD: math.Inf(1)}, {SavedCostUSD: -1}, {Calls: -1}} {
		if u.Possible() || !u.Clean().Possible() {
			t.Fatalf("%+v", u)
		}
	}
}
