package time

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// FuzzStrftime formats arbitrary format strings: no panic, and the result
// of a format without '%' is the format itself.
func FuzzStrftime(f *testing.F) {
	for _, s := range []string{"%Y-%m-%d", "%", "%%", "%-d %_H %05Y %^a %#b", "%E%O%q", "%10", "%G-W%V-%u %c %x %X", "plain"} {
		f.Add(s)
	}
	in := python.New(python.Config{MaxValueBytes: 1 << 20})
	f.Cleanup(in.Close)
	th := python.NewThread(context.Background(), in, 1<<40, func(string) {})
	x, err := breakDown(1700000000, "UTC")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := format(th, s, x)
		if err != nil {
			if _, ok := python.AsException(err); !ok {
				t.Fatalf("strftime(%q): %v", s, err)
			}
			return
		}
		hasPct := false
		for i := 0; i < len(s); i++ {
			if s[i] == '%' {
				hasPct = true
			}
		}
		if !hasPct && out != s {
			t.Fatalf("strftime(%q) = %q", s, out)
		}
	})
}
