package budget

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// A child is held to what is left of its parent: counts, tokens, cost and
// time are admitted against both, a refusal by the parent says so, and a
// refused admission is counted in neither.
func TestChildSpendsFromParent(t *testing.T) {
	counts := []struct {
		name  string
		limit Limits
		admit func(*Tracker) error
		kind  fault.Kind
	}{
		{"iterations", Limits{MaxIterations: 2}, (*Tracker).Iteration, KindMaxIterations},
		{"model calls", Limits{MaxModelCalls: 2}, (*Tracker).ModelCall, KindMaxModelCalls},
		{"tool calls", Limits{MaxToolCalls: 2}, (*Tracker).ToolCall, KindMaxToolCalls},
		{"context ops", Limits{MaxContextOps: 2}, (*Tracker).ContextOp, KindMaxContextOps},
	}
	for _, c := range counts {
		t.Run(c.name, func(t *testing.T) {
			parent := tracker(t, c.limit)
			if err := c.admit(parent); err != nil {
				t.Fatal(err)
			}
			child := parent.Child(tracker(t, Limits{}).Limits(), 1) // the defaults: far more than 2
			if err := c.admit(child); err != nil {
				t.Fatalf("the parent's second: %v", err)
			}
			err := c.admit(child)
			if fault.KindOf(err) != c.kind {
				t.Fatalf("the parent's third through the child: %v, want Kind %s", err, c.kind)
			}
			if fe := fault.As(err); fe.Detail["budget"] != "caller" || fe.Hint == "" {
				t.Fatalf("refusal %+v does not say it is the caller's limit", fe)
			}
			if p, ch := parent.Counters(), child.Counters(); p != (Counters{Iterations: p.Iterations, ModelCalls: p.ModelCalls, ToolCalls: p.ToolCalls, ContextOps: p.ContextOps}) ||
				p.Iterations+p.ModelCalls+p.ToolCalls+p.ContextOps != 2 || ch.Iterations+ch.ModelCalls+ch.ToolCalls+ch.ContextOps != 1 {
				t.Fatalf("counters parent %+v child %+v: want 2 and 1 (the refused one counted in neither)", p, ch)
			}
		})
	}

	t.Run("the child's own limit refuses first", func(t *testing.T) {
		parent := tracker(t, Limits{MaxModelCalls: 10})
		child := parent.Child(tracker(t, Limits{MaxModelCalls: 1}).Limits(), 1)
		if err := child.ModelCall(); err != nil {
			t.Fatal(err)
		}
		err := child.ModelCall()
		if fault.KindOf(err) != KindMaxModelCalls || fault.As(err).Detail["budget"] != nil {
			t.Fatalf("%v: want the child's own max_model_calls", err)
		}
		if c := parent.Counters(); c.ModelCalls != 1 {
			t.Fatalf("parent counted %d model calls, want 1", c.ModelCalls)
		}
	})

	t.Run("usage is charged to both, at the child's depth below the call", func(t *testing.T) {
		parent := tracker(t, Limits{MaxTotalTokens: 1000})
		child := parent.Child(tracker(t, Limits{}).Limits(), 2)
		child.Charge(1, Usage{PromptTokens: 600, CompletionTokens: 100, TotalTokens: 700, TokensKnown: true, Calls: 1})
		child.Save(0, Usage{SavedCalls: 1, SavedTokens: 5})
		if u := parent.UsageByDepth(); u[3].TotalTokens != 700 || u[2].SavedCalls != 1 || parent.Usage().TotalTokens != 700 {
			t.Fatalf("parent usage by depth %+v", u)
		}
		if child.Usage().TotalTokens != 700 {
			t.Fatalf("child usage %+v", child.Usage())
		}
		// 300 tokens left in the parent: a child call asking 4096 is
		// shrunk to fit them, and is held in the parent too.
		r, err := child.Reserve(Worst{PromptTokens: 100, MaxTokens: 4096, MinTokens: 10})
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxTokens() != 200 {
			t.Fatalf("max_tokens %d; want 200", r.MaxTokens())
		}
		if _, err := parent.Reserve(Worst{PromptTokens: 1, MaxTokens: 1}); fault.KindOf(err) != KindMaxTotalTokens {
			t.Fatalf("the parent admitted a call while its child held the rest: %v", err)
		}
		r.Release()
		if _, err := parent.Reserve(Worst{PromptTokens: 1, MaxTokens: 1}); err != nil {
			t.Fatalf("released hold still held in the parent: %v", err)
		}
		r2, err := child.Reserve(Worst{PromptTokens: 10, MaxTokens: 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := r2.Settle(Usage{TotalTokens: 400, TokensKnown: true}); fault.KindOf(err) != KindMaxTotalTokens || fault.As(err).Detail["budget"] != "caller" {
			t.Fatalf("a settle past the parent's limit: %v, want the caller's max_total_tokens", err)
		}
		if err := child.Spendable(); fault.KindOf(err) != KindMaxTotalTokens {
			t.Fatalf("child spendable after the parent's tokens ran out: %v", err)
		}
	})

	t.Run("deadline and time", func(t *testing.T) {
		parent := tracker(t, Limits{TimeLimit: time.Millisecond})
		child := parent.Child(tracker(t, Limits{TimeLimit: time.Hour}).Limits(), 1)
		pd, _ := parent.Deadline()
		if cd, ok := child.Deadline(); !ok || !cd.Equal(pd) {
			t.Fatalf("child deadline %v, want the parent's %v", cd, pd)
		}
		for time.Now().Before(pd.Add(time.Millisecond)) {
			time.Sleep(time.Millisecond)
		}
		if err := child.ToolCall(); fault.KindOf(err) != KindTimeLimit {
			t.Fatalf("after the parent's time: %v", err)
		}
	})

	t.Run("context", func(t *testing.T) {
		if tr, d := FromContext(context.Background()); tr != nil || d != 0 {
			t.Fatal("a tracker from nowhere")
		}
		parent := tracker(t, Limits{})
		if tr, d := FromContext(WithTracker(context.Background(), parent, 3)); tr != parent || d != 3 {
			t.Fatalf("FromContext = %p, %d", tr, d)
		}
	})
}

// Siblings reserving concurrently never together pass their parent's
// token budget (the property the single tracker already has).
func TestChildrenTogetherStayWithinParent(t *testing.T) {
	parent := tracker(t, Limits{MaxTotalTokens: 10_000})
	var wg sync.WaitGroup
	for range 8 {
		child := parent.Child(tracker(t, Limits{}).Limits(), 1)
		wg.Go(func() {
			for {
				r, err := child.Reserve(Worst{PromptTokens: 50, MaxTokens: 300, MinTokens: 10})
				if err != nil {
					return
				}
				_ = r.Settle(Usage{TotalTokens: r.Tokens(), TokensKnown: true})
			}
		})
	}
	wg.Wait()
	if u := parent.Usage().TotalTokens; u > 10_000 || u < 10_000-60 {
		t.Fatalf("children spent %d of the parent's 10000", u)
	}
}
