package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDurableRuns builds the example and runs it against the test
// database (RLM_TEST_POSTGRES; CI starts one): the run is queued, a
// worker opens its Spec and completes it.
func TestDurableRuns(t *testing.T) {
	url := os.Getenv("RLM_TEST_POSTGRES")
	if url == "" {
		t.Skip("RLM_TEST_POSTGRES is not set (CI sets it)")
	}
	bin := filepath.Join(t.TempDir(), "durable")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, url)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=") // the cassette needs no key
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("durable: %v\n%s", err, out)
	}
	for _, want := range []string{"submitted; queued: true", "completed: 2 errors, first in billing"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
