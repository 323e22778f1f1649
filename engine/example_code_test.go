package engine_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// Code mode: the model writes Python that the sandboxed REPL runs; a
// Session keeps its variables and a history across queries.
func ExampleEngine_NewSession() {
	ctx := context.Background()
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		reply("```python\nerrors = [h[\"text\"] for h in context.search(\"ERROR\")]\nprint(len(errors), errors)\n```"),
		reply("```python\nFINAL(len(errors))\n```"),
		reply("```python\nFINAL(errors[0].split(\"ERROR \")[1])\n```"),
	}})
	defer srv.Close()

	store := corpus.NewStore()
	defer store.Close()
	h, _ := store.AddString("app.log", "INFO start\nERROR disk full\nINFO stop\n")

	prov, _ := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "gpt-4o-mini"})
	eng, _ := engine.New(engine.Config{Provider: prov, Model: "gpt-4o-mini", Store: store, Mode: engine.ModeCode})
	s, _ := eng.NewSession(h)
	for _, q := range []string{"How many errors are there?", "What is the first one?"} {
		res, err := s.Ask(ctx, q)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Answer)
	}
	fmt.Println(len(s.History()), "answers in the history")
	// Output:
	// 1
	// disk full
	// 2 answers in the history
}
