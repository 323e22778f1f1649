// Package fault defines the structured error type shared by every rlm
// subsystem.
//
// Every failure the runtime can report is an *Error carrying the Phase in
// which it happened (provider, context, validate, execute, tool, ...), a
// stable Kind (http_status, stale_handle, widening_denied, ...), a detail map
// and an optional wrapped cause. Callers inspect errors with errors.As and
// compare Kind, never message text. An error may carry a one-line Hint: what
// the user can do next (set by the producer, which knows the remedy). The
// JSON form of an *Error uses the same field names as the CLI contracts:
// {"phase","kind","message","detail","hint"}; hint is omitted when empty.
package fault

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Phase names the stage of the runtime in which an error happened.
type Phase string

// Phases used across the runtime. Packages may define more.
const (
	PhaseProvider Phase = "provider" // model provider transport and decoding
	PhaseContext  Phase = "context"  // external context store operations
	PhaseParse    Phase = "parse"    // parsing model output or files
	PhaseValidate Phase = "validate" // static validation before execution
	PhaseExecute  Phase = "execute"  // running a validated plan or loop
	PhaseBudget   Phase = "budget"   // a budget or limit ran out
	PhaseTool     Phase = "tool"     // tool invocation pipeline
	PhaseReplay   Phase = "replay"   // cassette replay and recording
	PhaseTrace    Phase = "trace"    // trace export and import
	PhaseConfig   Phase = "config"   // configuration and flags
)

// Kind is a stable, machine-readable error category. Tests assert on Kind.
type Kind string

// Error is the structured error type of the runtime.
type Error struct {
	// Phase is the stage of the runtime that failed.
	Phase Phase `json:"phase"`
	// Kind is the stable error category.
	Kind Kind `json:"kind"`
	// Message is a short human-readable description. It never contains
	// secrets and is not part of the contract.
	Message string `json:"message,omitempty"`
	// Detail holds structured fields such as an HTTP status, a step path or
	// a JSON pointer. Values must be JSON-encodable.
	Detail map[string]any `json:"detail,omitempty"`
	// Hint is one line telling the user what to do next ("set
	// OPENAI_API_KEY", "does the base URL end in /v1?"), or empty. Like
	// Message it never contains secrets and is not part of the contract;
	// it is not included in Error().
	Hint string `json:"hint,omitempty"`
	// Cause is the wrapped underlying error, if any. MarshalJSON writes it
	// under "cause" (a nested object, or its text); UnmarshalJSON reads it
	// back.
	Cause error `json:"-"`
}

// New returns an *Error with the given phase, kind and message.
func New(phase Phase, kind Kind, message string) *Error {
	return &Error{Phase: phase, Kind: kind, Message: message}
}

// Newf is New with a formatted message.
func Newf(phase Phase, kind Kind, format string, args ...any) *Error {
	return &Error{Phase: phase, Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with the given phase and kind that wraps cause.
func Wrap(cause error, phase Phase, kind Kind, message string) *Error {
	return &Error{Phase: phase, Kind: kind, Message: message, Cause: cause}
}

// With returns e after setting detail key to value. It mutates e and is meant
// for use while constructing an error.
func (e *Error) With(key string, value any) *Error {
	if e.Detail == nil {
		e.Detail = make(map[string]any)
	}
	e.Detail[key] = value
	return e
}

// WithHint returns e after setting its hint. It mutates e and is meant for
// use while constructing an error.
func (e *Error) WithHint(hint string) *Error {
	e.Hint = hint
	return e
}

// HintOf returns the first non-empty hint in err's chain of *Error values,
// or "".
func HintOf(err error) string {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return ""
		}
		if e.Hint != "" {
			return e.Hint
		}
		err = e.Cause
	}
	return ""
}

// Error implements the error interface. The text is
// "phase/kind: message (k=v, ...)" with detail keys in sorted order.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Phase))
	b.WriteByte('/')
	b.WriteString(string(e.Kind))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if len(e.Detail) > 0 {
		b.WriteString(" (")
		for i, k := range slices.Sorted(maps.Keys(e.Detail)) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s=%v", k, e.Detail[k])
		}
		b.WriteByte(')')
	}
	if e.Cause != nil {
		var inner *Error
		if errors.As(e.Cause, &inner) {
			b.WriteString(": ")
			b.WriteString(inner.Error())
		} else {
			b.WriteString(": ")
			b.WriteString(e.Cause.Error())
		}
	}
	return b.String()
}

// Unwrap returns the wrapped cause.
func (e *Error) Unwrap() error { return e.Cause }

// Is reports whether target is a Kind equal to e's, or an *Error with the
// same Phase and Kind; an empty Phase in target matches any phase.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Kind:
		return t == e.Kind
	case *Error:
		return t.Kind == e.Kind && (t.Phase == "" || t.Phase == e.Phase)
	}
	return false
}

