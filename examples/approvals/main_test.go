package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestApprovalsRuns builds the example and runs it as a user would: the
// run stops for the approval, the program approves it, and the resumed
// run pages once.
func TestApprovalsRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "approvals")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=") // the cassette needs no key
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("approvals: %v\n%s", err, out)
	}
	for _, want := range []string{"waits for an approval", `approval_1: page_oncall {"service":"billing"} (pending)`,
		"paged the on-call engineer of billing"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(string(out), "the pager rings"); n != 1 {
		t.Errorf("the pager rang %d times, want once:\n%s", n, out)
	}
}
