package subagent

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// ArgsSchema is the closed argument schema of rlm_subagent.
const ArgsSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"description":"the task for the child agent"},` +
	`"timeout_seconds":{"type":"number","exclusiveMinimum":0,"description":"optional task time limit in seconds (host maximum applies)"}},` +
	`"required":["query"],"additionalProperties":false}`

// ResultSchema is the closed result schema of rlm_subagent.
const ResultSchema = `{"type":"object","required":["status","value","usage","correlation","delegation","trace"],` +
	`"properties":{` +
	`"status":{"enum":["completed","failed","cancelled"]},` +
	`"value":{},` +
	`"usage":{"type":"object"},` +
	`"correlation":{"type":"object","required":["runtime","parent","child"],"properties":{"runtime":{"type":"string"},"parent":{"type":"string"},"child":{"type":["string","null"]}},"additionalProperties":false},` +
	`"delegation":{"type":["object","null"]},` +
	`"trace":{"type":"array"},` +
	`"completion":{"type":"object"},` +
	`"error":{"type":"object","required":["phase","kind"]},` +
	`"timeout":{"type":"object","required":["source","requested_seconds","effective_seconds"]},` +
	`"skills":{"type":"object","required":["input","capabilities","active_units","rejected","fingerprint","catalog_fingerprint"]},` +
	`"tool_calls":{"type":"array","maxItems":32}},` +
	`"additionalProperties":false}`

const defaultDescription = "Delegate a self-contained task to a bounded child agent that runs a full completion over the host's context " +
	"with narrower capabilities, and return its result envelope {status, value, usage, correlation, delegation, trace, error?}."

type subagentTool struct {
	cfg    Config
	policy TimeoutPolicy
	deleg  Delegation
}

func configErr(msg string) *fault.Error { return fault.New(PhaseSubagent, KindInvalidConfig, msg) }

func newTool(cfg Config) (*subagentTool, error) {
	if cfg.ChildCapabilities.Has(Capability) {
		return nil, fault.New(PhaseSubagent, KindUnboundedRecursiveDelegation,
			"child capabilities may not include tool:rlm_subagent (unbounded recursive delegation)").With("capability", string(Capability))
	}
	if cfg.Runtime == nil || cfg.Parent == "" || cfg.Completer == nil {
		return nil, configErr("rlm_subagent needs an agent runtime, a parent agent and a completer")
	}
	if _, err := cfg.Runtime.Status(cfg.Parent); err != nil {
		return nil, fault.Wrap(err, PhaseSubagent, KindInvalidConfig, "the parent agent does not exist").With("parent", string(cfg.Parent))
	}
	if cfg.MaxOutputBytes < 0 {
		return nil, configErr("max output bytes must be positive")
	}
	cfg.MaxOutputBytes = cmp.Or(cfg.MaxOutputBytes, DefaultMaxOutputBytes)
	pol, err := cfg.Timeout.Resolve()
	if err != nil {
		return nil, err
	}
	d, err := cfg.Delegation.Normalize()
	if err != nil {
		return nil, err
	}
	if err := CheckSkills(cfg.Skills, d.Skills); err != nil {
		return nil, err
	}
	return &subagentTool{cfg: cfg, policy: pol, deleg: d}, nil
}

func (s *subagentTool) spec() tool.Spec {
	return tool.Spec{
		Name: Name, Description: cmp.Or(s.cfg.Description, defaultDescription), Capability: Capability, Effect: authority.EffectRead,
		Args: json.RawMessage(ArgsSchema), Result: json.RawMessage(ResultSchema),
		// The supervised call ends at effective+grace <= max+grace; the
		// tool's own limit adds one more grace so that a supervised-call
		// timeout is reported in the envelope, not as a tool timeout.
		Limits:  tool.Limits{TimeLimit: s.policy.Max + 2*s.policy.Grace, MaxOutputBytes: s.cfg.MaxOutputBytes},
		Handler: s.handle,
		// handle returns once its context ends (SupervisedCall returns at
		// once, then it waits at most a grace for the worker), so it runs
		// on the calling goroutine: a waiting child holds the caller's
		// goroutine and its worker's, not a third.
		Cooperative: true,
	}
}

type args struct {
	Query          string   `json:"query"`
	TimeoutSeconds *float64 `json:"timeout_seconds"`
}

// resolveTimeout applies the host policy to a requested timeout.
func (s *subagentTool) resolveTimeout(req *float64) (Timeout, time.Duration, *fault.Error) {
	if req == nil {
		return Timeout{Source: TimeoutDefault, EffectiveSeconds: s.policy.Default.Seconds()}, s.policy.Default, nil
	}
	v := *req
	if !(v > 0) || math.IsInf(v, 0) {
		return Timeout{}, 0, fault.New(PhaseSubagent, KindInvalidTimeout, "timeout_seconds must be a positive number").With("requested", v)
	}
	if v > s.policy.Max.Seconds() {
		return Timeout{}, 0, fault.New(PhaseSubagent, KindTimeoutExceedsMaximum, "the requested timeout exceeds the host maximum").
			With("requested", v).With("maximum", s.policy.Max.Seconds())
	}
	d := time.Duration(v * float64(time.Second))
	if d <= 0 {
		d = time.Nanosecond
	}
	return Timeout{Source: TimeoutModelRequest, RequestedSeconds: &v, EffectiveSeconds: v}, d, nil
}

// childCapabilities returns the configured child capabilities narrowed to
// the caller's grant: a caller narrower than the host's parent (a child
// agent, an MCP client granted less) never delegates a capability it does
// not hold itself; such a capability is left out of the child. One the
// host's parent lacks is kept, for Spawn to refuse: that is the host's
// misconfiguration, reported rather than hidden.
func (s *subagentTool) childCapabilities(caller capability.Set) (capability.Set, error) {
	info, err := s.cfg.Runtime.Status(s.cfg.Parent)
	if err != nil {
		return capability.Set{}, err
	}
	var caps []capability.Cap
	for _, c := range s.cfg.ChildCapabilities.List() {
		if caller.Has(c) || !info.Capabilities.Has(c) {
			caps = append(caps, c)
		}
	}
	return capability.Of(caps...), nil
}

func (s *subagentTool) handle(ctx context.Context, req tool.Request) (any, error) {
	var a args
	if err := json.Unmarshal(req.Args, &a); err != nil {
		return nil, fault.Wrap(err, fault.PhaseTool, tool.KindMalformedArgs, "arguments do not decode")
	}
	rt := s.cfg.Runtime
	env := &Envelope{Status: EnvelopeFailed, Value: json.RawMessage("null"), Trace: []agent.Event{},
		Correlation: Correlation{Runtime: rt.ID(), Parent: s.cfg.Parent}}
	to, effective, fe := s.resolveTimeout(a.TimeoutSeconds)
	if fe != nil {
		env.Error = fe
		return marshal(env)
	}
	env.Timeout = &to
	deleg := s.deleg
	env.Delegation = &deleg
	caps, err := s.childCapabilities(req.Capabilities)
	if err != nil {
		env.Error = fault.As(err)
		return marshal(env)
	}
	var skillText string
	if s.cfg.Skills != nil {
		// The child's skill instructions are compiled before the child
		// exists; a compile error (a budget, conflicting always units) is
		// a failed envelope with no child.
		comp, err := compileDelegation(ctx, s.cfg.Skills, a.Query, deleg, caps)
		if err != nil {
			env.Error = fault.As(err)
			if env.Error == nil {
				env.Error = fault.Wrap(err, PhaseSubagent, KindCompletionFailed, "the child's skills do not compile")
			}
			return marshal(env)
		}
		env.Skills, skillText = summarize(comp, caps), comp.Text
	}

	meta, _ := json.Marshal(map[string]any{"purpose": "delegation", "delegation": deleg})
	child, err := rt.Spawn(s.cfg.Parent, agent.Spec{Name: Name, Mode: agent.ModeRLM, Metadata: meta}, caps)
	if err != nil {
		env.Error = fault.As(err)
		env.Trace = rt.TraceOf(s.cfg.Parent, EnvelopeTraceLimit)
		return marshal(env)
	}
	env.Correlation.Child = &child
	// The child's own, authoritative identity: nothing here comes from the
	// caller or the model.
	info, err := rt.Status(child)
	if err != nil {
		env.Error = fault.As(err)
		return marshal(env)
	}
	creq := Request{
		Query: a.Query, Capabilities: info.Capabilities, AuthorityContext: info.AuthorityContext,
		RuntimeID: rt.ID(), Parent: s.cfg.Parent, Agent: child, TimeLimit: effective, Delegation: deleg, SkillText: skillText,
	}
	payload, _ := json.Marshal(map[string]any{"query": a.Query})
	work := agent.Work{Type: "completion", Payload: payload}
	w := &worker{ended: make(chan struct{})}
	val, err := rt.SupervisedCall(ctx, child, work, func(wctx context.Context, _ agent.ID, _ agent.Work) (json.RawMessage, error) {
		defer w.end()
		return s.complete(wctx, rt, child, creq, *env, w)
	}, effective+s.policy.Grace)
	if err == nil {
		// The worker built the envelope; the parent has received the same
		// bytes as its child_result. Completing the child releases its
		// live slot.
		if rt.Send(ctx, child, agent.Message{Type: agent.MsgComplete, Value: val}) == nil {
			_, _ = rt.HandleNext(ctx, child, 0)
		}
		return val, nil
	}
	if ctx.Err() != nil || fault.KindOf(err) == fault.KindCancelled {
		return s.cancelled(ctx, rt, child, env, w, err)
	}
	env.Error = fault.As(err)
	if env.Error == nil {
		env.Error = fault.Wrap(err, PhaseSubagent, KindCompletionFailed, "the child call failed")
	}
	if env.Error.Kind == fault.KindTimeout {
		// The supervisor cancelled a child that overran its time limit and
		// the grace: report what it spent once its worker stops, waiting
		// at most half a grace (the tool's own limit is one grace later).
		env.Usage, env.ToolCalls = w.wait(s.policy.Grace / 2)
	}
	env.Trace = rt.TraceOf(child, EnvelopeTraceLimit)
	return marshal(env)
}

// worker is what the handler learns from the worker running the child's
// completion: when it ended, what the child spent and the tool calls it
// made.
type worker struct {
	mu    sync.Mutex
	usage budget.Usage
	calls []tool.Trace
	once  sync.Once
	ended chan struct{}
}

func (w *worker) spent(u budget.Usage, calls []tool.Trace) {
	w.mu.Lock()
	w.usage, w.calls = u, calls
	w.mu.Unlock()
}

func (w *worker) end() { w.once.Do(func() { close(w.ended) }) }

// wait returns what the child spent and its tool calls once its worker
// has ended, waiting at most grace (a worker that was never dispatched
// never ends).
func (w *worker) wait(grace time.Duration) (budget.Usage, []tool.Trace) {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-w.ended:
	case <-t.C:
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.usage, w.calls
}

// cancelled builds the envelope of a cancelled call: status cancelled,
// Kind cancelled (status failed, Kind timeout, when the caller's deadline
// passed), the usage the child spent and the tool calls it made before it
// stopped. The envelope is
// the tool result and, always, the parent's child_result.
func (s *subagentTool) cancelled(ctx context.Context, rt *agent.Runtime, child agent.ID, env *Envelope, w *worker, err error) (json.RawMessage, error) {
	env.Value = json.RawMessage("null")
	env.Usage, env.ToolCalls = w.wait(s.policy.Grace)
	env.Error = fault.As(err)
	if env.Error == nil {
		env.Error = fault.As(fault.FromContext(PhaseSubagent, context.Cause(ctx)))
	}
	if env.Error == nil {
		env.Error = fault.Wrap(err, PhaseSubagent, fault.KindCancelled, "the subagent call was cancelled")
	}
	// A caller's deadline is a failure of Kind timeout; everything else
	// here is a cancellation.
	env.Status = EnvelopeCancelled
	if env.Error.Kind != fault.KindCancelled {
		env.Status = EnvelopeFailed
	}
	env.Trace = rt.TraceOf(child, EnvelopeTraceLimit)
	raw, merr := marshal(env)
	if merr != nil {
		return nil, merr
	}
	// The agent runtime delivers nothing for a cancelled child (whether
	// the caller's context ended or the child or its parent was cancelled
	// through the runtime), so the envelope is sent to the parent as its
	// child_result here: the parent always learns how its child ended,
	// even a cancelled parent (its mailbox can still be handled).
	_ = rt.Send(context.WithoutCancel(ctx), s.cfg.Parent, agent.Message{Type: agent.MsgChildResult, Child: child, Value: raw})
	return raw, nil
}

// complete runs on the agent runtime's worker: the child's completion,
// then the envelope, which becomes the child's result.
func (s *subagentTool) complete(ctx context.Context, rt *agent.Runtime, child agent.ID, req Request, env Envelope, w *worker) (json.RawMessage, error) {
	comp, err := s.cfg.Completer.Complete(ctx, req)
	// An envelope holds at most ToolCallTraceLimit tool calls (its
	// schema), whatever the completer reports.
	calls := slices.Clone(comp.ToolCalls[:min(len(comp.ToolCalls), ToolCallTraceLimit)])
	w.spent(comp.Usage, calls)
	env.ToolCalls = calls
	if ctx.Err() != nil {
		// Cancellation and the supervised deadline are the runtime's to
		// report; the handler builds the cancelled envelope.
		return nil, ctx.Err()
	}
	env.Usage = comp.Usage
	if err == nil && comp.Status == StatusCompleted {
		// Completed only once the answer encodes: an answer JSON cannot
		// hold (a NaN) fails the child rather than reading as null.
		if v, merr := json.Marshal(comp.Answer); merr != nil {
			err = fault.Wrap(merr, PhaseSubagent, KindCompletionFailed, "the child's answer does not encode as JSON")
		} else {
			env.Status, env.Value, env.Completion = EnvelopeCompleted, v, comp.Result
		}
	}
	if env.Status != EnvelopeCompleted {
		env.Error = comp.Error
		if env.Error == nil {
			env.Error = fault.As(err)
		}
		if env.Error == nil {
			// Wrap of a nil err leaves no cause.
			env.Error = fault.Wrap(err, PhaseSubagent, KindCompletionFailed, "the child completion failed").With("status", comp.Status)
		}
		env.Completion = nil
	}
	env.Trace = rt.TraceOf(child, EnvelopeTraceLimit)
	return marshal(&env)
}

func marshal(env *Envelope) (json.RawMessage, error) {
	env.Trace = orEmpty(env.Trace)
	b, err := json.Marshal(env)
	if err != nil {
		return nil, fault.Wrap(err, PhaseSubagent, fault.KindInternal, "the envelope does not encode")
	}
	return b, nil
}
