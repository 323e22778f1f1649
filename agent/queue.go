package agent

import (
	"context"
	"sync"
	"time"
)

// mailbox is a bounded FIFO of messages whose memory follows its contents:
// an empty mailbox holds no message slots, whatever its capacity, so a
// runtime with many agents and large mailboxes costs what is queued, not
// agents × capacity (a buffered channel would allocate every slot at
// spawn). Waiters are woken through one-token channels; whoever takes a
// message or a free slot passes the token on when more remain.
type mailbox struct {
	mu       sync.Mutex
	q        []Message
	head     int
	capacity int
	ready    chan struct{} // a token when a message may be waiting
	room     chan struct{} // a token when a slot may be free
}

func newMailbox(capacity int) *mailbox {
	return &mailbox{capacity: capacity, ready: make(chan struct{}, 1), room: make(chan struct{}, 1)}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// tryPush enqueues msg unless the mailbox is full.
func (m *mailbox) tryPush(msg Message) bool {
	m.mu.Lock()
	n := len(m.q) - m.head
	if n >= m.capacity {
		m.mu.Unlock()
		return false
	}
	if m.head > 0 && len(m.q) == cap(m.q) {
		copy(m.q, m.q[m.head:])
		clear(m.q[n:])
		m.q, m.head = m.q[:n], 0
	}
	m.q = append(m.q, msg)
	more := n+1 < m.capacity
	m.mu.Unlock()
	signal(m.ready)
	if more {
		signal(m.room)
	}
	return true
}

// tryPop dequeues the oldest message, if any.
func (m *mailbox) tryPop() (Message, bool) {
	m.mu.Lock()
	if m.head == len(m.q) {
		m.mu.Unlock()
		return Message{}, false
	}
	msg := m.q[m.head]
	m.q[m.head] = Message{}
	m.head++
	if m.head == len(m.q) {
		m.q, m.head = m.q[:0], 0
		if cap(m.q) > 64 {
			m.q = nil // a drained burst gives its memory back
		}
	}
	more := m.head < len(m.q)
	m.mu.Unlock()
	signal(m.room)
	if more {
		signal(m.ready)
	}
	return msg, true
}

// push enqueues msg, waiting at most timeout (and not past ctx) for room.
func (m *mailbox) push(ctx context.Context, msg Message, timeout time.Duration) bool {
	if m.tryPush(msg) {
		return true
	}
	if timeout <= 0 {
		return false
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case <-m.room:
			if m.tryPush(msg) {
				return true
			}
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// pop dequeues a message, waiting at most wait (and not past ctx) for one.
// It reports ctx's error when ctx ended first.
func (m *mailbox) pop(ctx context.Context, wait time.Duration) (Message, bool, error) {
	if msg, ok := m.tryPop(); ok || wait <= 0 {
		return msg, ok, nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-m.ready:
			if msg, ok := m.tryPop(); ok {
				return msg, true, nil
			}
		case <-t.C:
			return Message{}, false, nil
		case <-ctx.Done():
			return Message{}, false, ctx.Err()
		}
	}
}

// len reports the number of queued messages.
func (m *mailbox) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.q) - m.head
}
