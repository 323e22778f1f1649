package pack

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
)

var _ = flag.Bool("update", false, "rewrite golden files (read by internal/golden)")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func v(kind string, tokens int, utility int64) Variant {
	return Variant{Kind: kind, Tokens: tokens, Utility: utility}
}

func TestPack(t *testing.T) {
	tests := []struct {
		name   string
		items  []Item
		policy Policy
		want   []int
		kind   fault.Kind
		unit   string
	}{
		{
			name: "reference backtracking selects highest utility under hard cap",
			items: []Item{
				{ID: "system", Mandatory: true, Variants: []Variant{v("full", 20, 0)}},
				{ID: "a", Variants: []Variant{v("full", 60, 50)}},
				{ID: "b", Variants: []Variant{v("full", 40, 45)}},
				{ID: "c", Variants: []Variant{v("full", 20, 30)}},
			},
			policy: Policy{MaxContextTokens: 100, ReserveOutputTokens: 10, SafetyMarginTokens: 5},
			want:   []int{0, -1, 0, 0},
		},
		{
			name: "everything fits takes the best variant of each",
			items: []Item{
				{ID: "a", Mandatory: true, Variants: []Variant{v("full", 10, 100), v("compact", 5, 50)}},
				{ID: "b", Variants: []Variant{v("full", 10, 100)}},
			},
			policy: Policy{MaxContextTokens: 100},
			want:   []int{0, 0},
		},
		{
			name: "compact variant chosen under pressure",
			items: []Item{
				{ID: "a", Mandatory: true, Variants: []Variant{v("full", 50, 100), v("compact", 10, 60)}},
				{ID: "b", Mandatory: true, Variants: []Variant{v("full", 50, 100), v("compact", 10, 60)}},
			},
			policy: Policy{MaxContextTokens: 60},
			want:   []int{0, 1},
		},
		{
			name: "tie on utility prefers fewer tokens",
			items: []Item{
				{ID: "a", Variants: []Variant{v("full", 30, 10), v("compact", 20, 10)}},
				{ID: "b", Variants: []Variant{v("full", 30, 10)}},
			},
			policy: Policy{MaxContextTokens: 50},
			want:   []int{1, 0},
		},
		{
			name: "full tie prefers the earlier item",
			items: []Item{
				{ID: "a", Variants: []Variant{v("full", 10, 10)}},
				{ID: "b", Variants: []Variant{v("full", 10, 10)}},
			},
			policy: Policy{MaxContextTokens: 15},
			want:   []int{0, -1},
		},
		{
			name:   "mandatory unit over budget fails naming it",
			items:  []Item{{ID: "small", Mandatory: true, Variants: []Variant{v("full", 5, 1)}}, {ID: "big", Mandatory: true, Variants: []Variant{v("full", 90, 1)}}},
			policy: Policy{MaxContextTokens: 100, ReserveOutputTokens: 10, SafetyMarginTokens: 5},
			kind:   KindContextBudgetExceeded,
			unit:   "big",
		},
		{
			name:   "optional unit over budget is omitted",
			items:  []Item{{ID: "big", Variants: []Variant{v("full", 90, 1)}}},
			policy: Policy{MaxContextTokens: 10},
			want:   []int{-1},
		},
		{
			name:   "reserve above window is an invalid policy",
			policy: Policy{MaxContextTokens: 10, ReserveOutputTokens: 11},
			kind:   KindInvalidPolicy,
		},
		{
			name:   "omitted is reserved",
			items:  []Item{{ID: "a", Variants: []Variant{v(Omitted, 1, 1)}}},
			policy: DefaultPolicy(),
			kind:   KindInvalidItem,
		},
		{
			name:   "mandatory without variants",
			items:  []Item{{ID: "a", Mandatory: true}},
			policy: DefaultPolicy(),
			kind:   KindInvalidItem,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Pack(tt.items, tt.policy, nil)
			if tt.kind != "" {
				if fault.KindOf(err) != tt.kind {
					t.Fatalf("err = %v, want kind %s", err, tt.kind)
				}
				if tt.unit != "" && fault.As(err).Detail["unit"] != tt.unit {
					t.Fatalf("err detail = %v, want unit %s", fault.As(err).Detail, tt.unit)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Choice, tt.want) {
				t.Fatalf("choice = %v, want %v", res.Choice, tt.want)
			}
			last := res.Ledger.Charges[len(res.Ledger.Charges)-1]
			if last.CumulativeTokens != res.Ledger.TotalTokens || res.Ledger.TotalTokens > tt.policy.MaxContextTokens {
				t.Fatalf("ledger inconsistent: %+v", res.Ledger)
			}
		})
	}
}

