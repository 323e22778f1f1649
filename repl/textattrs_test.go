package repl

import (
	"strings"
	"testing"
)

// attrText is a memText with a host attribute "parts" (its lines, each a
// Text) and a host method "shout".
type attrText struct{ memText }

func (a attrText) Attrs() map[string]Builtin {
	return map[string]Builtin{"parts": func(c *Call) (any, error) {
		var out []any
		for i, l := range strings.SplitAfter(string(a.b), "\n") {
			if l != "" {
				out = append(out, memText{name: a.name + ".parts[" + string(rune('0'+i)) + "]", b: []byte(l)})
			}
		}
		return out, nil
	}}
}

func (a attrText) Methods() map[string]Builtin {
	return map[string]Builtin{"shout": func(c *Call) (any, error) { return strings.ToUpper(string(a.b)), nil }}
}

// A host text's attributes (TextAttrs) read as values: context.parts is a
// list whose items are texts; methods and str's methods still work.
func TestTextAttrs(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	if err := it.Set("context", attrText{memText{name: "context", b: []byte("ab\ncd\n")}}); err != nil {
		t.Fatal(err)
	}
	o := run(t, it, "p = context.parts\nprint(len(p), p[1].upper(), p[0][:1], context.shout(), context.count('\\n'))")
	if o.Exception != nil || o.Stdout != "2 CD\n a AB\nCD\n 2\n" {
		t.Fatalf("stdout = %q %+v", o.Stdout, o.Exception)
	}
	o = run(t, it, "context.nothing")
	if o.Exception == nil || o.Exception.Type != "AttributeError" {
		t.Fatalf("unknown attribute: %+v", o.Exception)
	}
}
