// Package heapfloor keeps the garbage collector of a short-lived process
// from collecting while the heap is small. After every collection it sets
// the GC percentage (GOGC) so that the next collection's goal is the heap
// the collector scans (live heap, stacks and globals) plus a floor, and
// never less than GOGC=100 would give: a process whose live heap stays
// under the floor is collected once per floor's worth of allocation
// instead of once per live heap's worth, and one whose live heap is larger
// than the floor is collected as with GOGC=100. The Go compiler sizes its
// starting heap the same way (cmd/compile/internal/base's
// AdjustStartingHeap), for the same reason: a small heap collected every
// few megabytes spends much of a short process's CPU in the collector.
//
// The cost is memory: the heap may grow to the scanned heap plus the
// floor before a collection, where GOGC=100 lets it grow to twice the
// scanned heap.
package heapfloor

import (
	"math/bits"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Launcher is the floor cmd/launcher's Main keeps for an rlm process:
// how much it lets the heap grow past what the collector last found live
// before it collects again, where GOGC=100 would let it grow by the live
// heap only (docs/cli.md, "Memory and the garbage collector"). A run's
// live heap is a few megabytes, collected every few megabytes of garbage
// with GOGC=100; 8 MiB measured best of 0, 8, 16 and 32 (issue 35): a
// larger floor touches more fresh pages. Benchmarks that measure what an
// rlm run gets keep it too.
const Launcher = 8 << 20

// maxPercent bounds the percentage Percent returns, so that a tiny scanned
// heap (a process's first moments) cannot ask for an absurd one.
const maxPercent = 1 << 20

// firstHeap is the heap the runtime collects at first, before any
// collection has measured one (the runtime's minimum heap at GOGC=100).
const firstHeap = 4 << 20

// Percent is the GC percentage whose next goal is scanned+floor bytes
// (floor*100/scanned), at least 100 and at most 1<<20. A scanned heap of
// 0 is taken as the runtime's first heap, 4 MiB.
func Percent(scanned, floor uint64) int {
	if scanned == 0 {
		scanned = firstHeap
	}
	hi, lo := bits.Mul64(floor, 100)
	if hi >= scanned { // the quotient would not fit in 64 bits
		return maxPercent
	}
	p, _ := bits.Div64(hi, lo, scanned)
	return int(min(max(p, 100), maxPercent))
}

// keeper is the state of Keep: the floor, whether it was stopped, and how
// many times it set the percentage (for tests).
type keeper struct {
	floor   uint64
	mu      sync.Mutex
	stopped bool
	set     int
	samples []metrics.Sample
}

// sentinel is the object whose cleanup runs once a collection found it
// unreachable; it holds a pointer so that the runtime's tiny allocator
// never batches it with other objects.
type sentinel struct {
	_ *byte
	_ [8]byte
}

// Keep keeps the floor for the process: it sets the percentage now, for
// the first collection, and again after every collection (a cleanup of an
// unreachable sentinel, renewed each time), until stop is called, which
// restores the percentage Keep found. Keep is meant for a process's main
// function; the percentage is process-wide, so two Keeps at once would
// fight over it.
func Keep(floor uint64) (stop func()) {
	stop, _ = keep(floor)
	return stop
}

// keep is Keep, also returning its state.
func keep(floor uint64) (func(), *keeper) {
	k := &keeper{floor: floor, samples: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/scan/stack:bytes"},
		{Name: "/gc/scan/globals:bytes"},
	}}
	k.mu.Lock()
	before := debug.SetGCPercent(k.percent())
	k.set++
	k.mu.Unlock()
	k.arm()
	return func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		if !k.stopped {
			k.stopped = true
			debug.SetGCPercent(before)
		}
	}, k
}

// percent is Percent of the heap the last collection scanned. Before any
// collection the live heap reads 0, which Percent takes as the first heap.
func (k *keeper) percent() int {
	metrics.Read(k.samples)
	live := k.samples[0].Value.Uint64()
	if live == 0 {
		return Percent(0, k.floor)
	}
	var scanned uint64
	for _, s := range k.samples {
		scanned += s.Value.Uint64()
	}
	return Percent(scanned, k.floor)
}

// arm allocates a sentinel and drops it, with a cleanup that runs after
// the collection that finds it unreachable.
func (k *keeper) arm() {
	runtime.AddCleanup(new(sentinel), (*keeper).collected, k)
}

// collected sets the percentage after a collection and arms the next one,
// unless Keep was stopped.
func (k *keeper) collected() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped {
		return
	}
	debug.SetGCPercent(k.percent())
	k.set++
	k.arm()
}
