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
	"slices"
	"sort"
	"strings"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

//go:embed cassette.json
var cassetteJSON []byte

//go:embed cassette_code.json
var cassetteCodeJSON []byte

// Query is the question the demo asks.
const Query = "What caused the payments outage, and when did it start?"

// CorpusBytes is the size of the generated log.
const CorpusBytes = 4_000_000

// Models used by the scripted cassette.
const (
	RootModel = "gpt-4o"
	SubModel  = "gpt-4o-mini"
)

// Cassette returns the embedded cassette of plan mode.
func Cassette() (*replay.Cassette, error) { return replay.Parse(cassetteJSON) }

// CassetteFor returns the embedded cassette of a mode (engine.ModePlan or
// engine.ModeCode).
func CassetteFor(mode string) (*replay.Cassette, error) {
	switch mode {
	case "", engine.ModePlan:
		return Cassette()
	case engine.ModeCode:
		return replay.Parse(cassetteCodeJSON)
	}
	return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "the demo has no cassette for this mode").With("mode", mode).WithHint("use plan or code")
}

// Outcome is the result of a demo run.
type Outcome struct {
	Result   *engine.Result
	Metadata corpus.Metadata
	// Limits are the run's limits, defaults filled in.
	Limits   budget.Limits
	Replayed replay.Stats
	// TraceDropped counts the trace events the bounded recorder dropped
	// (Result.Trajectory holds the others).
	TraceDropped int
}

// limits are the demo's budgets: generous for the scripted run, small
// enough to read in the report.
var limits = budget.Limits{MaxIterations: 12, MaxModelCalls: 20, MaxTotalTokens: 100_000, MaxCostUSD: 0.50, MaxConcurrency: 4, MaxDepth: 1}

// Spec is the demo's run in a mode: its models, mode and limits. Its
// provider is the replay server of the embedded cassette (rlm.WithProvider),
// whose responses are not cached: every scripted interaction is served.
func Spec(mode string) rlm.Spec {
	return rlm.Spec{Model: RootModel, SubModel: SubModel, Mode: mode, Limits: limits, Cache: rlm.CacheSpec{Off: true}}
}

// Run executes the demo in plan mode.
func Run(ctx context.Context) (*Outcome, error) { return RunMode(ctx, engine.ModePlan) }

// RunMode executes the demo in a mode: plan (JSON plans) or code (the
// model writes Python in the sandboxed REPL: inspection, a batched fan-out
// from a loop, a recursive child, the answer). It opens Spec(mode) over
// the real HTTP provider talking to an in-process replay server of the
// mode's cassette, and answers Query over the generated log
// (Session.RunOn).
func RunMode(ctx context.Context, mode string) (*Outcome, error) {
	cas, err := CassetteFor(mode)
	if err != nil {
		return nil, err
	}
	srv := replay.NewServer(cas)
	defer srv.Close()
	prov, err := openai.New(openai.Config{Name: "replay", BaseURL: srv.BaseURL(), Model: RootModel})
	if err != nil {
		return nil, err
	}
	sess, err := rlm.Open(ctx, Spec(mode), rlm.WithProvider(prov))
	if err != nil {
		return nil, err
	}
	defer sess.Close()
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
	lim, err := limits.Resolve()
	if err != nil {
		return nil, err
	}
	res, err := sess.RunOn(ctx, rlm.On{Store: store, Context: h, Query: Query, Limits: limits})
	if res == nil {
		return nil, err
	}
	return &Outcome{Result: res.Result, Metadata: meta, Limits: lim, Replayed: srv.Stats(), TraceDropped: res.TraceDropped}, err
}

