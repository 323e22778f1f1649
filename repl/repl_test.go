package repl

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newInterp(t testing.TB, cfg Config, host map[string]any) *Interp {
	t.Helper()
	it, err := New(cfg, host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(it.Close)
	return it
}

func run(t testing.TB, it *Interp, src string) *Outcome {
	t.Helper()
	o, err := it.Exec(context.Background(), src)
	if err != nil {
		t.Fatalf("Exec(%q): %v", src, err)
	}
	return o
}

func TestPersistenceAcrossCells(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	run(t, it, "counts = {}\ndef add(k):\n    counts[k] = counts.get(k, 0) + 1\n    return counts[k]")
	run(t, it, "add('a')\nadd('a')\nn = add('b')\nclass P:\n    pass")
	o := run(t, it, "print(counts, n)\ncounts['c'] = 9\nimport re")
	if o.Stdout != "{'a': 2, 'b': 1} 1\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	o = run(t, it, "print(len(counts))")
	if o.Stdout != "3\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	var names []string
	for _, v := range it.Vars() {
		names = append(names, v.Name+":"+v.Type)
	}
	if got := strings.Join(names, ","); got != "P:type,add:function,counts:dict,n:int" {
		t.Fatalf("Vars = %s", got)
	}
	g, ok, err := it.Get("counts")
	if err != nil || !ok || !equalJSON(g, map[string]any{"a": int64(2), "b": int64(1), "c": int64(9)}) {
		t.Fatalf("Get = %#v %v %v", g, ok, err)
	}
	if _, _, err := it.Get("add"); err == nil {
		t.Fatal("Get of a function is plain data")
	}
	if err := it.Restore("saved", []any{int64(1), "x"}); err != nil {
		t.Fatal(err)
	}
	if o := run(t, it, "print(saved)"); o.Stdout != "[1, 'x']\n" {
		t.Fatalf("restored: %q", o.Stdout)
	}
}

func TestFinishing(t *testing.T) {
	cases := []struct {
		name, src string
		want      any
		repr      string
		stdout    string
	}{
		{"FINAL stops the cell", "print('before')\nFINAL('the answer')\nprint('after')", "the answer", "'the answer'", "before\n"},
		{"FINAL data", "FINAL({'n': 3, 'xs': [1, 2.5, None]})", map[string]any{"n": int64(3), "xs": []any{int64(1), 2.5, nil}}, "{'n': 3, 'xs': [1, 2.5, None]}", ""},
		{"FINAL_VAR same cell", "result = 'x' + 'y'\nFINAL_VAR('result')\nprint('after')", "xy", "'xy'", ""},
		{"FINAL_VAR value", "FINAL_VAR(42)", int64(42), "42", ""},
		{"answer dict", "answer['content'] = 'done'\nanswer['ready'] = True\nprint('end')", "done", "'done'", "end\n"},
		{"answer rebound", "answer = {'content': 'done', 'ready': True}", "done", "'done'", ""},
		{"FINAL inside a function", "def finish():\n    FINAL('deep')\n    print('no')\nfinish()\nprint('no')", "deep", "'deep'", ""},
		{"FINAL is not caught", "try:\n    FINAL(1)\nexcept BaseException:\n    print('caught')\nfinally:\n    print('finally')", int64(1), "1", ""},
		{"FINAL of an object", "class A:\n    def __repr__(self):\n        return 'A()'\nFINAL(A())", "A()", "A()", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{}, nil)
			o := run(t, it, tc.src)
			if o.Exception != nil {
				t.Fatalf("exception %s", o.Exception)
			}
			if o.Final == nil {
				t.Fatal("no Final")
			}
			if !equalJSON(o.Final.Value, tc.want) || o.Final.Repr != tc.repr {
				t.Fatalf("Final = %#v %q, want %#v %q", o.Final.Value, o.Final.Repr, tc.want, tc.repr)
			}
			if o.Stdout != tc.stdout {
				t.Fatalf("stdout = %q, want %q", o.Stdout, tc.stdout)
			}
		})
	}
}

