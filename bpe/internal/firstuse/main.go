//go:build linux

// Command firstuse prints how long the first exact count of a short text
// takes in a fresh process, for an encoding (cl100k_base or o200k_base,
// the first argument) and an implementation (the second: "rlm", package
// bpe, or "tiktoken-go", github.com/tiktoken-go/tokenizer as rlm used it
// before): the encoding's tables are built on first use. A third argument
// names a file whose text is counted instead of "hello world" (e.g. a
// recorded system prompt); the second count of the same text follows, for
// the warm figure. Run it several times, alternating, e.g.:
//
//	go build -o /tmp/firstuse ./bpe/internal/firstuse
//	for i in $(seq 11); do for impl in rlm tiktoken-go; do /tmp/firstuse o200k_base $impl; done; done
package main

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"github.com/tiktoken-go/tokenizer"

	_ "github.com/rlm-go/rlm/bpe"
	"github.com/rlm-go/rlm/internal/tokens"
)

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: firstuse cl100k_base|o200k_base rlm|tiktoken-go [FILE]")
		os.Exit(2)
	}
	enc, impl := os.Args[1], os.Args[2]
	text := "hello world"
	if len(os.Args) == 4 {
		b, err := os.ReadFile(os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		text = string(b)
	}
	var count func(string) int
	switch impl {
	case "rlm":
		count = tokens.ForModel(enc).Count
	case "tiktoken-go":
		c, err := tokenizer.Get(tokenizer.Encoding(enc))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		count = func(s string) int { n, _ := c.Count(s); return n }
	default:
		fmt.Fprintln(os.Stderr, "unknown implementation", impl)
		os.Exit(2)
	}
	runtime.LockOSThread()
	start, cpu := time.Now(), threadCPU()
	n := count(text)
	first, firstCPU := time.Since(start), threadCPU()-cpu
	start, cpu = time.Now(), threadCPU()
	count(text)
	second, secondCPU := time.Since(start), threadCPU()-cpu
	fmt.Printf("%s %s: first count %v (CPU %v, %d tokens), second %v (CPU %v)\n", enc, impl,
		first.Round(10*time.Microsecond), firstCPU.Round(10*time.Microsecond), n,
		second.Round(10*time.Microsecond), secondCPU.Round(10*time.Microsecond))
}

// threadCPU returns the CPU time of the calling thread, the figure that a
// loaded machine does not inflate by descheduling the process.
// (Linux: clock_gettime of CLOCK_THREAD_CPUTIME_ID, 3.)
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
