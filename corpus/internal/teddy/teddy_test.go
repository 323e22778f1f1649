package teddy

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// naive is the reference: the leftmost offset where a literal of lits
// occurs in s (ignoring ASCII case with fold), or -1.
func naive(s []byte, lits []string, fold bool) int {
	for i := range s {
		for _, l := range lits {
			if i+len(l) > len(s) {
				continue
			}
			w := s[i : i+len(l)]
			if string(w) == l || fold && asciiFold(w) == asciiFold([]byte(l)) {
				return i
			}
		}
	}
	return -1
}

// asciiFold lower-cases the ASCII letters of b, leaving other bytes (not
// strings.ToLower, which folds Unicode and rewrites invalid UTF-8).
func asciiFold(b []byte) string {
	out := bytes.Clone(b)
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return string(out)
}

// modes are the scans under test: the vector one where the CPU has it,
// and the portable one always.
func modes() []bool {
	if useAVX2 {
		return []bool{true, false}
	}
	return []bool{false}
}

// all returns every occurrence, stepping one byte past each.
func all(t *Set, s []byte, avx bool) []int {
	var out []int
	for from := 0; from <= len(s); {
		j := t.index(s[from:], avx)
		if j < 0 {
			break
		}
		out = append(out, from+j)
		from += j + 1
	}
	return out
}

func allNaive(s []byte, lits []string, fold bool) []int {
	var out []int
	for from := 0; from <= len(s); {
		j := naive(s[from:], lits, fold)
		if j < 0 {
			break
		}
		out = append(out, from+j)
		from += j + 1
	}
	return out
}

func TestIndex(t *testing.T) {
	long := strings.Repeat("the quick brown fox ", 10)
	cases := []struct {
		s    string
		lits []string
		fold bool
	}{
		{"", []string{"a"}, false},
		{"a", []string{"a"}, false},
		{"ab", []string{"abc"}, false},
		{long + "model x", []string{"model ", "window "}, false},
		{long + "MoDeL x" + long + "WINDOW ", []string{"model ", "window "}, true},
		{long + "MoDeL x", []string{"model "}, false},
		{long + "xx", []string{"x", "yy", "zzz"}, false},
		{long + "zz" + long, []string{"zz", "q"}, false},
		{strings.Repeat("ab", 40) + "abc", []string{"abc", "bca"}, false},
		{long + "\xe2\x84\xaa", []string{"k"}, true}, // KELVIN SIGN is not ASCII k
		{long + "CAFÉ Café café", []string{"café", "\u212aelvin"}, true},
		{long + "\u212aELVIN", []string{"café", "\u212aelvin"}, true},
		{long[:33] + "ok", []string{"ok"}, false},
		{long[:32] + "ok", []string{"ok"}, false},
		{long[:31] + "ok", []string{"ok"}, false},
		{"a1b2c3d4e5f6g7h8", []string{"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}, false},
	}
	for _, c := range cases {
		set, ok := New(c.lits, c.fold)
		if !ok {
			t.Fatalf("New(%q) failed", c.lits)
		}
		want := allNaive([]byte(c.s), c.lits, c.fold)
		for _, avx := range modes() {
			if got := all(set, []byte(c.s), avx); !equal(got, want) {
				t.Errorf("%q in %q (fold %v, avx %v) = %v, want %v", c.lits, c.s, c.fold, avx, got, want)
			}
		}
	}
}

func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		lits []string
		fold bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, false},
	} {
		if _, ok := New(c.lits, c.fold); ok {
			t.Errorf("New(%q, %v) ok, want refused", c.lits, c.fold)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRandom checks Index against the plain scan on random texts over a
// small alphabet (so literals occur often, at every alignment).
func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alpha := "abcAB \nxyz\xc3\xa9"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	for range 3000 {
		var lits []string
		for range 1 + rng.IntN(MaxLits) {
			lits = append(lits, word(1+rng.IntN(5)))
		}
		fold := rng.IntN(2) == 0
		s := []byte(word(rng.IntN(300)))
		set, ok := New(lits, fold)
		if !ok {
			t.Fatalf("New(%q) failed", lits)
		}
		want := allNaive(s, lits, fold)
		for _, avx := range modes() {
			if got := all(set, s, avx); !equal(got, want) {
				t.Fatalf("%q in %q (fold %v, avx %v) = %v, want %v", lits, s, fold, avx, got, want)
			}
		}
	}
}

func FuzzIndex(f *testing.F) {
	f.Add("the model x window y", "model ", "window ", true)
	f.Add(strings.Repeat("ab", 30)+"abc", "abc", "c", false)
	f.Add("KkK\xe2\x84\xaa", "k", "kk", true)
	f.Fuzz(func(t *testing.T, s, a, b string, fold bool) {
		lits := []string{a, b}
		set, ok := New(lits, fold)
		if !ok {
			return
		}
		if fold {
			for i := range lits {
				lits[i] = asciiFold([]byte(lits[i]))
			}
		}
		want := allNaive([]byte(s), lits, fold)
		for _, avx := range modes() {
			if got := all(set, []byte(s), avx); !equal(got, want) {
				t.Fatalf("%q in %q (fold %v, avx %v) = %v, want %v", lits, s, fold, avx, got, want)
			}
		}
	})
}

func BenchmarkIndex(b *testing.B) {
	text := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog, again and again\n", 1<<14))
	set, _ := New([]string{"model ", "window "}, true)
	for _, avx := range modes() {
		name := "generic"
		if avx {
			name = "avx2"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if set.index(text, avx) >= 0 {
					b.Fatal("found")
				}
			}
		})
	}
}
