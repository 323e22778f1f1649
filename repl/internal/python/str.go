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
// learns lazily (ASCII-ness, length, index, hash, identity) are published
// atomically; each is a pure function of the text (the identity: the first
// published wins), so racing writers store equal values.
//
// A Str is 32 bytes (a size class): the facts most strs never need (the
// identity, the index, the concatenation buffer, the hash of a long or
// non-ASCII str) live behind ext, allocated on first use. Dicts index str
// keys by their text, so only sets, tuples and hash() ask for a str's
// hash.
type Str struct {
	s    string
	meta uint64 // facts learned, only ever added (atomic): see strMeta
	ext  atomic.Pointer[strExt]
}

// strExt holds a str's rarely needed facts.
type strExt struct {
	identity
	idx  atomic.Pointer[pystr.Index]
	buf  *strBuffer // set before the str is published (strConcat)
	hash int64      // 0 until cached; a computed 0 is held as -1 (atomic)
}

// Bits of Str.meta. Facts are added with atomic OR: each is a pure
// function of the text, so racing writers add the same bits.
const (
	metaASCII    = 1 // every code point is below 128 (the length is len(s))
	metaNonASCII = 2 // some code point is not
	metaLen      = 4 // the length in code points is meta >> metaLenShift
	metaLenShift = 3
)

// strMeta returns the meta of a str of n code points (n < 0: not counted)
// whose ASCII-ness is ascii (0 unknown, 1 ASCII, 2 not ASCII).
func strMeta(n int64, ascii int32) uint64 {
	var m uint64
	switch ascii {
	case 1:
		return metaASCII
	case 2:
		m = metaNonASCII
	}
	if n >= 0 {
		m |= metaLen | uint64(n)<<metaLenShift
	}
	return m
}

// asciiState returns the str's known ASCII-ness: 0 unknown, 1 ASCII, 2
// not ASCII.
func (s *Str) asciiState() int32 {
	return int32(atomic.LoadUint64(&s.meta) & (metaASCII | metaNonASCII))
}

// extension returns the str's extension, allocating it on first use.
func (s *Str) extension() *strExt {
	if x := s.ext.Load(); x != nil {
		return x
	}
	x := &strExt{}
	if s.ext.CompareAndSwap(nil, x) {
		return x
	}
	return s.ext.Load()
}

// ident gives the str its identity (id()).
func (s *Str) ident() uint64 { return s.extension().ident() }

// buffer returns the concatenation buffer the str was built in, if any.
func (s *Str) buffer() *strBuffer {
	if x := s.ext.Load(); x != nil {
		return x.buf
	}
	return nil
}

// Type returns str.
func (*Str) Type() *Type { return StrType }

var asciiChars [128]*Str

var emptyStr = &Str{s: "", meta: metaASCII}

