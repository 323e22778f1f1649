package engine

import (
	"context"
	"sync"
	"testing"
	"unsafe"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/internal/inflight"
	"github.com/rlm-go/rlm/model"
)

// TestSystemPromptShared checks that loops running at once with the same
// system prompt (children of one fan-out over one context, subagent
// children of one parent: each an engine of its own) hold one copy of
// its bytes, not one each (issue 35), in both modes.
func TestSystemPromptShared(t *testing.T) {
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("shared", "alpha\nbeta\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ mode, reply string }{
		{ModePlan, `{"answer":"ok"}`},
		{ModeCode, py(`FINAL("ok")`)},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			const n = 2
			bar := inflight.NewBarrier(n)
			var mu sync.Mutex
			var seen []*byte
			prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
				mu.Lock()
				seen = append(seen, unsafe.StringData(req.Messages[0].Content))
				mu.Unlock()
				if err := bar.Arrive(ctx); err != nil {
					return nil, err
				}
				return &model.Response{Text: tc.reply, Usage: budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true, Calls: 1}}, nil
			})
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				eng, err := New(Config{Provider: prov, Model: "m", Store: store, Mode: tc.mode})
				if err != nil {
					t.Fatal(err)
				}
				wg.Go(func() { _, errs[i] = eng.Run(context.Background(), "the same query", h) })
			}
			bar.Wait()
			bar.Release()
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if len(seen) != n || seen[0] != seen[1] {
				t.Fatalf("system prompts at %v, want one shared copy", seen)
			}
		})
	}
}
