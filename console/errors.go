package console

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// maxTextDetail bounds one detail value in the text form of an error.
const maxTextDetail = 160

// ErrorText is the text form of an error as the rlm command prints it: one line per *fault.Error in the
// chain ("rlm: phase/kind: message (detail)", then "  caused by: ..."),
// the final plain cause appended to its line, then "hint: ...". Text that an
// earlier part already showed (a server message repeated in
// detail.error_message and detail.body_excerpt, a cause's message repeated
// in its wrapper's) is printed once.
func ErrorText(fe *fault.Error) string {
	var b strings.Builder
	var shown []string
	b.WriteString("rlm: ")
	for e := fe; e != nil; {
		fmt.Fprintf(&b, "%s/%s", e.Phase, e.Kind)
		if e.Message != "" && !seen(shown, e.Message) {
			b.WriteString(": " + e.Message)
			shown = append(shown, e.Message)
		}
		if d := detailText(e.Detail, &shown); d != "" {
			b.WriteString(" (" + d + ")")
		}
		next := fault.As(e.Cause)
		if next == nil {
			if e.Cause != nil && !shownIn(shown, e.Cause.Error()) {
				b.WriteString(": " + e.Cause.Error())
			}
			break
		}
		e = next
		b.WriteString("\n  caused by: ")
	}
	if fe.Hint != "" {
		b.WriteString("\nhint: " + fe.Hint)
	}
	return b.String()
}

// detailText formats d as "k=v, ..." in key order, leaving out string values
// already shown (or that quote one) and bounding long ones.
func detailText(d map[string]any, shown *[]string) string {
	if len(d) == 0 {
		return ""
	}
	// Shorter strings first, so that a value quoting another (a body
	// excerpt holding the error message) is recognized.
	strs := map[string]string{}
	for k, v := range d {
		if s, ok := v.(string); ok {
			strs[k] = s
		}
	}
	skip := map[string]bool{}
	for _, k := range slices.SortedFunc(maps.Keys(strs), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(strs[a]), len(strs[b])), strings.Compare(a, b))
	}) {
		if seen(*shown, strs[k]) {
			skip[k] = true
		}
		*shown = append(*shown, strs[k])
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d)) {
		if skip[k] {
			continue
		}
		v := fmt.Sprint(d[k])
		if len(v) > maxTextDetail {
			v = v[:maxTextDetail] + "…"
		}
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ", ")
}

// seen reports whether s, when at least 16 bytes long, was already shown:
// it is part of a shown text, or it quotes the opening of a long shown text
// (a JSON body holding a message, escaped).
func seen(shown []string, s string) bool {
	if len(s) < 16 { // short values (a host, a model name) say little alone
		return false
	}
	for _, t := range shown {
		if strings.Contains(t, s) {
			return true
		}
		if len(t) >= 24 && strings.Contains(s, t[:min(len(t), 40)]) {
			return true
		}
	}
	return false
}

// shownIn reports whether s is part of a shown text.
func shownIn(shown []string, s string) bool {
	for _, t := range shown {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}
