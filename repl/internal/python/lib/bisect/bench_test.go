package bisect

import (
	"context"
	"sort"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

func newThread() *python.Thread {
	in := python.New(python.Config{MaxValueBytes: 64 << 20})
	return python.NewThread(context.Background(), in, 1<<40, nil)
}

// BenchmarkBisect searches a sorted list of 100,000 ints.
func BenchmarkBisect(b *testing.B) {
	t := newThread()
	items := make([]python.Object, 100000)
	for i := range items {
		items[i] = python.MakeInt(int64(2 * i))
	}
	l := python.NewList(items)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Bisect(t, l, python.MakeInt(int64(i%200000)), 0, int64(len(items)), nil, i&1 == 0); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzBisect checks both insertion points against sort.Search.
func FuzzBisect(f *testing.F) {
	f.Add([]byte{1, 2, 2, 2, 5, 9}, byte(2))
	f.Fuzz(func(t *testing.T, data []byte, x byte) {
		vals := append([]byte(nil), data...)
		sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
		items := make([]python.Object, len(vals))
		for i, v := range vals {
			items[i] = python.MakeInt(int64(v))
		}
		th := newThread()
		l := python.NewList(items)
		left, err := Bisect(th, l, python.MakeInt(int64(x)), 0, int64(len(items)), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		right, err := Bisect(th, l, python.MakeInt(int64(x)), 0, int64(len(items)), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		wl := sort.Search(len(vals), func(i int) bool { return vals[i] >= x })
		wr := sort.Search(len(vals), func(i int) bool { return vals[i] > x })
		if int(left) != wl || int(right) != wr {
			t.Fatalf("bisect %d,%d; want %d,%d", left, right, wl, wr)
		}
	})
}
