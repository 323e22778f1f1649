package trace

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// TestWriteJSONSameBytes: WriteJSON, which writes an event at a time,
// writes the same bytes as an indenting json.Encoder given the whole
// envelope (the way it was written before), generated_at aside.
func TestWriteJSONSameBytes(t *testing.T) {
	at := time.Date(2026, 12, 6, 12, 0, 0, 123456789, time.UTC)
	ev := func(i int, attrs map[string]any) Event {
		return Event{Seq: uint64(i), ID: "e" + strings.Repeat("1", i%3+1), Parent: "e0", Depth: i % 4, Kind: KindModelCall,
			Name: "gpt <&> \"x\" é", Status: StatusOK, Start: at, End: at.Add(time.Duration(i) * time.Millisecond),
			DurationMS: float64(i) / 3, Tokens: &Tokens{Prompt: int64(i), Completion: 2}, CostUSD: 0.001 * float64(i), Attrs: attrs}
	}
	many := make([]Event, 300)
	for i := range many {
		many[i] = ev(i, map[string]any{"n": i, "list": []any{1, "two", nil}, "nested": map[string]any{"a": "b\n\tc", "<": ">"}})
	}
	failed := ev(7, nil)
	failed.Error = fault.New(fault.PhaseExecute, fault.KindInternal, "boom").With("k", "v")
	stamp := regexp.MustCompile(`"generated_at": "[^"]*"`)
	for _, c := range []struct {
		name    string
		title   string
		events  []Event
		dropped int
	}{
		{"none", "rlm", nil, 0},
		{"empty slice", "rlm", []Event{}, 3},
		{"one", "rlm", []Event{ev(1, nil)}, 0},
		{"failed", `a "events": [] name`, []Event{failed, ev(2, map[string]any{})}, 0},
		{"many", "rlm", many, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := WriteJSON(&got, c.title, c.events, c.dropped); err != nil {
				t.Fatal(err)
			}
			events := c.events
			if events == nil {
				events = []Event{}
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(Envelope{Schema: Schema, Name: c.title, Payload: Payload{Events: events, Dropped: c.dropped}}); err != nil {
				t.Fatal(err)
			}
			g := stamp.ReplaceAllString(got.String(), `"generated_at": ""`)
			w := stamp.ReplaceAllString(want.String(), `"generated_at": ""`)
			if g != w {
				t.Fatalf("WriteJSON differs from the whole envelope's encoding:\n%s\n---\n%s", g, w)
			}
		})
	}
}

// BenchmarkWriteJSON: a 5,000-event trace (a 1,000-sub-call fan-out's)
// written as the JSON envelope.
func BenchmarkWriteJSON(b *testing.B) {
	at := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	events := make([]Event, 5000)
	for i := range events {
		events[i] = Event{Seq: uint64(i), ID: "e1234", Parent: "e12", Depth: 1, Kind: KindPlanStep, Name: "model", Status: StatusOK,
			Start: at, End: at, DurationMS: 52.5, Attrs: map[string]any{"index": i, "model": "gpt-4o-mini", "bytes": 180}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteJSON(io.Discard, "rlm", events, 0); err != nil {
			b.Fatal(err)
		}
	}
}
