package agent

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// writeOp is an effectful operation in the authority context of agent id.
func writeOp(t *testing.T, rt *Runtime, id ID, arg string) authority.Operation {
	t.Helper()
	return authority.Operation{Context: status(t, rt, id).AuthorityContext, Tool: "w", Effect: authority.EffectWrite, Capability: "tool:w", Args: map[string]any{"v": arg}}
}

// An agent that ends, however it ends, leaves no pending approval behind:
// nobody waits for its operations any more, so none stays pending and
// approving one later runs nothing.
func TestEndedAgentLeavesNoPendingApproval(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, rt *Runtime, id ID)
		want Status
	}{
		{"completed", func(t *testing.T, rt *Runtime, id ID) {
			if err := rt.Send(context.Background(), id, Message{Type: MsgComplete}); err != nil {
				t.Fatal(err)
			}
			if h, err := rt.HandleNext(context.Background(), id, 0); err != nil || h.Reply.Kind != ReplyCompleted {
				t.Fatalf("%+v %v", h, err)
			}
		}, StatusCompleted},
		{"failed", func(t *testing.T, rt *Runtime, id ID) {
			_, err := rt.SupervisedCall(context.Background(), id, Work{Type: "x"}, func(ctx context.Context, _ ID, _ Work) (json.RawMessage, error) {
				return nil, errors.New("boom")
			}, 0)
			if fault.KindOf(err) != KindWorkerFailed {
				t.Fatalf("%v", err)
			}
		}, StatusFailed},
		{"cancelled", func(t *testing.T, rt *Runtime, id ID) {
			if _, err := rt.Cancel(id, "stop"); err != nil {
				t.Fatal(err)
			}
		}, StatusCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := newRT(t, Options{})
			id := spawn(t, rt, "")
			var runs atomic.Int32
			d, err := rt.Authority().Authorize(writeOp(t, rt, id, "a"), func(ctx context.Context) (any, error) { return runs.Add(1), nil }, nil)
			if err != nil || d.Action != authority.ActionPending {
				t.Fatalf("%+v %v", d, err)
			}
			tc.end(t, rt, id)
			if st := status(t, rt, id).Status; st != tc.want {
				t.Fatalf("status %s, want %s", st, tc.want)
			}
			for _, r := range rt.Authority().List(status(t, rt, id).AuthorityContext) {
				if !r.State.Terminal() {
					t.Errorf("record %s of the ended agent is %s", r.ID, r.State)
				}
			}
			if _, err := rt.Authority().Approve(d.Record.ID, nil); fault.KindOf(err) != authority.KindApprovalNotPending {
				t.Fatalf("approving the ended agent's operation: %v", err)
			}
			res, err := rt.Authority().Await(context.Background(), d.Record.ID)
			if err != nil || !res.State.Terminal() || res.State == authority.StateResolved || runs.Load() != 0 {
				t.Fatalf("%+v %v, ran %d times", res, err, runs.Load())
			}
		})
	}
}

// Work still running when its agent is cancelled (a tool call past its
// context check) cannot leave a pending approval behind: the ended
// agent's context refuses new effectful operations.
func TestLateOperationOfEndedAgentIsRefused(t *testing.T) {
	type outcome struct {
		d   authority.Decision
		err error
	}
	got := make(chan outcome, 1)
	started := make(chan struct{})
	var rt *Runtime
	rt = newRT(t, Options{Handler: func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		op := authority.Operation{Context: rt.AgentAuthorityContext(id), Tool: "w", Effect: authority.EffectWrite, Capability: "tool:w", Args: map[string]any{}}
		d, err := rt.Authority().Authorize(op, func(ctx context.Context) (any, error) { return nil, nil }, nil)
		got <- outcome{d, err}
		return nil, ctx.Err()
	}})
	id := spawn(t, rt, "")
	if err := rt.Send(context.Background(), id, Message{Type: MsgRequest, RunID: rt.ID(), CallID: "c1", Work: &Work{Type: "x"}}); err != nil {
		t.Fatal(err)
	}
	if h, err := rt.HandleNext(context.Background(), id, 0); err != nil || h.Status != HandledDispatched {
		t.Fatalf("%+v %v", h, err)
	}
	<-started
	if _, err := rt.Cancel(id, "stop"); err != nil {
		t.Fatal(err)
	}
	o := <-got
	if fault.KindOf(o.err) != authority.KindDenied {
		t.Fatalf("late operation of a cancelled agent: %+v %v", o.d, o.err)
	}
	for _, r := range rt.Authority().List(rt.AgentAuthorityContext(id)) {
		if !r.State.Terminal() {
			t.Fatalf("record %s of the cancelled agent is %s", r.ID, r.State)
		}
	}
}

// A forgotten agent (past Retain) takes its approval records with it: the
// authority store shared with the runtime does not keep up to 64 records
// (with their arguments) of every agent that ever ran.
func TestForgottenAgentLeavesNoApprovalRecords(t *testing.T) {
	rt := newRT(t, Options{Retain: 1})
	var ids []ID
	for i := range 3 {
		id := spawn(t, rt, "")
		ids = append(ids, id)
		d, err := rt.Authority().Authorize(writeOp(t, rt, id, string(rune('a'+i))), func(ctx context.Context) (any, error) { return nil, nil }, nil)
		if err != nil || d.Action != authority.ActionPending {
			t.Fatalf("%+v %v", d, err)
		}
		if _, err := rt.Cancel(id, "done"); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range ids[:2] {
		if _, err := rt.Status(id); fault.KindOf(err) != KindUnknownAgent {
			t.Fatalf("%s was kept: %v", id, err)
		}
		if recs := rt.Authority().List(rt.AgentAuthorityContext(id)); len(recs) != 0 {
			t.Errorf("forgotten agent %s still has %d approval records", id, len(recs))
		}
	}
	if recs := rt.Authority().List(rt.AgentAuthorityContext(ids[2])); len(recs) != 1 {
		t.Errorf("the retained agent has %d approval records, want 1", len(recs))
	}
}
