package corpus

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// dfaOf returns the automaton of pattern as the search builds it, or nil.
func dfaOf(t testing.TB, pattern string) *dfaProg {
	t.Helper()
	tree, err := syntax.Parse(pattern, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return nil
	}
	return newDFAProg(lineOnly(tree))
}

// checkDFA compares the automaton's answer on each line with Go regexp's:
// unanchored, whether the line holds a match; anchored, whether a match
// starts at its first byte.
func checkDFA(t *testing.T, pattern string, lines []string) {
	t.Helper()
	p := dfaOf(t, pattern)
	if p == nil {
		return
	}
	re := regexp.MustCompile(pattern)
	at := regexp.MustCompile(`^(?:` + pattern + `)`) // \A in Go's default single-line mode
	un, an := newLineDFA(p, false), newLineDFA(p, true)
	for _, l := range lines {
		if strings.Contains(l, "\n") {
			continue
		}
		if got, want := un.match([]byte(l)), re.MatchString(l); got != want {
			t.Fatalf("%q on %q: automaton %v, regexp %v", pattern, l, got, want)
		}
		if got, want := an.match([]byte(l)), at.MatchString(l); got != want {
			t.Fatalf("%q anchored on %q: automaton %v, regexp %v", pattern, l, got, want)
		}
	}
}

func TestLineDFA(t *testing.T) {
	lines := []string{
		"", "a", "model x", "the model abe xx", "WINDOW ABE ", "window be", "Model zzE ",
		"\u212Aelvin \u017Fun", "KELVIN SUN", "kelvin sun", "caf\xc3\xa9 e", "caf\xc3 e", "\xff\xfe e ",
		"\xe2\x84", "\xe2\x84\xaa", "\xc5\xbf", "日本語 model ab", "é", "É", "x\xe9y",
	}
	for _, p := range []string{
		"(model|window) [a-z]+e ", "(?i)(MODEL|WINDOW) [a-z]+E ", "(?i)kelvin", "(?i)s", "(?i)[a-z]+",
		"é", "(?i)é", "caf.", "[é-ê]", "a*", "x|", "(a|b)*c", "[^a]", "(?i)ǅ", "日本語", "model (ab|x)",
		"e ", "[\x00-\x7f]+", "z{2,3}", "(?s)a.b", "(?i)k+",
	} {
		checkDFA(t, p, lines)
	}
}

// TestLineDFARefuses lists patterns the automaton must not take: where
// its byte-wise answer could differ from Go regexp's.
func TestLineDFARefuses(t *testing.T) {
	for _, p := range []string{
		"^a", "a$", `\ba`, `a\B`, ".", "[^a]", "\uFFFD", "[\uFFF0-\uFFFF]", `\pL`, "(?i)[a-zé]+ø" + strings.Repeat("[à-ÿ]", 1),
	} {
		if dfaOf(t, p) != nil {
			t.Errorf("%q: automaton built, want refused", p)
		}
	}
	for _, p := range []string{"(model|window) [a-z]+e ", "(?i)(MODEL|WINDOW) [a-z]+E ", "(?i)kelvin", "é"} {
		if dfaOf(t, p) == nil {
			t.Errorf("%q: automaton refused, want built", p)
		}
	}
}

func FuzzLineDFA(f *testing.F) {
	f.Add("(model|window) [a-z]+e ", "the model abe x")
	f.Add("(?i)(MODEL|WINDOW) [a-z]+E ", "WINDOW \u017Fe ")
	f.Add("(?i)k", "\u212A")
	f.Add("é+", "\xc3\xa9\xc3")
	f.Add("[a-c]x|y", "\xffbx")
	f.Fuzz(func(t *testing.T, pattern, line string) {
		if _, err := regexp.Compile(pattern); err != nil || len(line) > 1000 {
			return
		}
		// Go's default mode is single-line; the search's is multi-line.
		// Without assertions (the automaton refuses them) they agree.
		checkDFA(t, pattern, []string{line})
	})
}