func TestLedgerGolden(t *testing.T) {
	items := []Item{
		{ID: "system", Mandatory: true, Variants: []Variant{v("full", 20, 0)}},
		{ID: "a", Variants: []Variant{v("full", 60, 50)}},
		{ID: "b", Variants: []Variant{v("full", 40, 45)}},
		{ID: "c", Variants: []Variant{v("full", 20, 30)}},
	}
	res, err := Pack(items, Policy{MaxContextTokens: 100, ReserveOutputTokens: 10, SafetyMarginTokens: 5}, CounterFor(""))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(res.Ledger, "", "  ")
	golden.Check(t, "reference_ledger.golden", append(got, '\n'))
	if res.Ledger.Utility != 75 || res.Ledger.TotalTokens != 95 || res.Ledger.RemainingTokens != 5 {
		t.Fatalf("ledger = %+v", res.Ledger)
	}
}

// brute enumerates every assignment and returns the optimum under the
// documented order: utility desc, tokens asc, choice vector
// lexicographically asc (omitted last within an item).
func brute(items []Item, avail int) ([]int, bool) {
	opts, _ := options(items)
	var best []int
	var bestU int64
	bestT := 0
	cur := make([]int, len(items))
	var rec func(i, t int, u int64)
	rec = func(i, t int, u int64) {
		if t > avail {
			return
		}
		if i == len(items) {
			if best == nil || u > bestU || (u == bestU && t < bestT) || (u == bestU && t == bestT && lexLess(cur, best)) {
				best, bestU, bestT = slices.Clone(cur), u, t
			}
			return
		}
		for j, o := range opts[i] {
			cur[i] = j
			rec(i+1, t+o.tokens, u+o.utility)
		}
	}
	rec(0, 0, 0)
	if best == nil {
		return nil, false
	}
	out := make([]int, len(best))
	for i, j := range best {
		out[i] = opts[i][j].index
	}
	return out, true
}

func lexLess(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func randomItems(r *rand.Rand, n int) []Item {
	items := make([]Item, n)
	for i := range items {
		nv := 1 + r.IntN(3)
		vs := make([]Variant, nv)
		for j := range vs {
			vs[j] = v("k", r.IntN(20), int64(r.IntN(6)))
		}
		items[i] = Item{ID: string(rune('a' + i)), Mandatory: r.IntN(4) == 0, Variants: vs}
	}
	return items
}

func TestPackMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		items := randomItems(r, 1+r.IntN(7))
		avail := 1 + r.IntN(60)
		res, err := Pack(items, Policy{MaxContextTokens: avail}, nil)
		want, ok := brute(items, avail)
		if !ok {
			if fault.KindOf(err) != KindContextBudgetExceeded {
				t.Fatalf("trial %d: want budget error, got %v", trial, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !slices.Equal(res.Choice, want) {
			t.Fatalf("trial %d: items %+v avail %d: choice %v, brute %v", trial, items, avail, res.Choice, want)
		}
	}
}

func BenchmarkPack(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{64, 256} {
		items := make([]Item, n)
		total := 0
		for i := range items {
			full := 100 + r.IntN(400)
			total += full
			items[i] = Item{ID: "u", Variants: []Variant{v("full", full, 1_000_100), v("compact", full/4, 500_000)}}
		}
		b.Run("fits/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				Pack(items, Policy{MaxContextTokens: total + 1}, nil)
			}
		})
		b.Run("pressure/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				Pack(items, Policy{MaxContextTokens: total / 2}, nil)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestPackManyVariants: under pressure (the dynamic program, not the fast
// path) an item with more than 256 variants still gets its best variant;
// the chosen option index must not wrap around.
func TestPackManyVariants(t *testing.T) {
	vs := make([]Variant, 300)
	for j := range vs {
		vs[j] = v("k", 10, int64(j))
	}
	items := []Item{
		{ID: "a", Variants: vs},
		{ID: "b", Mandatory: true, Variants: []Variant{v("full", 10, 100), v("compact", 5, 0)}},
	}
	res, err := Pack(items, Policy{MaxContextTokens: 15}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{299, 1}; !slices.Equal(res.Choice, want) || res.Ledger.Utility != 299 {
		t.Fatalf("choice %v utility %d, want %v utility 299", res.Choice, res.Ledger.Utility, want)
	}
}
