package syntax

import (
	"os"
	"testing"
)

// BenchmarkParseCell parses a realistic 150-line analysis cell
// (testdata/bench_cell.py), with the compile-time checks.
func BenchmarkParseCell(b *testing.B) {
	src, err := os.ReadFile("testdata/bench_cell.py")
	if err != nil {
		b.Fatal(err)
	}
	s := string(src)
	if _, err := Parse(s); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTokenize tokenizes the same cell.
func BenchmarkTokenize(b *testing.B) {
	src, err := os.ReadFile("testdata/bench_cell.py")
	if err != nil {
		b.Fatal(err)
	}
	s := newSource(string(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scan(s)
	}
}

// BenchmarkDump dumps the cell's tree.
func BenchmarkDump(b *testing.B) {
	src, err := os.ReadFile("testdata/bench_cell.py")
	if err != nil {
		b.Fatal(err)
	}
	m, err := Parse(string(src))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Dump(m)
	}
}
