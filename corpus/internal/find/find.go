// Package find searches byte strings for a fixed needle (optionally ASCII
// case-insensitively) faster than a plain first-byte scan: it looks for the needle's rarest byte with the
// vectorized bytes.IndexByte, checks a second rare byte, then the whole
// needle. Which bytes are rare is learnt from a sample of the haystack
// (a byte histogram), with a fixed ranking of typical text for bytes the
// sample does not decide. When the chosen byte turns out to be common in
// the haystack (many false candidates per byte scanned), the search falls
// back to bytes.Index for the rest of that call.
package find

import "bytes"

// Finder finds one needle. It is immutable and safe for concurrent use.
type Finder struct {
	pat    []byte
	r1, r2 int  // offsets in pat of the rarest and second rarest byte
	b1, b2 byte // pat[r1], pat[r2]
	// fold: pat is lower-case ASCII matched ASCII case-insensitively; u1
	// is the upper-case form of b1 (b1 itself if not a letter).
	fold bool
	u1   byte
}

// NewFold returns a Finder that matches pat ignoring ASCII case: a byte
// of the haystack matches an ASCII letter of pat in either case, and any
// other byte of pat (a byte of a multi-byte character included) exactly. Its rare byte is the letter (or other byte) of pat whose two cases
// are least frequent in sample together.
func NewFold(pat, sample []byte) *Finder { return NewFoldHist(pat, Histogram(sample)) }

// Hist counts each byte value of a sample.
type Hist [256]int

// Histogram returns the byte histogram of sample.
func Histogram(sample []byte) *Hist {
	var h Hist
	for _, c := range sample {
		h[c]++
	}
	return &h
}

// NewFoldHist is NewFold with the sample's histogram (Histogram), which
// a caller searching one text many times can keep.
func NewFoldHist(pat []byte, h *Hist) *Finder {
	lower := make([]byte, len(pat)) // not bytes.ToLower: it folds Unicode
	for i, c := range pat {
		lower[i] = LowerASCII(c)
	}
	var hist [256]int
	for c, n := range h {
		hist[LowerASCII(byte(c))] += n
	}
	cost := func(c byte) int { return hist[c]*256 + int(min(rank[c], rank[UpperASCII(c)])) }
	f := &Finder{pat: lower, fold: true}
	for i := 1; i < len(lower); i++ {
		if cost(lower[i]) < cost(lower[f.r1]) {
			f.r1 = i
		}
	}
	f.b1, f.u1 = lower[f.r1], UpperASCII(lower[f.r1])
	return f
}

// LowerASCII is c with an ASCII upper-case letter lowered; every other
// byte is itself.
func LowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// UpperASCII is c with an ASCII lower-case letter raised; every other
// byte is itself.
func UpperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// indexFold is Index for a fold Finder.
func (f *Finder) indexFold(s []byte) int {
	c := f.Cursor(s)
	return c.Next(0)
}

// Cursor finds successive occurrences of a Finder's needle in one
// haystack, from offsets that never decrease. For a fold Finder it keeps
// the next occurrence of each case of the rare byte between calls, so
// that a case absent from the haystack is looked for once, not once per
// call (which would make a scan for many occurrences quadratic).
type Cursor struct {
	f      *Finder
	s      []byte
	lo, up int // next occurrences of b1 and u1 in s (-1: none; -2: not looked for)
}

// Cursor returns a Cursor over s.
func (f *Finder) Cursor(s []byte) Cursor {
	c := Cursor{f: f, s: s, lo: -2, up: -2}
	if f.u1 == f.b1 {
		c.up = -1
	}
	return c
}

