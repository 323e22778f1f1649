package trace

import (
	"fmt"
	"io"
	"strings"
)

// WriteTree prints events as an indented tree, one line per event, children
// under their parent in sequence order. Each line shows the kind, name,
// status and the key figures: duration, tokens, cost, bytes. Every event is
// printed exactly once, even in a malformed trace: an event whose parent is
// missing is a root, and events caught in a parent cycle (or under a
// duplicate id) are printed as roots after the rest.
func WriteTree(w io.Writer, events []Event) error {
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
	printed := make([]bool, len(events))
	expanded := make(map[string]bool, len(events)) // ids whose children were walked
	var walk func(i, level int) error
	walk = func(i, level int) error {
		printed[i] = true
		ev := events[i]
		if _, err := fmt.Fprintf(w, "%s%s\n", strings.Repeat("  ", level), Line(ev)); err != nil {
			return err
		}
		if expanded[ev.ID] {
			return nil
		}
		expanded[ev.ID] = true
		for _, c := range children[ev.ID] {
			if printed[c] {
				continue
			}
			if err := walk(c, level+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := walk(r, 0); err != nil {
			return err
		}
	}
	for i := range events {
		if !printed[i] {
			if err := walk(i, 0); err != nil {
				return err
			}
		}
	}
	return nil
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
	case "":
		mark = "·"
	}
	fmt.Fprintf(&b, "%s %s", mark, ev.Kind)
	if ev.Name != "" {
		fmt.Fprintf(&b, " %s", ev.Name)
	}
	fmt.Fprintf(&b, " [d%d %s]", ev.Depth, fmtDuration(ev.DurationMS))
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
