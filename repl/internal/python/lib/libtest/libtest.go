// Package libtest runs Python source in a fresh interpreter, for the
// tests of library modules.
package libtest

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Result is what a run printed and the exception it ended with.
type Result struct {
	Stdout string
	Exc    *python.Exception // nil if none
	Err    error             // a stop (steps, cancellation), not an exception
}

// ExcType returns the exception's type name ("" if none).
func (r Result) ExcType() string {
	if r.Exc == nil {
		return ""
	}
	return r.Exc.TypeName()
}

// Run executes src in a new interpreter in which the given register
// functions have registered their modules.
func Run(src string, register ...func()) Result {
	return RunContext(context.Background(), src, register...)
}

// RunContext is Run under ctx.
func RunContext(ctx context.Context, src string, register ...func()) Result {
	for _, r := range register {
		r()
	}
	in := python.New(python.Config{MaxValueBytes: 64 << 20})
	defer in.Close()
	var out strings.Builder
	t := python.NewThread(ctx, in, 50_000_000, func(s string) { out.WriteString(s) })
	err := in.Exec(t, src, "<test>")
	res := Result{Stdout: out.String()}
	if e, ok := python.AsException(err); ok {
		res.Exc = e
	} else {
		res.Err = err
	}
	return res
}

// Case is one case of a module's testdata/cases.py as CPython 3.12 ran
// it, recorded into testdata/cases.json by the module's testdata/gen.py
// (run in the module's directory with
// /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py).
type Case struct {
	Name    string `json:"name"`
	Src     string `json:"src"`
	Stdout  string `json:"stdout"`
	ExcType string `json:"exc_type"`
	ExcMsg  string `json:"exc_msg"`
}

// LoadCases reads testdata/cases.json of the package under test.
func LoadCases(t testing.TB) []Case {
	t.Helper()
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// Recorded runs every recorded case (LoadCases) in an interpreter with
// the modules of registers, and compares its output and its exception
// (type and message) with CPython's. A case named refused_* must instead
// raise code mode's NotImplementedError after printing a prefix of
// CPython's output. knownMessage lists cases whose exception message
// differs from CPython's for a stated reason outside the module: their
// type must match, and a listed case whose message becomes CPython's
// fails, so that the entry is dropped.
func Recorded(t *testing.T, registers []func(), knownMessage map[string]string) {
	for _, c := range LoadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			res := Run(c.Src, registers...)
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
