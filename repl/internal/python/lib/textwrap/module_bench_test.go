package textwrap

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkModule wraps a 50 KB text.
func BenchmarkModule(b *testing.B) {
	src := `import textwrap
text = "The quick brown fox jumps over the lazy dog. " * 1100
textwrap.fill(text, 72); textwrap.wrap(text, 30, break_on_hyphens=False); textwrap.shorten(text, 200)
`
	for i := 0; i < b.N; i++ {
		if r := libtest.Run(src, Register); r.Exc != nil || r.Err != nil {
			b.Fatal(r.Exc, r.Err)
		}
	}
}
