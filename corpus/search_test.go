package corpus

import (
	"context"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
)

func TestSearch(t *testing.T) {
	ctx := context.Background()
	text := "alpha beta\nGamma alpha\nδέλτα alpha\n\nlast alpha" // no final newline
	long := strings.Repeat("é", 400) + "needle" + strings.Repeat("x", 600)
	tests := []struct {
		name      string
		text      string
		pattern   string
		opt       SearchOptions
		lim       Limits
		want      []Match
		truncated bool
		kind      string
	}{
		{name: "literal", text: text, pattern: "alpha", want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "alpha beta"},
			{Index: 2, Offset: 11, Match: 17, Value: "Gamma alpha"},
			{Index: 3, Offset: 23, Match: 34, Value: "δέλτα alpha"},
			{Index: 5, Offset: 41, Match: 46, Value: "last alpha"},
		}},
		{name: "case sensitive", text: text, pattern: "gamma", want: []Match{}},
		{name: "multi-byte pattern", text: text, pattern: "έλ", want: []Match{{Index: 3, Offset: 23, Match: 25, Value: "δέλτα alpha"}}},
		{name: "one result per line", text: "aa aa aa\nb\naa", pattern: "aa", want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "aa aa aa"},
			{Index: 3, Offset: 11, Match: 11, Value: "aa"},
		}},
		{name: "max results", text: text, pattern: "alpha", lim: Limits{MaxResults: 2}, truncated: true, want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "alpha beta"},
			{Index: 2, Offset: 11, Match: 17, Value: "Gamma alpha"},
		}},
		{name: "exactly max results", text: text, pattern: "alpha", lim: Limits{MaxResults: 4}, want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "alpha beta"},
			{Index: 2, Offset: 11, Match: 17, Value: "Gamma alpha"},
			{Index: 3, Offset: 23, Match: 34, Value: "δέλτα alpha"},
			{Index: 5, Offset: 41, Match: 46, Value: "last alpha"},
		}},
		{name: "max bytes cuts at rune", text: text, pattern: "alpha", lim: Limits{MaxBytes: 22}, truncated: true, want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "alpha beta"},
			{Index: 2, Offset: 11, Match: 17, Value: "Gamma alpha"},
			{Index: 3, Offset: 23, Match: 34, Value: "", Truncated: true},
		}},
		{name: "max bytes mid rune", text: text, pattern: "alpha", lim: Limits{MaxBytes: 24}, truncated: true, want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "alpha beta"},
			{Index: 2, Offset: 11, Match: 17, Value: "Gamma alpha"},
			{Index: 3, Offset: 23, Match: 34, Value: "δ", Truncated: true},
		}},
		{name: "long line excerpt", text: "x\n" + long + "\n", pattern: "needle", want: []Match{
			{Index: 2, Offset: 2, Match: 802, Value: strings.Repeat("é", 64) + "needle" + strings.Repeat("x", 378), Truncated: true},
		}},
		{name: "long line prefix", text: long, pattern: "éé", want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: strings.Repeat("é", 256), Truncated: true},
		}},
		{name: "regex", text: text, pattern: `^\w+ alpha$`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 2, Offset: 11, Match: 11, Value: "Gamma alpha"},
			{Index: 5, Offset: 41, Match: 41, Value: "last alpha"},
		}},
		{name: "regex unicode class", text: text, pattern: `\pL+έ`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 3, Offset: 23, Match: 23, Value: "δέλτα alpha"},
		}},
		{name: "regex empty line", text: text, pattern: `^$`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 4, Offset: 40, Match: 40, Value: ""},
		}},
		{name: "regex empty match every line", text: "a\nb\n", pattern: `x*`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 1, Offset: 0, Match: 0, Value: "a"},
			{Index: 2, Offset: 2, Match: 2, Value: "b"},
		}},
		{name: "regex end of unterminated line", text: "a\nbc", pattern: `c$`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 2, Offset: 2, Match: 3, Value: "bc"},
		}},
		{name: "regex across newline is per line", text: "ab\ncd\nab cd", pattern: `b\s+c`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 3, Offset: 6, Match: 7, Value: "ab cd"},
		}},
		{name: "regex spanning match rechecked", text: "xa\nb\nab", pattern: `a\s*b`, opt: SearchOptions{Regex: true}, want: []Match{
			{Index: 3, Offset: 5, Match: 5, Value: "ab"},
		}},
		{name: "empty text", text: "", pattern: "a", want: []Match{}},
		{name: "empty pattern", text: text, pattern: "", kind: string(KindInvalidPattern)},
		{name: "newline in literal", text: text, pattern: "a\nb", kind: string(KindInvalidPattern)},
		{name: "bad regex", text: text, pattern: "a(", opt: SearchOptions{Regex: true}, kind: string(KindInvalidPattern)},
		{name: "unbalanced regex", text: text, pattern: ")(a", opt: SearchOptions{Regex: true}, kind: string(KindInvalidPattern)},
		{name: "bad limit", text: text, pattern: "a", lim: Limits{MaxResults: -5}, kind: string(KindInvalidLimit)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := newTestStore(t, tt.text)
			r, err := s.Search(ctx, h, tt.pattern, tt.opt, tt.lim)
			if tt.kind != "" {
				wantKind(t, err, faultKind(tt.kind))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := r.Value.([]Match)
			if r.Truncated != tt.truncated {
				t.Errorf("truncated = %v, want %v", r.Truncated, tt.truncated)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d matches %+v, want %+v", len(got), got, tt.want)
			}
			var returned int64
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("match %d = %+v\nwant %+v", i, got[i], tt.want[i])
				}
				returned += int64(len(got[i].Value))
			}
			if r.Accounting.BytesReturned != returned {
				t.Errorf("bytes_returned = %d, want %d", r.Accounting.BytesReturned, returned)
			}
			// Count mode agrees with the list when nothing was cut.
			if !tt.truncated && tt.lim == (Limits{}) {
				c, err := s.Search(ctx, h, tt.pattern, SearchOptions{Regex: tt.opt.Regex, CountOnly: true}, Limits{})
				if err != nil || c.Value.(int64) != int64(len(got)) {
					t.Errorf("count = %v, %v; want %d", c.Value, err, len(got))
				}
			}
		})
	}
}

