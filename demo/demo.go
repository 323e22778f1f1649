// Package demo is the credential-free walkthrough behind `rlm demo`: the
// real engine, talking through the real OpenAI-compatible HTTP provider to
// an in-process replay server that serves an embedded cassette, over a
// generated server log with one hidden incident.
package demo

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

//go:embed cassette.json
var cassetteJSON []byte

// Query is the question the demo asks.
const Query = "What caused the payments outage, and when did it start?"

// CorpusBytes is the size of the generated log.
const CorpusBytes = 4_000_000

// Models used by the scripted cassette.
const (
	RootModel = "gpt-4o"
	SubModel  = "gpt-4o-mini"
)

// Cassette returns the embedded cassette.
func Cassette() (*replay.Cassette, error) { return replay.Parse(cassetteJSON) }

// Outcome is the result of a demo run.
type Outcome struct {
	Result   *engine.Result
	Metadata corpus.Metadata
	Limits   budget.Limits
	Replayed replay.Stats
}

// Run executes the demo. Events are recorded on the trace recorder carried
// by ctx when there is one.
func Run(ctx context.Context) (*Outcome, error) {
	cas, err := Cassette()
	if err != nil {
		return nil, err
	}
	srv := replay.NewServer(cas)
	defer srv.Close()
	prov, err := openai.New(openai.Config{Name: "replay", BaseURL: srv.BaseURL(), Model: RootModel})
	if err != nil {
		return nil, err
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("server.log", Corpus(CorpusBytes))
	if err != nil {
		return nil, err
	}
	meta, err := store.Metadata(ctx, h)
	if err != nil {
		return nil, err
	}
	eng, err := engine.New(engine.Config{
		Provider: prov, Model: RootModel, SubModel: SubModel, Store: store,
		Limits: budget.Limits{MaxIterations: 12, MaxModelCalls: 20, MaxTotalTokens: 100_000, MaxCostUSD: 0.50, MaxConcurrency: 4, MaxDepth: 1},
	})
	if err != nil {
		return nil, err
	}
	res, err := eng.Run(ctx, Query, h)
	return &Outcome{Result: res, Metadata: meta, Limits: eng.Config().Limits, Replayed: srv.Stats()}, err
}

// Report writes the human-readable walkthrough of an outcome.
func Report(w io.Writer, o *Outcome) {
	r := o.Result
	fmt.Fprintf(w, "rlm demo: %q\n", Query)
	fmt.Fprintf(w, "context: generated server log, %d bytes, %d lines (the model sees metadata only)\n", o.Metadata.Bytes, o.Metadata.Lines)
	fmt.Fprintf(w, "models: root %s, sub-calls %s, answered by the real HTTP provider from an embedded cassette (%d requests replayed)\n\n", RootModel, SubModel, o.Replayed.Served)

	fmt.Fprintln(w, "trajectory:")
	var b strings.Builder
	_ = trace.WriteTree(&b, r.Trajectory)
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}

	c := r.Counters
	l := o.Limits
	fmt.Fprintln(w, "\nbudget:")
	fmt.Fprintf(w, "  turns          %d / %d\n", c.Iterations, l.MaxIterations)
	fmt.Fprintf(w, "  model calls    %d / %d (max %d in flight, limit %d)\n", c.ModelCalls, l.MaxModelCalls, c.MaxInFlight, l.MaxConcurrency)
	fmt.Fprintf(w, "  context ops    %d / %d\n", c.ContextOps, l.MaxContextOps)
	fmt.Fprintf(w, "  tokens         %d / %d (prompt %d, completion %d)\n", r.Usage.TotalTokens, l.MaxTotalTokens, r.Usage.PromptTokens, r.Usage.CompletionTokens)
	est := ""
	if r.Usage.CostEstimated {
		est = " (estimated from the price table)"
	}
	fmt.Fprintf(w, "  cost           $%.5f / $%.2f%s\n", r.Usage.CostUSD, l.MaxCostUSD, est)
	fmt.Fprintf(w, "  recursion      %d child run(s), max depth %d / %d\n", r.Recursion.RecursiveCalls, r.Recursion.MaxDepth, l.MaxDepth)
	depths := make([]int, 0, len(r.UsageByDepth))
	for d := range r.UsageByDepth {
		depths = append(depths, d)
	}
	sort.Ints(depths)
	for _, d := range depths {
		u := r.UsageByDepth[d]
		fmt.Fprintf(w, "    depth %d: %d calls, %d tokens, $%.5f\n", d, u.Calls, u.TotalTokens, u.CostUSD)
	}
	fmt.Fprintf(w, "\nstatus: %s in %.0f ms\n", r.Status, r.ElapsedMS)
	if r.Error != nil {
		fmt.Fprintf(w, "error: %v\n", r.Error)
		return
	}
	fmt.Fprintf(w, "answer: %v\n", r.Answer)
}
