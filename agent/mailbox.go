package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// MessageType is the closed vocabulary of mailbox messages.
type MessageType string

// Message types.
const (
	// MsgRequest dispatches Work under CallID; RunID must be the runtime id.
	MsgRequest MessageType = "request"
	// MsgResult carries a worker's outcome for CallID: Value, or Error.
	MsgResult MessageType = "result"
	// MsgChildResult carries a child's result (Value) or failure (Error).
	MsgChildResult MessageType = "child_result"
	// MsgCancel cancels the agent (and its children) with Reason.
	MsgCancel MessageType = "cancel"
	// MsgCheckpoint records Label.
	MsgCheckpoint MessageType = "checkpoint"
	// MsgComplete completes the agent with Value.
	MsgComplete MessageType = "complete"
)

// Message is one closed, data-only mailbox entry.
type Message struct {
	Type   MessageType     `json:"type"`
	RunID  string          `json:"run_id,omitempty"`
	CallID string          `json:"call_id,omitempty"`
	Work   *Work           `json:"work,omitempty"`
	Child  ID              `json:"child,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"`
	Error  *fault.Error    `json:"error,omitempty"`
	Label  string          `json:"label,omitempty"`
	Reason string          `json:"reason,omitempty"`
}

// ReplyKind is what processing one message did.
type ReplyKind string

// Reply kinds.
const (
	ReplyDispatch    ReplyKind = "dispatch"
	ReplyResult      ReplyKind = "result"
	ReplyFailed      ReplyKind = "failed"
	ReplyChildResult ReplyKind = "child_result"
	ReplyCancelled   ReplyKind = "cancelled"
	ReplyCheckpoint  ReplyKind = "checkpoint"
	ReplyCompleted   ReplyKind = "completed"
	ReplyRejected    ReplyKind = "rejected"
)

// Reply is the outcome of processing one message.
type Reply struct {
	Kind   ReplyKind       `json:"kind"`
	CallID string          `json:"call_id,omitempty"`
	Child  ID              `json:"child,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"`
	Error  *fault.Error    `json:"error,omitempty"`
	Reason string          `json:"reason,omitempty"`
}

// HandledStatus reports what one HandleNext call did.
type HandledStatus string

// HandleNext statuses: no message, a request dispatched, a message processed.
const (
	HandledNothing    HandledStatus = "idle"
	HandledDispatched HandledStatus = "dispatched"
	HandledProcessed  HandledStatus = "processed"
)

// Handled is the outcome of one HandleNext call.
type Handled struct {
	Agent   ID            `json:"agent"`
	Status  HandledStatus `json:"status"`
	Message *Message      `json:"message,omitempty"`
	Reply   *Reply        `json:"reply,omitempty"`
}

// Send enqueues msg on agent id's mailbox, waiting at most the runtime's
// SendTimeout for room. A full mailbox fails with mailbox_full and a
// mailbox_backpressure event; Send never blocks longer than that (or past
// ctx).
func (rt *Runtime) Send(ctx context.Context, id ID, msg Message) error {
	rt.mu.Lock()
	a := rt.agents[id]
	rt.mu.Unlock()
	if a == nil {
		return unknown(id)
	}
	return rt.send(ctx, a, msg)
}

func (rt *Runtime) send(ctx context.Context, a *agentState, msg Message) error {
	if err := enqueue(ctx, a.mailbox, msg, rt.opts.SendTimeout); err != nil {
		rt.record(Event{Type: EventMailboxBackpressure, Agent: a.id, Message: msg.Type, CallID: msg.CallID, Child: msg.Child})
		if ctx.Err() != nil {
			return fault.FromContext(PhaseAgent, ctx.Err())
		}
		return err
	}
	rt.record(Event{Type: EventMailboxEnqueued, Agent: a.id, Message: msg.Type, CallID: msg.CallID, Child: msg.Child})
	return nil
}

func enqueue(ctx context.Context, mb *mailbox, msg Message, timeout time.Duration) error {
	if mb.push(ctx, msg, timeout) {
		return nil
	}
	return agentErr(KindMailboxFull, "the mailbox is full").With("queue_size", mb.capacity).With("timeout_ms", timeout.Milliseconds())
}

