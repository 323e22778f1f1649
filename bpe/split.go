package bpe

import (
	_ "embed"
	"unicode/utf8"

	"github.com/rlm-go/rlm/bpe/internal/uclass"
)

// The pre-tokenizers below cut text into the pieces that the BPE merge
// then encodes one by one, exactly as the split patterns of OpenAI's
// encodings do. The patterns are those of tiktoken's
// tiktoken_ext/openai_public.py (github.com/openai/tiktoken), which
// github.com/tiktoken-go/tokenizer compiles with regexp2:
//
//	cl100k_base: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
//	o200k_base:  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	            |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	            |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// A backtracking engine tries the alternatives in order at each position
// and takes the first that matches, each quantifier greedy but giving
// back characters when what follows fails; the functions below compute
// that same first match directly, in one forward pass over the piece.
// (?i) folds s to S and to U+017F (ſ), as both regexp2 and the Rust
// regex crate under tiktoken do. \s is Unicode White_Space. Classes come
// from Go's unicode tables (Unicode 15.0 in Go 1.26), as regexp2's do.

//go:embed tables/bmp.class
var bmpClass string

// class returns the class bits and width of the rune at s[i].
func class(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return bmpClass[c], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if r < 0x10000 {
		return bmpClass[r], w
	}
	return uclass.Of(r), w
}

// isPunct reports whether c is in [^\s\p{L}\p{N}].
func isPunct(c uint8) bool { return c&(uclass.S|uclass.L|uclass.N) == 0 }

// isPrefix reports whether c is in [^\r\n\p{L}\p{N}].
func isPrefix(c uint8) bool { return c&(uclass.NL|uclass.L|uclass.N) == 0 }

// run returns the end of the run of runes from i whose class has a bit of
// want.
func run(s string, i int, want uint8) int {
	for i < len(s) {
		c, w := class(s, i)
		if c&want == 0 {
			break
		}
		i += w
	}
	return i
}

// contraction returns the length of the contraction suffix
// (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i], or 0.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return 0
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return 3
		}
	}
	if s[i+1] == 0xc5 && i+2 < len(s) && s[i+2] == 0xbf { // U+017F folds to s
		return 3
	}
	return 0
}

// digits returns the end of \p{N}{1,3} at i, whose rune is a number.
func digits(s string, i, w int) int {
	j := i + w
	for k := 1; k < 3 && j < len(s); k++ {
		c, w := class(s, j)
		if c&uclass.N == 0 {
			break
		}
		j += w
	}
	return j
}

// punct returns the end of " ?[^\s\p{L}\p{N}]+[\r\n]*" at i (with '/' in
// the trailing class when slash is set), or -1.
func punct(s string, i int, c0 uint8, w0 int, slash bool) int {
	p := -1
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := class(s, i+1); isPunct(c1) {
			p = i + 1
		}
	}
	if p < 0 && isPunct(c0) {
		p = i
	}
	if p < 0 {
		return -1
	}
	j := p
	for j < len(s) {
		c, w := class(s, j)
		if !isPunct(c) {
			break
		}
		j += w
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || slash && s[j] == '/') {
		j++
	}
	return j
}

// space returns the end of "\s*[\r\n]+|\s+(?!\S)|\s+" at i, whose rune is
// white space.
func space(s string, i int) int {
	j, last, nl := i, i, -1
	for j < len(s) {
		c, w := class(s, j)
		if c&uclass.S == 0 {
			break
		}
		if c&uclass.NL != 0 {
			nl = j + 1
		}
		last = j
		j += w
	}
	switch {
	case nl >= 0: // \s*[\r\n]+ ends after the run's last newline
		return nl
	case j == len(s), last == i: // \s+(?!\S) at the end, or \s+
		return j
	}
	return last // \s+(?!\S): the last space goes with what follows
}

// nextCl100k returns the end of the cl100k_base piece that starts at i.
func nextCl100k(s string, i int) int {
	if n := contraction(s, i); n > 0 {
		return i + n
	}
	c0, w0 := class(s, i)
	if isPrefix(c0) && i+w0 < len(s) {
		if c1, _ := class(s, i+w0); c1&uclass.L != 0 {
			return run(s, i+w0, uclass.L)
		}
	}
	switch {
	case c0&uclass.L != 0:
		return run(s, i, uclass.L)
	case c0&uclass.N != 0:
		return digits(s, i, w0)
	}
	if j := punct(s, i, c0, w0, false); j >= 0 {
		return j
	}
	return space(s, i)
}

// nextO200k returns the end of the o200k_base piece that starts at i.
func nextO200k(s string, i int) int {
	c0, w0 := class(s, i)
	pre := isPrefix(c0) && i+w0 < len(s)
	j := -1
	if pre {
		j = upperLower(s, i+w0)
	}
	if j < 0 {
		j = upperLower(s, i)
	}
	if j < 0 && pre {
		j = upperThenLower(s, i+w0)
	}
	if j < 0 {
		j = upperThenLower(s, i)
	}
	if j >= 0 {
		return j + contraction(s, j)
	}
	if c0&uclass.N != 0 {
		return digits(s, i, w0)
	}
	if j := punct(s, i, c0, w0, true); j >= 0 {
		return j
	}
	return space(s, i)
}

// upperLower returns the end of "U*W+" at p (U and W the class bits of
// o200k_base's upper- and lower-case parts, which overlap), or -1.
// U* is greedy and gives back runes until W+ can match: W+ runs on from
// the end of the U run when a W rune follows it, and otherwise is the
// last rune of the U run that is also a W rune.
func upperLower(s string, p int) int {
	q, lastW := p, -1
	for q < len(s) {
		c, w := class(s, q)
		if c&uclass.U == 0 {
			if c&uclass.W != 0 {
				return run(s, q, uclass.W)
			}
			break
		}
		q += w
		if c&uclass.W != 0 {
			lastW = q
		}
	}
	return lastW
}

// upperThenLower returns the end of "U+W*" at p, or -1.
func upperThenLower(s string, p int) int {
	q := run(s, p, uclass.U)
	if q == p {
		return -1
	}
	return run(s, q, uclass.W)
}
