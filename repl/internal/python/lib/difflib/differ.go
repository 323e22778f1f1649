package difflib

import (
	"context"
	"fmt"
	"strings"
)

// IsSpace reports whether c is whitespace for str.isspace and \s.
func IsSpace(c rune) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

// IsLineJunk is IS_LINE_JUNK: the line is blank or holds only one '#'
// among whitespace.
func IsLineJunk(line string) bool {
	s := strings.TrimLeftFunc(line, IsSpace)
	if strings.HasPrefix(s, "#") {
		s = strings.TrimLeftFunc(s[1:], IsSpace)
	}
	return s == ""
}

// IsCharacterJunk is IS_CHARACTER_JUNK: a space or a tab.
func IsCharacterJunk(c rune) bool { return c == ' ' || c == '\t' }

// Differ is difflib.Differ: LineJunk and CharJunk are its callbacks (nil
// for None).
type Differ struct {
	LineJunk func(string) (bool, error)
	CharJunk func(rune) (bool, error)
}

// NDiff returns the Differ of ndiff(a, b): no line junk, and charjunk
// IS_CHARACTER_JUNK.
func NDiff() *Differ {
	return &Differ{CharJunk: func(c rune) (bool, error) { return IsCharacterJunk(c), nil }}
}

// Compare returns the lines of Differ.compare(a, b) (CPython yields them
// one by one; the callbacks are called in the same order).
func (d *Differ) Compare(ctx context.Context, a, b []string) ([]string, error) {
	cr, err := NewSequenceMatcher(d.LineJunk, a, b, true)
	if err != nil {
		return nil, err
	}
	ops, err := cr.GetOpcodes(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, op := range ops {
		switch op.Tag {
		case "replace":
			out, err = d.fancyReplace(ctx, out, a, op.I1, op.I2, b, op.J1, op.J2)
			if err != nil {
				return nil, err
			}
		case "delete":
			out = dump(out, "-", a, op.I1, op.I2)
		case "insert":
			out = dump(out, "+", b, op.J1, op.J2)
		case "equal":
			out = dump(out, " ", a, op.I1, op.I2)
		}
	}
	return out, nil
}

func dump(out []string, tag string, x []string, lo, hi int) []string {
	for i := lo; i < hi; i++ {
		out = append(out, tag+" "+x[i])
	}
	return out
}

func plainReplace(out []string, a []string, alo, ahi int, b []string, blo, bhi int) []string {
	if bhi-blo < ahi-alo {
		out = dump(out, "+", b, blo, bhi)
		return dump(out, "-", a, alo, ahi)
	}
	out = dump(out, "-", a, alo, ahi)
	return dump(out, "+", b, blo, bhi)
}

// replaceTask is a pending piece of a "replace" block: a range to match
// (fancy_helper's cases), or lines ready to emit.
type replaceTask struct {
	alo, ahi, blo, bhi int
	middle             bool // format the pair a[alo], b[blo]
	equal              bool // ... which are equal lines
}

// fancyReplace is Differ._fancy_replace. CPython recurses (through
// generators) on the ranges before and after the best matching pair; an
// explicit stack keeps the same order without deep recursion.
func (d *Differ) fancyReplace(ctx context.Context, out []string, a []string, alo, ahi int, b []string, blo, bhi int) ([]string, error) {
	stack := []replaceTask{{alo: alo, ahi: ahi, blo: blo, bhi: bhi}}
	first := true
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.middle {
			lines, err := d.formatPair(ctx, a[t.alo], b[t.blo], t.equal)
			if err != nil {
				return nil, err
			}
			out = append(out, lines...)
			continue
		}
		if !first {
			// _fancy_helper
			switch {
			case t.alo < t.ahi && t.blo < t.bhi:
			case t.alo < t.ahi:
				out = dump(out, "-", a, t.alo, t.ahi)
				continue
			case t.blo < t.bhi:
				out = dump(out, "+", b, t.blo, t.bhi)
				continue
			default:
				continue
			}
		}
		first = false
		plain, bestI, bestJ, equal, err := d.bestPair(ctx, a, t.alo, t.ahi, b, t.blo, t.bhi)
		if err != nil {
			return nil, err
		}
		if plain {
			out = plainReplace(out, a, t.alo, t.ahi, b, t.blo, t.bhi)
			continue
		}
		stack = append(stack,
			replaceTask{alo: bestI + 1, ahi: t.ahi, blo: bestJ + 1, bhi: t.bhi},
			replaceTask{alo: bestI, blo: bestJ, middle: true, equal: equal},
			replaceTask{alo: t.alo, ahi: bestI, blo: t.blo, bhi: bestJ})
	}
	return out, nil
}

