package os

import (
	"strings"
	"testing"
)

// FuzzNormpath normalizes arbitrary paths: the result is never empty, is
// normal (normalizing it again changes nothing), keeps an absolute path
// absolute, and split and splitext give back their input.
func FuzzNormpath(f *testing.F) {
	for _, s := range []string{"//a//b/../c/./", "///a", "../../a", "", ".", "/..", "a/./b/../../c", ".bashrc", "a.b/c.d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := normpath(s)
		if n == "" || normpath(n) != n {
			t.Fatalf("normpath(%q) = %q, again %q", s, n, normpath(n))
		}
		if strings.HasPrefix(s, "/") != strings.HasPrefix(n, "/") {
			t.Fatalf("normpath(%q) = %q changed absoluteness", s, n)
		}
		root, ext := splitext(s)
		if root+ext != s {
			t.Fatalf("splitext(%q) = %q, %q", s, root, ext)
		}
		head, tail := split(s)
		if !strings.HasSuffix(s, tail) || !strings.HasPrefix(s, head) {
			t.Fatalf("split(%q) = %q, %q", s, head, tail)
		}
	})
}
