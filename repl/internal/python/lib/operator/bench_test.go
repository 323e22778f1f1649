package operator

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkItemgetterSort sorts 20,000 tuples by itemgetter(1).
func BenchmarkItemgetterSort(b *testing.B) {
	src := `
import operator
rows = [(i, (i * 7919) % 10007) for i in range(20000)]
rows.sort(key=operator.itemgetter(1))
`
	for i := 0; i < b.N; i++ {
		if res := libtest.Run(src, Register); res.Exc != nil || res.Err != nil {
			b.Fatal(res.Exc, res.Err)
		}
	}
}
