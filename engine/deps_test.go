package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Packages the engine must not link: the tool runtime (and with it JSON
// Schema and the SQLite effect journal) is reached only through the small
// Tools interface, wired by callers (tool.ModelTools, cmd/rlm).
var heavyDeps = []string{
	"modernc.org/sqlite",
	"github.com/santhosh-tekuri/jsonschema",
	"github.com/rlm-go/rlm/tool",
	"github.com/rlm-go/rlm/effect",
}

// MaxHelloBinaryBytes bounds a program importing only engine and
// model/openai (testdata/hello).
const MaxHelloBinaryBytes = 10 << 20

func TestEngineStaysLight(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range heavyDeps {
			if dep == heavy || strings.HasPrefix(dep, heavy+"/") {
				t.Errorf("engine links %s", dep)
			}
		}
	}
	if testing.Short() {
		return // the build below takes seconds
	}
	bin := filepath.Join(t.TempDir(), "hello")
	if b, err := exec.Command(goBin, "build", "-o", bin, "./testdata/hello").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hello binary: %d bytes", fi.Size())
	if fi.Size() > MaxHelloBinaryBytes {
		t.Fatalf("a program importing only engine and model/openai is %d bytes, over %d", fi.Size(), MaxHelloBinaryBytes)
	}
}
