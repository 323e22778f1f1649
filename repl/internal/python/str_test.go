package python

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// TestStrSize keeps a Str in the 32-byte size class.
func TestStrSize(t *testing.T) {
	if n := unsafe.Sizeof(Str{}); n > 32 {
		t.Fatalf("Str is %d bytes, want at most 32", n)
	}
}

// TestStrFactsConcurrent has goroutines learn the facts of shared strs at
// once (run with -race): each must see the same length, ASCII-ness, hash,
// identity and offsets.
func TestStrFactsConcurrent(t *testing.T) {
	texts := []string{"plain ascii text", "josé and zoë, naïve", "\xff\xfeinvalid", "", strings.Repeat("long ascii ", 10)}
	for _, text := range texts {
		s := &Str{s: text}
		wantLen := utf8.RuneCountInString(text)
		const workers = 8
		var wg sync.WaitGroup
		ids := make([]uint64, workers)
		hashes := make([]int64, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if w%2 == 0 {
					_ = s.IsASCII()
				}
				if n := s.Len(); n != wantLen {
					t.Errorf("%q: Len %d, want %d", text, n, wantLen)
				}
				if n := s.knownLen(); n != int64(wantLen) {
					t.Errorf("%q: knownLen %d, want %d", text, n, wantLen)
				}
				if wantLen > 0 {
					if off := s.byteOffset(wantLen); off != len(text) {
						t.Errorf("%q: byteOffset(%d) = %d", text, wantLen, off)
					}
				}
				hashes[w] = s.Hash()
				ids[w] = s.ident()
			}()
		}
		wg.Wait()
		for w := 1; w < workers; w++ {
			if ids[w] != ids[0] || hashes[w] != hashes[0] {
				t.Errorf("%q: worker %d saw id %d hash %d, worker 0 id %d hash %d", text, w, ids[w], hashes[w], ids[0], hashes[0])
			}
		}
		if h := hashStr(text, isASCII(text)); hashes[0] != h || s.Hash() != h {
			t.Errorf("%q: Hash %d, again %d, want %d", text, hashes[0], s.Hash(), h)
		}
		if got := s.IsASCII(); got != isASCII(text) {
			t.Errorf("%q: IsASCII %v", text, got)
		}
	}
}

// TestStrSearchWithoutIndex: find, rfind, index, rindex and count over the
// whole of a non-ASCII str search its bytes and build no index, with the
// answers an index gives (the same call with start=0 uses one).
func TestStrSearchWithoutIndex(t *testing.T) {
	Setup()
	texts := []string{"josé and zoë, josé again", "ab\u00e9ab\u00e9", "日本語のテキスト日本", "\xff\xfeinvalid é"}
	subs := []string{"josé", "é", "ab", "日本", "", "missing", "\xff", "\ufffd", "n"}
	for _, text := range texts {
		for _, sub := range subs {
			for _, name := range []string{"find", "rfind", "index", "rindex", "count"} {
				m, ok := StrType.dict.GetStr(name)
				if !ok {
					t.Fatalf("no str.%s", name)
				}
				fn := m.(*Builtin).fn
				s := NewStr(text)
				if s.IsASCII() {
					t.Fatalf("%q is ASCII", text)
				}
				got, gerr := fn(nil, []Object{s, NewStr(sub)}, nil)
				if e := s.ext.Load(); e != nil && e.idx.Load() != nil {
					t.Errorf("%q.%s(%q) built an index", text, name, sub)
				}
				indexed := NewStr(text)
				_ = indexed.index()
				want, werr := fn(nil, []Object{indexed, NewStr(sub), MakeInt(0)}, nil)
				if (gerr == nil) != (werr == nil) || (gerr == nil && got != want) {
					t.Errorf("%q.%s(%q) = %v, %v; with an index %v, %v", text, name, sub, got, gerr, want, werr)
				}
			}
		}
	}
}
