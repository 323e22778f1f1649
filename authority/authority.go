// Package authority decides whether an effectful operation may run now,
// must wait for a human, or replays an earlier outcome.
//
// Authority is independent of capabilities: a capability says a scope may
// name a tool at all; an authority tier says whether an effect runs without
// approval. Tiers, strict to broad:
//
//	approve_diff  (the default) every effect becomes a pending operation
//	allow_once    exactly one effect runs, then the context is approve_diff
//	allow_session effects run
//	dangerous     effects run; only the approval step is skipped
//
// Read effects never need approval. Pending operations hold no worker: they
// are records with a private continuation that runs, once, when approved.
// The execution claim, made under the store mutex, is the single
// linearization point between approve and cancel.
package authority

import (
	"fmt"
	"slices"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
)

// PhaseAuthority is the phase of errors from this package.
const PhaseAuthority fault.Phase = "authority"

// Error kinds reported by this package.
const (
	KindInvalidTier        fault.Kind = "invalid_tier"
	KindInvalidOperation   fault.Kind = "invalid_authority_operation"
	KindAllowOnceInFlight  fault.Kind = "allow_once_in_progress"
	KindApprovalNotPending fault.Kind = "approval_not_pending"
	KindApprovalNotFound   fault.Kind = "approval_not_found"
	KindEditNotSupported   fault.Kind = "edit_not_supported"
	KindApprovalDenied     fault.Kind = "approval_denied"
	KindSuperseded         fault.Kind = "approval_superseded" // the record was replaced by another: an edit, or the same operation pending anew
	KindApprovalCancelled  fault.Kind = "approval_cancelled"

	// Outcomes of Authorize that its callers (the tool runtime, the
	// direct loop, the engine's tool adapter) report under their own
	// phase. They are declared here, where the decision is made, so each
	// is declared once.
	KindApprovalRequired fault.Kind = "approval_required" // the operation waits for a human decision
	KindDenied           fault.Kind = "authority_denied"  // the store refused the operation
)

// Tier is an authority tier.
type Tier string

// Tiers, strict to broad.
const (
	ApproveDiff  Tier = "approve_diff"
	AllowOnce    Tier = "allow_once"
	AllowSession Tier = "allow_session"
	Dangerous    Tier = "dangerous"
)

// DefaultTier is the tier of a context nobody has set.
const DefaultTier = ApproveDiff

// Tiers lists every tier, strict to broad.
var Tiers = []Tier{ApproveDiff, AllowOnce, AllowSession, Dangerous}

// Rank orders tiers from strict (0) to broad (3); an unknown tier is -1.
func (t Tier) Rank() int { return slices.Index(Tiers, t) }

// Valid reports whether t is one of the four tiers.
func (t Tier) Valid() bool { return t.Rank() >= 0 }

// ParseTier validates s. "" parses as DefaultTier.
func ParseTier(s string) (Tier, error) {
	if s == "" {
		return DefaultTier, nil
	}
	t := Tier(s)
	if !t.Valid() {
		return "", unknownTier(s)
	}
	return t, nil
}

// NarrowTier returns child if it is no broader than parent, otherwise an
// error with Kind widening_denied.
func NarrowTier(parent, child Tier) (Tier, error) {
	if !parent.Valid() || !child.Valid() {
		return "", fault.New(PhaseAuthority, KindInvalidTier, "unknown authority tier")
	}
	if child.Rank() > parent.Rank() {
		return "", fault.New(PhaseAuthority, capability.KindWideningDenied, "a child context may not hold a broader tier than its parent").
			With("parent", string(parent)).With("requested", string(child))
	}
	return child, nil
}

// Effect is the effect class of an operation. This is the one declaration
// of effect classes and their one type: tool.Spec.Effect, direct.Binding.Effect
// and Operation.Effect all use these values. Every class except
// EffectRead is effectful: it goes through the tier decision, and in the
// tool runtime through the durable effect journal.
type Effect string

