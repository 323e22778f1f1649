package rlm

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// DefaultCommandCapabilities is the grant of a prompt command's parent
// when Spec.Allow is nil: the rlm_subagent tool and the context read
// operations.
func DefaultCommandCapabilities() []string {
	caps := []string{string(subagent.Capability)}
	for _, op := range []string{"peek", "slice", "search", "partition", "map", "reduce"} {
		caps = append(caps, string(capability.Context(op)))
	}
	return caps
}

// CommandResult is the outcome of a prompt command (RunCommand): the
// document rlm command --json prints.
type CommandResult struct {
	// Status is the child's envelope status (completed, failed or
	// cancelled); failed when no envelope came back, cancelled when the
	// command was interrupted.
	Status string `json:"status"`
	// Command is the compiled command that ran.
	Command *command.Command `json:"command"`
	// Envelope is the rlm_subagent envelope: the child's value, usage,
	// delegation and tool calls.
	Envelope *subagent.Envelope `json:"envelope"`
	// ParentReceived is the child_result message the parent agent
	// received.
	ParentReceived *agent.Reply `json:"parent_received"`
	// Error is the command's error (the envelope's when the child failed).
	Error *fault.Error `json:"error"`
	// OutputError reports an output (Spec.Record) that could not be
	// written after the command; the rest of the result is complete.
	OutputError error `json:"-"`
}

// Answer is the child's answer: the envelope's value decoded from JSON
// (nil without an envelope).
func (r *CommandResult) Answer() any {
	var v any
	if r.Envelope != nil {
		_ = json.Unmarshal(r.Envelope.Value, &v)
	}
	return v
}

// RunCommand runs the compiled prompt command c under spec (rlm command
// exec) and closes everything it opened. The command's parent agent holds
// Spec.Allow (nil: DefaultCommandCapabilities; an empty, non-nil list
// grants nothing) and calls rlm_subagent, whose child runs a completion
// with the Spec's provider, models and limits over the Spec's contexts,
// configured by Spec.Delegation and the command's delegation policy.
//
// The grant and the delegation are checked before the Spec is opened,
// the Spec (outputs, API key, tools) before any context is read. The
// result is nil when the command was refused before the child could
// start; otherwise it is returned with the command's error, if any.
func RunCommand(ctx context.Context, spec Spec, c command.Command, opts ...Option) (*CommandResult, error) {
	if _, _, _, err := spec.commandPlan(c); err != nil {
		return nil, err
	}
	s, err := Open(ctx, spec, opts...)
	if err != nil {
		return nil, err
	}
	res, err := s.RunCommand(ctx, c)
	if cerr := s.Close(); cerr != nil && res != nil {
		res.OutputError = errors.Join(res.OutputError, cerr)
	}
	return res, err
}

// RunCommand runs the compiled prompt command c with the session (see the
// function RunCommand): the child's engine is checked, the contexts are
// read, then rlm_subagent is registered for c under a parent agent
// holding the command's grant and called once; the parent's mailbox is
// handled for the child_result. The child's tool calls (tools its
// capabilities grant) go through the session's tools, in the session's
// run (or, when the session opened none, tools opened for the child).
// Spec.Trace and Spec.OTLP are not written by a command.
func (s *Session) RunCommand(ctx context.Context, c command.Command) (*CommandResult, error) {
	parent, d, r, err := s.spec.commandPlan(c)
	if err != nil {
		return nil, err
	}
	store := corpus.NewStore()
	defer store.Close()
	comp := &subagent.EngineCompleter{Config: s.childConfig(store)}
	if _, err := engine.New(comp.Config); err != nil {
		return nil, err
	}
	if comp.Context, err = s.childContext(ctx, store); err != nil {
		return nil, err
	}
	var auth *authority.Store
	if s.tools != nil {
		auth = s.tools.Runtime.Authority() // the child's calls are authorized where its tools run
	}
	host, err := newSubagentHost(parent, d.MaxAgents, auth, s.opts.onParentCancel)
	if err != nil {
		return nil, err
	}
	defer func() { _ = host.Close() }()
	if grantsTools(r.ChildCaps) {
		tools := s.tools
		if tools == nil {
			// The default grant opened no tools: the child's, sharing the
			// host's authority store.
			sp := s.spec
			sp.Allow, sp.Resume = r.ChildCaps.Strings(), ""
			if tools, err = openTools(ctx, sp, host.Runtime.Authority(), &mcpServers{file: sp.MCP}, s.opts.log); err != nil {
				return nil, err
			}
			defer tools.Close()
		}
		ctx = tools.WithRun(ctx)
		comp.Registry, comp.Invoker = tools.Registry, tools.Runtime
	}
	res := &CommandResult{Status: subagent.EnvelopeFailed, Command: &c}
	res.Envelope, res.ParentReceived, err = runCommand(ctx, host, c, r, d.Timeout, comp)
	if env := res.Envelope; env != nil {
		res.Status = env.Status
		if err == nil && env.Error != nil {
			err = env.Error
		}
	}
	if err != nil {
		res.Error = faultOf(err)
	}
	if fault.KindOf(err) == fault.KindCancelled {
		res.Status = subagent.EnvelopeCancelled
	}
	return res, err
}