// HandleNext dequeues at most one message of agent id, waiting up to wait for
// one (zero: do not wait), and processes it. With no message it reports
// idle. A request is dispatched to the worker pool (status dispatched);
// every other message reports processed with its reply. A terminal agent
// still drains its mailbox; requests to it are rejected.
func (rt *Runtime) HandleNext(ctx context.Context, id ID, wait time.Duration) (Handled, error) {
	rt.mu.Lock()
	a := rt.agents[id]
	rt.mu.Unlock()
	if a == nil {
		return Handled{}, unknown(id)
	}
	a.handleMu.Lock()
	defer a.handleMu.Unlock()
	msg, ok, err := a.mailbox.pop(ctx, wait)
	if err != nil || !ok {
		return Handled{Agent: id, Status: HandledNothing}, fault.FromContext(PhaseAgent, err)
	}
	reply, dispatched := rt.process(a, msg)
	st := HandledProcessed
	if dispatched {
		st = HandledDispatched
	}
	return Handled{Agent: id, Status: st, Message: &msg, Reply: &reply}, nil
}

// process applies msg to a's state. It reports whether work was
// dispatched.
func (rt *Runtime) process(a *agentState, msg Message) (Reply, bool) {
	rt.mu.Lock()
	reply, sched := rt.applyLocked(a, msg)
	a.done++
	rt.event(Event{Type: EventMessageProcessed, Agent: a.id, Message: msg.Type, CallID: msg.CallID, Reply: reply.Kind})
	rt.mu.Unlock()
	if sched == nil {
		return reply, false
	}
	if err := rt.pool.Go(sched); err != nil {
		// The pool's own backpressure error is the cause, so one sentinel
		// (tool.KindBackpressure) identifies a full pool wherever it is.
		fe := fault.Wrap(err, PhaseAgent, KindWorkerPoolSaturated, "the worker pool is saturated").With("call_id", msg.CallID).
			With("workers", rt.pool.Status().Workers).With("backlog", rt.pool.Status().Backlog)
		rt.mu.Lock()
		rt.event(Event{Type: EventWorkerBackpressure, Agent: a.id, CallID: msg.CallID})
		rt.failLocked(a, fe)
		rt.mu.Unlock()
		return Reply{Kind: ReplyFailed, CallID: msg.CallID, Error: fe}, false
	}
	rt.record(Event{Type: EventRequestDispatched, Agent: a.id, CallID: msg.CallID})
	return reply, true
}

func rejected(reason string) Reply { return Reply{Kind: ReplyRejected, Reason: reason} }

// applyLocked is the state machine of one agent. It returns the work to
// schedule for a dispatched request.
func (rt *Runtime) applyLocked(a *agentState, msg Message) (Reply, func()) {
	switch msg.Type {
	case MsgRequest:
		if msg.RunID != rt.id || msg.CallID == "" || msg.Work == nil {
			return rejected("invalid_message"), nil
		}
		c, known := a.pending[msg.CallID]
		if a.status.Terminal() {
			return rejected("agent_not_active"), nil
		}
		if known && c.cancel != nil {
			return rejected("duplicate_call"), nil
		}
		if !known {
			c = &call{}
			a.pending[msg.CallID] = c
		}
		h := c.handler
		if h == nil {
			h = rt.opts.Handler
		}
		if h == nil {
			fe := agentErr(KindNoWorkerHandler, "the runtime has no worker handler").With("call_id", msg.CallID)
			rt.failLocked(a, fe)
			return Reply{Kind: ReplyFailed, CallID: msg.CallID, Error: fe}, nil
		}
		parent := a.ctx
		if c.ctx != nil {
			parent = c.ctx
		}
		wctx, cancelWork := context.WithCancel(parent)
		cancel := cancelWork
		if c.ctx != nil {
			// A supervised call's work also ends with the agent.
			stop := context.AfterFunc(a.ctx, cancelWork)
			cancel = func() { stop(); cancelWork() }
		}
		c.cancel = cancel
		work, callID := *msg.Work, msg.CallID
		return Reply{Kind: ReplyDispatch, CallID: callID}, func() { rt.runWorker(wctx, cancel, a, callID, h, work) }
	case MsgResult:
		c, ok := a.pending[msg.CallID]
		if !ok || a.status.Terminal() {
			return rejected("unknown_call"), nil
		}
		delete(a.pending, msg.CallID)
		if c.cancel != nil {
			c.cancel()
		}
		if msg.Error != nil {
			rt.failLocked(a, msg.Error)
			return Reply{Kind: ReplyFailed, CallID: msg.CallID, Error: msg.Error}, nil
		}
		r := Reply{Kind: ReplyResult, CallID: msg.CallID, Value: msg.Value}
		a.last = &r
		rt.superviseLocked(a, Message{Type: MsgChildResult, Child: a.id, Value: msg.Value})
		return r, nil
	case MsgChildResult:
		if msg.Child == "" {
			return rejected("invalid_message"), nil
		}
		r := Reply{Kind: ReplyChildResult, Child: msg.Child, Value: msg.Value, Error: msg.Error}
		a.last = &r
		return r, nil
	case MsgCancel:
		if msg.RunID != rt.id {
			return rejected("invalid_message"), nil
		}
		rt.cancelLocked(a.id, msg.Reason)
		return Reply{Kind: ReplyCancelled, Reason: msg.Reason}, nil
	case MsgCheckpoint:
		if msg.RunID != rt.id || msg.Label == "" {
			return rejected("invalid_message"), nil
		}
		if len(a.checks) < maxCheckpoints {
			a.checks = append(a.checks, msg.Label)
		}
		return Reply{Kind: ReplyCheckpoint, Reason: msg.Label}, nil
	case MsgComplete:
		if a.status.Terminal() {
			return rejected("agent_not_active"), nil
		}
		r := Reply{Kind: ReplyCompleted, Value: msg.Value}
		a.last = &r
		rt.finishLocked(a, StatusCompleted, "agent_completed")
		rt.event(Event{Type: EventAgentCompleted, Agent: a.id})
		return r, nil
	}
	return rejected("invalid_message"), nil
}

