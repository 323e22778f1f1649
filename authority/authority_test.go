package authority

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func op(args string) Operation {
	var a any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		panic(err)
	}
	return Operation{Context: "session:s", Tool: "fs_write", Effect: "write", Capability: "tool:fs_write", Args: a, Details: map[string]any{"path": "x"}}
}

func TestTiers(t *testing.T) {
	for _, tier := range Tiers {
		if got, err := ParseTier(string(tier)); err != nil || got != tier {
			t.Fatalf("%s: %v", tier, err)
		}
	}
	if _, err := ParseTier("yolo"); fault.KindOf(err) != KindInvalidTier {
		t.Fatal("yolo accepted")
	}
	if d, _ := ParseTier(""); d != ApproveDiff {
		t.Fatal("default tier")
	}
	cases := []struct {
		parent, child Tier
		kind          fault.Kind
	}{
		{Dangerous, AllowOnce, ""},
		{AllowOnce, AllowOnce, ""},
		{AllowOnce, Dangerous, capability.KindWideningDenied},
		{ApproveDiff, AllowSession, capability.KindWideningDenied},
		{ApproveDiff, "yolo", KindInvalidTier},
	}
	for _, c := range cases {
		if _, err := NarrowTier(c.parent, c.child); fault.KindOf(err) != c.kind {
			t.Errorf("%s→%s: %v", c.parent, c.child, err)
		}
	}
	s := NewStore()
	if s.Mode("fresh") != ApproveDiff {
		t.Fatal("unset context is not approve_diff")
	}
	if err := s.Set("a", "yolo"); fault.KindOf(err) != KindInvalidTier || s.Mode("a") != ApproveDiff {
		t.Fatal("yolo set")
	}
	s.Set("p", AllowOnce)
	if err := s.Child("p", "c", Dangerous); fault.KindOf(err) != capability.KindWideningDenied || s.Mode("c") != ApproveDiff {
		t.Fatal("child widened")
	}
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, _ := s.SetIfUnset("race", AllowSession); ok {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("SetIfUnset won %d times", wins.Load())
	}
}

func TestFingerprint(t *testing.T) {
	a, _ := op(`{"path":"x","content":"1"}`).Fingerprint()
	b, _ := op(`{"content":"1","path":"x"}`).Fingerprint()
	c, _ := op(`{"path":"x","content":"2"}`).Fingerprint()
	o := op(`{"path":"x","content":"1"}`)
	o.Correlation = Correlation{TraceID: "t", RunID: "r"}
	d, _ := o.Fingerprint()
	o.Context = "session:other"
	e, _ := o.Fingerprint()
	o = op(`{"path":"x","content":"1"}`)
	o.Details = map[string]any{"path": "y"}
	f, _ := o.Fingerprint()
	if a != b || a != d {
		t.Fatal("key order or correlation changed the fingerprint")
	}
	if a == c || a == e || a == f {
		t.Fatal("payload, context or details change kept the fingerprint")
	}
	if _, err := (Operation{Tool: "x"}).Fingerprint(); fault.KindOf(err) != KindInvalidOperation {
		t.Fatal("incomplete operation accepted")
	}
}

func counter() (*atomic.Int32, Continuation) {
	var n atomic.Int32
	return &n, func(ctx context.Context) (any, error) { return n.Add(1), nil }
}

