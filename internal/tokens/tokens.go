// Package tokens counts model tokens in text: exactly, with a BPE encoding
// when the model family is known and its encoding is linked into the
// program, and otherwise with a documented conservative estimate.
//
// The OpenAI encodings (cl100k_base, o200k_base) are 6.5 MB of tables, so
// they are linked only into programs that import package
// github.com/rlm-go/rlm/bpe (the rlm command does), which registers them
// here; nothing is downloaded at run time. Without it every count is the
// estimate (Estimator), which is above the exact count on all the text the
// tests try, but is not a proof.
package tokens

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Method names how a count was obtained.
const (
	MethodExact     = "exact"     // a real BPE encoding
	MethodEstimated = "estimated" // the conservative character-class estimate
)

// Encoding names, as reported by Counter.Encoding.
const (
	Cl100kBase = "cl100k_base"
	O200kBase  = "o200k_base"
	Estimate   = "estimate" // the estimator has no encoding
)

// Counter counts tokens in text. Implementations are safe for concurrent
// use and deterministic.
type Counter interface {
	// Count returns the number of tokens of text.
	Count(text string) int
	// Method returns MethodExact or MethodEstimated.
	Method() string
	// Encoding returns the encoding name, or Estimate.
	Encoding() string
}

// encodings holds the exact counters registered by package bpe, by
// encoding name.
var encodings sync.Map // string -> Counter

// Register makes c the exact counter of the encoding it names
// (c.Encoding()). Package bpe calls it from its init; a later registration
// of the same encoding replaces the earlier one.
func Register(c Counter) { encodings.Store(c.Encoding(), c) }

// ForModel returns the exact counter for a known model family or encoding
// name when that encoding is registered, and the estimator otherwise.
// Known: the encoding names cl100k_base and o200k_base; models starting
// with gpt-4o, gpt-4.1, gpt-5, o1, o3, o4 or chatgpt-4o (o200k_base); gpt-4
// and gpt-3.5 (cl100k_base). Matching is case-insensitive and ignores a
// leading "openai/" provider prefix.
func ForModel(model string) Counter {
	if c, ok := encodings.Load(EncodingFor(model)); ok {
		return c.(Counter)
	}
	return Estimator{}
}

// EncodingFor returns the encoding name of a known model family or
// encoding name (see ForModel), and Estimate for any other.
func EncodingFor(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	m = strings.TrimPrefix(m, "openai/")
	switch {
	case m == Cl100kBase, m == O200kBase:
		return m
	case hasAnyPrefix(m, "gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4", "chatgpt-4o"):
		return O200kBase
	case hasAnyPrefix(m, "gpt-4", "gpt-3.5", "gpt-35"):
		return Cl100kBase
	}
	return Estimate
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Estimator is the estimate used when the model family is unknown or its
// encoding is not linked (package bpe). It scans text in runs the way the
// BPE pre-tokenizers of today's encodings split it, and charges each run
// at least one token:
//
//   - a run of ASCII letters: ceil(n/3) up to 16 letters, ceil(5n/9)
//     beyond (identifiers, random letters), ceil(n/2) in capitals,
//     ceil(3n/4) when its case changes after its first letter (camelCase,
//     base64);
//   - a run of digits: ceil(n/2) (encodings group at most 3 digits, and
//     hex digests split oftener);
//   - a run of other printable ASCII: ceil(2n/3);
//   - a single space before letters or punctuation is free (it merges
//     into that token), another single space costs 1, and a run of k > 1
//     spaces 2+floor((k-1)/64);
//   - every tab, newline or control character: 2; a non-ASCII rune: 2,
//     or 4 for a rune of 4 UTF-8 bytes (an emoji can be 4 byte tokens).
//
// It is at or above the exact cl100k_base and o200k_base counts on the
// tests' corpus (prose, code, JSON, CJK, emoji, hex digests, base64,
// single characters between spaces, runs of spaces, random letters),
// usually by 30-130%; it is an estimate, not a proof: a text built to
// defeat it can count more. Budgets therefore count with an exact
// encoding where one is linked (model.PromptTokens).
type Estimator struct{}

// Count returns the estimate for text; 0 for the empty string and at least 1
// otherwise.
func (Estimator) Count(text string) int {
	n := 0
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		c := runClass(r)
		if c == runOther {
			n += 2
			if w == 4 {
				n += 2
			}
			i += w
			continue
		}
		j, mixed, upper := i+w, false, r <= 'Z'
		for j < len(text) {
			r2, w2 := utf8.DecodeRuneInString(text[j:])
			if runClass(r2) != c {
				break
			}
			// Lower to upper anywhere, or upper to lower past the first
			// letter ("Hello" is a word, "aB" and "HTTPServer" are not).
			up, prev := r2 <= 'Z', text[j-1] <= 'Z'
			if c == runLetter && (up && !prev || !up && prev && j-1 > i) {
				mixed = true
			}
			upper = upper && up
			j += w2
		}
		k := j - i
		switch c {
		case runLetter:
			switch {
			case mixed:
				n += (3*k + 3) / 4
			case upper:
				n += (k + 1) / 2
			case k <= 16:
				n += (k + 2) / 3
			default:
				n += (5*k + 8) / 9
			}
		case runDigit:
			n += (k + 1) / 2
		case runPunct:
			n += (2*k + 2) / 3
		case runControl:
			n += 2 * k
		case runSpace:
			next := runNone
			if j < len(text) {
				r2, _ := utf8.DecodeRuneInString(text[j:])
				next = runClass(r2)
			}
			switch {
			case k > 1:
				n += 2 + (k-1)/64
			case next != runLetter && next != runPunct:
				n++
			}
		}
		i = j
	}
	return n
}

// The runs Estimator charges.
const (
	runNone = iota
	runLetter
	runDigit
	runSpace
	runPunct
	runControl
	runOther
)

func runClass(r rune) int {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		return runLetter
	case r >= '0' && r <= '9':
		return runDigit
	case r == ' ':
		return runSpace
	case r < 0x80 && r > ' ' && r != 0x7f:
		return runPunct
	case r < 0x80:
		return runControl
	}
	return runOther
}

// Method returns MethodEstimated.
func (Estimator) Method() string { return MethodEstimated }

// Encoding returns Estimate.
func (Estimator) Encoding() string { return Estimate }
