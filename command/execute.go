package command

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// Starter starts tool calls on the asynchronous path of the canonical tool
// runtime; *tool.Runtime implements it.
type Starter interface {
	Start(ctx context.Context, call tool.Call) *tool.Future
}

var _ Starter = (*tool.Runtime)(nil)

// Options are the caller's invocation options, passed to the tool runtime
// unchanged. They can only tighten limits; they never add capabilities.
type Options struct {
	CallOptions      tool.CallOptions
	AuthorityContext string
	Correlation      authority.Correlation
}

// Trace statuses of an Execution.
const (
	TraceInvoked         = "invoked"
	TraceCommandRejected = "command_rejected"
)

// Trace records what Execute did.
type Trace struct {
	// Status is invoked or command_rejected (no tool call was made).
	Status string `json:"status"`
	// Authorization is the tool runtime's, or denied for a rejection.
	Authorization string `json:"authorization"`
	// Tool is the tool runtime's trace of the invocation.
	Tool *tool.Trace `json:"tool,omitempty"`
}

// Execution is the outcome of Execute.
type Execution struct {
	Command Command `json:"command"`
	// Result is the tool runtime's result, unchanged.
	Result tool.Result `json:"result"`
	// Envelope is the decoded rlm_subagent envelope when the tool call
	// succeeded.
	Envelope *subagent.Envelope `json:"envelope,omitempty"`
	Trace    Trace              `json:"trace"`
}

// Start verifies c and starts its tool call on the asynchronous path of rt
// with the caller's capabilities. The arguments are derived only from the
// compiled command by its adapter's payload rule: {"query": c.Text}. A
// rejected command returns the
// typed error and makes no tool call.
func Start(ctx context.Context, c Command, rt Starter, caps capability.Set, opts Options) (*tool.Future, error) {
	if err := Verify(c); err != nil {
		return nil, err
	}
	// The payload rule is the adapter's (Verify): every argument is taken
	// from the compiled text, the only payload source.
	payload := make(map[string]string, len(c.Payload))
	for arg := range c.Payload {
		payload[arg] = c.Text
	}
	args, err := json.Marshal(payload)
	if err != nil {
		return nil, fault.Wrap(err, PhaseExecute, KindInvalidCommand, "the command text does not encode")
	}
	call := tool.Call{
		Name: subagent.Name, Args: args, Options: opts.CallOptions,
		Invocation: tool.Invocation{Capabilities: caps, AuthorityContext: opts.AuthorityContext, Correlation: opts.Correlation},
	}
	return rt.Start(ctx, call), nil
}

// Execute runs c through the canonical tool runtime and waits for the
// outcome. The error is the typed refusal of whichever layer refused: the
// executor (invalid_command, unsupported_command, invalid_fingerprint;
// no tool call was made), the tool runtime (for example capability_denied,
// returned as the runtime reported it), or ctx's own end as Kind
// cancelled (timeout for a deadline). A completed
// call returns the envelope, whose status may still be failed.
func Execute(ctx context.Context, c Command, rt Starter, caps capability.Set, opts Options) (Execution, error) {
	ex := Execution{Command: c}
	f, err := Start(ctx, c, rt, caps, opts)
	if err != nil {
		fe := fault.As(err)
		ex.Result = tool.Result{Status: tool.StatusError, Error: fe}
		ex.Trace = Trace{Status: TraceCommandRejected, Authorization: tool.AuthDenied}
		return ex, err
	}
	res, err := f.Await(ctx)
	if err != nil {
		f.Cancel()
		// The caller's cancellation is typed (Kind cancelled, or timeout
		// for a deadline). The child's envelope, status cancelled, goes
		// to the parent as its child_result (see subagent).
		if ctx.Err() != nil && fault.As(err) == nil {
			err = fault.FromContext(PhaseExecute, context.Cause(ctx))
			if fault.As(err) == nil {
				// A plain cause (context.WithCancelCause): still the
				// caller's cancellation (or deadline), typed.
				err = fault.Wrap(err, PhaseExecute, fault.KindOf(fault.FromContext(PhaseExecute, ctx.Err())), "the caller's context ended")
			}
		}
		return ex, err
	}
	ex.Result = res
	tr := res.Trace
	ex.Trace = Trace{Status: TraceInvoked, Authorization: tr.Authorization, Tool: &tr}
	switch res.Status {
	case tool.StatusOK:
		env, err := subagent.Decode(res.Value)
		if err != nil {
			return ex, fault.Wrap(err, PhaseExecute, KindMalformedChildResult, "the tool returned no subagent envelope")
		}
		ex.Envelope = env
		return ex, nil
	case tool.StatusError:
		if res.Error != nil {
			return ex, res.Error
		}
	}
	return ex, fault.New(PhaseExecute, fault.KindInternal, fmt.Sprintf("unexpected tool status %q", res.Status))
}

// Host is the trusted configuration of a delegation resume.
type Host struct {
	// Runtime and Parent: the child is spawned under Parent; the
	// parent's capabilities are read from the runtime, never supplied.
	Runtime *agent.Runtime
	Parent  agent.ID
	// Subagent is the base registration (child capabilities, completer,
	// timeout policy). Runtime and Parent are set from the fields above;
	// the delegation comes from the compiled command.
	Subagent subagent.Config
	// Tool configures the temporary tool runtime; its Authority defaults
	// to the agent runtime's store.
	Tool tool.Config
	// Options are passed to Execute.
	Options Options
}
