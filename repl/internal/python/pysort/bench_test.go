package pysort

import (
	"cmp"
	"slices"
	"testing"
)

func benchInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = int(splitMix(42, i) % (1 << 30))
	}
	return s
}

// BenchmarkSlice sorts 1e5 random ints with a trivial less.
func BenchmarkSlice(b *testing.B) {
	src := benchInts(1e5)
	s := make([]int, len(src))
	less := func(x, y int) (bool, error) { return x < y, nil }
	for b.Loop() {
		copy(s, src)
		if err := Slice(s, false, less); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSortStableFunc is the baseline for BenchmarkSlice.
func BenchmarkSortStableFunc(b *testing.B) {
	src := benchInts(1e5)
	s := make([]int, len(src))
	for b.Loop() {
		copy(s, src)
		slices.SortStableFunc(s, cmp.Compare)
	}
}

// BenchmarkSort sorts 1e5 random ints through Sort's permutation, as the
// interpreter does with key=.
func BenchmarkSort(b *testing.B) {
	keys := benchInts(1e5)
	less := func(x, y int) (bool, error) { return keys[x] < keys[y], nil }
	for b.Loop() {
		if _, err := Sort(len(keys), false, less); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSliceSorted sorts 1e5 ints already in order: one run, n-1 calls.
func BenchmarkSliceSorted(b *testing.B) {
	src := benchInts(1e5)
	slices.Sort(src)
	s := make([]int, len(src))
	less := func(x, y int) (bool, error) { return x < y, nil }
	for b.Loop() {
		copy(s, src)
		if err := Slice(s, false, less); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSortStableFuncSorted is the baseline for BenchmarkSliceSorted.
func BenchmarkSortStableFuncSorted(b *testing.B) {
	src := benchInts(1e5)
	slices.Sort(src)
	s := make([]int, len(src))
	for b.Loop() {
		copy(s, src)
		slices.SortStableFunc(s, cmp.Compare)
	}
}
