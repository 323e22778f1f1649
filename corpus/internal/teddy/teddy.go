// Package teddy finds the leftmost occurrence of any of a few literals
// (at most 8, optionally ignoring ASCII case) in a byte string, after the
// "Teddy" multi-literal search of Intel's Hyperscan as later used by
// ripgrep (the algorithm is public; this is an independent
// implementation): each literal is a bucket, one bit of a byte; for each
// of the first m bytes of the literals (m = 1 to 3, at most the shortest
// literal's length) two 16-entry tables map a byte's low and high nibble
// to the buckets whose literals may hold that nibble there. A position
// whose m bytes' table entries, ANDed together, leave a bucket bit set is
// a candidate, checked against that bucket's literal.
//
// On amd64 with AVX2 the candidates are found 32 positions at a time
// with VPSHUFB (teddy_amd64.s); elsewhere, and for the last few bytes
// of a string, by the same tables one position at a time. Candidates
// are only a filter: Index returns the same offsets either way, which
// the tests check against a plain scan.
package teddy

import (
	"bytes"

	"github.com/rlm-go/rlm/corpus/internal/find"
)

// MaxLits is the largest number of literals a Set holds.
const MaxLits = 8

// fingerprint is the most leading bytes of a literal the tables look at.
const fingerprint = 3

// Set finds occurrences of its literals. It is immutable and safe for
// concurrent use.
type Set struct {
	lits [][]byte // lower-case ASCII when fold
	fold bool
	m    int // bytes of each literal the tables look at
	// tab holds, for k < fingerprint, the low-nibble table of byte k
	// (tab[2k]) and its high-nibble table (tab[2k+1]), each 16 bytes
	// repeated in both 128-bit lanes for VPSHUFB. Tables of k >= m are
	// all ones (any byte).
	tab [2 * fingerprint][32]byte
}

// New returns a Set finding lits (1 to MaxLits literals, none empty);
// with fold the literals match ignoring ASCII case (an ASCII letter in
// either case, any other byte exactly). ok is false when lits cannot be
// used.
func New(lits []string, fold bool) (*Set, bool) {
	if len(lits) == 0 || len(lits) > MaxLits {
		return nil, false
	}
	t := &Set{fold: fold, m: fingerprint}
	for _, l := range lits {
		if l == "" {
			return nil, false
		}
		b := []byte(l)
		if fold {
			for i, c := range b {
				b[i] = find.LowerASCII(c)
			}
		}
		t.lits = append(t.lits, b)
		t.m = min(t.m, len(b))
	}
	for k := range fingerprint {
		if k >= t.m {
			for i := range t.tab[2*k] {
				t.tab[2*k][i], t.tab[2*k+1][i] = 0xff, 0xff
			}
			continue
		}
		for bucket, l := range t.lits {
			bit := byte(1) << bucket
			cs := []byte{l[k]}
			if fold && find.UpperASCII(l[k]) != l[k] {
				cs = append(cs, find.UpperASCII(l[k]))
			}
			for _, c := range cs {
				t.tab[2*k][c&15] |= bit
				t.tab[2*k][16+c&15] |= bit
				t.tab[2*k+1][c>>4] |= bit
				t.tab[2*k+1][16+c>>4] |= bit
			}
		}
	}
	return t, true
}

// buckets returns the bucket bits of the candidate at s[j:] (j+m <=
// len(s)).
func (t *Set) buckets(s []byte, j int) byte {
	b := byte(0xff)
	for k := range t.m {
		c := s[j+k]
		b &= t.tab[2*k][c&15] & t.tab[2*k+1][c>>4]
	}
	return b
}

// verify reports whether a literal of the buckets b occurs at s[j:].
func (t *Set) verify(s []byte, j int, b byte) bool {
	for ; b != 0; b &= b - 1 {
		l := t.lits[trailingZeros8(b)]
		if j+len(l) > len(s) {
			continue
		}
		if !t.fold {
			if bytes.Equal(s[j:j+len(l)], l) {
				return true
			}
			continue
		}
		if equalFold(s[j:j+len(l)], l) {
			return true
		}
	}
	return false
}

func trailingZeros8(b byte) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

// equalFold reports whether b equals lo, lower-case ASCII, ignoring ASCII
// case.
func equalFold(b, lo []byte) bool {
	for i, c := range lo {
		if find.LowerASCII(b[i]) != c {
			return false
		}
	}
	return true
}

// Index returns the offset of the leftmost occurrence of a literal of t
// in s, or -1.
func (t *Set) Index(s []byte) int {
	return t.index(s, useAVX2)
}

// index is Index, with the vector scan or (avx false) without it.
func (t *Set) index(s []byte, avx bool) int {
	last := len(s) - t.m // last position a literal can start
	for i := 0; i <= last; {
		j := -1
		if avx && len(s)-i >= vectorMin {
			var next int
			j, next = scanAVX2(s[i:], &t.tab)
			if j < 0 {
				i += next
				continue
			}
			j += i
		} else {
			j = t.scanGeneric(s, i, last)
			if j < 0 {
				return -1
			}
		}
		if b := t.buckets(s, j); b != 0 && t.verify(s, j, b) {
			return j
		}
		i = j + 1
	}
	return -1
}

// scanGeneric returns the first candidate at or after i and at or before
// last, or -1.
func (t *Set) scanGeneric(s []byte, i, last int) int {
	for ; i <= last; i++ {
		if t.buckets(s, i) != 0 {
			return i
		}
	}
	return -1
}

// Vector reports whether Index runs the vector scan on this machine (a
// caller may prefer another search where it does not).
func Vector() bool { return useAVX2 }
