// Package tokens counts model tokens in text: exactly, with a BPE encoding
// when the model family is known and its encoding is linked into the
// program, and otherwise with a documented conservative estimate.
//
// The OpenAI encodings (cl100k_base, o200k_base) are 12 MB of tables, so
// they are linked only into programs that import package
// github.com/rlm-go/rlm/bpe (the rlm command does), which registers them
// here; nothing is downloaded at run time. Without it every count is the
// estimate, which is never below the exact count.
package tokens

import (
	"strings"
	"sync"
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

// Estimator is the conservative estimate used when the model family is
// unknown or its encoding is not linked (package bpe). For non-empty text it returns
//
//	ceil(L/3) + ceil(3D/4) + ceil(2P/3) + 2N
//
// where L counts ASCII letters, D ASCII digits, P other printable ASCII
// bytes, and N every other rune (control characters, tabs, newlines and
// non-ASCII); spaces are free. BPE encodings in use today average about 4
// letters per token, split digit runs into groups of at most 3, merge few
// punctuation bytes per token and spend one to three tokens on a non-ASCII
// rune, so the
// estimate usually exceeds a real count by 30-100% on prose and JSON; the
// tests check that it is never below cl100k_base or o200k_base on a mixed
// corpus.
type Estimator struct{}

// Count returns the estimate for text; 0 for the empty string and at least 1
// otherwise.
func (Estimator) Count(text string) int {
	if text == "" {
		return 0
	}
	var letters, digits, punct, other int
	for _, r := range text {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letters++
		case r >= '0' && r <= '9':
			digits++
		case r == ' ':
		case r < 0x80 && r > ' ' && r != 0x7f:
			punct++
		default:
			other++
		}
	}
	n := (letters+2)/3 + (3*digits+3)/4 + (2*punct+2)/3 + 2*other
	if n < 1 {
		n = 1
	}
	return n
}

// Method returns MethodEstimated.
func (Estimator) Method() string { return MethodEstimated }

// Encoding returns Estimate.
func (Estimator) Encoding() string { return Estimate }
