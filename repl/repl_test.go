package repl

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.starlark.net/starlark"
	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newInterp(t testing.TB, cfg Config, host starlark.StringDict) *Interp {
	t.Helper()
	it, err := New(cfg, host)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func run(t testing.TB, it *Interp, src string) *Outcome {
	t.Helper()
	o, err := it.Exec(context.Background(), src)
	if err != nil {
		t.Fatalf("Exec(%q): %v", src, err)
	}
	return o
}

// cellCase is a cell and what it must print, or the type of the exception
// it must raise.
type cellCase struct{ name, src, out, exc string }

// runCells runs each case's cell in a fresh interpreter and compares its
// stdout, or its exception's type when one is expected.
func runCells(t *testing.T, cases []cellCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{}, nil)
			o := run(t, it, tc.src)
			if tc.exc != "" {
				if o.Exception == nil || o.Exception.Type != tc.exc {
					t.Fatalf("exception = %+v, want type %s (stdout %q)", o.Exception, tc.exc, o.Stdout)
				}
				return
			}
			if o.Exception != nil {
				t.Fatalf("unexpected exception %s (stdout %q)", o.Exception, o.Stdout)
			}
			if o.Stdout != tc.out {
				t.Fatalf("stdout = %q, want %q", o.Stdout, tc.out)
			}
		})
	}
}

