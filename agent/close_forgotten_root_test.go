package agent

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/authority"
)

// Close must cancel every agent. A terminal root forgotten (Retain) while
// Close cancels an earlier root leaves its live child un-cancelled: still
// active, its live slot held and its authority context never closed.
func TestCloseCancelsChildOfRootForgottenDuringClose(t *testing.T) {
	rt := newRT(t, Options{Retain: 1})
	x := spawn(t, rt, "") // a1: live root, cancelled first by Close
	z := spawn(t, rt, "") // a2: root that completes
	d := spawn(t, rt, z)  // a3: z's live child
	if err := rt.Send(context.Background(), z, Message{Type: MsgComplete}); err != nil {
		t.Fatal(err)
	}
	if h, err := rt.HandleNext(context.Background(), z, 0); err != nil || h.Reply.Kind != ReplyCompleted {
		t.Fatalf("%+v %v", h, err)
	}
	_ = x
	rt.Close()
	in, err := rt.Status(d)
	if err != nil {
		t.Fatal(err)
	}
	_, live := rt.Len()
	op := authority.Operation{Context: in.AuthorityContext, Tool: "w", Effect: authority.EffectWrite, Capability: "tool:w", Args: map[string]any{"v": 1}}
	dec, aerr := rt.Authority().Authorize(op, func(context.Context) (any, error) { return nil, nil }, nil)
	if in.Status != StatusCancelled || live != 0 || aerr == nil {
		t.Fatalf("after Close: child %s status %s (reason %q), live agents %d, effectful op in its context: action %q err %v",
			d, in.Status, in.Reason, live, dec.Action, aerr)
	}
}
