package statistics

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/fractions"
	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// moduleCase is one case of testdata/module_cases.py as CPython 3.12 ran
// it. The recording is made by
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/module_gen.py
//
// run in this package's directory.
type moduleCase struct {
	Name    string `json:"name"`
	Src     string `json:"src"`
	Stdout  string `json:"stdout"`
	ExcType string `json:"exc_type"`
	ExcMsg  string `json:"exc_msg"`
}

func loadModuleCases(t testing.TB) []moduleCase {
	t.Helper()
	data, err := os.ReadFile("testdata/module_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []moduleCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestModule runs every recorded case through the interpreter and compares
// its output and its exception (type and message) with CPython's. A case
// named refused_* must instead raise code mode's NotImplementedError after
// printing a prefix of CPython's output.
func TestModule(t *testing.T) {
	for _, c := range loadModuleCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			res := libtest.Run(c.Src, moduleRegisters...)
			if res.Err != nil {
				t.Fatalf("run stopped: %v", res.Err)
			}
			if strings.HasPrefix(c.Name, "refused_") {
				if res.Exc == nil || res.Exc.Class().Name() != "NotImplementedError" || !strings.Contains(res.Exc.Message(), "not supported in code mode") {
					t.Fatalf("want code mode's NotImplementedError, got %v (stdout %q)", res.Exc, res.Stdout)
				}
				if !strings.HasPrefix(c.Stdout, res.Stdout) {
					t.Errorf("stdout %q is not a prefix of CPython's %q", res.Stdout, c.Stdout)
				}
				return
			}
			if res.Stdout != c.Stdout {
				t.Errorf("stdout:\n got: %q\nwant: %q", res.Stdout, c.Stdout)
			}
			gotType, gotMsg := "", ""
			if res.Exc != nil {
				gotType, gotMsg = res.Exc.Class().Name(), res.Exc.Message()
			}
			if why, ok := knownMessage[c.Name]; ok && gotType == c.ExcType {
				if gotMsg == c.ExcMsg {
					t.Errorf("the message is now CPython's: drop %q from knownMessage", c.Name)
				}
				t.Logf("known message difference (%s): got %q, want %q", why, gotMsg, c.ExcMsg)
				return
			}
			if gotType != c.ExcType || gotMsg != c.ExcMsg {
				t.Errorf("exception:\n got: %s: %s\nwant: %s: %s", gotType, gotMsg, c.ExcType, c.ExcMsg)
			}
		})
	}
}

// moduleRegisters register this module and fractions, whose values the
// functions take.
var moduleRegisters = []func(){Register, fractions.Register}

// knownMessage lists cases whose exception message differs from CPython's
// (same type), with the reason.
var knownMessage = map[string]string{}
