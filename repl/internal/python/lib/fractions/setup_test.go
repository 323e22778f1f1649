package fractions

import (
	"os"
	"testing"
)

// TestMain makes FractionType first: the tests of the Go API use
// Fractions without registering the module.
func TestMain(m *testing.M) {
	Setup()
	os.Exit(m.Run())
}
