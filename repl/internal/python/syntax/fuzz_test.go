package syntax

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and returns either a module
// or an *Error, and that a parsed module dumps.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"valid.json", "invalid.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		var cases []struct {
			Src string `json:"src"`
		}
		if err := json.Unmarshal(b, &cases); err != nil {
			f.Fatal(err)
		}
		for _, c := range cases {
			if len(c.Src) < 2000 {
				f.Add(c.Src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse(%q): error %T", src, err)
			}
			if m != nil {
				t.Fatalf("Parse(%q): both a module and an error", src)
			}
			return
		}
		if m == nil {
			t.Fatalf("Parse(%q): no module and no error", src)
		}
		Dump(m)
		DumpPos(m)
		if e, err := ParseExpr(src); err == nil {
			Dump(e)
		} else if _, ok := err.(*Error); !ok {
			t.Fatalf("ParseExpr(%q): error %T", src, err)
		}
	})
}

// TestHostile parses inputs built to be deep or large and checks that each
// gives a tree or an error, without exhausting the stack.
func TestHostile(t *testing.T) {
	cases := []struct {
		name, src string
		wantErr   string // the error type wanted, "" for none
	}{
		{"parens200", strings.Repeat("(", 200) + strings.Repeat(")", 200), ""},
		{"parens201", strings.Repeat("(", 201) + strings.Repeat(")", 201), "SyntaxError"},
		{"unary2994", strings.Repeat("-", 2994) + "1", ""},
		{"unary2995", strings.Repeat("-", 2995) + "1", "RecursionError"},
		{"unary30k", strings.Repeat("-", 30000) + "1", "MemoryError"},
		{"not30k", strings.Repeat("not ", 30000) + "x", "MemoryError"},
		{"binop30k", strings.Repeat("1+", 30000) + "1", "RecursionError"},
		{"attr30k", "x" + strings.Repeat(".a", 30000), "RecursionError"},
		{"call30k", "f" + strings.Repeat("()", 30000), "RecursionError"},
		{"subscript30k", "x" + strings.Repeat("[0]", 30000), "RecursionError"},
		{"power30k", strings.Repeat("2**", 30000) + "2", "MemoryError"},
		{"lambda30k", strings.Repeat("lambda:", 30000) + "1", "MemoryError"},
		{"ifexp30k", strings.Repeat("a if b else ", 30000) + "c", "MemoryError"},
		{"await30k", "async def f():\n  " + strings.Repeat("await ", 30000) + "x", "SyntaxError"},
		{"star30k", "x = [" + strings.Repeat("*", 30000) + "a]", "SyntaxError"},
		{"indent101", nestedIfs(101), "IndentationError"},
		{"fstring-nest", strings.Repeat("f'{", 200) + "x" + strings.Repeat("}'", 200), "SyntaxError"},
		{"names30k", strings.Repeat("a ", 30000), "SyntaxError"},
		{"names-in-parens", "(" + strings.Repeat("a ", 30000) + ")", "SyntaxError"},
		{"commas30k", "x = [" + strings.Repeat("1, ", 30000) + "]", ""},
		{"string1M", "x = '" + strings.Repeat("a", 1<<20) + "'", ""},
		{"lines30k", strings.Repeat("x = 1\n", 30000), ""},
		{"blank30k", strings.Repeat("\n", 30000) + "x", ""},
		{"dedents", nestedIfs(99) + "\n" + strings.Repeat("x = 1\n", 10), ""},
		{"eq-chain", "x" + strings.Repeat(" = x", 30000), ""},
		{"compare-chain", "x" + strings.Repeat(" < x", 30000), ""},
		{"print-chain", strings.Repeat("print ", 20000), "SyntaxError"},
		{"unclosed", "x = (" + strings.Repeat("\n", 30000), "SyntaxError"},
		{"match-chain", "match x:\n case " + strings.Repeat("1 | ", 20000) + "1: pass", ""},
		{"keywords", "f(" + numbered("a%d=1, ", 30000) + ")", ""},
		{"keywords-repeated", "f(" + numbered("a%d=1, ", 30000) + "a5=1)", "SyntaxError"},
		{"capture-seq", "match x:\n case [" + numbered("a%d, ", 30000) + "]: pass", ""},
		{"capture-or", "match x:\n case " + strings.Repeat("[a, b] | ", 20000) + "[b, a]: pass", ""},
		{"mapping-keys", "match x:\n case {" + numbered("%d: _, ", 30000) + "}: pass", ""},
		{"class-kwds", "match x:\n case C(" + numbered("a%d=_, ", 30000) + "): pass", ""},
		{"params", "def f(" + numbered("a%d, ", 30000) + "): pass", ""},
		{"globals", "def f():\n global " + numbered("a%d, ", 20000) + "b\n" + strings.Repeat(" lambda: 0\n", 20000), ""},
		{"nonlocals", "def f():\n " + numbered("a%d = 1\n ", 20000) + "def g():\n  nonlocal " + numbered("a%d, ", 20000) + "a0", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.src)
			got := ""
			if err != nil {
				got = err.(*Error).Type
			}
			if got != c.wantErr {
				t.Errorf("got %v, want %s", err, c.wantErr)
			}
		})
	}
}

// numbered repeats format n times with the numbers 0 to n-1.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

func nestedIfs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n))
	b.WriteString("pass")
	return b.String()
}
