package trace

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Live attributes and live-only events reach live observers only: the
// recorder keeps no trace of them (Events, WithObserver observers, the
// live file, JSON), takes no sequence number for live-only events, and
// gives live observers the events its limit drops (here the last turn
// and the run).
func TestLiveAttributesNeverKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	file, err := OpenLive(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept, live []Event
	rec := NewRecorder(WithClock(fixedClock()), WithLimit(3), WithObserver(file.Observe),
		WithObserver(func(ev Event) { kept = append(kept, ev) }),
		WithLiveObserver(func(ev Event) { live = append(live, ev) }))
	ctx := WithRecorder(context.Background(), rec)
	if !Listening(ctx) || Listening(WithRecorder(context.Background(), NewRecorder())) {
		t.Fatal("Listening")
	}
	ctx, run := Start(ctx, KindRun, "rlm")
	tctx, turn := Start(ctx, KindTurn, "turn 1")
	EmitLive(tctx, KindDelta, "", map[string]any{AttrDelta: "LIVE-DELTA"})
	cctx, cell := Start(tctx, KindPlanStep, "cell")
	cell.Set("cell", 1)
	cell.SetLive(AttrCells, 2)
	cell.Announce()
	EmitLive(cctx, KindNote, NoteSubCall, map[string]any{AttrReply: "LIVE-SUB"})
	cell.End(nil)
	turn.Set("stored", true)
	turn.SetLive(AttrReply, "LIVE-REPLY")
	turn.SetLive(AttrObservation, "LIVE-OBS")
	turn.End(nil)
	Emit(ctx, KindNote, "n", nil, nil)
	_, extra := Start(ctx, KindTurn, "turn 2") // over the limit: dropped
	extra.SetLive(AttrReply, "LIVE-DROPPED")
	extra.End(nil)
	run.End(nil)

	events := rec.Events()
	if len(events) != 3 || rec.Dropped() != 2 {
		t.Fatalf("kept %d, dropped %d", len(events), rec.Dropped())
	}
	for i, ev := range events {
		if ev.Live != nil || ev.LiveOnly() {
			t.Fatalf("kept event with live attributes: %+v", ev)
		}
		// Live-only events take no sequence number: ids stay dense.
		if want := []string{"e2", "e3", "e4"}[i]; ev.ID != want {
			t.Fatalf("event %d id %s, want %s", i, ev.ID, want)
		}
	}
	for _, ev := range kept {
		if ev.Live != nil || ev.LiveOnly() {
			t.Fatalf("a WithObserver observer saw a live event: %+v", ev)
		}
	}
	raw, _ := json.Marshal(events)
	file.close()
	fileRaw, _ := os.ReadFile(path)
	for _, b := range [][]byte{raw, fileRaw} {
		if strings.Contains(string(b), "LIVE-") {
			t.Fatalf("stored text holds live attributes: %s", b)
		}
	}
	var got []string
	for _, ev := range live {
		s := string(ev.Kind) + ":" + ev.Name + ":" + string(ev.Status)
		for _, k := range []string{AttrDelta, AttrReply, AttrObservation, AttrCells} {
			if v, ok := ev.Live[k]; ok {
				s += " " + k + "=" + fmt.Sprint(v)
			}
		}
		if ev.LiveOnly() {
			s += " live-only"
		}
		got = append(got, s)
	}
	want := []string{
		"delta::ok delta=LIVE-DELTA live-only",
		"plan_step:cell:started cells=2 live-only",
		"note:sub_call reply:ok reply=LIVE-SUB live-only",
		"plan_step:cell:ok cells=2",
		"turn:turn 1:ok reply=LIVE-REPLY observation=LIVE-OBS",
		"note:n:ok",
		"turn:turn 2:ok reply=LIVE-DROPPED",
		"run:rlm:ok",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("live observer saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a := live[1]; a.ID != events[1].ID || a.Seq != events[1].Seq || a.Attrs["cell"] != 1 {
		t.Fatalf("announcement %+v, want the cell span's id and attributes", a)
	}
}

// WithLiveContext gives a scope's events, and only them, to its
// observer; an inner WithLiveContext replaces it, nil removes it.
func TestWithLiveContext(t *testing.T) {
	rec := NewRecorder()
	base := WithRecorder(context.Background(), rec)
	var outer, inner []string
	ctx := WithLiveContext(base, func(ev Event) { outer = append(outer, ev.Name) })
	if !Listening(ctx) || Listening(base) {
		t.Fatal("Listening")
	}
	ctx, sp := Start(ctx, KindRun, "a")
	EmitLive(ctx, KindDelta, "b", nil)
	_, other := Start(base, KindRun, "not scoped")
	other.End(nil)
	ictx := WithLiveContext(ctx, func(ev Event) { inner = append(inner, ev.Name) })
	Emit(ictx, KindNote, "c", nil, nil)
	Emit(WithLiveContext(ctx, nil), KindNote, "d", nil, nil)
	EmitLive(WithLiveContext(ctx, nil), KindDelta, "e", nil) // nobody listens
	sp.End(nil)
	if strings.Join(outer, ",") != "b,a" || strings.Join(inner, ",") != "c" {
		t.Fatalf("outer %v inner %v", outer, inner)
	}
	if n := len(rec.Events()); n != 4 {
		t.Fatalf("kept %d events, want 4", n)
	}
}
