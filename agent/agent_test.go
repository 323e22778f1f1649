package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newRT(t *testing.T, opts Options) *Runtime {
	t.Helper()
	if opts.RootCapabilities.Len() == 0 {
		opts.RootCapabilities = capability.MustSet("context:search", "context:peek", "tool:fs_read")
	}
	rt, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rt.Close)
	return rt
}

func spawn(t *testing.T, rt *Runtime, parent ID, caps ...string) ID {
	t.Helper()
	id, err := rt.Spawn(parent, Spec{Name: "test"}, capability.MustSet(caps...))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func status(t *testing.T, rt *Runtime, id ID) Info {
	t.Helper()
	in, err := rt.Status(id)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func hasEvent(evs []Event, typ EventType) int {
	n := 0
	for _, e := range evs {
		if e.Type == typ {
			n++
		}
	}
	return n
}

func TestOptionsValidation(t *testing.T) {
	for name, o := range map[string]Options{
		"negative agents": {MaxAgents: -1},
		"negative send":   {SendTimeout: -1},
		"bad tier":        {RootAuthority: "yolo"},
	} {
		if _, err := New(o); fault.KindOf(err) != KindInvalidOptions {
			t.Errorf("%s: want invalid_agent_options, got %v", name, err)
		}
	}
}

func TestSpawnNarrowsCapabilitiesAndAuthority(t *testing.T) {
	rt := newRT(t, Options{RootAuthority: authority.AllowSession})
	root := spawn(t, rt, "", "context:search", "tool:fs_read")
	if in := status(t, rt, root); in.Authority != authority.AllowSession || in.AuthorityContext != rt.AgentAuthorityContext(root) {
		t.Fatalf("root inherits the runtime tier: %+v", in)
	}
	child := spawn(t, rt, root, "context:search")
	if got := status(t, rt, child).Capabilities.Strings(); len(got) != 1 || got[0] != "context:search" {
		t.Fatalf("child caps %v", got)
	}
	cases := []struct {
		name   string
		parent ID
		spec   Spec
		caps   capability.Set
		kind   fault.Kind
	}{
		{"capability widening", child, Spec{Name: "x"}, capability.MustSet("tool:fs_read"), capability.KindDenied},
		{"root beyond runtime", "", Spec{Name: "x"}, capability.MustSet("network:any"), capability.KindDenied},
		{"authority widening", root, Spec{Name: "x", Authority: authority.Dangerous}, capability.Set{}, KindAuthorityWideningDenied},
		{"unknown parent", "nope", Spec{Name: "x"}, capability.Set{}, KindUnknownAgent},
		{"bad spec", root, Spec{Name: "", Mode: "x"}, capability.Set{}, KindInvalidSpec},
		{"bad metadata", root, Spec{Name: "x", Metadata: json.RawMessage(`[1]`)}, capability.Set{}, KindInvalidSpec},
	}
	for _, c := range cases {
		held, _ := rt.Len()
		if _, err := rt.Spawn(c.parent, c.spec, c.caps); fault.KindOf(err) != c.kind {
			t.Errorf("%s: want %s, got %v", c.name, c.kind, err)
		}
		if after, _ := rt.Len(); after != held {
			t.Errorf("%s: a failed spawn created an agent", c.name)
		}
	}
	// Narrowing the tier is allowed.
	n, err := rt.Spawn(root, Spec{Name: "narrow", Authority: authority.ApproveDiff}, capability.Set{})
	if err != nil || status(t, rt, n).Authority != authority.ApproveDiff {
		t.Fatalf("narrowing refused: %v", err)
	}
	if got := status(t, rt, root).Children; len(got) != 2 {
		t.Fatalf("children %v", got)
	}
}

func TestAgentLimit(t *testing.T) {
	rt := newRT(t, Options{MaxAgents: 2})
	a := spawn(t, rt, "")
	spawn(t, rt, a)
	_, err := rt.Spawn(a, Spec{Name: "third"}, capability.Set{})
	if fault.KindOf(err) != KindAgentLimitReached {
		t.Fatalf("want agent_limit_reached, got %v", err)
	}
	if held, live := rt.Len(); held != 2 || live != 2 {
		t.Fatalf("held %d live %d", held, live)
	}
	// A terminal agent releases its live slot.
	if err := rt.Send(context.Background(), a, Message{Type: MsgComplete, Value: json.RawMessage(`1`)}); err != nil {
		t.Fatal(err)
	}
	if pr, _ := rt.HandleNext(context.Background(), a, 0); pr.Reply.Kind != ReplyCompleted {
		t.Fatalf("%+v", pr)
	}
	spawn(t, rt, "")
}

func TestLogicalAgentsHoldNoWorkers(t *testing.T) {
	rt := newRT(t, Options{})
	for range 20 {
		spawn(t, rt, "")
	}
	if st := rt.Pool().Status(); st.Running != 0 || st.Workers != DefaultWorkers {
		t.Fatalf("idle agents occupy workers: %+v", st)
	}
}

func TestMailboxBackpressure(t *testing.T) {
	rt := newRT(t, Options{MailboxSize: 1})
	a := spawn(t, rt, "")
	ctx := context.Background()
	cp := Message{Type: MsgCheckpoint, RunID: rt.ID(), Label: "one"}
	if err := rt.Send(ctx, a, cp); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := rt.Send(ctx, a, cp)
	if fault.KindOf(err) != KindMailboxFull || time.Since(start) > time.Second {
		t.Fatalf("want prompt mailbox_full, got %v", err)
	}
	if hasEvent(rt.Trace(), EventMailboxBackpressure) != 1 {
		t.Fatal("no mailbox_backpressure event")
	}
	if pr, err := rt.HandleNext(ctx, a, 0); err != nil || pr.Status != HandledProcessed || pr.Reply.Kind != ReplyCheckpoint {
		t.Fatalf("%+v %v", pr, err)
	}
	if err := rt.Send(ctx, a, cp); err != nil {
		t.Fatalf("HandleNext did not free space: %v", err)
	}
	// With a send timeout, Send waits, then still fails.
	rt2 := newRT(t, Options{MailboxSize: 1, SendTimeout: 20 * time.Millisecond})
	b := spawn(t, rt2, "")
	_ = rt2.Send(ctx, b, Message{Type: MsgCheckpoint, RunID: rt2.ID(), Label: "x"})
	start = time.Now()
	if err := rt2.Send(ctx, b, Message{Type: MsgCheckpoint, RunID: rt2.ID(), Label: "x"}); fault.KindOf(err) != KindMailboxFull || time.Since(start) < 15*time.Millisecond {
		t.Fatalf("send timeout not honoured: %v", err)
	}
}

func TestHandleNextProtocol(t *testing.T) {
	rt := newRT(t, Options{Handler: func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		return json.RawMessage(`"hello"`), nil
	}})
	a := spawn(t, rt, "")
	ctx := context.Background()
	if pr, _ := rt.HandleNext(ctx, a, 0); pr.Status != HandledNothing {
		t.Fatalf("empty mailbox: %+v", pr)
	}
	msgs := []struct {
		msg  Message
		kind ReplyKind
	}{
		{Message{Type: "bogus"}, ReplyRejected},
		{Message{Type: MsgRequest, RunID: "other", CallID: "c", Work: &Work{Type: "x"}}, ReplyRejected},
		{Message{Type: MsgResult, CallID: "unknown"}, ReplyRejected},
		{Message{Type: MsgCheckpoint, RunID: rt.ID(), Label: "l1"}, ReplyCheckpoint},
	}
	for _, m := range msgs {
		_ = rt.Send(ctx, a, m.msg)
		pr, _ := rt.HandleNext(ctx, a, 0)
		if pr.Reply == nil || pr.Reply.Kind != m.kind {
			t.Errorf("%s: want %s, got %+v", m.msg.Type, m.kind, pr.Reply)
		}
	}
	_ = rt.Send(ctx, a, Message{Type: MsgRequest, RunID: rt.ID(), CallID: "c1", Work: &Work{Type: "echo"}})
	if pr, _ := rt.HandleNext(ctx, a, 0); pr.Status != HandledDispatched {
		t.Fatalf("want dispatched, got %+v", pr)
	}
	pr, _ := rt.HandleNext(ctx, a, 2*time.Second)
	if pr.Status != HandledProcessed || pr.Reply.Kind != ReplyResult || string(pr.Reply.Value) != `"hello"` {
		t.Fatalf("the worker result did not come back through the mailbox: %+v", pr)
	}
	in := status(t, rt, a)
	if len(in.Pending) != 0 || string(in.LastResult.Value) != `"hello"` || in.Checkpoints[0] != "l1" || in.Processed != 6 {
		t.Fatalf("%+v", in)
	}
	// Duplicate call ids are rejected while pending.
	block := make(chan struct{})
	rt2 := newRT(t, Options{Handler: func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		<-block
		return json.RawMessage(`1`), nil
	}})
	b := spawn(t, rt2, "")
	req := Message{Type: MsgRequest, RunID: rt2.ID(), CallID: "dup", Work: &Work{Type: "x"}}
	_ = rt2.Send(ctx, b, req)
	_ = rt2.Send(ctx, b, req)
	rt2.HandleNext(ctx, b, 0)
	if pr, _ := rt2.HandleNext(ctx, b, 0); pr.Reply.Kind != ReplyRejected || pr.Reply.Reason != "duplicate_call" {
		t.Fatalf("duplicate call: %+v", pr.Reply)
	}
	close(block)
	rt2.HandleNext(ctx, b, 2*time.Second)
}

