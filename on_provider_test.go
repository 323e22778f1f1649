package rlm

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
)

// On.Provider answers the call instead of the session's provider, in
// every mode (the engine, and ModeAuto's direct call); rlm bench records
// and replays each trial through it.
func TestRunOnWithProvider(t *testing.T) {
	var session, own atomic.Int64
	s, err := Open(context.Background(), Spec{Cache: CacheSpec{Off: true}}, scripted(`{"answer":"session"}`, &session))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("context", "some text\n")
	if err != nil {
		t.Fatal(err)
	}
	p := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
		own.Add(1)
		return &model.Response{Text: `{"answer":"own"}`, Usage: budget.Usage{PromptTokens: 5, CompletionTokens: 5, TotalTokens: 10, TokensKnown: true}}, nil
	})
	for _, mode := range []string{engine.ModePlan, ModeAuto} {
		res, err := s.RunOn(context.Background(), On{Store: store, Context: h, Query: "q", Mode: mode, Provider: p})
		if err != nil || res.Answer == nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if mode == engine.ModePlan && res.Answer != "own" {
			t.Fatalf("%s: answer %v", mode, res.Answer)
		}
	}
	if session.Load() != 0 || own.Load() != 2 {
		t.Fatalf("session's provider %d calls, own %d", session.Load(), own.Load())
	}
}
