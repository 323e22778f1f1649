package viewer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// FuzzParseAndBuild: any JSONL input parses without panicking, stops at
// its first bad line, and lays out as a tree holding every event once with
// subtree sizes that add up.
func FuzzParseAndBuild(f *testing.F) {
	var b strings.Builder
	_ = trace.WriteJSONL(&b, genTrace(40))
	f.Add([]byte(b.String()))
	b.Reset()
	_ = trace.WriteJSONL(&b, genCodeTrace(80))
	f.Add([]byte(b.String()))
	f.Add([]byte(`{"id":"e1","parent":"e2"}` + "\n" + `{"id":"e2","parent":"e1"}` + "\n" + `{"id":"e1","parent":"e1"}` + "\nnope\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Split(data, []byte("\n"))
		evs, n, err := parseLines(lines)
		if n > len(lines) || (err == nil) != (n == len(lines)) {
			t.Fatalf("consumed %d of %d lines, err %v", n, len(lines), err)
		}
		m := build(evs, 1)
		if len(m.Nodes) != len(evs) {
			t.Fatalf("%d nodes for %d events", len(m.Nodes), len(evs))
		}
		total := 0
		for _, nd := range m.Nodes {
			if nd.Parent < 0 {
				total += nd.Size
			}
		}
		if total != len(evs) {
			t.Fatalf("root subtrees hold %d events, want %d", total, len(evs))
		}
		// The run view of any tree: every run, every turn's iteration.
		for _, rv := range m.runs(evs) {
			if rv.Turns != len(rv.Iterations)+rv.MoreIters {
				t.Fatalf("run with %d turns, %d iterations", rv.Turns, len(rv.Iterations))
			}
		}
		for pos, nd := range m.Nodes {
			if nd.Kind == trace.KindTurn {
				_ = m.iteration(evs, pos)
			}
		}
	})
}

// FuzzAcceptsGzip: any Accept-Encoding value is read without panicking,
// and gzip is never chosen unless the value names gzip or "*".
func FuzzAcceptsGzip(f *testing.F) {
	for _, s := range []string{"gzip", "gzip;q=0", "*;q=0.1, br", "deflate;q=1;;q=", ",,;", "GZIP ; Q = 0.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if acceptsGzip([]string{s}) && !strings.Contains(strings.ToLower(s), "gzip") && !strings.Contains(s, "*") {
			t.Fatalf("gzip chosen for %q", s)
		}
	})
}