// bestPair finds _fancy_replace's synch point: plain reports that no pair
// is close enough and no lines are equal; equal that the pair found is of
// equal lines.
func (d *Differ) bestPair(ctx context.Context, a []string, alo, ahi int, b []string, blo, bhi int) (plain bool, bestI, bestJ int, equal bool, err error) {
	bestRatio, cutoff := 0.74, 0.75
	cr := &SequenceMatcher[rune]{IsJunk: d.CharJunk, AutoJunk: true}
	eqi, eqj := -1, -1
	ra := make([][]rune, ahi-alo)
	for i := alo; i < ahi; i++ {
		ra[i-alo] = []rune(a[i])
	}
	for j := blo; j < bhi; j++ {
		bj := b[j]
		if err := cr.SetSeq2([]rune(bj)); err != nil {
			return false, 0, 0, false, err
		}
		for i := alo; i < ahi; i++ {
			ai := a[i]
			if ai == bj {
				if eqi < 0 {
					eqi, eqj = i, j
				}
				continue
			}
			if err := ctx.Err(); err != nil {
				return false, 0, 0, false, err
			}
			cr.SetSeq1(ra[i-alo])
			if cr.RealQuickRatio() > bestRatio && cr.QuickRatio() > bestRatio {
				r, err := cr.Ratio(ctx)
				if err != nil {
					return false, 0, 0, false, err
				}
				if r > bestRatio {
					bestRatio, bestI, bestJ = r, i, j
				}
			}
		}
	}
	if bestRatio < cutoff {
		if eqi < 0 {
			return true, 0, 0, false, nil
		}
		return false, eqi, eqj, true, nil
	}
	return false, bestI, bestJ, false, nil
}

// formatPair returns the lines for the synch pair: "  line" for equal
// lines, else both lines with their intraline "?" hints.
func (d *Differ) formatPair(ctx context.Context, aelt, belt string, equal bool) ([]string, error) {
	if equal {
		return []string{"  " + aelt}, nil
	}
	cr := &SequenceMatcher[rune]{IsJunk: d.CharJunk, AutoJunk: true}
	var atags, btags strings.Builder
	if err := cr.SetSeqs([]rune(aelt), []rune(belt)); err != nil {
		return nil, err
	}
	ops, err := cr.GetOpcodes(ctx)
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		la, lb := op.I2-op.I1, op.J2-op.J1
		switch op.Tag {
		case "replace":
			atags.WriteString(strings.Repeat("^", la))
			btags.WriteString(strings.Repeat("^", lb))
		case "delete":
			atags.WriteString(strings.Repeat("-", la))
		case "insert":
			btags.WriteString(strings.Repeat("+", lb))
		case "equal":
			atags.WriteString(strings.Repeat(" ", la))
			btags.WriteString(strings.Repeat(" ", lb))
		}
	}
	return qformat(nil, aelt, belt, atags.String(), btags.String()), nil
}

// keepOriginalWS puts s's whitespace where tags has a space.
func keepOriginalWS(s, tags string) string {
	var b strings.Builder
	sr := []rune(s)
	i := 0
	for _, t := range tags {
		if i >= len(sr) {
			break
		}
		if t == ' ' && IsSpace(sr[i]) {
			b.WriteRune(sr[i])
		} else {
			b.WriteRune(t)
		}
		i++
	}
	return b.String()
}

func qformat(out []string, aline, bline, atags, btags string) []string {
	atags = strings.TrimRightFunc(keepOriginalWS(aline, atags), IsSpace)
	btags = strings.TrimRightFunc(keepOriginalWS(bline, btags), IsSpace)
	out = append(out, "- "+aline)
	if atags != "" {
		out = append(out, "? "+atags+"\n")
	}
	out = append(out, "+ "+bline)
	if btags != "" {
		out = append(out, "? "+btags+"\n")
	}
	return out
}

func formatRangeUnified(start, stop int) string {
	beginning := start + 1
	length := stop - start
	if length == 1 {
		return fmt.Sprint(beginning)
	}
	if length == 0 {
		beginning--
	}
	return fmt.Sprintf("%d,%d", beginning, length)
}

func formatRangeContext(start, stop int) string {
	beginning := start + 1
	length := stop - start
	if length == 0 {
		beginning--
	}
	if length <= 1 {
		return fmt.Sprint(beginning)
	}
	return fmt.Sprintf("%d,%d", beginning, beginning+length-1)
}

