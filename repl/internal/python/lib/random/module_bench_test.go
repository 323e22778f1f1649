package random

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkModule measures a loop of the module's common calls.
func BenchmarkModule(b *testing.B) {
	src := `import random
random.seed(1)
xs = list(range(1000))
for _ in range(200):
    random.random(); random.randint(1, 100); random.choice(xs); random.gauss(0, 1)
random.shuffle(xs)
random.sample(xs, 100)
random.choices(xs, k=1000)
`
	for i := 0; i < b.N; i++ {
		if r := libtest.Run(src, Register); r.Exc != nil || r.Err != nil {
			b.Fatal(r.Exc, r.Err)
		}
	}
}
