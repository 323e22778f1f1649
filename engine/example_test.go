package engine_test

import (
	"context"
	"fmt"
	"strings"

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

// Watch a run turn by turn: Config.Observer receives each turn's reply
// (bounded, credentials redacted), what became of it, and the observation
// the model reads next. Engine.Events yields the same events as an
// iter.Seq2, ending with the result.
func ExampleConfig_observer() {
	ctx := context.Background()
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		reply(`<think>search first</think>{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"ERROR"},"bind":"errors"}]}`),
		reply(`Here you go: {"answer": "disk full" `),
		reply(`{"answer": "disk full", "confidence": 0.9}`),
	}})
	defer srv.Close()

	store := corpus.NewStore()
	defer store.Close()
	h, _ := store.AddString("app.log", "INFO start\nERROR disk full\nINFO stop\n")

	prov, _ := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "gpt-4o-mini"})
	eng, _ := engine.New(engine.Config{Provider: prov, Model: "gpt-4o-mini", Store: store,
		Observer: func(ev engine.Event) {
			if ev.Kind != engine.EventTurn {
				return
			}
			fmt.Printf("turn %d (attempt %d): %s", ev.Turn, ev.Attempt, ev.Outcome)
			if ev.Error != nil {
				fmt.Printf(" %s/%s, repair: %v", ev.Error.Phase, ev.Error.Kind, ev.Repair)
			}
			fmt.Println()
			if ev.Outcome == engine.OutcomePlan {
				fmt.Println(strings.Split(ev.Observation, "\n")[1])
			}
		}})
	res, err := eng.Run(ctx, "What went wrong?", h)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer, res.AnswerMeta)
	// Output:
	// turn 1 (attempt 1): plan
	// errors = [{"index":2,"match":11,"offset":11,"value":"ERROR disk full"}]
	// turn 2 (attempt 1): rejected parse/malformed_json, repair: true
	// turn 3 (attempt 2): answer
	// disk full map[confidence:0.9]
}
