package main

import (
	"testing"

	"github.com/rlm-go/rlm/internal/exampletest"
)

// TestCustomToolRuns builds the example and runs it as a user would: the
// model's cell calls the program's tool, and the answer holds its results.
func TestCustomToolRuns(t *testing.T) {
	exampletest.Contains(t, exampletest.Run(t), "api: degraded, billing: down", "2 tool call(s)")
}
