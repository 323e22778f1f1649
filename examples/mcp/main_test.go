package main

import (
	"testing"

	"github.com/rlm-go/rlm/internal/exampletest"
)

// TestMCPRuns builds the example and runs it as a user would: its own MCP
// client lists the served tools, searches the sample log and gets the
// run's answer over MCP.
func TestMCPRuns(t *testing.T) {
	exampletest.Contains(t, exampletest.Run(t), "tool: rlm_run", "tool: context_search",
		"match: 2026-12-01T10:00:07Z billing ERROR", "rlm_run completed: billing failed first")
}
