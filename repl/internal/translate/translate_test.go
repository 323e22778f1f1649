package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Source that is already Starlark comes back unchanged.
func TestUnchanged(t *testing.T) {
	for _, src := range []string{
		"",
		"\n\n",
		"x = 1\n",
		"print(len(context))",
		"# only a comment\n",
		"def f(a, b=2, *args, **kw):\n    return [a, b, args, kw]\n",
		"for i, line in enumerate(context.splitlines()[:5]):\n    if i > 2:\n        break\n    print(i, line)\n",
		"d = {k: v for k, v in [(1, 2)]}\nd[1] += 1\nx = d.get(3, None)\n",
		"s = \"%s has %d\" % (\"a\", 2)\nt = 'x' if s else \"y\"\n",
		"r = r\"\\d+\"\nn = [1, 2, 3][::-1]\nm = not 1 in [2]\n",
		"while True:\n    break\n",
		"f = lambda x: x + 1\n",
		"s = \"\"\"triple\nquoted\"\"\"\n",
		"x = (1 +\n     2)\ny = 1 + \\\n    2\n",
		"if x != None:\n    pass\nelif x == 1:\n    pass\nelse:\n    pass\n",
	} {
		res, err := Translate(src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if res.Changed || res.Source != src {
			t.Errorf("%q: changed to %q", src, res.Source)
		}
		checkResult(t, src, res)
	}
}

// Source code mode cannot run is an *Error at the right input line.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
	}{
		{"x = 1\nclass Foo:\n    pass\n", 2},
		{"with open('f') as fh:\n    data = fh.read()\n", 1},
		{"s = 'unterminated\n", 1},
		{"x = [1, 2\ny = 3\n", 1},
		{"x = )\n", 1},
		{"try:\n    a = 1\nexcept:\n    a = 2\nx = 2 + \n", 5},
		{"@decorator\ndef f():\n    pass\n", 1},
		{"if (n := len(context)) > 10:\n    pass\n", 1},
		{"x = f\"{}\"\n", 1},
		{"x = 2 **\n", 1},
		{"x = `1`\n", 1},
		{"for x in xs:\n    pass\nelse:\n    y = 1\n", 3},
		{"global total\n", 1},
	} {
		_, err := Translate(tc.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: want *Error, got %v", tc.src, err)
			continue
		}
		if e.Line != tc.line {
			t.Errorf("%q: error at line %d, want %d (%v)", tc.src, e.Line, tc.line, e)
		}
	}
}

func TestTooLarge(t *testing.T) {
	_, err := Translate(strings.Repeat("x = 1\n", MaxSourceBytes/6+1))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
}

// A rewrite that adds lines keeps later lines mapped to their input line.
func TestLineMapAfterTry(t *testing.T) {
	src := "try:\n    a = int('x')\nexcept ValueError:\n    a = 0\nb = a\nc = f\"{b}\"\n"
	res, err := Translate(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(res.Source, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "c = ") && res.LineMap[i] != 6 {
			t.Errorf("line %q maps to %d, want 6", l, res.LineMap[i])
		}
		if strings.HasPrefix(l, "b = ") && res.LineMap[i] != 5 {
			t.Errorf("line %q maps to %d, want 5", l, res.LineMap[i])
		}
	}
}

func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(parseTxtar(b)["input.py"])
	}
	for _, s := range []string{"f'{x:{y}}'", "f\"{a!r:>{w}}\"", "try: x\nexcept: pass", "a < b < c", "{1, 2}", "f(x for x in y)",
		"'a' 'b'", "f'''\n{x}\n'''", "raise", "assert x", "import a.b as c", "from m import (a,\n b)", "x: int", "\"\\q\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		res, err := Translate(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is not *Error: %v", err)
			}
			return
		}
		if _, perr := FileOptions().Parse("out.star", res.Source, 0); perr != nil {
			t.Fatalf("output does not parse: %v\n%s", perr, res.Source)
		}
		if !res.Changed && res.Source != src {
			t.Fatalf("unchanged result differs")
		}
		if res.Changed && !utf8.ValidString(res.Source) && utf8.ValidString(src) {
			t.Fatalf("invalid UTF-8 output")
		}
		n := strings.Count(src, "\n") + 1
		for _, l := range res.LineMap {
			if l < 1 || l > n {
				t.Fatalf("line map entry %d out of range 1..%d", l, n)
			}
		}
	})
}

func BenchmarkTranslateTrivial(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Translate("print(len(context))\n"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTranslateTypical(b *testing.B) {
	raw, err := os.ReadFile("testdata/try_toplevel.txtar")
	if err != nil {
		b.Fatal(err)
	}
	src := parseTxtar(raw)["input.py"]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Translate(src); err != nil {
			b.Fatal(err)
		}
	}
}
