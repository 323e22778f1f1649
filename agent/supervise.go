package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// Cancel cancels agent id and, first, its children recursively: each
// becomes cancelled with reason, its pending approvals in the authority
// store are denied or cancelled, and its in-flight work sees its context
// cancelled. Cancelling a terminal agent still cascades to its children.
func (rt *Runtime) Cancel(id ID, reason string) (Reply, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.agents[id] == nil {
		return Reply{}, unknown(id)
	}
	rt.cancelLocked(id, reason)
	return Reply{Kind: ReplyCancelled, Reason: reason}, nil
}

func (rt *Runtime) cancelLocked(id ID, reason string) {
	a := rt.agents[id]
	if a == nil {
		return
	}
	for _, c := range a.children {
		rt.cancelLocked(c, reason)
	}
	// Indexed: finishing a descendant may forget another, whose own
	// descendants are then appended here.
	for i := 0; i < len(a.adopted); i++ {
		rt.cancelLocked(a.adopted[i], reason)
	}
	if rt.finishLocked(a, StatusCancelled, reason) {
		a.reason = reason
		rt.event(Event{Type: EventCancel, Agent: id, Reason: reason})
	}
}

// SupervisedCall admits one unit of work into agent id and runs the
// trusted handler h on the runtime's worker pool. The outcome returns
// through the agent's mailbox, so the agent's last result is set and its
// parent receives a child_result message. timeout (when positive) is a
// wall-time ceiling: past it the agent fails with Kind timeout and the
// work is cancelled. If the agent is cancelled (for example through its
// parent) the call fails with Kind cancelled; if ctx ends, the agent is
// cancelled and the call returns ctx's error wrapped as Kind cancelled or
// timeout.
//
// SupervisedCall handles the agent's mailbox itself; it assumes nobody else
// handles that agent's messages while it runs.
func (rt *Runtime) SupervisedCall(ctx context.Context, id ID, w Work, h Handler, timeout time.Duration) (json.RawMessage, error) {
	if h == nil {
		return nil, agentErr(KindNoWorkerHandler, "a supervised call needs a handler")
	}
	rt.mu.Lock()
	a := rt.agents[id]
	if a == nil {
		rt.mu.Unlock()
		return nil, unknown(id)
	}
	if a.status.Terminal() {
		rt.mu.Unlock()
		return nil, agentErr(KindAgentInactive, "the agent is not active").With("agent", string(id)).With("status", string(a.status))
	}
	rt.calls++
	callID := fmt.Sprintf("c%d", rt.calls)
	a.pending[callID] = &call{handler: h, ctx: ctx}
	rt.mu.Unlock()

	if err := rt.send(ctx, a, Message{Type: MsgRequest, RunID: rt.id, CallID: callID, Work: &w}); err != nil {
		rt.mu.Lock()
		delete(a.pending, callID)
		rt.mu.Unlock()
		return nil, err
	}
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	callerEnded := func() error {
		_, _ = rt.Cancel(id, "caller_cancelled")
		return fault.Wrap(ctx.Err(), PhaseAgent, fault.KindOf(fault.FromContext(PhaseAgent, ctx.Err())), "the caller's context ended")
	}
	for {
		// The caller's end wins over a result its cancellation produced
		// (a worker that saw the cancelled context): the agent is
		// cancelled, never failed, whichever the runtime notices first.
		if ctx.Err() != nil {
			return nil, callerEnded()
		}
		if msg, ok := a.mailbox.tryPop(); ok {
			reply, _ := rt.handleOne(a, msg)
			if reply.CallID != callID {
				continue
			}
			switch reply.Kind {
			case ReplyResult:
				return reply.Value, nil
			case ReplyFailed:
				return nil, reply.Error
			}
			continue
		}
		select {
		case <-a.mailbox.ready:
		case <-deadline:
			fe := agentErr(fault.KindTimeout, "the supervised call exceeded its time limit").
				With("call_id", callID).With("timeout_ms", timeout.Milliseconds())
			rt.mu.Lock()
			rt.failLocked(a, fe)
			rt.mu.Unlock()
			return nil, rt.endedErr(a, fe)
		case <-ctx.Done():
			return nil, callerEnded()
		case <-a.end:
			return nil, rt.endedErr(a, nil)
		}
	}
}

// handleOne processes msg (already dequeued) under the agent's handle lock.
func (rt *Runtime) handleOne(a *agentState, msg Message) (Reply, bool) {
	a.handleMu.Lock()
	defer a.handleMu.Unlock()
	return rt.process(a, msg)
}

// endedErr describes why a ended: its failure, or cancellation.
func (rt *Runtime) endedErr(a *agentState, fallback *fault.Error) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	switch {
	case a.status == StatusCancelled:
		return agentErr(fault.KindCancelled, "the agent was cancelled").With("agent", string(a.id)).With("reason", a.reason)
	case a.err != nil:
		return a.err
	case fallback != nil:
		return fallback
	}
	return agentErr(KindAgentInactive, "the agent ended").With("agent", string(a.id)).With("status", string(a.status))
}
