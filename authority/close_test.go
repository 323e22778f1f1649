package authority

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Close ends a context whose owner is gone: its pending record is denied
// (approving it runs nothing), and a later effectful operation, whatever
// the tier, neither pends nor runs but is refused with authority_denied.
// Reads still execute, and Set or Child give the context a new owner.
func TestCloseEndsOwnerContext(t *testing.T) {
	for _, tier := range []Tier{ApproveDiff, AllowOnce, AllowSession, Dangerous} {
		t.Run(string(tier), func(t *testing.T) {
			s := NewStore()
			n, cont := counter()
			d, err := s.Authorize(op(`{"a":1}`), cont, nil)
			if err != nil || d.Action != ActionPending {
				t.Fatalf("%+v %v", d, err)
			}
			s.Set("session:s", tier)
			if got := s.Close("session:s", "agent_completed"); got != 1 {
				t.Fatalf("Close changed %d records, want 1", got)
			}
			if r, _ := s.Get(d.Record.ID); r.State != StateDenied {
				t.Fatalf("%+v", r)
			}
			if _, err := s.Approve(d.Record.ID, nil); !errors.Is(err, KindApprovalNotPending) {
				t.Fatalf("approve after close: %v", err)
			}
			late, err := s.Authorize(op(`{"b":2}`), cont, nil)
			if !errors.Is(err, KindDenied) {
				t.Fatalf("late operation: %+v %v", late, err)
			}
			for _, r := range s.List("session:s") {
				if !r.State.Terminal() {
					t.Fatalf("record %s is %s after close", r.ID, r.State)
				}
			}
			if n.Load() != 0 {
				t.Fatalf("ran %d times", n.Load())
			}
			read := op(`{}`)
			read.Effect = EffectRead
			if d, err := s.Authorize(read, nil, nil); err != nil || d.Action != ActionExecute {
				t.Fatalf("read after close: %+v %v", d, err)
			}
			s.Clear("session:s", "forgotten")
			if _, err := s.Authorize(op(`{"c":3}`), cont, nil); !errors.Is(err, KindDenied) {
				t.Fatalf("Clear reopened the context: %v", err)
			}
			if err := s.Child("root", "session:s", ApproveDiff); err != nil {
				t.Fatal(err)
			}
			if d, err := s.Authorize(op(`{"c":3}`), cont, nil); err != nil || d.Action != ActionPending {
				t.Fatalf("after Child: %+v %v", d, err)
			}
			s.Close("session:s", "again")
			if err := s.Set("session:s", AllowSession); err != nil {
				t.Fatal(err)
			}
			if d, err := s.Authorize(op(`{"d":4}`), cont, nil); err != nil || d.Action != ActionExecute {
				t.Fatalf("after Set: %+v %v", d, err)
			}
		})
	}
}

// Clear forgets the records of its context, a running one when it ends:
// a context that is gone keeps nothing in the store.
func TestClearForgetsRecords(t *testing.T) {
	s := NewStore()
	_, cont := counter()
	pending, _ := s.Authorize(op(`{"a":1}`), cont, nil)
	started, release := make(chan struct{}), make(chan struct{})
	running, _ := s.Authorize(op(`{"b":2}`), func(ctx context.Context) (any, error) {
		close(started)
		<-release
		return nil, nil
	}, nil)
	if _, err := s.Approve(running.Record.ID, nil); err != nil {
		t.Fatal(err)
	}
	<-started
	s.Clear("session:s", "gone")
	// finish reads the clock under the store mutex: the signal says the
	// running operation is ending, and locking the mutex waits for it.
	ended := make(chan struct{})
	s.mu.Lock()
	s.now = func() time.Time { close(ended); return time.Now() }
	s.mu.Unlock()
	close(release)
	<-ended
	for _, id := range []string{pending.Record.ID, running.Record.ID} {
		if _, err := s.Get(id); !errors.Is(err, KindApprovalNotFound) {
			t.Errorf("%s after Clear: %v", id, err)
		}
	}
	// The running operation ended after Clear and is not kept either.
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) != 0 || len(s.terminal["session:s"]) != 0 {
		t.Fatalf("records kept after Clear: %d entries, terminal %v", len(s.entries), s.terminal["session:s"])
	}
}
