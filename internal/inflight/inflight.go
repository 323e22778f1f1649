// Package inflight measures what work holds while it waits, for the
// benchmarks of children in flight (engine's rlm_query children,
// subagent's rlm_subagent children; issue 35): a Barrier that holds its
// callers until all have arrived, and the memory in use after a GC,
// averaged per child and reported as benchmark metrics.
package inflight

import (
	"context"
	"runtime"
	"sync"
	"testing"
)

// Barrier holds callers until n have arrived and Release is called.
type Barrier struct {
	n       int
	mu      sync.Mutex
	arrived int
	all     chan struct{} // closed when n have arrived
	open    chan struct{} // closed by Release
}

// NewBarrier returns a barrier for n callers.
func NewBarrier(n int) *Barrier {
	return &Barrier{n: n, all: make(chan struct{}), open: make(chan struct{})}
}

// Arrive counts the caller and blocks until Release (or ctx ends).
func (b *Barrier) Arrive(ctx context.Context) error {
	b.mu.Lock()
	b.arrived++
	if b.arrived == b.n {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait returns once n callers have arrived.
func (b *Barrier) Wait() { <-b.all }

// Release lets every caller go on.
func (b *Barrier) Release() { close(b.open) }

// Usage is memory in use: heap plus goroutine stacks (Bytes), each of
// them, the number of goroutines, and the bytes of the live heap objects
// (Live; Heap less Live is room in the heap's spans that no live object
// uses: fragmentation).
type Usage struct{ Bytes, Heap, Stack, Goroutines, Live int }

// InUse returns the usage after a GC.
func InUse() Usage {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return Usage{Bytes: int(ms.HeapInuse + ms.StackInuse), Heap: int(ms.HeapInuse), Stack: int(ms.StackInuse), Goroutines: runtime.NumGoroutine(), Live: int(ms.HeapAlloc)}
}

// PerChild sums, over a benchmark's iterations, what each of n children
// in flight holds.
type PerChild struct{ sum [5]float64 }

// Add adds one iteration: the usage with the children in flight (now)
// against the usage before they started (base).
func (p *PerChild) Add(now, base Usage, n int) {
	for i, d := range [5]int{now.Bytes - base.Bytes, now.Heap - base.Heap, now.Stack - base.Stack, now.Goroutines - base.Goroutines, now.Live - base.Live} {
		p.sum[i] += float64(d) / float64(n)
	}
}

// Report reports the averages per iteration: B/child, heap-B/child,
// stack-B/child, goroutines/child and live-heap-B/child (the part of
// heap-B/child that live objects use).
func (p *PerChild) Report(b *testing.B) {
	for i, unit := range []string{"B/child", "heap-B/child", "stack-B/child", "goroutines/child", "live-heap-B/child"} {
		b.ReportMetric(p.sum[i]/float64(b.N), unit)
	}
}
