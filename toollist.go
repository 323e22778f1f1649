package rlm

import (
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
)

// ListedTool is one entry of "rlm tools list": the registry schema and,
// for an imported MCP tool, where it comes from and its server's hints.
type ListedTool struct {
	tool.Schema
	MCP *ListedMCP `json:"mcp,omitempty"`
}

// ListedMCP names an MCP tool's origin. ServerHints are the tool's
// annotations as the (untrusted) server declared them: shown to the host,
// never used for effect class, authority or visibility (docs/mcp.md).
type ListedMCP struct {
	Server      string     `json:"server"`
	Tool        string     `json:"tool"`
	ServerHints *mcp.Hints `json:"server_hints"`
}

// ListTools is what "rlm tools list" lists: it joins the registry's schemas with the MCP host's imports.
func ListTools(schemas []tool.Schema, h *mcp.Host) []ListedTool {
	imported := map[string]mcp.Imported{}
	if h != nil {
		for _, im := range h.Imported() {
			imported[im.Name] = im
		}
	}
	out := make([]ListedTool, len(schemas))
	for i, s := range schemas {
		out[i].Schema = s
		if im, ok := imported[s.Name]; ok {
			out[i].MCP = &ListedMCP{Server: im.Server, Tool: im.Tool, ServerHints: im.Hints}
		}
	}
	return out
}
