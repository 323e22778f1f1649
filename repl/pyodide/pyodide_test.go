package pyodide

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start starts an interpreter or skips the test where Node.js or the
// pyodide package is missing. With RLM_REQUIRE_PYODIDE=1 (CI sets it after
// installing both) a missing interpreter fails the test instead.
func start(t *testing.T, cfg Config, funcs map[string]Func, host string) *Interp {
	t.Helper()
	it, err := Start(context.Background(), cfg, funcs, host)
	if err != nil {
		if fault.KindOf(err) == KindUnavailable && os.Getenv("RLM_REQUIRE_PYODIDE") == "" {
			t.Skipf("pyodide not available: %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(it.Close)
	return it
}

func exec1(t *testing.T, it *Interp, src string) *repl.Outcome {
	t.Helper()
	out, err := it.Exec(context.Background(), src)
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	return out
}

// TestInterp runs every behaviour on one interpreter, since starting
// Pyodide takes seconds.
func TestInterp(t *testing.T) {
	var calls atomic.Int64
	funcs := map[string]Func{
		"llm_query": func(ctx context.Context, args []any, kw map[string]any) (any, error) {
			calls.Add(1)
			return fmt.Sprintf("answer to %v", args[0]), nil
		},
		"boom": func(ctx context.Context, args []any, kw map[string]any) (any, error) {
			return nil, errors.New("tool said no")
		},
		"spend": func(ctx context.Context, args []any, kw map[string]any) (any, error) {
			return nil, repl.Fatal(fault.New(fault.PhaseBudget, "budget_exceeded", "out of model calls"))
		},
	}
	host := "class Greeter:\n    def hi(self, who):\n        return llm_query('hi ' + who)\ngreeter = Greeter()\n"
	it := start(t, Config{MaxOutputBytes: 4000, CellTimeout: 20 * time.Second}, funcs, host)

	t.Run("python semantics and persistence", func(t *testing.T) {
		out := exec1(t, it, "import re, json\nfrom collections import Counter\nx = 41\nc = Counter('abca')\nprint(f\"{x + 1:>5}|{3.14159:.2f}\", c.most_common(1))\n")
		if out.Exception != nil || out.Stdout != "   42|3.14 [('a', 2)]\n" {
			t.Fatalf("got %+v", out)
		}
		out = exec1(t, it, "try:\n    y = x / 0\nexcept ZeroDivisionError as e:\n    y = -1\nprint(y, x)\n")
		if out.Stdout != "-1 41\n" {
			t.Fatalf("variables did not persist: %+v", out)
		}
	})
	t.Run("host builtins and host code", func(t *testing.T) {
		out := exec1(t, it, "r = [llm_query(f'q{i}') for i in range(3)]\nprint(r[2], greeter.hi('bob'))\n")
		if out.Stdout != "answer to q2 answer to hi bob\n" || calls.Load() != 4 {
			t.Fatalf("got %+v calls=%d", out, calls.Load())
		}
		out = exec1(t, it, "try:\n    boom()\nexcept RuntimeError as e:\n    print('caught', e)\n")
		if out.Stdout != "caught tool said no\n" {
			t.Fatalf("got %+v", out)
		}
	})
	t.Run("exception is an outcome with its line", func(t *testing.T) {
		out := exec1(t, it, "a = 1\nb = undefined_name\n")
		if out.Exception == nil || out.Exception.Type != "NameError" || out.Exception.Line != 2 {
			t.Fatalf("got %+v", out.Exception)
		}
		out = exec1(t, it, "def f(:\n")
		if out.Exception == nil || out.Exception.Type != "SyntaxError" {
			t.Fatalf("got %+v", out.Exception)
		}
	})
	t.Run("output is bounded", func(t *testing.T) {
		out := exec1(t, it, "print('x' * 10000)\n")
		if len(out.Stdout) != 4000 || out.CutBytes != 6001 {
			t.Fatalf("kept %d cut %d", len(out.Stdout), out.CutBytes)
		}
	})
	// In bytes of UTF-8, as the embedded interpreter counts, never part of
	// a character, and nothing after the cut. Before, the bound counted
	// characters: 4000 of these kept 12,000 bytes.
	t.Run("output is bounded in bytes", func(t *testing.T) {
		out := exec1(t, it, "print('中' * 3000)\nprint('after')\n")
		if len(out.Stdout) != 3999 || !utf8.ValidString(out.Stdout) || len(out.Stdout)+out.CutBytes != 9001+6 {
			t.Fatalf("kept %d bytes (valid UTF-8: %v), cut %d", len(out.Stdout), utf8.ValidString(out.Stdout), out.CutBytes)
		}
	})
	t.Run("finishing", func(t *testing.T) {
		out := exec1(t, it, "FINAL({'n': 3})\nprint('not reached')\n")
		if out.Final == nil || out.Stdout != "" {
			t.Fatalf("got %+v", out)
		}
		if m, ok := out.Final.Value.(map[string]any); !ok || fmt.Sprint(m["n"]) != "3" {
			t.Fatalf("final %#v", out.Final.Value)
		}
		out = exec1(t, it, "total = 7\nFINAL_VAR('total')\n")
		if out.Final == nil || fmt.Sprint(out.Final.Value) != "7" {
			t.Fatalf("got %+v", out.Final)
		}
		out = exec1(t, it, "answer = {'content': 'done', 'ready': False}\n")
		if out.Final != nil {
			t.Fatalf("not ready must not finish: %+v", out.Final)
		}
		out = exec1(t, it, "answer['ready'] = True\n")
		if out.Final == nil || out.Final.Value != "done" {
			t.Fatalf("got %+v", out.Final)
		}
		exec1(t, it, "del answer\n")
	})
	t.Run("SHOW_VARS hides the runtime's names", func(t *testing.T) {
		out := exec1(t, it, "SHOW_VARS()\n")
		if !strings.Contains(out.Stdout, "x: int = 41") || strings.Contains(out.Stdout, "llm_query") || strings.Contains(out.Stdout, "greeter") || strings.Contains(out.Stdout, "_rlm") {
			t.Fatalf("got %q", out.Stdout)
		}
	})
	t.Run("a fatal builtin error ends the cell and is returned", func(t *testing.T) {
		out, err := it.Exec(context.Background(), "try:\n    spend()\nexcept BaseException:\n    pass\nprint('after')\nspend()\n")
		if fault.KindOf(err) != "budget_exceeded" {
			t.Fatalf("err %v", err)
		}
		if out == nil {
			t.Fatal("no outcome")
		}
	})
	t.Run("no file system, network or environment beyond the sandbox", func(t *testing.T) {
		out := exec1(t, it, "import os\nprint(sorted(k for k in os.environ if k in ('OPENAI_API_KEY','PATH','HOME')))\ntry:\n    open('/etc/hostname').read()\n    print('read')\nexcept Exception as e:\n    print(type(e).__name__)\n")
		if strings.Contains(out.Stdout, "OPENAI_API_KEY") || strings.Contains(out.Stdout, "read\n") {
			t.Fatalf("sandbox leaked: %q", out.Stdout)
		}
	})
}

func TestBounds(t *testing.T) {
	it := start(t, Config{CellTimeout: 3 * time.Second, MaxMemoryBytes: 400 << 20}, nil, "")
	exec1(t, it, "kept = 1\n")
	out := exec1(t, it, "while True:\n    pass\n")
	if out.Exception == nil || out.Exception.Type != "TimeoutError" {
		t.Fatalf("got %+v", out)
	}
	// The interpreter was restarted: it answers, and the old variable is gone.
	out = exec1(t, it, "print('kept' in globals())\n")
	if out.Stdout != "False\n" {
		t.Fatalf("got %+v", out)
	}
	// The memory and recursion limits must be reached whatever the load:
	// a fresh interpreter whose cell timeout is far away.
	it = start(t, Config{CellTimeout: 5 * time.Minute, MaxMemoryBytes: 400 << 20}, nil, "")
	out = exec1(t, it, "blocks = []\nwhile True:\n    blocks.append(b'x' * (32 << 20))\n")
	if out.Exception == nil || (out.Exception.Type != "MemoryError") {
		t.Fatalf("got %+v", out.Exception)
	}
	out = exec1(t, it, "def f(n):\n    return f(n + 1)\nf(0)\n")
	if out.Exception == nil || out.Exception.Type != "RecursionError" {
		t.Fatalf("got %+v", out.Exception)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The cell calls running() and then loops: cancelled while it runs,
	// not after a 300 ms sleep that a loaded machine may spend before the
	// cell starts.
	funcs := map[string]Func{"running": func(context.Context, []any, map[string]any) (any, error) {
		cancel()
		return nil, nil
	}}
	it := start(t, Config{}, funcs, "")
	_, err := it.Exec(ctx, "running()\nwhile True:\n    pass\n")
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("err %v", err)
	}
	if _, err := it.Exec(context.Background(), "x = 1\n"); fault.KindOf(err) != KindInterpreterGone {
		t.Fatalf("after cancel: %v", err)
	}
}

func TestUnavailable(t *testing.T) {
	_, err := Start(context.Background(), Config{PackageDir: t.TempDir()}, nil, "")
	if fault.KindOf(err) != KindUnavailable || fault.HintOf(err) == "" {
		t.Fatalf("err %v", err)
	}
	_, err = Start(context.Background(), Config{Node: "/nonexistent/node"}, nil, "")
	if fault.KindOf(err) != KindUnavailable {
		t.Fatalf("err %v", err)
	}
}
