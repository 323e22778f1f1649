package rlm

import (
	"encoding/json"
	"slices"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// Statuses of a result: one vocabulary for every result document (the
// JSON the rlm command prints with --json, for run, direct, chat, demo,
// result, tools call, trace view and the failure of every other command;
// docs/cli.md).
const (
	StatusCompleted        = "completed"
	StatusFailed           = "failed"
	StatusCancelled        = "cancelled"
	StatusApprovalRequired = "approval_required"
)

// StatusOf maps the error of a result (a run's, a direct run's, a tool
// call's, or a command's failure) onto the status vocabulary: completed
// without one, approval_required for an operation that waits for an
// approval, cancelled for a cancellation (Ctrl-C, SIGTERM, a cancelled
// parent), failed for any other error. It is the one place the statuses
// are decided.
func StatusOf(fe *fault.Error) string {
	switch {
	case fe == nil:
		return StatusCompleted
	case fe.Kind == authority.KindApprovalRequired:
		return StatusApprovalRequired
	case fe.Kind == fault.KindCancelled:
		return StatusCancelled
	}
	return StatusFailed
}

// Envelope is the part every result document shares: status, error (the
// fault with its hint, null when completed), output_error (an output such
// as a trace or a cassette that could not be written after the result; the
// result is complete), approvals (the ids of the operations an
// approval_required result waits for) and approval_details (per id, what
// the operation would do). Each document embeds it next to its own fields;
// a failure without a result of its own is the envelope alone.
type Envelope struct {
	Status          string           `json:"status"`
	Error           *fault.Error     `json:"error"`
	OutputError     *fault.Error     `json:"output_error,omitempty"`
	Approvals       []string         `json:"approvals,omitempty"`
	ApprovalDetails []ApprovalDetail `json:"approval_details,omitempty"`
}

// ApprovalDetail is one operation that waits for an approval, as the
// effect journal persisted it: its id, the tool, what it would do (the
// normalized arguments and the preflight's resolved details, redacted),
// its operation fingerprint, and its state (pending, approved, denied,
// superseded) with the reason of a decision.
type ApprovalDetail struct {
	ID          string          `json:"id"`
	Tool        string          `json:"tool"`
	Effect      string          `json:"effect"`
	Args        json.RawMessage `json:"args"`
	Details     json.RawMessage `json:"details,omitempty"`
	Fingerprint string          `json:"fingerprint"`
	State       string          `json:"state"`
	Reason      string          `json:"reason,omitempty"`
}

// ApprovalDetailOf is the detail of a persisted approval.
func ApprovalDetailOf(a effect.Approval) ApprovalDetail {
	return ApprovalDetail{ID: a.ID, Tool: a.Tool, Effect: a.Effect, Args: a.Args, Details: a.Details,
		Fingerprint: a.Fingerprint, State: string(a.State), Reason: a.Reason}
}

// NewEnvelope is the envelope of an outcome: fe is its error (nil when it
// completed), pending the approval ids it reported, runID the run a resume
// continues. The status is StatusOf's; an approval_required one lists
// pending (and the error's approval_id) in approvals, and its error, a
// copy of fe, carries ApprovalHint(runID).
func NewEnvelope(fe *fault.Error, pending []string, runID string) Envelope {
	env := Envelope{Status: StatusOf(fe), Error: fe}
	if env.Status == StatusApprovalRequired {
		env.Approvals = slices.Clone(pending)
		if id, _ := fe.Detail["approval_id"].(string); id != "" && !slices.Contains(env.Approvals, id) {
			env.Approvals = append(env.Approvals, id)
		}
		c := *fe
		c.Hint = ApprovalHint(runID)
		env.Error = &c
	}
	return env
}

// AddApprovalDetails adds to an approval_required envelope the details of
// its approvals found in as (the run's persisted approvals,
// effect.Journal.Approvals), in the order of e.Approvals.
func (e *Envelope) AddApprovalDetails(as []effect.Approval) {
	if e.Status != StatusApprovalRequired {
		return
	}
	for _, id := range e.Approvals {
		if i := approvalIndex(as, id); i >= 0 {
			e.ApprovalDetails = append(e.ApprovalDetails, ApprovalDetailOf(as[i]))
		}
	}
}

// ApprovalHint says how to continue a result that waits for an approval;
// runID is the run to resume ("" names it RUN_ID). The pending operations
// are persisted in the run's effect journal: "rlm approve" lists and
// decides them (in Go: effect.Journal.Decide), and the run resumed
// (Spec.Resume) performs the approved ones once.
func ApprovalHint(runID string) string {
	if runID == "" {
		runID = "RUN_ID"
	}
	return "the operation waits for an approval: rlm approve " + runID + " lists what it would do; approve it with rlm approve " + runID +
		" APPROVAL_ID (or refuse it with --deny), then run the same command again with --resume " + runID
}

// RunEnvelope is the result document of a run (rlm run, demo, result, and
// chat one per line). RunID names the run whose effects a resume can
// replay; Replayed is true when a tool result of the run was a replayed
// effect; details holds the run's counters.
type RunEnvelope struct {
	Envelope
	Answer any `json:"answer"`
	// AnswerJSON is the answer as JSON when the run had an answer schema
	// (engine.Result.AnswerJSON).
	AnswerJSON json.RawMessage `json:"answer_json,omitempty"`
	Usage      any             `json:"usage"`
	RunID      string          `json:"run_id,omitempty"`
	Replayed   bool            `json:"replayed"`
	Trace      []trace.Event   `json:"trace"`
	Extra      map[string]any  `json:"details,omitempty"`
}

// RunEnvelopeOf is the document of an engine result of the run runID
// (RunID and Replayed are left for the caller: see Result.Envelope).
func RunEnvelopeOf(res *engine.Result, runID string) RunEnvelope {
	out := RunEnvelope{Envelope: NewEnvelope(res.Error, res.PendingApprovals, runID), Answer: res.Answer, AnswerJSON: res.AnswerJSON, Usage: res.Usage, Trace: res.Trajectory,
		Extra: map[string]any{"usage_by_depth": res.UsageByDepth, "counters": res.Counters, "recursion": res.Recursion, "turns": res.Turns, "partial": res.Partial, "elapsed_ms": res.ElapsedMS}}
	if out.Trace == nil {
		out.Trace = []trace.Event{}
	}
	if len(res.PendingApprovals) > 0 {
		out.Extra["pending_approvals"] = res.PendingApprovals
	}
	if res.AutoSplit != (engine.AutoSplit{}) {
		out.Extra["auto_split"] = res.AutoSplit
	}
	return out
}

// Envelope is the result document of r: its engine result, its run id,
// whether it replayed, details.auto for a ModeAuto run, and output_error
// when an output failed.
func (r *Result) Envelope() RunEnvelope {
	out := RunEnvelopeOf(r.Result, r.RunID)
	out.RunID, out.Replayed = r.RunID, r.Replayed
	if r.Auto != nil {
		out.Extra["auto"] = r.Auto
	}
	out.OutputError = outputFault(r.OutputError)
	return out
}

// DirectEnvelope is the result document of a direct run (rlm direct). Its
// status is the envelope's, not direct.Result's ok/error.
type DirectEnvelope struct {
	Envelope
	Answer string `json:"answer"`
	// AnswerJSON is the answer as JSON when the run had an answer schema
	// (direct.Result.AnswerJSON).
	AnswerJSON   json.RawMessage `json:"answer_json,omitempty"`
	Turns        int             `json:"turns"`
	ToolCalls    int             `json:"tool_calls"`
	ContextCalls int             `json:"context_calls"`
	Usage        budget.Usage    `json:"usage"`
	RunID        string          `json:"run_id,omitempty"`
	Replayed     bool            `json:"replayed"`
	Events       []direct.Event  `json:"events"`
}

// Envelope is the result document of r.
func (r *DirectResult) Envelope() DirectEnvelope {
	res := r.Result
	env := NewEnvelope(res.Error, nil, r.RunID)
	env.OutputError = outputFault(r.OutputError)
	return DirectEnvelope{Envelope: env,
		Answer: res.Answer, AnswerJSON: res.AnswerJSON, Turns: res.Turns, ToolCalls: res.ToolCalls, ContextCalls: res.ContextCalls, Usage: res.Usage,
		Events: res.Events, RunID: r.RunID, Replayed: r.Replayed}
}

// outputFault is the *fault.Error of an output that could not be written.
func outputFault(err error) *fault.Error {
	return fault.Or(err, fault.PhaseConfig, KindUnwritableOutput, "")
}

// approvalIndex is the index of the approval id in as, or -1.
func approvalIndex(as []effect.Approval, id string) int {
	return slices.IndexFunc(as, func(a effect.Approval) bool { return a.ID == id })
}