// naiveSearch is the line-by-line reference: the 1-based numbers of lines
// (split on '\n', no line after a final newline) that match.
func naiveSearch(text string, match func(line string) bool) []int64 {
	var out []int64
	if text == "" {
		return nil // an empty text has no lines
	}
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if match(l) {
			out = append(out, int64(i+1))
		}
	}
	return out
}

func randomText(rng *rand.Rand, n int) string {
	alphabet := []string{"a", "b", "c", "ab", "\n", "\n", " ", "é", "€", "ba"}
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// TestSearchMatchesNaive is a property test: literal and regex search find
// exactly the lines a naive line-by-line scan finds, with correct numbers,
// offsets and values.
func TestSearchMatchesNaive(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	literals := []string{"a", "ab", "ba", "é", "€a", "b c", "aaa", " "}
	regexes := []string{`a+b`, `^a`, `b$`, `^$`, `é|€`, `a\s*b`, `[^a]+`, `(?i)A`, `\bab\b`}
	for iter := range 300 {
		text := randomText(rng, rng.IntN(200))
		s, h := newTestStore(t, text)
		check := func(pattern string, regex bool, match func(string) bool) {
			want := naiveSearch(text, match)
			r, err := s.Search(ctx, h, pattern, SearchOptions{Regex: regex}, Limits{MaxResults: MaxMaxResults})
			if err != nil {
				t.Fatal(err)
			}
			got := r.Value.([]Match)
			if len(got) != len(want) {
				t.Fatalf("iter %d %q regex=%v on %q: got %d lines %+v, want %v", iter, pattern, regex, text, len(got), got, want)
			}
			for i, m := range got {
				end := strings.IndexByte(text[m.Offset:], '\n')
				if end < 0 {
					end = len(text) - int(m.Offset)
				}
				line := text[m.Offset : m.Offset+int64(end)]
				if m.Index != want[i] || m.Value != line || int64(strings.Count(text[:m.Offset], "\n"))+1 != m.Index {
					t.Fatalf("iter %d %q regex=%v on %q: match %+v, want line %d", iter, pattern, regex, text, m, want[i])
				}
			}
			c, err := s.Search(ctx, h, pattern, SearchOptions{Regex: regex, CountOnly: true}, Limits{})
			if err != nil || c.Value.(int64) != int64(len(want)) {
				t.Fatalf("count %q = %v, %v; want %d", pattern, c.Value, err, len(want))
			}
		}
		for _, p := range literals {
			check(p, false, func(l string) bool { return strings.Contains(l, p) })
		}
		for _, p := range regexes {
			re := regexp.MustCompile(p)
			check(p, true, re.MatchString)
		}
	}
}

// TestSearchAcrossWindows checks matches that straddle scan and regex
// window boundaries, with line numbers counted across windows.
func TestSearchAcrossWindows(t *testing.T) {
	ctx := context.Background()
	// build returns lines of 99 x's, at least size bytes, with NEEDLE
	// planted across each offset in at.
	build := func(size int, at ...int) string {
		text := []byte(strings.Repeat(strings.Repeat("x", 99)+"\n", size/100+1))
		for _, a := range at {
			copy(text[a:], "NEEDLE")
		}
		return string(text)
	}
	big := build(2*scanWindow+500, scanWindow-3, 2*scanWindow-2, regexWindow-1)
	small := build(2*regexWindow+500, regexWindow-1, 2*regexWindow-3)
	for _, tc := range []struct {
		text    string
		pattern string
		regex   bool
	}{
		{big, "NEEDLE", false},         // literal
		{big, "NEED+LE", true},         // regex with a required literal
		{small, "(?i)needle", true},    // regex over line windows
		{small, `(?i)needle\s*`, true}, // regex line by line
	} {
		s, h := newTestStore(t, tc.text)
		want := naiveSearch(tc.text, func(l string) bool { return strings.Contains(l, "NEEDLE") })
		r, err := s.Search(ctx, h, tc.pattern, SearchOptions{Regex: tc.regex}, Limits{TimeLimit: MaxTimeLimit})
		if err != nil {
			t.Fatal(err)
		}
		got := r.Value.([]Match)
		if len(got) != len(want) {
			t.Fatalf("%q: got %d matches, want %d", tc.pattern, len(got), len(want))
		}
		for i := range got {
			if got[i].Index != want[i] {
				t.Fatalf("%q: match %d line %d, want %d", tc.pattern, i, got[i].Index, want[i])
			}
		}
		if r.Accounting.BytesInspected != int64(len(tc.text)) || r.Accounting.ItemsInspected != int64(len(want)) {
			t.Fatalf("%q: accounting = %+v", tc.pattern, r.Accounting)
		}
	}
}

func TestSearchCountDoesNotAllocatePerMatch(t *testing.T) {
	ctx := context.Background()
	s, h := newTestStore(t, strings.Repeat("a match here\n", 10000))
	allocs := testing.AllocsPerRun(5, func() {
		r, err := s.Search(ctx, h, "match", SearchOptions{CountOnly: true}, Limits{})
		if err != nil || r.Value.(int64) != 10000 {
			t.Fatal(r.Value, err)
		}
	})
	if allocs > 20 {
		t.Fatalf("count search made %v allocations", allocs)
	}
}

// TestLineOnly checks that the rewritten regex of a pattern able to
// consume a newline cannot, and still matches the lines it matched.
func TestLineOnly(t *testing.T) {
	tests := map[string]string{ // pattern: a line it matches ("" for none)
		`abc`: "abc", `a.b`: "a.b", `(?s)a.b`: "axb", `a\sb`: "a b", `[^a]`: "b", `a\nb`: "",
		`[\x00-\x7f]`: "x", `x|(y\s)`: "y ", `[\n]`: "", `\s*$`: "  ", `^$`: "",
	}
	for p, line := range tests {
		lr, err := compileLineRegex(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []interface{ Match([]byte) bool }{lr.std, lr.re2} {
			if re.Match([]byte("\n")) && !lr.std.Match([]byte("")) {
				t.Errorf("%q: rewritten %q matches a newline", p, lr.std)
			}
			if line != "" && !re.Match([]byte(line)) {
				t.Errorf("%q: rewritten %q does not match %q", p, lr.std, line)
			}
		}
	}
}

// TestRegexSpanningIsLinear checks that a regex able to run across lines is
// matched line by line instead of re-scanning a window per match.
func TestRegexSpanningIsLinear(t *testing.T) {
	text := strings.Repeat("a x\n", 1<<16) + "b\n" // 256 KiB
	s, h := newTestStore(t, text)
	r, err := s.Search(context.Background(), h, `(?s)a.*b`, SearchOptions{Regex: true, CountOnly: true}, Limits{TimeLimit: 20 * time.Second})
	if err != nil || r.Value.(int64) != 0 {
		t.Fatalf("count = %v, %v", r.Value, err)
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := map[string]string{
		`abc`: "abc", `zyz+yva`: "yva", `^zyzzyva`: "zyzzyva", `\s\pL+é`: "é", `(foo)+\d`: "foo",
		`a{2,}bcd`: "bcd", `(?i)abc`: "", `a|b`: "", `x*`: "", `a\nbc`: "", `(ab)?cd`: "cd",
	}
	for p, want := range tests {
		if got := requiredLiteral(p); got != want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", p, got, want)
		}
	}
	fold := map[string]string{
		`(?i)ZYZZYVA`: "zyzzyva", `(?i)(MODEL|WINDOW) x`: " x", `(?i)desk`: "", `(?i)ab.*(?-i)sKx`: "skx",
		`(?i)café`: "", `abc`: "abc", `(?i)a\nb`: "",
	}
	for p, want := range fold {
		if got := requiredFoldLiteral(p); got != want {
			t.Errorf("requiredFoldLiteral(%q) = %q, want %q", p, got, want)
		}
	}
}

// SearchEach stops at the first error of yield and returns it as is, and
// honours MaxResults like Search.
func TestSearchEachStops(t *testing.T) {
	s, h := newTestStore(t, strings.Repeat("needle\n", 50))
	ctx := context.Background()
	stop := errors.New("stop")
	n := 0
	_, err := s.SearchEach(ctx, h, "needle", false, Limits{}, func(Match) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Fatalf("err %v after %d matches, want stop after 3", err, n)
	}
	n = 0
	r, err := s.SearchEach(ctx, h, "need+le", true, Limits{MaxResults: 10}, func(Match) error { n++; return nil })
	if err != nil || n != 10 || r.Value != int64(10) || !r.Truncated {
		t.Fatalf("got %v, %d yielded, %+v; want 10, truncated", err, n, r)
	}
}

// A search stopped by cancellation reports the bytes it read before it
// stopped, not zero: the yield of the first match cancels, and the next
// check (one scan window on) ends the search.
func TestSearchStoppedReportsBytesInspected(t *testing.T) {
	text := "needle\n" + strings.Repeat("filler line without it\n", (20<<20)/23) + "needle\n"
	s, h := newTestStore(t, text)
	for _, regex := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := s.SearchEach(ctx, h, "needle", regex, Limits{}, func(Match) error { cancel(); return nil })
		cancel()
		fe := fault.As(err)
		if fe == nil || fe.Kind != fault.KindCancelled {
			t.Fatalf("regex %v: err %v, want kind cancelled", regex, err)
		}
		got, _ := fe.Detail["bytes_inspected"].(int64)
		if got <= 0 || got >= int64(len(text)) {
			t.Errorf("regex %v: bytes_inspected %v, want the part read before the stop (0 < n < %d)", regex, fe.Detail["bytes_inspected"], len(text))
		}
	}
}

// TestSearchRegexNoWordBoundaryMultibyte: RE2 evaluates \B between any two
// bytes, so inside a multi-byte character (both bytes non-word) it held
// where Go regexp, which steps by character, never looks: "aéb" matched
// `\B` (Go: no position qualifies) and `\B` in "céba" was reported at the
// middle of "é".
func TestSearchRegexNoWordBoundaryMultibyte(t *testing.T) {
	for _, tc := range []struct{ text, pattern string }{
		{"aéb\nx\n", `\B`},
		{"céba\n", `\B`},
		{"aéb\nab\n", `a*\B`},
		{"x€y\nxy\n", `(?:\B)+?`},
		{"aéb\n€\nab\n", `\B|zz`},
		{"aéb\nab\n", `(\Bq|\B)`},
	} {
		for _, window := range []int{3, 64} {
			checkWindows(t, tc.text, tc.pattern, true, window)
		}
	}
}

// TestSearchRegexReplacementChar: Go regexp reads an invalid byte as
// U+FFFD, so a regex holding U+FFFD matches lines with invalid UTF-8; the
// literal prefilters searched for the bytes of U+FFFD instead and missed
// those lines.
func TestSearchRegexReplacementChar(t *testing.T) {
	text := "x\xff\nab\xfec\nok\nq\xffz\nx\uFFFD\n"
	for _, pattern := range []string{
		`x\x{fffd}`, "\uFFFD", `(ab|\x{fffd})c`, `(ab|cd)\x{fffd}c`, `[\x{fffd}é]z`, `(?:q|\x{fffd})z$`, `x\x{fffd}+$`,
	} {
		for _, window := range []int{3, 64} {
			checkWindows(t, text, pattern, true, window)
		}
	}
}
