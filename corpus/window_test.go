package corpus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// naiveMatches is the line-by-line reference of Search in list mode: for
// each matching line its number, offset, first match and (for a line of at
// most LineCap bytes) its text.
func naiveMatches(text, pattern string, regex bool) []Match {
	var re *regexp.Regexp
	if regex {
		re = regexp.MustCompile(pattern)
	}
	var out []Match
	off := 0
	for i, l := range textLines(text) {
		at := -1
		if re != nil {
			if loc := re.FindStringIndex(l); loc != nil {
				at = loc[0]
			}
		} else {
			at = strings.Index(l, pattern)
		}
		if at >= 0 {
			m := Match{Index: int64(i + 1), Offset: int64(off), Match: int64(off + at)}
			if len(l) <= LineCap {
				m.Value = l
			} else {
				m.Truncated = true
			}
			out = append(out, m)
		}
		off += len(l) + 1
	}
	return out
}

func textLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// windowStores registers text in memory and as a file read through tiny
// windows of window bytes, so that lines and matches cross window edges;
// the file's regex counts run in parallel segments whatever its size, and
// its regexes with a required literal set run on the candidate lines,
// found with one finder per literal (the memory store's use the vector
// multi-literal scan where the machine has it).
func windowStores(t testing.TB, text string, window int) (mem, file *Store, hm, hf Handle) {
	t.Helper()
	mem, hm = newTestStore(t, text)
	path := filepath.Join(t.TempDir(), "text")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	file = NewStore()
	file.testWindow, file.testReadMin, file.testParallelMin = window, 1, 1
	file.testCandidates = true // a literal set's candidate lines, however many
	file.testNoTeddy = true
	t.Cleanup(func() { file.Close() })
	hf, err := file.AddFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return mem, file, hm, hf
}

