// Command turnwarm runs an rlm command in a process that has already run
// it: what a Go program embedding rlm gets from its second run on, where
// the rlm command line gets its first. bench/token_turns.sh uses it with
// WARM=1 to tell apart what a run costs and what a fresh process costs
// (start-up, code and heap touched for the first time, connections dialled
// for the first time).
//
//	turnwarm [-warmup N] RLM-ARGS...
//
// It runs the command (package launcher's Run, the rlm command line's own
// code, keeping the heap floor the command line keeps) N times (default 1)
// with their output discarded, then once more with its standard error
// passed on, and prints that last run's wall time and the CPU time (user
// and system, getrusage of the whole process, every thread) it took, in
// seconds: "wall user sys", as bench/token_turns.sh reads a fresh
// process's. The exit status is the last run's.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/rlm-go/rlm/cmd/launcher"
	"github.com/rlm-go/rlm/internal/heapfloor"
)

func main() {
	warmup := flag.Int("warmup", 1, "runs before the measured one")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: turnwarm [-warmup N] RLM-ARGS...")
		os.Exit(2)
	}
	defer heapfloor.Keep(heapfloor.Launcher)()
	args := flag.Args()
	ctx := context.Background()
	for range *warmup {
		if code := launcher.Run(ctx, launcher.Config{}, args, os.Stdin, io.Discard, io.Discard); code != 0 {
			fmt.Fprintf(os.Stderr, "turnwarm: a warm-up run exited with status %d\n", code)
			os.Exit(code)
		}
	}
	user0, sys0 := cpu()
	start := time.Now()
	code := launcher.Run(ctx, launcher.Config{}, args, os.Stdin, io.Discard, os.Stderr)
	wall := time.Since(start)
	user1, sys1 := cpu()
	fmt.Printf("%.6f %.6f %.6f\n", wall.Seconds(), (user1 - user0).Seconds(), (sys1 - sys0).Seconds())
	os.Exit(code)
}

// cpu returns the process's user and system CPU time so far.
func cpu() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fmt.Fprintln(os.Stderr, "turnwarm:", err)
		os.Exit(1)
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
