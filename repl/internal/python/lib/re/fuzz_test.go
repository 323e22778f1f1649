package re

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// FuzzModule runs the module's functions on arbitrary patterns, subjects
// and templates, as str, as a context and as bytes. Nothing may panic or
// run away, and a context subject must give exactly what the same str
// gives.
//
//	go test -run XXX -fuzz FuzzModule -fuzztime 1m ./repl/internal/python/lib/re/
func FuzzModule(f *testing.F) {
	seeds := []struct {
		pat, s, repl string
		flags        uint16
	}{
		{`(\w+)@(\w+)`, "a@b c@d", `\2-\1`, 0},
		{`(?P<x>é+)|(ö)`, "ééöx", `\g<x>`, 2},
		{`x*`, "axxb", `-`, 0},
		{`^(a|b)*?c$`, "ababc\nc", `\1\n`, 8},
		{`(?s).`, "😀\n", `\0`, 16},
		{`[[a]`, "a[", `\q`, 0},
		{`(a)(?(1)b|c)`, "abac", `\g<1>`, 0},
		{`(?<=ä)\b`, "äb ä", ``, 256},
	}
	for _, s := range seeds {
		f.Add(s.pat, s.s, s.repl, s.flags)
	}
	oldBase, oldPer := stepBase, stepsPerByte
	stepBase, stepsPerByte = 200_000, 16
	f.Cleanup(func() { stepBase, stepsPerByte = oldBase, oldPer })
	f.Fuzz(func(t *testing.T, pat, subject, repl string, flags uint16) {
		fl := int64(flags) & (2 | 8 | 16 | 64 | 256)
		Register()
		in := python.New(python.Config{MaxValueBytes: 1 << 20})
		defer in.Close()
		th := python.NewThread(context.Background(), in, 5_000_000, nil)
		th.SetStderr(func(string) {})
		mod, err := in.Import(th, "re")
		if err != nil {
			t.Fatal(err)
		}
		m := mod.(*python.Module)
		outcome := func(subj, p, r python.Object) string {
			var b strings.Builder
			try := func(name string, args ...python.Object) python.Object {
				fn, _ := python.GetAttr(th, m, name)
				v, err := python.Call(th, fn, args, nil)
				if err != nil {
					if _, ok := python.AsException(err); !ok {
						t.Fatalf("%s: not an exception: %v", name, err)
					}
					b.WriteString(name + " error: " + err.Error() + "\n")
					return nil
				}
				if name == "finditer" {
					return v
				}
				s, err := python.Repr(th, v)
				if err != nil {
					b.WriteString(name + " repr error: " + err.Error() + "\n")
					return v
				}
				b.WriteString(name + ": " + s + "\n")
				return v
			}
			flagObj := python.MakeInt(fl)
			for _, fn := range []string{"search", "match", "fullmatch", "findall", "split"} {
				if fn == "split" {
					try(fn, p, subj, python.MakeInt(0), flagObj)
				} else {
					try(fn, p, subj, flagObj)
				}
			}
			try("sub", p, r, subj, python.MakeInt(0), flagObj)
			try("subn", p, python.NewBuiltin("f", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
				g, err := python.CallMethod(t, args[0], "group", nil, nil)
				if err != nil {
					return nil, err
				}
				return g, nil
			}), subj, python.MakeInt(3), flagObj)
			if it := try("finditer", p, subj, flagObj); it != nil {
				n := 0
				err := python.Iterate(th, it, func(x python.Object) error {
					n++
					if n > 50 {
						return python.ErrStop
					}
					for _, meth := range []string{"groups", "groupdict", "span"} {
						if v, err := python.CallMethod(th, x, meth, nil, nil); err == nil {
							s, _ := python.Repr(th, v)
							b.WriteString(meth + ": " + s + "\n")
						}
					}
					if v, err := python.CallMethod(th, x, "expand", []python.Object{r}, nil); err == nil {
						s, _ := python.Repr(th, v)
						b.WriteString("expand: " + s + "\n")
					} else {
						b.WriteString("expand error: " + err.Error() + "\n")
					}
					return nil
				})
				if err != nil {
					b.WriteString("finditer error: " + err.Error() + "\n")
				}
			}
			return b.String()
		}
		str := outcome(python.NewStr(subject), python.NewStr(pat), python.NewStr(repl))
		ctx := outcome(newContext(subject), python.NewStr(pat), python.NewStr(repl))
		if str != ctx {
			t.Fatalf("str and context differ:\nstr:\n%s\ncontext:\n%s", str, ctx)
		}
		outcome(python.NewBytes(subject), python.NewBytes(pat), python.NewBytes(repl))
	})
}
