package engine

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
)

// BenchmarkCodeBatched1000 measures the engine's overhead of one
// llm_query_batched over 1,000 prompts with an in-process provider (no
// HTTP): admission, the worker pool, charging, tracing and the conversion
// of results. One op is a one-turn code-mode run (target < 50 ms).
func BenchmarkCodeBatched1000(b *testing.B) {
	code := py(`out = llm_query_batched(["classify record %d" % i for i in range(1000)])`, `FINAL(len(out))`)
	store := corpus.NewStore()
	b.Cleanup(func() { store.Close() })
	h, err := store.AddString("bench", "a small context\n")
	if err != nil {
		b.Fatal(err)
	}
	eng, err := New(Config{Provider: inProcess(func(int64) string { return code }), Model: "m", Store: store, Mode: ModeCode,
		Limits: budget.Limits{MaxIterations: -1, MaxModelCalls: -1, MaxContextOps: -1, MaxTotalTokens: -1, MaxCostUSD: -1, MaxConcurrency: 8}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := eng.Run(context.Background(), "classify", h)
		if err != nil || res.Answer != int64(1000) {
			b.Fatalf("%v %v", err, res.Answer)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/batch")
}

// BenchmarkCodeTrivialCell measures a one-turn code-mode run whose cell
// only finishes: prompt building, fence extraction, one cell, tracing.
func BenchmarkCodeTrivialCell(b *testing.B) {
	store := corpus.NewStore()
	b.Cleanup(func() { store.Close() })
	h, err := store.AddString("bench", "a small context\n")
	if err != nil {
		b.Fatal(err)
	}
	eng, err := New(Config{Provider: inProcess(func(int64) string { return py(`FINAL(1)`) }), Model: "m", Store: store, Mode: ModeCode,
		Limits: budget.Limits{MaxIterations: -1, MaxModelCalls: -1, MaxTotalTokens: -1, MaxCostUSD: -1}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := eng.Run(context.Background(), "q", h); err != nil {
			b.Fatal(err)
		}
	}
}