// checkWindows compares both stores' list and count results for pattern
// with each other and (when the reference applies) with naiveMatches.
func checkWindows(t *testing.T, text, pattern string, regex bool, window int) {
	mem, file, hm, hf := windowStores(t, text, window)
	ctx := context.Background()
	lim := Limits{MaxResults: MaxMaxResults, MaxBytes: MaxMaxBytes}
	rm, errm := mem.Search(ctx, hm, pattern, SearchOptions{Regex: regex}, lim)
	rf, errf := file.Search(ctx, hf, pattern, SearchOptions{Regex: regex}, lim)
	if (errm == nil) != (errf == nil) {
		t.Fatalf("memory err %v, file err %v", errm, errf)
	}
	if errm != nil || regex && textAnchors.MatchString(pattern) {
		return // \A, \z and (?-m) refer to window edges: unsupported
	}
	if !reflect.DeepEqual(rm.Value, rf.Value) || rm.Truncated != rf.Truncated {
		t.Fatalf("%q regex=%v window %d on %q:\nmemory %+v\nfile   %+v", pattern, regex, window, text, rm.Value, rf.Value)
	}
	var each []Match
	re, erre := file.SearchEach(ctx, hf, pattern, regex, lim, func(m Match) error { each = append(each, m); return nil })
	if erre != nil || !reflect.DeepEqual(each, rf.Value.([]Match)) && len(each)+len(rf.Value.([]Match)) > 0 ||
		re.Value != int64(len(each)) || re.Truncated != rf.Truncated || re.Accounting.BytesInspected != rf.Accounting.BytesInspected {
		t.Fatalf("%q regex=%v window %d on %q: SearchEach %v %+v (%+v), Search %+v", pattern, regex, window, text, erre, each, re, rf)
	}
	cm, _ := mem.Search(ctx, hm, pattern, SearchOptions{Regex: regex, CountOnly: true}, lim)
	cf, _ := file.Search(ctx, hf, pattern, SearchOptions{Regex: regex, CountOnly: true}, lim)
	got := rm.Value.([]Match)
	if cm.Value.(int64) != int64(len(got)) || cf.Value.(int64) != int64(len(got)) {
		t.Fatalf("%q: counts %v, %v; list %d", pattern, cm.Value, cf.Value, len(got))
	}
	want := naiveMatches(text, pattern, regex)
	if len(got) != len(want) {
		t.Fatalf("%q regex=%v on %q: got %+v, want %+v", pattern, regex, text, got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Index != w.Index || g.Offset != w.Offset || g.Match != w.Match || (!w.Truncated && g.Value != w.Value) || g.Truncated != w.Truncated {
			t.Fatalf("%q regex=%v on %q: match %d = %+v, want %+v", pattern, regex, text, i, g, w)
		}
	}
}

func TestSearchWindows(t *testing.T) {
	long := strings.Repeat("é", 400) + "needle" + strings.Repeat("x", 700)
	texts := []string{
		"", "a", "\n", "needle", "needle\n", "a\nneedle\nb\nneedle needle\n",
		"xxneedlexx\nneedle", long, long + "\n" + long + "\nneedle\n", "\n\n\nneedle\n\n",
		"a\xffb needle\nx\xfeb\n\xff\n",                                  // invalid UTF-8: RE2 and Go regexp differ on it
		"a NEEDLE\nNeedle b\nneedlE\n\u212Aelvin \u017Fun\nKELVIN SUN\n", // case folds, Kelvin sign, long s
	}
	patterns := []struct {
		p     string
		regex bool
	}{
		{"needle", false}, {"e", false}, {"le\nne", false}, {"é", false},
		{"need+le", true}, {"^$", true}, {"(ne|x)", true}, {`\s*needle`, true}, {"(?i)NEEDLE", true}, {"x$", true},
		{"a.b", true}, {"[^q]b", true}, {`\S+$`, true}, {"(?i)needle b", true}, {"(?i)kelvin", true}, {"(?i)sun", true},
		// required literal sets: candidate lines
		{"(needle|x) ", true}, {"(?i)(NEEDLE|é)", true}, {`(^|\b)(ne|xx)+d?`, true}, {"(ee|é+)$", true},
		{"(?i)(kelvin|sun|a)", true}, {"colou?r|x{2}", true}, {"[abé]x|need", true}, {"(?i)needle|[^\n]b", true},
		{`(ne|x)\B`, true}, {`(ee|x)\b`, true}, {"(?i)(NEEDLE|xx)x*$", true}, // literal sets every match starts with
	}
	// Each window and the random texts are a parallel subtest: the stores
	// and temporary files of one are released when it ends, and the
	// subtests share no state.
	for _, window := range []int{1, 2, 3, 5, 8, 13, 64} {
		t.Run(fmt.Sprintf("window=%d", window), func(t *testing.T) {
			t.Parallel()
			for _, text := range texts {
				for _, p := range patterns {
					checkWindows(t, text, p.p, p.regex, window)
				}
			}
		})
	}
	t.Run("random", func(t *testing.T) {
		t.Parallel()
		rng := rand.New(rand.NewPCG(7, 9))
		for range 200 {
			text := randomText(rng, rng.IntN(200))
			for _, p := range []string{"ab", "a", "ba b", "é€", "bab"} {
				checkWindows(t, text, p, false, 1+rng.IntN(20))
			}
			for _, p := range []string{"a+b", "^b", "c$", "(ab|ba)+", "[éa]€", "(ab|€)b*", "(?i)(A|é€)b", `(\bb|ca)`} {
				checkWindows(t, text, p, true, 1+rng.IntN(20))
			}
		}
	})
}

func FuzzSearchWindows(f *testing.F) {
	f.Add("alpha\nbeta alpha\n", "alpha", false, uint8(3))
	f.Add("héllo\nwörld", "ö", false, uint8(1))
	f.Add("a\n\nb", "^$", true, uint8(2))
	f.Add("x\xffy\n\x80", "\xff", false, uint8(0))
	f.Add("ab\ncd\nab cd", `b\s+c`, true, uint8(4))
	f.Add("x1\ny\n", `(?i)X\d`, true, uint8(9))
	f.Add("ab cd\ncd\xffx\n\nabab", `(ab|cd)x?$`, true, uint8(5))
	f.Fuzz(func(t *testing.T, text, pattern string, regex bool, window uint8) {
		if len(text) > 4096 {
			return
		}
		checkWindows(t, text, pattern, regex, 1+int(window%64))
	})
}