func TestNoWorkerHandler(t *testing.T) {
	rt := newRT(t, Options{})
	a := spawn(t, rt, "")
	_ = rt.Send(context.Background(), a, Message{Type: MsgRequest, RunID: rt.ID(), CallID: "c", Work: &Work{Type: "x"}})
	pr, _ := rt.HandleNext(context.Background(), a, 0)
	if pr.Reply.Kind != ReplyFailed || fault.KindOf(pr.Reply.Error) != KindNoWorkerHandler || status(t, rt, a).Status != StatusFailed {
		t.Fatalf("%+v", pr.Reply)
	}
}

func TestChildFailureReachesParent(t *testing.T) {
	rt := newRT(t, Options{Handler: func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		if w.Type == "panic" {
			panic("boom")
		}
		return nil, errors.New("crash")
	}})
	ctx := context.Background()
	parent := spawn(t, rt, "")
	for _, typ := range []string{"fail", "panic"} {
		child := spawn(t, rt, parent)
		_ = rt.Send(ctx, child, Message{Type: MsgRequest, RunID: rt.ID(), CallID: "c", Work: &Work{Type: typ}})
		rt.HandleNext(ctx, child, 0)
		pr, _ := rt.HandleNext(ctx, child, 2*time.Second)
		want := KindWorkerFailed
		if typ == "panic" {
			want = KindWorkerPanic
		}
		if pr.Reply.Kind != ReplyFailed || fault.KindOf(pr.Reply.Error) != want || status(t, rt, child).Status != StatusFailed {
			t.Fatalf("%s: %+v", typ, pr.Reply)
		}
		pp, _ := rt.HandleNext(ctx, parent, 0)
		if pp.Reply == nil || pp.Reply.Kind != ReplyChildResult || pp.Reply.Child != child || fault.KindOf(pp.Reply.Error) != want {
			t.Fatalf("%s: the parent did not observe the failure: %+v", typ, pp)
		}
	}
	if hasEvent(rt.Trace(), EventChildFailure) != 2 {
		t.Fatal("want two child_failure events")
	}
}

