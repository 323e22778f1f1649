package effect

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// ApprovalState is the state of a persisted approval.
type ApprovalState string

// Approval states. An approval is decided once: pending → approved or
// denied. A pending approval whose call pends again under another id (a
// resumed run that reached it before anyone decided) is superseded by
// that one.
const (
	ApprovalPending    ApprovalState = "pending"
	ApprovalApproved   ApprovalState = "approved"
	ApprovalDenied     ApprovalState = "denied"
	ApprovalSuperseded ApprovalState = "superseded"
)

// Verdict is a human decision about a pending approval.
type Verdict string

// Verdicts.
const (
	Approve Verdict = "approve"
	Deny    Verdict = "deny"
)

// Approval is the durable record of an effectful operation that waits for
// a human decision: an authority record (approve_diff) of a run, bound to
// the journal call it would perform. The call (Ticket.CallID) carries the
// whole effect identity: run, call id within the run, tool, normalized
// arguments, preflight details, target root and authority context. A
// decision therefore applies to that exact operation at that place in the
// run, and nothing else: changed arguments are another call and need
// another approval.
type Approval struct {
	RunID string `json:"run_id"`
	// ID is the authority record's id (for example approval_1), unique
	// within the run.
	ID string `json:"id"`
	// CallID and RunCallID name the journal call the approval is bound
	// to.
	CallID    string `json:"call_id"`
	RunCallID string `json:"run_call_id,omitempty"`
	// Fingerprint is the authority operation fingerprint (the record's).
	Fingerprint string `json:"fingerprint"`
	Context     string `json:"context"`
	Tool        string `json:"tool"`
	Effect      string `json:"effect"`
	// Args and Details are what the operation would do: the normalized
	// arguments and the preflight's resolved details (for example the
	// path a write resolves to), redacted as the authority record is.
	Args      json.RawMessage `json:"args"`
	Details   json.RawMessage `json:"details,omitempty"`
	State     ApprovalState   `json:"state"`
	Reason    string          `json:"reason,omitempty"`
	CreatedAt time.Time       `json:"created_at"`
	DecidedAt *time.Time      `json:"decided_at,omitempty"`
}

// Decided reports whether the approval holds a decision.
func (a Approval) Decided() bool { return a.State == ApprovalApproved || a.State == ApprovalDenied }

const approvalColumns = `run_id, approval_id, call_id, run_call_id, fingerprint, context, tool, effect, args, details, state, reason, created_at, decided_at`

func scanApproval(row interface{ Scan(...any) error }) (Approval, error) {
	var a Approval
	var args, details string
	var created int64
	var decided sql.NullInt64
	if err := row.Scan(&a.RunID, &a.ID, &a.CallID, &a.RunCallID, &a.Fingerprint, &a.Context, &a.Tool, &a.Effect,
		&args, &details, &a.State, &a.Reason, &created, &decided); err != nil {
		return Approval{}, err
	}
	a.Args = json.RawMessage(args)
	if details != "" {
		a.Details = json.RawMessage(details)
	}
	a.CreatedAt = time.UnixMilli(created).UTC()
	if decided.Valid {
		t := time.UnixMilli(decided.Int64).UTC()
		a.DecidedAt = &t
	}
	return a, nil
}

func (tx txn) approval(runID, id string) (Approval, bool, error) {
	a, err := scanApproval(tx.QueryRowContext(tx.ctx, `SELECT `+approvalColumns+` FROM approvals WHERE run_id = ? AND approval_id = ?`, runID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Approval{}, false, nil
	}
	if err != nil {
		return Approval{}, false, ioErr(err, "load approval")
	}
	return a, true, nil
}

// RecordApproval persists a pending approval of the run of t, bound to the
// call of t (the ticket Prepare returned for the operation that pends).
// a names the authority record (ID, Fingerprint, Context, Tool, Effect,
// Args, Details); its run, call and state are taken from t. Recording the
// same approval again returns the stored record unchanged, as does
// recording an id of the run for another call of the same operation (the
// authority store keeps one pending record per operation). An id the run
// already holds for another operation fails with Kind
// invalid_effect_request. Other pending approvals of the same call become
// superseded (Reason names the new id).
func (j *Journal) RecordApproval(ctx context.Context, t Ticket, a Approval) (Approval, error) {
	if t.RunID == "" || a.ID == "" || t.CallID == "" {
		return Approval{}, fault.New(PhaseEffect, KindInvalidRequest, "an approval needs a run, an id and a call")
	}
	if len(a.Args) == 0 {
		a.Args = json.RawMessage(`null`)
	}
	var out Approval
	err := j.write(ctx, false, func(tx txn) error {
		if _, _, err := tx.checkTicket(t); err != nil {
			return err
		}
		prev, found, err := tx.approval(t.RunID, a.ID)
		if err != nil {
			return err
		}
		if found {
			if prev.CallID != t.CallID && prev.Fingerprint != a.Fingerprint {
				return fault.New(PhaseEffect, KindInvalidRequest, "the run already holds this approval id for another operation").
					With("run_id", t.RunID).With("approval_id", a.ID).
					WithHint("another process recorded approvals in the same run at the same time; run the command again")
			}
			out = prev
			return nil
		}
		now := time.Now().UnixMilli()
		if _, err := tx.ExecContext(tx.ctx, `UPDATE approvals SET state = ?, reason = ?, decided_at = ? WHERE call_id = ? AND run_id = ? AND state = ?`,
			string(ApprovalSuperseded), "superseded by "+a.ID, now, t.CallID, t.RunID, string(ApprovalPending)); err != nil {
			return ioErr(err, "supersede approval")
		}
		if _, err := tx.ExecContext(tx.ctx, `INSERT INTO approvals(`+approvalColumns+`) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, NULL)`,
			t.RunID, a.ID, t.CallID, t.RunCallID, a.Fingerprint, a.Context, a.Tool, a.Effect, string(a.Args), string(a.Details),
			string(ApprovalPending), now); err != nil {
			return ioErr(err, "insert approval")
		}
		out, _, err = tx.approval(t.RunID, a.ID)
		return err
	})
	return out, err
}

// Approvals returns the approvals of a run, in id order (approval_N by N).
// It fails with Kind unknown_run when the run was never recorded.
func (j *Journal) Approvals(ctx context.Context, runID string) ([]Approval, error) {
	var out []Approval
	err := j.write(ctx, false, func(tx txn) error {
		if err := tx.knownRun(runID); err != nil {
			return err
		}
		rows, err := tx.QueryContext(tx.ctx, `SELECT `+approvalColumns+` FROM approvals WHERE run_id = ?`, runID)
		if err != nil {
			return ioErr(err, "list approvals")
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanApproval(rows)
			if err != nil {
				return ioErr(err, "list approvals")
			}
			out = append(out, a)
		}
		return ioErrOrNil(rows.Err(), "list approvals")
	})
	sortApprovals(out)
	return out, err
}

// sortApprovals orders ids of the form approval_N by N, then by text.
func sortApprovals(as []Approval) {
	slices.SortFunc(as, func(a, b Approval) int {
		x, y := strings.TrimPrefix(a.ID, "approval_"), strings.TrimPrefix(b.ID, "approval_")
		return cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y))
	})
}

