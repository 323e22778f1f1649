package find

import (
	"bytes"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/corpus/internal/textgen"
)

// naive is the reference: the first offset where pat occurs in s.
func naive(s, pat []byte) int {
	for i := 0; i+len(pat) <= len(s); i++ {
		if string(s[i:i+len(pat)]) == string(pat) {
			return i
		}
	}
	return -1
}

// count counts non-overlapping occurrences with index.
func count(s []byte, n int, index func([]byte) int) int {
	c := 0
	for {
		i := index(s)
		if i < 0 {
			return c
		}
		c++
		s = s[i+n:]
	}
}

func TestIndex(t *testing.T) {
	cases := []struct{ s, pat, sample string }{
		{"", "a", ""},
		{"a", "a", ""},
		{"abc", "abcd", ""},
		{"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxy", "xy", "xxxx"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "aab", "a"},
		{"the cat the hat", "the", ""},
		{"ééé€", "€", ""},
		{"zzzz", "zz", ""},
		{"abababababababababababababababababababababababababababababababac", "abac", "ab"},
	}
	for _, tc := range cases {
		f := New([]byte(tc.pat), []byte(tc.sample))
		if got, want := f.Index([]byte(tc.s)), naive([]byte(tc.s), []byte(tc.pat)); got != want {
			t.Errorf("Index(%q, %q) = %d, want %d", tc.s, tc.pat, got, want)
		}
	}
}

func FuzzIndex(f *testing.F) {
	f.Add([]byte("alpha beta gamma"), []byte("eta"), []byte("alpha"))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"), []byte("ab"), []byte(""))
	f.Add([]byte("x\xffy\x00\xff"), []byte("\xff"), []byte("\xff\xff"))
	f.Add([]byte("héllo wörld ö"), []byte("ö"), []byte("ö"))
	f.Add([]byte("ZyZzYvA zyzzyva ZYZZYVA"), []byte("zyzZYVA"), []byte("z"))
	f.Add([]byte("a1A1"), []byte("A1"), []byte(""))
	f.Add([]byte("MoDeL model MODEL mOdEl"), []byte("model"), []byte("mmmm"))
	f.Fuzz(func(t *testing.T, s, pat, sample []byte) {
		if len(pat) == 0 {
			return
		}
		fd := New(pat, sample)
		if got, want := fd.Index(s), naive(s, pat); got != want {
			t.Fatalf("Index = %d, want %d", got, want)
		}
		if got, want := count(s, len(pat), fd.Index), count(s, len(pat), func(b []byte) int { return naive(b, pat) }); got != want {
			t.Fatalf("count = %d, want %d", got, want)
		}
		if got, want := cursorCount(fd, s), count(s, len(pat), func(b []byte) int { return naive(b, pat) }); got != want {
			t.Fatalf("cursor count = %d, want %d", got, want)
		}
		if !isASCII(pat) {
			return
		}
		ff := NewFold(pat, sample)
		lower, ls := asciiLower(pat), asciiLower(s)
		if got, want := ff.Index(s), naive(ls, lower); got != want {
			t.Fatalf("fold Index = %d, want %d", got, want)
		}
		if got, want := count(s, len(pat), ff.Index), count(ls, len(pat), func(b []byte) int { return naive(b, lower) }); got != want {
			t.Fatalf("fold count = %d, want %d", got, want)
		}
		if got, want := cursorCount(ff, s), count(ls, len(pat), func(b []byte) int { return naive(b, lower) }); got != want {
			t.Fatalf("fold cursor count = %d, want %d", got, want)
		}
	})
}

// cursorCount counts non-overlapping occurrences with a Cursor over s.
func cursorCount(f *Finder, s []byte) int {
	c, n := f.Cursor(s), 0
	for i := c.Next(0); i >= 0; i = c.Next(i + len(f.Needle())) {
		n++
	}
	return n
}

func TestCursorFold(t *testing.T) {
	// One case of the rare byte absent, the other on every line: counted
	// exactly (and, with the cursor, in one pass per case).
	s := bytes.Repeat([]byte("a MODEL b\n"), 1000)
	f := NewFold([]byte("model"), nil)
	if got := cursorCount(f, s); got != 1000 {
		t.Fatalf("cursor count = %d, want 1000", got)
	}
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = LowerASCII(c)
	}
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

var text = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if err := textgen.Generate(&b, 64<<20, 1); err != nil {
		panic(err)
	}
	return b.Bytes()
})

func benchCount(b *testing.B, pat string, index func(s, pat []byte) func([]byte) int) {
	s := text()
	idx := index(s, []byte(pat))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		count(s, len(pat), idx)
	}
}

var needles = []string{textgen.Needle, "context", "the", "Größe", "zyzzyvas"}

func BenchmarkFinder(b *testing.B) {
	for _, p := range needles {
		b.Run(p, func(b *testing.B) {
			benchCount(b, p, func(s, pat []byte) func([]byte) int { return New(pat, s[:64<<10]).Index })
		})
	}
}

func BenchmarkBytesIndex(b *testing.B) {
	for _, p := range needles {
		b.Run(p, func(b *testing.B) {
			benchCount(b, p, func(s, pat []byte) func([]byte) int {
				return func(x []byte) int { return bytes.Index(x, pat) }
			})
		})
	}
}
