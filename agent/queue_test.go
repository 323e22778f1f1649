package agent

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestMailboxFIFOBoundedLazy(t *testing.T) {
	m := newMailbox(1_000_000)
	if cap(m.q) != 0 {
		t.Fatalf("an empty mailbox holds %d slots", cap(m.q))
	}
	small := newMailbox(3)
	for i := range 3 {
		if !small.tryPush(Message{CallID: fmt.Sprint(i)}) {
			t.Fatalf("push %d refused", i)
		}
	}
	if small.tryPush(Message{CallID: "x"}) {
		t.Fatal("a full mailbox accepted a message")
	}
	if small.push(context.Background(), Message{CallID: "x"}, time.Millisecond) {
		t.Fatal("a full mailbox accepted a message after waiting")
	}
	for i := range 3 {
		msg, ok := small.tryPop()
		if !ok || msg.CallID != fmt.Sprint(i) {
			t.Fatalf("pop %d = %+v %v", i, msg, ok)
		}
	}
	if _, ok := small.tryPop(); ok {
		t.Fatal("pop from an empty mailbox")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok, err := small.pop(ctx, time.Hour); ok || err == nil {
		t.Fatalf("pop on a cancelled context: ok=%v err=%v", ok, err)
	}
}

// TestMailboxConcurrent runs producers and consumers that wait for each
// other through the wake-up tokens: every message arrives exactly once.
// With one consumer, messages arrive in order per producer.
func TestMailboxConcurrent(t *testing.T) {
	for _, consumers := range []int{1, 3} {
		t.Run(fmt.Sprint(consumers), func(t *testing.T) { mailboxConcurrent(t, consumers) })
	}
}

func mailboxConcurrent(t *testing.T, consumers int) {
	const producers, each = 4, 500
	m := newMailbox(8)
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range each {
				if !m.push(context.Background(), Message{RunID: fmt.Sprint(p), CallID: fmt.Sprint(i)}, time.Hour) {
					t.Error("push failed")
					return
				}
			}
		})
	}
	var mu sync.Mutex
	next := map[string]int{}
	seen := map[string]bool{}
	got := 0
	var cw sync.WaitGroup
	for range consumers {
		cw.Go(func() {
			for {
				mu.Lock()
				if got == producers*each {
					mu.Unlock()
					return
				}
				mu.Unlock()
				msg, ok, _ := m.pop(context.Background(), 10*time.Millisecond)
				if !ok {
					continue
				}
				mu.Lock()
				if want := fmt.Sprint(next[msg.RunID]); consumers == 1 && msg.CallID != want {
					t.Errorf("producer %s: got %s, want %s", msg.RunID, msg.CallID, want)
				}
				if key := msg.RunID + "/" + msg.CallID; seen[key] {
					t.Errorf("%s delivered twice", key)
				} else {
					seen[key] = true
				}
				next[msg.RunID]++
				got++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	cw.Wait()
	if m.len() != 0 {
		t.Fatalf("%d left", m.len())
	}
}
