package command

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// ResumeInput is what a continuation receives after a completed
// delegation.
type ResumeInput struct {
	Trigger            string               `json:"trigger"`
	PromptID           string               `json:"prompt_id"`
	CommandFingerprint string               `json:"command_fingerprint"`
	ChildResult        json.RawMessage      `json:"child_result"`
	Value              json.RawMessage      `json:"value"`
	Usage              budget.Usage         `json:"usage"`
	Correlation        subagent.Correlation `json:"correlation"`
	Delegation         *subagent.Delegation `json:"delegation"`
	Trace              []agent.Event        `json:"trace"`
}

// Continuation is trusted host code run exactly once with a completed
// child's result.
type Continuation func(ctx context.Context, in ResumeInput) (json.RawMessage, error)

// Resumption is the outcome of Resume.
type Resumption struct {
	Command      Command         `json:"command"`
	ChildResult  json.RawMessage `json:"child_result"`
	Input        ResumeInput     `json:"resume_input"`
	Continuation json.RawMessage `json:"continuation"`
	Trace        ResumeTrace     `json:"trace"`
}

// ResumeTrace records a resumed delegation.
type ResumeTrace struct {
	Status             string     `json:"status"`
	CommandFingerprint string     `json:"command_fingerprint"`
	Tool               tool.Trace `json:"tool"`
}

// Resume compiles trigger against kb, registers rlm_subagent for the
// compiled command in a temporary registry, executes the command with the
// parent's recorded capabilities and, only when the child envelope is
// completed, calls cont exactly once. A compile error is returned before
// anything is spawned; a tool error (such as capability_denied) is
// returned as is; a failed child never resumes (child_failed, with the
// envelope's error as cause).
func Resume(ctx context.Context, kb *KB, trigger string, host Host, cont Continuation) (*Resumption, error) {
	if cont == nil || host.Runtime == nil {
		return nil, fault.New(PhaseResume, KindInvalidContinuation, "resume needs an agent runtime and a continuation")
	}
	info, err := host.Runtime.Status(host.Parent)
	if err != nil {
		return nil, err
	}
	cmd, err := Compile(kb, trigger)
	if err != nil {
		return nil, err
	}
	base := host.Subagent
	base.Runtime, base.Parent = host.Runtime, host.Parent
	cfg, err := SubagentConfig(cmd, base)
	if err != nil {
		return nil, err
	}
	reg := tool.NewRegistry()
	if err := subagent.Register(reg, cfg); err != nil {
		return nil, fault.Wrap(err, PhaseResume, KindRegistrationFailed, "rlm_subagent could not be registered")
	}
	tcfg := host.Tool
	if tcfg.Authority == nil {
		tcfg.Authority = host.Runtime.Authority()
	}
	ex, err := Execute(ctx, cmd, tool.NewRuntime(reg, tcfg), info.Capabilities, host.Options)
	if err != nil {
		return nil, err
	}
	env := ex.Envelope
	if env.Status != subagent.EnvelopeCompleted {
		return nil, childErr(env)
	}
	in := ResumeInput{
		Trigger: trigger, PromptID: cmd.PromptID, CommandFingerprint: cmd.Fingerprint, ChildResult: ex.Result.Value,
		Value: env.Value, Usage: env.Usage, Correlation: env.Correlation, Delegation: env.Delegation, Trace: env.Trace,
	}
	v, err := callOnce(ctx, cont, in)
	if err != nil {
		return nil, err
	}
	return &Resumption{
		Command: cmd, ChildResult: ex.Result.Value, Input: in, Continuation: v,
		Trace: ResumeTrace{Status: "resumed", CommandFingerprint: cmd.Fingerprint, Tool: ex.Result.Trace},
	}, nil
}

func childErr(env *subagent.Envelope) error {
	kind := KindChildFailed
	if env.Error != nil {
		switch env.Error.Kind {
		case fault.KindCancelled:
			kind = KindChildCancelled
		case fault.KindTimeout, budget.KindTimeLimit:
			kind = KindChildTimeout
		}
		// max_depth_exceeded is a budget kind also when plan validation
		// (phase validate) reports it.
		if (env.Error.Phase == fault.PhaseBudget && env.Error.Kind != budget.KindTimeLimit) || env.Error.Kind == budget.KindMaxDepth {
			kind = KindChildBudgetExhausted
		}
	}
	fe := fault.New(PhaseResume, kind, "the child did not complete; the parent does not resume")
	if env.Error != nil {
		fe.Cause = env.Error
		fe.With("child_kind", string(env.Error.Kind))
	}
	if env.Correlation.Child != nil {
		fe.With("child", string(*env.Correlation.Child))
	}
	return fe
}

func callOnce(ctx context.Context, cont Continuation, in ResumeInput) (v json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fault.New(PhaseResume, KindContinuationPanic, "the continuation panicked").With("panic", fmt.Sprint(p))
		}
	}()
	v, err = cont(ctx, in)
	if err != nil {
		if ctx.Err() != nil {
			// The resume's context ended: a cancellation (or timeout),
			// typed even when the continuation's error is not.
			if fault.As(err) != nil {
				return nil, err
			}
			return nil, fault.Wrap(err, PhaseResume, fault.KindOf(fault.FromContext(PhaseResume, ctx.Err())), "the continuation ended with the resume's context")
		}
		return nil, fault.Wrap(err, PhaseResume, KindContinuationError, "the continuation failed")
	}
	if v == nil {
		v = json.RawMessage("null")
	}
	if !json.Valid(v) {
		return nil, fault.New(PhaseResume, KindInvalidContinuation, "the continuation returned invalid JSON")
	}
	return v, nil
}
