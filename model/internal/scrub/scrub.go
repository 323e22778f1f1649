// Package scrub removes secrets (API keys, secret header values) from
// server text: the one scrubber of the model providers (model/openai,
// model/anthropic), for errors and for response content.
//
// The rule: a secret of at least MinContentLen bytes (any real hosted key)
// is scrubbed everywhere, in every form a server might echo it (plain,
// JSON- or \u-escaped, reversed, in another letter case). A shorter value
// is a placeholder key such as "ollama", "EMPTY", "lm-studio" or "x" that
// local servers accept: it is never scrubbed from content, and from errors
// only in its exact form as a whole word (not inside "max_tokens" for the
// key "x"), and not at all when it is also the requested model name (a
// server echoing the model, as Ollama's 404 model "ollama" not found does,
// is not echoing the key).
package scrub

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rlm-go/rlm/model"
)

// Redacted replaces the API key wherever a server echoes it.
const Redacted = "[redacted]"

// MinHeaderLen is the shortest secret header value scrubbed; shorter values
// would garble ordinary text. The API key itself is scrubbed from errors
// whatever its length.
const MinHeaderLen = 4

// MinContentLen is the shortest secret scrubbed from the content of a
// successful response (text, reasoning, tool calls, streamed pieces, and so
// the recorded cassettes) and looked for in derived forms (JSON- or
// \u-escaped, reversed, in another letter case). A shorter key is a
// placeholder such as "ollama", "EMPTY" or "lm-studio" that local servers
// accept: scrubbing it (case-insensitively) from answers would mangle
// ordinary text, so it is scrubbed only from errors, in its exact form.
// Real hosted keys are far longer.
const MinContentLen = 16

// secret is one value to scrub. A long secret (at least
// MinContentLen bytes) is matched in every form and in content too; a
// short one only exactly, and only in errors.
type secret struct {
	text     string
	long     bool
	fwd, rev []rune
}

// Set finds secrets in server text: the one place secrets are removed,
// from errors (text) and from response content (content). The zero value
// scrubs nothing.
type Set struct {
	secrets []secret
	first   [256]bool // bytes a match can start with (a prefilter)
}

// Add registers v (exactly as given; callers trim and check the length).
func (sc *Set) Add(v string) {
	if v == "" {
		return
	}
	for _, s := range sc.secrets {
		if s.text == v {
			return
		}
	}
	s := secret{text: v, long: len(v) >= MinContentLen}
	sc.first[v[0]] = true
	if s.long {
		s.fwd = []rune(v)
		s.rev = make([]rune, len(s.fwd))
		for i, r := range s.fwd {
			s.rev[len(s.fwd)-1-i] = r
		}
		sc.first['\\'] = true
		for _, r := range []rune{s.fwd[0], s.rev[0]} {
			for _, c := range []rune{r, unicode.ToLower(r), unicode.ToUpper(r), unicode.ToTitle(r)} {
				var b [utf8.UTFMax]byte
				utf8.EncodeRune(b[:], c)
				sc.first[b[0]] = true
			}
		}
	}
	sc.secrets = append(sc.secrets, s)
}

// Text scrubs s for an error: long secrets in every form, and short ones
// in their exact form as whole words.
func (sc *Set) Text(s string) string {
	out, _ := sc.scan(s, false, true)
	return out
}

// Content scrubs s for response content: long secrets in every form.
func (sc *Set) Content(s string) string {
	out, _ := sc.scan(s, true, true)
	return out
}

// match results.
const (
	noMatch = iota
	fullMatch
	partialMatch // the input ended inside what may be a match
)

// scan replaces every secret found in s with Redacted, scanning left to
// right and taking at each position the first secret (in registration
// order, forward before reversed) that matches there. With final false, s
// is a prefix of a longer text: scan stops at the first position where a
// match may continue past the end and returns the unscanned rest, so that
// scanning a text piece by piece (carrying the rest over) gives exactly the
// result of scanning it whole.
func (sc *Set) scan(s string, contentOnly, final bool) (done, rest string) {
	if sc == nil || len(sc.secrets) == 0 {
		return s, ""
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !sc.first[s[i]] {
			continue
		}
		end, st := sc.matchAt(s, i, contentOnly, final)
		switch st {
		case fullMatch:
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			last = end
			i = end - 1
		case partialMatch:
			b.WriteString(s[last:i])
			return b.String(), s[i:]
		}
	}
	if last == 0 {
		return s, ""
	}
	b.WriteString(s[last:])
	return b.String(), ""
}

// matchAt decides whether a secret starts at s[i].
func (sc *Set) matchAt(s string, i int, contentOnly, final bool) (int, int) {
	for k := range sc.secrets {
		sec := &sc.secrets[k]
		if !sec.long {
			if contentOnly {
				continue
			}
			if strings.HasPrefix(s[i:], sec.text) {
				if !wholeWord(s, i, i+len(sec.text)) {
					continue
				}
				return i + len(sec.text), fullMatch
			}
			if !final && strings.HasPrefix(sec.text, s[i:]) {
				return 0, partialMatch
			}
			continue
		}
		for _, target := range [2][]rune{sec.fwd, sec.rev} {
			if end, st := matchForm(s, i, target, final); st != noMatch {
				return end, st
			}
		}
	}
	return 0, noMatch
}

