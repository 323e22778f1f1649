package repl

import (
	"bytes"
	"runtime"
	"testing"
)

// goroutineID returns the calling goroutine's number, from the first
// line of its stack ("goroutine N [running]:").
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := bytes.Fields(buf)
	if len(f) < 2 {
		return ""
	}
	return string(f[1])
}

// TestCellRunsOffTheCallersGoroutine checks that a cell runs on a
// goroutine of its own while Exec's caller watches it: the interpreter's
// deep frames grow the stack of the goroutine they run on, and a caller
// that goes on waiting after the cell (an rlm_query child held in its
// next model call) would keep that stack (issue 35). A host builtin runs
// on the cell's goroutine, in every cell.
func TestCellRunsOffTheCallersGoroutine(t *testing.T) {
	var seen []string
	host := map[string]any{
		"where": Builtin(func(*Call) (any, error) {
			seen = append(seen, goroutineID())
			return nil, nil
		}),
	}
	it := newInterp(t, Config{}, host)
	caller := goroutineID()
	run(t, it, "where()")
	run(t, it, "def deep(n):\n    return where() if n == 0 else deep(n - 1)\ndeep(50)")
	if len(seen) != 2 {
		t.Fatalf("where() ran %d times, want 2", len(seen))
	}
	for i, g := range seen {
		if g == "" || g == caller {
			t.Fatalf("cell %d ran on goroutine %q, the caller is %q", i+1, g, caller)
		}
	}
}
