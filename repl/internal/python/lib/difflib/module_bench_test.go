package difflib

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkModule diffs two 500-line texts and matches names.
func BenchmarkModule(b *testing.B) {
	src := `import difflib
a = ["line %d\n" % i for i in range(500)]
b = [l if i % 17 else "changed %d\n" % i for i, l in enumerate(a)]
list(difflib.unified_diff(a, b)); list(difflib.ndiff(a[:100], b[:100]))
names = ["name%d" % i for i in range(300)]
difflib.get_close_matches("name17x", names)
`
	for i := 0; i < b.N; i++ {
		if r := libtest.Run(src, Register); r.Exc != nil || r.Err != nil {
			b.Fatal(r.Exc, r.Err)
		}
	}
}
