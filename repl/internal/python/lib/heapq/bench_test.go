package heapq

import (
	"context"
	"sort"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// BenchmarkHeapPushPop pushes and pops 10,000 items from Python code.
func BenchmarkHeapPushPop(b *testing.B) {
	src := `
import heapq
h = []
for i in range(10000):
    heapq.heappush(h, (i * 7919) % 10007)
while h:
    heapq.heappop(h)
`
	for i := 0; i < b.N; i++ {
		if res := libtest.Run(src, Register); res.Exc != nil || res.Err != nil {
			b.Fatal(res.Exc, res.Err)
		}
	}
}

func newThread() *python.Thread {
	in := python.New(python.Config{MaxValueBytes: 64 << 20})
	return python.NewThread(context.Background(), in, 1<<40, nil)
}

// BenchmarkHeapify heapifies 10,000 ints.
func BenchmarkHeapify(b *testing.B) {
	t := newThread()
	items := make([]python.Object, 10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range items {
			items[j] = python.MakeInt(int64((j * 7919) % 10007))
		}
		if err := Heapify(t, python.NewList(items), false); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzHeap pushes and pops ints and checks the pops come out sorted as a
// model does.
func FuzzHeap(f *testing.F) {
	f.Add([]byte{5, 3, 200, 9, 1, 255, 255, 7})
	f.Fuzz(func(t *testing.T, ops []byte) {
		th := newThread()
		l := python.NewList(nil)
		var model []int
		for _, op := range ops {
			if op >= 200 {
				v, err := Pop(th, l, false)
				if len(model) == 0 {
					if err == nil {
						t.Fatal("pop of an empty heap succeeded")
					}
					continue
				}
				sort.Ints(model)
				got, _ := python.AsInt64(v)
				if int(got) != model[0] {
					t.Fatalf("pop %d, want %d", got, model[0])
				}
				model = model[1:]
				continue
			}
			if err := Push(th, l, python.MakeInt(int64(op))); err != nil {
				t.Fatal(err)
			}
			model = append(model, int(op))
		}
		items := l.Items()
		for i := 1; i < len(items); i++ {
			a, _ := python.AsInt64(items[(i-1)/2])
			b, _ := python.AsInt64(items[i])
			if a > b {
				t.Fatalf("heap invariant broken at %d", i)
			}
		}
	})
}
