package capability

import "testing"

// A dotted wildcard grants every name that starts with the part before its
// "*", also when that part is the lone dot of "PREFIX:.*" (Parse accepts
// it, and tool names may start with a dot).
func TestDottedWildcardLeadingDot(t *testing.T) {
	s := MustSet("tool:.*")
	for _, c := range []struct {
		cap  Cap
		want bool
	}{
		{"tool:.hidden", true},
		{"tool:.a.b", true},
		{"tool:.*", true},
		{"tool:hidden", false},
		{"tool:a.b", false},
		{"model:.x", false},
	} {
		if got := s.Has(c.cap); got != c.want {
			t.Errorf("Has(%s) = %v, want %v", c.cap, got, c.want)
		}
	}
}