// DiffOptions are the file names, dates, context size and line terminator
// of unified_diff and context_diff.
type DiffOptions struct {
	FromFile, ToFile, FromFileDate, ToFileDate string
	N                                          int
	LineTerm                                   string
}

// DefaultDiffOptions returns the defaults: n=3, lineterm="\n".
func DefaultDiffOptions() DiffOptions { return DiffOptions{N: 3, LineTerm: "\n"} }

func headerDate(d string) string {
	if d != "" {
		return "\t" + d
	}
	return ""
}

// UnifiedDiff returns the lines of unified_diff(a, b, ...). The wrapper
// checks the argument types (_check_types).
func UnifiedDiff(ctx context.Context, a, b []string, o DiffOptions) ([]string, error) {
	m, err := NewSequenceMatcher[string](nil, a, b, true)
	if err != nil {
		return nil, err
	}
	groups, err := m.GetGroupedOpcodes(ctx, o.N)
	if err != nil {
		return nil, err
	}
	var out []string
	for gi, group := range groups {
		if gi == 0 {
			out = append(out, "--- "+o.FromFile+headerDate(o.FromFileDate)+o.LineTerm,
				"+++ "+o.ToFile+headerDate(o.ToFileDate)+o.LineTerm)
		}
		first, last := group[0], group[len(group)-1]
		out = append(out, fmt.Sprintf("@@ -%s +%s @@%s", formatRangeUnified(first.I1, last.I2), formatRangeUnified(first.J1, last.J2), o.LineTerm))
		for _, c := range group {
			if c.Tag == "equal" {
				for _, line := range a[c.I1:c.I2] {
					out = append(out, " "+line)
				}
				continue
			}
			if c.Tag == "replace" || c.Tag == "delete" {
				for _, line := range a[c.I1:c.I2] {
					out = append(out, "-"+line)
				}
			}
			if c.Tag == "replace" || c.Tag == "insert" {
				for _, line := range b[c.J1:c.J2] {
					out = append(out, "+"+line)
				}
			}
		}
	}
	return out, nil
}

// ContextDiff returns the lines of context_diff(a, b, ...).
func ContextDiff(ctx context.Context, a, b []string, o DiffOptions) ([]string, error) {
	prefix := map[string]string{"insert": "+ ", "delete": "- ", "replace": "! ", "equal": "  "}
	m, err := NewSequenceMatcher[string](nil, a, b, true)
	if err != nil {
		return nil, err
	}
	groups, err := m.GetGroupedOpcodes(ctx, o.N)
	if err != nil {
		return nil, err
	}
	var out []string
	for gi, group := range groups {
		if gi == 0 {
			out = append(out, "*** "+o.FromFile+headerDate(o.FromFileDate)+o.LineTerm,
				"--- "+o.ToFile+headerDate(o.ToFileDate)+o.LineTerm)
		}
		first, last := group[0], group[len(group)-1]
		out = append(out, "***************"+o.LineTerm)
		out = append(out, fmt.Sprintf("*** %s ****%s", formatRangeContext(first.I1, last.I2), o.LineTerm))
		hasA, hasB := false, false
		for _, c := range group {
			hasA = hasA || c.Tag == "replace" || c.Tag == "delete"
			hasB = hasB || c.Tag == "replace" || c.Tag == "insert"
		}
		if hasA {
			for _, c := range group {
				if c.Tag != "insert" {
					for _, line := range a[c.I1:c.I2] {
						out = append(out, prefix[c.Tag]+line)
					}
				}
			}
		}
		out = append(out, fmt.Sprintf("--- %s ----%s", formatRangeContext(first.J1, last.J2), o.LineTerm))
		if hasB {
			for _, c := range group {
				if c.Tag != "delete" {
					for _, line := range b[c.J1:c.J2] {
						out = append(out, prefix[c.Tag]+line)
					}
				}
			}
		}
	}
	return out, nil
}

// Restore is difflib.restore(delta, which): the lines of sequence 1 or 2
// from an ndiff or Differ delta. which must be 1 or 2.
func Restore(delta []string, which int) ([]string, error) {
	var tag string
	switch which {
	case 1:
		tag = "- "
	case 2:
		tag = "+ "
	default:
		return nil, &Error{"ValueError", fmt.Sprintf("unknown delta choice (must be 1 or 2): %d", which)}
	}
	var out []string
	for _, line := range delta {
		if len(line) >= 2 && (line[:2] == "  " || line[:2] == tag) {
			out = append(out, line[2:])
		}
	}
	return out, nil
}
