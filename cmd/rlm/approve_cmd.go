package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
)

// approveJSON is the --json document of rlm approve: the envelope (status
// completed) with the run and its approvals in approval_details (all of
// them when listing, the decided ones when deciding).
type approveJSON struct {
	envelope
	RunID string `json:"run_id"`
}

func newApproveCmd() *cobra.Command {
	var (
		deny     bool
		reason   string
		stateDir string
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "approve RUN_ID [APPROVAL_ID...]",
		Short: "List the approvals a run waits for, or approve (--deny: refuse) them; --resume RUN_ID then continues the run",
		Long: "An effectful operation under approve_diff stops its run with approval_required (exit 3): the operation is persisted " +
			"in the run's effect journal. With only RUN_ID, approve lists the run's approvals: id, state, tool, arguments and the " +
			"resolved details (what it would do). With ids, it records the decision: approved (or with --deny refused, --reason " +
			"kept with it). The same command run again with --resume RUN_ID (and the same --state-dir) then performs each approved " +
			"operation once, and a refused one ends with approval_denied, an observation for the model. A decision applies to that " +
			"exact operation only: changed arguments wait for a new approval. An id the run does not hold fails with " +
			"approval_not_found, one already decided with approval_not_pending; nothing is recorded then.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			runID, ids := args[0], args[1:]
			if deny && len(ids) == 0 {
				return fault.New(fault.PhaseConfig, kindUsage, "--deny needs the approval ids to refuse").
					WithHint("list the run's approvals with: rlm approve " + runID)
			}
			j, err := openApprovalJournal(stateDir, runID)
			if err != nil {
				return err
			}
			defer j.Close()
			as, err := decideApprovals(cmd, j, runID, ids, deny, reason)
			if err != nil {
				return err
			}
			if asJSON {
				out := approveJSON{envelope: newEnvelope(nil, nil, runID), RunID: runID}
				for _, a := range as {
					out.ApprovalDetails = append(out.ApprovalDetails, approvalDetailOf(a))
				}
				return writeJSON(cmd.OutOrStdout(), out)
			}
			writeApprovals(cmd.OutOrStdout(), as)
			if len(ids) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "rlm: continue the run with: the same command and --resume %s\n", runID)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&deny, "deny", false, "refuse the operations instead of approving them")
	fl.StringVar(&reason, "reason", "", "why, kept with the decision (a denial's reason reaches the model)")
	fl.StringVar(&stateDir, "state-dir", "", "directory of the durable effect journal (default $XDG_STATE_HOME/rlm or ~/.local/state/rlm)")
	fl.BoolVar(&asJSON, "json", false, "print the result envelope with the approvals as JSON")
	return cmd
}

// openApprovalJournal opens the journal of the state directory dir
// (default: the default state directory). A directory without a journal
// holds no run: unknown_run, and nothing is created.
func openApprovalJournal(dir, runID string) (*effect.Journal, error) {
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
			WithHint("pass the --state-dir of the run (the run_id it printed names the run)")
	}
	return effect.Open(path)
}

// decideApprovals returns the run's approvals (no ids), or records the
// decision for each id and returns the decided approvals. Every id is
// checked first, so a wrong one records nothing.
func decideApprovals(cmd *cobra.Command, j *effect.Journal, runID string, ids []string, deny bool, reason string) ([]effect.Approval, error) {
	ctx := cmd.Context()
	as, err := j.Approvals(ctx, runID)
	if err != nil || len(ids) == 0 {
		return as, err
	}
	byID := map[string]effect.Approval{}
	for _, a := range as {
		byID[a.ID] = a
	}
	for _, id := range ids {
		a, ok := byID[id]
		switch {
		case !ok:
			return nil, fault.New(effect.PhaseEffect, authority.KindApprovalNotFound, "the run has no approval with this id").
				With("run_id", runID).With("approval_id", id).WithHint("list the run's approvals with: rlm approve " + runID)
		case a.State != effect.ApprovalPending:
			return nil, fault.New(effect.PhaseEffect, authority.KindApprovalNotPending, "the approval is not pending").
				With("run_id", runID).With("approval_id", id).With("state", string(a.State)).
				WithHint("a decision is final; list the run's approvals with: rlm approve " + runID)
		}
	}
	v := effect.Approve
	if deny {
		v = effect.Deny
	}
	var out []effect.Approval
	for _, id := range ids {
		a, err := j.Decide(ctx, runID, id, v, reason)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// writeApprovals prints one approval per line: id, state, tool, arguments,
// details and reason, every cell neutralized for the terminal.
func writeApprovals(w io.Writer, as []effect.Approval) {
	if len(as) == 0 {
		fmt.Fprintln(w, "no approvals")
		return
	}
	for _, a := range as {
		cells := []string{a.ID, string(a.State), a.Tool, string(a.Args)}
		if len(a.Details) > 0 {
			cells = append(cells, "details "+string(a.Details))
		}
		if a.Reason != "" {
			cells = append(cells, "reason "+a.Reason)
		}
		for i, c := range cells {
			cells[i] = cellSpace.Replace(termsafe.Text(c))
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
}