// Next returns the offset of the first occurrence of the needle at or
// after from, or -1. from must not be less than in the previous call.
func (c *Cursor) Next(from int) int {
	f, s := c.f, c.s
	if from > len(s) {
		return -1
	}
	if !f.fold {
		if i := f.Index(s[from:]); i >= 0 {
			return from + i
		}
		return -1
	}
	n := len(f.pat)
	if n > len(s) {
		return -1
	}
	last := len(s) - n
	end := last + f.r1 + 1 // the rare byte of a candidate lies before end
	// next finds b at or after at, as an offset in s, or -1.
	next := func(b byte, at int) int {
		if at >= end {
			return -1
		}
		if j := bytes.IndexByte(s[at:end], b); j >= 0 {
			return at + j
		}
		return -1
	}
	for i := from; i <= last; {
		at := i + f.r1
		if c.lo != -1 && c.lo < at {
			c.lo = next(f.b1, at)
		}
		if c.up != -1 && c.up < at {
			c.up = next(f.u1, at)
		}
		p := c.lo
		if p < 0 || c.up >= 0 && c.up < p {
			p = c.up
		}
		if p < 0 {
			return -1
		}
		k := p - f.r1
		if equalFold(s[k:k+n], f.pat) {
			return k
		}
		i = k + 1
	}
	return -1
}

// equalFold reports whether b equals lower, lower-case ASCII, ignoring
// ASCII case.
func equalFold(b, lower []byte) bool {
	for i, c := range lower {
		if LowerASCII(b[i]) != c {
			return false
		}
	}
	return true
}

// New returns a Finder for pat (not empty), choosing its rare bytes by
// their frequency in sample (may be empty). pat is not copied.
func New(pat, sample []byte) *Finder { return NewHist(pat, Histogram(sample)) }

// NewHist is New with the sample's histogram (Histogram).
func NewHist(pat []byte, hist *Hist) *Finder {
	// cost orders bytes by sample frequency, then by the fixed rank.
	cost := func(c byte) int { return hist[c]*256 + int(rank[c]) }
	f := &Finder{pat: pat}
	for i := 1; i < len(pat); i++ {
		if cost(pat[i]) < cost(pat[f.r1]) {
			f.r1 = i
		}
	}
	f.r2 = -1
	for i := range pat {
		if i != f.r1 && pat[i] != pat[f.r1] && (f.r2 < 0 || cost(pat[i]) < cost(pat[f.r2])) {
			f.r2 = i
		}
	}
	if f.r2 < 0 { // every byte equal to pat[r1]
		f.r2 = f.r1
	}
	f.b1, f.b2 = pat[f.r1], pat[f.r2]
	return f
}

// Needle returns the needle.
func (f *Finder) Needle() []byte { return f.pat }

// Index returns the offset of the first occurrence of the needle in s, or -1.
func (f *Finder) Index(s []byte) int {
	n := len(f.pat)
	switch {
	case f.fold:
		return f.indexFold(s)
	case n == 1:
		return bytes.IndexByte(s, f.b1)
	case n > len(s):
		return -1
	}
	last := len(s) - n // last possible start
	fails := 0
	for i := 0; i <= last; {
		j := bytes.IndexByte(s[i+f.r1:last+f.r1+1], f.b1)
		if j < 0 {
			return -1
		}
		c := i + j // candidate start
		if s[c+f.r2] == f.b2 && bytes.Equal(s[c:c+n], f.pat) {
			return c
		}
		i = c + 1
		fails++
		// Each false candidate costs a call; when they come more often
		// than one per 32 bytes, a brute-force vector search is faster.
		if fails > 8 && fails > i>>5 {
			if k := bytes.Index(s[i:], f.pat); k >= 0 {
				return i + k
			}
			return -1
		}
	}
	return -1
}

// rank orders bytes from common (0) to rare (255) in typical text: space,
// lower-case letters by English frequency, then upper case, digits and
// punctuation, bytes of multi-byte UTF-8 characters, and control bytes
// other than newline and tab last.
var rank = func() (r [256]byte) {
	order := " etaoinsrhldcumfpgwybvk\n.,ETAOINSRHLDCUMFPGWYBVK0123456789-_\"'/:=()\t;xjqzXJQZ<>[]{}*&#%!?+@$|\\^`~"
	next := 0
	seen := [256]bool{}
	for i := 0; i < len(order); i++ {
		r[order[i]] = byte(next)
		seen[order[i]] = true
		next++
	}
	// UTF-8 continuation and lead bytes, then the rest.
	for _, rng := range [][2]int{{0x80, 0xBF}, {0xC2, 0xF4}, {0, 0xFF}} {
		for c := rng[0]; c <= rng[1]; c++ {
			if !seen[c] {
				r[c] = byte(min(next, 255))
				seen[c] = true
				next++
			}
		}
	}
	return r
}()
