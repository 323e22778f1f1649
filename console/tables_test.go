package console_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
)

// controls returns the control characters of s other than newline.
func controls(s string) []rune {
	var out []rune
	for _, r := range s {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) {
			out = append(out, r)
		}
	}
	return out
}

// Every cell of the tools table is neutralized and stays on its line (a
// server's name for itself, its tool's title), and so is every cell of the
// approvals list (arguments and a reason come from a model or a person).
func TestTablesNeutralize(t *testing.T) {
	var b bytes.Buffer
	tools := []rlm.ListedTool{{Schema: tool.Schema{Name: "srv__t\x1b[2J", Effect: authority.EffectRead},
		MCP: &rlm.ListedMCP{Server: "srv\x1b]0;x\x07\nfake row", Tool: "t", ServerHints: &mcp.Hints{Title: "\x1b]52;c;eA==\x07"}}}}
	if err := console.WriteTools(&b, tools); err != nil {
		t.Fatal(err)
	}
	if c := controls(b.String()); len(c) > 0 || strings.Count(b.String(), "\n") != 2 {
		t.Fatalf("controls %q or a broken row:\n%q", c, b.String())
	}
	b.Reset()
	console.WriteApprovals(&b, []effect.Approval{{ID: "approval_1", State: effect.ApprovalDenied, Tool: "fs_write",
		Args: json.RawMessage(`{"path":"a\u001b[2J"}`), Reason: "no\n\x1b]52;c;eA==\x07"}})
	if c := controls(b.String()); strings.Count(b.String(), "\n") != 1 || strings.Count(b.String(), "\t") != 4 || len(c) != 4 {
		t.Fatalf("controls %q (want the 4 tabs only) or a broken row:\n%q", c, b.String())
	}
}
