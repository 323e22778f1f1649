package rlm_test

import (
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// An approval stop's envelope carries, next to the ids, what each
// approval would do, in the order of the ids; other envelopes carry none.
func TestApprovalDetailsInEnvelope(t *testing.T) {
	as := []effect.Approval{
		{ID: "approval_1", Tool: "fs_write", Effect: "write", Args: json.RawMessage(`{"path":"a"}`), State: effect.ApprovalPending},
		{ID: "approval_2", Tool: "fs_write", Effect: "write", Args: json.RawMessage(`{"path":"b"}`), Details: json.RawMessage(`{"path":"b"}`), State: effect.ApprovalPending},
		{ID: "approval_3", Tool: "notify", State: effect.ApprovalDenied},
	}
	stop := fault.New(fault.PhaseTool, authority.KindApprovalRequired, "x").With("approval_id", "approval_1")
	env := rlm.NewEnvelope(stop, []string{"approval_2"}, "run-1")
	env.AddApprovalDetails(as)
	if len(env.ApprovalDetails) != 2 || env.ApprovalDetails[0].ID != "approval_2" || env.ApprovalDetails[1].ID != "approval_1" ||
		string(env.ApprovalDetails[0].Details) != `{"path":"b"}` || env.ApprovalDetails[1].State != "pending" {
		t.Fatalf("details: %+v", env.ApprovalDetails)
	}
	done := rlm.NewEnvelope(nil, nil, "run-1")
	done.AddApprovalDetails(as)
	if done.ApprovalDetails != nil {
		t.Fatalf("a completed envelope with details: %+v", done.ApprovalDetails)
	}
}
