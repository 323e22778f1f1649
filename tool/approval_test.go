package tool

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// process is one process of a run: a fresh authority store (approve_diff)
// and its own Journal on the shared file.
func process(t *testing.T, path, root string, run *Run, log *[]string, mu *sync.Mutex) (*Runtime, *effect.Journal) {
	t.Helper()
	rt := identityRuntime(t, path, root, log, mu)
	rt = NewRuntime(rt.reg, Config{Journal: rt.journal, Root: root, Run: run})
	return rt, rt.journal
}

// TestResumeAppliesRecordedDecisions: a pending operation is persisted; a
// decision recorded in the journal (another process) is applied when the
// run is resumed: an approval runs exactly that call once, a denial ends
// it with approval_denied; changed arguments, another place in the run
// and another root need their own approval.
func TestResumeAppliesRecordedDecisions(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	path := filepath.Join(t.TempDir(), "effects.db")
	run := NewRun()
	rt, j := process(t, path, "/ws/a", run, &log, &mu)

	pend := func(rt *Runtime, v string) Result {
		t.Helper()
		res, err := rt.Invoke(ctx, putCall(v))
		if err != nil || res.Status != StatusApprovalRequired || res.Pending == nil {
			t.Fatalf("%s: %+v %v", v, res, err)
		}
		return res
	}
	p1, p2 := pend(rt, "v1"), pend(rt, "v2")
	if again := pend(rt, "v1"); again.ApprovalID != p1.ApprovalID {
		t.Fatalf("one operation, one record: %s and %s", p1.ApprovalID, again.ApprovalID)
	}
	as, err := j.Approvals(ctx, run.ID())
	if err != nil || len(as) != 2 || as[0].ID != p1.ApprovalID || as[1].ID != p2.ApprovalID ||
		as[0].Tool != "put" || string(as[0].Args) != `{"v":"v1"}` || as[0].Fingerprint != p1.Fingerprint || as[0].State != effect.ApprovalPending {
		t.Fatalf("persisted: %+v %v", as, err)
	}

	// Another process decides.
	_, j2 := process(t, path, "/ws/a", run, &log, &mu)
	if _, err := j2.Decide(ctx, run.ID(), p1.ApprovalID, effect.Approve, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := j2.Decide(ctx, run.ID(), p2.ApprovalID, effect.Deny, "wrong value"); err != nil {
		t.Fatal(err)
	}

	// Not resumed (the live runtime of the run): nothing changes.
	if res := pend(rt, "v1"); res.ApprovalID != p1.ApprovalID || len(log) != 0 {
		t.Fatalf("a decision applied outside a resumed run: %+v %v", res, log)
	}

	// The resumed run, in a new process.
	rt3, _ := process(t, path, "/ws/a", ResumeRun(run.ID()), &log, &mu)
	res, err := rt3.Invoke(ctx, putCall("v1"))
	if err != nil || res.Status != StatusOK || res.Replayed || res.Trace.Authorization != AuthApproved || res.Trace.ApprovalID != p1.ApprovalID {
		t.Fatalf("approved call: %+v %v", res, err)
	}
	res, err = rt3.Invoke(ctx, putCall("v2"))
	if err != nil || res.Status != StatusError || fault.KindOf(res.Error) != authority.KindApprovalDenied ||
		res.Error.Detail["reason"] != "wrong value" || res.Trace.Authorization != AuthDenied {
		t.Fatalf("denied call: %+v %v", res, err)
	}
	// Changed arguments and the next occurrence of the approved operation
	// need new approvals, with ids the run has not used.
	p3 := pend(rt3, "v3")
	p4 := pend(rt3, "v1")
	if slices.Contains([]string{p1.ApprovalID, p2.ApprovalID}, p3.ApprovalID) || p3.ApprovalID == p4.ApprovalID {
		t.Fatalf("new ids %s %s reuse the run's", p3.ApprovalID, p4.ApprovalID)
	}
	if !slices.Equal(log, []string{`/ws/a:{"v":"v1"}`}) {
		t.Fatalf("executions: %v", log)
	}

	// Resumed again: the approved call replays, the denied one stays
	// denied; the same run against another root is another operation.
	rt4, _ := process(t, path, "/ws/a", ResumeRun(run.ID()), &log, &mu)
	if res, _ := rt4.Invoke(ctx, putCall("v1")); res.Status != StatusOK || !res.Replayed {
		t.Fatalf("approved call resumed again: %+v", res)
	}
	if res, _ := rt4.Invoke(ctx, putCall("v2")); fault.KindOf(res.Error) != authority.KindApprovalDenied {
		t.Fatalf("denied call resumed again: %+v", res)
	}
	rtB, _ := process(t, path, "/ws/b", ResumeRun(run.ID()), &log, &mu)
	pend(rtB, "v1")
	if !slices.Equal(log, []string{`/ws/a:{"v":"v1"}`}) {
		t.Fatalf("executions: %v", log)
	}
}

// A resumed run that pends an operation again before anyone decided gives
// it a new id; the older record of the same call is superseded.
func TestResumePendsAgainUnderNewID(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	path := filepath.Join(t.TempDir(), "effects.db")
	run := NewRun()
	rt, j := process(t, path, "/ws/a", run, &log, &mu)
	first, _ := rt.Invoke(ctx, putCall("v1"))
	rt2, _ := process(t, path, "/ws/a", ResumeRun(run.ID()), &log, &mu)
	second, _ := rt2.Invoke(ctx, putCall("v1"))
	if first.Status != StatusApprovalRequired || second.Status != StatusApprovalRequired || first.ApprovalID == second.ApprovalID {
		t.Fatalf("%+v / %+v", first, second)
	}
	as, err := j.Approvals(ctx, run.ID())
	if err != nil || len(as) != 2 || as[0].State != effect.ApprovalSuperseded || as[1].ID != second.ApprovalID || as[1].State != effect.ApprovalPending {
		t.Fatalf("approvals: %+v %v", as, err)
	}
	if _, err := j.Decide(ctx, run.ID(), second.ApprovalID, effect.Approve, ""); err != nil {
		t.Fatal(err)
	}
	rt3, _ := process(t, path, "/ws/a", ResumeRun(run.ID()), &log, &mu)
	if res, _ := rt3.Invoke(ctx, putCall("v1")); res.Status != StatusOK || len(log) != 1 {
		t.Fatalf("%+v %v", res, log)
	}
}
