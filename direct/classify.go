package direct

import (
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// BindingKind says how a resolved call is dispatched.
type BindingKind string

// Binding kinds.
const (
	// BindContext is a built-in context tool over the run's input.
	BindContext BindingKind = "context"
	// BindTool is a registered tool run through the canonical tool runtime.
	BindTool BindingKind = "tool"
)

// Binding is a trusted catalog entry: what a tool name resolves to. It is
// internal: no part of it ever reaches the model.
type Binding struct {
	// Name is the function name shown to the model.
	Name string
	// Kind is context or tool.
	Kind BindingKind
	// Op is the context operation (search, slice, peek) of a context
	// binding.
	Op string
	// Effect is the effect class (authority.EffectRead, ...).
	Effect authority.Effect
}

// Effectful reports whether the binding's effect class is not read.
func (b Binding) Effectful() bool { return b.Effect != authority.EffectRead }

// Resolver is the trusted set of bindings a batch is classified against:
// it resolves a function name to its binding and validates a call's
// arguments against the binding's schema. Both methods must be free of side
// effects. (The module has one Catalog, the prompt compiler's
// prompt.Catalog of units.)
type Resolver interface {
	// Resolve returns the binding of a function name.
	Resolve(name string) (Binding, bool)
	// Validate checks a normalized call's arguments, as decoded from its
	// argument text (c.Raw), against the binding's schema. A schema
	// failure is schema/malformed_arguments with argument-level detail
	// only.
	Validate(b Binding, c Call) *fault.Error
}

// Catalog is the former name of Resolver.
//
// Deprecated: use Resolver.
type Catalog = Resolver

// StatusKind names the two classification outcomes.
type StatusKind string

// Status kinds.
const (
	StatusResolved  StatusKind = "resolved_call"
	StatusPreflight StatusKind = "preflight_fault"
)

// Status is the classification of one call: resolved_call{call, binding}
// or preflight_fault{call, binding or none, cause}. A preflight fault keeps
// the binding when the name resolved, so effect isolation sees it.
// Recoverable never means executable: only resolved calls run.
type Status struct {
	Kind    StatusKind
	Call    Call
	Binding *Binding // nil means none
	Cause   *fault.Error
}

// BatchState is what the batch invariants are checked against.
type BatchState struct {
	// Seen reports whether a call id was used in an earlier turn,
	// faulted calls included.
	Seen func(id string) bool
	// MaxCalls is the largest batch accepted (MaxNativeCallsPerBatch).
	MaxCalls int
	// ToolCallsLeft and ContextCallsLeft are the remaining budgets; a
	// negative value means unlimited.
	ToolCallsLeft    int
	ContextCallsLeft int
}

// Classify runs the one side-effect-free classification pass over the
// complete, original batch and then checks the batch invariants. Each call
// is resolved exactly once and, if it resolved and its arguments
// normalized, validated exactly once. Nothing executes here.
//
// The returned error is batch-fatal (phase native_call): more calls than
// MaxCalls (native_batch_too_large), an id seen in an earlier turn
// (duplicate_call_id), a per-call fault outside the recoverable whitelist
// (the fault's kind, with the fault as cause), any effectful call in a
// batch of more than one call, faulted or not
// (effectful_batch_unsupported), or more resolved calls than the remaining
// tool-call or context-op budget.
func Classify(batch []Entry, cat Resolver, st BatchState) ([]Status, error) {
	if st.MaxCalls > 0 && len(batch) > st.MaxCalls {
		return nil, batchFatal(KindBatchTooLarge, "the batch has more calls than allowed").
			With("requested", len(batch)).With("limit", st.MaxCalls)
	}
	if st.Seen != nil {
		for _, e := range batch {
			if st.Seen(e.Call.ID) {
				return nil, batchFatal(KindDuplicateCallID, "a call id was used in an earlier turn").With("call_id", e.Call.ID)
			}
		}
	}
	out := make([]Status, len(batch))
	var tools, ctxs int // resolved calls, for the budget checks
	for i, e := range batch {
		s := classifyOne(e, cat)
		if s.Cause != nil && !Recoverable(s.Cause.Phase, s.Cause.Kind) {
			return nil, fault.Wrap(s.Cause, PhaseNativeCall, s.Cause.Kind, "a call fault is not recoverable").
				With("call_id", e.Call.ID).With("fault_phase", string(s.Cause.Phase))
		}
		out[i] = s
		switch {
		case s.Kind != StatusResolved:
		case s.Binding.Kind == BindContext:
			ctxs++
		default:
			tools++
		}
	}
	if len(out) > 1 {
		for _, s := range out {
			if s.Binding != nil && s.Binding.Effectful() {
				return nil, batchFatal(KindEffectfulBatchUnsupported, "an effectful call must be the only call of its batch").
					With("call_id", s.Call.ID).With("calls", len(out))
			}
		}
	}
	if st.ContextCallsLeft >= 0 && ctxs > st.ContextCallsLeft {
		return nil, batchFatal(KindContextCallBudget, "the batch needs more context operations than remain").
			With("requested", ctxs).With("remaining", st.ContextCallsLeft)
	}
	if st.ToolCallsLeft >= 0 && tools > st.ToolCallsLeft {
		return nil, batchFatal(KindToolCallBudget, "the batch needs more tool calls than remain").
			With("requested", tools).With("remaining", st.ToolCallsLeft)
	}
	return out, nil
}

// classifyOne resolves once and validates at most once.
func classifyOne(e Entry, cat Resolver) Status {
	b, ok := cat.Resolve(e.Call.Name)
	if !ok {
		return Status{Kind: StatusPreflight, Call: e.Call,
			Cause: fault.New(PhaseCatalog, KindUnavailableToolSchema, "no tool with this name is available").With("tool", e.Call.Name)}
	}
	s := Status{Kind: StatusResolved, Call: e.Call, Binding: &b, Cause: e.Fault}
	if s.Cause == nil { // a normalize fault is not validated
		s.Cause = cat.Validate(b, e.Call)
	}
	if s.Cause != nil {
		s.Kind = StatusPreflight
	}
	return s
}