func TestChildResultReachesParent(t *testing.T) {
	rt := newRT(t, Options{})
	ctx := context.Background()
	parent := spawn(t, rt, "")
	child := spawn(t, rt, parent)
	v, err := rt.SupervisedCall(ctx, child, Work{Type: "x"}, func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		return json.RawMessage(`{"evidence":1}`), nil
	}, time.Second)
	if err != nil || string(v) != `{"evidence":1}` {
		t.Fatalf("%s %v", v, err)
	}
	if in := status(t, rt, child); string(in.LastResult.Value) != `{"evidence":1}` {
		t.Fatalf("%+v", in)
	}
	pp, _ := rt.HandleNext(ctx, parent, 0)
	if pp.Reply.Kind != ReplyChildResult || string(pp.Reply.Value) != `{"evidence":1}` || pp.Reply.Child != child {
		t.Fatalf("%+v", pp.Reply)
	}
	if hasEvent(rt.Trace(), EventChildResult) != 1 {
		t.Fatal("want exactly one child_result event")
	}
	if in := status(t, rt, parent); in.LastResult.Kind != ReplyChildResult {
		t.Fatalf("%+v", in.LastResult)
	}
}

func TestChildResultBackpressure(t *testing.T) {
	rt := newRT(t, Options{MailboxSize: 1})
	ctx := context.Background()
	parent := spawn(t, rt, "")
	child := spawn(t, rt, parent)
	_ = rt.Send(ctx, parent, Message{Type: MsgCheckpoint, RunID: rt.ID(), Label: "fill"})
	_, err := rt.SupervisedCall(ctx, child, Work{Type: "x"}, func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		return json.RawMessage(`1`), nil
	}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tr := rt.Trace()
	if hasEvent(tr, EventChildResultBackpressure) != 1 || hasEvent(tr, EventChildResult) != 0 {
		t.Fatalf("backpressure must not be reported as delivery: %+v", tr)
	}
	if pp, _ := rt.HandleNext(ctx, parent, 0); pp.Reply.Kind != ReplyCheckpoint {
		t.Fatal("the parent's mailbox holds something else")
	}
	if pp, _ := rt.HandleNext(ctx, parent, 0); pp.Status != HandledNothing {
		t.Fatal("a child_result was delivered despite backpressure")
	}
}

