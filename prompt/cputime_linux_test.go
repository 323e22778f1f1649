//go:build linux

package prompt

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time (user + system) of the calling OS
// thread; callers lock their goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
