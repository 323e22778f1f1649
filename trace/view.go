package trace

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rlm-go/rlm/internal/textcut"
)

// WriteTree prints events as an indented tree, one line per event, children
// under their parent in sequence (start) order, parallel branches in branch
// order. Each line shows the kind, name, status, the key figures
// (duration, tokens, cost, bytes) and the attributes that explain the step:
// a model call's retries, a search's pattern, a plan step's bind name, a
// branch's index. Every event is printed exactly once (see Walk), and
// indentation stops at MaxTreeIndent levels.
func WriteTree(w io.Writer, events []Event) error {
	return Walk(events, func(i, level int) error {
		_, err := fmt.Fprintf(w, "%s%s\n", indent(level), oneLine(Line(events[i])))
		return err
	})
}

// Walk visits every event exactly once in tree order (depth first,
// children under their parent in sequence order, parallel branches in
// branch order), calling visit with the event's index and its level in the
// tree (0 for a root). It holds even in a malformed trace: an event whose
// parent is missing is a root, and events caught in a parent cycle (or
// under a duplicate id) are visited as roots after the rest. The walk is
// iterative (an explicit stack), so a parent chain of any length cannot
// exhaust the goroutine stack. Walk stops at the first error visit returns.
func Walk(events []Event, visit func(i, level int) error) error {
	known := make(map[string]bool, len(events))
	for _, ev := range events {
		known[ev.ID] = true
	}
	children := make(map[string][]int)
	var roots []int
	for i, ev := range events {
		if ev.Parent == "" || ev.Parent == ev.ID || !known[ev.Parent] {
			roots = append(roots, i)
			continue
		}
		children[ev.Parent] = append(children[ev.Parent], i)
	}
	for _, cs := range children {
		sortBranches(events, cs)
	}
	printed := make([]bool, len(events))
	expanded := make(map[string]bool, len(events)) // ids whose children were walked
	type frame struct{ i, level int }
	var stack []frame
	walk := func(root int) error {
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if printed[f.i] {
				continue
			}
			printed[f.i] = true
			if err := visit(f.i, f.level); err != nil {
				return err
			}
			id := events[f.i].ID
			if expanded[id] {
				continue
			}
			expanded[id] = true
			cs := children[id]
			for k := len(cs) - 1; k >= 0; k-- {
				if !printed[cs[k]] {
					stack = append(stack, frame{cs[k], f.level + 1})
				}
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := walk(r); err != nil {
			return err
		}
	}
	for i := range events {
		if !printed[i] {
			if err := walk(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// MaxTreeIndent is the deepest level WriteTree indents. A line nested
// deeper is indented MaxTreeIndent levels and starts with the elision
// marker "⋯L<level> " giving its true level, so a long parent chain prints
// in output linear in its length.
const MaxTreeIndent = 32

func indent(level int) string {
	if level <= MaxTreeIndent {
		return strings.Repeat("  ", level)
	}
	return strings.Repeat("  ", MaxTreeIndent) + "⋯L" + strconv.Itoa(level) + " "
}

// sortBranches orders the siblings cs that are parallel branches (attribute
// "branch") by branch index among themselves, leaving the positions of
// other siblings as they are: traces written before branch spans started in
// index order still print in branch order.
func sortBranches(events []Event, cs []int) {
	var pos, idx []int
	for k, c := range cs {
		if _, ok := attrInt(events[c].Attrs, "branch"); ok {
			pos, idx = append(pos, k), append(idx, c)
		}
	}
	if len(idx) < 2 {
		return
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, _ := attrInt(events[a].Attrs, "branch")
		y, _ := attrInt(events[b].Attrs, "branch")
		return cmp.Compare(x, y)
	})
	for k, p := range pos {
		cs[p] = idx[k]
	}
}

// attrInt reads an integer attribute, as recorded (int, int64) or as
// decoded from JSON (float64).
func attrInt(attrs map[string]any, key string) (int64, bool) {
	switch v := attrs[key].(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		return int64(v), v == float64(int64(v))
	}
	return 0, false
}

// maxPatternView bounds a search pattern shown on a line.
const maxPatternView = 60

// details returns the attributes worth a place on ev's line.
func details(ev Event) string {
	var b strings.Builder
	a := ev.Attrs
	switch ev.Kind {
	case KindModelCall:
		if n, ok := attrInt(a, "attempts"); ok && n > 1 {
			fmt.Fprintf(&b, " retries=%d", n-1)
		}
	case KindContextOp:
		if p, ok := a["pattern"].(string); ok {
			q := strconv.Quote(textcut.Prefix(p, maxPatternView))
			if len(p) > maxPatternView {
				q += "…"
			}
			if a["regex"] == true {
				b.WriteString(" regex")
			}
			fmt.Fprintf(&b, " pattern=%s", q)
		}
		if n, ok := attrInt(a, "items"); ok && (ev.Name == "search" || ev.Name == "partition" || ev.Name == "map") {
			fmt.Fprintf(&b, " items=%d", n)
		}
		if a["truncated"] == true {
			b.WriteString(" truncated")
		}
	case KindPlanStep:
		if s, ok := a["bind"].(string); ok && s != "" {
			fmt.Fprintf(&b, " bind=%s", s)
		}
		if s, ok := a["exception"].(string); ok && s != "" {
			// A code cell that raised (its type, as the model's code named it).
			fmt.Fprintf(&b, " exception=%s", textcut.Prefix(s, maxPatternView))
		}
	case KindChild, KindRun:
		if n, ok := attrInt(a, "turns"); ok {
			fmt.Fprintf(&b, " turns=%d", n)
		}
	}
	return b.String()
}

// Line formats one event as a single readable line.
func Line(ev Event) string {
	var b strings.Builder
	status := string(ev.Status)
	mark := "✓"
	switch ev.Status {
	case StatusError:
		mark = "✗"
	case StatusCancelled:
		mark = "⊘"
	case StatusStarted:
		mark = "…" // in flight: a live file's start line
	case "":
		mark = "·"
	}
	if e, _ := ev.Attrs["exception"].(string); e != "" && ev.Kind == KindPlanStep && ev.Status == StatusOK {
		// A cell that raised, in a trace written before such cells ended
		// as errors: never shown ✓.
		mark = "✗"
	}
	// A name that already starts with the kind ("turn 1") is not repeated
	// after it ("turn turn 1").
	name := ev.Name
	if name == string(ev.Kind) || strings.HasPrefix(name, string(ev.Kind)+" ") {
		fmt.Fprintf(&b, "%s %s", mark, name)
	} else {
		fmt.Fprintf(&b, "%s %s", mark, ev.Kind)
		if name != "" {
			fmt.Fprintf(&b, " %s", name)
		}
	}
	fmt.Fprintf(&b, " [d%d %s]", ev.Depth, fmtDuration(ev.DurationMS))
	b.WriteString(details(ev))
	if ev.Tokens != nil && ev.Tokens.Total > 0 {
		fmt.Fprintf(&b, " tokens=%d(%d+%d)", ev.Tokens.Total, ev.Tokens.Prompt, ev.Tokens.Completion)
	}
	if ev.CostUSD > 0 {
		est := ""
		if !ev.CostKnown {
			est = "~"
		}
		fmt.Fprintf(&b, " cost=%s$%.6f", est, ev.CostUSD)
	}
	if ev.Bytes > 0 {
		fmt.Fprintf(&b, " bytes=%d", ev.Bytes)
	}
	if ev.Status != StatusOK && status != "" {
		fmt.Fprintf(&b, " status=%s", status)
	}
	if ev.Error != nil {
		fmt.Fprintf(&b, " error=%s/%s", ev.Error.Phase, ev.Error.Kind)
	}
	return b.String()
}

// oneLine escapes the control characters (newlines, terminal escapes) a
// hand-edited or hostile file may put in a name or an error kind, so each
// event stays one line and nothing reaches the terminal as a command.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func fmtDuration(ms float64) string {
	switch {
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", ms/1000)
	case ms >= 1:
		return fmt.Sprintf("%.1fms", ms)
	default:
		return fmt.Sprintf("%.0fµs", ms*1000)
	}
}
