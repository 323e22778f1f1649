package string

import (
	"strings"
	"testing"
)

// FuzzTemplateScan scans arbitrary templates: every placeholder found lies
// within the text, in order, and the scan ends.
func FuzzTemplateScan(f *testing.F) {
	for _, s := range []string{"$a ${b} $$ $5", "$", "${", "${a", "$$$", "x$_y1z", "é$é"} {
		f.Add(s, "$")
	}
	f.Add("[[x [[[[", "[[")
	f.Fuzz(func(t *testing.T, s, delim string) {
		if delim == "" {
			return
		}
		sc := &scan{s: s, delim: delim}
		last := 0
		for n := 0; sc.next(); n++ {
			if n > len(s)+1 {
				t.Fatalf("scan of %q does not end", s)
			}
			if sc.start < last || sc.end < sc.start || sc.end > len(s) {
				t.Fatalf("bad placeholder [%d, %d) after %d in %q", sc.start, sc.end, last, s)
			}
			if !strings.HasPrefix(s[sc.start:], delim) {
				t.Fatalf("placeholder at %d of %q does not start with %q", sc.start, s, delim)
			}
			last = sc.end
		}
	})
}
