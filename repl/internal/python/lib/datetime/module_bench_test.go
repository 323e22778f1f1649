package datetime

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkModule parses, formats and does arithmetic on 1,000 datetimes.
func BenchmarkModule(b *testing.B) {
	src := `from datetime import datetime, timedelta
base = datetime(2024, 3, 1, 8, 0, 19)
for i in range(1000):
    d = datetime.strptime("2024-03-01 08:%02d:19" % (i % 60), "%Y-%m-%d %H:%M:%S")
    (d - base).total_seconds(); d.strftime("%Y-%m-%dT%H:%M"); d + timedelta(minutes=i); d.isoformat()
`
	for i := 0; i < b.N; i++ {
		if r := libtest.Run(src, Register); r.Exc != nil || r.Err != nil {
			b.Fatal(r.Exc, r.Err)
		}
	}
}
