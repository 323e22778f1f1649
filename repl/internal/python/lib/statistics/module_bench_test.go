package statistics

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkModule measures the common functions over 10,000 values.
func BenchmarkModule(b *testing.B) {
	src := `import statistics as st
data = [(i * 7919) % 1000 / 7 for i in range(10000)]
st.mean(data); st.fmean(data); st.median(data); st.stdev(data); st.quantiles(data, n=100)
`
	for i := 0; i < b.N; i++ {
		if r := libtest.Run(src, Register); r.Exc != nil || r.Err != nil {
			b.Fatal(r.Exc, r.Err)
		}
	}
}
