package durable

import (
	"errors"
	"strings"
	"testing"
)

func TestRedactedHidesURLPasswords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"system database postgres://rlm:s3cret@db:5432/x is at version 0", "system database postgres://rlm:REDACTED@db:5432/x is at version 0"},
		{"postgresql://u:p@h/d and postgres://v:q@h/d", "postgresql://u:REDACTED@h/d and postgres://v:REDACTED@h/d"},
		{"postgres://rlm@h/d has no password", "postgres://rlm@h/d has no password"},
	} {
		got := redacted(errors.New(tc.in)).Error()
		if got != tc.want {
			t.Errorf("%q: got %q", tc.in, got)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("password kept: %q", got)
		}
	}
}
