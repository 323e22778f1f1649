package bpe

import (
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/rlm-go/rlm/bpe/internal/uclass"
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