func TestReadNeverPends(t *testing.T) {
	s := NewStore()
	o := op(`{}`)
	o.Effect = EffectRead
	d, err := s.Authorize(o, nil, nil)
	if err != nil || d.Action != ActionExecute || d.Permit != "read" || len(s.List("session:s")) != 0 {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestTierDecisions(t *testing.T) {
	for _, c := range []struct {
		tier   Tier
		action Action
	}{{ApproveDiff, ActionPending}, {AllowOnce, ActionExecute}, {AllowSession, ActionExecute}, {Dangerous, ActionExecute}} {
		s := NewStore()
		s.Set("session:s", c.tier)
		_, cont := counter()
		d, err := s.Authorize(op(`{}`), cont, nil)
		if err != nil || d.Action != c.action || d.Tier != c.tier {
			t.Errorf("%s: %+v %v", c.tier, d, err)
		}
	}
}

// TestCeilingCapsTier: an operation's ceiling caps its context's tier (the
// stricter wins), never widens it, keeps an allow_once context's grant
// when it makes the operation pend, and is not part of the fingerprint.
func TestCeilingCapsTier(t *testing.T) {
	for _, c := range []struct {
		tier, ceiling Tier
		action        Action
		decided       Tier
		after         Tier // the context's tier after the decision
	}{
		{Dangerous, ApproveDiff, ActionPending, ApproveDiff, Dangerous},
		{AllowSession, ApproveDiff, ActionPending, ApproveDiff, AllowSession},
		{AllowOnce, ApproveDiff, ActionPending, ApproveDiff, AllowOnce},
		{Dangerous, AllowSession, ActionExecute, AllowSession, Dangerous},
		{AllowOnce, AllowSession, ActionExecute, AllowOnce, ApproveDiff},
		{ApproveDiff, Dangerous, ActionPending, ApproveDiff, ApproveDiff},
		{AllowSession, Dangerous, ActionExecute, AllowSession, AllowSession},
		{AllowSession, "", ActionExecute, AllowSession, AllowSession},
	} {
		s := NewStore()
		s.Set("session:s", c.tier)
		_, cont := counter()
		o := op(`{}`)
		o.Ceiling = c.ceiling
		d, err := s.Authorize(o, cont, nil)
		if err != nil || d.Action != c.action || d.Tier != c.decided || s.Mode("session:s") != c.after {
			t.Errorf("%s capped by %q: %+v %v, context now %s", c.tier, c.ceiling, d, err, s.Mode("session:s"))
		}
	}
	o := op(`{}`)
	plain, _ := o.Fingerprint()
	o.Ceiling = ApproveDiff
	if capped, _ := o.Fingerprint(); capped != plain {
		t.Fatal("the ceiling changed the fingerprint")
	}
	for _, bad := range []Tier{AllowOnce, "yolo"} {
		o.Ceiling = bad
		_, cont := counter()
		if _, err := NewStore().Authorize(o, cont, nil); fault.KindOf(err) != KindInvalidTier {
			t.Errorf("ceiling %q: %v", bad, err)
		}
	}
	// A read operation ignores the ceiling.
	o.Ceiling, o.Effect = ApproveDiff, EffectRead
	if d, err := NewStore().Authorize(o, nil, nil); err != nil || d.Action != ActionExecute {
		t.Fatalf("read with a ceiling: %+v %v", d, err)
	}
}

func TestAllowOnceReplaysAndFallsBack(t *testing.T) {
	s := NewStore()
	s.Set("session:s", AllowOnce)
	_, cont := counter()
	d, _ := s.Authorize(op(`{"a":1}`), cont, nil)
	if d.Action != ActionExecute {
		t.Fatal(d)
	}
	if _, err := s.Authorize(op(`{"a":1}`), cont, nil); fault.KindOf(err) != KindAllowOnceInFlight {
		t.Fatalf("in-flight retry: %v", err)
	}
	s.CompleteOnce("session:s", d.Fingerprint, "outcome")
	r, _ := s.Authorize(op(`{"a":1}`), cont, nil)
	if r.Action != ActionReplay || r.Outcome != "outcome" {
		t.Fatalf("retry: %+v", r)
	}
	if s.Mode("session:s") != ApproveDiff {
		t.Fatal("allow_once not consumed")
	}
	if p, _ := s.Authorize(op(`{"a":2}`), cont, nil); p.Action != ActionPending {
		t.Fatalf("changed payload reused allow_once: %+v", p)
	}
	// AbortOnce restores the tier for an operation that never started.
	s.Set("session:t", AllowOnce)
	o := op(`{}`)
	o.Context = "session:t"
	d, _ = s.Authorize(o, cont, nil)
	s.AbortOnce("session:t", d.Fingerprint)
	if s.Mode("session:t") != AllowOnce {
		t.Fatal("abort did not restore allow_once")
	}
}

func TestConcurrentAllowOnceAtMostOnce(t *testing.T) {
	s := NewStore()
	s.Set("session:s", AllowOnce)
	n, cont := counter()
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := s.Authorize(op(`{"same":1}`), cont, nil)
			if err == nil && d.Action == ActionExecute {
				out, _ := cont(context.Background())
				s.CompleteOnce("session:s", d.Fingerprint, out)
			}
		}()
	}
	wg.Wait()
	if n.Load() != 1 {
		t.Fatalf("%d executions", n.Load())
	}
}

