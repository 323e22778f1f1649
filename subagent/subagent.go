// Package subagent provides rlm_subagent, the bounded delegation tool: an
// ordinary tool registered into a tool.Registry (capability
// tool:rlm_subagent, effect read) that spawns a child agent of a
// host-configured parent, runs one full completion for the model's query
// on the agent runtime's worker pool, and returns a closed envelope.
//
// Everything that shapes the child comes from the host at registration:
// the agent runtime and parent, the child capabilities, the completer
// (which holds the context), the timeout policy and the delegation
// provenance. The model supplies only {query, timeout_seconds?}. The
// child's capabilities, authority context and ids are always the child's
// own.
package subagent

import (
	"cmp"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
)

// Name is the tool name.
const Name = "rlm_subagent"

// Capability is the capability a caller needs to invoke the tool.
var Capability = capability.Tool(Name)

// PhaseSubagent is the phase of errors reported by this package.
const PhaseSubagent fault.Phase = "subagent"

// Error kinds reported by this package.
const (
	KindInvalidConfig                fault.Kind = "invalid_subagent_config"
	KindUnboundedRecursiveDelegation fault.Kind = "unbounded_recursive_delegation"
	KindInvalidTimeoutPolicy         fault.Kind = "invalid_subagent_timeout_policy"
	KindTimeoutExceedsMaximum        fault.Kind = "timeout_exceeds_maximum"
	KindInvalidTimeout               fault.Kind = "invalid_timeout"
	KindInvalidRole                  fault.Kind = "invalid_subagent_role"
	KindInvalidSkills                fault.Kind = "invalid_subagent_skills"
	KindInvalidDelegationSource      fault.Kind = "invalid_delegation_source"
	KindCompletionFailed             fault.Kind = "completion_failed"
)

// Default timeout policy and limits.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultMaxTimeout     = 300 * time.Second
	DefaultGrace          = 2 * time.Second
	DefaultMaxOutputBytes = 64 << 10
	// EnvelopeTraceLimit bounds the agent events carried in an envelope.
	EnvelopeTraceLimit = 32
	// ToolCallTraceLimit bounds the child tool-call traces in an envelope.
	ToolCallTraceLimit = 32
	// MaxSkills bounds the skills of a delegation.
	MaxSkills = 64
)

// TimeoutPolicy is the host-owned task timeout policy. Zero fields take
// the defaults (30 s, 300 s, 2 s).
type TimeoutPolicy struct {
	// Default is the child's time limit when the model requests none.
	Default time.Duration
	// Max is the largest time limit a model may request.
	Max time.Duration
	// Grace is added to the child's time limit for the supervised call.
	Grace time.Duration
}

// Resolve fills defaults and validates the policy.
func (p TimeoutPolicy) Resolve() (TimeoutPolicy, error) {
	if p.Default < 0 || p.Max < 0 || p.Grace < 0 {
		return p, fault.New(PhaseSubagent, KindInvalidTimeoutPolicy, "timeout policy values must be positive")
	}
	p.Default = cmp.Or(p.Default, DefaultTimeout)
	p.Max = cmp.Or(p.Max, DefaultMaxTimeout)
	p.Grace = cmp.Or(p.Grace, DefaultGrace)
	if p.Default > p.Max {
		return p, fault.New(PhaseSubagent, KindInvalidTimeoutPolicy, "the default timeout exceeds the maximum").
			With("default_seconds", p.Default.Seconds()).With("max_seconds", p.Max.Seconds())
	}
	return p, nil
}

// Delegation sources.
const (
	SourceTrustedHost   = "trusted_host"
	SourcePromptCommand = "prompt_command"
)

// Source is the provenance of a delegation.
type Source struct {
	Kind        string `json:"kind"`
	PromptID    string `json:"prompt_id,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
}

// Delegation is the host-chosen role, skills and provenance of a child.
type Delegation struct {
	Role   string   `json:"role,omitempty"`
	Skills []string `json:"skills"`
	// ForbiddenSkills are skills the delegation excludes (a prompt
	// command's forbidden_skills): the skill compiler denies them, so
	// no activation, dependency or evidence brings one to the child.
	ForbiddenSkills []string `json:"forbidden_skills,omitempty"`
	// Model is the child's model when the host chose one.
	Model  string `json:"model,omitempty"`
	Source Source `json:"source"`
	// Provenance records, per option, whether the host or the knowledge
	// base set it (sorted by option, value, source).
	Provenance []Provenance `json:"provenance"`
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]([a-z0-9-]{0,62}[a-z0-9])?$`) })

// ValidName reports whether s is a role or skill name: 1-64 of [a-z0-9-],
// starting with a letter, ending with a letter or digit, without "--".
func ValidName(s string) bool { return nameRE().MatchString(s) && !strings.Contains(s, "--") }

