package agent

import (
	"slices"

	"github.com/rlm-go/rlm/fault"
)

// EventType names an agent trace event.
type EventType string

// Trace event types.
const (
	EventRuntimeCreated          EventType = "runtime_created"
	EventSpawn                   EventType = "spawn"
	EventMailboxEnqueued         EventType = "mailbox_enqueued"
	EventMailboxBackpressure     EventType = "mailbox_backpressure"
	EventRequestDispatched       EventType = "request_dispatched"
	EventWorkerBackpressure      EventType = "worker_backpressure"
	EventWorkerCompleted         EventType = "worker_completed"
	EventWorkerResultEnqueued    EventType = "worker_result_enqueued"
	EventWorkerResultDropped     EventType = "worker_result_dropped"
	EventMessageProcessed        EventType = "message_processed"
	EventAgentFailed             EventType = "agent_failed"
	EventAgentCompleted          EventType = "agent_completed"
	EventChildFailure            EventType = "child_failure"
	EventChildResult             EventType = "child_result"
	EventChildResultBackpressure EventType = "child_result_backpressure"
	EventCancel                  EventType = "cancel"
)

// Event is one entry of a runtime's bounded trace. Sequence numbers are
// assigned in order and never reused, so a gap at the start shows how many
// older events were dropped.
type Event struct {
	Sequence uint64       `json:"sequence"`
	Type     EventType    `json:"type"`
	Agent    ID           `json:"agent,omitempty"`
	Parent   ID           `json:"parent,omitempty"`
	Child    ID           `json:"child,omitempty"`
	CallID   string       `json:"call_id,omitempty"`
	Message  MessageType  `json:"message,omitempty"`
	Reply    ReplyKind    `json:"reply,omitempty"`
	Reason   string       `json:"reason,omitempty"`
	Error    *fault.Error `json:"error,omitempty"`
}

// traceRing keeps the newest limit events. The runtime's trace is a
// status window over a long-lived supervisor: what matters is what happened
// last, and events are flat (no event refers to an earlier one), so the
// oldest are dropped. trace.Recorder keeps the first events instead,
// because a run's spans form a tree whose root and early spans the later
// ones hang from; see docs/trace.md.
type traceRing struct {
	limit int
	seq   uint64
	buf   []Event
	start int
}

func (r *traceRing) add(ev Event) {
	r.seq++
	ev.Sequence = r.seq
	if len(r.buf) < r.limit {
		r.buf = append(r.buf, ev)
		return
	}
	r.buf[r.start] = ev
	r.start = (r.start + 1) % r.limit
}

func (r *traceRing) events(keep func(Event) bool, max int) []Event {
	if max <= 0 || max > len(r.buf) {
		max = len(r.buf)
	}
	// Newest first, up to max kept events, then reversed: the result is
	// sized by what it returns, not by the whole ring.
	var out []Event
	if keep == nil {
		out = make([]Event, 0, max)
	}
	for i := len(r.buf) - 1; i >= 0 && len(out) < max; i-- {
		ev := r.buf[(r.start+i)%len(r.buf)]
		if keep == nil || keep(ev) {
			out = append(out, ev)
		}
	}
	slices.Reverse(out)
	return orEmpty(out)
}

// event records ev; rt.mu must be held.
func (rt *Runtime) event(ev Event) { rt.tr.add(ev) }

// record records ev under rt.mu.
func (rt *Runtime) record(ev Event) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.event(ev)
}

// Trace returns the runtime's retained events, oldest first.
func (rt *Runtime) Trace() []Event {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.tr.events(nil, 0)
}

// TraceOf returns the newest retained events about agent id (as agent,
// parent or child), oldest first, at most max of them (all when max <= 0).
func (rt *Runtime) TraceOf(id ID, max int) []Event {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.tr.events(func(ev Event) bool { return ev.Agent == id || ev.Parent == id || ev.Child == id }, max)
}
