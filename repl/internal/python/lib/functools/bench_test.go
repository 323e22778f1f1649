package functools

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

func runBench(b *testing.B, src string) {
	b.Helper()
	for i := 0; i < b.N; i++ {
		if res := libtest.Run(src, Register); res.Exc != nil || res.Err != nil {
			b.Fatal(res.Exc, res.Err)
		}
	}
}

// BenchmarkLRUHits calls a cached function 20,000 times (hits).
func BenchmarkLRUHits(b *testing.B) {
	runBench(b, `
import functools
@functools.lru_cache(maxsize=128)
def f(x):
    return x * 2
for i in range(20000):
    f(i % 100)
`)
}

// BenchmarkPartialCalls calls a partial 20,000 times.
func BenchmarkPartialCalls(b *testing.B) {
	runBench(b, `
import functools
p = functools.partial(max, 0)
for i in range(20000):
    p(i)
`)
}

// BenchmarkReduce reduces 100,000 ints with a builtin.
func BenchmarkReduce(b *testing.B) {
	runBench(b, `
import functools, operator
functools.reduce(operator.add, range(100000))
`)
}
