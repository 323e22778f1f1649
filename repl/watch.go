package repl

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// The memory bound has two layers:
//
//  1. Exact checks before allocation: every operation that builds a value
//     (str, bytes, list, dict, set, formatting, joins, repeats, big-int
//     arithmetic, re and json results) refuses, with MemoryError, a value
//     larger than MaxValueBytes before it allocates.
//  2. A watchdog that samples the Go heap (runtime/metrics) every 2 ms
//     while a cell runs and stops the cell with MemoryError when the heap
//     has grown more than MaxValueBytes over its size at the cell's start,
//     confirmed after a forced GC so garbage does not count. The cell is
//     paused (python.Thread.Pause) while that GC runs, so it cannot
//     allocate meanwhile; growth past 2 × MaxValueBytes stops it without
//     waiting for the GC.
const sampleEvery = 2 * time.Millisecond

const hardFactor = 2

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes(s []metrics.Sample) int64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// watch stops the thread when ctx ends, the cell's wall time passes or the
// heap grows past the cell's memory bound; it returns when done is closed.
// cancel cancels the cell's context, so that a builtin blocked in a
// sub-call returns at once.
func watch(ctx context.Context, t *python.Thread, cfg Config, done <-chan struct{}, cancel context.CancelFunc) {
	s := []metrics.Sample{{Name: heapMetric}}
	base := heapBytes(s)
	limit := cfg.MaxValueBytes
	nextCheck := base + limit
	timer := time.NewTimer(cfg.CellTimeout)
	defer timer.Stop()
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	var gcDone chan struct{}
	resume := func() {}
	defer func() {
		resume()
		if gcDone != nil {
			<-gcDone // no goroutine outlives the cell
		}
	}()
	stop := func(e *python.StopError) {
		t.Stop(e)
		cancel()
	}
	memErr := func(h int64) *python.StopError {
		return &python.StopError{Kind: "memory", Msg: fmt.Sprintf("the cell grew the heap by about %d bytes, over its limit of %d bytes", h-base, limit)}
	}
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			stop(&python.StopError{Kind: "cancelled", Err: context.Cause(ctx)})
			return
		case <-timer.C:
			stop(&python.StopError{Kind: "timeout"})
			return
		case <-gcDone:
			gcDone = nil
			h := heapBytes(s)
			if h > base+limit {
				stop(memErr(h))
				return
			}
			resume()
			nextCheck = max(h+limit/4, base+limit)
		case <-tick.C:
			h := heapBytes(s)
			if h > base+hardFactor*limit {
				stop(memErr(h))
				return
			}
			if h <= nextCheck || gcDone != nil {
				continue
			}
			ch := make(chan struct{})
			gcDone = ch
			resume = t.Pause()
			go func() {
				runtime.GC()
				close(ch)
			}()
		}
	}
}
