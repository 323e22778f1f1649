package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/trace"
)

// Statuses of every --json result document: one vocabulary for run,
// direct, chat, demo, result, tools call, trace view and the failure
// document of every other command (docs/cli.md).
const (
	statusCompleted        = "completed"
	statusFailed           = "failed"
	statusCancelled        = "cancelled"
	statusApprovalRequired = "approval_required"
)

// envelope is the part every --json result shares: status, error (the
// fault with its hint, null when completed), output_error (an output such
// as --trace or --record that could not be written after the result; the
// result is complete), approvals (the ids of the operations an
// approval_required result waits for) and approval_details (per id, what
// the operation would do: see withApprovalDetails). Each command's
// document embeds it next to its own fields; a failure without a result
// of its own is the envelope alone.
type envelope struct {
	Status          string           `json:"status"`
	Error           *fault.Error     `json:"error"`
	OutputError     *fault.Error     `json:"output_error,omitempty"`
	Approvals       []string         `json:"approvals,omitempty"`
	ApprovalDetails []approvalDetail `json:"approval_details,omitempty"`
}

// approvalDetail is one operation that waits for an approval, as the
// effect journal persisted it: its id, the tool, what it would do (the
// normalized arguments and the preflight's resolved details, redacted),
// its operation fingerprint, and its state (pending, approved, denied,
// superseded) with the reason of a decision. "rlm approve RUN_ID" lists
// them; "rlm approve RUN_ID ID" decides.
type approvalDetail struct {
	ID          string          `json:"id"`
	Tool        string          `json:"tool"`
	Effect      string          `json:"effect"`
	Args        json.RawMessage `json:"args"`
	Details     json.RawMessage `json:"details,omitempty"`
	Fingerprint string          `json:"fingerprint"`
	State       string          `json:"state"`
	Reason      string          `json:"reason,omitempty"`
}

// approvalDetailOf is the detail of a persisted approval.
func approvalDetailOf(a effect.Approval) approvalDetail {
	return approvalDetail{ID: a.ID, Tool: a.Tool, Effect: a.Effect, Args: a.Args, Details: a.Details,
		Fingerprint: a.Fingerprint, State: string(a.State), Reason: a.Reason}
}

// withApprovalDetails adds to an approval_required envelope the details
// of its approvals found in as (the run's persisted approvals,
// effect.Journal.Approvals), in the order of env.Approvals. The ids stay
// in approvals as they were.
func withApprovalDetails(env *envelope, as []effect.Approval) {
	if env.Status != statusApprovalRequired {
		return
	}
	for _, id := range env.Approvals {
		for _, a := range as {
			if a.ID == id {
				env.ApprovalDetails = append(env.ApprovalDetails, approvalDetailOf(a))
				break
			}
		}
	}
}

// newEnvelope is the envelope of an outcome: fe is its error (nil when it
// completed), pending the approval ids it reported, runID the run
// --resume continues. The status is resultStatus's; an approval_required
// one lists pending (and the error's approval_id) in approvals, and its
// error carries approvalHint.
func newEnvelope(fe *fault.Error, pending []string, runID string) envelope {
	env := envelope{Status: resultStatus(fe), Error: withHint(fe)}
	if env.Status == statusApprovalRequired {
		env.Approvals = slices.Clone(pending)
		if id, _ := fe.Detail["approval_id"].(string); id != "" && !slices.Contains(env.Approvals, id) {
			env.Approvals = append(env.Approvals, id)
		}
		env.Error.Hint = approvalHint(runID)
	}
	return env
}

