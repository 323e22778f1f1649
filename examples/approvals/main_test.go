package main

import (
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/exampletest"
)

// TestApprovalsRuns builds the example and runs it as a user would: the
// run stops for the approval, the program approves it, and the resumed
// run pages once.
func TestApprovalsRuns(t *testing.T) {
	out := exampletest.Run(t)
	exampletest.Contains(t, out, "waits for an approval", `approval_1: page_oncall {"service":"billing"} (pending)`,
		"paged the on-call engineer of billing")
	if n := strings.Count(out, "the pager rings"); n != 1 {
		t.Errorf("the pager rang %d times, want once:\n%s", n, out)
	}
}
