//go:build linux

package prompt

import (
	"syscall"
	"time"
	"unsafe"
)

// processCPU returns the CPU time the process has used (all threads, so
// including the garbage collector's work), from
// clock_gettime(CLOCK_PROCESS_CPUTIME_ID), which is precise to the
// nanosecond where getrusage advances by scheduler ticks.
func processCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
