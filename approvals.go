package rlm

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// Approvals returns the approvals of the run runID persisted in the effect
// journal of stateDir ("" is the default state directory,
// effect.DefaultStateDir): what each operation that stopped the run with
// approval_required would do, and its state. A directory without a journal
// holds no run: Kind unknown_run, and nothing is created.
func Approvals(ctx context.Context, stateDir, runID string) ([]effect.Approval, error) {
	j, err := openJournalOf(stateDir, runID)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	return j.Approvals(ctx, runID)
}

// Decide records the verdict v (effect.Approve or effect.Deny, with its
// reason) on the approvals ids of the run runID in the effect journal of
// stateDir, and returns them decided; the run resumed (Spec.Resume) then
// performs each approved operation once, and a denied one ends with
// approval_denied. Every id is checked first, so a wrong one records
// nothing: an id the run does not hold fails with approval_not_found, one
// already decided with approval_not_pending.
func Decide(ctx context.Context, stateDir, runID string, ids []string, v effect.Verdict, reason string) ([]effect.Approval, error) {
	j, err := openJournalOf(stateDir, runID)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	as, err := j.Approvals(ctx, runID)
	if err != nil {
		return nil, err
	}
	list := "list the run's approvals with: rlm approve " + runID
	for _, id := range ids {
		i := approvalIndex(as, id)
		switch {
		case i < 0:
			return nil, fault.New(effect.PhaseEffect, authority.KindApprovalNotFound, "the run has no approval with this id").
				With("run_id", runID).With("approval_id", id).WithHint(list)
		case as[i].State != effect.ApprovalPending:
			return nil, fault.New(effect.PhaseEffect, authority.KindApprovalNotPending, "the approval is not pending").
				With("run_id", runID).With("approval_id", id).With("state", string(as[i].State)).
				WithHint("a decision is final; " + list)
		}
	}
	out := make([]effect.Approval, 0, len(ids))
	for _, id := range ids {
		a, err := j.Decide(ctx, runID, id, v, reason)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// openJournalOf opens the effect journal of stateDir ("" the default) for
// the run runID, refusing a directory that holds none.
func openJournalOf(dir, runID string) (*effect.Journal, error) {
	if dir == "" {
		var err error
		if dir, err = effect.DefaultStateDir(); err != nil {
			return nil, err
		}
	}
	path := filepath.Join(dir, effect.DefaultFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fault.New(effect.PhaseEffect, effect.KindUnknownRun, "no effect journal in the state directory").
			With("run_id", runID).With("state_dir", dir).
			WithHint("pass the state directory of the run (--state-dir; the run_id it printed names the run)")
	}
	return effect.Open(path)
}
