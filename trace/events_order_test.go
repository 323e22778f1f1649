package trace

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Events come out ordered by Seq whatever the order they were kept in,
// the chunks they are in, the numbers missing (dropped or live-only) and
// numbers given twice or out of range (sorted then, not placed).
func TestInSeqOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name       string
		n, last    int
		dup, zero  bool
		chunkSizes []int
	}{
		{name: "empty", n: 0, last: 0},
		{name: "dense", n: 500, last: 500},
		{name: "gaps", n: 300, last: 700},
		{name: "sparse, sorted", n: 10, last: 100_000},
		{name: "many chunks", n: 5000, last: 5200, chunkSizes: []int{1, 2, 3}},
		{name: "a number twice", n: 50, last: 60, dup: true},
		{name: "a zero", n: 50, last: 60, zero: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			seqs := rng.Perm(c.last)[:c.n]
			for i := range seqs {
				seqs[i]++
			}
			if c.dup {
				seqs[7] = seqs[3]
			}
			if c.zero {
				seqs[5] = 0
			}
			var chunks [][]Event
			for i := 0; i < len(seqs); {
				size := 8
				if c.chunkSizes != nil {
					size = c.chunkSizes[rng.IntN(len(c.chunkSizes))]
				}
				var chunk []Event
				for ; size > 0 && i < len(seqs); size-- {
					chunk = append(chunk, Event{Seq: uint64(seqs[i]), Name: "n" + string(rune('a'+i%26))})
					i++
				}
				chunks = append(chunks, chunk)
			}
			var want []Event
			for _, ch := range chunks {
				want = append(want, ch...)
			}
			slices.SortStableFunc(want, func(a, b Event) int { return int(a.Seq) - int(b.Seq) })
			got := inSeqOrder(chunks, c.n, uint64(c.last))
			if len(got) != len(want) {
				t.Fatalf("%d events, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i].Seq != want[i].Seq || !c.dup && got[i].Name != want[i].Name {
					t.Fatalf("event %d: seq %d %s, want %d %s", i, got[i].Seq, got[i].Name, want[i].Seq, want[i].Name)
				}
			}
		})
	}
}
