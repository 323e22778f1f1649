package bpe

import (
	"math"
	"sync"

	"github.com/rlm-go/rlm/bpe/internal/vocab"
)

//go:generate go run ./internal/gentables

// ranks is one encoding's merge table as embedded (package vocab's
// layout, written by bpe/internal/gentables): its tokens' byte strings by
// rank (a token's id is its rank) and a precomputed hash index, so the
// first use builds nothing but the 256 single-byte ranks.
type ranks struct {
	data string // the table as embedded
	once sync.Once

	n      int
	off    string // (n+1) offsets of the tokens in tokens
	slots  string // the hash index
	mask   uint64
	tokens string // the byte strings back to back
	bytes  [256]uint32
}

// noRank marks a pair that is not a token.
const noRank = math.MaxUint32

// load slices the table. The table is generated, so it is well formed;
// one that is not is a bug in the generator and panics.
func (r *ranks) load() {
	r.once.Do(func() {
		d := r.data
		r.n = int(vocab.Le32(d, 0))
		slots := int(vocab.Le32(d, 4))
		at := vocab.Header
		r.off, at = d[at:at+4*(r.n+1)], at+4*(r.n+1)
		r.slots, at = d[at:at+4*slots], at+4*slots
		r.tokens = d[at:]
		r.mask = uint64(slots - 1)
		if slots&(slots-1) != 0 || int(vocab.Le32(r.off, 4*r.n)) != len(r.tokens) {
			panic("bpe: malformed rank table")
		}
		r.byteRanks()
	})
}

// byteRanks fills r.bytes, the ranks of the single bytes, by reading the
// tokens in rank order: OpenAI's encodings list the 256 single bytes
// first, so this reads the first kilobyte of the offsets rather than
// probing 256 scattered slots of the index (each a page of the embedded
// table to fault in, about 0.1 ms of a process's first count). A byte not
// found there (no table generated so far) is looked up in the index.
func (r *ranks) byteRanks() {
	for i := range r.bytes {
		r.bytes[i] = noRank
	}
	found := 0
	for id := 0; id < r.n && id < len(r.bytes); id++ {
		if t := r.token(uint32(id)); len(t) == 1 && r.bytes[t[0]] == noRank {
			r.bytes[t[0]] = uint32(id)
			found++
		}
	}
	if found == len(r.bytes) {
		return
	}
	for i := range r.bytes {
		if r.bytes[i] == noRank {
			r.bytes[i] = r.lookup(string([]byte{byte(i)}))
		}
	}
}

// token returns the bytes of token id.
func (r *ranks) token(id uint32) string {
	return r.tokens[vocab.Le32(r.off, 4*int(id)):vocab.Le32(r.off, 4*int(id)+4)]
}

// rank returns the rank of the token b, or noRank.
func (r *ranks) rank(b string) uint32 {
	if len(b) == 1 {
		return r.bytes[b[0]]
	}
	return r.lookup(b)
}

func (r *ranks) lookup(b string) uint32 { return r.lookupHashed(b, vocab.Hash(b)) }

// lookupHashed is lookup of b whose vocab.Hash is h.
func (r *ranks) lookupHashed(b string, h uint64) uint32 {
	h &= r.mask
	for {
		s := vocab.Le32(r.slots, 4*int(h))
		if s == 0 {
			return noRank
		}
		if r.token(s-1) == b {
			return s - 1
		}
		h = (h + 1) & r.mask
	}
}

// part is a boundary of a piece during the merge: the offset where a
// part starts and the rank of the token that merging it with the next
// part would make.
type part struct {
	start int32
	rank  uint32
}

// scanLimit is the piece length up to which merge scans for the lowest
// rank (quadratic, but with no heap); longer pieces use mergeLong.
const scanLimit = 128

// merge byte-pair encodes piece as tiktoken does: while some pair of
// adjacent parts is a token, merge the pair of lowest rank, the leftmost
// among equals. It appends the ranks of the resulting tokens to ids when
// ids is not nil, and returns their number.
func (r *ranks) merge(piece string, ids *[]uint32) int {
	if id := r.rank(piece); id != noRank {
		if ids != nil {
			*ids = append(*ids, id)
		}
		return 1
	}
	return r.mergeParts(piece, ids)
}

// mergeParts is merge of a piece that is not a token (of more than one
// byte).
func (r *ranks) mergeParts(piece string, ids *[]uint32) int {
	if len(piece) > scanLimit {
		return r.mergeLong(piece, ids)
	}
	var buf [scanLimit + 1]part
	parts := buf[:len(piece)+1]
	for i := range parts {
		parts[i] = part{int32(i), noRank}
	}
	rankAt := func(i int) uint32 {
		if i+2 < len(parts) {
			return r.rank(piece[parts[i].start:parts[i+2].start])
		}
		return noRank
	}
	for i := 0; i+2 < len(parts); i++ {
		parts[i].rank = rankAt(i)
	}
	for len(parts) > 2 {
		low, at := uint32(noRank), -1
		for i, p := range parts[:len(parts)-2] {
			if p.rank < low {
				low, at = p.rank, i
			}
		}
		if at < 0 {
			break
		}
		parts = append(parts[:at+1], parts[at+2:]...)
		parts[at].rank = rankAt(at)
		if at > 0 {
			parts[at-1].rank = rankAt(at - 1)
		}
	}
	if ids != nil {
		for i := 0; i+1 < len(parts); i++ {
			*ids = append(*ids, r.rank(piece[parts[i].start:parts[i+1].start]))
		}
	}
	return len(parts) - 1
}

// node is a part in mergeLong's linked list: rank is that of merging it
// with the next part, noRank also for a part merged away.
type node struct {
	next, prev int32
	rank       uint32
}

// candidate is a pending merge in mergeLong's heap.
type candidate struct {
	rank  uint32
	start int32
}

// mergeLong is merge in O(n log n) for long pieces: the same merges in
// the same order, found with a heap ordered by rank, then start, whose
// stale entries (a part since merged or re-ranked) are skipped.
func (r *ranks) mergeLong(piece string, ids *[]uint32) int {
	n := int32(len(piece))
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{next: int32(i) + 1, prev: int32(i) - 1, rank: noRank}
	}
	nodes[n].next = -1
	rankAt := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 || nodes[j].next < 0 {
			return noRank
		}
		return r.rank(piece[i:nodes[j].next])
	}
	h := make(heap, 0, n)
	for i := int32(0); i+2 <= n; i++ {
		if nodes[i].rank = rankAt(i); nodes[i].rank != noRank {
			h = append(h, candidate{nodes[i].rank, i})
		}
	}
	h.init()
	count := int(n)
	for len(h) > 0 {
		c := h.pop()
		i := c.start
		if nodes[i].rank != c.rank {
			continue
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		count--
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			if nodes[b].rank = rankAt(b); nodes[b].rank != noRank {
				h.push(candidate{nodes[b].rank, b})
			}
		}
	}
	if ids != nil {
		for i := int32(0); nodes[i].next >= 0; i = nodes[i].next {
			*ids = append(*ids, r.rank(piece[i:nodes[i].next]))
		}
	}
	return count
}

// heap is a binary min-heap of candidates by rank, then start.
type heap []candidate

func (h heap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].start < h[b].start
}

func (h heap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *heap) push(c candidate) {
	*h = append(*h, c)
	for i := len(*h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		(*h)[i], (*h)[p] = (*h)[p], (*h)[i]
		i = p
	}
}

func (h *heap) pop() candidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h heap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
