// Package uclass holds the character classes that the cl100k_base and
// o200k_base split patterns test, as bits of one byte, computed from Go's
// unicode tables (the tables the reference pre-tokenizer,
// github.com/tiktoken-go/tokenizer's regexp2 pattern, tests too).
package uclass

import "unicode"

// Class bits of a rune.
const (
	L  = 1 << iota // \p{L}
	N              // \p{N}
	S              // \s: unicode.IsSpace (Unicode White_Space)
	NL             // \r or \n
	U              // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] (o200k_base's upper-case part)
	W              // [\p{Ll}\p{Lm}\p{Lo}\p{M}] (o200k_base's lower-case part)
)

// Of returns the class bits of r.
func Of(r rune) uint8 {
	var c uint8
	if unicode.In(r, unicode.L) {
		c |= L
	}
	if unicode.In(r, unicode.N) {
		c |= N
	}
	if unicode.IsSpace(r) {
		c |= S
	}
	if r == '\r' || r == '\n' {
		c |= NL
	}
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= U
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= W
	}
	return c
}