func TestWorkerResultBackpressure(t *testing.T) {
	rt := newRT(t, Options{MailboxSize: 1})
	ctx := context.Background()
	release := make(chan struct{})
	rt.opts.Handler = func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		<-release
		return json.RawMessage(`1`), nil
	}
	a := spawn(t, rt, "")
	_ = rt.Send(ctx, a, Message{Type: MsgRequest, RunID: rt.ID(), CallID: "c", Work: &Work{Type: "x"}})
	rt.HandleNext(ctx, a, 0)
	_ = rt.Send(ctx, a, Message{Type: MsgCheckpoint, RunID: rt.ID(), Label: "fill"})
	close(release)
	// The worker fails the agent asynchronously: wait for it (a minute
	// guards against a hang only; 2 s was short on a loaded machine).
	deadline := time.Now().Add(time.Minute)
	for status(t, rt, a).Status == StatusActive && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if in := status(t, rt, a); in.Status != StatusFailed || in.Error.Kind != KindWorkerResultBackpressure {
		t.Fatalf("%+v", in)
	}
}

func TestWorkerPoolSaturation(t *testing.T) {
	block := make(chan struct{})
	rt := newRT(t, Options{Workers: 1, WorkerBacklog: 1, Handler: func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		select {
		case <-block:
		case <-ctx.Done():
		}
		return json.RawMessage(`1`), nil
	}})
	ctx := context.Background()
	var ids []ID
	for i := range 3 {
		a := spawn(t, rt, "")
		ids = append(ids, a)
		_ = rt.Send(ctx, a, Message{Type: MsgRequest, RunID: rt.ID(), CallID: fmt.Sprint(i), Work: &Work{Type: "x"}})
		pr, _ := rt.HandleNext(ctx, a, 0)
		if i < 2 && pr.Status != HandledDispatched {
			t.Fatalf("%d: %+v", i, pr)
		}
		if i == 2 && (pr.Reply.Kind != ReplyFailed || fault.KindOf(pr.Reply.Error) != KindWorkerPoolSaturated) {
			t.Fatalf("want worker_pool_saturated, got %+v", pr.Reply)
		}
		if i == 2 && !errors.Is(pr.Reply.Error, tool.KindBackpressure) {
			t.Fatalf("a saturated pool must carry the pool's backpressure: %v", pr.Reply.Error)
		}
	}
	if status(t, rt, ids[2]).Status != StatusFailed {
		t.Fatal("the agent did not fail")
	}
	close(block)
	for _, a := range ids[:2] {
		rt.HandleNext(ctx, a, 2*time.Second)
	}
}

func TestCancelCascadesToChildWork(t *testing.T) {
	rt := newRT(t, Options{})
	parent := spawn(t, rt, "", "tool:fs_read")
	child := spawn(t, rt, parent)
	grandchild := spawn(t, rt, child)
	started := make(chan struct{})
	stopped := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := rt.SupervisedCall(context.Background(), child, Work{Type: "slow"}, func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
			close(started)
			<-ctx.Done()
			close(stopped)
			return nil, ctx.Err()
		}, 0)
		done <- err
	}()
	<-started
	// A pending approval owned by the child is cancelled too.
	if _, err := rt.Authority().Authorize(authority.Operation{Context: status(t, rt, child).AuthorityContext, Tool: "w", Effect: "write", Capability: "tool:w", Args: map[string]any{}},
		func(ctx context.Context) (any, error) { return nil, nil }, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := rt.Cancel(parent, "test_cancel"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(2 * time.Second):
		t.Fatal("the child's work was not cancelled")
	}
	err := <-done
	if fault.KindOf(err) != fault.KindCancelled || time.Since(start) > time.Second {
		t.Fatalf("want prompt cancelled, got %v", err)
	}
	for _, id := range []ID{parent, child, grandchild} {
		if in := status(t, rt, id); in.Status != StatusCancelled || in.Reason != "test_cancel" {
			t.Errorf("%s: %+v", id, in)
		}
	}
	if recs := rt.Authority().List(status(t, rt, child).AuthorityContext); len(recs) != 1 || recs[0].State != authority.StateDenied {
		t.Fatalf("the pending approval was not cancelled: %+v", recs)
	}
	// Requests to a cancelled agent are rejected.
	_, err = rt.SupervisedCall(context.Background(), child, Work{Type: "x"}, func(ctx context.Context, id ID, w Work) (json.RawMessage, error) { return nil, nil }, 0)
	if fault.KindOf(err) != KindAgentInactive {
		t.Fatalf("%v", err)
	}
}

