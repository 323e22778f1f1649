package textwrap

import (
	"strconv"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// FuzzModule wraps arbitrary text with options the input picks: nothing
// may panic or hang (Python exceptions are fine).
func FuzzModule(f *testing.F) {
	for _, s := range []string{"The quick brown fox.  Jumps", "a-b-c-d e\tf\ng", "  indented\n    more\n", "", "supercalifragilistic"} {
		f.Add(s, uint8(10), uint8(0))
		f.Add(s, uint8(3), uint8(0xff))
	}
	f.Fuzz(func(t *testing.T, text string, width, opt uint8) {
		src := "import textwrap\n" +
			"text = " + strconv.Quote(text) + "\n" +
			"w = textwrap.TextWrapper(width=" + strconv.Itoa(int(width%40)) + ", initial_indent='" + [2]string{"", "> "}[opt&1] + "', subsequent_indent='" + [2]string{"", "..."}[opt>>1&1] + "'" +
			", break_long_words=" + boolPy(opt&4 != 0) + ", break_on_hyphens=" + boolPy(opt&8 != 0) + ", drop_whitespace=" + boolPy(opt&16 != 0) +
			", fix_sentence_endings=" + boolPy(opt&32 != 0) + ", max_lines=" + [2]string{"None", "2"}[opt>>6&1] + ", expand_tabs=" + boolPy(opt&128 == 0) + ")\n" +
			`for f in [w.wrap, w.fill, textwrap.dedent, lambda s: textwrap.indent(s, "# "), lambda s: textwrap.shorten(s, max(w.width, 8))]:
    try:
        print(repr(f(text)))
    except ValueError as e:
        print("ValueError")
`
		res := libtest.Run(src, Register)
		if res.Exc != nil && res.Exc.Class().Name() != "NotImplementedError" {
			t.Fatalf("uncaught %v on %q", res.Exc, src)
		}
	})
}

func boolPy(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