// TestBuiltins runs one cell per case in a fresh interpreter and compares
// stdout, or the exception type when one is expected.
func TestBuiltins(t *testing.T) {
	cases := []cellCase{
		{"print sep end", `print("a", 1, sep="-", end="!\n")`, "a-1!\n", ""},
		{"print float", `print(1.0, 0.1, 1e20, 2.5e-7)`, "1.0 0.1 1e+20 2.5e-07\n", ""},
		{"sum", `print(sum([1, 2, 3]), sum([0.5, 0.5]), sum([[1], [2]], []))`, "6 1.0 [1, 2]\n", ""},
		{"sum chars type error", `sum(["a"])`, "", "TypeError"},
		{"min max key default", `print(min([3, 1, 2]), max(3, 9, 4), max(["aa", "b"], key=len), min([], default=None))`, "1 9 aa None\n", ""},
		{"max empty", `max([])`, "", "ValueError"},
		{"abs round", `print(abs(-3), round(2.5), round(3.14159, 2), round(7))`, "3 2 3.14 7\n", ""},
		{"isinstance", `print(isinstance("s", str), isinstance(1, (int, float)), isinstance([], dict), isinstance({}, dict), isinstance(True, int))`, "True True False True True\n", ""},
		{"sorted key reverse", `print(sorted([3, 1, 2], reverse=True), sorted(["bb", "a"], key=len), sorted("cba"))`, "[3, 2, 1] ['a', 'bb'] ['a', 'b', 'c']\n", ""},
		{"enumerate start", `print(enumerate(["a", "b"], start=1))`, "[(1, 'a'), (2, 'b')]\n", ""},
		{"zip map filter", `print(zip([1, 2], "ab"), map(lambda x: x * 2, [1, 2]), filter(None, [0, 1, 2]))`, "[(1, 'a'), (2, 'b')] [2, 4] [1, 2]\n", ""},
		{"any all len range", `print(any([0, 1]), all([]), len("héllo"), list(range(3)))`, "True True 6 [0, 1, 2]\n", ""},
		{"conversions", `print(int("42"), float("1.5"), str(3), bool(0), list("ab"), tuple([1]), set([1, 1]))`, "42 1.5 3 False ['a', 'b'] (1,) {1}\n", ""},
		{"int invalid", `int("x")`, "", "ValueError"},
		{"chr ord repr hasattr", `print(chr(65), ord("a"), repr("x"), hasattr("s", "upper"))`, "A 97 'x' True\n", ""},
		{"divmod pow", `print(divmod(7, 2), pow(2, 10), pow(2, -1), pow(3, 4, 5))`, "(3, 1) 1024 0.5 1\n", ""},
		{"iter next", "it = iter([1, 2])\nprint(next(it), next(it), next(it, 'end'))", "1 2 end\n", ""},
		{"format builtin", `print(format(3.14159, ".2f"), format(42, "05d"), format("x", "^5") + "|")`, "3.14 00042   x  |\n", ""},
		{"str.format", `print("{} {:>5} {name!r} {0}".format("a", "b", name="n"))`, "a     b 'n' a\n", ""},
		{"str.format specs", `print("{:,.2f} {:.1%} {:x} {:+d} {:e}".format(1234.5, 0.25, 255, 3, 12345.678))`, "1,234.50 25.0% ff +3 1.234568e+04\n", ""},
		{"str methods", `print("ab".ljust(4, ".") + "|", "7".zfill(3), "x".center(5, "*"), "12".isnumeric(), "AbC".swapcase(), "a\tb".expandtabs(4))`, "ab..| 007 **x** True aBc a   b\n", ""},
		{"str count find", `print("banana".count("a"), "banana".find("n"), "a,b,,c".split(","), " x ".strip())`, "3 2 ['a', 'b', '', 'c'] x\n", ""},
		{"str join replace", `print("-".join(["a", "b"]), "aXbX".replace("X", "y"), "aXbX".replace("X", "", 1))`, "a-b ayby abX\n", ""},
		{"join non-str", `",".join([1, 2])`, "", "TypeError"},
		{"list methods", "l = [3, 1, 2, 1]\nl.sort()\nm = l.copy()\nm.reverse()\nprint(l, m, l.count(1), l.index(2))", "[1, 1, 2, 3] [3, 2, 1, 1] 2 2\n", ""},
		{"list sort key", "l = ['bb', 'a', 'ccc']\nl.sort(key=len, reverse=True)\nprint(l)", "['ccc', 'bb', 'a']\n", ""},
		{"dict copy", "d = {'a': 1}\ne = d.copy()\ne['b'] = 2\nprint(d, e, d.get('z', 0))", "{'a': 1} {'a': 1, 'b': 2} 0\n", ""},
		{"key error", "d = {}\nd['x']", "", "KeyError"},
		{"index error", "[][1]", "", "IndexError"},
		{"attribute error", "'s'.nosuch()", "", "AttributeError"},
		{"zero division", "1 // 0", "", "ZeroDivisionError"},
		{"name error", "print(nosuch)", "", "NameError"},
		{"syntax error", "def (:", "", "SyntaxError"},
		{"import unknown", "_rlm_import('os')", "", "ModuleNotFoundError"},
		{"time is clockless", "print(time.time(), time.perf_counter())", "0.0 0.0\n", ""},
		{"string module", "print(string.digits, len(string.ascii_letters))", "0123456789 52\n", ""},
		{"math", "print(math.sqrt(16), math.floor(2.7), math.ceil(2.1), math.isclose(0.1 + 0.2, 0.3), math.inf > 1e308, math.log(math.e), math.gcd(12, 18))", "4.0 2 3 True True 1.0 6\n", ""},
		{"re search groups", `m = re.search(r"(\d+)-(?P<b>\d+)", "x 12-34 y")` + "\nprint(m.group(0), m.group(1), m.group('b'), m.groups(), m.start(), m.end(), m.span(2), m[1])", "12-34 12 34 ('12', '34') 2 7 (5, 7) 12\n", ""},
		{"re match fullmatch", `print(re.match(r"\d+", "12ab") != None, re.match(r"\d+", "ab12"), re.fullmatch(r"\d+", "123") != None, re.fullmatch(r"\d+", "12a"))`, "True None True None\n", ""},
		{"re findall", `print(re.findall(r"\d+", "a1b22"), re.findall(r"(\w)=(\d)", "a=1 b=2"), re.findall(r"x(\d)", "x1x2"))`, "['1', '22'] [('a', '1'), ('b', '2')] ['1', '2']\n", ""},
		{"re finditer", `print([m.group() for m in re.finditer(r"[A-Z]", "aBcD")])`, "['B', 'D']\n", ""},
		{"re flags", `print(re.findall(r"^a", "A\na", re.I | re.M), re.search("a.b", "a\nb", flags=re.DOTALL) != None)`, "['A', 'a'] True\n", ""},
		{"re sub", `print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home"), re.sub(r"\d", "#", "a1b2", count=1), re.sub(r"\d", lambda m: str(int(m.group()) * 2), "a1b4"), re.subn("a", "b", "aaa"))`, "home at me a#b2 a2b8 ('bbb', 3)\n", ""},
		{"re split escape", `print(re.split(r"[,;]\s*", "a, b;c"), re.split(r"(-)", "a-b"), re.escape("a.b*c"))`, "['a', 'b', 'c'] ['a', '-', 'b'] a\\.b\\*c\n", ""},
		{"re compile", "p = re.compile(r'(?P<k>\\w+):(?P<v>\\d+)')\nprint(p.pattern, p.findall('a:1 b:2'), p.search('x:9').groupdict())", "(?P<k>\\w+):(?P<v>\\d+) [('a', '1'), ('b', '2')] {'k': 'x', 'v': '9'}\n", ""},
		{"re lookahead is re.error", `re.search(r"a(?=b)", "ab")`, "", "re.error"},
		{"json dumps", `print(json.dumps({"b": 1, "a": [True, None, 1.5, "é"]}), json.dumps({"b": 1, "a": 2}, sort_keys=True), json.dumps("é", ensure_ascii=False))`, "{\"b\": 1, \"a\": [true, null, 1.5, \"\\u00e9\"]} {\"a\": 2, \"b\": 1} \"é\"\n", ""},
		{"json indent", `print(json.dumps({"a": [1, {}]}, indent=2))`, "{\n  \"a\": [\n    1,\n    {}\n  ]\n}\n", ""},
		{"json loads", "d = json.loads('{\"z\": 1, \"a\": [1.5, null, true, \"s\"], \"big\": 12345678901234567890}')\nprint(d, list(d.keys()))", "{'z': 1, 'a': [1.5, None, True, 's'], 'big': 12345678901234567890} ['z', 'a', 'big']\n", ""},
		{"json loads error", `json.loads("{bad")`, "", "json.JSONDecodeError"},
		{"json dumps error", `json.dumps(re.compile("x"))`, "", "TypeError"},
		{"counter", "c = collections.Counter(['a', 'b', 'a'])\nc.update('bb')\nc['z'] += 0\nprint(c.most_common(1), c['q'], 'q' in c, len(c), sorted(c.items()), c.total())", "[('b', 3)] 0 False 3 [('a', 2), ('b', 3), ('z', 0)] 5\n", ""},
		{"counter dict ops", "c = collections.Counter(x=2)\nprint(dict(c), list(c.keys()), c.get('x'), c)", "{'x': 2} ['x'] 2 Counter({'x': 2})\n", ""},
		{"defaultdict", "d = collections.defaultdict(list)\nd['a'].append(1)\nn = collections.defaultdict(int)\nn['x'] += 2\nprint(dict(d), dict(n), 'b' in d, len(d))", "{'a': [1]} {'x': 2} False 1\n", ""},
		{"deque", "q = collections.deque([1, 2], maxlen=3)\nq.append(3)\nq.appendleft(0)\nprint(q.popleft(), q.pop(), len(q), list(q))", "0 2 1 [1]\n", ""},
		{"ordered dict", "d = collections.OrderedDict()\nd['b'] = 1\nd['a'] = 2\nprint(list(d))", "['b', 'a']\n", ""},
		{"round int ndigits", `print(round(5, -1), round(15, -1), round(25, -1), round(-25, -1), round(1250, -2), round(1350, -2), round(7, 2), round(12345, -10), round(-6, -1))`, "0 20 20 -20 1200 1400 7 0 -10\n", ""},
		{"str center odd padding", `print("ab".center(5) + "|", "abc".center(6, "*"), "a".center(4, "-"), "ab".center(7, "."))`, "  ab | *abc** -a-- ...ab..\n", ""},
		{"str zfill counts characters", `print("é".zfill(3), "-é".zfill(4))`, "00é -00é\n", ""},
		{"format precision without type", `print(format(1.0, ".3"), format(100.0, ".5"), format(0.0, ".3"), format(-2.0, ".2"), format(1e20, ".3"), format(12.0, ".2"), format(1.5, ".3"), format(float("inf"), ".3"))`, "1.0 100.0 0.0 -2.0 1e+20 1.2e+01 1.5 inf\n", ""},
		{"json sort_keys non-str keys", `print(json.dumps({10: 1, 9: 2, 100: 3}, sort_keys=True), json.dumps({2.5: 1, 10: 2}, sort_keys=True))`, "{\"9\": 2, \"10\": 1, \"100\": 3} {\"2.5\": 1, \"10\": 2}\n", ""},
		{"json sort_keys mixed keys", `json.dumps({1: 1, "a": 2}, sort_keys=True)`, "", "TypeError"},
		{"json ensure_ascii escapes DEL", `print(json.dumps("a\x7f"), len(json.dumps("\x7f", ensure_ascii=False)))`, "\"a\\u007f\" 3\n", ""},
		{"float invalid is ValueError", `float("1e5x")`, "", "ValueError"},
		{"float empty is ValueError", `float("")`, "", "ValueError"},
		{"except ValueError catches float", "def p(s):\n    try:\n        return float(s)\n    except ValueError:\n        return None\nprint(p('abc'), p('1.5'))", "None 1.5\n", ""},
		{"dict pop missing is KeyError", `{}.pop("x")`, "", "KeyError"},
		{"del missing key is KeyError", "d = {'a': 1}\ntry:\n    del d['x']\nexcept KeyError:\n    print('caught')", "caught\n", ""},
		{"len of int is TypeError", `len(5)`, "", "TypeError"},
		{"unorderable is TypeError", `sorted([1, "a"])`, "", "TypeError"},
		{"split empty separator is ValueError", `"abc".split("")`, "", "ValueError"},
		{"range zero step is ValueError", `range(1, 2, 0)`, "", "ValueError"},
		{"int float strip whitespace", `print(int(" 12"), int("12\n"), int("  -7  "), int(" 0x1f ", 16), float(" 1e3 "), float("\t-inf\n"), int(3.9))`, "12 12 -7 31 1000.0 -inf 3\n", ""},
		{"int blank is ValueError", `int("   ")`, "", "ValueError"},
		{"str of a big value is not cut", "s = str(['x' * 100000] * 170)\nprint(len(s), s[-3:], len(f\"{['x' * 100000] * 170!r}\"), len('%s' % [['x' * 100000] * 170]))", "17000680 x'] 17000680 17000682\n", ""},
		{"re sub template escapes", `print([re.sub("a", r"\0", "a"), re.sub("a", r"[\012]", "a"), re.sub("(a)", r"\1\101", "a"), re.sub("a", r"\a\b\f\v", "a")] == ["\x00", "[\n]", "aA", "\x07\x08\x0c\x0b"])`, "True\n", ""},
		{"show vars", "zeta = [1, 2]\nalpha = 'x'\n_hidden = 1\nSHOW_VARS()", "alpha: str = 'x'\nzeta: list = len 2: [1, 2]\n", ""},
	}
	runCells(t, cases)
}

