package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func fixedClock() func() time.Time {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	n := 0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		n++
		return t0.Add(time.Duration(n) * time.Millisecond)
	}
}

func sample(t *testing.T) *Recorder {
	t.Helper()
	rec := NewRecorder(WithClock(fixedClock()))
	ctx := WithRecorder(context.Background(), rec)
	ctx, run := Start(ctx, KindRun, "demo")
	tctx, turn := Start(ctx, KindTurn, "turn 1")
	_, call := Start(tctx, KindModelCall, "gpt-4o-mini")
	call.SetTokens(100, 20, 120)
	call.SetCost(0.000123, true)
	call.Set("api_key", "sk-secret")
	call.Set("model", "gpt-4o-mini")
	call.End(nil)
	_, op := Start(tctx, KindContextOp, "search")
	op.SetBytes(4096)
	op.End(fault.New(fault.PhaseContext, "invalid_pattern", "bad"))
	turn.End(nil)
	cctx := WithDepth(ctx, 1)
	_, child := Start(cctx, KindChild, "chunk 0")
	child.End(context.Canceled)
	run.End(nil)
	return rec
}

func TestSpansNestAndRedact(t *testing.T) {
	evs := sample(t).Events()
	if len(evs) != 5 {
		t.Fatalf("want 5 events, got %d", len(evs))
	}
	byName := map[string]Event{}
	for _, e := range evs {
		byName[e.Name] = e
	}
	if byName["gpt-4o-mini"].Parent != byName["turn 1"].ID || byName["turn 1"].Parent != byName["demo"].ID {
		t.Fatal("parent links wrong")
	}
	if byName["chunk 0"].Depth != 1 || byName["chunk 0"].Status != StatusCancelled {
		t.Fatalf("child: %+v", byName["chunk 0"])
	}
	if byName["search"].Status != StatusError || byName["search"].Error.Kind != "invalid_pattern" {
		t.Fatal("error status lost")
	}
	if byName["gpt-4o-mini"].Attrs["api_key"] != Redacted {
		t.Fatal("api_key not redacted")
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Fatal("not sorted by seq")
		}
	}
}

func TestNilRecorderIsNoop(t *testing.T) {
	ctx, sp := Start(context.Background(), KindRun, "x")
	sp.Set("a", 1)
	sp.End(nil)
	if sp != nil || FromContext(ctx) != nil {
		t.Fatal("expected no-op")
	}
	var r *Recorder
	if r.Events() != nil || r.Dropped() != 0 {
		t.Fatal("nil recorder")
	}
}

func TestLimit(t *testing.T) {
	rec := NewRecorder(WithLimit(2))
	ctx := WithRecorder(context.Background(), rec)
	for range 5 {
		Emit(ctx, KindNote, "n", nil, nil)
	}
	if len(rec.Events()) != 2 || rec.Dropped() != 3 {
		t.Fatalf("events %d dropped %d", len(rec.Events()), rec.Dropped())
	}
}

// TestLimitAcrossChunks: the recorder keeps exactly the first limit
// events, in sequence order, whether the limit falls inside, at or past a
// chunk boundary (the growing chunks end at 8, 24, 56, …, 1016, then
// every chunkEvents).
func TestLimitAcrossChunks(t *testing.T) {
	grown := 2*chunkEvents - firstChunkEvents // events in the chunks that grow
	for _, limit := range []int{1, firstChunkEvents - 1, firstChunkEvents, firstChunkEvents + 1, 3 * firstChunkEvents,
		chunkEvents - 1, chunkEvents, chunkEvents + 1, grown - 1, grown, grown + 1, 3*chunkEvents + 7} {
		rec := NewRecorder(WithLimit(limit))
		ctx := WithRecorder(context.Background(), rec)
		for i := range limit + 5 {
			Emit(ctx, KindNote, fmt.Sprint(i), nil, nil)
		}
		evs := rec.Events()
		if len(evs) != limit || rec.Dropped() != 5 {
			t.Fatalf("limit %d: events %d dropped %d", limit, len(evs), rec.Dropped())
		}
		for i, ev := range evs {
			if ev.Name != fmt.Sprint(i) {
				t.Fatalf("limit %d: event %d is %q", limit, i, ev.Name)
			}
		}
	}
}

