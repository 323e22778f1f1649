package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/internal/exampletest"
)

// TestOwnCommandLineOffersTheTool builds the example and runs three of
// rlm's commands through it: the program's tool is listed, called, and
// called by the model from code mode (the replies are customtool's
// cassette: the same tool over the same log).
func TestOwnCommandLineOffersTheTool(t *testing.T) {
	bin := exampletest.Build(t)
	exampletest.Contains(t, exampletest.RunBuilt(t, bin, "tools", "list", "--text"), "service_status")
	exampletest.Contains(t, exampletest.RunBuilt(t, bin, "tools", "call", "service_status", "--args", `{"service":"billing"}`),
		`"status": "completed"`, `"state": "down"`)
	log := filepath.Join(t.TempDir(), "app.log")
	if err := os.WriteFile(log, []byte(appLog), 0o644); err != nil {
		t.Fatal(err)
	}
	exampletest.Contains(t, exampletest.RunBuilt(t, bin, "run", "--mode", "code", "--context", log,
		"--replay", "../customtool/cassette.json", "Which services are down or degraded now?"),
		"api: degraded, billing: down")
}

const appLog = `2026-12-01T10:00:01Z api INFO started
2026-12-01T10:00:07Z billing ERROR connection refused: db:5432
2026-12-01T10:00:09Z api ERROR upstream billing unavailable
`
