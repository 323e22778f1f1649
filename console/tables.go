package console

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/mcp"
)

// WriteTools prints the table of "rlm tools list --text": one line per tool; an MCP tool's
// last column holds its server's annotations, headed as hints.
func WriteTools(w io.Writer, tools []rlm.ListedTool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tEFFECT\tAUTHORITY\tCAPABILITY\tSERVER HINTS (MCP annotations; never authority)")
	for _, t := range tools {
		ceiling := "run's tier"
		switch {
		case t.Effect == authority.EffectRead:
			ceiling = "none needed"
		case t.AuthorityCeiling != "":
			ceiling = "at most " + string(t.AuthorityCeiling)
		}
		hints := "-"
		if t.MCP != nil {
			hints = t.MCP.Server + ": " + hintsText(t.MCP.ServerHints)
		}
		// Names and hints may come from an MCP server: no control
		// sequence of theirs reaches the terminal (and no tab or newline
		// breaks the table).
		row := []string{t.Name, string(t.Effect), ceiling, string(t.Capability), hints}
		for i, cell := range row {
			row[i] = cellSpace.Replace(termsafe.Text(cell))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

// cellSpace keeps a cell of the --text table on its line and column.
var cellSpace = strings.NewReplacer("\n", " ", "\t", " ")

// hintsText renders annotations; an unset optional hint is "unset" (the
// MCP defaults are destructive and open-world). The title is quoted, so
// that where the server's text starts and ends is visible (and, like every
// cell of the table, neutralized by WriteTools).
func hintsText(h *mcp.Hints) string {
	if h == nil {
		return "none declared"
	}
	opt := func(b *bool) string {
		if b == nil {
			return "unset"
		}
		return strconv.FormatBool(*b)
	}
	s := fmt.Sprintf("readOnlyHint=%t destructiveHint=%s idempotentHint=%t openWorldHint=%s",
		h.ReadOnlyHint, opt(h.DestructiveHint), h.IdempotentHint, opt(h.OpenWorldHint))
	if h.Title != "" {
		s += " title=" + strconv.QuoteToASCII(h.Title)
	}
	return s
}

// WriteApprovals prints one approval per line (rlm approve): id, state, tool, arguments,
// details and reason, every cell neutralized for the terminal.
func WriteApprovals(w io.Writer, as []effect.Approval) {
	if len(as) == 0 {
		fmt.Fprintln(w, "no approvals")
		return
	}
	for _, a := range as {
		cells := []string{a.ID, string(a.State), a.Tool, string(a.Args)}
		if len(a.Details) > 0 {
			cells = append(cells, "details "+string(a.Details))
		}
		if a.Reason != "" {
			cells = append(cells, "reason "+a.Reason)
		}
		for i, c := range cells {
			cells[i] = cellSpace.Replace(termsafe.Text(c))
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
}
