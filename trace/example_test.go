package trace_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rlm-go/rlm/trace"
)

// Record spans under a context: a span started under another becomes its
// child. Attributes that look like secrets are redacted when recorded.
// WriteTree prints the recording; WriteJSON and WriteFile export it.
func ExampleRecorder() {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := trace.NewRecorder(trace.WithClock(func() time.Time {
		clock = clock.Add(250 * time.Millisecond)
		return clock
	}))
	ctx := trace.WithRecorder(context.Background(), rec)

	ctx, run := trace.Start(ctx, trace.KindRun, "which service failed?")
	_, call := trace.Start(ctx, trace.KindModelCall, "gpt-4o-mini")
	call.SetTokens(900, 40, 940)
	call.Set("api_key", "sk-secret")
	call.End(nil)
	_, op := trace.Start(ctx, trace.KindContextOp, "search")
	op.Set("pattern", "ERROR")
	op.End(nil)
	run.End(nil)

	evs := rec.Events()
	fmt.Println(len(evs), evs[1].Parent == evs[0].ID, evs[1].Attrs["api_key"])
	_ = trace.WriteTree(os.Stdout, evs)
	// Output:
	// 3 true [redacted]
	// ✓ run which service failed? [d0 1.25s]
	//   ✓ model_call gpt-4o-mini [d0 250.0ms] tokens=940(900+40)
	//   ✓ context_op search [d0 250.0ms] pattern="ERROR"
}
