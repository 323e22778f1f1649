package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPRuns builds the example and runs it as a user would: its own MCP
// client lists the served tools, searches the sample log and gets the
// run's answer over MCP.
func TestMCPRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=") // the cassette needs no key
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mcp: %v\n%s", err, out)
	}
	for _, want := range []string{"tool: rlm_run", "tool: context_search", "match: 2026-12-01T10:00:07Z billing ERROR",
		"rlm_run completed: billing failed first"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