func TestPersistenceAcrossCells(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	run(t, it, "counts = {}\ndef add(k):\n    counts[k] = counts.get(k, 0) + 1\n    return counts[k]")
	run(t, it, "add('a')\nadd('a')\nn = add('b')")
	o := run(t, it, "print(counts, n)\ncounts['c'] = 9")
	if o.Stdout != "{'a': 2, 'b': 1} 1\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	o = run(t, it, "print(len(counts))")
	if o.Stdout != "3\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	vars := it.Vars()
	var names []string
	for _, v := range vars {
		names = append(names, v.Name+":"+v.Type)
	}
	if got := strings.Join(names, ","); got != "add:function,counts:dict,n:int" {
		t.Fatalf("Vars = %s", got)
	}
}

func TestFinishing(t *testing.T) {
	cases := []struct {
		name, src string
		want      any
		stdout    string
	}{
		{"FINAL stops the cell", "print('before')\nFINAL('the answer')\nprint('after')", "the answer", "before\n"},
		{"FINAL data", "FINAL({'n': 3, 'xs': [1, 2.5, None]})", map[string]any{"n": int64(3), "xs": []any{int64(1), 2.5, nil}}, ""},
		{"FINAL_VAR same cell", "result = 'x' + 'y'\nFINAL_VAR('result')\nprint('after')", "xy", ""},
		{"FINAL_VAR value", "FINAL_VAR(42)", int64(42), ""},
		{"answer dict", "answer = {'content': 'done', 'ready': True}\nprint('end')", "done", "end\n"},
		{"FINAL inside a function", "def finish():\n    FINAL('deep')\n    print('no')\nfinish()\nprint('no')", "deep", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{}, nil)
			o := run(t, it, tc.src)
			if o.Exception != nil {
				t.Fatalf("exception %s", o.Exception)
			}
			if o.Final == nil {
				t.Fatal("no Final")
			}
			if !equalJSON(o.Final.Value, tc.want) {
				t.Fatalf("Final = %#v, want %#v", o.Final.Value, tc.want)
			}
			if o.Stdout != tc.stdout {
				t.Fatalf("stdout = %q, want %q", o.Stdout, tc.stdout)
			}
		})
	}
}

