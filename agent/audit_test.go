package agent

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// A completed agent that the retention bound forgot still links its
// parent to its live children: cancelling the parent reaches them.
func TestCancelReachesChildrenOfForgottenAgent(t *testing.T) {
	rt := newRT(t, Options{Retain: 1})
	parent := spawn(t, rt, "")
	child := spawn(t, rt, parent)
	grandchild := spawn(t, rt, child)
	if err := rt.Send(context.Background(), child, Message{Type: MsgComplete}); err != nil {
		t.Fatal(err)
	}
	if h, err := rt.HandleNext(context.Background(), child, 0); err != nil || h.Reply.Kind != ReplyCompleted {
		t.Fatalf("%+v %v", h, err)
	}
	// Another agent ends: the completed child is forgotten (Retain 1).
	other := spawn(t, rt, "")
	_, _ = rt.Cancel(other, "done")
	if _, err := rt.Status(child); err == nil {
		t.Fatal("the completed child was kept")
	}
	if _, err := rt.Cancel(parent, "host_cancelled_parent"); err != nil {
		t.Fatal(err)
	}
	// The cancelled grandchild may itself be forgotten now (Retain 1):
	// no agent is live, and the trace records its cancellation.
	if _, live := rt.Len(); live != 0 {
		t.Fatalf("%d agents still live after cancelling the root", live)
	}
	cancelled := false
	for _, ev := range rt.TraceOf(grandchild, 0) {
		cancelled = cancelled || (ev.Type == EventCancel && ev.Reason == "host_cancelled_parent")
	}
	if !cancelled {
		t.Fatalf("the grandchild was not cancelled with its ancestor: %+v", rt.TraceOf(grandchild, 0))
	}
}

// Two forgotten generations: the live great-grandchild is still reached.
func TestCancelReachesDescendantsThroughForgottenChain(t *testing.T) {
	rt := newRT(t, Options{Retain: 1})
	root := spawn(t, rt, "")
	c := spawn(t, rt, root)
	d := spawn(t, rt, c)
	e := spawn(t, rt, d)
	for _, id := range []ID{c, d} {
		_ = rt.Send(context.Background(), id, Message{Type: MsgComplete})
		if h, err := rt.HandleNext(context.Background(), id, 0); err != nil || h.Reply.Kind != ReplyCompleted {
			t.Fatalf("%+v %v", h, err)
		}
	}
	other := spawn(t, rt, "")
	_, _ = rt.Cancel(other, "done")
	if held, live := rt.Len(); held != 3 || live != 2 {
		t.Fatalf("held %d live %d", held, live)
	}
	_, _ = rt.Cancel(root, "stop")
	if _, live := rt.Len(); live != 0 {
		t.Fatalf("%d agents still live (%s not cancelled)", live, e)
	}
}

// TraceOf(id) holds the events naming id as agent, parent or child: the
// spawn of a child names the parent as its parent.
func TestTraceOfIncludesEventsNamingTheParent(t *testing.T) {
	rt := newRT(t, Options{})
	parent := spawn(t, rt, "")
	child := spawn(t, rt, parent)
	for _, ev := range rt.TraceOf(parent, 0) {
		if ev.Type == EventSpawn && ev.Agent == child && ev.Parent == parent {
			return
		}
	}
	t.Fatalf("the parent's trace lacks its child's spawn: %+v", rt.TraceOf(parent, 0))
}

// allow_once is a grant of one operation to one context: a child of an
// allow_once agent does not get a grant of its own (one grant would
// become two), by inheritance or by asking. Under allow_session a child
// may still be given allow_once.
func TestAllowOnceIsNotCopiedToChildren(t *testing.T) {
	rt := newRT(t, Options{RootAuthority: authority.AllowSession})
	once, err := rt.Spawn("", Spec{Name: "once", Authority: authority.AllowOnce}, capability.Set{})
	if err != nil {
		t.Fatalf("allow_once under allow_session: %v", err)
	}
	child := spawn(t, rt, once)
	if in := status(t, rt, child); in.Authority != authority.ApproveDiff || rt.auth.Mode(in.AuthorityContext) != authority.ApproveDiff {
		t.Fatalf("inherited tier %s (store %s), want approve_diff", in.Authority, rt.auth.Mode(in.AuthorityContext))
	}
	if _, err := rt.Spawn(once, Spec{Name: "x", Authority: authority.AllowOnce}, capability.Set{}); fault.KindOf(err) != KindAuthorityWideningDenied {
		t.Fatalf("asking for a copy of the grant: %v, want %s", err, KindAuthorityWideningDenied)
	}
}