// Effect classes. The six classes beyond read and write are not used by
// the built-in tools; they are the closed vocabulary a registered tool
// (for example an MCP tool) declares, shown by "rlm tools list", and each
// is effectful like write.
const (
	EffectRead               Effect = "read" // never needs approval
	EffectWrite              Effect = "write"
	EffectProcess            Effect = "process"
	EffectNetworkWrite       Effect = "network_write"
	EffectInstall            Effect = "install"
	EffectServiceStart       Effect = "service_start"
	EffectServiceStop        Effect = "service_stop"
	EffectRepositoryMutation Effect = "repository_mutation"
)

var effects = []Effect{EffectRead, EffectWrite, EffectProcess, EffectNetworkWrite, EffectInstall, EffectServiceStart, EffectServiceStop, EffectRepositoryMutation}

// Valid reports whether e is one of the eight effect classes.
func (e Effect) Valid() bool { return slices.Contains(effects, e) }

// Correlation identifies where an operation came from. It is recorded for
// observability and never part of an operation's identity.
type Correlation struct {
	TraceID   string `json:"trace_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	RuntimeID string `json:"runtime_id,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	RunID     string `json:"run_id,omitempty"`
	CallID    string `json:"call_id,omitempty"`
}

// Operation is the exact thing to be authorized.
type Operation struct {
	// Context is the authority context (owner), for example "session:s1".
	Context string `json:"context"`
	// Tool, Effect and Capability are required.
	Tool       string `json:"tool"`
	Effect     Effect `json:"effect"`
	Capability string `json:"capability"`
	// Args are the normalized arguments as decoded JSON.
	Args any `json:"args"`
	// Details are what the preflight resolved (for example a path).
	Details map[string]any `json:"details"`
	// Correlation is excluded from the fingerprint.
	Correlation Correlation `json:"-"`
	// Ceiling, when set, is the broadest tier this operation may run
	// under, whatever its context's tier: the host's decision for the tool
	// (for example an MCP server's "authority"). It only narrows: an
	// operation runs under the stricter of its context's tier and its
	// ceiling. It is not part of the operation's identity (fingerprint).
	// allow_once is not a ceiling (see ValidCeiling).
	Ceiling Tier `json:"-"`
}

// ValidCeiling reports whether t may be an operation's Ceiling: "" (none),
// approve_diff, allow_session or dangerous. allow_once is a one-shot grant
// of a context, not a bound, so it is refused as a ceiling.
func ValidCeiling(t Tier) bool { return t == "" || (t.Valid() && t != AllowOnce) }

// Capped returns the tier an operation with ceiling c runs under in a
// context of tier t: the stricter of the two (t when c is "").
func Capped(t, c Tier) Tier {
	if c != "" && c.Valid() && c.Rank() < t.Rank() {
		return c
	}
	return t
}

// Fingerprint returns "sha256:<hex>" over the canonical JSON of the
// operation without its correlation. The context is included, so the same
// operation in two contexts has two fingerprints; any change to the
// executable payload changes it.
func (op Operation) Fingerprint() (string, error) {
	if op.Context == "" || op.Tool == "" || op.Effect == "" || op.Capability == "" {
		return "", fault.New(PhaseAuthority, KindInvalidOperation, "operation needs context, tool, effect and capability")
	}
	details := op.Details
	if details == nil {
		details = map[string]any{}
	}
	m := map[string]any{
		"context": op.Context, "tool": op.Tool, "effect": string(op.Effect), "capability": op.Capability,
		"args": op.Args, "details": details,
	}
	// Fast path: arguments decoded with UseNumber are already generic JSON.
	if c, err := fingerprint.AppendCanonicalValue(nil, m); err == nil {
		return fingerprint.Bytes(c), nil
	}
	fp, err := fingerprint.Of(m)
	if err != nil {
		return "", fault.Wrap(err, PhaseAuthority, KindInvalidOperation, "operation is not canonical JSON")
	}
	return fp, nil
}

func unknownTier(t string) error {
	return fault.New(PhaseAuthority, KindInvalidTier, "unknown authority tier").With("tier", t)
}

func notFound(id string) error {
	return fault.New(PhaseAuthority, KindApprovalNotFound, "no such pending operation").With("approval_id", id)
}

func notPending(id string, st State) error {
	return fault.New(PhaseAuthority, KindApprovalNotPending, "the operation is not pending").
		With("approval_id", id).With("state", string(st))
}

func approvalID(n uint64) string { return fmt.Sprintf("approval_%d", n) }
