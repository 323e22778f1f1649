package repl

import (
	"context"
	"fmt"
	"testing"
)

// MaxIntDigits is the limit int() and str() apply (hosts reading saved
// values rely on it being the same).
func TestMaxIntDigitsIsIntsLimit(t *testing.T) {
	it := newInterp(t, Config{}, nil)
	for _, tc := range []struct {
		src  string
		want string // exception type, "" for none
	}{
		{fmt.Sprintf(`n = int("7" * %d)`, MaxIntDigits), ""},
		{fmt.Sprintf(`n = int("7" * %d)`, MaxIntDigits+1), "ValueError"},
		{fmt.Sprintf(`s = str(10 ** %d)`, MaxIntDigits-1), ""},
		{fmt.Sprintf(`s = str(10 ** %d)`, MaxIntDigits), "ValueError"},
	} {
		out, err := it.Exec(context.Background(), tc.src)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if out.Exception != nil {
			got = out.Exception.Type
		}
		if got != tc.want {
			t.Errorf("%s: exception %q, want %q", tc.src, got, tc.want)
		}
	}
}
