package repl

import (
	"context"
	"testing"
)

// BenchmarkTrivialCell is the per-cell overhead of Exec (target < 200 µs).
func BenchmarkTrivialCell(b *testing.B) {
	it, err := New(Config{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := it.Exec(ctx, "x = 1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInterpreter is the memory of one interpreter (one per completion
// loop): New plus a first cell (target < 1 MB per loop, see B/op).
func BenchmarkInterpreter(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		it, err := New(Config{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := it.Exec(ctx, "import_ok = 1\nprint(len('abc'))"); err != nil {
			b.Fatal(err)
		}
	}
}