func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k := range a {
			if !equalJSON(a[k], bm[k]) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], bl[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func TestNotFinishing(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	for _, src := range []string{
		"answer = {'content': 'draft', 'ready': False}",
		"answer['content'] = 'more'",
	} {
		if o := run(t, it, src); o.Final != nil {
			t.Fatalf("%q finished the run", src)
		}
	}
	if o := run(t, it, "FINAL_VAR('missing_name')"); o.Final != nil || o.Exception == nil || o.Exception.Type != "NameError" {
		t.Fatalf("FINAL_VAR of a missing name: %+v %+v", o.Final, o.Exception)
	}
	o := run(t, it, "answer['ready'] = True")
	if o.Final == nil || o.Final.Value != "more" {
		t.Fatalf("Final = %+v", o.Final)
	}
	// An answer left ready does not finish the next cell (a session's next query).
	if o := run(t, it, "x = 1"); o.Final != nil {
		t.Fatal("a stale answer finished a later cell")
	}
	if o := run(t, it, "answer = {'content': 'again', 'ready': True}"); o.Final == nil || o.Final.Value != "again" {
		t.Fatalf("rebinding answer: Final = %+v", o.Final)
	}
}

func TestExceptionLine(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	o := run(t, it, "x = 1\ny = 2\nz = {}['k']\n")
	if o.Exception == nil || o.Exception.Type != "KeyError" || o.Exception.Line != 3 || o.Exception.Message != "'k'" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "def f():\n    return 1 / 0\n\nf()")
	if o.Exception == nil || o.Exception.Line != 2 {
		t.Fatalf("exception = %+v", o.Exception)
	}
	// A function defined by an earlier cell: the line is this cell's call.
	o = run(t, it, "\n\nf()")
	if o.Exception == nil || o.Exception.Line != 3 {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "x = 1\nif x:\n  y = (\n")
	if o.Exception == nil || o.Exception.Type != "SyntaxError" || o.Exception.Line != 3 {
		t.Fatalf("exception = %+v", o.Exception)
	}
}

func TestStepLimits(t *testing.T) {
	it := newInterp(t, Config{MaxCellSteps: 10_000, MaxTotalSteps: 25_000}, nil)
	for range 2 {
		o := run(t, it, "while True:\n    pass")
		if o.Exception == nil || o.Exception.Type != "StepLimitExceeded" {
			t.Fatalf("exception = %+v", o.Exception)
		}
	}
	// 5,000 steps left: the next loop spends the interpreter's budget.
	if _, err := it.Exec(context.Background(), "while True:\n    pass"); fault.KindOf(err) != KindStepBudget {
		t.Fatalf("err = %v, want kind %s", err, KindStepBudget)
	}
	if _, err := it.Exec(context.Background(), "x = 1"); fault.KindOf(err) != KindStepBudget {
		t.Fatalf("after exhaustion: err = %v", err)
	}
}

func TestRecursionLimit(t *testing.T) {
	it := newInterp(t, Config{MaxRecursion: 50}, nil)
	for _, src := range []string{"def f(n):\n    return f(n + 1)\nf(0)", "g = lambda n: g(n + 1)\ng(0)"} {
		if o := run(t, it, src); o.Exception == nil || o.Exception.Type != "RecursionError" {
			t.Fatalf("%q: exception = %+v", src, o.Exception)
		}
	}
	o := run(t, it, "try:\n    f(0)\nexcept RecursionError:\n    print('caught')")
	if o.Stdout != "caught\n" {
		t.Fatalf("RecursionError is catchable: %q %+v", o.Stdout, o.Exception)
	}
	o = run(t, newInterp(t, Config{}, nil), "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nprint(len(str(fact(900))))")
	if o.Exception != nil || o.Stdout != "2270\n" {
		t.Fatalf("fact(900) under the default limit: %+v %q", o.Exception, o.Stdout)
	}
}