func ioErrOrNil(err error, what string) error {
	if err == nil {
		return nil
	}
	return ioErr(err, what)
}

// knownRun fails with Kind unknown_run when runID was never recorded.
func (tx txn) knownRun(runID string) error {
	var known int
	if err := tx.QueryRowContext(tx.ctx, `SELECT (SELECT COUNT(*) FROM runs WHERE run_id = ?) + (SELECT COUNT(*) FROM calls WHERE run_id = ?)`, runID, runID).Scan(&known); err != nil {
		return ioErr(err, "find run")
	}
	if known == 0 {
		return unknownRun(runID)
	}
	return nil
}

func unknownRun(runID string) error {
	return fault.New(PhaseEffect, KindUnknownRun, "no run with this id in the effect journal").With("run_id", runID).
		WithHint("use the run_id printed by the run you want to resume, with the same --state-dir")
}

// Decide records a human decision about the pending approval id of run
// runID: Approve lets the operation run once when the run is resumed
// (tool.ResumeRun) and reaches it again; Deny makes it end with
// approval_denied there. reason is kept with the decision. An id the run
// does not hold fails with Kind approval_not_found, one already decided
// with approval_not_pending; an unknown run with unknown_run.
func (j *Journal) Decide(ctx context.Context, runID, id string, v Verdict, reason string) (Approval, error) {
	var to ApprovalState
	switch v {
	case Approve:
		to = ApprovalApproved
	case Deny:
		to = ApprovalDenied
	default:
		return Approval{}, fault.New(PhaseEffect, KindInvalidRequest, "a verdict is approve or deny").With("verdict", string(v))
	}
	var out Approval
	err := j.write(ctx, true, func(tx txn) error {
		if err := tx.knownRun(runID); err != nil {
			return err
		}
		a, found, err := tx.approval(runID, id)
		if err != nil {
			return err
		}
		if !found {
			return fault.New(PhaseEffect, authority.KindApprovalNotFound, "the run has no approval with this id").
				With("run_id", runID).With("approval_id", id).
				WithHint("list the run's approvals with: rlm approve " + runID)
		}
		if a.State != ApprovalPending {
			fe := fault.New(PhaseEffect, authority.KindApprovalNotPending, "the approval is not pending").
				With("run_id", runID).With("approval_id", id).With("state", string(a.State)).
				WithHint("a decision is final; list the run's approvals with: rlm approve " + runID)
			if a.State == ApprovalSuperseded {
				fe.With("reason", a.Reason).WithHint("the operation pends under a newer id; list the run's approvals with: rlm approve " + runID)
			}
			return fe
		}
		res, err := tx.ExecContext(tx.ctx, `UPDATE approvals SET state = ?, reason = ?, decided_at = ? WHERE run_id = ? AND approval_id = ? AND state = ?`,
			string(to), reason, time.Now().UnixMilli(), runID, id, string(ApprovalPending))
		if err != nil {
			return ioErr(err, "record decision")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fault.New(PhaseEffect, authority.KindApprovalNotPending, "the approval was decided concurrently").
				With("run_id", runID).With("approval_id", id)
		}
		out, _, err = tx.approval(runID, id)
		return err
	})
	return out, err
}

// DecisionFor returns the decided approval bound to the call of t, if any:
// what a resumed run applies when it reaches the authority step of that
// call again. A pending approval is not returned (found is false).
func (j *Journal) DecisionFor(ctx context.Context, t Ticket) (a Approval, found bool, err error) {
	err = j.write(ctx, false, func(tx txn) error {
		rows, err := tx.QueryContext(tx.ctx, `SELECT `+approvalColumns+` FROM approvals WHERE call_id = ? AND run_id = ? AND state IN (?, ?)`,
			t.CallID, t.RunID, string(ApprovalApproved), string(ApprovalDenied))
		if err != nil {
			return ioErr(err, "find decision")
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanApproval(rows)
			if err != nil {
				return ioErr(err, "find decision")
			}
			// A denial wins over an approval of the same call.
			if !found || r.State == ApprovalDenied {
				a, found = r, true
			}
		}
		return ioErrOrNil(rows.Err(), "find decision")
	})
	return a, found, err
}
