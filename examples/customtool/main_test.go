package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCustomToolRuns builds the example and runs it as a user would: the
// model's cell calls the program's tool, and the answer holds its results.
func TestCustomToolRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "customtool")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=") // the cassette needs no key
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("customtool: %v\n%s", err, out)
	}
	for _, want := range []string{"api: degraded, billing: down", "2 tool call(s)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
