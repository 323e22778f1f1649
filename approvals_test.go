package rlm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// Approvals lists what a run persisted and Decide records a verdict once;
// a wrong id records nothing, and a directory without a journal holds no
// run.
func TestApprovalsAndDecide(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := rlm.Approvals(ctx, dir, "run-1"); fault.KindOf(err) != effect.KindUnknownRun {
		t.Fatalf("no journal: %v, want unknown_run", err)
	}
	j, err := effect.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"approval_1", "approval_2"} {
		r := effect.Request{Kind: "tool", Payload: map[string]any{"tool": "w", "args": json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))},
			Semantics: map[string]any{"effect": "write"}, RunID: "run-1", RunCallID: "occ:" + id}
		d, err := j.Prepare(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.RecordApproval(ctx, d.Ticket, effect.Approval{ID: id, Fingerprint: "sha256:" + id, Context: "cli", Tool: "w",
			Effect: "write", Args: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		ids  []string
		kind fault.Kind
	}{
		{[]string{"approval_1", "approval_9"}, authority.KindApprovalNotFound}, // checked before anything is recorded
		{[]string{"approval_1"}, ""},
		{[]string{"approval_1"}, authority.KindApprovalNotPending},
	} {
		got, err := rlm.Decide(ctx, dir, "run-1", c.ids, effect.Deny, "not now")
		if fault.KindOf(err) != c.kind {
			t.Fatalf("Decide(%v): %v, want kind %q", c.ids, err, c.kind)
		}
		if err == nil && (len(got) != 1 || got[0].State != effect.ApprovalDenied || got[0].Reason != "not now") {
			t.Fatalf("Decide(%v): %+v", c.ids, got)
		}
	}
	as, err := rlm.Approvals(ctx, dir, "run-1")
	if err != nil || len(as) != 2 || as[0].State != effect.ApprovalDenied || as[1].State != effect.ApprovalPending {
		t.Fatalf("approvals %+v, %v: want approval_1 denied, approval_2 still pending", as, err)
	}
}