// Report writes the human-readable walkthrough of an outcome: what each
// root turn did, the budget accounting, the answer, and then the whole
// trajectory tree.
func Report(w io.Writer, o *Outcome) {
	r := o.Result
	fmt.Fprintf(w, "rlm demo: %q\n", Query)
	fmt.Fprintf(w, "context: generated server log, %d bytes, %d lines (the model sees metadata only)\n", o.Metadata.Bytes, o.Metadata.Lines)
	fmt.Fprintf(w, "models: root %s, sub-calls %s, answered by the real HTTP provider from an embedded cassette (%d requests replayed)\n\n", RootModel, SubModel, o.Replayed.Served)

	fmt.Fprintln(w, "walkthrough:")
	for _, line := range walkthrough(r.Trajectory) {
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
	} else {
		fmt.Fprintf(w, "answer: %v\n", r.Answer)
	}

	fmt.Fprintln(w, "\ntrajectory:")
	var b strings.Builder
	_ = trace.WriteTree(&b, r.Trajectory)
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// walkthrough summarizes each root turn from the trajectory: the plan steps
// it ran, the sub-model calls under them, and the recursive children.
func walkthrough(events []trace.Event) []string {
	children := map[string][]trace.Event{}
	for _, ev := range events {
		children[ev.Parent] = append(children[ev.Parent], ev)
	}
	var count func(id string, kind trace.Kind) int
	count = func(id string, kind trace.Kind) int {
		n := 0
		for _, c := range children[id] {
			if c.Kind == kind {
				n++
			}
			n += count(c.ID, kind)
		}
		return n
	}
	var out []string
	for _, run := range events {
		if run.Kind != trace.KindRun {
			continue
		}
		for _, turn := range children[run.ID] {
			if turn.Kind != trace.KindTurn {
				continue
			}
			var parts []string
			for _, st := range children[turn.ID] {
				switch {
				case st.Kind == trace.KindPlanStep && st.Name == "context":
					for _, op := range children[st.ID] {
						if op.Kind == trace.KindContextOp {
							parts = append(parts, "inspect the context ("+op.Name+")")
						}
					}
				case st.Kind == trace.KindPlanStep && st.Name == "map":
					parts = append(parts, fmt.Sprintf("map over %d partitions: %d context ops and %d sub-model calls, concurrently",
						len(children[st.ID]), count(st.ID, trace.KindContextOp), count(st.ID, trace.KindModelCall)))
				case st.Kind == trace.KindPlanStep && st.Name == "rlm":
					parts = append(parts, fmt.Sprintf("recurse: a child RLM over one partition (%d turns, %d model calls at depth 1)",
						count(st.ID, trace.KindTurn), count(st.ID, trace.KindModelCall)))
				case st.Kind == trace.KindPlanStep && st.Name == "final":
					parts = append(parts, "final answer")
				case st.Kind == trace.KindPlanStep && st.Name == "cell":
					parts = append(parts, cellParts(st, children, count)...)
				}
			}
			if len(parts) == 0 {
				parts = append(parts, "answer")
			}
			out = append(out, fmt.Sprintf("%s: %s", turn.Name, strings.Join(parts, "; ")))
		}
	}
	return out
}

// cellParts summarizes one code-mode cell: its context operations, batched
// fan-outs, recursive children and whether it finished the run.
func cellParts(cell trace.Event, children map[string][]trace.Event, count func(string, trace.Kind) int) []string {
	var parts, ops []string
	for _, c := range children[cell.ID] {
		switch {
		case c.Kind == trace.KindContextOp:
			if !slices.Contains(ops, c.Name) {
				ops = append(ops, c.Name)
			}
		case c.Kind == trace.KindPlanStep && c.Name == "llm_query_batched":
			parts = append(parts, fmt.Sprintf("llm_query_batched from a loop: %d sub-model calls, concurrently", count(c.ID, trace.KindModelCall)))
		case c.Kind == trace.KindChild:
			parts = append(parts, fmt.Sprintf("recurse: rlm_query runs a child RLM over one partition (%d turns, %d model calls at depth 1)",
				count(c.ID, trace.KindTurn), count(c.ID, trace.KindModelCall)))
		}
	}
	if len(ops) > 0 {
		parts = append([]string{"code inspects the context (" + strings.Join(ops, ", ") + ")"}, parts...)
	}
	if cell.Attrs["final"] == true {
		parts = append(parts, "FINAL answer from code")
	}
	if len(parts) == 0 {
		parts = append(parts, "code cell")
	}
	return parts
}