// addApprovalDetails fills the approval_details of an approval stop of
// the run runID from the effect journal of cmd's --state-dir (default: the
// default state directory), where the run persisted its pending
// operations. A journal that cannot be read leaves them out: the ids and
// the hint are the result, and rlm approve RUN_ID lists the approvals.
func addApprovalDetails(cmd *cobra.Command, env *envelope, runID string) {
	if env.Status != statusApprovalRequired || runID == "" {
		return
	}
	dir := ""
	if f := cmd.Flags().Lookup("state-dir"); f != nil {
		dir = f.Value.String()
	}
	j, err := openApprovalJournal(dir, runID)
	if err != nil {
		return
	}
	defer j.Close()
	ctx := cmd.Context()
	if ctx == nil { // a command that was not executed (a test)
		ctx = context.Background()
	}
	if as, err := j.Approvals(ctx, runID); err == nil {
		withApprovalDetails(env, as)
	}
}

// resultStatus maps the error of a result (an engine, direct or tool
// result, or a command's failure) onto the status vocabulary: completed
// without one, approval_required for an operation that waits for an
// approval, cancelled for a cancellation (Ctrl-C, SIGTERM, a cancelled
// parent), failed for any other error. It is the one place the statuses
// are decided.
func resultStatus(fe *fault.Error) string {
	switch {
	case fe == nil:
		return statusCompleted
	case fe.Kind == authority.KindApprovalRequired:
		return statusApprovalRequired
	case fe.Kind == fault.KindCancelled:
		return statusCancelled
	}
	return statusFailed
}

// approvalHint says how to continue a result that waits for an approval;
// runID is the run to resume ("" names it RUN_ID). The pending operations
// are persisted in the run's effect journal: "rlm approve" lists and
// decides them, and the run resumed performs the approved ones once.
func approvalHint(runID string) string {
	if runID == "" {
		runID = "RUN_ID"
	}
	return "the operation waits for an approval: rlm approve " + runID + " lists what it would do; approve it with rlm approve " + runID +
		" APPROVAL_ID (or refuse it with --deny), then run the same command again with --resume " + runID
}

// exitFor is the exit status of a printed result: its status's, or that of
// a failure when an output could not be written.
func exitFor(env envelope) error {
	outcome := env.Status
	if env.OutputError != nil && outcome == statusCompleted {
		outcome = statusFailed
	}
	if code := exitCode(outcome); code != 0 {
		return exitError{code: code}
	}
	return nil
}

// runJSON is the --json output shape of run, demo, chat (one per line) and
// result. RunID names the run whose effects --resume can replay; Replayed
// is true when a tool result of the run was a replayed effect.
type runJSON struct {
	envelope
	Answer   any            `json:"answer"`
	Usage    any            `json:"usage"`
	RunID    string         `json:"run_id,omitempty"`
	Replayed bool           `json:"replayed"`
	Trace    []trace.Event  `json:"trace"`
	Extra    map[string]any `json:"details,omitempty"`
}

// runIdentity is the effect run of a run: its id and whether it replayed.
type runIdentity struct {
	id       string
	replayed bool
}

// runResultJSON is the --json document of an engine result (rlm demo).
func runResultJSON(res *engine.Result) runJSON {
	return runResultOf(res, "")
}

// runResultOf is runResultJSON of the run runID.
func runResultOf(res *engine.Result, runID string) runJSON {
	out := runJSON{envelope: newEnvelope(res.Error, res.PendingApprovals, runID), Answer: res.Answer, Usage: res.Usage, Trace: res.Trajectory,
		Extra: map[string]any{"usage_by_depth": res.UsageByDepth, "counters": res.Counters, "recursion": res.Recursion, "turns": res.Turns, "partial": res.Partial, "elapsed_ms": res.ElapsedMS}}
	if out.Trace == nil {
		out.Trace = []trace.Event{}
	}
	if len(res.PendingApprovals) > 0 {
		out.Extra["pending_approvals"] = res.PendingApprovals
	}
	return out
}

// runEnvelope is the --json document of a run: its result, its effect
// run, and output_error when an output failed.
func runEnvelope(res *engine.Result, outErr error, run runIdentity) runJSON {
	out := runResultOf(res, run.id)
	out.RunID, out.Replayed = run.id, run.replayed
	if outErr != nil {
		out.OutputError = asFault(outErr)
	}
	return out
}

