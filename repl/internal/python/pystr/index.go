package pystr

import (
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Opt is an optional int argument that Python allows to be None, such as
// the start and end of str.find or the parts of a slice. Its zero value is
// None.
type Opt struct {
	v  int
	ok bool
}

// None is the Opt for Python's None (an omitted argument).
var None Opt

// Int returns the Opt holding v.
func Int(v int) Opt { return Opt{v, true} }

// IsNone reports whether o is None.
func (o Opt) IsNone() bool { return !o.ok }

// Value returns o's int, and whether o is not None.
func (o Opt) Value() (int, bool) { return o.v, o.ok }

// indexStride is the number of code points between two checkpoints of an
// Index.
const indexStride = 64

// Index maps the code points of a string to its bytes. Build it once per
// string with NewIndex (the interpreter caches it); for an ASCII string it
// holds nothing but the string, for others a checkpoint (a byte offset)
// every 64 code points: 4 bytes per 64 code points, 8 for strings of 4 GiB
// or more. Offsets of code points then cost O(1) plus a walk of at most 63
// code points; the reverse, O(log n) plus that walk.
//
// The zero Index is the index of "". An Index is immutable and safe for
// concurrent use.
type Index struct {
	s      string
	n      int // length in code points
	ascii  bool
	valid  bool     // valid UTF-8: code points can be skipped by their lead bytes
	offs   []uint32 // offs[k]: byte offset of code point k*indexStride
	offs64 []int    // instead of offs, for strings of 4 GiB or more
	// scan is set for a temporary index without checkpoints, used by the
	// package-level functions: offsets are found by walking the string.
	scan bool
}

// NewIndex returns the index of s. Building it reads s once; for non-ASCII
// text it allocates 4 bytes per 64 code points.
func NewIndex(s string) *Index {
	x := new(Index)
	x.init(s)
	return x
}

func (x *Index) init(s string) {
	x.s = s
	if IsASCII(s) {
		x.n, x.ascii = len(s), true
		return
	}
	x.build(s)
}

// build makes the checkpoints of s (of any content).
func (x *Index) build(s string) {
	x.s = s
	x.valid = utf8.ValidString(s)
	if x.valid && len(s) <= math.MaxUint32 {
		x.buildValid(s)
		return
	}
	n := utf8.RuneCountInString(s)
	x.n = n
	k := n/indexStride + 1
	if len(s) <= math.MaxUint32 {
		x.offs = make([]uint32, 0, k)
		c := 0
		for i := range s {
			if c%indexStride == 0 {
				x.offs = append(x.offs, uint32(i))
			}
			c++
		}
		return
	}
	x.offs64 = make([]int, 0, k)
	c := 0
	for i := range s {
		if c%indexStride == 0 {
			x.offs64 = append(x.offs64, i)
		}
		c++
	}
}

// buildValid makes the checkpoints of valid UTF-8 s, shorter than 4 GiB,
// counting the lead bytes of 8 bytes at a time.
func (x *Index) buildValid(s string) {
	n := countValid(s, 0, len(s))
	x.n = n
	offs := make([]uint32, 0, n/indexStride+1)
	c, next := 0, 0 // code points before byte i; the next checkpoint's
	i := 0
	for ; i+8 <= len(s); i += 8 {
		leads := 8 - bits.OnesCount64(contBytes(load64(s, i)))
		if c+leads <= next {
			c += leads
			continue
		}
		// Checkpoint next begins in this word (one at most: a word
		// holds at most 8 code points).
		for j := i; j < i+8; j++ {
			if s[j]&0xC0 != 0x80 {
				if c == next {
					offs = append(offs, uint32(j))
					next += indexStride
				}
				c++
			}
		}
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			if c == next {
				offs = append(offs, uint32(i))
				next += indexStride
			}
			c++
		}
	}
	if len(offs) == 0 {
		offs = append(offs, 0)
	}
	x.offs = offs
}

// contBytes returns the top bits of the continuation bytes (10xxxxxx) of
// the 8 bytes of w.
func contBytes(w uint64) uint64 { return w &^ (w << 1) & 0x8080808080808080 }

