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
