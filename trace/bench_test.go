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
