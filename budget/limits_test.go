package budget

import (
	"context"
	"encoding/json"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
)

func TestTrackerLimits(t *testing.T) {
	l, err := Limits{MaxIterations: 2, MaxModelCalls: 1, MaxToolCalls: 1, MaxContextOps: 1, MaxTotalTokens: 10, MaxCostUSD: 0.5, MaxOutputBytes: 4, MaxDepth: 1}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(l)
	steps := []struct {
		name string
		fn   func() error
		kind fault.Kind
	}{
		{"iter1", tr.Iteration, ""},
		{"iter2", tr.Iteration, ""},
		{"iter3", tr.Iteration, KindMaxIterations},
		{"model1", tr.ModelCall, ""},
		{"model2", tr.ModelCall, KindMaxModelCalls},
		{"tool1", tr.ToolCall, ""},
		{"tool2", tr.ToolCall, KindMaxToolCalls},
		{"ctx1", tr.ContextOp, ""},
		{"ctx2", tr.ContextOp, KindMaxContextOps},
		{"depth1", func() error { return tr.Depth(1) }, ""},
		{"depth2", func() error { return tr.Depth(2) }, KindMaxDepth},
		{"out", func() error { return tr.Output(5) }, KindMaxOutputBytes},
	}
	for _, s := range steps {
		if got := fault.KindOf(s.fn()); got != s.kind {
			t.Errorf("%s: got %q want %q", s.name, got, s.kind)
		}
	}
	tr.Charge(0, Usage{TotalTokens: 10, TokensKnown: true})
	if fault.KindOf(tr.Spendable()) != KindMaxTotalTokens {
		t.Fatal("tokens not enforced")
	}
	tr2 := NewTracker(l)
	tr2.Charge(1, Usage{CostUSD: 0.6})
	if fault.KindOf(tr2.Spendable()) != KindMaxCost {
		t.Fatal("cost not enforced")
	}
	if tr2.UsageByDepth()[1].CostUSD != 0.6 {
		t.Fatal("per-depth usage")
	}
	tr3 := NewTracker(Limits{TimeLimit: time.Nanosecond, MaxIterations: 5})
	time.Sleep(time.Millisecond)
	if fault.KindOf(tr3.Iteration()) != KindTimeLimit {
		t.Fatal("time limit")
	}
}

func TestAcquireBoundsConcurrency(t *testing.T) {
	l, _ := Limits{MaxConcurrency: 3}.Resolve()
	tr := NewTracker(l)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rel, err := tr.Acquire(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			time.Sleep(2 * time.Millisecond)
			rel()
		}()
	}
	wg.Wait()
	if c := tr.Counters(); c.MaxInFlight > 3 || c.MaxInFlight < 1 || c.InFlight != 0 {
		t.Fatalf("%+v", c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 3 {
		tr.Acquire(context.Background())
	}
	if _, err := tr.Acquire(ctx); fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("want cancelled, got %v", err)
	}
}

func TestResolveDefaults(t *testing.T) {
	l, err := Limits{}.Resolve()
	if err != nil || l != DefaultLimits {
		t.Fatalf("%+v %v", l, err)
	}
	if _, err := (Limits{MaxDepth: -1}).Resolve(); fault.KindOf(err) != KindInvalidLimits {
		t.Fatal("negative depth accepted")
	}
}

// A time limit in milliseconds beyond time.Duration's range saturates
// instead of wrapping (18446744073710 ms wrapped to 448 µs, so a huge
// limit from JSON or a caller cut a run off at once).
func TestFromMillisSaturates(t *testing.T) {
	for _, tt := range []struct {
		ms   int64
		want time.Duration
	}{
		{1500, 1500 * time.Millisecond},
		{-1, -time.Millisecond},
		{18446744073710, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64},
		{math.MinInt64, math.MinInt64},
	} {
		if got := FromMillis(tt.ms); got != tt.want {
			t.Errorf("FromMillis(%d) = %v, want %v", tt.ms, got, tt.want)
		}
	}
	var l Limits
	if err := json.Unmarshal([]byte(`{"time_limit_ms": 18446744073710}`), &l); err != nil || l.TimeLimit != math.MaxInt64 {
		t.Fatalf("huge time_limit_ms: %v %v", l.TimeLimit, err)
	}
}
