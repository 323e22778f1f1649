package rlm

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// Spec.TraceContent reaches the direct loop: Session.Direct's trace keeps
// the question, the answer and the reply under it, and none of them
// without it.
func TestDirectTraceContent(t *testing.T) {
	for _, content := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "direct.jsonl")
		var calls atomic.Int64
		s, err := Open(context.Background(), Spec{Context: []string{"testdata/app.log"}, Cache: CacheSpec{Off: true}, Trace: path, TraceContent: content},
			scripted("billing failed first", &calls))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Direct(context.Background(), "which service failed first?"); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		evs, err := trace.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for _, ev := range evs {
			switch ev.Kind {
			case trace.KindRun:
				got["query"], got["answer"] = ev.Attrs["query"], ev.Attrs["answer"]
			case trace.KindTurn:
				got["reply"] = ev.Attrs["reply"]
			}
		}
		want := map[string]any{"query": "which service failed first?", "answer": "billing failed first", "reply": "billing failed first"}
		for k, w := range want {
			if !content {
				w = nil
			}
			if got[k] != w {
				t.Errorf("content %v: %s = %v, want %v", content, k, got[k], w)
			}
		}
	}
}