// MarshalJSON encodes the error with its cause's text under "cause" when the
// cause is not itself an *Error, and as a nested object when it is.
func (e *Error) MarshalJSON() ([]byte, error) {
	type plain Error
	out := struct {
		*plain
		Cause any `json:"cause,omitempty"`
	}{plain: (*plain)(e)}
	if e.Cause != nil {
		var inner *Error
		if errors.As(e.Cause, &inner) {
			out.Cause = inner
		} else {
			out.Cause = e.Cause.Error()
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes what MarshalJSON writes, the cause included: a
// nested object becomes a nested *Error (so errors.Is on its Kind holds
// after a round trip), a text an error with that text.
func (e *Error) UnmarshalJSON(b []byte) error {
	type plain Error
	in := struct {
		*plain
		Cause any `json:"cause,omitempty"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	// The cause chain is decoded once, generically, and rebuilt level by
	// level: re-decoding the rest of the text at every level was quadratic.
	e.Cause = nil
	cur, c := e, in.Cause
	for c != nil {
		switch v := c.(type) {
		case string:
			cur.Cause, c = errors.New(v), nil
		case map[string]any:
			inner := &Error{}
			for _, f := range []struct {
				key string
				dst *string
			}{{"phase", (*string)(&inner.Phase)}, {"kind", (*string)(&inner.Kind)}, {"message", &inner.Message}, {"hint", &inner.Hint}} {
				if x, ok := v[f.key]; ok && x != nil {
					s, ok := x.(string)
					if !ok {
						return fmt.Errorf("fault: cause %s is not a string", f.key)
					}
					*f.dst = s
				}
			}
			if d, ok := v["detail"]; ok && d != nil {
				m, ok := d.(map[string]any)
				if !ok {
					return fmt.Errorf("fault: cause detail is not an object")
				}
				inner.Detail = m
			}
			cur.Cause, cur, c = inner, inner, v["cause"]
		default:
			return fmt.Errorf("fault: cause is neither an error nor a text")
		}
	}
	return nil
}

// As returns the first *Error in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Or returns the first *Error in err's chain, or, when err holds none, err
// wrapped as a new *Error of phase and kind with message (err.Error() when
// message is empty). A nil err gives nil.
func Or(err error, phase Phase, kind Kind, message string) *Error {
	if err == nil {
		return nil
	}
	if e := As(err); e != nil {
		return e
	}
	if message == "" {
		message = err.Error()
	}
	return Wrap(err, phase, kind, message)
}

// KindOf returns the Kind of the first *Error in err's chain, or "" when
// there is none.
func KindOf(err error) Kind {
	if e := As(err); e != nil {
		return e.Kind
	}
	return ""
}

// PhaseOf returns the Phase of the first *Error in err's chain, or "".
func PhaseOf(err error) Phase {
	if e := As(err); e != nil {
		return e.Phase
	}
	return ""
}

// Kinds produced by several packages that share no lower package to
// declare them in. Every other kind is declared in the package that
// produces it; docs/errors.md lists them all.
const (
	KindCancelled     Kind = "cancelled"      // the context was cancelled
	KindTimeout       Kind = "timeout"        // a deadline or time limit passed
	KindInternal      Kind = "internal"       // a bug or unexpected state
	KindInvalid       Kind = "invalid"        // a malformed argument
	KindInvalidConfig Kind = "invalid_config" // a configuration value or flag is invalid
	KindNotFound      Kind = "not_found"      // a named thing does not exist
	KindMalformed     Kind = "malformed"      // undecodable input
	KindMissingField  Kind = "missing_field"  // a required field of a decoded document is absent
	KindIO            Kind = "io_error"       // reading or writing a file or stream failed
)

// Error returns the kind's spelling. With it a Kind is a sentinel for
// errors.Is: errors.Is(err, capability.KindDenied) reports whether an
// *Error in err's chain has that kind, whatever its phase.
func (k Kind) Error() string { return string(k) }

// FromContext converts a context error (context.Canceled or
// context.DeadlineExceeded) into an *Error of the given phase with kind
// cancelled or timeout. Other errors are returned unchanged.
func FromContext(phase Phase, err error) error {
	if err == nil {
		return nil
	}
	if fault := As(err); fault != nil {
		return err
	}
	switch {
	case errors.Is(err, errCanceled):
		return Wrap(err, phase, KindCancelled, "cancelled")
	case errors.Is(err, errDeadline):
		return Wrap(err, phase, KindTimeout, "deadline exceeded")
	}
	return err
}

// DetailOutcomeUnknown marks an error after which the operation's outcome is
// unknown (an effect dispatched whose result was never observed): a caller
// must not repeat the operation automatically (docs/tools.md).
const DetailOutcomeUnknown = "outcome_unknown"
