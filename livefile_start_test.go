package rlm

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// A run's live trace file holds the spans in flight: when the first model
// call ends, the run and its turn, still going, are in the file as
// started; the final file holds them ended, once each.
func TestLiveTraceFileHoldsSpansInFlight(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var calls atomic.Int64
	var mid []trace.Event
	var midErr error
	s, err := Open(context.Background(), Spec{Context: []string{"testdata/app.log"}, Cache: CacheSpec{Off: true}, Trace: path}, scripted(`{"answer":"ok"}`, &calls),
		WithObserver(func(ev trace.Event) {
			if ev.Kind == trace.KindModelCall && mid == nil && midErr == nil {
				mid, midErr = trace.ReadFile(path)
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Run(context.Background(), "q"); err != nil {
		t.Fatal(err)
	}
	if midErr != nil {
		t.Fatal(midErr)
	}
	status := map[trace.Kind]trace.Status{}
	for _, ev := range mid {
		if _, ok := status[ev.Kind]; !ok {
			status[ev.Kind] = ev.Status
		}
	}
	if status[trace.KindRun] != trace.StatusStarted || status[trace.KindTurn] != trace.StatusStarted {
		t.Fatalf("mid-run the live file holds %v, want the run and its turn started", status)
	}
	final, err := trace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, ev := range final {
		if ev.Status == trace.StatusStarted || ids[ev.ID] {
			t.Fatalf("final file: %+v", ev)
		}
		ids[ev.ID] = true
	}
}
