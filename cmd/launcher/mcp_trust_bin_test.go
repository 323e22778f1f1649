package launcher

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMCPTrustThroughBinary: through the built binary, the --mcp file's
// per-server and per-tool "effect" and "authority" decide an MCP tool's
// effect class and authority ceiling; the server's annotations are listed
// as hints by "tools list" (JSON and --text) and decide nothing: echo
// declares readOnlyHint, yet under --authority dangerous it still waits for
// approval because the host capped it at approve_diff.
func TestMCPTrustThroughBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := fakeMCPConfig(t, dir, map[string]any{"authority": "allow_session",
		"tools": map[string]any{"echo": map[string]any{"authority": "approve_diff"}, "add": map[string]any{"effect": "write"}}})
	r := runBinary(t, nil, nil, "tools", "list", "--workspace", dir, "--mcp", cfg)
	if r.code != 0 {
		t.Fatalf("tools list: exit %d: %s", r.code, r.stderr)
	}
	type hints struct {
		ReadOnly *bool `json:"readOnlyHint"`
	}
	var list []struct {
		Name, Effect string
		Ceiling      string `json:"authority_ceiling"`
		MCP          *struct {
			Server, Tool string
			Hints        *hints `json:"server_hints"`
		} `json:"mcp"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range list {
		v := s.Effect + " " + s.Ceiling
		if s.MCP != nil {
			v += " " + s.MCP.Server + "/" + s.MCP.Tool
			if s.MCP.Hints != nil && s.MCP.Hints.ReadOnly != nil {
				v += " readOnlyHint=" + map[bool]string{true: "true", false: "false"}[*s.MCP.Hints.ReadOnly]
			}
		}
		got[s.Name] = v
	}
	for name, want := range map[string]string{
		"mcp.fake.echo": "process approve_diff fake/echo readOnlyHint=true",
		"mcp.fake.add":  "write allow_session fake/add",
		"mcp.fake.hang": "process allow_session fake/hang",
		"fs_write":      "write ",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	r = runBinary(t, nil, nil, "tools", "list", "--text", "--workspace", dir, "--mcp", cfg)
	if r.code != 0 || !strings.Contains(r.stdout, "SERVER HINTS (MCP annotations; never authority)") ||
		!regexp.MustCompile(`(?m)^mcp\.fake\.echo +process +at most approve_diff +tool:mcp\.fake\.echo +fake: readOnlyHint=true destructiveHint=unset`).MatchString(r.stdout) ||
		!regexp.MustCompile(`(?m)^fs_read +read +none needed +tool:fs_read +-$`).MatchString(r.stdout) {
		t.Fatalf("tools list --text: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	// rlm direct under --authority dangerous: the capped echo waits, add
	// runs under its server's ceiling.
	for _, c := range []struct {
		tool, args, events string
		code               int
	}{
		{"mcp.fake.echo", `{"text":"ping"}`, "native_tool:c1:approval_required:approval_required", 3},
		{"mcp.fake.add", `{"a":2,"b":3}`, "native_tool:c1:ok:", 0},
	} {
		cdir := t.TempDir()
		cas := directCassette(t, cdir, directReply("", [3]string{"c1", c.tool, c.args}), directReply("done"))
		r := runBinary(t, nil, nil, "direct", "--replay", cas, "--json", "--workspace", dir, "--mcp", cfg,
			"--allow", "tool:"+c.tool, "--authority", "dangerous", "--state-dir", filepath.Join(cdir, "state"), "call the tool")
		if r.code != c.code {
			t.Fatalf("%s: exit %d: %s %s", c.tool, r.code, r.stdout, r.stderr)
		}
		if ev := eventSummary(parseDirect(t, r.stdout)); ev != c.events {
			t.Errorf("%s: events %q, want %q", c.tool, ev, c.events)
		}
	}
}
