package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
)

// listedTool is one entry of "rlm tools list": the registry schema and,
// for an imported MCP tool, where it comes from and its server's hints.
type listedTool struct {
	tool.Schema
	MCP *listedMCP `json:"mcp,omitempty"`
}

// listedMCP names an MCP tool's origin. ServerHints are the tool's
// annotations as the (untrusted) server declared them: shown to the host,
// never used for effect class, authority or visibility (docs/mcp.md).
type listedMCP struct {
	Server      string     `json:"server"`
	Tool        string     `json:"tool"`
	ServerHints *mcp.Hints `json:"server_hints"`
}

// listTools joins the registry's schemas with the MCP host's imports.
func listTools(schemas []tool.Schema, h *mcp.Host) []listedTool {
	imported := map[string]mcp.Imported{}
	if h != nil {
		for _, im := range h.Imported() {
			imported[im.Name] = im
		}
	}
	out := make([]listedTool, len(schemas))
	for i, s := range schemas {
		out[i].Schema = s
		if im, ok := imported[s.Name]; ok {
			out[i].MCP = &listedMCP{Server: im.Server, Tool: im.Tool, ServerHints: im.Hints}
		}
	}
	return out
}

// writeToolsText prints the --text table: one line per tool; an MCP tool's
// last column holds its server's annotations, headed as hints.
func writeToolsText(w io.Writer, tools []listedTool) error {
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
// cell of the table, neutralized by writeToolsText).
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
