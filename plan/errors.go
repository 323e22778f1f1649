package plan

import (
	"maps"

	"github.com/rlm-go/rlm/fault"
)

// Error kinds reported by Parse (Phase parse).
const (
	// KindNoJSON: the text holds no JSON object.
	KindNoJSON fault.Kind = "no_json"
	// KindMultipleJSON: the text holds more than one JSON object.
	KindMultipleJSON fault.Kind = "multiple_json"
	// KindNotADocument: the object is neither {"answer":...} nor
	// {"steps":[...]}.
	KindNotADocument fault.Kind = "not_a_document"
	// KindTooLarge: the text is longer than MaxTextBytes.
	KindTooLarge fault.Kind = "too_large"
)

// Error kinds reported by Parse and Validate (Phase validate).
const (
	// KindUnknownOp: a step's "op" is not in the closed vocabulary.
	KindUnknownOp fault.Kind = "unknown_op"
	// KindUnknownField: a step, action or expression has a field its shape
	// does not allow.
	KindUnknownField fault.Kind = "unknown_field"
	// KindUnknownRef: an expression's "ref" is not input, var, field or
	// index.
	KindUnknownRef fault.Kind = "unknown_ref"
	// KindInvalidArgument: a field has the wrong type or is out of range;
	// detail "field" names it.
	KindInvalidArgument fault.Kind = "invalid_argument"
	// KindEmptyPlan: a plan or sub-plan has no steps.
	KindEmptyPlan fault.Kind = "empty_plan"
	// KindFinalNotLast: a top-level final step is not the last step.
	KindFinalNotLast fault.Kind = "final_not_last"
	// KindMultipleFinal: a plan has more than one final step.
	KindMultipleFinal fault.Kind = "multiple_final"
	// KindUnboundVariable: a var reference names no bound variable.
	KindUnboundVariable fault.Kind = "unbound_variable"
	// KindReboundVariable: a step binds a name that is already bound.
	KindReboundVariable fault.Kind = "rebound_variable"
	// KindUnknownInput: an input reference names no run input.
	KindUnknownInput fault.Kind = "unknown_input"
	// KindBudgetExceeded: the static estimate exceeds a remaining limit;
	// detail "limit", "estimated" and "remaining".
	KindBudgetExceeded fault.Kind = "budget_exceeded"
	// KindNonFiniteNumber: a number in the plan text (or the answer) is
	// outside the float64 range, such as 1e999999; detail "number". It is
	// rejected rather than clamped. Values decoded at execution report it
	// with Phase execute.
	KindNonFiniteNumber fault.Kind = "non_finite_number"
)

// Error kinds reported by Execute (Phase execute). Execute also reports
// KindUnboundVariable, KindReboundVariable, KindUnknownInput and
// KindUnknownOp when it is given a plan that Validate would reject, and
// passes errors from the Env through with their own Phase and Kind.
const (
	// KindTypeError: a value has the wrong type for its use (field of a
	// non-object, index of a non-list, a context handle that is not a
	// handle, map over a non-list, ...).
	KindTypeError fault.Kind = "type_error"
	// KindMissingKey: a field reference names a key the object lacks.
	KindMissingKey fault.Kind = "missing_key"
	// KindIndexOutOfRange: an index reference is outside the list.
	KindIndexOutOfRange fault.Kind = "index_out_of_range"
	// KindEnvError: the Env returned an error that is not a *fault.Error.
	KindEnvError fault.Kind = "env_error"
	// KindValueTooLarge: a value the plan builds (a join, a json, a list
	// or object, a string passed to a call, an Env result, a map's results
	// together) exceeds the session's max_value_bytes; detail
	// "max_value_bytes" and "size_at_least". Retry does not retry it and
	// map stops its other items on it.
	KindValueTooLarge fault.Kind = "value_too_large"
)

func parseErr(kind fault.Kind, msg string) *fault.Error {
	return fault.New(fault.PhaseParse, kind, msg)
}

func validateErr(kind fault.Kind, path, msg string) *fault.Error {
	return fault.New(fault.PhaseValidate, kind, msg).With("path", path)
}

func execErr(kind fault.Kind, path, msg string) *fault.Error {
	return fault.New(fault.PhaseExecute, kind, msg).With("path", path)
}

// annotate returns err as a *fault.Error carrying detail key=value unless
// the detail is already set (to something other than ""). The original error is never mutated: a copy
// with its own detail map is returned. Context errors become Phase execute
// cancelled/timeout; other non-fault errors become Kind env_error.
func annotate(err error, key string, value any) error {
	if err == nil {
		return nil
	}
	fe := fault.As(fault.FromContext(fault.PhaseExecute, err))
	if fe == nil {
		fe = fault.Wrap(err, fault.PhaseExecute, KindEnvError, "environment call failed")
	}
	if old, ok := fe.Detail[key]; ok && old != "" {
		return fe
	}
	cp := *fe
	cp.Detail = maps.Clone(fe.Detail)
	if cp.Detail == nil {
		cp.Detail = map[string]any{}
	}
	cp.Detail[key] = value
	return &cp
}

// stopsFanout reports whether err stops a retry and a map's other items:
// a fatal error, a value over the limit (which would recur), or an error
// the Env says ends the run (see RunEnder).
func (r *runner) stopsFanout(err error) bool {
	if IsFatal(err) {
		return true
	}
	if fe := fault.As(err); fe != nil && fe.Kind == KindValueTooLarge {
		return true
	}
	if e, ok := r.env.(RunEnder); ok && e.EndsRun(err) {
		return true
	}
	return false
}

// IsFatal reports whether err must not be isolated or retried: a budget error
// (Phase budget) or a cancellation or timeout (Kind cancelled or timeout).
// Retry does not retry fatal errors and map does not turn them into per-item
// error values.
func IsFatal(err error) bool {
	fe := fault.As(fault.FromContext(fault.PhaseExecute, err))
	if fe == nil {
		return false
	}
	return fe.Phase == fault.PhaseBudget || fe.Kind == fault.KindCancelled || fe.Kind == fault.KindTimeout
}
