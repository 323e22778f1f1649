package pyodide

import (
	"context"
	"errors"
	"testing"

	"go.starlark.net/starlark"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl"
)

// TestBridge exposes Starlark values to Python: a builtin, a builtin that
// returns a host object, and a host object used through len, slicing,
// indexing, `in`, iteration, str and methods.
func TestBridge(t *testing.T) {
	var seen []string
	host := starlark.StringDict{
		"doc": starlark.String("alpha beta gamma"),
		"shout": starlark.NewBuiltin("shout", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			n := 1
			if err := starlark.UnpackArgs(b.Name(), args, kw, "s", &s, "times?", &n); err != nil {
				return nil, err
			}
			seen = append(seen, s)
			out := ""
			for range n {
				out += s + "!"
			}
			return starlark.String(out), nil
		}),
		"words": starlark.NewBuiltin("words", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.NewSet(1), nil // not JSON: comes back as a proxy
		}),
		"spend": starlark.NewBuiltin("spend", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, repl.Fatal(fault.New(fault.PhaseBudget, "budget_exceeded", "no more calls"))
		}),
	}
	funcs, py := NewBridge().Expose(host)
	it := start(t, Config{}, funcs, py)
	out := exec1(t, it, "print(len(doc), doc[0:5], doc[-5:], doc[6], 'beta' in doc, 'zeta' in doc)\n"+
		"print(doc.upper(), doc.find('gamma'), doc.split(' '))\n"+
		"print(shout('hi', times=2), shout(doc[:5]))\n"+
		"w = words()\nprint(repr(w), len(w))\n")
	want := "16 alpha gamma b True False\nALPHA BETA GAMMA 11 ['alpha', 'beta', 'gamma']\nhi!hi! alpha!\n<set> 0\n"
	if out.Exception != nil || out.Stdout != want {
		t.Fatalf("got %+v\nwant %q", out, want)
	}
	if len(seen) != 2 || seen[1] != "alpha" {
		t.Fatalf("seen %v", seen)
	}
	out = exec1(t, it, "try:\n    shout(3)\nexcept RuntimeError as e:\n    print('error')\n")
	if out.Stdout != "error\n" {
		t.Fatalf("got %+v", out)
	}
	_, err := it.Exec(context.Background(), "spend()\n")
	if fe := fault.As(err); fe == nil || fe.Kind != "budget_exceeded" || !errors.Is(err, fe) {
		t.Fatalf("err %v", err)
	}
}
