package pysort

import (
	"errors"
	"slices"
	"sort"
	"testing"
)

// FuzzSort sorts the fuzzer's bytes (item i has value data[i]) and compares
// with sort.SliceStable: ascending, and for reverse descending with equal
// items in their original order.
func FuzzSort(f *testing.F) {
	f.Add([]byte{3, 0, 1}, false)
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), true)
	f.Add(slices.Repeat([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 30), false)
	f.Fuzz(func(t *testing.T, data []byte, reverse bool) {
		perm, err := Sort(len(data), reverse, func(a, b int) (bool, error) {
			return data[a] < data[b], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int, len(data))
		for i := range want {
			want[i] = i
		}
		sort.SliceStable(want, func(i, j int) bool {
			if reverse {
				return data[want[i]] > data[want[j]]
			}
			return data[want[i]] < data[want[j]]
		})
		if !slices.Equal(perm, want) {
			t.Fatalf("Sort(%v, reverse=%v) = %v, want %v", data, reverse, perm, want)
		}
	})
}

// FuzzInconsistent sorts n items with a less that answers from the fuzzer's
// bits, whatever was asked, and stops with an error at call stop (if
// stop > 0). Nothing may panic, and the result must be a permutation.
func FuzzInconsistent(f *testing.F) {
	f.Add(uint16(10), []byte{0x55, 0xaa}, uint16(0), false)
	f.Add(uint16(300), []byte{0xff, 0, 0x0f, 0x80, 0x01}, uint16(0), true)
	f.Add(uint16(2000), []byte{0xfe, 0xff, 0xff, 0x7f}, uint16(900), false)
	f.Fuzz(func(t *testing.T, n uint16, bits []byte, stop uint16, reverse bool) {
		n %= 4096
		stopErr := errors.New("stop")
		k := 0
		perm, err := Sort(int(n), reverse, func(a, b int) (bool, error) {
			if a < 0 || a >= int(n) || b < 0 || b >= int(n) || a == b {
				t.Fatalf("less(%d, %d) for %d items", a, b, n)
			}
			k++
			if stop > 0 && k == int(stop) {
				return false, stopErr
			}
			if len(bits) == 0 {
				return false, nil
			}
			i := k % (8 * len(bits))
			return bits[i/8]>>(i%8)&1 == 1, nil
		})
		if err != nil && err != stopErr {
			t.Fatal(err)
		}
		seen := make([]bool, n)
		for _, x := range perm {
			if seen[x] {
				t.Fatalf("%d twice in %v", x, perm)
			}
			seen[x] = true
		}
		if len(perm) != int(n) {
			t.Fatalf("%d items for %d", len(perm), n)
		}
	})
}