// countValid counts the code points of valid UTF-8 s[from:to]: its bytes
// that are not continuation bytes.
func countValid(s string, from, to int) int {
	n := 0
	i := from
	for ; i+8 <= to; i += 8 {
		n += 8 - bits.OnesCount64(contBytes(load64(s, i)))
	}
	for ; i < to; i++ {
		if s[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// ASCIIIndex returns the Index of s, which the caller knows to be ASCII:
// it holds only the string, so it costs nothing to build.
func ASCIIIndex(s string) Index { return Index{s: s, n: len(s), ascii: true} }

// scanIndex returns an Index of s without checkpoints, for one operation.
func scanIndex(s string) Index {
	if IsASCII(s) {
		return Index{s: s, n: len(s), ascii: true}
	}
	return ScanIndex(s, utf8.RuneCountInString(s))
}

// ScanIndex returns an Index without checkpoints of s, a non-ASCII string
// n code points long, for one operation: it finds offsets by walking s,
// so a search of the whole of s reads it once and builds nothing, where
// NewIndex would read it to build its checkpoints first.
func ScanIndex(s string, n int) Index { return Index{s: s, n: n, scan: true} }

// skipF, skipB and count are skipForward, skipBackward and countForward,
// faster for valid UTF-8.
func (x *Index) skipF(b, k int) int {
	if !x.valid {
		return skipForward(x.s, b, k)
	}
	// Whole words while they hold no more than k lead bytes, then byte
	// by byte to the lead byte of the code point k after b.
	s := x.s
	for b+8 <= len(s) {
		leads := 8 - bits.OnesCount64(contBytes(load64(s, b)))
		if leads > k {
			break
		}
		b += 8
		k -= leads
	}
	for ; b < len(s); b++ {
		if s[b]&0xC0 != 0x80 {
			if k == 0 {
				return b
			}
			k--
		}
	}
	return len(s)
}

func (x *Index) skipB(b, k int) int {
	if !x.valid {
		return skipBackward(x.s, b, k)
	}
	s := x.s
	for ; k > 0 && b > 0; k-- {
		b--
		for b > 0 && s[b]&0xC0 == 0x80 {
			b--
		}
	}
	return b
}

func (x *Index) count(from, to int) int {
	if !x.valid {
		return countForward(x.s, from, to)
	}
	return countValid(x.s, from, to)
}

// String returns the indexed string.
func (x *Index) String() string { return x.s }

// Len returns the length of the string in code points.
func (x *Index) Len() int { return x.n }

// IsASCII reports whether the string is ASCII.
func (x *Index) IsASCII() bool { return x.ascii }

// checkpoint returns the byte offset of code point k*indexStride.
func (x *Index) checkpoint(k int) int {
	if x.offs != nil {
		return int(x.offs[k])
	}
	return x.offs64[k]
}

func (x *Index) checkpoints() int {
	if x.offs != nil {
		return len(x.offs)
	}
	return len(x.offs64)
}

// ByteOffset returns the byte offset of code point i, clamped to [0, Len()];
// ByteOffset(Len()) is the length of the string in bytes.
func (x *Index) ByteOffset(i int) int {
	if i <= 0 {
		return 0
	}
	if i >= x.n {
		return len(x.s)
	}
	if x.ascii {
		return i
	}
	if x.scan {
		if i <= x.n/2 {
			return skipForward(x.s, 0, i)
		}
		return skipBackward(x.s, len(x.s), x.n-i)
	}
	return x.skipF(x.checkpoint(i/indexStride), i%indexStride)
}

// skipForward returns the byte offset k code points after byte offset b.
func skipForward(s string, b, k int) int {
	for ; k > 0 && b < len(s); k-- {
		if s[b] < utf8.RuneSelf {
			b++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[b:])
		b += size
	}
	return b
}

// skipBackward returns the byte offset k code points before byte offset b.
func skipBackward(s string, b, k int) int {
	for ; k > 0 && b > 0; k-- {
		if s[b-1] < utf8.RuneSelf {
			b--
			continue
		}
		_, size := utf8.DecodeLastRuneInString(s[:b])
		b -= size
	}
	return b
}

// ByteRange returns the byte offsets of code points i and j, clamped.
func (x *Index) ByteRange(i, j int) (int, int) {
	bi := x.ByteOffset(i)
	if x.ascii || x.scan || j <= i || j-i > indexStride {
		return bi, x.ByteOffset(j)
	}
	return bi, x.skipF(bi, j-i)
}

// CodePointOffset returns the number of code points that begin before byte
// offset b: the code-point offset of b when b begins a code point.
func (x *Index) CodePointOffset(b int) int {
	if b <= 0 {
		return 0
	}
	if b >= len(x.s) {
		return x.n
	}
	if x.ascii {
		return b
	}
	if x.scan {
		if b <= len(x.s)/2 || !startsCodePoint(x.s, b) {
			return countForward(x.s, 0, b)
		}
		return x.n - countForward(x.s, b, len(x.s))
	}
	// The last checkpoint at or before b.
	lo, hi := 0, x.checkpoints()
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if x.checkpoint(m) <= b {
			lo = m
		} else {
			hi = m
		}
	}
	return lo*indexStride + x.count(x.checkpoint(lo), b)
}

// countForward counts the code points that begin in s[from:to], decoding
// from from.
func countForward(s string, from, to int) int {
	c := 0
	for b := from; b < to; c++ {
		if s[b] < utf8.RuneSelf {
			b++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[b:])
		b += size
	}
	return c
}

// startsCodePoint reports whether a code point begins at byte b of s, as
// Go decodes s from its start.
func startsCodePoint(s string, b int) bool {
	if b <= 0 || b >= len(s) || utf8.RuneStart(s[b]) {
		return true
	}
	// b is a continuation byte: it begins a code point unless a valid
	// sequence that begins at most 3 bytes before covers it.
	for k := 1; k <= 3 && b-k >= 0; k++ {
		if utf8.RuneStart(s[b-k]) {
			r, size := utf8.DecodeRuneInString(s[b-k:])
			return (r == utf8.RuneError && size == 1) || size <= k
		}
	}
	return true
}

// At returns code point i, 0 <= i < Len(); U+FFFD for an invalid byte.
// It returns -1 when i is out of range.
func (x *Index) At(i int) rune {
	if i < 0 || i >= x.n {
		return -1
	}
	if x.ascii {
		return rune(x.s[i])
	}
	r, _ := utf8.DecodeRuneInString(x.s[x.ByteOffset(i):])
	return r
}

// Substr returns code points [i, j) of the string, i and j clamped to
// [0, Len()]; "" when j <= i.
func (x *Index) Substr(i, j int) string {
	i, j = clamp(i, x.n), clamp(j, x.n)
	if j <= i {
		return ""
	}
	bi, bj := x.ByteRange(i, j)
	return x.s[bi:bj]
}

func clamp(i, n int) int {
	if i < 0 {
		return 0
	}
	if i > n {
		return n
	}
	return i
}

// GetItem returns s[i] as Python: i may be negative; IndexError "string
// index out of range" when out of range. An invalid byte reads as "\ufffd".
func (x *Index) GetItem(i int) (string, error) {
	if i < 0 {
		i += x.n
	}
	if i < 0 || i >= x.n {
		return "", &Error{"IndexError", "string index out of range"}
	}
	if x.ascii {
		return x.s[i : i+1], nil
	}
	b := x.ByteOffset(i)
	r, size := utf8.DecodeRuneInString(x.s[b:])
	if r == utf8.RuneError && size == 1 {
		return "\uFFFD", nil
	}
	return x.s[b : b+size], nil
}

// GetItem returns s[i] as Python (see Index.GetItem); it reads s from the
// nearer end.
func GetItem(s string, i int) (string, error) {
	x := scanIndex(s)
	return x.GetItem(i)
}

// SliceIndices returns what Python's slice(start, stop, step).indices(length)
// returns, and the slice's length: the number of items of
// range(start, stop, step). It returns ValueError "slice step cannot be
// zero" for a zero step. length must not be negative.
func SliceIndices(start, stop, step Opt, length int) (lo, hi, st, n int, err error) {
	st = 1
	if step.ok {
		st = step.v
		if st == 0 {
			return 0, 0, 0, 0, valueError("slice step cannot be zero")
		}
		if st < -maxInt {
			st = -maxInt
		}
	}
	// Defaults, then PySlice_AdjustIndices.
	if !start.ok {
		if st < 0 {
			lo = length - 1
		} else {
			lo = 0
		}
	} else {
		lo = start.v
		if lo < 0 {
			lo += length
			if lo < 0 {
				if st < 0 {
					lo = -1
				} else {
					lo = 0
				}
			}
		} else if lo >= length {
			if st < 0 {
				lo = length - 1
			} else {
				lo = length
			}
		}
	}
	if !stop.ok {
		if st < 0 {
			hi = -1
		} else {
			hi = length
		}
	} else {
		hi = stop.v
		if hi < 0 {
			hi += length
			if hi < 0 {
				if st < 0 {
					hi = -1
				} else {
					hi = 0
				}
			}
		} else if hi >= length {
			if st < 0 {
				hi = length - 1
			} else {
				hi = length
			}
		}
	}
	if st < 0 {
		if hi < lo {
			n = (lo-hi-1)/(-st) + 1
		}
	} else if lo < hi {
		n = (hi-lo-1)/st + 1
	}
	// slice.indices reports a stop of None with a negative step as -1
	// even for an empty sequence: the computation above does the same.
	return lo, hi, st, n, nil
}

// Slice returns s[start:stop:step] as Python.
func (x *Index) Slice(start, stop, step Opt) (string, error) {
	lo, hi, st, n, err := SliceIndices(start, stop, step, x.n)
	if err != nil {
		return "", err
	}
	if n == 0 {
		return "", nil
	}
	if st == 1 {
		return x.Substr(lo, hi), nil
	}
	if x.ascii {
		b := make([]byte, n)
		for k, i := 0, lo; k < n; k, i = k+1, i+st {
			b[k] = x.s[i]
		}
		return bytesString(b), nil
	}
	var sb strings.Builder
	if st > 0 {
		bi := x.ByteOffset(lo)
		bend := x.ByteOffset(lo + (n-1)*st + 1)
		sb.Grow(bend - bi)
		for k := 0; k < n; k++ {
			if k > 0 {
				if st > indexStride && !x.scan {
					bi = x.ByteOffset(lo + k*st)
				} else {
					bi = x.skipF(bi, st)
				}
			}
			writeCodePoint(&sb, x.s, bi)
		}
		return sb.String(), nil
	}
	last := lo + (n-1)*st // the last (lowest) code point taken
	bi := x.ByteOffset(lo)
	sb.Grow(x.ByteOffset(lo+1) - x.ByteOffset(last))
	for k := 0; k < n; k++ {
		if k > 0 {
			if -st > indexStride && !x.scan {
				bi = x.ByteOffset(lo + k*st)
			} else {
				bi = x.skipB(bi, -st)
			}
		}
		writeCodePoint(&sb, x.s, bi)
	}
	return sb.String(), nil
}

// writeCodePoint writes the code point at byte b of s, U+FFFD for an
// invalid byte.
func writeCodePoint(sb *strings.Builder, s string, b int) {
	if s[b] < utf8.RuneSelf {
		sb.WriteByte(s[b])
		return
	}
	r, size := utf8.DecodeRuneInString(s[b:])
	if r == utf8.RuneError && size == 1 {
		sb.WriteString("\uFFFD")
		return
	}
	sb.WriteString(s[b : b+size])
}

// Slice returns s[start:stop:step] as Python, without an Index.
func Slice(s string, start, stop, step Opt) (string, error) {
	x := scanIndex(s)
	return x.Slice(start, stop, step)
}
