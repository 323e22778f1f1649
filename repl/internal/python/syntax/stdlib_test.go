package syntax

import (
	"encoding/json"
	"os"
	"testing"
)

// TestStdlib compares Parse with CPython on the standard library's own
// files; it runs only when STDLIB_JSON names the file that
// testdata/gen_stdlib.py writes (see there).
func TestStdlib(t *testing.T) {
	path := os.Getenv("STDLIB_JSON")
	if path == "" {
		t.Skip("STDLIB_JSON not set")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Path, Src, Dump string
		Err             []any
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, c := range cases {
		m, err := Parse(c.Src)
		if c.Err != nil {
			e, ok := err.(*Error)
			if !ok || e.Type != c.Err[0] || e.Msg != c.Err[1] || float64(e.Line) != c.Err[2].(float64) {
				bad++
				t.Errorf("%s: got %v, want %v", c.Path, err, c.Err)
			}
			continue
		}
		if err != nil {
			bad++
			t.Errorf("%s: %v", c.Path, err)
			continue
		}
		if got := DumpPos(m); got != c.Dump {
			bad++
			t.Errorf("%s:\n%s", c.Path, firstDiff(got, c.Dump))
		}
	}
	t.Logf("%d files, %d differ", len(cases), bad)
}
