package python

import (
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// Str is a Python str: a sequence of code points, held as UTF-8. Lengths,
// indexes and offsets are in code points. ASCII strings take fast paths;
// others build, on first positional use, a pystr.Index (a byte offset every
// 64 code points). Each byte of invalid UTF-8 counts as one code point,
// U+FFFD.
//
// A str may be shared by interpreters running on different goroutines (the
// names and docs of built-in types, one-character strings), so the facts it
// learns lazily (ASCII-ness, length, index, hash) are published atomically;
// each is a pure function of the text, so racing writers store equal values.
type Str struct {
	identity
	s     string
	n     int64 // code points; -1 until counted (atomic)
	ascii int32 // 0 unknown, 1 ASCII, 2 not ASCII (atomic)
	hash  int64 // 0 until computed; a computed 0 is held as -1 (atomic)
	idx   atomic.Pointer[pystr.Index]
	buf   *strBuffer // set for strs built by concatenation (strConcat)
}

// Type returns str.
func (*Str) Type() *Type { return StrType }

var asciiChars [128]*Str

var emptyStr = &Str{s: "", n: 0, ascii: 1}

func init() {
	for i := range asciiChars {
		asciiChars[i] = &Str{s: string(rune(i)), n: 1, ascii: 1}
	}
}

// NewStr returns s as a str.
func NewStr(s string) *Str {
	switch len(s) {
	case 0:
		return emptyStr
	case 1:
		if s[0] < 128 {
			return asciiChars[s[0]]
		}
	}
	return &Str{s: s, n: -1}
}

// newASCII returns a str known to be ASCII.
func newASCII(s string) *Str {
	if len(s) == 1 {
		return asciiChars[s[0]]
	}
	if len(s) == 0 {
		return emptyStr
	}
	return &Str{s: s, n: int64(len(s)), ascii: 1}
}

// String returns the Go string.
func (s *Str) String() string { return s.s }

// IsASCII reports whether every code point is below 128.
func (s *Str) IsASCII() bool {
	a := atomic.LoadInt32(&s.ascii)
	if a == 0 {
		a = 2
		if pystr.IsASCII(s.s) {
			a = 1
			atomic.StoreInt64(&s.n, int64(len(s.s)))
		}
		atomic.StoreInt32(&s.ascii, a)
	}
	return a == 1
}

// index returns the string's code-point index (non-ASCII strings).
func (s *Str) index() *pystr.Index {
	x := s.idx.Load()
	if x == nil {
		x = pystr.NewIndex(s.s)
		atomic.StoreInt64(&s.n, int64(x.Len()))
		s.idx.Store(x)
	}
	return x
}

// knownLen returns the length in code points if already counted, else -1.
func (s *Str) knownLen() int64 { return atomic.LoadInt64(&s.n) }

// Len returns the length in code points.
func (s *Str) Len() int {
	n := atomic.LoadInt64(&s.n)
	if n < 0 {
		if s.IsASCII() {
			return len(s.s)
		}
		n = int64(utf8.RuneCountInString(s.s))
		atomic.StoreInt64(&s.n, n)
	}
	return int(n)
}

// byteOffset returns the byte offset of code point i (0 <= i <= Len).
func (s *Str) byteOffset(i int) int {
	if s.IsASCII() {
		return i
	}
	return s.index().ByteOffset(i)
}

// cpOffset converts a byte offset (at a code point boundary) to code points.
func (s *Str) cpOffset(b int) int {
	if s.IsASCII() {
		return b
	}
	return s.index().CodePointOffset(b)
}

// At returns code point i as a str.
func (s *Str) At(i int) *Str {
	if s.IsASCII() {
		return asciiChars[s.s[i]]
	}
	off := s.byteOffset(i)
	r, w := utf8.DecodeRuneInString(s.s[off:])
	if r < 0x80 {
		return asciiChars[r]
	}
	if r == utf8.RuneError && w == 1 {
		return NewStr("\uFFFD")
	}
	return &Str{s: s.s[off : off+w], n: 1, ascii: 2}
}

// Slice returns code points [i, j) (0 <= i <= j <= Len).
func (s *Str) Slice(i, j int) *Str {
	if i >= j {
		return emptyStr
	}
	if s.IsASCII() {
		return newASCII(s.s[i:j])
	}
	a, b := s.index().ByteRange(i, j)
	return &Str{s: s.s[a:b], n: int64(j - i)}
}

// Runes calls f for each code point.
func (s *Str) Runes(f func(r rune) bool) {
	for _, r := range s.s {
		if !f(r) {
			return
		}
	}
}

// Hash returns hash(s).
func (s *Str) Hash() int64 {
	h := atomic.LoadInt64(&s.hash)
	if h == 0 {
		h = hashStr(s.s, s.IsASCII())
		if h == 0 {
			h = -1 // never a str hash (CPython maps -1 to -2)
		}
		atomic.StoreInt64(&s.hash, h)
	}
	if h == -1 {
		return 0
	}
	return h
}

// strBuffer is the growable storage of strs built by concatenation. Its
// bytes [0, len(b)) are those of the latest str built in it; earlier strs
// are prefixes, never modified (appends write past them), so a loop of
// s += x reuses the buffer instead of copying s each time.
type strBuffer struct{ b []byte }

// concatBufferMin is the length from which a concatenation gets a buffer.
const concatBufferMin = 64

// Concat returns a + b.
func strConcat(t *Thread, a, b *Str) (*Str, error) {
	if a.s == "" {
		return b, nil
	}
	if b.s == "" {
		return a, nil
	}
	if err := t.grow(int64(len(a.s) + len(b.s))); err != nil {
		return nil, err
	}
	r := &Str{n: -1}
	if buf := a.buf; buf != nil && len(buf.b) == len(a.s) {
		// a is the latest str built in its buffer: append in place
		// (amortised O(len(b)), as CPython's s += x).
		buf.b = append(buf.b, b.s...)
		r.s, r.buf = unsafe.String(&buf.b[0], len(buf.b)), buf
	} else if n := len(a.s) + len(b.s); n >= concatBufferMin {
		buf := &strBuffer{b: make([]byte, 0, n+n/4+16)}
		buf.b = append(append(buf.b, a.s...), b.s...)
		r.s, r.buf = unsafe.String(&buf.b[0], n), buf
	} else {
		r.s = a.s + b.s
	}
	if an, bn := a.knownLen(), b.knownLen(); an >= 0 && bn >= 0 {
		r.n = an + bn
		if atomic.LoadInt32(&a.ascii) == 1 && atomic.LoadInt32(&b.ascii) == 1 {
			r.ascii = 1
		}
	}
	return r, nil
}

// strRepeat returns s * n.
func strRepeat(t *Thread, s *Str, n int64) (*Str, error) {
	if n <= 0 || s.s == "" {
		return emptyStr, nil
	}
	if int64(len(s.s)) > (1<<62)/n {
		return nil, t.grow(1 << 62)
	}
	if err := t.grow(int64(len(s.s)) * n); err != nil {
		return nil, err
	}
	r := &Str{s: strings.Repeat(s.s, int(n)), n: -1}
	if sn := s.knownLen(); sn >= 0 {
		r.n = sn * n
		r.ascii = atomic.LoadInt32(&s.ascii)
	}
	return r, nil
}

// strStep returns s[start:stop:step] for a normalized slice.
func strStep(s *Str, start, step, n int) *Str {
	if n <= 0 {
		return emptyStr
	}
	if s.IsASCII() {
		b := make([]byte, n)
		for k := 0; k < n; k++ {
			b[k] = s.s[start+k*step]
		}
		return newASCII(string(b))
	}
	x := s.index()
	out := make([]rune, n)
	for k := 0; k < n; k++ {
		out[k] = x.At(start + k*step)
	}
	return &Str{s: string(out), n: int64(n)}
}

// unsafeBytes views a string's bytes without copying; the caller must not
// modify them.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

func isASCII(s string) bool { return pystr.IsASCII(s) }

// searchIndex returns the index searches use: the string's own (built
// once) for non-ASCII text, a free one for ASCII.
func (s *Str) searchIndex() *pystr.Index {
	if s.IsASCII() && s.idx.Load() == nil {
		s.idx.Store(pystr.NewIndex(s.s)) // holds only the string for ASCII text
	}
	return s.index()
}