// TestChunksGrow: a recorder's first chunk holds firstChunkEvents and
// each next one twice the one before, up to chunkEvents, never past what
// the limit leaves room for; every chunk but the last is full. A child
// run that keeps a few events holds a few KiB (it held 1,024 events,
// ~224 KiB, from its first one).
func TestChunksGrow(t *testing.T) {
	for _, tc := range []struct {
		limit, events int
		caps          []int
	}{
		{DefaultLimit, 1, []int{4}},
		{DefaultLimit, 4, []int{4}},
		{DefaultLimit, 5, []int{4, 8}},
		{DefaultLimit, 3100, []int{4, 8, 16, 32, 64, 128, 256, 512, 1024, 1024, 1024}},
		{20, 30, []int{4, 8, 8}},
		{3, 9, []int{3}},
		{5, 9, []int{4, 1}},
	} {
		rec := NewRecorder(WithLimit(tc.limit))
		ctx := WithRecorder(context.Background(), rec)
		for range tc.events {
			Emit(ctx, KindNote, "n", nil, nil)
		}
		var caps []int
		for i, c := range rec.chunks {
			caps = append(caps, cap(c))
			if i < len(rec.chunks)-1 && len(c) != cap(c) {
				t.Fatalf("limit %d, %d events: chunk %d of %d holds %d of %d", tc.limit, tc.events, i, len(rec.chunks), len(c), cap(c))
			}
		}
		if fmt.Sprint(caps) != fmt.Sprint(tc.caps) {
			t.Errorf("limit %d, %d events: chunk capacities %v, want %v", tc.limit, tc.events, caps, tc.caps)
		}
		if want := min(tc.events, tc.limit); len(rec.Events()) != want || rec.Dropped() != tc.events-want {
			t.Errorf("limit %d, %d events: kept %d, dropped %d", tc.limit, tc.events, len(rec.Events()), rec.Dropped())
		}
	}
}

func TestExportRoundTrip(t *testing.T) {
	evs := sample(t).Events()
	dir := t.TempDir()
	for _, name := range []string{"t.json", "t.jsonl"} {
		p := filepath.Join(dir, name)
		if err := WriteFile(p, "demo", evs, 0); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(p)
		if strings.Contains(string(raw), "sk-secret") {
			t.Fatal("secret leaked into export")
		}
		if name == "t.json" {
			var env map[string]any
			if err := json.Unmarshal(raw, &env); err != nil || env["schema"] != Schema || env["payload"] == nil || env["generated_at"] == nil || env["name"] != "demo" {
				t.Fatalf("bad envelope: %v", err)
			}
		} else if n := strings.Count(strings.TrimSpace(string(raw)), "\n") + 1; n != len(evs) {
			t.Fatalf("jsonl lines %d", n)
		}
		f, _ := os.Open(p)
		back, err := Read(f)
		f.Close()
		if err != nil || len(back) != len(evs) || back[2].Name != evs[2].Name {
			t.Fatalf("%s: round trip %v", name, err)
		}
	}
	if _, err := Read(strings.NewReader("{not json\n")); fault.KindOf(err) != KindMalformedTrace {
		t.Fatalf("want malformed_trace, got %v", err)
	}
}

func TestTreeGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTree(&buf, sample(t).Events()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tree.golden")
	if *update {
		os.WriteFile(golden, buf.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if buf.String() != string(want) {
		t.Fatalf("tree mismatch:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestIsSecretKey(t *testing.T) {
	for k, want := range map[string]bool{"Authorization": true, "api_key": true, "x_token": true, "prompt_tokens": false, "tokens": false, "model": false, "client_secret": true} {
		if IsSecretKey(k) != want {
			t.Errorf("%s: want %v", k, want)
		}
	}
}

func TestRedactValueRawJSON(t *testing.T) {
	got := RedactValue(json.RawMessage(`{"token":"t","a":["Bearer abcdefgh",1]}`))
	m, ok := got.(map[string]any)
	if !ok || m["token"] != Redacted || m["a"].([]any)[0] != Redacted || m["a"].([]any)[1] != float64(1) {
		t.Fatalf("RedactValue = %#v", got)
	}
	if RedactValue(json.RawMessage(`{bad`)) != Redacted {
		t.Fatal("undecodable raw JSON must be redacted whole")
	}
}
