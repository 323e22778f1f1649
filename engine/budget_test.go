package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// funcEngine is an engine over in-process providers.
func funcEngine(t *testing.T, text string, cfg Config, root, sub model.ProviderFunc) (*Engine, corpus.Handle) {
	t.Helper()
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", text)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Provider, cfg.Store = root, store
	if sub != nil {
		cfg.SubProvider = sub
	}
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng, h
}

// worstOf is what the engine admits for req.
func worstOf(req model.Request, modelName string) int64 {
	return model.PromptTokens(req, modelName) + int64(req.MaxTokens)
}

func usageOf(tokens int64, modelName string) budget.Usage {
	u := budget.Usage{PromptTokens: tokens / 2, CompletionTokens: tokens - tokens/2, TotalTokens: tokens, TokensKnown: true}
	return budget.WithEstimatedCost(u, modelName)
}

// A call whose worst case does not fit is refused before anything is
// sent.
func TestWorstCaseRefusedBeforeSending(t *testing.T) {
	for _, lim := range []budget.Limits{{MaxTotalTokens: 1}, {MaxCostUSD: 1e-9}} {
		var sent atomic.Int64
		p := func(ctx context.Context, req model.Request) (*model.Response, error) {
			sent.Add(1)
			return &model.Response{Text: `{"answer":"ok"}`, Usage: usageOf(60, "gpt-4o")}, nil
		}
		eng, h := funcEngine(t, haystack, Config{Model: "gpt-4o", Limits: lim}, p, nil)
		res, err := eng.Run(context.Background(), "q", h)
		want := budget.KindMaxTotalTokens
		if lim.MaxCostUSD > 0 {
			want = budget.KindMaxCost
		}
		if fault.KindOf(err) != want || res.Status != StatusFailed || sent.Load() != 0 || res.Usage.Calls != 0 {
			t.Fatalf("%+v: want %s before sending, got %v (sent %d, status %s)", lim, want, err, sent.Load(), res.Status)
		}
	}
}

// max_tokens is shrunk to what is left when that leaves a useful reply.
func TestMaxTokensShrunkToWhatIsLeft(t *testing.T) {
	var got []model.Request
	var mu sync.Mutex
	p := func(ctx context.Context, req model.Request) (*model.Response, error) {
		mu.Lock()
		got = append(got, req)
		mu.Unlock()
		return &model.Response{Text: `{"answer":"ok"}`, Usage: usageOf(worstOf(req, "test-model"), "test-model")}, nil
	}
	// Measure the first request's prompt, then leave 300 completion
	// tokens for it.
	eng, h := funcEngine(t, haystack, Config{}, p, nil)
	if _, err := eng.Run(context.Background(), "q", h); err != nil {
		t.Fatal(err)
	}
	prompt := model.PromptTokens(got[0], "test-model")
	got = nil
	eng, h = funcEngine(t, haystack, Config{Limits: budget.Limits{MaxTotalTokens: prompt + 300}}, p, nil)
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Status != StatusCompleted {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].MaxTokens != 300 {
		t.Fatalf("max_tokens sent %d, want 300 (default %d)", got[0].MaxTokens, DefaultMaxTokens)
	}
	if res.Usage.TotalTokens > prompt+300 {
		t.Fatalf("charged %d over %d", res.Usage.TotalTokens, prompt+300)
	}
	noted := false
	for _, ev := range res.Trajectory {
		noted = noted || (ev.Kind == trace.KindNote && ev.Name == "max_tokens shrunk to the budget")
	}
	if !noted {
		t.Fatal("the trace does not say max_tokens was shrunk")
	}
	// Less than MinReplyTokens left: refused.
	got = nil
	eng, h = funcEngine(t, haystack, Config{Limits: budget.Limits{MaxTotalTokens: prompt + budget.MinReplyTokens - 1}}, p, nil)
	if _, err := eng.Run(context.Background(), "q", h); fault.KindOf(err) != budget.KindMaxTotalTokens || len(got) != 0 {
		t.Fatalf("want refusal, got %v after %d requests", err, len(got))
	}
}

