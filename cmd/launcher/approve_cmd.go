package launcher

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
)

// approveJSON is the --json document of rlm approve: the envelope (status
// completed) with the run and its approvals in approval_details (all of
// them when listing, the decided ones when deciding).
type approveJSON struct {
	rlm.Envelope
	RunID string `json:"run_id"`
}

func (l *launcher) newApproveCmd() *cobra.Command {
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
			as, err := decideApprovals(cmd.Context(), stateDir, runID, ids, deny, reason)
			if err != nil {
				return err
			}
			if asJSON {
				out := approveJSON{Envelope: rlm.NewEnvelope(nil, nil, runID), RunID: runID}
				for _, a := range as {
					out.ApprovalDetails = append(out.ApprovalDetails, rlm.ApprovalDetailOf(a))
				}
				return writeJSON(cmd.OutOrStdout(), out)
			}
			console.WriteApprovals(cmd.OutOrStdout(), as)
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

// decideApprovals lists the run's approvals (no ids) or decides ids.
func decideApprovals(ctx context.Context, stateDir, runID string, ids []string, deny bool, reason string) ([]effect.Approval, error) {
	if len(ids) == 0 {
		return rlm.Approvals(ctx, stateDir, runID)
	}
	v := effect.Approve
	if deny {
		v = effect.Deny
	}
	return rlm.Decide(ctx, stateDir, runID, ids, v, reason)
}
