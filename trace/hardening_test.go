package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestTreeMalformedParents checks that WriteTree terminates and prints
// every event exactly once when a trace has duplicate ids and parent
// cycles, as a hand-edited or corrupted file may.
func TestTreeMalformedParents(t *testing.T) {
	evs := []Event{
		{Seq: 1, ID: "e1", Kind: KindRun, Name: "root"},
		{Seq: 2, ID: "e2", Parent: "e1", Kind: KindTurn, Name: "turn"},
		{Seq: 3, ID: "e1", Parent: "e2", Kind: KindNote, Name: "dup"}, // duplicate id under its own child
		{Seq: 4, ID: "e4", Parent: "e5", Kind: KindNote, Name: "cycle-a"},
		{Seq: 5, ID: "e5", Parent: "e4", Kind: KindNote, Name: "cycle-b"},
		{Seq: 6, ID: "e6", Parent: "e6", Kind: KindNote, Name: "self"},
		{Seq: 7, ID: "e7", Parent: "gone", Kind: KindNote, Name: "orphan"},
	}
	var buf bytes.Buffer
	if err := WriteTree(&buf, evs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "\n"); n != len(evs) {
		t.Fatalf("printed %d lines for %d events:\n%s", n, len(evs), out)
	}
	for _, name := range []string{"root", "turn", "dup", "cycle-a", "cycle-b", "self", "orphan"} {
		if strings.Count(out, " "+name+" ") != 1 {
			t.Errorf("event %q not printed exactly once:\n%s", name, out)
		}
	}
}

// TestReadTooLarge checks that Read stops at its size bound.
func TestReadTooLarge(t *testing.T) {
	defer func(n int64) { maxTraceBytes = n }(maxTraceBytes)
	maxTraceBytes = 64
	line := `{"seq":1,"id":"e1","kind":"note","start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:00:00Z","duration_ms":0}` + "\n"
	_, err := Read(strings.NewReader(strings.Repeat(line, 10)))
	if fault.KindOf(err) != KindMalformedTrace || fault.PhaseOf(err) != fault.PhaseTrace {
		t.Fatalf("err = %v, want trace/malformed_trace", err)
	}
	maxTraceBytes = int64(len(line))
	if evs, err := Read(strings.NewReader(line)); err != nil || len(evs) != 1 {
		t.Fatalf("trace of exactly the limit: %v, %v", evs, err)
	}
}

// TestRedactNestedCredentials checks that header-like maps, slices and
// credential-looking values are redacted whatever the attribute key, and
// that ordinary values and token counts are kept.
func TestRedactNestedCredentials(t *testing.T) {
	const secret = "sk-FAKE-trace-1234"
	rec := NewRecorder()
	ctx := WithRecorder(context.Background(), rec)
	_, sp := Start(ctx, KindModelCall, "m")
	sp.Set("headers", map[string]string{"Authorization": "Bearer " + secret, "X-Api-Key": secret, "X-Title": "rlm"})
	sp.Set("http_header", map[string][]string{"Proxy-Authorization": {"Basic " + secret}, "Accept": {"text/event-stream"}})
	sp.Set("sent", []any{"Bearer " + secret, map[string]any{"api-key": secret}})
	sp.Set("auth_line", "bearer "+secret)
	sp.Set("prompt_tokens", 12)
	e := fault.New(fault.PhaseProvider, "http_status", "x").With("authorization", "Bearer "+secret).With("status", 401)
	sp.End(e)
	e.With("late", 1) // annotating after End must not race with, or change, the record

	evs := rec.Events()
	js, err := json.Marshal(evs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), secret) {
		t.Fatalf("secret recorded: %s", js)
	}
	for _, keep := range []string{`"X-Title":"rlm"`, `"Accept":["text/event-stream"]`, `"prompt_tokens":12`, `"status":401`} {
		if !strings.Contains(string(js), keep) {
			t.Errorf("%s missing from %s", keep, js)
		}
	}
	if _, ok := evs[0].Error.Detail["late"]; ok {
		t.Errorf("recorded error shares its detail map with the producer")
	}
	if !IsSecretKey("X-Api-Key") || !IsSecretKey("Proxy-Authorization") || IsSecretKey("max_tokens") {
		t.Errorf("IsSecretKey misclassifies header names")
	}
}

// TestTraceViewDeepChainBounded is issue 18 item 9: a 20,000-event parent
// chain printed 400 MB (two spaces of indentation per level) through a
// recursive walk. The output is now linear in the number of events
// (indentation stops at MaxTreeIndent, with an elision marker) and the walk
// is iterative: it runs with the goroutine stack capped at 1 MiB, which the
// recursive walk of this chain exceeded.
func TestTraceViewDeepChainBounded(t *testing.T) {
	const n = 20_000
	evs := make([]Event, n)
	for i := range evs {
		evs[i] = Event{Seq: uint64(i + 1), ID: "e" + strconv.Itoa(i+1), Kind: KindPlanStep, Name: "step", Status: StatusOK, Depth: i}
		if i > 0 {
			evs[i].Parent = evs[i-1].ID
		}
	}
	old := debug.SetMaxStack(1 << 20)
	defer debug.SetMaxStack(old)
	var buf bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- WriteTree(&buf, evs) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if got := strings.Count(out, "\n"); got != n {
		t.Fatalf("printed %d lines, want %d", got, n)
	}
	// Every line: at most MaxTreeIndent levels of indentation, a marker and
	// the event's own line (well under 100 bytes here).
	if limit := n * (2*MaxTreeIndent + 120); buf.Len() > limit {
		t.Fatalf("output is %d bytes, want at most %d", buf.Len(), limit)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	last := lines[n-1]
	if want := strings.Repeat("  ", MaxTreeIndent) + "⋯L" + strconv.Itoa(n-1) + " ✓ plan_step step"; !strings.HasPrefix(last, want) {
		t.Fatalf("deepest line = %q, want prefix %q", last, want)
	}
	if strings.Contains(lines[MaxTreeIndent], "⋯") || !strings.Contains(lines[MaxTreeIndent+1], "⋯L33 ") {
		t.Fatalf("elision starts at the wrong level:\n%s\n%s", lines[MaxTreeIndent], lines[MaxTreeIndent+1])
	}
}
