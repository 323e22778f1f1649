package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/internal/golden"
)

// detailed records a turn with a retried model call, a search, a bound
// plan step and a parallel step whose branches start out of index order.
func detailed(t *testing.T) []Event {
	t.Helper()
	rec := NewRecorder(WithClock(fixedClock()))
	ctx := WithRecorder(context.Background(), rec)
	ctx, run := Start(ctx, KindRun, "rlm")
	tctx, turn := Start(ctx, KindTurn, "turn 1")
	_, call := Start(tctx, KindModelCall, "gpt-4o-mini")
	call.Set("attempts", 3)
	call.End(nil)
	sctx, step := Start(tctx, KindPlanStep, "context")
	step.Set("bind", "hits")
	_, op := Start(sctx, KindContextOp, "search")
	op.Set("pattern", `ERROR "disk"`)
	op.Set("items", 7)
	op.Set("truncated", true)
	op.End(nil)
	step.End(nil)
	pctx, par := Start(tctx, KindPlanStep, "parallel")
	par.Set("bind", "both")
	_, b1 := Start(pctx, KindPlanStep, "branch 1")
	b1.Set("branch", 1)
	_, b0 := Start(pctx, KindPlanStep, "branch 0")
	b0.Set("branch", 0)
	b1.End(nil)
	b0.End(nil)
	par.End(nil)
	turn.End(nil)
	run.Set("turns", 1)
	run.End(nil)
	return rec.Events()
}

func TestTreeDetails(t *testing.T) {
	evs := detailed(t)
	var buf bytes.Buffer
	if err := WriteTree(&buf, evs); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "tree_details.golden", buf.Bytes())

	// The same tree from a trace read back from JSON (numbers as float64).
	raw, err := json.Marshal(evs)
	if err != nil {
		t.Fatal(err)
	}
	var back []Event
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if err := WriteTree(&buf2, back); err != nil {
		t.Fatal(err)
	}
	if buf2.String() != buf.String() {
		t.Fatalf("tree from JSON differs:\n%s\nwant:\n%s", buf2.String(), buf.String())
	}
}
