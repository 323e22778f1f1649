// Package bpe links OpenAI's BPE token encodings (cl100k_base and
// o200k_base) into a program, so that rlm counts tokens exactly for the
// models that use them: budget admission (the worst case of a request),
// usage a server did not report, and the prompt compiler's packing.
// Import it for its side effect, as the rlm command does:
//
//	import _ "github.com/rlm-go/rlm/bpe"
//
// Without it those counts are an estimate (tokens.Estimator: at or above
// the exact count on the tests' corpus, usually 30-130% above it, but not
// a proof), and the program is about 6.5 MB smaller (the tables).
//
// The encodings are the rank tables of OpenAI's published files
// (bpe/tables, written by bpe/internal/gentables from the copies that
// github.com/tiktoken-go/tokenizer compiles in), a pre-tokenizer written
// for the two split patterns without a regular expression engine
// (split.go), and the byte-pair merge over the ranks. The token ids equal
// tiktoken's on the tests' corpus (bpe/testdata). Invalid UTF-8 is
// counted as one U+FFFD per invalid byte, as a JSON encoder sends it.
// The tables carry their hash index precomputed (bpe/internal/vocab), so
// an encoding's first use builds nothing (a quarter of a millisecond,
// where tiktoken-go built a map of 200,000 strings); nothing is
// downloaded at run time, and an encoding is safe for concurrent use.
package bpe

import (
	_ "embed"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/bpe/internal/vocab"
	"github.com/rlm-go/rlm/internal/tokens"
)

var (
	//go:embed tables/cl100k_base.ranks
	cl100kRanks string
	//go:embed tables/o200k_base.ranks
	o200kRanks string
)

func init() {
	tokens.Register(&encoding{name: tokens.Cl100kBase, ranks: &ranks{data: cl100kRanks}, next: nextCl100k, known: &knownCl100k})
	tokens.Register(&encoding{name: tokens.O200kBase, ranks: &ranks{data: o200kRanks}, next: nextO200k, known: &knownO200k})
}

// encoding is an exact counter over one embedded encoding.
type encoding struct {
	name  string
	ranks *ranks
	next  func(s string, i int) int // the pre-tokenizer: the end of the piece at i
	known *knownPieces
}

// Count returns the exact BPE token count of text.
func (e *encoding) Count(text string) int {
	return e.encode(text, nil)
}

// encode counts text's tokens, appending their ids to ids when it is not
// nil.
func (e *encoding) encode(text string, ids *[]uint32) int {
	if text == "" {
		return 0
	}
	if !utf8.ValidString(text) {
		text = validUTF8(text)
	}
	e.ranks.load()
	n := 0
	for i := 0; i < len(text); {
		j := e.next(text, i)
		n += e.piece(text[i:j], ids)
		i = j
	}
	return n
}

// piece counts the tokens of one piece of the pre-tokenizer, appending
// their ids to ids when it is not nil. A count alone is first looked up
// in the encoding's known pieces (those of rlm's built-in prompts), a
// small table that a fresh process reads in a few pages, where counting
// a piece probes the 4 MB rank table at scattered places.
func (e *encoding) piece(p string, ids *[]uint32) int {
	if ids != nil || len(p) == 1 {
		return e.ranks.merge(p, ids)
	}
	h := vocab.Hash(p)
	if n, ok := e.known.count(p, h); ok {
		return n
	}
	if e.ranks.lookupHashed(p, h) != noRank {
		return 1
	}
	return e.ranks.mergeParts(p, nil)
}

// validUTF8 replaces each byte of s that does not start a valid UTF-8
// sequence with U+FFFD, as converting s to runes does (and so as the
// reference pre-tokenizer and encoding/json do).
func validUTF8(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

func (e *encoding) Method() string   { return tokens.MethodExact }
func (e *encoding) Encoding() string { return e.name }
