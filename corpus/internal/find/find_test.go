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
	})
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = lowerASCII(c)
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
