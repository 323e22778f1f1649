package tool

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// AuthApproved is the Trace.Authorization (span attribute "authz") of a
// call that ran because a decision recorded in the effect journal approved
// it (effect.Journal.Decide, "rlm approve"), in a resumed run.
const AuthApproved = "approved"

// Durable approvals. A pending operation of a run with a journal is
// persisted there (effect.Journal.RecordApproval), bound to the journal
// call it would perform. A host records a decision with
// effect.Journal.Decide, perhaps in another process; when the run is
// resumed (ResumeRun) and reaches that call again, an approval runs it as
// if approved once, a denial ends it with approval_denied. The call
// carries the whole effect identity, so changed arguments (another call)
// need another approval.

// applyDecision answers a call of a resumed run whose journal call holds a
// recorded decision: a denial fails it with approval_denied, an approval
// runs it once (the allow-once grant of the context, if any, is not
// spent).
func (rt *Runtime) applyDecision(ctx context.Context, c *call, ticket effect.Ticket, a effect.Approval, nested bool) *Future {
	c.tr.ApprovalID = a.ID
	if a.State == effect.ApprovalDenied {
		fe := fault.New(authority.PhaseAuthority, authority.KindApprovalDenied, "the operation was denied").
			With("approval_id", a.ID).With("fingerprint", a.Fingerprint).With("reason", a.Reason).With("decided_by", "journal")
		return resolved(c.fail(fe, AuthDenied))
	}
	c.tr.Authorization = AuthApproved
	return rt.execute(ctx, c, ticket, nested, false, "")
}

// persistPending records the pending record rec of c's call in the
// journal, so that a decision can be made after this process ends.
func (rt *Runtime) persistPending(ctx context.Context, ticket effect.Ticket, rec authority.Record) *fault.Error {
	args, err := json.Marshal(rec.Args)
	if err != nil {
		return stepErr(fault.KindInternal, "the pending operation's arguments are not JSON")
	}
	var details json.RawMessage
	if len(rec.Details) > 0 {
		if details, err = json.Marshal(rec.Details); err != nil {
			return stepErr(fault.KindInternal, "the pending operation's details are not JSON")
		}
	}
	_, err = rt.journal.RecordApproval(ctx, ticket, effect.Approval{ID: rec.ID, Fingerprint: rec.Fingerprint, Context: rec.Context,
		Tool: rec.Tool, Effect: string(rec.Effect), Args: args, Details: details})
	if err != nil {
		return journalErr(err)
	}
	return nil
}

// skipPersistedIDs makes the runtime's authority store give ids beyond the
// ones run already persisted (by an earlier process of a resumed run), once
// per run and store.
func (rt *Runtime) skipPersistedIDs(ctx context.Context, run *Run) *fault.Error {
	run.mu.Lock()
	done := run.floors[rt.auth]
	run.mu.Unlock()
	if done {
		return nil
	}
	as, err := rt.journal.Approvals(ctx, run.ID())
	if err != nil {
		return journalErr(err)
	}
	var n uint64
	for _, a := range as {
		if k, ok := approvalNumber(a.ID); ok {
			n = max(n, k)
		}
	}
	rt.auth.SkipIDs(n)
	run.mu.Lock()
	if run.floors == nil {
		run.floors = make(map[*authority.Store]bool)
	}
	run.floors[rt.auth] = true
	run.mu.Unlock()
	return nil
}

// approvalNumber is N of an authority id approval_N.
func approvalNumber(id string) (uint64, bool) {
	s, ok := strings.CutPrefix(id, "approval_")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}
