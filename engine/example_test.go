package engine_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// reply is a recorded model reply with content.
func reply(content string) replay.Interaction {
	return replay.Reply("", model.Response{Text: content, Meta: model.Meta{Model: "gpt-4o-mini"},
		Usage: budget.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940, TokensKnown: true}})
}

// Run an RLM over a context. Here the model is a replay server answering
// from a recorded cassette; with a real endpoint, only the provider's
// BaseURL and key change.
func ExampleEngine_Run() {
	ctx := context.Background()
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		reply(`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"ERROR"},"bind":"errors"}]}`),
		reply(`{"answer":"one error, on line 2: disk full"}`),
	}})
	defer srv.Close()

	store := corpus.NewStore()
	defer store.Close()
	h, _ := store.AddString("app.log", "INFO start\nERROR disk full\nINFO stop\n")

	prov, _ := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "gpt-4o-mini"})
	eng, _ := engine.New(engine.Config{Provider: prov, Model: "gpt-4o-mini", Store: store})
	res, err := eng.Run(ctx, "How many errors are there, and what are they?", h)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	fmt.Printf("%d turns, %d model calls, %d context ops, %d tokens, $%.6f (estimated: %v)\n",
		res.Turns, res.Counters.ModelCalls, res.Counters.ContextOps, res.Usage.TotalTokens, res.Usage.CostUSD, res.Usage.CostEstimated)
	// Output:
	// one error, on line 2: disk full
	// 2 turns, 2 model calls, 1 context ops, 1880 tokens, $0.000318 (estimated: true)
}