// printRun prints the outcome of rlm run. With --json: the result, with
// output_error when an output failed. In text: the answer on stdout (see
// answerOut), then on stderr the usage line, the partial result of a
// failed run (neutralized unless --raw), and the errors (the run's, then
// the output's).
func printRun(cmd *cobra.Command, st *status, res *engine.Result, runErr, outErr error, asJSON bool, run runIdentity) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if asJSON {
		out := runEnvelope(res, outErr, run)
		addApprovalDetails(cmd, &out.envelope, run.id)
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		return exitFor(out.envelope)
	}
	if runErr == nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, answerText(res.Answer)))
	}
	fmt.Fprintln(stderr, st.summary(resultStatus(res.Error), res.Turns, &res.Usage))
	if runErr != nil && res.Partial != nil {
		partial := textcut.Prefix(answerText(res.Partial), maxPartialText)
		if !rawOutput(cmd) {
			partial = termsafe.Text(partial)
		}
		fmt.Fprintln(stderr, "rlm: partial result: "+partial)
	}
	if len(res.PendingApprovals) > 0 {
		fmt.Fprintln(stderr, termsafe.Text("rlm: pending approvals: "+strings.Join(res.PendingApprovals, ", ")))
	}
	return afterResult(stdout, stderr, approvalStop(runErr, run.id), outErr)
}

// approvalStop returns err, with approvalHint for the run runID when it is
// an approval stop (text mode prints that hint; the exit status is 3).
func approvalStop(err error, runID string) error {
	fe := fault.As(err)
	if resultStatus(fe) != statusApprovalRequired {
		return err
	}
	c := *fe
	c.Hint = approvalHint(runID)
	return &c
}

// maxPartialText bounds the partial result printed in text mode.
const maxPartialText = 4096

// afterResult returns the error main prints once: the run's error, or the
// output error. When both happened the output error is printed here first.
func afterResult(stdout, stderr io.Writer, runErr, outErr error) error {
	if runErr == nil {
		return outErr
	}
	if outErr != nil {
		reportError(stdout, stderr, outErr, false)
	}
	return runErr
}

func answerText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b strings.Builder
	_ = writeJSON(&b, v)
	return strings.TrimSpace(b.String())
}

// directJSON is the --json output of rlm direct. Its status is the
// envelope's, not direct.Result's ok/error.
type directJSON struct {
	envelope
	Answer       string         `json:"answer"`
	Turns        int            `json:"turns"`
	ToolCalls    int            `json:"tool_calls"`
	ContextCalls int            `json:"context_calls"`
	Usage        budget.Usage   `json:"usage"`
	RunID        string         `json:"run_id,omitempty"`
	Replayed     bool           `json:"replayed"`
	Events       []direct.Event `json:"events"`
}

// printDirect prints the outcome of rlm direct: with --json the result
// document, in text the answer on stdout and the usage line and errors on
// stderr.
func printDirect(cmd *cobra.Command, st *status, res *direct.Result, runErr, outErr error, asJSON bool, run runIdentity) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if asJSON {
		out := directJSON{envelope: newEnvelope(res.Error, nil, run.id), Answer: res.Answer, Turns: res.Turns, ToolCalls: res.ToolCalls,
			ContextCalls: res.ContextCalls, Usage: res.Usage, Events: res.Events,
			RunID: run.id, Replayed: run.replayed}
		addApprovalDetails(cmd, &out.envelope, run.id)
		if outErr != nil {
			out.OutputError = asFault(outErr)
		}
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		return exitFor(out.envelope)
	}
	if runErr == nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, res.Answer))
	}
	fmt.Fprintln(stderr, st.summary(resultStatus(res.Error), res.Turns, &res.Usage))
	return afterResult(stdout, stderr, approvalStop(runErr, run.id), outErr)
}