// commandPlan checks the command's grant and delegation before anything
// is opened: the parent's capabilities, the host's options against them
// (DelegationSpec.Resolve) and against the command's policy.
func (sp Spec) commandPlan(c command.Command) (capability.Set, DelegationSpec, Delegation, error) {
	allow := sp.Allow
	if allow == nil {
		allow = DefaultCommandCapabilities()
	}
	d := sp.Delegation.withDefaults()
	parent, err := capability.NewSet(capability.SplitList(allow)...)
	if err != nil {
		return parent, d, Delegation{}, err
	}
	r, err := d.Resolve(parent)
	if err != nil {
		return parent, d, r, err
	}
	_, err = command.Delegate(c, subagent.Config{}, r.Host)
	return parent, d, r, err
}

// childContext reads the Spec's contexts into store for the child (an
// empty context when the Spec names none).
func (s *Session) childContext(ctx context.Context, store *corpus.Store) (corpus.Handle, error) {
	if len(s.spec.Context) == 0 {
		return store.AddString("context", "")
	}
	return s.addContext(ctx, store)
}

// faultOf is err as a *fault.Error (an untyped error becomes internal).
func faultOf(err error) *fault.Error {
	if fe := fault.As(err); fe != nil {
		return fe
	}
	return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, err.Error())
}

// runCommand registers rlm_subagent for the compiled command under the
// host's parent, executes it with the parent's capabilities and handles the
// parent's mailbox for the child_result.
func runCommand(ctx context.Context, host *SubagentHost, c command.Command, d Delegation, policy subagent.TimeoutPolicy, comp subagent.Completer) (*subagent.Envelope, *agent.Reply, error) {
	rt, parent := host.Runtime, host.Parent
	cfg, err := command.Delegate(c, host.Config(d, policy, comp), d.Host)
	if err != nil {
		return nil, nil, err
	}
	reg := tool.NewRegistry()
	if err := subagent.Register(reg, cfg); err != nil {
		return nil, nil, err
	}
	info, err := rt.Status(parent)
	if err != nil {
		return nil, nil, err
	}
	ex, err := command.Execute(ctx, c, tool.NewRuntime(reg, tool.Config{Authority: rt.Authority()}), info.Capabilities,
		command.Options{AuthorityContext: info.AuthorityContext})
	if err != nil {
		if kids, _ := rt.Children(parent); fault.KindOf(err) == fault.KindCancelled && len(kids) > 0 {
			// Interrupted: the child stops, and its envelope (status
			// cancelled, with what it spent) reaches the parent as its
			// child_result. Wait for it past the cancelled context, for
			// at most twice the supervision grace.
			env, reply := awaitChildResult(context.WithoutCancel(ctx), rt, parent, 2*max(policy.Grace, subagent.DefaultGrace))
			return env, reply, err
		}
		return ex.Envelope, nil, err
	}
	if ex.Envelope.Correlation.Child == nil {
		return ex.Envelope, nil, nil
	}
	// The child_result is already in the parent's mailbox (or was recorded
	// as backpressure); HandleNext consumes at most one message per call.
	for range 64 {
		pr, err := rt.HandleNext(ctx, parent, 50*time.Millisecond)
		if err != nil {
			return ex.Envelope, nil, err
		}
		if pr.Status == agent.HandledNothing {
			break
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			return ex.Envelope, pr.Reply, nil
		}
	}
	return ex.Envelope, nil, nil
}

// awaitChildResult handles parent's messages until a child_result arrives
// or wait passes, and returns the child's envelope with the reply.
func awaitChildResult(ctx context.Context, rt *agent.Runtime, parent agent.ID, wait time.Duration) (*subagent.Envelope, *agent.Reply) {
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, nil
		}
		pr, err := rt.HandleNext(ctx, parent, left)
		if err != nil {
			return nil, nil
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			env, derr := subagent.Decode(pr.Reply.Value)
			if derr != nil {
				return nil, pr.Reply
			}
			return env, pr.Reply
		}
	}
}
