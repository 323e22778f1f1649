package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// reply builds one cassette interaction answering requests that contain
// match with content.
func reply(match, content string) replay.Interaction {
	return replayDelayed(match, content, 0)
}

func replayDelayed(match, content string, delayMS int) replay.Interaction {
	return replyFull(match, content, delayMS, "test-model")
}

func replyFull(match, content string, delayMS int, modelName string) replay.Interaction {
	in := replay.Reply(match, model.Response{Text: content, Meta: model.Meta{Model: modelName},
		Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}})
	in.DelayMS = delayMS
	return in
}

// js encodes v as compact JSON (for writing plans in tests).
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func ref(name string) map[string]any   { return map[string]any{"ref": "var", "name": name} }
func input(name string) map[string]any { return map[string]any{"ref": "input", "name": name} }
func steps(s ...map[string]any) string { return js(map[string]any{"steps": s}) }

// fixture is a replay server, a store with one context, and an engine.
type fixture struct {
	srv   *replay.Server
	store *corpus.Store
	h     corpus.Handle
	eng   *Engine
}

func newFixture(t testing.TB, text string, cfg Config, interactions ...replay.Interaction) *fixture {
	t.Helper()
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: interactions})
	t.Cleanup(srv.Close)
	prov, err := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "test-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	eng, h := scriptedEngine(t, text, cfg, prov)
	return &fixture{srv: srv, store: eng.cfg.Store, h: h, eng: eng}
}

func (f *fixture) run(t testing.TB, query string) (*Result, error) {
	t.Helper()
	return f.eng.Run(context.Background(), query, f.h)
}

func lines(n int, f func(i int) string) string {
	s := ""
	for i := range n {
		s += f(i) + "\n"
	}
	return s
}
