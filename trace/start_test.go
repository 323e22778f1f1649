package trace

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartObserver: a start observer sees each span as it starts (status
// started, its id and parent, no attributes), not point events, not the
// span again when it ends, and not spans started once the limit is
// reached.
func TestStartObserver(t *testing.T) {
	var seen []Event
	rec := NewRecorder(WithClock(fixedClock()), WithLimit(2), WithStartObserver(func(ev Event) { seen = append(seen, ev) }), WithStartObserver(nil))
	ctx := WithRecorder(context.Background(), rec)
	ctx, run := Start(ctx, KindRun, "rlm")
	run.Set("query", "q")
	cctx, call := Start(ctx, KindModelCall, "m")
	Emit(cctx, KindNote, "reply", nil, nil)
	call.End(nil)
	_, late := Start(ctx, KindTurn, "turn 2") // the limit is reached: dropped at its end
	late.End(nil)
	run.End(nil)
	var got []string
	for _, ev := range seen {
		got = append(got, ev.ID+":"+ev.Parent+":"+string(ev.Kind)+":"+string(ev.Status))
		if ev.Attrs != nil || !ev.End.IsZero() || !ev.LiveOnly() {
			t.Errorf("start event %+v", ev)
		}
	}
	if want := "e1::run:started e2:e1:model_call:started"; strings.Join(got, " ") != want {
		t.Fatalf("start observer saw %q, want %q", strings.Join(got, " "), want)
	}
}

// TestLiveFileStartLines: with its start observer the live file holds the
// spans in flight too; Read gives each span once, the start line replaced
// by the end, in its place, and a span still in flight as started.
func TestLiveFileStartLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	live, err := OpenLive(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(WithClock(fixedClock()), WithObserver(live.Observe), WithStartObserver(live.ObserveStart))
	ctx := WithRecorder(context.Background(), rec)
	ctx, run := Start(ctx, KindRun, "rlm")
	tctx, turn := Start(ctx, KindTurn, "turn 1")
	_, call := Start(tctx, KindModelCall, "m")
	call.End(nil)
	live.ObserveStart(Event{ID: "x", Kind: KindNote, Status: StatusOK}) // not a start: ignored
	evs, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		got = append(got, ev.ID+":"+string(ev.Status))
	}
	if want := "e1:started e2:started e3:ok"; strings.Join(got, " ") != want {
		t.Fatalf("mid-run: %q, want %q", strings.Join(got, " "), want)
	}
	turn.End(nil)
	run.End(nil)
	evs, err = ReadFile(path)
	got = got[:0]
	for _, ev := range evs {
		got = append(got, ev.ID+":"+string(ev.Status))
	}
	if want := "e1:ok e2:ok e3:ok"; err != nil || strings.Join(got, " ") != want {
		t.Fatalf("ended: %q (%v), want %q", strings.Join(got, " "), err, want)
	}
	if err := live.WriteFile(path, "x", rec.Events(), 0); err != nil {
		t.Fatal(err)
	}
}
