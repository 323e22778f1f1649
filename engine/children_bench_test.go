package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/internal/inflight"
	"github.com/rlm-go/rlm/model"
)

// BenchmarkQueryChildrenInFlight measures rlm_query children while all
// of them are blocked in their second model call: 16 root runs at once,
// each a code-mode cell calling rlm_query_batched over 63 queries at
// concurrency 63 (a fan-out runs at most MaxStepConcurrency, 64, at
// once), so 1,008 children are in flight. A scripted provider answers
// each child's first turn with a cell that prints and holds its second
// call on a barrier that opens once every child has arrived. Reported
// per child: heap in use plus goroutine stacks over the idle baseline
// (B/child, after a GC; the 16 roots' share included), split as
// heap-B/child (live-heap-B/child of it in live objects) and
// stack-B/child, and goroutines/child.
func BenchmarkQueryChildrenInFlight(b *testing.B) {
	const roots, fan = 16, 63
	const n = roots * fan
	store := corpus.NewStore()
	b.Cleanup(func() { store.Close() })
	h, err := store.AddString("bench", "a small context\n")
	if err != nil {
		b.Fatal(err)
	}
	var per inflight.PerChild
	for range b.N {
		bar := inflight.NewBarrier(n)
		prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
			usage := budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true, Calls: 1}
			text := py(`print(len(context))`)
			switch {
			case strings.Contains(req.Messages[len(req.Messages)-1].Content, "ROOT"):
				text = py(fmt.Sprintf(`out = rlm_query_batched(["child %%d" %% i for i in range(%d)], concurrency=%d)`, fan, fan), `FINAL(len(out))`)
			case len(req.Messages) > 2:
				if err := bar.Arrive(ctx); err != nil {
					return nil, err
				}
				text = py(`FINAL("ok")`)
			}
			return &model.Response{Text: text, Usage: usage}, nil
		})
		eng, err := New(Config{Provider: prov, Model: "m", Store: store, Mode: ModeCode,
			Limits: budget.Limits{MaxIterations: -1, MaxModelCalls: -1, MaxContextOps: -1, MaxTotalTokens: -1, MaxCostUSD: -1, MaxConcurrency: -1, MaxDepth: 1}})
		if err != nil {
			b.Fatal(err)
		}
		base := inflight.InUse()
		errs := make(chan error, roots)
		var wg sync.WaitGroup
		for range roots {
			wg.Go(func() {
				res, err := eng.Run(context.Background(), "ROOT", h)
				if err == nil && res.Answer != int64(fan) {
					err = fmt.Errorf("answer %v", res.Answer)
				}
				errs <- err
			})
		}
		bar.Wait()
		per.Add(inflight.InUse(), base, n)
		bar.Release()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	per.Report(b)
}
