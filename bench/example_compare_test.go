package bench_test

import (
	"fmt"

	"github.com/rlm-go/rlm/bench"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/budget"
)

// Set a run's trials beside the RLM paper's Table 1: the OOLONG trials at
// 131,072 tokens of trec_coarse are compared with the paper's RLM(GPT-5)
// figure; the cost quartiles show the heavy tail the mean hides.
func ExampleCompare() {
	rep := &bench.Report{SchemaVersion: 1, Suite: suite.Oolong, Model: "gpt-5", SubModel: "gpt-5-mini"}
	for i, cost := range []float64{0.10, 0.12, 0.15, 0.20, 3.00} {
		rep.Trials = append(rep.Trials, bench.Trial{Method: bench.MethodRLM, Status: bench.StatusOK, Score: float64(i%2+1) / 2,
			Subset: "synth/trec_coarse/131072", Usage: budget.Usage{CostUSD: cost, CostKnown: true, Calls: 4}})
	}
	c := bench.Compare([]*bench.Report{rep}, bench.PublishedTable())
	r := c.Rows[0]
	fmt.Println(r.Benchmark, "|", r.Setting, "|", r.Method)
	fmt.Printf("score %.1f, published %.1f (%s), diff %+.1f\n", *r.Score, r.Published.Score, r.Published.Model, *r.Diff)
	fmt.Printf("cost mean $%.3f, p50 $%.2f, p95 $%.2f; published $%.2f ± %.2f\n", r.CostUSD.Mean, r.CostUSD.P50, r.CostUSD.P95, *r.Published.CostMean, *r.Published.CostSD)
	// Output:
	// oolong | trec_coarse, 131K tokens | rlm
	// score 70.0, published 56.5 (GPT-5), diff +13.5
	// cost mean $0.714, p50 $0.15, p95 $2.44; published $0.43 ± 0.85
}
