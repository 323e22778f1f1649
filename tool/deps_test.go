package tool

import (
	"os/exec"
	"strings"
	"testing"
)

// TestValidatorStartsFree: package tool (and so every program that
// registers tools) links no JSON Schema package that does work at init.
// santhosh-tekuri/jsonschema compiles five drafts' meta-schemas in its
// init (about 3-6 ms per process); it stays a test-only reference for
// package tool/internal/jsonschema.
func TestValidatorStartsFree(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/santhosh-tekuri/jsonschema") {
			t.Errorf("package tool links %s", dep)
		}
	}
}
