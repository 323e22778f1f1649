package repl

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// docs/code.md: "CellTimeout ... TimeoutError exception; the thread is
// cancelled at once" and Exec returns at once when ctx is cancelled. Work
// done inside one builtin call (a Go loop, a big-int operation) is neither
// counted as steps nor interruptible, so these cells ignore the wall-time
// bound (and cancellation) for minutes or forever.
func TestSingleStepWorkIgnoresCellTimeout(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"sum over huge range", `print(sum(range(10**13)))`},
		{"all over huge range", `print(all(range(1, 10**13)))`},
		{"max over huge range", `print(max(range(10**13)))`},
		{"int of a long decimal string", `s = "9" * 2000000` + "\n" + `print(int(s) % 7)`},
		{"3-arg pow with huge exponent", "e = 10**100000\nm = 2**(2**20) + 1\nprint(pow(3, e, m))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{CellTimeout: 200 * time.Millisecond}, nil)
			done := make(chan *Outcome, 1)
			go func() {
				o, _ := it.Exec(context.Background(), tc.src)
				done <- o
			}()
			select {
			case o := <-done:
				if o.Exception == nil || o.Exception.Type != "TimeoutError" {
					t.Logf("finished with %+v", o.Exception)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("cell with a 200ms CellTimeout still running after 30s: %s", tc.src)
			}
		})
	}
}

// docs/code.md: MaxCellSteps bounds a cell's Starlark steps
// (StepLimitExceeded) and MaxTotalSteps the interpreter's. A defaultdict
// factory runs on a fresh thread with 1,000,000 steps of its own per
// missing key (collections.go:481), none of them charged to the cell: a
// cell with a 100,000-step budget does ~100,000,000 steps of work.
func TestDefaultdictFactoryStepsAreCharged(t *testing.T) {
	it := newInterp(t, Config{MaxCellSteps: 100_000, MaxTotalSteps: 200_000}, nil)
	o, err := it.Exec(context.Background(), `from collections import defaultdict
def work():
    n = 0
    for i in range(50000):
        n += 1
    return n
d = defaultdict(work)
for k in range(100):
    d[k]
print(sum(d.values()))
`)
	t.Logf("err %v exception %v stdout %q steps %d total %d", err, o.Exception, o.Stdout, o.Steps, it.TotalSteps())
	if err == nil && o.Exception == nil {
		t.Fatalf("a cell limited to 100000 steps (interpreter: 200000) ran 100 x 50000 loop iterations; reported steps %d", o.Steps)
	}
}

// MaxRecursion (docs/code.md: 200 call frames, RecursionError) does not
// hold inside a defaultdict factory: the factory's thread is not the cell's,
// so _rlm_enter does not see the bound (helpers.go:68).
func TestDefaultdictFactoryRecursionBound(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	o := run(t, it, `from collections import defaultdict
depth = [0]
def f(n):
    depth[0] = n
    if n < 5000:
        return f(n + 1)
    return n
d = defaultdict(lambda: f(0))
d["k"]
print(depth[0])
`)
	t.Logf("exception %v stdout %q", o.Exception, o.Stdout)
	if o.Exception == nil {
		t.Fatalf("recursion 5000 deep ran inside a defaultdict factory despite MaxRecursion=200: %q", o.Stdout)
	}
}

// docs/code.md, memory bound layer 1: "every operation that can amplify a
// value in one step is checked against MaxValueBytes first: ... str.join,
// str.replace ... `s = "x" * 10**9` fails with MemoryError without
// allocating". The check is only applied to the call syntax x.join(...)
// (rewrite.go routes CallExpr{DotExpr}); the same method taken as a value
// (j = s.join, getattr(s, "replace"), str.join(sep, xs)) is Starlark's
// unchecked builtin, which allocates the whole result in one step, beyond
// the reach of the watchdog (it can only cancel between steps).
func TestAmplifyingMethodValuesAreChecked(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"bound join", "j = (\"x\" * 65536).join\ns = j([\"\"] * 2049)"},
		{"getattr replace", "s = getattr(\"a\" * 2048, \"replace\")(\"a\", \"b\" * 65536)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{MaxValueBytes: 1 << 20}, nil)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			o := run(t, it, tc.src)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("exception %v, allocated %d MiB", o.Exception, alloc>>20)
			if alloc > 64<<20 {
				t.Fatalf("a cell bounded to 1 MiB allocated %d MiB in one step (exception: %v)", alloc>>20, o.Exception)
			}
		})
	}
}

// The checked method values behave as the methods they stand for, and a
// method of another type named like one (Counter.copy) still works.
func TestMethodValuesKeepTheirMeaning(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	o := run(t, it, `import collections
j = ", ".join
f = {"k": 1}.popitem
c = collections.Counter("aab").copy
r = getattr("abc", "replace")
print(j(["a", "b"]), f(), c(), r("b", "x"))
`)
	if o.Exception != nil || o.Stdout != "a, b ('k', 1) Counter({'a': 2, 'b': 1}) axc\n" {
		t.Fatalf("%v %q", o.Exception, o.Stdout)
	}
}
