package main

import (
	"os"
	"testing"

	"github.com/rlm-go/rlm/internal/exampletest"
)

// TestDurableRuns builds the example and runs it against the test
// database (RLM_TEST_POSTGRES; CI starts one): the run is queued, a
// worker opens its Spec and completes it.
func TestDurableRuns(t *testing.T) {
	url := os.Getenv("RLM_TEST_POSTGRES")
	if url == "" {
		t.Skip("RLM_TEST_POSTGRES is not set (CI sets it)")
	}
	exampletest.Contains(t, exampletest.Run(t, url), "submitted; queued: true", "completed: 2 errors, first in billing")
}