func TestApproveRunsOnce(t *testing.T) {
	s := NewStore()
	n, cont := counter()
	d, _ := s.Authorize(op(`{}`), cont, nil)
	if d.Action != ActionPending || d.Record.ID != "approval_1" || d.Record.State != StatePending {
		t.Fatalf("%+v", d)
	}
	if _, err := s.Approve(d.Record.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Approve(d.Record.ID, nil); fault.KindOf(err) != KindApprovalNotPending {
		t.Fatalf("second approve: %v", err)
	}
	res, err := s.Await(context.Background(), d.Record.ID)
	if err != nil || res.State != StateResolved || res.Outcome != int32(1) || n.Load() != 1 {
		t.Fatalf("%+v %v n=%d", res, err, n.Load())
	}
	if _, err := s.Approve("approval_99", nil); fault.KindOf(err) != KindApprovalNotFound {
		t.Fatal(err)
	}
}

func TestDenyEditCancel(t *testing.T) {
	s := NewStore()
	n, cont := counter()
	d, _ := s.Authorize(op(`{"v":1}`), cont, nil)
	rec, err := s.Deny(d.Record.ID, "no thanks")
	if err != nil || rec.State != StateDenied || rec.DenialReason != "no thanks" {
		t.Fatalf("%+v %v", rec, err)
	}
	res, _ := s.Await(context.Background(), d.Record.ID)
	if fault.KindOf(res.Err) != KindApprovalDenied || n.Load() != 0 {
		t.Fatal("deny ran something")
	}

	// Edit: new id and fingerprint, old id no longer approvable.
	editor := argsEditor(cont)
	d, _ = s.Authorize(op(`{"v":1}`), cont, editor)
	nr, err := s.Edit(d.Record.ID, json.RawMessage(`{"v":2}`))
	if err != nil || nr.ID == d.Record.ID || nr.Fingerprint == d.Record.Fingerprint || nr.EditedFrom != d.Record.ID {
		t.Fatalf("%+v %v", nr, err)
	}
	if _, err := s.Approve(d.Record.ID, nil); fault.KindOf(err) != KindApprovalNotPending {
		t.Fatalf("stale approve: %v", err)
	}
	if old, _ := s.Get(d.Record.ID); old.State != StateSuperseded || old.SupersededBy != nr.ID {
		t.Fatalf("%+v", old)
	}
	s.Approve(nr.ID, nil)
	if res, _ := s.Await(context.Background(), nr.ID); res.State != StateResolved || n.Load() != 1 {
		t.Fatal("edited op did not run once")
	}
	d, _ = s.Authorize(op(`{}`), cont, nil)
	if _, err := s.Edit(d.Record.ID, json.RawMessage(`{}`)); fault.KindOf(err) != KindEditNotSupported {
		t.Fatal(err)
	}

	// Owner cancellation denies pending records.
	if got := s.CancelOwner("session:s", "shutdown"); got != 1 {
		t.Fatalf("cancelled %d", got)
	}
	if r, _ := s.Get(d.Record.ID); r.State != StateDenied || r.DenialReason != "cancelled: shutdown" {
		t.Fatalf("%+v", r)
	}
}

// TestApproveCancelRace: approve and owner-cancel race; the operation runs
// at most once, and exactly when the record resolved rather than cancelled.
func TestApproveCancelRace(t *testing.T) {
	for i := range 24 {
		s := NewStore()
		n, cont := counter()
		d, _ := s.Authorize(op(fmt.Sprintf(`{"i":%d}`, i)), cont, nil)
		start := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(3)
		go func() { defer wg.Done(); <-start; s.Approve(d.Record.ID, nil) }()
		go func() { defer wg.Done(); <-start; s.Approve(d.Record.ID, nil) }()
		go func() { defer wg.Done(); <-start; s.CancelOwner("session:s", "race") }()
		close(start)
		wg.Wait()
		res, err := s.Await(context.Background(), d.Record.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch res.State {
		case StateResolved:
			if n.Load() != 1 {
				t.Fatalf("resolved with %d runs", n.Load())
			}
		case StateDenied, StateCancelled:
			if n.Load() != 0 {
				t.Fatalf("%s but ran %d", res.State, n.Load())
			}
		default:
			t.Fatalf("state %s", res.State)
		}
	}
}

// TestCancelBeforeClaim: a held scheduler keeps the approved operation
// queued; cancelling then releasing it runs nothing.
func TestCancelBeforeClaim(t *testing.T) {
	s := NewStore()
	n, cont := counter()
	d, _ := s.Authorize(op(`{}`), cont, nil)
	var queued func(context.Context)
	if _, err := s.Approve(d.Record.ID, func(fn func(context.Context)) error { queued = fn; return nil }); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.Get(d.Record.ID); r.State != StateScheduled {
		t.Fatalf("%+v", r)
	}
	s.CancelOwner("session:s", "stop")
	queued(context.Background())
	res, _ := s.Await(context.Background(), d.Record.ID)
	if res.State != StateCancelled || n.Load() != 0 || fault.KindOf(res.Err) != KindApprovalCancelled {
		t.Fatalf("%+v n=%d", res, n.Load())
	}
	// A failing scheduler leaves the record pending.
	d, _ = s.Authorize(op(`{"b":1}`), cont, nil)
	boom := errors.New("full")
	if _, err := s.Approve(d.Record.ID, func(func(context.Context)) error { return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if r, _ := s.Get(d.Record.ID); r.State != StatePending {
		t.Fatalf("%+v", r)
	}
}

func TestCancelWhileExecuting(t *testing.T) {
	s := NewStore()
	started := make(chan struct{})
	d, _ := s.Authorize(op(`{}`), func(ctx context.Context) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}, nil)
	s.Approve(d.Record.ID, nil)
	<-started
	s.CancelOwner("session:s", "stop")
	res, _ := s.Await(context.Background(), d.Record.ID)
	if res.State != StateCancelled || !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("%+v", res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	d, _ = s.Authorize(op(`{"x":1}`), func(context.Context) (any, error) { return nil, nil }, nil)
	if _, err := s.Await(ctx, d.Record.ID); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("await timeout: %v", err)
	}
	if r, _ := s.Get(d.Record.ID); r.State != StatePending {
		t.Fatal("await timeout changed the record")
	}
}

func TestHistoryBounded(t *testing.T) {
	s := NewStore()
	_, cont := counter()
	var ids []string
	for i := range 80 {
		d, _ := s.Authorize(op(fmt.Sprintf(`{"i":%d}`, i)), cont, nil)
		s.Deny(d.Record.ID, "no")
		ids = append(ids, d.Record.ID)
	}
	d, _ := s.Authorize(op(`{"active":true}`), cont, nil)
	if got := len(s.List("session:s")); got != HistoryLimit+1 {
		t.Fatalf("kept %d records", got)
	}
	if _, err := s.Get(ids[0]); fault.KindOf(err) != KindApprovalNotFound {
		t.Fatal("oldest not pruned")
	}
	if _, err := s.Approve(ids[0], nil); fault.KindOf(err) != KindApprovalNotFound {
		t.Fatal(err)
	}
	if r, _ := s.Get(d.Record.ID); r.State != StatePending {
		t.Fatal("active record pruned")
	}
}

func TestRecordsRedactSecrets(t *testing.T) {
	s := NewStore()
	_, cont := counter()
	d, _ := s.Authorize(op(`{"path":"p","api_key":"k","nested":{"Password":"pw","list":[{"token":"t"}]},"max_tokens":5}`), cont, nil)
	b, _ := json.Marshal(d.Record)
	for _, leak := range []string{`"k"`, `"pw"`, `"t"`} {
		if contains(b, leak) {
			t.Fatalf("secret %s leaked: %s", leak, b)
		}
	}
	if !contains(b, trace.Redacted) || !contains(b, `"max_tokens":5`) {
		t.Fatalf("redaction wrong: %s", b)
	}
	// The fingerprint is over the real arguments.
	fp, _ := op(`{"path":"p","api_key":"k","nested":{"Password":"pw","list":[{"token":"t"}]},"max_tokens":5}`).Fingerprint()
	if d.Record.Fingerprint != fp {
		t.Fatal("fingerprint over redacted args")
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }

// Issue 18 item 5: one operation has one pending record, however often it
// is asked for; a different operation, or the same one after its record
// ended, gets its own.
func TestApprovalsOnePendingRecordPerOperation(t *testing.T) {
	s := NewStore()
	n, cont := counter()
	first, _ := s.Authorize(op(`{"a":1}`), cont, nil)
	for range 9 {
		d, err := s.Authorize(op(`{"a":1}`), cont, nil)
		if err != nil || d.Action != ActionPending || d.Record.ID != first.Record.ID {
			t.Fatalf("repeat: %+v %v (want the record %s)", d, err, first.Record.ID)
		}
	}
	other, _ := s.Authorize(op(`{"a":2}`), cont, nil)
	elsewhere := op(`{"a":1}`)
	elsewhere.Context = "session:t"
	third, _ := s.Authorize(elsewhere, cont, nil)
	if other.Record.ID == first.Record.ID || third.Record.ID == first.Record.ID || other.Record.ID == third.Record.ID {
		t.Fatalf("distinct operations share a record: %s %s %s", first.Record.ID, other.Record.ID, third.Record.ID)
	}
	if got := len(s.List("session:s")); got != 2 {
		t.Fatalf("session:s has %d records, want 2", got)
	}
	if _, err := s.Approve(first.Record.ID, nil); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Await(context.Background(), first.Record.ID); err != nil || res.State != StateResolved || n.Load() != 1 {
		t.Fatalf("%+v %v n=%d", res, err, n.Load())
	}
	again, _ := s.Authorize(op(`{"a":1}`), cont, nil)
	if again.Action != ActionPending || again.Record.ID == first.Record.ID {
		t.Fatalf("after its record ended the operation must pend anew: %+v", again)
	}
	denied, _ := s.Deny(again.Record.ID, "no")
	if next, _ := s.Authorize(op(`{"a":1}`), cont, nil); next.Record.ID == denied.ID {
		t.Fatalf("a denied record was reused: %+v", next)
	}
}

// Approval records go through trace's redactor, so a credential under an
// innocent key is redacted as it is in a trace.
func TestRecordsRedactCredentialValues(t *testing.T) {
	s := NewStore()
	_, cont := counter()
	d, _ := s.Authorize(op(`{"path":"p","headers":{"X-Auth":"Bearer abcdef123456"},"note":"basic dXNlcjpwYXNz"}`), cont, nil)
	b, _ := json.Marshal(d.Record)
	for _, leak := range []string{"abcdef123456", "dXNlcjpwYXNz"} {
		if contains(b, leak) {
			t.Fatalf("credential %s leaked: %s", leak, b)
		}
	}
	if !contains(b, `"path":"p"`) {
		t.Fatalf("plain values must stay: %s", b)
	}
}

// A child of an allow_once context may not hold allow_once: the one grant
// would become two. A narrower tier is fine, and under allow_session a
// child may be given allow_once.
func TestChildDoesNotCopyAllowOnce(t *testing.T) {
	s := NewStore()
	s.Set("p", AllowOnce)
	if err := s.Child("p", "c1", AllowOnce); !errors.Is(err, capability.KindWideningDenied) {
		t.Fatalf("copy of the grant: %v", err)
	}
	if err := s.Child("p", "c2", ApproveDiff); err != nil || s.Mode("c2") != ApproveDiff {
		t.Fatalf("%v %s", err, s.Mode("c2"))
	}
	s.Set("q", AllowSession)
	if err := s.Child("q", "c3", AllowOnce); err != nil || s.Mode("c3") != AllowOnce {
		t.Fatalf("%v %s", err, s.Mode("c3"))
	}
}

// An edit that makes an operation identical to one already pending joins
// that record, as a second Authorize of it does: approving both used to
// run the operation twice.
func TestEditIntoPendingOperationJoinsIt(t *testing.T) {
	s := NewStore()
	n, cont := counter()
	editor := argsEditor(cont)
	first, _ := s.Authorize(op(`{"v":1}`), cont, editor)
	second, _ := s.Authorize(op(`{"v":2}`), cont, editor)
	nr, err := s.Edit(second.Record.ID, json.RawMessage(`{"v":1}`))
	if err != nil || nr.ID != first.Record.ID {
		t.Fatalf("edit into the pending operation: %+v %v, want record %s", nr, err, first.Record.ID)
	}
	if old, _ := s.Get(second.Record.ID); old.State != StateSuperseded || old.SupersededBy != first.Record.ID {
		t.Fatalf("edited record: %+v", old)
	}
	pending := 0
	for _, r := range s.List("session:s") {
		if r.State == StatePending {
			pending++
		}
	}
	if pending != 1 {
		t.Fatalf("%d pending records of one operation", pending)
	}
	s.Approve(first.Record.ID, nil)
	if res, _ := s.Await(context.Background(), first.Record.ID); res.State != StateResolved || n.Load() != 1 {
		t.Fatalf("the operation ran %d times", n.Load())
	}
}

// argsEditor is an Editor that replaces an operation's arguments with the
// edited JSON and keeps cont.
func argsEditor(cont Continuation) Editor {
	var editor Editor
	editor = func(edited json.RawMessage) (Operation, Continuation, Editor, error) {
		var a any
		if err := json.Unmarshal(edited, &a); err != nil {
			return Operation{}, nil, nil, err
		}
		o := op(`{}`)
		o.Args = a
		return o, cont, editor, nil
	}
	return editor
}
