package console_test

import (
	"fmt"
	"os"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// ErrorText prints an error's chain, its detail and its hint, as the rlm
// command prints a failure on stderr.
func ExampleErrorText() {
	err := fault.New(fault.PhaseBudget, budget.KindMaxCost, "the run would exceed its cost limit").
		With("limit_usd", 0.5).WithHint("raise --max-cost")
	fmt.Println(console.ErrorText(err))
	// Output:
	// rlm: budget/max_cost_exceeded: the run would exceed its cost limit (limit_usd=0.5)
	// hint: raise --max-cost
}

// A Verbose printer is a live trace observer: with Level 1 it prints the
// root loop's turns, the reply and what became of it, as rlm run -v does.
// A turn span carries them as live attributes.
func ExampleVerbose() {
	v := console.NewVerbose(os.Stdout, console.VerboseOptions{Level: 1})
	v.Observe(trace.Event{Kind: trace.KindTurn, Live: map[string]any{
		trace.AttrTurn: 1, trace.AttrModel: "gpt-4o-mini",
		trace.AttrReply: `{"type":"final","answer":"auth"}`, trace.AttrOutcome: engine.OutcomeAnswer}})
	// Output:
	// ── turn 1 · depth 0 · gpt-4o-mini
	//    reply:
	//    │ {"type":"final","answer":"auth"}
	//    final answer
}

// A Status counts a command's model calls for its final usage line.
func ExampleStatus_Summary() {
	st := console.NewStatus(os.Stdout, false)
	fmt.Println(st.Summary("completed", 2, &budget.Usage{Calls: 2, TotalTokens: 1200, CostUSD: 0.0031, CostKnown: true}))
	// Output:
	// rlm: completed · turns 2 · model calls 2 · tokens 1200 · cost $0.0031
}
