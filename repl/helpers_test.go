package repl

import (
	"context"
	"testing"
)

// TestTranslateHelpers runs Starlark in the shapes HELPERS.md says the
// translation layer emits, so the helpers are tested without the translator.
func TestTranslateHelpers(t *testing.T) {
	cases := []cellCase{
		{"fmt", `print("Total: " + _rlm_fmt(1234567, ",", "") + " " + _rlm_fmt("x", "", "r") + " " + _rlm_fmt(3.14159, ".2f", "") + "|" + _rlm_fmt("ab", ">4", "") + "|" + _rlm_fmt([1, "a"], "", ""))`,
			"Total: 1,234,567 'x' 3.14|  ab|[1, 'a']\n", ""},
		{"fmt bad spec", `_rlm_fmt("s", ".2f", "")`, "", "ValueError"},
		{"fmt python floats", `print(_rlm_fmt(1.0, "", ""), _rlm_fmt(None, "", ""), _rlm_fmt(0.5, ".0%", ""), _rlm_fmt(True, "d", ""))`, "1.0 None 50% 1\n", ""},
		{"format", `print(_rlm_format("{:>5}|{name!r}|{0[1]}", [1, 2], name="n"))`, "[1, 2]|'n'|2\n", ""},
		{"import", "r = _rlm_import('re')\nC = _rlm_import('collections').Counter\nL = _rlm_import('typing').List\nprint(r.sub('a', 'b', 'aa'), C('aab')['a'], L)", "bb 2 None\n", ""},
		{"import unknown", "_rlm_import('pandas')", "", "ModuleNotFoundError"},
		{"pow", "print(_rlm_pow(2, 10), _rlm_pow(2, 0.5) > 1.41, _rlm_pow(10, -1))", "1024 True 0.1\n", ""},
		{"raise", `_rlm_raise("ValueError", "bad input")`, "", "ValueError"},
		{"raise bare", `_rlm_raise(None)`, "", "RuntimeError"},
		{"raise non-exception", `_rlm_raise(3)`, "", "TypeError"},
		{"exception values", "e = ValueError('x')\nprint(str(e), repr(e), e.args, isinstance(e, ValueError), isinstance(e, Exception), isinstance(e, KeyError))", "x ValueError('x') ('x',) True True False\n", ""},
		{"try catches by type", `
total = 1
def _rlm_t1_body(e, total, x):
    x = int("nope")
    total += x
    return ("", {"total": total, "x": x, "e": e}, None)
def _rlm_t1_h0(e, total, x):
    print("bad", e, type(e))
    total = -1
    return ("", {"total": total, "x": x, "e": e}, None)
_rlm_r1 = _rlm_try(_rlm_t1_body, [(["KeyError"], "e", _rlm_t1_h0), (["ValueError", "TypeError"], "e", _rlm_t1_h0)], None, None)
if "total" in _rlm_r1[1]: total = _rlm_r1[1]["total"]
print(total, "x" in _rlm_r1[1])
`, "bad int: invalid literal with base 10: nope <class 'ValueError'>\n-1 False\n", ""},
		{"try else finally", `
def _rlm_t1_body(n):
    n = 1
    return ("", {"n": n}, None)
def _rlm_t1_h0(n):
    return ("", {"n": n}, None)
def _rlm_t1_else(n):
    n = n + 10
    return ("", {"n": n}, None)
def _rlm_t1_fin(n):
    print("finally", n)
    return ("", {"n": n}, None)
_rlm_r1 = _rlm_try(_rlm_t1_body, [([], "", _rlm_t1_h0)], _rlm_t1_else, _rlm_t1_fin)
n = _rlm_r1[1]["n"]
print(n)
`, "finally 11\n11\n", ""},
		{"try unmatched reraises", `
def _rlm_t1_body():
    x = {}["k"]
    return ("", {}, None)
def _rlm_t1_h0():
    return ("", {}, None)
_rlm_try(_rlm_t1_body, [(["ValueError"], "", _rlm_t1_h0)], None, None)
`, "", "KeyError"},
		{"try catches raise and dotted types", `
def _rlm_t1_body(e):
    _rlm_raise("json.JSONDecodeError", "bad json")
    return ("", {"e": e}, None)
def _rlm_t1_h0(e):
    print("caught", e)
    return ("", {"e": e}, None)
_rlm_try(_rlm_t1_body, [(["ValueError"], "e", _rlm_t1_h0)], None, None)
def _rlm_t2_body():
    re.search("(?=x)", "x")
    return ("", {}, None)
def _rlm_t2_h0():
    print("regex error caught")
    return ("", {}, None)
_rlm_try(_rlm_t2_body, [(["error"], "", _rlm_t2_h0)], None, None)
`, "caught bad json\nregex error caught\n", ""},
		{"try return inside def", `
def parse(s):
    def _rlm_t1_body(v):
        v = int(s)
        return ("return", {"v": v}, v * 2)
    def _rlm_t1_h0(v):
        return ("return", {"v": v}, -1)
    _rlm_r1 = _rlm_try(_rlm_t1_body, [([], "", _rlm_t1_h0)], None, None)
    if _rlm_r1[0] == "return": return _rlm_r1[2]
    return 0
print(parse("21"), parse("x"))
`, "42 -1\n", ""},
		{"try reads caller locals", `
def f():
    acc = [1]
    k = 5
    g = lambda: acc
    def _rlm_t1_body(acc, k):
        acc = acc + [k]
        return ("", {"acc": acc, "k": k}, None)
    _rlm_r1 = _rlm_try(_rlm_t1_body, [], None, None)
    return _rlm_r1[1]["acc"]
print(f())
`, "[1, 5]\n", ""},
		{"try does not catch FINAL", `
def _rlm_t1_body():
    FINAL("done")
    return ("", {}, None)
def _rlm_t1_h0():
    print("caught FINAL?!")
    return ("", {}, None)
_rlm_try(_rlm_t1_body, [([], "", _rlm_t1_h0)], None, None)
print("after")
`, "", ""},
		{"method", "l = [2, 1]\n_rlm_method(l, 'sort', reverse=True)\nprint(l, _rlm_method('7', 'zfill', 3), _rlm_method({'a': 1}, 'copy'), _rlm_method(collections.Counter('aab'), 'most_common', 1))", "[2, 1] 007 {'a': 1} [('a', 2)]\n", ""},
		{"method missing", "_rlm_method(3, 'sort')", "", "AttributeError"},
		{"try with getters", `
def f():
    total = 10
    def _rlm_t1_body(total, y):
        y = 1
        total += y
        return ("", {"total": total, "y": y}, None)
    _rlm_r1 = _rlm_try(_rlm_t1_body, [], None, None, {"total": lambda: total, "y": lambda: y})
    if "total" in _rlm_r1[1]: total = _rlm_r1[1]["total"]
    if "y" in _rlm_r1[1]: y = _rlm_r1[1]["y"]
    return total
def _rlm_t2_body(z):
    z = z + 1
    return ("", {"z": z}, None)
def _rlm_t2_h0(z, _rlm_e):
    print("unbound z:", _rlm_e)
    return ("", {"z": z}, None)
_rlm_r2 = _rlm_try(_rlm_t2_body, [([], "_rlm_e", _rlm_t2_h0)], None, None, {"z": lambda: z})
print(f(), _rlm_r2[1])
z = 0
`, "unbound z: unknown binary op: unbound + int\n11 {}\n", ""},
		{"unbound is hidden", "print(_rlm_unbound)\nSHOW_VARS()", "<unbound>\n(no variables yet)\n", ""},
	}
	runCells(t, cases)
}

