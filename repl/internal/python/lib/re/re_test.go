package re

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/copy"
)

// The corpus testdata/cases.py is recorded from CPython 3.12 into
// testdata/cases.json by
//
//	cd testdata && PYTHONHASHSEED=0 /root/.pyenv/versions/3.12.1/bin/python3.12 gen_cases.py
//
// Each cell runs twice here: with C(s) returning s, and with C(s)
// returning a context (a str the host owns) over s. Both runs must print
// what CPython printed and end with the same exception and warnings.

type recordedCell struct {
	Name     string   `json:"name"`
	Src      string   `json:"src"`
	Stdout   string   `json:"stdout"`
	Exc      *excRec  `json:"exc"`
	Warnings []string `json:"warnings"`
}

type excRec struct {
	Type string `json:"type"`
	Msg  string `json:"msg"`
}

// memText is a context held in memory; it counts the host operations.
type memText struct {
	name string
	b    []byte
	ops  map[string]int
}

func (m *memText) Size() int64  { return int64(len(m.b)) }
func (m *memText) Name() string { return m.name }
func (m *memText) View(ctx context.Context, op string, f func(b []byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.ops != nil {
		m.ops[op]++
	}
	return f(m.b)
}

func newContext(s string) python.Object {
	return python.NewHostStr(&memText{name: "context", b: []byte(s)})
}

// runResult is what a cell did.
type runResult struct {
	stdout, stderr string
	exc            *python.Exception
	excMsg         string
	err            error
}

// run executes src in a fresh interpreter, with C bound as asked.
func run(ctx context.Context, src string, contexts bool, maxValue int64) runResult {
	Register()
	copy.Register()
	in := python.New(python.Config{MaxValueBytes: maxValue})
	defer in.Close()
	var out, errOut strings.Builder
	t := python.NewThread(ctx, in, 200_000_000, func(s string) { out.WriteString(s) })
	t.SetStderr(func(s string) { errOut.WriteString(s) })
	in.Globals().SetStr("C", python.NewBuiltin("C", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if !contexts {
			return args[0], nil
		}
		return newContext(python.StrValue(args[0])), nil
	}))
	err := in.Exec(t, src, "<test>")
	r := runResult{stdout: out.String(), stderr: errOut.String()}
	if e, ok := python.AsException(err); ok {
		r.exc = e
		r.excMsg, _ = python.StrOf(t, e)
	} else {
		r.err = err
	}
	return r
}

// warnings extracts "Category: message" from what the module printed to
// stderr ("<cell>:LINE: Category: message").
func warnings(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if line == "" {
			continue
		}
		if i := strings.Index(line, ": "); i >= 0 && strings.HasPrefix(line, "<cell>:") {
			line = line[i+2:]
		}
		out = append(out, line)
	}
	return out
}

func loadCells(t *testing.T) []recordedCell {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cells []recordedCell
	if err := json.Unmarshal(data, &cells); err != nil {
		t.Fatal(err)
	}
	return cells
}

func TestRecordedCells(t *testing.T) {
	cells := loadCells(t)
	lines := 0
	for _, c := range cells {
		lines += strings.Count(c.Stdout, "\n")
		for _, contexts := range []bool{false, true} {
			name := c.Name
			if contexts {
				name += "/context"
			}
			t.Run(name, func(t *testing.T) {
				r := run(context.Background(), c.Src, contexts, 64<<20)
				if r.err != nil {
					t.Fatalf("stopped: %v", r.err)
				}
				if strings.HasPrefix(c.Name, "refused_") {
					// An explicit refusal: NotImplementedError naming code
					// mode, after a prefix of CPython's output.
					if r.exc == nil || r.exc.TypeName() != "NotImplementedError" || !strings.Contains(r.excMsg, "not supported in code mode") {
						t.Fatalf("not refused explicitly: %v %q", r.exc, r.excMsg)
					}
					if !strings.HasPrefix(c.Stdout, r.stdout) {
						t.Errorf("stdout is not a prefix of CPython's:\n%s", diffLines(r.stdout, c.Stdout))
					}
					return
				}
				if strings.HasPrefix(c.Name, "corebug_") {
					// A difference the interpreter's core causes (see the
					// report); the cell documents it.
					if r.stdout != c.Stdout || (r.exc == nil) != (c.Exc == nil) {
						t.Skipf("known core difference:\n%s", diffLines(r.stdout, c.Stdout))
					}
					t.Logf("now exact: the core was fixed")
					return
				}
				if r.stdout != c.Stdout {
					t.Errorf("stdout differs:\n%s", diffLines(r.stdout, c.Stdout))
				}
				switch {
				case c.Exc == nil && r.exc != nil:
					t.Errorf("raised %s: %s", r.exc.TypeName(), r.excMsg)
				case c.Exc != nil && r.exc == nil:
					t.Errorf("did not raise %s: %s", c.Exc.Type, c.Exc.Msg)
				case c.Exc != nil:
					if r.exc.TypeName() != c.Exc.Type || r.excMsg != c.Exc.Msg {
						t.Errorf("raised %s: %s; want %s: %s", r.exc.TypeName(), r.excMsg, c.Exc.Type, c.Exc.Msg)
					}
				}
				got := warnings(r.stderr)
				if strings.Join(got, "\n") != strings.Join(c.Warnings, "\n") {
					t.Errorf("warnings %q, want %q", got, c.Warnings)
				}
			})
		}
	}
	t.Logf("%d recorded cells, %d lines of expected output, each run with str and context subjects", len(cells), lines)
}

// diffLines shows the first differing lines of got and want.
func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	n := 0
	for i := 0; i < max(len(g), len(w)) && n < 8; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			b.WriteString("  got:  " + gl + "\n  want: " + wl + "\n")
			n++
		}
	}
	return b.String()
}

// TestMatchSize keeps a Match in the 128-byte size class (one per search).
func TestMatchSize(t *testing.T) {
	if n := unsafe.Sizeof(Match{}); n > 128 {
		t.Fatalf("Match is %d bytes, want at most 128", n)
	}
}
