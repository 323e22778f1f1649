package rlmlog

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/trace"
)

// TestExportDuplicateIDTerminates: a trace file is untrusted input; a
// hand-edited or corrupted trace whose ids repeat (trace.Walk and the
// viewer explicitly handle "events under a duplicated id") must not make
// `rlm trace export --format rlm-jsonl` loop forever.
func TestExportDuplicateIDTerminates(t *testing.T) {
	in := `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"ok"}
{"seq":2,"id":"e2","parent":"e1","kind":"turn","name":"turn 1","status":"ok"}
{"seq":3,"id":"e3","parent":"e2","kind":"plan_step","name":"cell","status":"ok"}
{"seq":4,"id":"e3","parent":"e3","depth":1,"kind":"model_call","name":"m","status":"ok"}
`
	evs, err := trace.Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() { done <- Export(&out, evs) }()
	select {
	case err := <-done:
		t.Logf("Export returned %v, %d bytes", err, out.Len())
	case <-time.After(30 * time.Second):
		t.Fatal("Export did not return within 30s on a trace with a duplicated id (it loops, appending rlm_calls without bound)")
	}
}
