package rlm

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// WithObserver sees what the trace keeps, without live attributes;
// WithLiveObserver sees the turn's reply as a live attribute too.
func TestObserversKeptAndLive(t *testing.T) {
	var mu sync.Mutex
	var kept, live []trace.Event
	var calls atomic.Int64
	s, err := Open(context.Background(), Spec{Context: []string{"testdata/app.log"}, Cache: CacheSpec{Off: true}}, scripted(`{"answer":"ok"}`, &calls),
		WithObserver(func(ev trace.Event) { mu.Lock(); kept = append(kept, ev); mu.Unlock() }),
		WithLiveObserver(func(ev trace.Event) { mu.Lock(); live = append(live, ev); mu.Unlock() }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Run(context.Background(), "q"); err != nil {
		t.Fatal(err)
	}
	reply := func(evs []trace.Event) bool {
		for _, ev := range evs {
			if ev.Kind == trace.KindTurn && ev.Live[trace.AttrReply] != nil {
				return true
			}
		}
		return false
	}
	if len(kept) == 0 || reply(kept) {
		t.Fatalf("kept observer: %d events, a reply among them: %v", len(kept), reply(kept))
	}
	if !reply(live) {
		t.Fatalf("live observer saw no turn reply in %d events", len(live))
	}
}
