package trace

import (
	"bytes"
	"strings"
	"testing"
)

// TestTreeOneLinePerEvent: docs/trace.md: "rlm trace view FILE prints
// a tree: one line per event". A name (or error kind) read from an
// untrusted file is printed raw, so a newline forges extra tree lines and
// terminal escape sequences reach the terminal.
func TestTreeOneLinePerEvent(t *testing.T) {
	in := `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"error"}
{"seq":2,"id":"e2","parent":"e1","kind":"model_call","name":"gpt\n✓ run rlm [d0 1.0ms] all good\u001b[2K","status":"error"}
`
	evs, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTree(&b, evs); err != nil {
		t.Fatal(err)
	}
	t.Logf("%q", b.String())
	if n := strings.Count(b.String(), "\n"); n != len(evs) || strings.ContainsRune(b.String(), 0x1b) {
		t.Fatalf("%d events printed as %d lines (escape present: %v):\n%s", len(evs), n, strings.ContainsRune(b.String(), 0x1b), b.String())
	}
}
