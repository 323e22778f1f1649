package csv

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkModule reads and writes 2,000 rows.
func BenchmarkModule(b *testing.B) {
	src := `import csv
lines = ['%d,"name %d",%d.5,x' % (i, i, i) for i in range(2000)]
rows = list(csv.reader(lines))
class W:
    def write(self, s):
        pass
csv.writer(W()).writerows(rows)
list(csv.DictReader(["a,b,c,d"] + lines))
`
	for i := 0; i < b.N; i++ {
		if r := libtest.Run(src, Register); r.Exc != nil || r.Err != nil {
			b.Fatal(r.Exc, r.Err)
		}
	}
}
