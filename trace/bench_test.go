package trace_test

import (
	"context"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// BenchmarkRecorder50k records the spans of a run of 10,000 sub-calls
// (50,000 events, as `rlm run` of bench/durable_throughput.sh records)
// from 48 goroutines, a map at --max-concurrency 48.
func BenchmarkRecorder50k(b *testing.B) {
	const events, workers = 50_000, 48
	b.ReportAllocs()
	for b.Loop() {
		rec := trace.NewRecorder()
		ctx := trace.WithRecorder(context.Background(), rec)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < events; i += workers {
					_, sp := trace.Start(ctx, trace.KindModelCall, "gpt-4o-mini")
					sp.Set("attempts", 1)
					sp.End(nil)
				}
			})
		}
		wg.Wait()
		if n := len(rec.Events()); n != events {
			b.Fatalf("%d events, want %d", n, events)
		}
	}
}

// BenchmarkEvents returns the 50,000 events of BenchmarkRecorder50k's
// run, kept out of order (spans nested 2 deep end before their parents):
// what Engine.Run does at the end of a run for its trajectory.
func BenchmarkEvents(b *testing.B) {
	const events, workers = 50_000, 48
	rec := trace.NewRecorder()
	ctx := trace.WithRecorder(context.Background(), rec)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < events/2; i += workers { // two events each
				cctx, parent := trace.Start(ctx, trace.KindPlanStep, "branch")
				_, sp := trace.Start(cctx, trace.KindModelCall, "gpt-4o-mini")
				sp.Set("attempts", 1)
				sp.End(nil)
				parent.End(nil)
			}
		})
	}
	wg.Wait()
	b.ReportAllocs()
	for b.Loop() {
		if n := len(rec.Events()); n != events {
			b.Fatalf("%d events, want %d", n, events)
		}
	}
}

// BenchmarkSubCallSpans records the spans one sub-call of a map records
// (issue 35's fan-out row): a branch and a model step (plan_step), the
// context op that reads the part, and the model call with the attributes
// model.Traced sets; a new recorder every 1,000 sub-calls, as a run of a
// 1,000-part map.
func BenchmarkSubCallSpans(b *testing.B) {
	var ctx context.Context
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%1000 == 0 {
			ctx = trace.WithRecorder(context.Background(), trace.NewRecorder())
		}
		bctx, branch := trace.Start(ctx, trace.KindPlanStep, "branch 7")
		branch.Set("branch", 7)
		sctx, step := trace.Start(bctx, trace.KindPlanStep, "model")
		step.Set("bind", "a")
		step.Set("path", "steps[0].plan.steps[0]")
		_, op := trace.Start(sctx, trace.KindContextOp, "text")
		op.Set("handle", "ctx-9@1")
		op.End(nil)
		_, call := trace.Start(sctx, trace.KindModelCall, "gpt-4o-mini")
		call.Set("messages", 1)
		call.Set("tools", 0)
		call.Set("stream", false)
		call.Set("max_tokens", 4096)
		call.SetTokens(10, 2, 12)
		call.SetCost(0.0000027, false)
		call.Set("model", "gpt-4o-mini")
		call.Set("provider", "openai-compatible")
		call.Set("response_id", "chatcmpl-1")
		call.Set("server_address", "127.0.0.1")
		call.Set("server_port", 35251)
		call.Set("http_status", 200)
		call.Set("attempts", 1)
		call.Set("finish_reason", "stop")
		call.Set("tool_calls", 0)
		call.SetBytes(24)
		call.End(nil)
		step.End(nil)
		branch.End(nil)
	}
}