func init() {
	for i := range asciiChars {
		asciiChars[i] = &Str{s: string(rune(i)), meta: metaASCII}
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
	return &Str{s: s}
}

// newASCII returns a str known to be ASCII.
func newASCII(s string) *Str {
	if len(s) == 1 {
		return asciiChars[s[0]]
	}
	if len(s) == 0 {
		return emptyStr
	}
	return &Str{s: s, meta: metaASCII}
}

// String returns the Go string.
func (s *Str) String() string { return s.s }

// IsASCII reports whether every code point is below 128.
func (s *Str) IsASCII() bool {
	m := atomic.LoadUint64(&s.meta)
	if m&(metaASCII|metaNonASCII) == 0 {
		add := uint64(metaNonASCII)
		if pystr.IsASCII(s.s) {
			add = metaASCII
		}
		m = atomic.OrUint64(&s.meta, add) | add
	}
	return m&metaASCII != 0
}

// index returns the string's code-point index (non-ASCII strings).
func (s *Str) index() *pystr.Index {
	e := s.extension()
	x := e.idx.Load()
	if x == nil {
		x = pystr.NewIndex(s.s)
		s.setLen(int64(x.Len()))
		e.idx.Store(x)
	}
	return x
}

// setLen records the length in code points.
func (s *Str) setLen(n int64) {
	atomic.OrUint64(&s.meta, metaLen|uint64(n)<<metaLenShift)
}

// knownLen returns the length in code points if already counted, else -1.
func (s *Str) knownLen() int64 {
	m := atomic.LoadUint64(&s.meta)
	switch {
	case m&metaASCII != 0:
		return int64(len(s.s))
	case m&metaLen != 0:
		return int64(m >> metaLenShift)
	}
	return -1
}

// Len returns the length in code points.
func (s *Str) Len() int {
	if n := s.knownLen(); n >= 0 {
		return int(n)
	}
	if s.IsASCII() {
		return len(s.s)
	}
	n := utf8.RuneCountInString(s.s)
	s.setLen(int64(n))
	return n
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
	return &Str{s: s.s[off : off+w], meta: strMeta(1, 2)}
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
	return &Str{s: s.s[a:b], meta: strMeta(int64(j-i), 0)}
}

// Runes calls f for each code point.
func (s *Str) Runes(f func(r rune) bool) {
	for _, r := range s.s {
		if !f(r) {
			return
		}
	}
}

// hashCacheMin is the length from which an ASCII str caches its hash
// (in its extension); a shorter one hashes again, cheaper than the
// extension. A non-ASCII str always caches it (hashing one allocates).
const hashCacheMin = 64

// Hash returns hash(s).
func (s *Str) Hash() int64 {
	e := s.ext.Load()
	if e != nil {
		if h := atomic.LoadInt64(&e.hash); h != 0 {
			if h == -1 {
				return 0
			}
			return h
		}
	}
	ascii := s.IsASCII()
	h := hashStr(s.s, ascii)
	if e == nil && ascii && len(s.s) < hashCacheMin {
		return h
	}
	c := h
	if c == 0 {
		c = -1 // never a str hash (CPython maps -1 to -2)
	}
	atomic.StoreInt64(&s.extension().hash, c)
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
	r := &Str{}
	if buf := a.buffer(); buf != nil && len(buf.b) == len(a.s) {
		// a is the latest str built in its buffer: append in place
		// (amortised O(len(b)), as CPython's s += x).
		buf.b = append(buf.b, b.s...)
		r.s = unsafe.String(&buf.b[0], len(buf.b))
		r.ext.Store(&strExt{buf: buf})
	} else if n := len(a.s) + len(b.s); n >= concatBufferMin {
		buf := &strBuffer{b: make([]byte, 0, n+n/4+16)}
		buf.b = append(append(buf.b, a.s...), b.s...)
		r.s = unsafe.String(&buf.b[0], n)
		r.ext.Store(&strExt{buf: buf})
	} else {
		r.s = a.s + b.s
	}
	if an, bn := a.knownLen(), b.knownLen(); an >= 0 && bn >= 0 {
		var ascii int32
		if a.asciiState() == 1 && b.asciiState() == 1 {
			ascii = 1
		}
		r.meta = strMeta(an+bn, ascii)
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
	r := &Str{s: strings.Repeat(s.s, int(n))}
	if sn := s.knownLen(); sn >= 0 {
		r.meta = strMeta(sn*n, s.asciiState())
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
	return &Str{s: string(out), meta: strMeta(int64(n), 0)}
}

// unsafeBytes views a string's bytes without copying; the caller must not
// modify them.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

func isASCII(s string) bool { return pystr.IsASCII(s) }

// searchIndex returns the index a search of s[start:end] goes through:
// s's own, built on first use, except for a search of the whole of a
// non-ASCII s that has not built one, which walks s once without
// building it (pystr.ScanIndex): cheaper for a str only searched whole,
// a slice of the context counted in, say.
func (s *Str) searchIndex(start, end pystr.Opt) pystr.Index {
	if s.IsASCII() {
		return pystr.ASCIIIndex(s.s)
	}
	if start.IsNone() && end.IsNone() {
		if e := s.ext.Load(); e == nil || e.idx.Load() == nil {
			return pystr.ScanIndex(s.s, s.Len())
		}
	}
	return *s.index()
}