func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k := range a {
			if !equalJSON(a[k], bm[k]) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], bl[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func TestNotFinishing(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	for _, src := range []string{
		"answer = {'content': 'draft', 'ready': False}",
		"answer['content'] = 'more'",
		"FINAL_VAR('missing_name')",
	} {
		o := run(t, it, src)
		if o.Final != nil {
			t.Fatalf("%q finished the run", src)
		}
	}
	o := run(t, it, "answer['ready'] = True")
	if o.Final == nil || o.Final.Value != "more" {
		t.Fatalf("Final = %+v", o.Final)
	}
	// An answer left ready does not finish the next cell (a session's next query).
	if o := run(t, it, "x = 1"); o.Final != nil {
		t.Fatal("a stale answer finished a later cell")
	}
	if o := run(t, it, "answer = {'content': 'again', 'ready': True}"); o.Final == nil || o.Final.Value != "again" {
		t.Fatalf("rebinding answer: Final = %+v", o.Final)
	}
}

func TestExceptionLine(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	o := run(t, it, "x = 1\ny = 2\nz = {}['k']\n")
	if o.Exception == nil || o.Exception.Type != "KeyError" || o.Exception.Line != 3 {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "def f():\n    return 1 / 0\n\nf()")
	if o.Exception == nil || o.Exception.Line != 2 {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "x = 1\nif x:\n  y = (\n")
	if o.Exception == nil || o.Exception.Type != "SyntaxError" || o.Exception.Line == 0 {
		t.Fatalf("exception = %+v", o.Exception)
	}
}

func TestStepLimits(t *testing.T) {
	it := newInterp(t, Config{MaxCellSteps: 10_000, MaxTotalSteps: 25_000}, nil)
	o := run(t, it, "while True:\n    pass")
	if o.Exception == nil || o.Exception.Type != "StepLimitExceeded" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "while True:\n    pass")
	if o.Exception == nil || o.Exception.Type != "StepLimitExceeded" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	// 5,000 steps left: the next loop spends the interpreter's budget.
	_, err := it.Exec(context.Background(), "while True:\n    pass")
	if fault.KindOf(err) != KindStepBudget {
		t.Fatalf("err = %v, want kind %s", err, KindStepBudget)
	}
	if _, err := it.Exec(context.Background(), "x = 1"); fault.KindOf(err) != KindStepBudget {
		t.Fatalf("after exhaustion: err = %v", err)
	}
}

