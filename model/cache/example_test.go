package cache_test

import (
	"context"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/cache"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// Wrap a provider so that identical deterministic requests (temperature 0)
// are answered once: a repeat is a memory hit, and with Options.Dir a later
// process finds the response on disk. The scope names the endpoint and the
// credential, so different keys or servers never share a response. The
// replay server holds one answer: a second real call would fail.
func ExampleCache_Wrap() {
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		replay.Reply("", model.Response{Text: "Paris",
			Usage: budget.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11, TokensKnown: true}}),
	}})
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "rlm-cache-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	zero := 0.0
	req := model.Request{Temperature: &zero, Messages: []model.Message{{Role: model.RoleUser, Content: "Capital of France?"}}}

	provider, _ := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "gpt-4o-mini"})
	c, err := cache.New(cache.Options{Dir: dir}) // Dir is optional: the on-disk store
	if err != nil {
		fmt.Println(err)
		return
	}
	p := c.Wrap(provider, provider.CacheScope()) // a model.Sharer
	for range 2 {
		resp, err := p.Complete(ctx, req)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s cache=%q\n", resp.Text, resp.Meta.Cache)
	}

	later, _ := cache.New(cache.Options{Dir: dir}) // as a new process would
	resp, err := later.Wrap(provider, provider.CacheScope()).Complete(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s cache=%q\n", resp.Text, resp.Meta.Cache)
	fmt.Println("real calls:", srv.Stats().Served, "saved tokens:", c.Stats().Saved.SavedTokens)
	// Output:
	// Paris cache=""
	// Paris cache="memory"
	// Paris cache="disk"
	// real calls: 1 saved tokens: 11
}
