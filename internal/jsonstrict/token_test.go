package jsonstrict

import "testing"

// TestEscapeToken: RFC 6901's two escapes, in the order that keeps "~1"
// in a key from turning into "/", and back.
func TestEscapeToken(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""}, {"plain", "plain"}, {"a/b", "a~1b"}, {"m~n", "m~0n"}, {"~1", "~01"}, {"/~/", "~1~0~1"},
	} {
		if got := EscapeToken(c.in); got != c.want {
			t.Errorf("EscapeToken(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := UnescapeToken(c.want); back != c.in {
			t.Errorf("UnescapeToken(%q) = %q, want %q", c.want, back, c.in)
		}
	}
}
