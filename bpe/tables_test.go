package bpe

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/rlm-go/rlm/bpe/internal/uclass"
	"github.com/rlm-go/rlm/bpe/internal/vocab"
)

// TestClassTable holds tables/bmp.class to Go's unicode tables: a Go
// release with a new Unicode version fails here until go generate is run.
func TestClassTable(t *testing.T) {
	for r := range rune(0x10000) {
		if got, want := bmpClass[r], uclass.Of(r); got != want {
			t.Fatalf("class of U+%04X = %06b, want %06b: run go generate ./bpe", r, got, want)
		}
	}
}

// TestRanksMatchTiktokenGo holds the embedded rank tables to the
// encodings they were generated from, id by id.
func TestRanksMatchTiktokenGo(t *testing.T) {
	for _, tt := range []struct {
		data string
		enc  tokenizer.Encoding
	}{{cl100kRanks, tokenizer.Cl100kBase}, {o200kRanks, tokenizer.O200kBase}} {
		ref, err := tokenizer.Get(tt.enc)
		if err != nil {
			t.Fatal(err)
		}
		r := &ranks{data: tt.data}
		r.load()
		n := r.n
		for id := range n {
			tok := r.token(uint32(id))
			want, err := ref.Decode([]uint{uint(id)})
			if err != nil || tok != want {
				t.Fatalf("%s: token %d = %q, want %q (%v)", tt.enc, id, tok, want, err)
			}
			if got := r.rank(tok); got != uint32(id) {
				t.Fatalf("%s: rank(%q) = %d, want %d", tt.enc, tok, got, id)
			}
		}
		if _, err := ref.Decode([]uint{uint(n)}); err == nil {
			t.Errorf("%s: the table stops at %d tokens, the encoding has more", tt.enc, n)
		}
		if got := r.rank("not a token, surely not"); got != noRank {
			t.Errorf("%s: rank of a non-token = %d", tt.enc, got)
		}
	}
}

// BenchmarkFirstUse measures what an encoding's first use costs: building
// the hash index over the embedded table, then counting a short text.
func BenchmarkFirstUse(b *testing.B) {
	for _, tt := range []struct {
		name string
		data string
		next func(string, int) int
	}{{"cl100k_base", cl100kRanks, nextCl100k}, {"o200k_base", o200kRanks, nextO200k}} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				e := &encoding{name: tt.name, ranks: &ranks{data: tt.data}, next: tt.next}
				if e.Count("hello world") != 2 {
					b.Fatal("miscounted")
				}
			}
		})
	}
}

// TestByteRanks holds the single-byte ranks that load reads from the
// start of a table (byteRanks) to the hash index's answers, for the
// embedded tables (their 256 single bytes come first) and for a small
// table where two bytes come late and one is missing (the fallback).
func TestByteRanks(t *testing.T) {
	late := []string{"ab", "b", "a", "abc"} // "a" and "b" after a longer token
	for i := range 256 {
		if c := byte(i); c != 'a' && c != 'b' && c != 'z' {
			late = append(late, string([]byte{c}))
		}
	}
	for _, tt := range []struct {
		name string
		data string
	}{{"cl100k_base", cl100kRanks}, {"o200k_base", o200kRanks}, {"late bytes", table(late)}} {
		r := &ranks{data: tt.data}
		r.load()
		for i := range r.bytes {
			if got, want := r.bytes[i], r.lookup(string([]byte{byte(i)})); got != want {
				t.Errorf("%s: rank of byte %#02x = %d, the index says %d", tt.name, i, got, want)
			}
		}
	}
	r := &ranks{data: table(late)}
	r.load()
	if r.bytes['a'] != 2 || r.bytes['b'] != 1 || r.bytes['z'] != noRank {
		t.Errorf("late bytes: a %d, b %d, z %d; want 2, 1 and no rank", r.bytes['a'], r.bytes['b'], r.bytes['z'])
	}
}

// table lays toks out as package vocab describes, ranks in order.
func table(toks []string) string {
	le := func(b []byte, v int) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }
	slots := 1
	for slots < 2*len(toks) {
		slots <<= 1
	}
	index := make([]int, slots)
	for id, t := range toks {
		h := vocab.Hash(t) & uint64(slots-1)
		for index[h] != 0 {
			h = (h + 1) & uint64(slots-1)
		}
		index[h] = id + 1
	}
	b := le(le(nil, len(toks)), slots)
	off := 0
	for _, t := range toks {
		b = le(b, off)
		off += len(t)
	}
	b = le(b, off)
	for _, s := range index {
		b = le(b, s)
	}
	return string(b) + strings.Join(toks, "")
}
