package difflib

import (
	"strconv"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// FuzzModule compares arbitrary texts as strings, as lists of lines and
// of words: nothing may panic or hang (Python exceptions are fine).
func FuzzModule(f *testing.F) {
	f.Add("one\ntwo\nthree\n", "one\ntoo\nthree\nfour\n")
	f.Add("kitten", "sitting")
	f.Add("", "a b a b a b")
	f.Fuzz(func(t *testing.T, a, b string) {
		src := "import difflib\n" +
			"a = " + strconv.Quote(a) + "\n" +
			"b = " + strconv.Quote(b) + "\n" +
			`s = difflib.SequenceMatcher(lambda c: c == " ", a, b)
print(s.ratio(), s.quick_ratio(), s.real_quick_ratio(), s.get_opcodes(), list(s.get_grouped_opcodes(1)), s.find_longest_match())
la, lb = a.splitlines(True), b.splitlines(True)
print(list(difflib.ndiff(la, lb)), list(difflib.unified_diff(la, lb, n=1)), list(difflib.context_diff(la, lb)))
print(difflib.SequenceMatcher(None, a.split(), b.split()).get_matching_blocks(), difflib.get_close_matches(a, b.split(), cutoff=0.1))
print(list(difflib.restore(difflib.ndiff(la, lb), 2)) == lb)
`
		res := libtest.Run(src, Register)
		if res.Exc != nil {
			t.Fatalf("uncaught %v on %q", res.Exc, src)
		}
	})
}
