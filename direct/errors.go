package direct

import (
	"encoding/json"
	"errors"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// Phases of errors and faults reported by this package. The budget,
// provider and tool phases of the packages below keep their own names.
const (
	// PhaseNativeCall marks a batch-fatal rejection of a provider's tool-call
	// batch: normalization of the envelope, classification and the batch
	// invariants. Nothing in the batch executed.
	PhaseNativeCall fault.Phase = "native_call"
	// PhaseNormalize marks an argument text that is not exactly one JSON
	// object.
	PhaseNormalize fault.Phase = "normalize"
	// PhaseSchema marks arguments that fail the resolved tool's schema.
	PhaseSchema fault.Phase = "schema"
	// PhaseCatalog marks a call naming no tool of the session's catalog.
	PhaseCatalog fault.Phase = "catalog"
	// PhaseAuthority marks an invocation that needs a human decision.
	PhaseAuthority fault.Phase = "authority"
	// PhaseEffect marks an effectful outcome the loop refuses to use.
	PhaseEffect fault.Phase = "effect"
	// PhaseSetup marks an invalid configuration or session setup.
	PhaseSetup fault.Phase = "setup"
)

// Error kinds. Kinds of phase native_call are batch-fatal.
const (
	// Envelope and call-shape faults (phase native_call).
	KindMalformedToolCalls     fault.Kind = "malformed_tool_calls"     // the envelope is not a list
	KindUnexpectedFields       fault.Kind = "unexpected_fields"        // a call or its function has unknown keys
	KindMalformedField         fault.Kind = "malformed_field"          // a field has the wrong JSON type
	KindMalformedCallID        fault.Kind = "malformed_call_id"        // the id is not a protocol token
	KindMalformedProtocolToken fault.Kind = "malformed_protocol_token" // the function name is not a protocol token
	KindUnsupportedCallType    fault.Kind = "unsupported_call_type"    // type is not "function"
	KindDuplicateCallID        fault.Kind = "duplicate_call_id"        // an id repeats in the batch or was seen before
	// Batch invariants (phase native_call).
	KindBatchTooLarge             fault.Kind = "native_batch_too_large"        // more calls than MaxNativeCallsPerBatch
	KindEffectfulBatchUnsupported fault.Kind = "effectful_batch_unsupported"   // an effectful call in a multi-call batch
	KindToolCallBudget            fault.Kind = "tool_call_budget_exhausted"    // resolved tool calls exceed the remaining budget
	KindContextCallBudget         fault.Kind = "context_call_budget_exhausted" // resolved context calls exceed the remaining budget
	KindAssistantMismatch         fault.Kind = "assistant_tool_calls_mismatch" // the assistant message differs from the batch
	KindSynthesisToolCalls        fault.Kind = "synthesis_tool_calls"          // tool calls in a tool-free synthesis turn

	// Recoverable per-call faults (phases normalize, schema, catalog).
	KindMalformedArguments    fault.Kind = "malformed_arguments"     // normalize/ and schema/
	KindUnavailableToolSchema fault.Kind = "unavailable_tool_schema" // catalog/

	// Run-ending kinds.
	KindEffectfulReplayDenied fault.Kind = "effectful_replay_denied" // effect/: a replayed effect is not fresh authority
	KindDuplicateToolName     fault.Kind = "duplicate_native_tool_name"
)

// repairMessages is the whitelist of per-call faults that become repair
// observations, keyed by (phase, kind), with their fixed messages. Every
// other pair is batch-fatal, including the same kind from another phase
// and kinds added later.
var repairMessages = map[[2]string]string{
	{string(PhaseNormalize), string(KindMalformedArguments)}:  "arguments must be exactly one JSON object; call the tool again with corrected arguments",
	{string(PhaseSchema), string(KindMalformedArguments)}:     "arguments do not match the tool's parameters; call the tool again with corrected arguments",
	{string(PhaseCatalog), string(KindUnavailableToolSchema)}: "no tool with this name is offered in this session; use one of the offered tools",
}

// Recoverable reports whether a per-call fault of this phase and kind may
// become a repair observation. Exactly three pairs are recoverable:
// schema/malformed_arguments, normalize/malformed_arguments and
// catalog/unavailable_tool_schema.
func Recoverable(phase fault.Phase, kind fault.Kind) bool {
	_, ok := repairMessages[[2]string{string(phase), string(kind)}]
	return ok
}

// Error is the error of a failed run. It wraps the typed fault and carries
// what the run spent until it stopped, whatever the phase, cancellation
// included. fault.KindOf and fault.PhaseOf see the wrapped fault.
type Error struct {
	// Fault is the typed cause.
	Fault *fault.Error
	// Usage is the token and cost accounting of every provider response,
	// including responses that were rejected.
	Usage budget.Usage
	// Turns counts provider responses.
	Turns int
	// ToolCalls and ContextCalls count dispatched calls.
	ToolCalls    int
	ContextCalls int
	// OutputBytes counts observation bytes (and final text, if any).
	OutputBytes int
	// Events is the trajectory so far.
	Events []Event
}

// Error returns the wrapped fault's text.
func (e *Error) Error() string { return e.Fault.Error() }

// Unwrap returns the wrapped fault.
func (e *Error) Unwrap() error { return e.Fault }

// MarshalJSON encodes the wrapped fault.
func (e *Error) MarshalJSON() ([]byte, error) { return json.Marshal(e.Fault) }

// asFault returns err as a *fault.Error, wrapping foreign errors as
// execute/internal.
func asFault(err error) *fault.Error {
	var de *Error
	if errors.As(err, &de) {
		return de.Fault
	}
	if fe := fault.As(err); fe != nil {
		return fe
	}
	if fe := fault.As(fault.FromContext(fault.PhaseExecute, err)); fe != nil {
		return fe
	}
	return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "unexpected error")
}
