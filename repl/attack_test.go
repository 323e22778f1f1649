package repl

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// One call, long work: each cell makes one Python call whose work would
// run for seconds to hours. Under a 1 s cell limit every one ends with a
// Python exception (the time limit, the step limit, whichever a faster or
// slower machine reaches first, the memory bound, or a refusal stating
// its bound) within 2 s: the bound holds inside the builtin. The figures
// (go test -v -run TestOneCallLongWork ./repl) are in docs/code.md.
var longWork = []struct{ name, src string }{
	{"comb", "import math\nmath.comb(10**6, 5*10**5)"},
	{"comb_huge", "import math\nmath.comb(16*10**6, 8*10**6)"},
	{"factorial", "import math\nmath.factorial(10**7)"},
	{"square_chain", "x = 3**(2**23)\nx = x*x\nx = x*x\nx = x*x"},
	{"pow", "pow(3, 10**8)"},
	{"int_to_str", "str(7**100000)"},
	{"big_division", "x = 7**(10**7)\nx // 3**(3*10**6)"},
	{"gcd", "import math\nmath.gcd(3**(10**6)+1, 2**1500000+1)"},
	{"powmod_big_modulus", "pow(3, 10**9, 2**(2**21)+1)"},
	{"isqrt", "import math\nmath.isqrt(7**(10**6))"},
	{"fraction", "from fractions import Fraction\nFraction(3**(10**5), 7**(10**5)) + 1"},
	{"regex_backtracking", "import re\nre.match(r'(a+)+$', 'a'*40 + 'b')"},
	{"json_dumps", "import json\njson.dumps([list(range(10**6))]*50)"},
	{"sum_range", "sum(range(10**12))"},
	{"sorted_key", "sorted(range(10**7), key=lambda v: -v)"},
	{"list_of_permutations", "import itertools\nlist(itertools.permutations(range(12)))"},
	{"str_join", "''.join(str(i) for i in range(10**8))"},
	{"in_range_iterator", "-1 in iter(range(10**12))"},
	{"in_range_float", "-1.5 in range(10**12)"},
}

func TestOneCallLongWork(t *testing.T) {
	limit := 2 * time.Second
	if raceEnabled {
		limit *= 4
	}
	for _, c := range longWork {
		t.Run(c.name, func(t *testing.T) {
			it, err := New(Config{CellTimeout: time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			start := time.Now()
			out, err := it.Exec(context.Background(), c.src)
			took := time.Since(start)
			if err != nil {
				t.Fatalf("Exec: %v", err)
			}
			if out.Exception == nil {
				t.Fatalf("the cell finished (stdout %q); want it stopped", out.Stdout)
			}
			switch out.Exception.Type {
			case "TimeoutError", "StepLimitExceeded", "MemoryError", "NotImplementedError", "ValueError":
			default:
				t.Fatalf("exception %s: %s", out.Exception.Type, out.Exception.Message)
			}
			t.Logf("%s after %v: %.100s", out.Exception.Type, took.Round(time.Millisecond), out.Exception.Message)
			if took > limit {
				t.Errorf("the cell took %v, over %v", took, limit)
			}
		})
	}
}

// Memory bombs: cells that grow a value until something stops them. The
// process's peak resident memory grows by at most twice the value bound
// over what it was before the cell (plus a few MiB of slack), and the cell
// ends with MemoryError or TimeoutError. (Linux: the peak is VmHWM, reset
// through /proc/self/clear_refs. Not checked under the race detector,
// whose shadow memory is resident too.) Figures: go test -v -run TestMemoryBombs
// ./repl.
var memoryBombs = []struct{ name, src string }{
	{"str_doubling", "s = 'x'\nwhile True: s = s + s"},
	{"list_doubling", "l = [0]\nwhile True: l = l + l"},
	{"list_append", "l = []\nwhile True: l.append([1, 2, 3])"},
	{"dict_growth", "d = {}\ni = 0\nwhile True:\n    d[i] = str(i)\n    i += 1"},
	{"list_of_tuples", "import itertools\nl = list(itertools.permutations(range(12)))"},
	{"comprehension", "l = [str(i) * 10 for i in range(10**8)]"},
	{"bytearray_append", "b = bytearray()\nwhile True: b += b'x' * 100000"},
	{"nested_lists", "x = [[]]\nwhile True: x = [x, x, [0] * 10]"},
}

func TestMemoryBombs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory is resident too")
	}
	for _, c := range memoryBombs {
		t.Run(c.name, func(t *testing.T) {
			// A process of its own, so that memory an earlier test left
			// resident does not hide this one's growth.
			cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryBombChild$", "-test.v")
			cmd.Env = append(os.Environ(), "RLM_MEMORY_BOMB="+c.name)
			b, err := cmd.CombinedOutput()
			out := string(b)
			if strings.Contains(out, "SKIP") {
				t.Skip(out)
			}
			i := strings.Index(out, "bomb:")
			if err != nil || i < 0 {
				t.Fatalf("child: %v\n%s", err, out)
			}
			var exc string
			var growth int64
			fmt.Sscanf(out[i:], "bomb: %s %d", &exc, &growth)
			t.Logf("%s; peak RSS growth %.1f MiB (bound %d MiB)", exc, float64(growth)/(1<<20), bombBound>>20)
			if exc != "MemoryError" && exc != "TimeoutError" {
				t.Errorf("the cell ended with %q; want MemoryError or TimeoutError", exc)
			}
			if growth > 2*bombBound+bombSlack {
				t.Errorf("the process grew by %d MiB, over twice the bound of %d MiB", growth>>20, bombBound>>20)
			}
		})
	}
}

const (
	bombBound = 32 << 20
	bombSlack = 16 << 20
)

// TestMemoryBombChild runs one bomb (RLM_MEMORY_BOMB) for TestMemoryBombs
// and prints "bomb: EXCEPTION GROWTH".
func TestMemoryBombChild(t *testing.T) {
	name := os.Getenv("RLM_MEMORY_BOMB")
	if name == "" {
		t.Skip("run by TestMemoryBombs")
	}
	src := ""
	for _, c := range memoryBombs {
		if c.name == name {
			src = c.src
		}
	}
	it, err := New(Config{CellTimeout: 2 * time.Second, MaxValueBytes: bombBound}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	runtime.GC()
	base, ok := resetPeakRSS()
	if !ok {
		t.Skip("needs Linux's /proc/self/clear_refs and status")
	}
	out, err := it.Exec(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	exc := "none"
	if out.Exception != nil {
		exc = out.Exception.Type
	}
	fmt.Printf("bomb: %s %d\n", exc, peakRSS()-base)
}

// resetPeakRSS resets the process's peak resident size and returns the
// current one, in bytes.
func resetPeakRSS() (int64, bool) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, false
	}
	return procStatus("VmRSS:")
}

// peakRSS is the peak resident size since the last reset, in bytes.
func peakRSS() int64 {
	n, _ := procStatus("VmHWM:")
	return n
}

func procStatus(field string) (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