// matchForm matches target at s[i], each character written literally (in
// any letter case) or as a JSON escape (\", \\, \/, \n, ..., \uXXXX in
// either hex case, surrogate pairs included).
func matchForm(s string, i int, target []rune, final bool) (int, int) {
	j := i
	for _, want := range target {
		if j >= len(s) {
			if final {
				return 0, noMatch
			}
			return 0, partialMatch
		}
		r, n := unit(s[j:])
		if n == 0 { // an escape or rune cut by the end of s
			if final {
				return 0, noMatch
			}
			return 0, partialMatch
		}
		if !foldEqual(r, want) {
			return 0, noMatch
		}
		j += n
	}
	return j, fullMatch
}

// unit decodes one character of s, literal or JSON-escaped, and its length
// in bytes; n is 0 when s ends inside it. An escape may itself be escaped
// (a \u sequence inside a JSON string that was encoded again is written
// \\u...): any run of backslashes introduces it. A lone backslash that
// starts no escape decodes as itself.
func unit(s string) (r rune, n int) {
	if s[0] != '\\' {
		if !utf8.FullRuneInString(s) {
			return 0, 0
		}
		return utf8.DecodeRuneInString(s)
	}
	k := 1
	for k < len(s) && s[k] == '\\' {
		k++
	}
	if k == len(s) {
		return 0, 0
	}
	switch c := s[k]; c {
	case '"', '/':
		return rune(c), k + 1
	case 'u':
		r, n, ok := hexEscape(s, k)
		if n == 0 {
			return 0, 0
		}
		if !ok {
			break
		}
		if !utf16.IsSurrogate(r) {
			return r, n
		}
		r2, n2, ok2 := hexEscape(s[n:], k)
		if n2 == 0 {
			return 0, 0
		}
		if ok2 {
			if p := utf16.DecodeRune(r, r2); p != unicode.ReplacementChar {
				return p, n + n2
			}
		}
		return r, n
	}
	if k == 1 {
		switch s[1] {
		case 'b':
			return '\b', 2
		case 'f':
			return '\f', 2
		case 'n':
			return '\n', 2
		case 'r':
			return '\r', 2
		case 't':
			return '\t', 2
		}
		return '\\', 1
	}
	return '\\', 2 // an escaped backslash
}

// hexEscape parses k backslashes, "u" and four hex digits at the start of
// s. n is 0 when s ends before it can tell; ok is false when s does not
// start with one.
func hexEscape(s string, k int) (r rune, n int, ok bool) {
	const hex = "0123456789abcdefABCDEF"
	for i := 0; i < k+5; i++ {
		if i >= len(s) {
			return 0, 0, false
		}
		var good bool
		switch {
		case i < k:
			good = s[i] == '\\'
		case i == k:
			good = s[i] == 'u'
		default:
			good = strings.IndexByte(hex, s[i]) >= 0
		}
		if !good {
			return 0, i + 1, false
		}
	}
	v, _ := strconv.ParseUint(s[k+1:k+5], 16, 16)
	return rune(v), k + 5, true
}

func foldEqual(a, b rune) bool {
	return a == b || unicode.ToLower(a) == unicode.ToLower(b) || unicode.ToUpper(a) == unicode.ToUpper(b)
}

// wholeWord reports whether s[i:j] is not part of a longer word: the
// bytes around it, if any, are not letters, digits, '_' or '-'.
func wholeWord(s string, i, j int) bool {
	return (i == 0 || !wordByte(s[i-1])) && (j >= len(s) || !wordByte(s[j]))
}

func wordByte(c byte) bool {
	return c == '_' || c == '-' || c >= 0x80 || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// AddHeader registers a secret header value of at least MinHeaderLen
// bytes, and the credential in a "Scheme credential" value such as
// "Bearer KEY".
func (sc *Set) AddHeader(v string) {
	v = strings.TrimSpace(v)
	if len(v) < MinHeaderLen {
		return
	}
	sc.Add(v)
	if _, cred, ok := strings.Cut(v, " "); ok {
		if cred = strings.TrimSpace(cred); len(cred) >= MinHeaderLen {
			sc.Add(cred)
		}
	}
}

// Without returns a copy of sc that leaves the short secret word alone:
// a provider scrubs a call's errors with the set without the call's model
// name, since a server echoing the model ("model \"ollama\" not found")
// is not echoing a placeholder key that happens to be spelled the same.
// Long secrets are always kept.
func (sc *Set) Without(word string) *Set {
	if sc == nil {
		return nil
	}
	out := &Set{first: sc.first}
	for _, s := range sc.secrets {
		if !s.long && s.text == word {
			continue
		}
		out.secrets = append(out.secrets, s)
	}
	return out
}

// Response scrubs every server-written string of resp in place, as
// content.
func (sc *Set) Response(resp *model.Response) {
	resp.Text = sc.Content(resp.Text)
	resp.Reasoning = sc.Content(resp.Reasoning)
	resp.Refusal = sc.Content(resp.Refusal)
	resp.RefusalCategory = sc.Content(resp.RefusalCategory)
	resp.RefusalExplanation = sc.Content(resp.RefusalExplanation)
	resp.FinishReason = sc.Content(resp.FinishReason)
	resp.Meta.ID = sc.Content(resp.Meta.ID)
	resp.Meta.Model = sc.Content(resp.Meta.Model)
	for i := range resp.ToolCalls {
		tc := &resp.ToolCalls[i]
		tc.ID = sc.Content(tc.ID)
		tc.Type = sc.Content(tc.Type)
		tc.Name = sc.Content(tc.Name)
		tc.Arguments = sc.Content(tc.Arguments)
	}
}