func TestMemoryBound(t *testing.T) {
	cases := []struct{ name, src string }{
		{"string repeat", `s = "x" * 1000000000`},
		{"string repeat augmented", "s = 'x'\ns *= 1000000000"},
		{"list repeat", `l = [0] * 100000000`},
		{"list of range", `l = list(range(1000000000))`},
		{"sorted of range", `l = sorted(range(1000000000))`},
		{"join", `s = ("x" * 1000000).join(["a"] * 1000)`},
		{"replace", `s = ("x" * 1000000).replace("x", "y" * 80)`},
		{"format width", `s = "{:>1000000000}".format("x")`},
		{"ljust", `s = "x".ljust(1000000000)`},
		{"string doubling loop", "s = 'x'\nwhile True:\n    s = s + s"},
		{"list doubling loop", "l = [0]\nwhile True:\n    l.extend(l)"},
		{"big power", "n = pow(10, 1000000000)"},
		{"str of a big list", `s = str(["x" * 200000] * 100)`},
		{"f-string of a big list", `s = f"{['x' * 200000] * 100}"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{MaxValueBytes: 16 << 20}, nil)
			o := run(t, it, tc.src)
			if o.Exception == nil || o.Exception.Type != "MemoryError" {
				t.Fatalf("exception = %+v", o.Exception)
			}
			// The interpreter stays usable after the error.
			if o := run(t, it, "print('ok')"); o.Stdout != "ok\n" {
				t.Fatalf("after MemoryError: %q %+v", o.Stdout, o.Exception)
			}
		})
	}
}

// TestMemoryBoundBeforeAllocating: the size checks refuse a value before
// it is allocated, whatever the target of an augmented assignment.
func TestMemoryBoundBeforeAllocating(t *testing.T) {
	cases := []struct{ name, src string }{
		{"name target", "s = 'x'\ns *= 200000000"},
		{"subscript target", "l = ['x']\nl[0] *= 200000000"},
		{"dict item target", "d = {'k': [0]}\nd['k'] *= 20000000"},
		{"int times subscript", "l = [200000000]\nl[0] *= 'x'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{MaxValueBytes: 16 << 20}, nil)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			o := run(t, it, tc.src)
			runtime.ReadMemStats(&after)
			if o.Exception == nil || o.Exception.Type != "MemoryError" {
				t.Fatalf("exception = %+v", o.Exception)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Fatalf("the cell allocated %d bytes before the MemoryError", grew)
			}
		})
	}
}

func TestWallTime(t *testing.T) {
	it := newInterp(t, Config{CellTimeout: 50 * time.Millisecond, MaxCellSteps: 1 << 62, MaxTotalSteps: 1 << 62}, nil)
	o := run(t, it, "while True:\n    pass")
	if o.Exception == nil || o.Exception.Type != "TimeoutError" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	// Inside one builtin call too.
	o = run(t, it, "x = pow(3, 10**3000, 10**20000 + 7)")
	if o.Exception == nil || o.Exception.Type != "TimeoutError" {
		t.Fatalf("pow: exception = %+v", o.Exception)
	}
}

func TestOutputTruncation(t *testing.T) {
	it := newInterp(t, Config{MaxOutputBytes: 100}, nil)
	o := run(t, it, "for i in range(100):\n    print('0123456789')")
	if len(o.Stdout) != 100 || o.CutBytes != 1000 {
		t.Fatalf("len(stdout) = %d, cut = %d", len(o.Stdout), o.CutBytes)
	}
	o = run(t, it, "print('é' * 60)")
	if !strings.HasPrefix(o.Stdout, "é") || len(o.Stdout)+o.CutBytes != 121 || strings.ToValidUTF8(o.Stdout, "\uFFFD") != o.Stdout {
		t.Fatalf("utf-8 cut: %q cut %d", o.Stdout, o.CutBytes)
	}
	o = run(t, it, "import sys\nprint('to stderr', file=sys.stderr)\nprint('out')")
	if o.Stdout != "out\n" || o.Stderr != "to stderr\n" {
		t.Fatalf("stderr: %q %q %+v", o.Stdout, o.Stderr, o.Exception)
	}
}

func TestCancellationMidCell(t *testing.T) {
	started := make(chan struct{})
	host := map[string]any{
		"started": Builtin(func(*Call) (any, error) {
			close(started)
			return nil, nil
		}),
	}
	it := newInterp(t, Config{MaxCellSteps: 1 << 62, MaxTotalSteps: 1 << 62}, host)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	o, err := it.Exec(ctx, "print('x')\nstarted()\nwhile True:\n    pass")
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("err = %v, want kind cancelled", err)
	}
	if o.Stdout != "x\n" {
		t.Fatalf("partial stdout = %q", o.Stdout)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer dcancel()
	if _, err := it.Exec(dctx, "while True:\n    pass"); fault.KindOf(err) != fault.KindTimeout {
		t.Fatalf("err = %v, want kind timeout", err)
	}
}

func TestHostBuiltinContextIsCancelled(t *testing.T) {
	host := map[string]any{
		"block": Builtin(func(c *Call) (any, error) {
			<-c.Ctx.Done()
			return nil, Fatal(fault.FromContext(fault.PhaseExecute, c.Ctx.Err()))
		}),
	}
	it := newInterp(t, Config{CellTimeout: 30 * time.Millisecond}, host)
	o, err := it.Exec(context.Background(), "block()")
	if err != nil || o.Exception == nil || o.Exception.Type != "TimeoutError" {
		t.Fatalf("err = %v, exception = %+v", err, o.Exception)
	}
}

func TestFatalBuiltinInterruptsCell(t *testing.T) {
	budget := fault.New(fault.PhaseBudget, fault.Kind("exhausted"), "no more sub-calls")
	host := map[string]any{
		"spend": Builtin(func(*Call) (any, error) { return nil, Fatal(budget) }),
		"soft":  Builtin(func(*Call) (any, error) { return nil, Raise("ValueError", "bad input") }),
		"plain": Builtin(func(*Call) (any, error) { return nil, errors.New("it broke") }),
	}
	it := newInterp(t, Config{}, host)
	o, err := it.Exec(context.Background(), "print('a')\ntry:\n    for i in range(3):\n        spend()\nexcept BaseException:\n    print('caught')\nprint('b')")
	if !errors.Is(err, budget) || fault.KindOf(err) != fault.Kind("exhausted") || IsFatal(err) {
		t.Fatalf("err = %v", err)
	}
	if o.Stdout != "a\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	o = run(t, it, "soft()")
	if o.Exception == nil || o.Exception.Type != "ValueError" || o.Exception.Message != "bad input" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "plain()")
	if o.Exception == nil || o.Exception.Type != "RuntimeError" || o.Exception.Message != "it broke" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	if !IsFatal(Fatal(budget)) || IsFatal(budget) || Fatal(nil) != nil {
		t.Fatal("IsFatal/Fatal")
	}
}

func TestHostNamesAndValues(t *testing.T) {
	if _, err := New(Config{}, map[string]any{"print": nil}); fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("collision: err = %v", err)
	}
	var got []any
	host := map[string]any{
		"note": Builtin(func(c *Call) (any, error) {
			c.Print("note: " + c.Args[0].(string))
			got = append(got, c.Args[1:]...)
			if v, ok := c.Kwarg("k"); ok {
				got = append(got, v)
			}
			return Dict{{Key: "z", Value: int64(1)}, {Key: "a", Value: []any{2.5, nil}}}, nil
		}),
		"data": []any{int64(1), "two"},
	}
	it := newInterp(t, Config{}, host)
	if err := it.Set("context_0", memText{name: "context_0", b: []byte("ctx é")}); err != nil {
		t.Fatal(err)
	}
	o := run(t, it, "r = note('hi', (1, 2), {'x': 10**30}, k=True)\nprint(r, data, len(context_0), context_0)\nmine = 1")
	if o.Exception != nil || o.Stdout != "note: hi\n{'z': 1, 'a': [2.5, None]} [1, 'two'] 5 ctx é\n" {
		t.Fatalf("stdout = %q %+v", o.Stdout, o.Exception)
	}
	if len(got) != 3 || !equalJSON(got[0], []any{int64(1), int64(2)}) || got[2] != true {
		t.Fatalf("arguments %#v", got)
	}
	if vars := it.Vars(); len(vars) != 2 || vars[0].Name != "mine" || vars[1].Name != "r" {
		t.Fatalf("Vars = %+v", vars)
	}
	if !strings.HasPrefix(o.Fingerprint, "sha256:") {
		t.Fatalf("fingerprint %q", o.Fingerprint)
	}
}

func TestConvert(t *testing.T) {
	in := map[string]any{"a": []any{int64(1), 2.5, "s", nil, true}, "b": map[string]any{"c": int64(-3)}}
	v, err := FromGo(in)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ToGo(v)
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(back, in) {
		t.Fatalf("round trip: %#v", back)
	}
	if _, err := FromGo(struct{}{}); err == nil {
		t.Fatal("a struct converted")
	}
}

func TestDeterminism(t *testing.T) {
	src := "import random, time, datetime\nprint(random.randint(1, 100), random.choice('abc'), random.random())\nrandom.seed(7)\nprint(random.randint(1, 1000))\nprint(time.time(), datetime.datetime.now())"
	start := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	a := run(t, newInterp(t, Config{Now: start}, nil), src)
	b := run(t, newInterp(t, Config{Now: start}, nil), src)
	if a.Exception != nil || a.Stdout != b.Stdout || !strings.Contains(a.Stdout, "2026-12-05 12:00:00") {
		t.Fatalf("%q vs %q (%+v)", a.Stdout, b.Stdout, a.Exception)
	}
	o := run(t, newInterp(t, Config{}, nil), "x = 1\nprint('x' in globals(), 'print' in globals(), {3, 1, 2}, set('hello'))")
	if o.Stdout != "True False {1, 2, 3} {'e', 'h', 'l', 'o'}\n" {
		t.Fatalf("globals and sets: %q %+v", o.Stdout, o.Exception)
	}
}

// An abandoned generator's goroutine ends when the interpreter closes
// (TestMain checks for leaks).
func TestGeneratorsEndWithTheInterpreter(t *testing.T) {
	it, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := run(t, it, "def g():\n    i = 0\n    while True:\n        yield i\n        i += 1\na = g(); b = g()\nprint(next(a), next(a), next(b))")
	if o.Stdout != "0 1 0\n" {
		t.Fatalf("%q %+v", o.Stdout, o.Exception)
	}
	it.Close()
}

// TestBuiltinsPerInterpreter: interpreters share their builtins' initial
// namespace (issue 35, item 2), but what one rebinds, adds or deletes
// there no other sees.
func TestBuiltinsPerInterpreter(t *testing.T) {
	ctx := context.Background()
	a, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if o, err := a.Exec(ctx, "import builtins\nbuiltins.len = lambda x: -1\ndel builtins.abs\nbuiltins.extra = 7\nprint(len('ab'), extra)"); err != nil || o.Exception != nil || o.Stdout != "-1 7\n" {
		t.Fatalf("a: %v %v %q", err, o.Exception, o.Stdout)
	}
	b, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	o, err := b.Exec(ctx, "print(len('ab'), abs(-3))\ntry:\n    extra\nexcept NameError as e:\n    print(e)")
	if err != nil || o.Exception != nil || o.Stdout != "2 3\nname 'extra' is not defined\n" {
		t.Fatalf("b: %v %v %q", err, o.Exception, o.Stdout)
	}
	if o, err := a.Exec(ctx, "try:\n    abs(-3)\nexcept NameError as e:\n    print(e)"); err != nil || o.Stdout != "name 'abs' is not defined\n" {
		t.Fatalf("a after b: %v %q", err, o.Stdout)
	}
}
