package repl

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"time"

	"go.starlark.net/starlark"
)

// The memory bound has two layers, because Starlark has no allocation hooks:
//
//  1. Exact checks before allocation in every builtin that can amplify a
//     value in one step: the * operator (the AST rewrite routes it through
//     _rlm_mul), str.join/str.replace (also rewritten), list/tuple/sorted/
//     enumerate/zip/... of a sized iterable, json.dumps, format specs, re.sub.
//     These refuse before the process allocates.
//  2. A watchdog that samples the Go heap (runtime/metrics) while a cell runs
//     and cancels the cell with MemoryError when the heap has grown more than
//     MaxValueBytes over its size at the cell's start, confirmed after a
//     forced GC so garbage does not count (growth past 4 × MaxValueBytes
//     stops it without waiting for that GC). Values that grow step by step
//     (doubling loops, appends) are caught within one sampling period, so a
//     cell can overshoot by what it allocates in that period (at most about
//     the size of one doubling). The sample is process-wide: allocations of
//     other goroutines during the cell count against it.
const sampleEvery = 2 * time.Millisecond

// hardFactor: growth beyond hardFactor*MaxValueBytes stops the cell without
// waiting for the confirming GC.
const hardFactor = 4

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes(s []metrics.Sample) int64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// watch cancels thread when ctx ends, the cell's wall time passes or the heap
// grows past the cell's memory bound; it returns when done is closed.
func watch(ctx context.Context, thread *starlark.Thread, c *cell, timeout time.Duration, done <-chan struct{}) {
	s := []metrics.Sample{{Name: heapMetric}}
	base := heapBytes(s)
	limit := c.maxVal
	nextCheck := base + limit
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	var gcDone chan struct{}
	defer func() {
		if gcDone != nil {
			<-gcDone // no goroutine outlives the cell
		}
	}()
	stop := func(r *stopReason, why string) {
		c.stop.CompareAndSwap(nil, r)
		thread.Cancel(why)
		c.cancel()
	}
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			stop(&stopReason{kind: "ctx", err: ctx.Err()}, "context done")
			return
		case <-timer.C:
			stop(&stopReason{kind: "timeout"}, "cell wall time exceeded")
			return
		case <-gcDone:
			// Under the bound once garbage is gone? Look again only after more growth.
			gcDone = nil
			h := heapBytes(s)
			if h > base+limit {
				stop(&stopReason{kind: "memory", err: fmt.Errorf("the cell grew the heap by about %d bytes, over its limit of %d bytes", h-base, limit)}, "memory limit exceeded")
				return
			}
			nextCheck = max(h+limit/4, base+limit)
		case <-tick.C:
			h := heapBytes(s)
			if h > base+hardFactor*limit {
				// Too far over to be garbage of one GC cycle: stop without waiting for the GC.
				stop(&stopReason{kind: "memory", err: fmt.Errorf("the cell grew the heap by about %d bytes, over its limit of %d bytes", h-base, limit)}, "memory limit exceeded")
				return
			}
			if h <= nextCheck || gcDone != nil {
				continue
			}
			// Garbage does not count: confirm on the live heap after a GC,
			// which runs beside the watchdog so sampling goes on meanwhile.
			ch := make(chan struct{})
			gcDone = ch
			go func() {
				runtime.GC()
				close(ch)
			}()
		}
	}
}
