package random

import "fmt"

// ErrorType names the Python exception class an Error stands for.
type ErrorType string

// The exception classes the kernel raises. LimitError marks a request this
// interpreter refuses because of its resource bounds (CPython would try to
// honour it); the wrapper raises its own limit exception for it.
const (
	ValueError        ErrorType = "ValueError"
	TypeError         ErrorType = "TypeError"
	IndexError        ErrorType = "IndexError"
	OverflowError     ErrorType = "OverflowError"
	ZeroDivisionError ErrorType = "ZeroDivisionError"
	LimitError        ErrorType = "LimitError"
)

// Error is a Python exception raised by the kernel.
type Error struct {
	Type ErrorType
	Msg  string
}

func (e *Error) Error() string { return string(e.Type) + ": " + e.Msg }

func valueError(format string, args ...any) *Error {
	return &Error{ValueError, fmt.Sprintf(format, args...)}
}

func newError(t ErrorType, format string, args ...any) *Error {
	return &Error{t, fmt.Sprintf(format, args...)}
}