// normalizeSkills returns skills sorted and distinct, at most MaxSkills
// valid names.
func normalizeSkills(skills []string) ([]string, error) {
	skills = slices.Clone(skills)
	slices.Sort(skills)
	skills = slices.Compact(skills)
	if len(skills) > MaxSkills {
		return nil, fault.New(PhaseSubagent, KindInvalidSkills, "too many delegation skills").With("skills", len(skills)).With("max", MaxSkills)
	}
	for _, s := range skills {
		if !ValidName(s) {
			return nil, fault.New(PhaseSubagent, KindInvalidSkills, "invalid delegation skill").With("skill", s)
		}
	}
	return skills, nil
}

var fpRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })

// Normalize validates d and returns it with a default source and sorted,
// deduplicated skills and forbidden skills; a skill both given and
// forbidden is invalid_subagent_skills.
func (d Delegation) Normalize() (Delegation, error) {
	if d.Role != "" && !ValidName(d.Role) {
		return d, fault.New(PhaseSubagent, KindInvalidRole, "invalid delegation role").With("role", d.Role)
	}
	skills, err := normalizeSkills(d.Skills)
	if err != nil {
		return d, err
	}
	forbidden, err := normalizeSkills(d.ForbiddenSkills)
	if err != nil {
		return d, err
	}
	for _, s := range skills {
		if slices.Contains(forbidden, s) {
			return d, fault.New(PhaseSubagent, KindInvalidSkills, "a delegation skill is also forbidden").With("skill", s)
		}
	}
	d.Skills = orEmpty(skills)
	d.ForbiddenSkills = forbidden
	if d.Model != "" && (len(d.Model) > 256 || strings.ContainsAny(d.Model, " \t\r\n")) {
		return d, fault.New(PhaseSubagent, KindInvalidConfig, "the child model is 1-256 bytes without spaces")
	}
	prov, err := normalizeProvenance(d.Provenance)
	if err != nil {
		return d, err
	}
	d.Provenance = prov
	switch d.Source.Kind {
	case "", SourceTrustedHost:
		if d.Source.PromptID != "" || d.Source.Fingerprint != "" {
			return d, fault.New(PhaseSubagent, KindInvalidDelegationSource, "a trusted_host source carries no prompt id or fingerprint")
		}
		d.Source = Source{Kind: SourceTrustedHost}
	case SourcePromptCommand:
		if d.Source.PromptID == "" || len(d.Source.PromptID) > 128 || !fpRE().MatchString(d.Source.Fingerprint) {
			return d, fault.New(PhaseSubagent, KindInvalidDelegationSource, "a prompt_command source needs a prompt id (1-128 bytes) and a sha256:HEX fingerprint")
		}
	default:
		return d, fault.New(PhaseSubagent, KindInvalidDelegationSource, "unknown delegation source").With("kind", d.Source.Kind)
	}
	return d, nil
}

// Request is what a Completer receives. Capabilities, AuthorityContext,
// RuntimeID, Parent and Agent are always the child's own, set by the tool.
type Request struct {
	Query            string
	Capabilities     capability.Set
	AuthorityContext string
	RuntimeID        string
	Parent           agent.ID
	Agent            agent.ID
	// TimeLimit is the child's wall-time budget (the effective timeout).
	TimeLimit  time.Duration
	Delegation Delegation
	// SkillText is the child's skill instructions compiled by the prompt
	// compiler from the host's skill catalog; empty without one.
	SkillText string
}

