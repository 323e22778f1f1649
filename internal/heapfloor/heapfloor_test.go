package heapfloor

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		scanned, floor uint64
		want           int
	}{
		{0, 32 * mib, 800},         // before any collection: 4 MiB, goal 32 MiB
		{2 * mib, 32 * mib, 1600},  // goal 2+32 MiB
		{3 * mib, 32 * mib, 1066},  // rounded down
		{32 * mib, 32 * mib, 100},  // the floor is the live heap: GOGC=100
		{100 * mib, 32 * mib, 100}, // above the floor: never under 100
		{1, 1 << 40, maxPercent},   // bounded
		{1, 0, 100},                // no floor
		{mib, 1 << 62, maxPercent}, // no overflow
		{1 << 50, 1 << 62, 409600}, // large values, exact
	} {
		if got := Percent(tc.scanned, tc.floor); got != tc.want {
			t.Errorf("Percent(%d, %d) = %d, want %d", tc.scanned, tc.floor, got, tc.want)
		}
	}
}

// gogc reads the GC percentage in force.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// sets reads how many times k set the percentage.
func (k *keeper) sets() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.set
}

// waitSets collects until k has set the percentage at least n times (a
// cleanup runs on the runtime's cleanup goroutine, some time after the
// collection); it fails the test after a minute.
func waitSets(t *testing.T, k *keeper, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); k.sets() < n; {
		if time.Now().After(deadline) {
			t.Fatalf("set the percentage %d times, want %d", k.sets(), n)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func TestKeep(t *testing.T) {
	before := gogc()
	const floor = 256 << 20 // far above this test binary's heap
	stop, k := keep(floor)
	if got := gogc(); got <= 100 {
		t.Fatalf("GOGC after Keep = %d, want more than 100", got)
	}
	waitSets(t, k, 3) // renewed after each collection
	if got := gogc(); got <= 1000 {
		t.Errorf("GOGC after collections with a small heap = %d, want more than 1000", got)
	}

	// A live heap larger than the floor: GOGC=100.
	stop()
	stop, k = keep(1 << 20)
	live := make([][]*int, 64)
	for i := range live {
		live[i] = make([]*int, 1<<15) // 256 KiB each, 16 MiB in all, scanned
	}
	waitSets(t, k, 3)
	if got := gogc(); got != 100 {
		t.Errorf("GOGC with 16 MiB live and a 1 MiB floor = %d, want 100", got)
	}
	runtime.KeepAlive(live)

	stop()
	stop() // a second stop does nothing
	if got := gogc(); got != before {
		t.Errorf("GOGC after stop = %d, want %d as before Keep", got, before)
	}
	n := k.sets()
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if k.sets() != n {
		t.Errorf("set the percentage after stop")
	}
}
