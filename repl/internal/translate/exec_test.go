package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// This file runs translated cells on go.starlark.net with minimal test-only
// versions of the helpers of HELPERS.md, to check that the emitted shapes
// behave like the Python source. Package repl owns the real helpers.

type pyErr struct {
	typ, msg string
}

func (e *pyErr) Error() string { return e.typ + ": " + e.msg }

type excValue struct{ e *pyErr }

func (v excValue) String() string        { return v.e.msg }
func (v excValue) Type() string          { return "exception" }
func (v excValue) Freeze()               {}
func (v excValue) Truth() starlark.Bool  { return true }
func (v excValue) Hash() (uint32, error) { return 0, errors.New("unhashable") }

var unbound = starlark.String("<unbound>") // stands in for the sentinel

func testHelpers() starlark.StringDict {
	fmtFn := starlark.NewBuiltin("_rlm_fmt", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		v, spec, conv := args[0], string(args[1].(starlark.String)), string(args[2].(starlark.String))
		s := ""
		if str, ok := v.(starlark.String); ok && conv != "r" {
			s = string(str)
		} else if conv == "r" {
			s = v.String()
		} else {
			s = v.String()
		}
		if spec != "" {
			if f, ok := starlark.AsFloat(v); ok && strings.HasSuffix(spec, "f") {
				s = fmt.Sprintf("%"+spec, f)
			} else {
				s = "{" + s + ":" + spec + "}"
			}
		}
		return starlark.String(s), nil
	})
	raise := starlark.NewBuiltin("_rlm_raise", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		switch a := args[0].(type) {
		case starlark.String:
			msg := ""
			if len(args) > 1 {
				if s, ok := args[1].(starlark.String); ok {
					msg = string(s)
				} else {
					msg = args[1].String()
				}
			}
			return nil, &pyErr{string(a), msg}
		case excValue:
			return nil, a.e
		}
		return nil, &pyErr{"RuntimeError", "No active exception to reraise"}
	})
	try := starlark.NewBuiltin("_rlm_try", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		state := map[string]starlark.Value{}
		getters := args[4].(*starlark.Dict)
		for _, it := range getters.Items() {
			v, err := starlark.Call(th, it[1], nil, nil)
			if err != nil {
				v = unbound
			}
			state[string(it[0].(starlark.String))] = v
		}
		call := func(fn starlark.Value) (string, starlark.Value, error) {
			f := fn.(*starlark.Function)
			var a starlark.Tuple
			for i := 0; i < f.NumParams(); i++ {
				n, _ := f.Param(i)
				v, ok := state[n]
				if !ok {
					v = unbound
				}
				a = append(a, v)
			}
			r, err := starlark.Call(th, f, a, nil)
			if err != nil {
				return "", nil, err
			}
			t := r.(starlark.Tuple)
			for _, it := range t[1].(*starlark.Dict).Items() {
				state[string(it[0].(starlark.String))] = it[1]
			}
			return string(t[0].(starlark.String)), t[2], nil
		}
		kind, val, err := call(args[0])
		var pending error
		if err != nil {
			pe := classify(err)
			matched := false
			hl := args[1].(*starlark.List)
			for hi := 0; hi < hl.Len(); hi++ {
				ht := hl.Index(hi).(starlark.Tuple)
				types := ht[0].(*starlark.List)
				ok := types.Len() == 0
				for i := 0; i < types.Len(); i++ {
					ok = ok || string(types.Index(i).(starlark.String)) == pe.typ
				}
				if ok {
					state[string(ht[1].(starlark.String))] = excValue{pe}
					kind, val, err = call(ht[2])
					pending, matched = err, true
					break
				}
			}
			if !matched {
				pending = pe
			}
		} else if kind == "" && args[2] != starlark.None {
			kind, val, pending = call(args[2])
		}
		if args[3] != starlark.None {
			k2, v2, err := call(args[3])
			if err != nil {
				return nil, err
			}
			if k2 != "" {
				kind, val, pending = k2, v2, nil
			}
		}
		if pending != nil {
			return nil, pending
		}
		d := starlark.NewDict(len(state))
		for k, v := range state {
			if v != unbound && !strings.HasPrefix(k, "_rlm_") {
				d.SetKey(starlark.String(k), v)
			}
		}
		if val == nil {
			val = starlark.None
		}
		return starlark.Tuple{starlark.String(kind), d, val}, nil
	})
	intFn := starlark.NewBuiltin("int", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		v, err := starlark.Call(th, starlark.Universe["int"], args, kw)
		if err != nil {
			return nil, &pyErr{"ValueError", err.Error()}
		}
		return v, nil
	})
	need := starlark.NewBuiltin("_rlm_need", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if args[0] == unbound {
			return nil, &pyErr{"NameError", fmt.Sprintf("name '%s' is not defined", args[1].(starlark.String))}
		}
		return starlark.None, nil
	})
	return starlark.StringDict{"_rlm_need": need, "_rlm_fmt": fmtFn, "_rlm_raise": raise, "_rlm_try": try, "int": intFn}
}