func TestTryDoesNotCatchBounds(t *testing.T) {
	it := newInterp(t, Config{MaxCellSteps: 5000, MaxValueBytes: 1 << 20}, nil)
	for _, body := range []string{"    while True:\n        pass", "    s = 'x' * 100000000", "    f(0)"} {
		src := "def f(n):\n    return f(n + 1)\ndef _rlm_t1_body():\n" + body + "\n    return ('', {}, None)\ndef _rlm_t1_h0():\n    print('caught')\n    return ('', {}, None)\n_rlm_try(_rlm_t1_body, [([], '', _rlm_t1_h0)], None, None)"
		o := run(t, it, src)
		if o.Exception == nil || o.Stdout != "" {
			t.Fatalf("%q: exception %+v, stdout %q", body, o.Exception, o.Stdout)
		}
	}
}

// TestNeed: the `try: name` / `except NameError:` idiom tells whether an
// earlier cell bound the name.
func TestNeed(t *testing.T) {
	it, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cell := "try:\n    seen\n    print('bound')\nexcept NameError:\n    seen = 1\n    print('unbound')\n"
	for _, want := range []string{"unbound\n", "bound\n"} {
		out, err := it.Exec(context.Background(), cell)
		if err != nil || out.Exception != nil || out.Stdout != want {
			t.Fatalf("got %+v, %v; want %q", out, err, want)
		}
	}
}