// runWorker runs h on a pool worker and returns its outcome through the
// agent's own mailbox.
func (rt *Runtime) runWorker(ctx context.Context, cancel context.CancelFunc, a *agentState, callID string, h Handler, w Work) {
	defer cancel()
	var (
		val json.RawMessage
		err error
	)
	if ctx.Err() == nil {
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = agentErr(KindWorkerPanic, "the worker handler panicked").With("panic", fmt.Sprint(p))
				}
			}()
			val, err = h(ctx, a.id, w)
		}()
	}
	if ctx.Err() != nil {
		err = fault.Wrap(ctx.Err(), PhaseAgent, fault.KindCancelled, "the worker was cancelled")
	}
	msg := Message{Type: MsgResult, CallID: callID, Value: val}
	if err != nil {
		fe := fault.As(err)
		if fe == nil || fe.Phase != PhaseAgent {
			fe = fault.Wrap(err, PhaseAgent, KindWorkerFailed, "the worker handler failed").With("call_id", callID)
		}
		msg.Value, msg.Error = nil, fe
	}
	rt.mu.Lock()
	rt.event(Event{Type: EventWorkerCompleted, Agent: a.id, CallID: callID, Error: msg.Error})
	terminal := a.status.Terminal()
	rt.mu.Unlock()
	if terminal {
		rt.record(Event{Type: EventWorkerResultDropped, Agent: a.id, CallID: callID, Reason: "agent_not_active"})
		return
	}
	if a.mailbox.tryPush(msg) {
		rt.record(Event{Type: EventWorkerResultEnqueued, Agent: a.id, CallID: callID})
	} else {
		fe := agentErr(KindWorkerResultBackpressure, "the agent's mailbox had no room for the worker result").
			With("call_id", callID).With("queue_size", a.mailbox.capacity)
		rt.mu.Lock()
		rt.event(Event{Type: EventMailboxBackpressure, Agent: a.id, CallID: callID, Message: MsgResult})
		rt.failLocked(a, fe)
		rt.mu.Unlock()
	}
}

// failLocked fails a with fe and tells its parent.
func (rt *Runtime) failLocked(a *agentState, fe *fault.Error) {
	if !rt.finishLocked(a, StatusFailed, "agent_failed") {
		return
	}
	a.err = fe
	rt.event(Event{Type: EventAgentFailed, Agent: a.id, Error: fe})
	rt.superviseLocked(a, Message{Type: MsgChildResult, Child: a.id, Error: fe})
}

// superviseLocked delivers a child's result or failure to its parent. A
// full parent mailbox is recorded as child_result_backpressure, never as
// delivered.
func (rt *Runtime) superviseLocked(child *agentState, msg Message) {
	if child.parent == "" {
		return
	}
	p := rt.agents[child.parent]
	if p == nil {
		rt.event(Event{Type: EventChildResultBackpressure, Agent: child.parent, Child: child.id, Reason: "parent_gone"})
		return
	}
	if p.mailbox.tryPush(msg) {
		typ := EventChildResult
		if msg.Error != nil {
			typ = EventChildFailure
		}
		rt.event(Event{Type: typ, Agent: p.id, Parent: p.id, Child: child.id, Error: msg.Error})
	} else {
		rt.event(Event{Type: EventChildResultBackpressure, Agent: p.id, Parent: p.id, Child: child.id,
			Error: agentErr(KindMailboxFull, "the parent's mailbox is full").With("queue_size", p.mailbox.capacity)})
	}
}
