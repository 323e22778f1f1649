package openai

import "strings"

// Tags of a reasoning section written inside the reply text (DeepSeek-R1
// and Qwen3 through servers that do not split it off).
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// thinkSplit moves a <think>...</think> section at the very start of a
// reply (after optional whitespace) into the reasoning, streamed piece by
// piece or whole. Text that may still turn out to be the opening tag is
// held back, as is a tail that may be the start of the closing tag, so the
// reply text emitted never contains the section. The whitespace after the
// closing tag is dropped. A <think> anywhere else is left in the text. An
// unterminated section is all reasoning. The zero value is ready.
type thinkSplit struct {
	state int // thinkStart, thinkInside, thinkAfter, thinkPlain
	pend  string
}

const (
	thinkStart = iota
	thinkInside
	thinkAfter
	thinkPlain
)

const space = " \t\r\n"

// add takes the next piece of content and returns the reply text it
// releases; reasoning goes to r.
func (t *thinkSplit) add(s string, r *strings.Builder) string {
	switch t.state {
	case thinkStart:
		t.pend += s
		head := strings.TrimLeft(t.pend, space)
		if strings.HasPrefix(head, thinkOpen) {
			t.state, t.pend = thinkInside, ""
			return t.add(head[len(thinkOpen):], r)
		}
		if strings.HasPrefix(thinkOpen, head) {
			return "" // still undecided
		}
		t.state = thinkPlain
		out := t.pend
		t.pend = ""
		return out
	case thinkInside:
		t.pend += s
		if i := strings.Index(t.pend, thinkClose); i >= 0 {
			r.WriteString(t.pend[:i])
			rest := t.pend[i+len(thinkClose):]
			t.state, t.pend = thinkAfter, ""
			return t.add(rest, r)
		}
		keep := partialSuffix(t.pend, thinkClose)
		r.WriteString(t.pend[:len(t.pend)-keep])
		t.pend = t.pend[len(t.pend)-keep:]
		return ""
	case thinkAfter:
		s = strings.TrimLeft(s, space)
		if s == "" {
			return ""
		}
		t.state = thinkPlain
	}
	return s
}

// finish ends the content and returns what was held back as reply text.
func (t *thinkSplit) finish(r *strings.Builder) string {
	out := ""
	switch t.state {
	case thinkStart:
		out = t.pend
		t.state = thinkPlain
	case thinkInside:
		r.WriteString(t.pend)
	}
	t.pend = ""
	return out
}

// partialSuffix returns the length of the longest suffix of s that is a
// proper prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(s), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

// splitThink splits a whole reply into its leading <think> section and
// the text after it.
func splitThink(text string) (reasoning, rest string) {
	var t thinkSplit
	var r strings.Builder
	rest = t.add(text, &r)
	rest += t.finish(&r)
	return r.String(), rest
}
