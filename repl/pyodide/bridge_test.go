package pyodide

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl"
)

// memText is a repl.Text over bytes in memory.
type memText struct {
	name string
	b    []byte
}

func (m memText) Size() int64  { return int64(len(m.b)) }
func (m memText) Name() string { return m.name }
func (m memText) View(ctx context.Context, op string, f func(b []byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return f(m.b)
}

// TestBridge exposes host values to Python: a builtin, a builtin that
// returns a context, plain data, and a context used through len, slicing,
// indexing, `in`, iteration, str and methods, with code-point semantics.
func TestBridge(t *testing.T) {
	var seen []string
	doc := memText{"doc", []byte("alpha béta gamma")}
	host := map[string]any{
		"doc":   doc,
		"facts": []any{int64(1), "two", map[string]any{"k": 3.5}},
		"shout": repl.Builtin(func(c *repl.Call) (any, error) {
			s, ok := c.Args[0].(string)
			if !ok {
				return nil, repl.Raise("TypeError", "shout(): want a str")
			}
			n := int64(1)
			if v, ok := c.Kwarg("times"); ok {
				n = v.(int64)
			}
			seen = append(seen, s)
			return strings.Repeat(s+"!", int(n)), nil
		}),
		"echo": repl.Builtin(func(c *repl.Call) (any, error) { return c.Args[0], nil }),
		"spend": repl.Builtin(func(*repl.Call) (any, error) {
			return nil, repl.Fatal(fault.New(fault.PhaseBudget, "budget_exceeded", "no more calls"))
		}),
	}
	funcs, py := NewBridge().Expose(host)
	it := start(t, Config{}, funcs, py)
	out := exec1(t, it, "print(len(doc), doc[0:5], doc[-5:], doc[7], 'béta' in doc, 'zeta' in doc)\n"+
		"print(doc.upper(), doc.find('gamma'), doc.split(' '))\n"+
		"print(shout('hi', times=2), shout(doc[:5]), facts)\n"+
		"print(len(echo(doc)), echo(doc)[6:10])\n")
	want := "16 alpha gamma é True False\nALPHA BÉTA GAMMA 11 ['alpha', 'béta', 'gamma']\nhi!hi! alpha! [1, 'two', {'k': 3.5}]\n16 béta\n"
	if out.Exception != nil || out.Stdout != want {
		t.Fatalf("got %+v\nwant %q", out, want)
	}
	if len(seen) != 2 || seen[1] != "alpha" {
		t.Fatalf("seen %v", seen)
	}
	out = exec1(t, it, "try:\n    shout(3)\nexcept TypeError as e:\n    print('error')\n")
	if out.Stdout != "error\n" {
		t.Fatalf("got %+v", out)
	}
	_, err := it.Exec(context.Background(), "spend()\n")
	if fe := fault.As(err); fe == nil || fe.Kind != "budget_exceeded" || !errors.Is(err, fe) {
		t.Fatalf("err %v", err)
	}
}

// Host objects count against the value bound (HostObjectBytes each): a cell
// that makes more than the bound allows gets MemoryError, and so does every
// later builtin call of that cell, while the table stays within the bound;
// objects Python no longer refers to leave the table. Before, issue 30's
// `for i in range(1990): context.partition(bytes=1)` registered 1,990,000
// proxies and grew the rlm process to 1.3-1.5 GB.
func TestHostObjectsBounded(t *testing.T) {
	const bound = 1000
	b := NewBridge().WithMaxValueBytes(bound * HostObjectBytes)
	host := map[string]any{
		"doc": memText{"doc", []byte("alpha")},
		"parts": repl.Builtin(func(c *repl.Call) (any, error) {
			n := c.Args[0].(int64)
			out := make([]any, n)
			for i := range out {
				out[i] = &memText{"part", []byte("x")}
			}
			return out, nil
		}),
		"ping": repl.Builtin(func(*repl.Call) (any, error) { return "pong", nil }),
	}
	funcs, py := b.Expose(host)
	it := start(t, Config{}, funcs, py)
	base := b.Objects()

	out := exec1(t, it, "for i in range(50):\n    parts(100)\n")
	if out.Exception == nil || out.Exception.Type != "MemoryError" {
		t.Fatalf("a cell making 5,000 objects under a bound of %d: %+v", bound, out)
	}
	if n := b.Objects(); n > base+bound {
		t.Fatalf("the table holds %d objects, over the bound", n)
	}
	// Past the bound, the rest of the cell's builtin calls are refused.
	out = exec1(t, it, "try:\n    for i in range(50):\n        parts(100)\nexcept MemoryError:\n    pass\nping()\n")
	if out.Exception == nil || out.Exception.Type != "MemoryError" {
		t.Fatalf("a call after the bound: %+v", out)
	}
	// A new cell starts afresh; dropped proxies leave the table.
	out = exec1(t, it, "keep = parts(600)\nprint(len(keep), len(keep[0]), ping())\n")
	if out.Exception != nil || out.Stdout != "600 1 pong\n" {
		t.Fatalf("got %+v", out)
	}
	if n := b.Objects(); n > base+600 {
		t.Fatalf("the table holds %d objects, want at most %d", n, base+600)
	}
	// Held objects count too: 600 + 600 is over the bound.
	out = exec1(t, it, "more = parts(600)\n")
	if out.Exception == nil || out.Exception.Type != "MemoryError" || !strings.Contains(out.Exception.Message, "holds") {
		t.Fatalf("holding 1,200 objects: %+v", out)
	}
	exec1(t, it, "del keep\n")
	if n := b.Objects(); n != base {
		t.Fatalf("after del: the table holds %d objects, want %d", n, base)
	}
	out = exec1(t, it, "more = parts(600)\nprint(len(more), str(doc))\nFINAL('ok')\n")
	if out.Exception != nil || out.Final == nil || out.Stdout != "600 alpha\n" {
		t.Fatalf("got %+v", out)
	}
}