// Completion statuses, as reported by a Completer.
const (
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Completion is the outcome of one child completion.
type Completion struct {
	// Status is "completed" or anything else (failed, cancelled).
	Status string
	// Answer is the final value of a completed run.
	Answer any
	// Usage is what the child spent, also on failure.
	Usage budget.Usage
	// Error is the typed error of a failed run.
	Error *fault.Error
	// Result is the full completion result as closed JSON.
	Result json.RawMessage
	// ToolCalls are the tool runtime's traces of the child's tool calls.
	ToolCalls []tool.Trace
}

// Completer runs one full completion for a child. The host wires it to the
// engine (see EngineCompleter); it must honour ctx.
type Completer interface {
	Complete(ctx context.Context, req Request) (Completion, error)
}

// CompleterFunc adapts a function to Completer.
type CompleterFunc func(ctx context.Context, req Request) (Completion, error)

// Complete calls f.
func (f CompleterFunc) Complete(ctx context.Context, req Request) (Completion, error) {
	return f(ctx, req)
}

// Config is the host-owned configuration of one registration.
type Config struct {
	// Runtime and Parent: children are spawned under Parent in Runtime.
	Runtime *agent.Runtime
	Parent  agent.ID
	// ChildCapabilities are the child's capabilities, narrowed against
	// the parent's at each spawn. They may not include tool:rlm_subagent.
	ChildCapabilities capability.Set
	// Completer runs the child's completion over the host's context.
	Completer Completer
	// Timeout is the task timeout policy.
	Timeout TimeoutPolicy
	// Delegation is the role, skills and provenance recorded for every
	// child; the zero value is a trusted_host delegation with no role.
	Delegation Delegation
	// MaxOutputBytes bounds the envelope. Default 64 KiB.
	MaxOutputBytes int64
	// Description overrides the description shown to models.
	Description string
	// Skills is the host's skill catalog (prompt units of kind skill).
	// When set, the delegated skills must be in it, and each child's
	// instructions are compiled from it for the child's query and
	// capabilities (see CompileSkills).
	Skills *prompt.Catalog
}

// Register validates cfg and registers rlm_subagent into reg. It fails
// closed with unbounded_recursive_delegation when the child capabilities
// include tool:rlm_subagent; nothing is registered on any error.
func Register(reg *tool.Registry, cfg Config) error {
	s, err := newTool(cfg)
	if err != nil {
		return err
	}
	return reg.Register(s.spec())
}

// Timeout is the resolved timeout of one call.
type Timeout struct {
	// Source is "default" or "model_request".
	Source           string   `json:"source"`
	RequestedSeconds *float64 `json:"requested_seconds"`
	EffectiveSeconds float64  `json:"effective_seconds"`
}

// Timeout sources.
const (
	TimeoutDefault      = "default"
	TimeoutModelRequest = "model_request"
)

// Correlation ties an envelope to its runtime, parent and child. Child is
// nil when no child was created.
type Correlation struct {
	Runtime string    `json:"runtime"`
	Parent  agent.ID  `json:"parent"`
	Child   *agent.ID `json:"child"`
}

// Envelope statuses.
const (
	EnvelopeCompleted = "completed"
	EnvelopeFailed    = "failed"
	// EnvelopeCancelled: the call or the child was cancelled (the
	// caller's context ended, or the child or its parent was cancelled).
	// Its error has Kind cancelled and its usage is what the child spent.
	EnvelopeCancelled = "cancelled"
)

// Envelope is the closed result of one rlm_subagent call. A failure is an
// envelope with status failed (or cancelled), not a tool error.
type Envelope struct {
	Status      string          `json:"status"`
	Value       json.RawMessage `json:"value"`
	Usage       budget.Usage    `json:"usage"`
	Correlation Correlation     `json:"correlation"`
	// Delegation is nil when the call failed before it was resolved.
	Delegation *Delegation     `json:"delegation"`
	Trace      []agent.Event   `json:"trace"`
	Completion json.RawMessage `json:"completion,omitempty"`
	Error      *fault.Error    `json:"error,omitempty"`
	Timeout    *Timeout        `json:"timeout,omitempty"`
	// Skills is the prompt compile of the child's skills, when the host
	// configured a skill catalog.
	Skills *SkillCompile `json:"skills,omitempty"`
	// ToolCalls are the tool runtime's traces of the child's own tool
	// calls: tool, authorization, tier (authority) and owner (the child's
	// authority context agent:R/C), status.
	ToolCalls []tool.Trace `json:"tool_calls,omitempty"`
}

// Decode parses an envelope from a tool result value.
func Decode(raw json.RawMessage) (*Envelope, error) {
	// The envelope is closed; its error is a fault.Error whose JSON may
	// carry a nested cause, which decodes into nothing.
	type closed Envelope
	var wire struct {
		closed
		Error json.RawMessage `json:"error,omitempty"`
		// Trace events carry typed errors too, whose causes decode into
		// nothing.
		Trace json.RawMessage `json:"trace"`
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&wire); err != nil {
		return nil, fault.Wrap(err, PhaseSubagent, fault.KindMalformed, "the value is not a subagent envelope")
	}
	env := Envelope(wire.closed)
	if len(wire.Trace) > 0 && string(wire.Trace) != "null" {
		if err := json.Unmarshal(wire.Trace, &env.Trace); err != nil {
			return nil, fault.Wrap(err, PhaseSubagent, fault.KindMalformed, "the envelope trace is not a list of agent events")
		}
	}
	if len(wire.Error) > 0 && string(wire.Error) != "null" {
		var fe struct {
			Phase   fault.Phase    `json:"phase"`
			Kind    fault.Kind     `json:"kind"`
			Message string         `json:"message"`
			Detail  map[string]any `json:"detail"`
		}
		if err := json.Unmarshal(wire.Error, &fe); err != nil || fe.Kind == "" {
			return nil, fault.New(PhaseSubagent, fault.KindMalformed, "the envelope error is not a typed error")
		}
		env.Error = &fault.Error{Phase: fe.Phase, Kind: fe.Kind, Message: fe.Message, Detail: fe.Detail}
	}
	if env.Status != EnvelopeCompleted && env.Status != EnvelopeFailed && env.Status != EnvelopeCancelled {
		return nil, fault.New(PhaseSubagent, fault.KindMalformed, "unknown envelope status").With("status", env.Status)
	}
	return &env, nil
}
