package repl

import (
	"context"
	"fmt"
	"testing"
)

// Benchmarks of the interpreter: start, cell overhead, and the string
// operations whose cost the code-point representation changes. Each
// string benchmark runs 1,000 operations inside one cell; ns/op is per
// cell (divide by 1,000 for one operation).

func BenchmarkInterpStart(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := New(Config{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCells(b *testing.B, setup, cell string) {
	it, err := New(Config{MaxValueBytes: 512 << 20}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if o, err := it.Exec(ctx, setup); err != nil || o.Exception != nil {
		b.Fatal(err, o.Exception)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o, err := it.Exec(ctx, cell)
		if err != nil || o.Exception != nil {
			b.Fatal(err, o.Exception)
		}
	}
}

func BenchmarkCellOverhead(b *testing.B) { benchCells(b, "x = 1", "x = 1") }

func BenchmarkStringOps(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}, {"100MB", 100 << 20}} {
		for _, kind := range []struct{ name, unit string }{{"ascii", "abcd"}, {"nonascii", "abcé"}} {
			// s[m] in the setup builds the index of a non-ASCII str once.
			setup := fmt.Sprintf("s = %q * %d\nn = len(s)\nm = n // 2\nc = s[m]", kind.unit, size.n/4)
			for _, op := range []struct{ name, code string }{
				{"len", "for _ in range(1000):\n    k = len(s)\n"},
				{"index", "for i in range(1000):\n    c = s[m - i]\n"},
				{"slice100", "for i in range(1000):\n    t = s[m - i:m - i + 100]\n"},
			} {
				b.Run(size.name+"/"+kind.name+"/"+op.name, func(b *testing.B) { benchCells(b, setup, op.code) })
			}
		}
	}
}
