package repl

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// While cells run, the Go runtime's soft memory limit (debug.SetMemoryLimit)
// is lowered to what the process used when the first of them started plus
// twice the value bound of each running cell, so that the garbage collector
// returns freed memory and collects often enough to keep the process near
// its live heap: the watchdog (watch.go) bounds the live heap, the limit
// bounds the garbage a cell leaves around it. A limit the host set lower
// is kept; the host's limit is restored when the last cell ends. The limit
// is soft: a cell that really holds more is stopped by the watchdog, not by
// the runtime.
var cellMem memLimiter

type memLimiter struct {
	sync.Mutex
	cells int
	saved int64 // the limit before the first cell
	base  int64 // the process's memory when the first cell started
	extra int64 // the sum of 2 × MaxValueBytes of the running cells
}

const totalMetric = "/memory/classes/total:bytes"

// limitMemory applies the limit for one more cell with value bound
// maxValue and returns the function that ends it.
func limitMemory(maxValue int64) (release func()) {
	if maxValue <= 0 {
		return func() {}
	}
	m := &cellMem
	m.Lock()
	defer m.Unlock()
	if m.cells == 0 {
		m.saved = debug.SetMemoryLimit(-1)
		s := []metrics.Sample{{Name: totalMetric}}
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 {
			m.base = int64(min(s[0].Value.Uint64(), math.MaxInt64/4))
		}
	}
	m.cells++
	m.extra += 2 * maxValue
	m.apply()
	var once sync.Once
	return func() {
		once.Do(func() {
			m.Lock()
			defer m.Unlock()
			m.cells--
			m.extra -= 2 * maxValue
			if m.cells == 0 {
				debug.SetMemoryLimit(m.saved)
				return
			}
			m.apply()
		})
	}
}

// apply sets the runtime's limit; m is locked.
func (m *memLimiter) apply() {
	limit := m.base + m.extra
	if m.saved < limit {
		limit = m.saved
	}
	debug.SetMemoryLimit(limit)
}
