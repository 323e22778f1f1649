package prompt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes drops longer tokens (hashes, base64) from lexical matching.
const maxTokenBytes = 64

// tokenize calls fn for each lexical token of s, in order: maximal runs of
// Unicode letters and digits, lowercased. Everything else separates tokens,
// so "git_diff", "git-diff" and "Git diff" all give "git", "diff". Tokens
// longer than 64 bytes are skipped.
func tokenize(s string, fn func(tok string)) {
	tokenizeSpans(s, func(tok string, _, _ int) { fn(tok) })
}

// tokenizeSpans is tokenize that also passes each token's byte span in s.
func tokenizeSpans(s string, fn func(tok string, start, end int)) {
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start <= maxTokenBytes {
			fn(strings.ToLower(s[start:end]), start, end)
		}
		start = -1
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				if start < 0 {
					start = i
				}
			} else {
				flush(i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
		i += size
	}
	flush(len(s))
}

// nameKey is the canonical matching key of a name or alias: its tokens
// joined by single spaces ("git_diff" → "git diff").
func nameKey(s string) string {
	var toks []string
	tokenize(s, func(t string) { toks = append(toks, t) })
	return strings.Join(toks, " ")
}

// stopTokens never count as lexical evidence (they still take part in
// phrase and keyword triggers). The list is the reference's plus common
// English function words and politeness that carry no tool intent.
var stopTokens = map[string]bool{
	"a": true, "an": true, "and": true, "for": true, "in": true, "of": true, "on": true, "or": true,
	"the": true, "to": true, "tool": true, "use": true, "with": true,
	"i": true, "me": true, "my": true, "we": true, "our": true, "you": true, "your": true, "it": true, "its": true,
	"is": true, "are": true, "was": true, "be": true, "been": true, "this": true, "that": true, "these": true,
	"those": true, "at": true, "by": true, "from": true, "as": true, "if": true, "then": true, "so": true,
	"please": true, "can": true, "could": true, "would": true, "should": true, "will": true, "do": true,
	"does": true, "not": true, "no": true, "all": true, "any": true, "some": true, "what": true, "which": true,
	"how": true, "when": true, "where": true, "who": true, "there": true, "here": true, "into": true,
	"about": true, "up": true, "out": true, "just": true, "also": true, "t": true, "s": true, "want": true,
	"need": true, "let": true, "now": true,
}

// negationMarkers are token sequences after which a name or alias is
// negated in the user text: "without X", "do not use X", "don't use X",
// "dont use X".
var negationMarkers = [][]string{
	{"without"},
	{"do", "not", "use"},
	{"don", "t", "use"},
	{"dont", "use"},
}
