package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/cache"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

// Identical sub-calls of one run tree are answered once: 30 identical
// prompts in a batch (the cassette holds one answer for them, so a second
// real call would be cassette_exhausted), budgets count only real calls,
// usage reports what was saved and the trace marks every hit.
func TestIdenticalSubCallsAnsweredOnce(t *testing.T) {
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		reply("Query: q", py(`out = llm_query_batched(["same prompt"] * 30 + ["other prompt"], concurrency=8)`, `print(len(set(out)), out[0], out[-1])`)),
		reply("same prompt", "A"),
		reply("other prompt", "B"),
		reply("2 A B", py(`FINAL("ok")`)),
	}})
	defer srv.Close()
	prov, err := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "test-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.New(cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("input", haystack)
	if err != nil {
		t.Fatal(err)
	}
	zero := 0.0
	eng, err := New(Config{Provider: c.Wrap(prov, prov.CacheScope()), Model: "test-model", Store: store, Mode: ModeCode, Temperature: &zero})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "q", h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "ok" {
		t.Fatalf("answer %v", res.Answer)
	}
	if res.Counters.ModelCalls != 4 {
		t.Fatalf("model calls %d, want 4 (two root turns, two distinct sub-calls)", res.Counters.ModelCalls)
	}
	if res.Usage.Calls != 4 || res.Usage.SavedCalls != 29 || res.Usage.SavedTokens != 29*110 || res.Usage.TotalTokens != 4*110 {
		t.Fatalf("usage %+v", res.Usage)
	}
	if d := res.UsageByDepth[1]; d.Calls != 2 || d.SavedCalls != 29 {
		t.Fatalf("depth 1 usage %+v", d)
	}
	hits := 0
	for _, sp := range rec.Events() {
		if sp.Kind == trace.KindModelCall && sp.Attrs["cache"] != nil {
			hits++
			if src := fmt.Sprint(sp.Attrs["cache"]); src != model.CacheMemory && src != model.CacheInFlight {
				t.Fatalf("cache source %q", src)
			}
		}
	}
	if hits != 29 {
		t.Fatalf("%d spans marked as cache hits, want 29", hits)
	}
}
