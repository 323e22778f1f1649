package engine

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
)

// inProcess is a provider without HTTP: it answers root turns with script
// and every sub-call with a fixed text.
func inProcess(script func(turn int64) string) model.Provider {
	var turns atomic.Int64
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		text := "sub-answer"
		if req.Messages[0].Role == model.RoleSystem {
			text = script(turns.Add(1))
		}
		return &model.Response{Text: text, Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}}, nil
	})
}

func benchEngine(b *testing.B, text string, script func(turn int64) string) (*Engine, corpus.Handle) {
	b.Helper()
	store := corpus.NewStore()
	b.Cleanup(func() { store.Close() })
	h, err := store.AddString("bench", text)
	if err != nil {
		b.Fatal(err)
	}
	eng, err := New(Config{Provider: inProcess(script), Model: "m", Store: store, Limits: budget.Limits{MaxIterations: -1, MaxModelCalls: -1, MaxContextOps: -1, MaxTotalTokens: -1, MaxCostUSD: -1, MaxConcurrency: 8}})
	if err != nil {
		b.Fatal(err)
	}
	return eng, h
}

// BenchmarkTurn measures the engine's own work per turn (prompt building,
// parsing, validation, execution of one search, observation, tracing) with
// an in-process provider. One op is a two-turn run.
func BenchmarkTurn(b *testing.B) {
	text := strings.Repeat("routine line of a log file\n", 2000) + "the needle is here\n"
	eng, h := benchEngine(b, text, func(turn int64) string {
		if turn%2 == 1 {
			return `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits"}]}`
		}
		return `{"steps":[{"op":"final","value":{"ref":"field","value":{"ref":"index","value":{"ref":"var","name":"hits"},"index":0},"key":"value"}}]}`
	})
	b.ReportAllocs()
	for b.Loop() {
		res, err := eng.Run(context.Background(), "find the needle", h)
		if err != nil || res.Answer != "the needle is here" {
			b.Fatalf("%v %v", err, res.Answer)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/2/1000, "µs/turn")
}

// BenchmarkFanOut1000 runs one map over 1,000 partitions with a sub-model
// call each.
func BenchmarkFanOut1000(b *testing.B) {
	var sb strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&sb, "record %d\n", i)
	}
	plan := `{"steps":[
	  {"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"partition","strategy":"lines","size":1},"bind":"parts"},
	  {"op":"map","over":{"ref":"var","name":"parts"},"as":"p","concurrency":64,"bind":"out","plan":{"steps":[
	    {"op":"model","prompt":{"join":["classify ",{"text":{"ref":"field","value":{"ref":"var","name":"p"},"key":"handle"}}]},"bind":"a"},
	    {"op":"final","value":{"ref":"var","name":"a"}}]}},
	  {"op":"final","value":{"ref":"var","name":"out"}}]}`
	eng, h := benchEngine(b, sb.String(), func(int64) string { return plan })
	b.ReportAllocs()
	for b.Loop() {
		res, err := eng.Run(context.Background(), "classify", h)
		if err != nil || len(res.Answer.([]any)) != 1000 {
			b.Fatalf("%v", err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000/1000, "µs/sub-call")
}