func classify(err error) *pyErr {
	var pe *pyErr
	if errors.As(err, &pe) {
		return pe
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "key") && strings.Contains(msg, "not in dict"):
		return &pyErr{"KeyError", msg}
	case strings.Contains(msg, "division by zero"):
		return &pyErr{"ZeroDivisionError", msg}
	case strings.Contains(msg, "out of range"):
		return &pyErr{"IndexError", msg}
	}
	return &pyErr{"Error", msg}
}

func TestExec(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"try top level", `
try:
    n = int("x")
except ValueError as e:
    n = -1
    print("caught")
print(n)
`, "caught\n-1\n"},
		{"else and finally", `
log = []
try:
    v = int("7")
except ValueError:
    v = 0
else:
    v = v * 2
finally:
    log.append("fin")
print(v, log)
`, "14 [\"fin\"]\n"},
		{"return from try in def", `
def parse(s):
    try:
        return int(s)
    except ValueError:
        return None
print(parse("12"), parse("zz"))
`, "12 None\n"},
		{"break and continue in loop", `
out = []
errors = 0
for s in ["1", "", "x", "2", "y", "z", "3"]:
    try:
        if not s: continue
        out.append(int(s))
    except ValueError:
        errors += 1
        if errors >= 3:
            break
print(out, errors)
`, "[1, 2] 3\n"},
		{"nested try and reraise", `
def get(d, k):
    try:
        try:
            return d[k]
        except KeyError:
            raise
    except KeyError as err:
        return "missing"
print(get({"a": 1}, "a"), get({}, "b"))
`, "1 missing\n"},
		{"unmatched propagates to outer", `
def f():
    try:
        x = 1 // 0
    except KeyError:
        x = 0
    return x
try:
    f()
except ZeroDivisionError:
    print("zero")
`, "zero\n"},
		{"raise with message", `
try:
    raise ValueError(f"bad {1 + 1}")
except ValueError as e:
    print(f"got {e}")
`, "got bad 2\n"},
		{"assert", `
try:
    assert 1 > 2, "nope"
except AssertionError as e:
    print("assert:", e)
`, "assert: nope\n"},
		{"unbound before try", `
def f():
    try:
        y = int("q")
    except ValueError:
        pass
    return "ok"
print(f())
`, "ok\n"},
		{"name test idiom", `
try:
    earlier_result
except NameError:
    earlier_result = "recomputed"
print(earlier_result)
try:
    earlier_result
except NameError:
    earlier_result = "again"
print(earlier_result)
`, "recomputed\nrecomputed\n"},
		{"assignments before the exception are kept", `
n = 0
while n < 3:
    try:
        n += 1
        if n == 2:
            raise ValueError
        seen = n
    except ValueError:
        print("two", n, seen)
    finally:
        last = n
print(n, seen, last)
def f():
    steps = []
    try:
        steps.append("a")
        k = 1
        k = k / 0
    except ZeroDivisionError:
        return k
print(f())
`, "two 2 1\n3 3 3\n1\n"},
		{"subscript targets are not state", `
def make():
    counts = {}
    def add(w):
        try:
            counts[w] += 1
        except KeyError:
            counts[w] = 1
    return add, counts
add, counts = make()
for w in ["a", "b", "a"]:
    add(w)
print(counts)
`, "{\"a\": 2, \"b\": 1}\n"},
		{"chains sets genexp", `
n = 5
print(0 < n < 10, 1 < n < 3, len({1, 2, 2}), sum([x for x in range(4)]), any(x > 2 for x in [1, 3]))
`, "True False 2 6 True\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Translate(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			th := &starlark.Thread{Print: func(_ *starlark.Thread, msg string) { out.WriteString(msg + "\n") }}
			pre := testHelpers()
			pre["sum"] = starlark.NewBuiltin("sum", func(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				var acc starlark.Value = starlark.MakeInt(0)
				it := starlark.Iterate(args[0])
				defer it.Done()
				var x starlark.Value
				for it.Next(&x) {
					var err error
					if acc, err = starlark.Binary(syntaxPlus, acc, x); err != nil {
						return nil, err
					}
				}
				return acc, nil
			})
			if _, err := starlark.ExecFileOptions(FileOptions(), th, "cell.py", res.Source, pre); err != nil {
				t.Fatalf("exec: %v\n%s", err, res.Source)
			}
			if out.String() != tc.want {
				t.Errorf("got %q want %q\n%s", out.String(), tc.want, res.Source)
			}
		})
	}
}

var syntaxPlus = plusToken()
