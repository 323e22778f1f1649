package sre

import (
	"os"
	"testing"
)

// TestMain checks, before any test runs, that linking the package built
// none of its tables: they are built by the first compile (issue 35, item
// 5: start-up does no work a command does not use).
func TestMain(m *testing.M) {
	if latin1Lower['A'] != 0 || lowerPreimage != nil {
		println("sre: tables were built at package init")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestCompileBuildsTables(t *testing.T) {
	if _, err := Compile("a", 0); err != nil {
		t.Fatal(err)
	}
	if latin1Lower['A'] != 'a' || !isUniWord('é') || len(lowerPreimage) == 0 {
		t.Fatal("Compile did not build the tables")
	}
}
