package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/trace"
)

// runJSON is the --json output shape of run and demo. OutputError reports
// an output (--trace, --record) that could not be written after the run;
// the rest of the result is complete. RunID names the run whose effects
// --resume can replay; Replayed is true when a tool result of the run was a
// replayed effect.
type runJSON struct {
	Status      string         `json:"status"`
	Answer      any            `json:"answer"`
	Usage       any            `json:"usage"`
	Error       *fault.Error   `json:"error"`
	OutputError *fault.Error   `json:"output_error,omitempty"`
	RunID       string         `json:"run_id,omitempty"`
	Replayed    bool           `json:"replayed"`
	Trace       []trace.Event  `json:"trace"`
	Extra       map[string]any `json:"details,omitempty"`
}

// runIdentity is the effect run of a run: its id and whether it replayed.
type runIdentity struct {
	id       string
	replayed bool
}

func runResultJSON(res *engine.Result) runJSON {
	out := runJSON{Status: res.Status, Answer: res.Answer, Usage: res.Usage, Error: res.Error, Trace: res.Trajectory,
		Extra: map[string]any{"usage_by_depth": res.UsageByDepth, "counters": res.Counters, "recursion": res.Recursion, "turns": res.Turns, "partial": res.Partial, "elapsed_ms": res.ElapsedMS}}
	if out.Trace == nil {
		out.Trace = []trace.Event{}
	}
	if len(res.PendingApprovals) > 0 {
		out.Extra["pending_approvals"] = res.PendingApprovals
	}
	out.Error = withHint(out.Error)
	return out
}

// runEnvelope is the --json document of a run: its result, its effect
// run, and output_error when an output failed.
func runEnvelope(res *engine.Result, outErr error, run runIdentity) runJSON {
	out := runResultJSON(res)
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
		if err := writeJSON(stdout, runEnvelope(res, outErr, run)); err != nil {
			return err
		}
		if runErr != nil || outErr != nil {
			return exitError{code: 1}
		}
		return nil
	}
	if runErr == nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, answerText(res.Answer)))
	}
	fmt.Fprintln(stderr, st.summary(res.Status, res.Turns, &res.Usage))
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
	return afterResult(stdout, stderr, runErr, outErr)
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

// directJSON is the --json output of rlm direct.
type directJSON struct {
	Status       string         `json:"status"`
	Answer       string         `json:"answer"`
	Turns        int            `json:"turns"`
	ToolCalls    int            `json:"tool_calls"`
	ContextCalls int            `json:"context_calls"`
	Usage        budget.Usage   `json:"usage"`
	Error        *fault.Error   `json:"error"`
	OutputError  *fault.Error   `json:"output_error,omitempty"`
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
		out := directJSON{Status: res.Status, Answer: res.Answer, Turns: res.Turns, ToolCalls: res.ToolCalls,
			ContextCalls: res.ContextCalls, Usage: res.Usage, Error: res.Error, Events: res.Events,
			RunID: run.id, Replayed: run.replayed}
		out.Error = withHint(out.Error)
		if outErr != nil {
			out.OutputError = asFault(outErr)
		}
		if err := writeJSON(stdout, out); err != nil {
			return err
		}
		if runErr != nil || outErr != nil {
			return exitError{code: 1}
		}
		return nil
	}
	if runErr == nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, res.Answer))
	}
	fmt.Fprintln(stderr, st.summary(res.Status, res.Turns, &res.Usage))
	return afterResult(stdout, stderr, runErr, outErr)
}
