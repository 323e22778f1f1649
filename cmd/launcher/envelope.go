package launcher

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/internal/textcut"
)

// Statuses of every --json result document (rlm.StatusOf).
const (
	statusCompleted        = rlm.StatusCompleted
	statusFailed           = rlm.StatusFailed
	statusCancelled        = rlm.StatusCancelled
	statusApprovalRequired = rlm.StatusApprovalRequired
)

// envelope is rlm.Envelope: the part every --json result shares.
type envelope = rlm.Envelope

// newEnvelope is rlm.NewEnvelope with the CLI's hint on the error.
func newEnvelope(fe *fault.Error, pending []string, runID string) envelope {
	return rlm.NewEnvelope(withHint(fe), pending, runID)
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
	ctx := cmd.Context()
	if ctx == nil { // a command that was not executed (a test)
		ctx = context.Background()
	}
	if as, err := rlm.Approvals(ctx, dir, runID); err == nil {
		env.AddApprovalDetails(as)
	}
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

// runResultJSON is the --json document of an engine result (rlm demo).
func runResultJSON(res *engine.Result) rlm.RunEnvelope {
	return runEnvelope(&rlm.Result{Result: res})
}

// runEnvelope is res.Envelope() with the CLI's hints on its errors.
func runEnvelope(res *rlm.Result) rlm.RunEnvelope {
	out := res.Envelope()
	out.Error, out.OutputError = withHint(out.Error), withHint(out.OutputError)
	return out
}

// printRun prints the outcome of rlm run (its OutputError: an output
// that could not be written). With --json: the result document
// (Result.Envelope). In text: the answer on stdout (see answerOut), then
// on stderr the usage line, the partial result of a failed run
// (neutralized unless --raw), and the errors (the run's, then the
// output's).
func printRun(cmd *cobra.Command, st *console.Status, rr *rlm.Result, runErr error, asJSON bool) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	res, outErr := rr.Result, rr.OutputError
	if asJSON {
		out := runEnvelope(rr)
		addApprovalDetails(cmd, &out.Envelope, rr.RunID)
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		return exitFor(out.Envelope)
	}
	if runErr == nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, answerText(res.Answer)))
	}
	fmt.Fprintln(stderr, st.Summary(rlm.StatusOf(res.Error), res.Turns, &res.Usage))
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
	return afterResult(stdout, stderr, approvalStop(runErr, rr.RunID), outErr)
}

// approvalStop returns err, with rlm.ApprovalHint for the run runID when it is
// an approval stop (text mode prints that hint; the exit status is 3).
func approvalStop(err error, runID string) error {
	fe := fault.As(err)
	if rlm.StatusOf(fe) != statusApprovalRequired {
		return err
	}
	c := *fe
	c.Hint = rlm.ApprovalHint(runID)
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

// printDirect prints the outcome of rlm direct: with --json the result
// document, in text the answer on stdout and the usage line and errors on
// stderr.
func printDirect(cmd *cobra.Command, st *console.Status, dr *rlm.DirectResult, runErr error, asJSON bool) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	res, outErr := dr.Result, dr.OutputError
	if asJSON {
		out := dr.Envelope()
		out.Error, out.OutputError = withHint(out.Error), withHint(out.OutputError)
		addApprovalDetails(cmd, &out.Envelope, dr.RunID)
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		return exitFor(out.Envelope)
	}
	if runErr == nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, res.Answer))
	}
	fmt.Fprintln(stderr, st.Summary(rlm.StatusOf(res.Error), res.Turns, &res.Usage))
	return afterResult(stdout, stderr, approvalStop(runErr, dr.RunID), outErr)
}