func TestCancelMessage(t *testing.T) {
	rt := newRT(t, Options{})
	a := spawn(t, rt, "")
	c := spawn(t, rt, a)
	_ = rt.Send(context.Background(), a, Message{Type: MsgCancel, RunID: rt.ID(), Reason: "stop"})
	pr, _ := rt.HandleNext(context.Background(), a, 0)
	if pr.Reply.Kind != ReplyCancelled || status(t, rt, c).Status != StatusCancelled {
		t.Fatalf("%+v", pr.Reply)
	}
}

func TestSupervisedCallTimeoutAndCallerCancel(t *testing.T) {
	rt := newRT(t, Options{})
	parent := spawn(t, rt, "")
	slow := func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	child := spawn(t, rt, parent)
	_, err := rt.SupervisedCall(context.Background(), child, Work{Type: "x"}, slow, 20*time.Millisecond)
	if fault.KindOf(err) != fault.KindTimeout || status(t, rt, child).Status != StatusFailed {
		t.Fatalf("want timeout, got %v", err)
	}
	if pp, _ := rt.HandleNext(context.Background(), parent, 0); pp.Reply == nil || fault.KindOf(pp.Reply.Error) != fault.KindTimeout {
		t.Fatalf("the parent did not learn of the timeout: %+v", pp)
	}
	child2 := spawn(t, rt, parent)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = rt.SupervisedCall(ctx, child2, Work{Type: "x"}, slow, 0)
	if fault.KindOf(err) != fault.KindTimeout || !errors.Is(err, context.DeadlineExceeded) || status(t, rt, child2).Status != StatusCancelled {
		t.Fatalf("caller deadline: %v", err)
	}
}

func TestTraceIsBounded(t *testing.T) {
	rt := newRT(t, Options{TraceLimit: 5})
	a := spawn(t, rt, "")
	for range 10 {
		_ = rt.Send(context.Background(), a, Message{Type: MsgCheckpoint, RunID: rt.ID(), Label: "x"})
		rt.HandleNext(context.Background(), a, 0)
	}
	tr := rt.Trace()
	if len(tr) != 5 || tr[4].Sequence != tr[0].Sequence+4 || tr[0].Sequence < 10 {
		t.Fatalf("%+v", tr)
	}
	if got := rt.TraceOf(a, 2); len(got) != 2 {
		t.Fatalf("%+v", got)
	}
}

func TestRetainForgetsOldTerminalAgents(t *testing.T) {
	rt := newRT(t, Options{Retain: 2})
	var ids []ID
	for range 4 {
		a := spawn(t, rt, "")
		ids = append(ids, a)
		_, _ = rt.Cancel(a, "done")
	}
	if held, _ := rt.Len(); held != 2 {
		t.Fatalf("held %d", held)
	}
	if _, err := rt.Status(ids[0]); fault.KindOf(err) != KindUnknownAgent {
		t.Fatal("the oldest terminal agent was kept")
	}
}

func TestConcurrentSupervisedCalls(t *testing.T) {
	rt := newRT(t, Options{MaxAgents: 200, Workers: 4, WorkerBacklog: 200, MailboxSize: 256})
	parent := spawn(t, rt, "")
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Go(func() {
			child, err := rt.Spawn(parent, Spec{Name: "c"}, capability.Set{})
			if err != nil {
				errs <- err
				return
			}
			v, err := rt.SupervisedCall(context.Background(), child, Work{Type: "n"}, func(ctx context.Context, id ID, w Work) (json.RawMessage, error) {
				return json.RawMessage(fmt.Sprint(i)), nil
			}, 5*time.Second)
			if err != nil || string(v) != fmt.Sprint(i) {
				errs <- fmt.Errorf("%d: %s %v", i, v, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := 0
	for {
		pr, _ := rt.HandleNext(context.Background(), parent, 0)
		if pr.Status == HandledNothing {
			break
		}
		n++
	}
	if n != 100 {
		t.Fatalf("parent received %d child results", n)
	}
}
