package engine

import (
	"os"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl/pyodide"
)

// Config.Python "pyodide" without the npm package fails before any model
// call, with pyodide's kind and a hint.
func TestCodePyodideUnavailable(t *testing.T) {
	f := newFixture(t, haystack, Config{Mode: ModeCode, Python: PythonPyodide, Pyodide: pyodide.Config{PackageDir: t.TempDir()}},
		reply("", py(`FINAL(1)`)))
	_, err := f.run(t, "q")
	if fault.KindOf(err) != pyodide.KindUnavailable || f.srv.Stats().Served != 0 {
		t.Fatalf("want %s before any call, got %v", pyodide.KindUnavailable, err)
	}
	if _, err := New(Config{Provider: f.eng.cfg.Provider, Store: f.store, Python: "jython"}); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatalf("want invalid_config, got %v", err)
	}
	if _, err := f.eng.NewSession(f.h); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatalf("sessions with pyodide: want invalid_config, got %v", err)
	}
}

// With Node.js and the npm package pyodide installed, the same builtins
// and the same finishing rules work in CPython.
func TestCodePyodideRun(t *testing.T) {
	if _, err := pyodide.PackageDir(""); err != nil {
		if os.Getenv("RLM_REQUIRE_PYODIDE") != "" { // CI installs it
			t.Fatal(err)
		}
		t.Skipf("pyodide not available: %v", err)
	}
	f := newFixture(t, haystack, Config{Mode: ModeCode, Python: PythonPyodide},
		reply("Query: q", py(`import re`, `m = re.search(r"token is (\S+)", context[:200])`, `print("found", m.group(1))`)),
		reply("found ABC-123", py(`FINAL(f"{m.group(1)} at {context.find('secret')}")`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "ABC-123 at 15" {
		t.Fatalf("%v %+v", err, res)
	}
}
