package collections

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

func runBench(b *testing.B, src string) {
	b.Helper()
	for i := 0; i < b.N; i++ {
		res := libtest.Run(src, Register)
		if res.Exc != nil || res.Err != nil {
			b.Fatalf("%v %v", res.Exc, res.Err)
		}
	}
}

// BenchmarkCounterWords counts 20,000 words and takes the most common.
func BenchmarkCounterWords(b *testing.B) {
	runBench(b, `
from collections import Counter
words = ("alpha beta gamma delta alpha beta alpha epsilon " * 2500).split()
c = Counter(words)
c.most_common(3)
`)
}

// BenchmarkDequeQueue appends and pops 20,000 items through a deque.
func BenchmarkDequeQueue(b *testing.B) {
	runBench(b, `
from collections import deque
q = deque()
for i in range(20000):
    q.append(i)
while q:
    q.popleft()
`)
}

// BenchmarkDequeRing measures the ring buffer itself.
func BenchmarkDequeRing(b *testing.B) {
	d := &deque{maxlen: -1}
	v := python.MakeInt(1)
	for i := 0; i < b.N; i++ {
		_ = d.pushBack(nil, v)
		if d.n > 64 {
			d.popFront()
		}
	}
}

// BenchmarkOrderedDictLRU runs an LRU cache of 100 entries over 20,000
// accesses.
func BenchmarkOrderedDictLRU(b *testing.B) {
	runBench(b, `
from collections import OrderedDict
od = OrderedDict()
for i in range(20000):
    k = "k%d" % (i % 150)
    if k in od:
        od.move_to_end(k)
    else:
        od[k] = i
        if len(od) > 100:
            od.popitem(last=False)
`)
}

// BenchmarkNamedTuple makes and reads 10,000 named tuples.
func BenchmarkNamedTuple(b *testing.B) {
	runBench(b, `
from collections import namedtuple
P = namedtuple("P", "x y")
s = 0
for i in range(10000):
    p = P(i, i)
    s += p.x + p.y
`)
}
