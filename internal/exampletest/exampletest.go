// Package exampletest runs the programs under examples/ as a user would:
// built with go build, run with no network and no API key (their model
// replies come from recorded cassettes), their output returned.
package exampletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Run builds the example in the current directory (the test's package)
// and runs it with args and OPENAI_API_KEY empty; it fails t when
// the build or the program fails, and returns the program's combined
// output.
func Run(t testing.TB, args ...string) string {
	t.Helper()
	return RunBuilt(t, Build(t), args...)
}

// Build builds the example in the current directory into t's temporary
// directory and returns the program's path.
func Build(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(wd))
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// RunBuilt runs the program bin (Build) as Run does.
func RunBuilt(t testing.TB, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=") // the cassette needs no key
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(bin), err, out)
	}
	return string(out)
}

// Contains fails t for each of wants that out lacks.
func Contains(t testing.TB, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
