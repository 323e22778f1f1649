package rlm

import (
	"testing"

	"go.uber.org/goleak"
)

// Sessions stop every server, exporter and goroutine they start.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
