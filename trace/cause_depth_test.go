package trace

import (
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// nestedCause is one trace line whose error nests its cause n levels deep.
func nestedCause(n int) string {
	return `{"seq":1,"id":"e1","kind":"run","status":"error","error":` +
		strings.Repeat(`{"phase":"a","kind":"b","cause":`, n) + `"x"` + strings.Repeat(`}`, n) + "}\n"
}

// A trace is untrusted input (rlm trace view, rlm trace serve): an error
// whose cause nests thousands of levels deep is read back whole. Before,
// fault.Error.UnmarshalJSON decoded the rest of the text again at every
// level: one 257 KB line took 16 s (BenchmarkReadNestedCause measures it).
func TestReadNestedCause(t *testing.T) {
	const n = 8000
	evs, err := Read(strings.NewReader(nestedCause(n)))
	if err != nil || len(evs) != 1 {
		t.Fatalf("%d events, %v", len(evs), err)
	}
	depth := 0
	var last error
	for c := error(evs[0].Error); c != nil; depth++ {
		last = c
		fe, ok := c.(*fault.Error)
		if !ok {
			break
		}
		if fe.Phase != "a" || fe.Kind != "b" {
			t.Fatalf("level %d: %+v", depth, fe)
		}
		c = fe.Cause
	}
	if depth != n || last.Error() != "x" {
		t.Fatalf("chain of %d ending %v; want %d errors and the text x", depth, last, n)
	}
}

func BenchmarkReadNestedCause(b *testing.B) {
	line := nestedCause(8000)
	for b.Loop() {
		if _, err := Read(strings.NewReader(line)); err != nil {
			b.Fatal(err)
		}
	}
}
