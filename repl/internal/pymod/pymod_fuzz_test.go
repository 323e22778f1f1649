package pymod

import (
	"testing"

	"go.starlark.net/starlark"
)

func call(t *testing.T, thread *starlark.Thread, fn starlark.Value, args ...starlark.Value) (starlark.Value, error) {
	t.Helper()
	return starlark.Call(thread, fn, starlark.Tuple(args), nil)
}

func fuzzThread() *starlark.Thread {
	th := &starlark.Thread{Name: "fuzz"}
	th.SetLocal(LimitKey, int64(1<<20))
	th.SetMaxExecutionSteps(1 << 20)
	return th
}

// FuzzRe: no pattern, flag set, subject or template makes the re module panic
// or return something other than a value or an error.
func FuzzRe(f *testing.F) {
	f.Add(`(\d+)-(?P<b>\w+)`, 2, "a 12-ab 3-c", `\2:\1`)
	f.Add(`^a(?=b)`, 8, "ab\nab", `\g<0>`)
	f.Add(`[]a]|\Z`, 64, "]]a", `\9`)
	f.Add(`(`, 0, "", "")
	f.Fuzz(func(t *testing.T, pat string, flags int, s, repl string) {
		th := fuzzThread()
		for _, name := range []string{"search", "match", "fullmatch", "findall", "finditer", "split"} {
			_, _ = call(t, th, Re.Members[name], starlark.String(pat), starlark.String(s), starlark.MakeInt(flags&0x1ff))
		}
		_, _ = call(t, th, Re.Members["sub"], starlark.String(pat), starlark.String(repl), starlark.String(s))
		if m, err := call(t, th, Re.Members["search"], starlark.String(pat), starlark.String(s)); err == nil && m != starlark.None {
			mm := m.(*Match)
			for _, a := range []string{"group", "groups", "groupdict", "span", "start", "end"} {
				fn, _ := mm.Attr(a)
				_, _ = call(t, th, fn)
				_, _ = call(t, th, fn, starlark.MakeInt(1))
				_, _ = call(t, th, fn, starlark.String(repl))
			}
		}
		_, _ = call(t, th, Re.Members["escape"], starlark.String(s))
	})
}

// FuzzJSON: loads never panics, and what it accepts survives dumps/loads
// unchanged.
func FuzzJSON(f *testing.F) {
	f.Add(`{"a": [1, 2.5, null, true, "x\u00e9"], "b": {"c": -1e300}}`)
	f.Add(`[12345678901234567890123, -0.0, ""]`)
	f.Add(`{"a":`)
	f.Add(`[1E1000, -1e1000, NaN, Infinity, "\ud800"]`)
	f.Fuzz(func(t *testing.T, s string) {
		th := fuzzThread()
		v, err := call(t, th, JSON.Members["loads"], starlark.String(s))
		if err != nil {
			return
		}
		for _, indent := range []starlark.Value{starlark.None, starlark.MakeInt(2)} {
			out, err := starlark.Call(th, JSON.Members["dumps"], starlark.Tuple{v}, []starlark.Tuple{{starlark.String("indent"), indent}, {starlark.String("sort_keys"), starlark.True}})
			if err != nil {
				t.Fatalf("dumps of loaded %q: %v", s, err)
			}
			back, err := call(t, th, JSON.Members["loads"], out)
			if err != nil {
				t.Fatalf("loads(dumps(loads(%q))) = %v", s, err)
			}
			again, err := starlark.Call(th, JSON.Members["dumps"], starlark.Tuple{back}, []starlark.Tuple{{starlark.String("indent"), indent}, {starlark.String("sort_keys"), starlark.True}})
			if err != nil || again != out {
				t.Fatalf("dumps is not stable over loads for %q: %v then %v (%v)", s, out, again, err)
			}
		}
	})
}

// FuzzFormat: format specs and str.format templates never panic.
func FuzzFormat(f *testing.F) {
	f.Add(">10.3f", "{0:{1}} {name!r} {0[1]}", 3.25, int64(7))
	f.Add("_x", "{:,}{{}}", -1.5, int64(-12345678))
	f.Add("=+#012b", "{", 0.0, int64(0))
	f.Fuzz(func(t *testing.T, spec, tmpl string, fl float64, n int64) {
		th := fuzzThread()
		for _, v := range []starlark.Value{starlark.Float(fl), starlark.MakeInt64(n), starlark.String(spec), starlark.True, starlark.None, starlark.NewList([]starlark.Value{starlark.MakeInt(1)})} {
			_, _ = FormatValue(th, v, spec)
		}
		_, _ = Format(th, tmpl, starlark.Tuple{starlark.Float(fl), starlark.String(spec)}, []starlark.Tuple{{starlark.String("name"), starlark.MakeInt64(n)}})
	})
}
