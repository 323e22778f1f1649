package itertools

import (
	"fmt"
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

// BenchmarkChainIslice sums 100,000 items through chain and islice.
func BenchmarkChainIslice(b *testing.B) {
	runBench(b, `
import itertools
sum(itertools.islice(itertools.chain(range(60000), range(60000)), 5, 100005))
`)
}

// BenchmarkProduct walks 3**10 tuples of product.
func BenchmarkProduct(b *testing.B) {
	runBench(b, `
import itertools
n = 0
for t in itertools.product("abc", repeat=10):
    n += 1
`)
}

// BenchmarkGroupby groups 50,000 items in runs.
func BenchmarkGroupby(b *testing.B) {
	runBench(b, `
import itertools
sum(len(list(g)) for k, g in itertools.groupby(i // 7 for i in range(50000)))
`)
}

// FuzzIslice compares islice over a range with the slice of a list.
func FuzzIslice(f *testing.F) {
	f.Add(uint8(30), uint8(2), uint8(20), uint8(3))
	f.Fuzz(func(t *testing.T, n, start, stop, step uint8) {
		if step == 0 {
			step = 1
		}
		src := fmt.Sprintf("import itertools\nprint(list(itertools.islice(range(%d), %d, %d, %d)) == list(range(%d))[%d:%d:%d])", n, start, stop, step, n, start, stop, step)
		res := libtest.Run(src, Register)
		if res.Exc != nil || res.Err != nil || res.Stdout != "True\n" {
			t.Fatalf("%s: %q %v %v", src, res.Stdout, res.Exc, res.Err)
		}
	})
}
