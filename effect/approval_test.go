package effect

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// prepared returns the ticket of a prepared call of run with args.
func prepared(t *testing.T, j *Journal, run, callID, args string) Ticket {
	t.Helper()
	r := req(args)
	r.RunID, r.RunCallID = run, callID
	d, err := j.Prepare(context.Background(), r)
	if err != nil || d.Action != ActionExecute {
		t.Fatalf("prepare: %+v %v", d, err)
	}
	return d.Ticket
}

func pendingApproval(id, args string) Approval {
	return Approval{ID: id, Fingerprint: "sha256:" + id, Context: "cli", Tool: "w", Effect: "write", Args: json.RawMessage(args),
		Details: json.RawMessage(`{"path":"f"}`)}
}

func TestApprovalPersistAndDecide(t *testing.T) {
	ctx := context.Background()
	j, path := openTemp(t)
	t1 := prepared(t, j, "run-1", "occ:1", `{"a":1}`)
	t2 := prepared(t, j, "run-1", "occ:1", `{"a":2}`)
	a1, err := j.RecordApproval(ctx, t1, pendingApproval("approval_1", `{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if a1.RunID != "run-1" || a1.CallID != t1.CallID || a1.RunCallID != "occ:1" || a1.State != ApprovalPending || a1.Tool != "w" ||
		string(a1.Args) != `{"a":1}` || string(a1.Details) != `{"path":"f"}` || a1.CreatedAt.IsZero() || a1.DecidedAt != nil {
		t.Fatalf("recorded %+v", a1)
	}
	if again, err := j.RecordApproval(ctx, t1, pendingApproval("approval_1", `{"a":1}`)); err != nil || !reflect.DeepEqual(again, a1) {
		t.Fatalf("recording again: %+v %v", again, err)
	}
	if _, err := j.RecordApproval(ctx, t2, pendingApproval("approval_10", `{"a":2}`)); err != nil {
		t.Fatal(err)
	}
	// A decision survives the process: decide from another Journal.
	j2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	as, err := j2.Approvals(ctx, "run-1")
	if err != nil || len(as) != 2 || as[0].ID != "approval_1" || as[1].ID != "approval_10" {
		t.Fatalf("approvals: %+v %v", as, err)
	}
	if _, found, err := j.DecisionFor(ctx, t1); found || err != nil {
		t.Fatalf("a pending approval is no decision: %v %v", found, err)
	}
	d1, err := j2.Decide(ctx, "run-1", "approval_1", Approve, "looks right")
	if err != nil || d1.State != ApprovalApproved || d1.Reason != "looks right" || d1.DecidedAt == nil {
		t.Fatalf("approve: %+v %v", d1, err)
	}
	if d2, err := j2.Decide(ctx, "run-1", "approval_10", Deny, "no"); err != nil || d2.State != ApprovalDenied {
		t.Fatalf("deny: %+v %v", d2, err)
	}
	for _, c := range []struct {
		tk    Ticket
		state ApprovalState
	}{{t1, ApprovalApproved}, {t2, ApprovalDenied}} {
		a, found, err := j.DecisionFor(ctx, c.tk)
		if err != nil || !found || a.State != c.state {
			t.Fatalf("decision for %s: %+v %v %v", c.tk.CallID, a, found, err)
		}
	}
	// The same operation in another run, or at another place in the run,
	// has no decision.
	for _, tk := range []Ticket{prepared(t, j, "run-2", "occ:1", `{"a":1}`), prepared(t, j, "run-1", "occ:2", `{"a":1}`)} {
		if _, found, err := j.DecisionFor(ctx, tk); found || err != nil {
			t.Fatalf("decision leaked to %s/%s: %v %v", tk.RunID, tk.RunCallID, found, err)
		}
	}
}

func TestApprovalRefusals(t *testing.T) {
	ctx := context.Background()
	j, _ := openTemp(t)
	t1 := prepared(t, j, "run-1", "occ:1", `{"a":1}`)
	if _, err := j.RecordApproval(ctx, t1, pendingApproval("approval_1", `{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Decide(ctx, "run-1", "approval_1", Deny, ""); err != nil {
		t.Fatal(err)
	}
	other := prepared(t, j, "run-1", "occ:1", `{"a":3}`)
	otherOp := pendingApproval("approval_1", `{"a":3}`)
	otherOp.Fingerprint = "sha256:other"
	for _, c := range []struct {
		name string
		err  func() error
		kind fault.Kind
	}{
		{"unknown id", func() error { _, err := j.Decide(ctx, "run-1", "approval_9", Approve, ""); return err }, authority.KindApprovalNotFound},
		{"decided", func() error { _, err := j.Decide(ctx, "run-1", "approval_1", Approve, ""); return err }, authority.KindApprovalNotPending},
		{"unknown run", func() error { _, err := j.Decide(ctx, "run-x", "approval_1", Approve, ""); return err }, KindUnknownRun},
		{"unknown run list", func() error { _, err := j.Approvals(ctx, "run-x"); return err }, KindUnknownRun},
		{"bad verdict", func() error { _, err := j.Decide(ctx, "run-1", "approval_1", "maybe", ""); return err }, KindInvalidRequest},
		{"id of another operation", func() error { _, err := j.RecordApproval(ctx, other, otherOp); return err }, KindInvalidRequest},
		{"no run", func() error { _, err := j.RecordApproval(ctx, Ticket{}, otherOp); return err }, KindInvalidRequest},
		{"stale ticket", func() error {
			tk := other
			tk.StoreID = "store-other"
			_, err := j.RecordApproval(ctx, tk, pendingApproval("approval_2", `{}`))
			return err
		}, KindStaleTicket},
	} {
		err := c.err()
		if fault.KindOf(err) != c.kind {
			t.Errorf("%s: %v, want %s", c.name, err, c.kind)
		}
		if fe := fault.As(err); fe != nil && (c.kind == authority.KindApprovalNotFound || c.kind == authority.KindApprovalNotPending) && fe.Hint == "" {
			t.Errorf("%s: no hint", c.name)
		}
	}
}

// A call that pends again under a new id (a resumed run reached it before
// anyone decided) supersedes its older pending approval.
func TestApprovalSuperseded(t *testing.T) {
	ctx := context.Background()
	j, _ := openTemp(t)
	tk := prepared(t, j, "run-1", "occ:1", `{"a":1}`)
	if _, err := j.RecordApproval(ctx, tk, pendingApproval("approval_1", `{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordApproval(ctx, tk, pendingApproval("approval_2", `{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	as, err := j.Approvals(ctx, "run-1")
	if err != nil || len(as) != 2 || as[0].State != ApprovalSuperseded || as[0].Reason != "superseded by approval_2" || as[1].State != ApprovalPending {
		t.Fatalf("approvals: %+v %v", as, err)
	}
	_, err = j.Decide(ctx, "run-1", "approval_1", Approve, "")
	if fault.KindOf(err) != authority.KindApprovalNotPending {
		t.Fatalf("deciding a superseded approval: %v", err)
	}
}

// oldSchema is the journal schema before approvals were persisted.
const oldSchema = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE calls (call_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL, kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
	logical_key TEXT NOT NULL, created_at INTEGER NOT NULL, run_id TEXT NOT NULL DEFAULT '', run_call_id TEXT NOT NULL DEFAULT '');
CREATE TABLE attempts (attempt_id TEXT PRIMARY KEY, call_id TEXT NOT NULL REFERENCES calls(call_id), sequence INTEGER NOT NULL,
	mode TEXT NOT NULL, parent TEXT NOT NULL, idempotency_key TEXT NOT NULL, state TEXT NOT NULL, owner TEXT NOT NULL,
	reason TEXT NOT NULL DEFAULT '', observation TEXT, revision INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE runs (run_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
INSERT INTO meta(key, value) VALUES('store_id', 'store-old'), ('epoch', '1');
INSERT INTO runs(run_id, created_at) VALUES('run-old', 1);
`

// A journal written before approvals were persisted opens, keeps its
// runs, and persists approvals.
func TestApprovalMigratesOldJournal(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "effects.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(oldSchema); err != nil {
		t.Fatal(err)
	}
	db.Close()
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if j.StoreID() != "store-old" {
		t.Fatalf("store id %q", j.StoreID())
	}
	if as, err := j.Approvals(ctx, "run-old"); err != nil || len(as) != 0 {
		t.Fatalf("approvals of an old run: %+v %v", as, err)
	}
	tk := prepared(t, j, "run-old", "occ:1", `{"a":1}`)
	if _, err := j.RecordApproval(ctx, tk, pendingApproval("approval_1", `{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if a, err := j.Decide(ctx, "run-old", "approval_1", Approve, ""); err != nil || a.State != ApprovalApproved {
		t.Fatalf("decide: %+v %v", a, err)
	}
}