// A provider reporting more than the admitted worst case, crossing the
// limit, ends the run with the budget's kind; the usage is kept.
func TestOverReportEndsRunWithBudgetKind(t *testing.T) {
	p := func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: `{"answer":"ok"}`, Usage: usageOf(10*worstOf(req, "test-model"), "test-model")}, nil
	}
	eng, h := funcEngine(t, haystack, Config{Limits: budget.Limits{MaxTotalTokens: 20_000}}, p, nil)
	res, err := eng.Run(context.Background(), "q", h)
	if fault.KindOf(err) != budget.KindMaxTotalTokens || res.Status != StatusFailed || res.Answer != nil {
		t.Fatalf("want %s, got %v (status %s)", budget.KindMaxTotalTokens, err, res.Status)
	}
	if res.Usage.Calls != 1 || res.Usage.TotalTokens <= 20_000 {
		t.Fatalf("usage not kept: %+v", res.Usage)
	}
}

// TestHardBudgetFanOutProperty: over random fan-outs (a map of model
// sub-calls), limits and reported usages, the charged total never exceeds
// the token or cost limit unless a provider reported more than a call's
// admitted worst case, and then the run ends with the budget's kind.
func TestHardBudgetFanOutProperty(t *testing.T) {
	for seed := range uint64(24) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 11))
			modelName := "test-model"
			lim := budget.Limits{MaxTotalTokens: -1, MaxCostUSD: -1, MaxConcurrency: 1 + rng.IntN(6)}
			kind := budget.KindMaxTotalTokens
			if seed%2 == 0 {
				lim.MaxTotalTokens = 500 + rng.Int64N(30_000)
			} else {
				modelName = "gpt-4o-mini" // $0.15 in, $0.60 out per million
				lim.MaxCostUSD = float64(100+rng.IntN(20_000)) / 1e6
				kind = budget.KindMaxCost
			}
			items := 1 + rng.IntN(12)
			lie := seed%3 == 0
			var mu sync.Mutex
			fracs := make([]float64, 64)
			for i := range fracs {
				fracs[i] = rng.Float64()
			}
			var n int
			var overReported atomic.Bool
			report := func(req model.Request) budget.Usage {
				mu.Lock()
				f := fracs[n%len(fracs)]
				n++
				mu.Unlock()
				// An honest provider counts no more prompt tokens than the
				// engine admitted and no more completion tokens than the
				// max_tokens it sent: the completion is priced higher, so
				// a total within the worst case alone does not bound the
				// cost.
				prompt := int64(f * float64(model.PromptTokens(req, modelName)))
				completion := int64(f * float64(req.MaxTokens))
				if lie && f < 0.3 {
					w := worstOf(req, modelName)
					prompt, completion = w+50, 2*w+50
					overReported.Store(true)
				}
				u := budget.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, TokensKnown: true}
				return budget.WithEstimatedCost(u, modelName)
			}
			plan := steps(
				map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
				map[string]any{"op": "map", "over": ref("parts"), "as": "p", "bind": "out", "plan": map[string]any{"steps": []any{
					map[string]any{"op": "model", "prompt": "summarize", "bind": "a"},
					map[string]any{"op": "final", "value": ref("a")},
				}}},
			)
			var rootCalls atomic.Int64
			root := func(ctx context.Context, req model.Request) (*model.Response, error) {
				text := plan
				if rootCalls.Add(1) > 1 {
					text = `{"answer":"done"}`
				}
				return &model.Response{Text: text, Usage: report(req)}, nil
			}
			sub := func(ctx context.Context, req model.Request) (*model.Response, error) {
				return &model.Response{Text: "summary", Usage: report(req)}, nil
			}
			text := lines(items, func(i int) string { return fmt.Sprintf("row %d", i) })
			eng, h := funcEngine(t, text, Config{Model: modelName, Limits: lim}, root, sub)
			res, err := eng.Run(context.Background(), "q", h)
			over := (lim.MaxTotalTokens > 0 && res.Usage.TotalTokens > lim.MaxTotalTokens) ||
				(lim.MaxCostUSD > 0 && res.Usage.CostUSD > lim.MaxCostUSD+1e-12)
			if over && !overReported.Load() {
				t.Fatalf("charged %+v over %+v with honest providers", res.Usage, lim)
			}
			if over && (fault.KindOf(err) != kind || res.Status != StatusFailed) {
				t.Fatalf("over the limit (%+v) but the run ended with %v", res.Usage, err)
			}
			t.Logf("limits %+v items %d lie %v: calls %d tokens %d cost %.6f err %v", lim, items, lie, res.Usage.Calls, res.Usage.TotalTokens, res.Usage.CostUSD, fault.KindOf(err))
			if err != nil && fault.PhaseOf(err) != fault.PhaseBudget {
				t.Fatalf("unexpected error %v", err)
			}
		})
	}
}
