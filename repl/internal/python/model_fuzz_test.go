package python

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"
)

// FuzzCompileAndRun compiles and runs untrusted source (private name
// mangling, generic scopes, the attribute protocol, exec with locals, big
// ranges, exception groups, tracebacks) under a step budget: whatever the
// source, running it ends with a value, a Python exception or a stop, and
// never panics or hangs. Run it for a while with
//
//	go test -run '^$' -fuzz FuzzCompileAndRun ./repl/internal/python/
func FuzzCompileAndRun(f *testing.F) {
	for _, s := range []string{
		"class A:\n    __x = 1\n    def f(self, __p=2):\n        return self.__x, __p\nprint(A().f())",
		"class _:\n    __q = 1\nclass __:\n    def __m(self): pass",
		"def f[T](x: T) -> T:\n    return x\nclass C[T, **P]:\n    def m(self) -> T: return T\nprint(f(1), C.__type_params__)",
		"class C[T: (int, str)](list): pass\nprint(C.__mro__)",
		"class G:\n    def __getattribute__(self, n):\n        return n\n    def __getattr__(self, n): return 1\nprint(G().x, G().__class__)",
		"def f():\n    a = 1\n    exec('a = 2; b = 3')\n    return eval('a'), locals()\nprint(f())",
		"exec('x = [y for y in range(3)]', {}, {})",
		"r = range(10**20, 10**21, 10**19)\nprint(r[::-3], len(r), r[5], 10**20 in r, list(reversed(r))[:2])",
		"eg = ExceptionGroup('m', [ValueError(1), ExceptionGroup('n', [KeyError(2)])])\nprint(eg.split(KeyError), eg.subgroup(lambda e: True))",
		"try:\n    1/0\nexcept Exception as e:\n    tb = e.__traceback__\n    print(tb.tb_lineno, tb.tb_frame.f_locals, tb.tb_next)",
		"a = []\nfor _ in range(3000): a = [a]\nrepr(a)",
		"class S:\n    __slots__ = ('a', '__weakref__')\ns = S(); s.a = 1; del s.a",
		"class A: pass\nclass B: pass\na = A(); a.__class__ = B; a.__dict__ = {'z': 1}",
		"print(slice(1, 2) < slice(1, 3), hash(slice(1, 2)), pow(2, 3, 5))",
		"[x := 1 for _ in range(2)]\nprint((lambda: [locals() for _ in range(1)])())",
		"type X = int",
		"r = range(10**9)\nprint(10**20 in r, -10**20 in r, 5 in r)",
		"match 1:\n    case int(x): print(x)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		in := New(Config{MaxValueBytes: 1 << 16})
		defer in.Close()
		th := NewThread(ctx, in, 20_000, func(string) {})
		done := make(chan error, 1)
		go func() { done <- in.Exec(th, src, "<cell 1>") }()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			panic("hang running " + strconv.Quote(src))
		}
		var e *Exception
		var stop *StopError
		if err != nil && !errors.As(err, &e) && !errors.As(err, &stop) {
			t.Fatalf("Exec returned %T %v", err, err)
		}
	})
}
