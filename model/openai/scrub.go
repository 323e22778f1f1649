package openai

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rlm-go/rlm/model"
)

// redactedKey replaces the API key wherever a server echoes it.
const redactedKey = "[redacted]"

// minSecretLen is the shortest secret header value scrubbed; shorter values
// would garble ordinary text. The API key itself is scrubbed from errors
// whatever its length.
const minSecretLen = 4

// MinContentSecretLen is the shortest secret scrubbed from the content of a
// successful response (text, reasoning, tool calls, streamed pieces, and so
// the recorded cassettes) and looked for in derived forms (JSON- or
// \u-escaped, reversed, in another letter case). A shorter key is a
// placeholder such as "ollama", "EMPTY" or "lm-studio" that local servers
// accept: scrubbing it (case-insensitively) from answers would mangle
// ordinary text, so it is scrubbed only from errors, in its exact form.
// Real hosted keys are far longer.
const MinContentSecretLen = 16

// secret is one value to scrub. A long secret (at least
// MinContentSecretLen bytes) is matched in every form and in content too; a
// short one only exactly, and only in errors.
type secret struct {
	text     string
	long     bool
	fwd, rev []rune
}

// scrubber finds secrets in server text: the one place secrets are removed,
// from errors (text) and from response content (content). The zero value
// scrubs nothing.
type scrubber struct {
	secrets []secret
	first   [256]bool // bytes a match can start with (a prefilter)
}

// add registers v (exactly as given; callers trim and check the length).
func (sc *scrubber) add(v string) {
	if v == "" {
		return
	}
	for _, s := range sc.secrets {
		if s.text == v {
			return
		}
	}
	s := secret{text: v, long: len(v) >= MinContentSecretLen}
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

// text scrubs s for an error: every secret in its exact form, and long
// secrets in every form.
func (sc *scrubber) text(s string) string {
	out, _ := sc.scan(s, false, true)
	return out
}

// content scrubs s for response content: long secrets in every form.
func (sc *scrubber) content(s string) string {
	out, _ := sc.scan(s, true, true)
	return out
}

// match results.
const (
	noMatch = iota
	fullMatch
	partialMatch // the input ended inside what may be a match
)

// scan replaces every secret found in s with redactedKey, scanning left to
// right and taking at each position the first secret (in registration
// order, forward before reversed) that matches there. With final false, s
// is a prefix of a longer text: scan stops at the first position where a
// match may continue past the end and returns the unscanned rest, so that
// scanning a text piece by piece (carrying the rest over) gives exactly the
// result of scanning it whole.
func (sc *scrubber) scan(s string, contentOnly, final bool) (done, rest string) {
	if len(sc.secrets) == 0 {
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
			b.WriteString(redactedKey)
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
func (sc *scrubber) matchAt(s string, i int, contentOnly, final bool) (int, int) {
	for k := range sc.secrets {
		sec := &sc.secrets[k]
		if !sec.long {
			if contentOnly {
				continue
			}
			if strings.HasPrefix(s[i:], sec.text) {
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

// Scrub returns s with the API key and the secret header values (of at
// least MinContentSecretLen bytes) replaced by "[redacted]", in every form
// a server might echo them: plain, JSON- or \u-escaped, reversed, in
// another letter case. The provider applies it to every response it
// returns; a recorder (model/replay) applies it to what it writes.
func (p *Provider) Scrub(s string) string { return p.secrets.content(s) }

// scrubResponse scrubs every server-written string of resp in place.
func (p *Provider) scrubResponse(resp *model.Response) {
	sc := &p.secrets
	resp.Text = sc.content(resp.Text)
	resp.Reasoning = sc.content(resp.Reasoning)
	resp.FinishReason = sc.content(resp.FinishReason)
	resp.Meta.ID = sc.content(resp.Meta.ID)
	resp.Meta.Model = sc.content(resp.Meta.Model)
	for i := range resp.ToolCalls {
		tc := &resp.ToolCalls[i]
		tc.ID = sc.content(tc.ID)
		tc.Type = sc.content(tc.Type)
		tc.Name = sc.content(tc.Name)
		tc.Arguments = sc.content(tc.Arguments)
	}
}

// deltaScrubber passes streamed text pieces to emit with secrets scrubbed,
// holding back a tail that may be the start of a secret until the next
// piece decides it. The pieces emitted join to the scrubbed whole text.
type deltaScrubber struct {
	sc   *scrubber
	emit func(string)
	rest string
}

func (d *deltaScrubber) add(piece string) {
	out, rest := d.sc.scan(d.rest+piece, true, false)
	d.rest = rest
	if out != "" {
		d.emit(out)
	}
}

// flush emits what was held back, at the end of a complete stream.
func (d *deltaScrubber) flush() {
	if d.rest == "" {
		return
	}
	out := d.sc.content(d.rest)
	d.rest = ""
	if out != "" {
		d.emit(out)
	}
}