func TestRecursionLimit(t *testing.T) {
	it := newInterp(t, Config{MaxRecursion: 50}, nil)
	o := run(t, it, "def f(n):\n    return f(n + 1)\nf(0)")
	if o.Exception == nil || o.Exception.Type != "RecursionError" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	o = run(t, it, "g = lambda n: g(n + 1)\ng(0)")
	if o.Exception == nil || o.Exception.Type != "RecursionError" {
		t.Fatalf("lambda: exception = %+v", o.Exception)
	}
	o = run(t, it, "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nprint(fact(20))")
	if o.Exception != nil || o.Stdout != "2432902008176640000\n" {
		t.Fatalf("fact: %+v %q", o.Exception, o.Stdout)
	}
}

func TestMemoryBound(t *testing.T) {
	cases := []struct{ name, src string }{
		{"string repeat", `s = "x" * 1000000000`},
		{"string repeat augmented", "s = 'x'\ns *= 1000000000"},
		{"list repeat", `l = [0] * 100000000`},
		{"list of range", `l = list(range(1000000000))`},
		{"sorted of range", `l = sorted(range(1000000000))`},
		{"join", `s = ("x" * 1000000).join(["a"] * 1000)`},
		{"replace", `s = ("x" * 1000000).replace("x", "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy")`},
		{"format width", `s = "{:>1000000000}".format("x")`},
		{"ljust", `s = "x".ljust(1000000000)`},
		{"string doubling loop", "s = 'x'\nwhile True:\n    s = s + s"},
		{"list doubling loop", "l = [0]\nwhile True:\n    l.extend(l)"},
		{"big power", "n = pow(10, 1000000000)"},
		{"str of a big list", `s = str(["x" * 200000] * 100)`},
		{"f-string of a big list", `s = f"{['x' * 200000] * 100}"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{MaxValueBytes: 16 << 20}, nil)
			o := run(t, it, tc.src)
			if o.Exception == nil || o.Exception.Type != "MemoryError" {
				t.Fatalf("exception = %+v", o.Exception)
			}
			// The interpreter stays usable after the error.
			if o := run(t, it, "print('ok')"); o.Stdout != "ok\n" {
				t.Fatalf("after MemoryError: %q %+v", o.Stdout, o.Exception)
			}
		})
	}
}

// TestMemoryBoundBeforeAllocating: the exact checks refuse a repetition
// before it allocates, whatever the target of an augmented assignment; the
// watchdog alone would let the value be built (and a short cell keep it).
func TestMemoryBoundBeforeAllocating(t *testing.T) {
	cases := []struct{ name, src string }{
		{"name target", "s = 'x'\ns *= 200000000"},
		{"subscript target", "l = ['x']\nl[0] *= 200000000"},
		{"dict item target", "d = {'k': [0]}\nd['k'] *= 20000000"},
		{"int times subscript", "l = [200000000]\nl[0] *= 'x'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{MaxValueBytes: 16 << 20}, nil)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			o := run(t, it, tc.src)
			runtime.ReadMemStats(&after)
			if o.Exception == nil || o.Exception.Type != "MemoryError" {
				t.Fatalf("exception = %+v", o.Exception)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Fatalf("the cell allocated %d bytes before the MemoryError", grew)
			}
		})
	}
	// Augmented assignment on a subscript still works, evaluating the target once.
	o := run(t, newInterp(t, Config{}, nil), "n = [0]\ndef i():\n    n[0] += 1\n    return 0\nl = ['ab', 3]\nl[i()] *= 2\nl[1] *= 2.5\nl[-1] *= 2\nprint(l, n)")
	if o.Exception != nil || o.Stdout != "['abab', 15.0] [1]\n" {
		t.Fatalf("stdout %q, exception %+v", o.Stdout, o.Exception)
	}
}

func TestWallTime(t *testing.T) {
	it := newInterp(t, Config{CellTimeout: 50 * time.Millisecond, MaxCellSteps: 1 << 62, MaxTotalSteps: 1 << 62}, nil)
	o := run(t, it, "while True:\n    pass")
	if o.Exception == nil || o.Exception.Type != "TimeoutError" {
		t.Fatalf("exception = %+v", o.Exception)
	}
}

func TestOutputTruncation(t *testing.T) {
	it := newInterp(t, Config{MaxOutputBytes: 100}, nil)
	o := run(t, it, "for i in range(100):\n    print('0123456789')")
	if len(o.Stdout) != 100 || o.CutBytes != 1000 {
		t.Fatalf("len(stdout) = %d, cut = %d", len(o.Stdout), o.CutBytes)
	}
	o = run(t, it, "print('é' * 60)")
	if !strings.HasPrefix(o.Stdout, "é") || len(o.Stdout)+o.CutBytes != 121 || !validUTF8(o.Stdout) {
		t.Fatalf("utf-8 cut: %q cut %d", o.Stdout, o.CutBytes)
	}
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestCancellationMidCell(t *testing.T) {
	started := make(chan struct{})
	host := starlark.StringDict{
		"started": starlark.NewBuiltin("started", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			close(started)
			return starlark.None, nil
		}),
	}
	it := newInterp(t, Config{MaxCellSteps: 1 << 62, MaxTotalSteps: 1 << 62}, host)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	o, err := it.Exec(ctx, "print('x')\nstarted()\nwhile True:\n    pass")
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("err = %v, want kind cancelled", err)
	}
	if o.Stdout != "x\n" {
		t.Fatalf("partial stdout = %q", o.Stdout)
	}
	// Deadline: kind timeout.
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer dcancel()
	if _, err := it.Exec(dctx, "while True:\n    pass"); fault.KindOf(err) != fault.KindTimeout {
		t.Fatalf("err = %v, want kind timeout", err)
	}
}

func TestHostBuiltinContextIsCancelled(t *testing.T) {
	host := starlark.StringDict{
		"block": starlark.NewBuiltin("block", func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			<-Context(thread).Done()
			return nil, Fatal(fault.FromContext(fault.PhaseExecute, Context(thread).Err()))
		}),
	}
	it := newInterp(t, Config{CellTimeout: 30 * time.Millisecond}, host)
	o, err := it.Exec(context.Background(), "block()")
	if err != nil || o.Exception == nil || o.Exception.Type != "TimeoutError" {
		t.Fatalf("err = %v, exception = %+v", err, o.Exception)
	}
}

func TestFatalBuiltinInterruptsCell(t *testing.T) {
	budget := fault.New(fault.PhaseBudget, fault.Kind("exhausted"), "no more sub-calls")
	host := starlark.StringDict{
		"spend": starlark.NewBuiltin("spend", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, Fatal(budget)
		}),
		"soft": starlark.NewBuiltin("soft", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, Raise("ValueError", "bad input")
		}),
	}
	it := newInterp(t, Config{}, host)
	o, err := it.Exec(context.Background(), "print('a')\nfor i in range(3):\n    spend()\nprint('b')")
	if !errors.Is(err, budget) || fault.KindOf(err) != fault.Kind("exhausted") {
		t.Fatalf("err = %v", err)
	}
	if IsFatal(err) {
		t.Fatal("Exec should return the unwrapped error")
	}
	if o.Stdout != "a\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	o = run(t, it, "soft()")
	if o.Exception == nil || o.Exception.Type != "ValueError" || o.Exception.Message != "bad input" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	if !IsFatal(Fatal(budget)) || IsFatal(budget) || Fatal(nil) != nil {
		t.Fatal("IsFatal/Fatal")
	}
}

func TestHostNamesAndPrint(t *testing.T) {
	if _, err := New(Config{}, starlark.StringDict{"print": starlark.None}); fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("collision: err = %v", err)
	}
	host := starlark.StringDict{
		"note": starlark.NewBuiltin("note", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			Print(thread, "note: "+args[0].(starlark.String).GoString())
			return starlark.None, nil
		}),
	}
	it := newInterp(t, Config{}, host)
	it.Set("context_0", starlark.String("ctx"))
	o := run(t, it, "note('hi')\nprint(context_0)\nmine = 1")
	if o.Stdout != "note: hi\nctx\n" {
		t.Fatalf("stdout = %q", o.Stdout)
	}
	if vars := it.Vars(); len(vars) != 1 || vars[0].Name != "mine" {
		t.Fatalf("Vars = %+v", vars)
	}
	if o.Fingerprint == "" || !strings.HasPrefix(o.Fingerprint, "sha256:") {
		t.Fatalf("fingerprint %q", o.Fingerprint)
	}
}

func TestConvert(t *testing.T) {
	in := map[string]any{"a": []any{int64(1), 2.5, "s", nil, true}, "b": map[string]any{"c": int64(-3)}}
	v, err := FromGo(in)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ToGo(v)
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(back, in) {
		t.Fatalf("round trip: %#v", back)
	}
	if _, err := ToGo(starlark.NewBuiltin("f", nil)); fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("function: err = %v", err)
	}
	if _, err := FromGo(struct{}{}); fault.KindOf(err) != fault.KindInvalid {
		t.Fatalf("struct: err = %v", err)
	}
}

func TestPythonisms(t *testing.T) {
	cases := []struct{ name, src, out string }{
		{"for over string", "n = 0\nfor ch in 'héllo':\n    n += 1\nprint(n, [c for c in 'ab'])", "5 ['a', 'b']\n"},
		{"percent", `print("%.2f|%5d|%-4s|%s|%r|%x|%05.1f|%%" % (3.14159, 42, "ab", [1], "q", 255, 2.25))`, "3.14|   42|ab  |[1]|'q'|ff|002.2|%\n"},
		{"percent single and named", `print("%d items" % 3, "%(a)s-%(b)03d" % {"a": "x", "b": 7})`, "3 items x-007\n"},
		{"numeric modulo untouched", "print(7 % 3, -7 % 3)", "1 2\n"},
		{"split keywords", "s = 'a b  c'\nprint(s.split(maxsplit=1), s.split(None, 1), 'x,y,z'.split(',', maxsplit=1), 'x,y'.rsplit(sep=','))", "['a', 'b  c'] ['a', 'b  c'] ['x', 'y,z'] ['x', 'y']\n"},
		{"type objects", "print(type('s') == str, type(1) == str, type([]).__name__, type(ValueError('x')) == ValueError, type(None).__name__, str, isinstance(2, type(3)))", "True False list True NoneType <class 'str'> True\n"},
		{"defaultdict of class", "d = collections.defaultdict(set)\nd['a'].add(1)\nn = collections.defaultdict(float)\nn['x'] += 0.5\nprint(dict(d), dict(n))", "{'a': {1}} {'x': 0.5}\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, newInterp(t, Config{}, nil), tc.src)
			if o.Exception != nil || o.Stdout != tc.out {
				t.Fatalf("stdout %q, exception %+v; want %q", o.Stdout, o.Exception, tc.out)
			}
		})
	}
}

func TestRandomIsDeterministic(t *testing.T) {
	src := "r = _rlm_import('random')\nprint(r.randint(1, 100), r.choice(['a', 'b', 'c']), len(r.sample(range(10), 3)), r.random() < 1)\nr.seed(7)\na = r.randint(1, 1000)\nr.seed(7)\nprint(a == r.randint(1, 1000))"
	a := run(t, newInterp(t, Config{}, nil), src)
	b := run(t, newInterp(t, Config{}, nil), src)
	if a.Exception != nil || a.Stdout != b.Stdout || !strings.HasSuffix(a.Stdout, "True\nTrue\n") {
		t.Fatalf("%q vs %q (%+v)", a.Stdout, b.Stdout, a.Exception)
	}
	o := run(t, newInterp(t, Config{}, nil), "x = 1\nprint('x' in globals(), 'print' in globals())")
	if o.Stdout != "True False\n" {
		t.Fatalf("globals: %q %+v", o.Stdout, o.Exception)
	}
}
