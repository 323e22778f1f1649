package repl

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/repl/internal/pymod"
)

// fatalError marks a host builtin's error as run-ending.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

// Fatal marks an error returned by a host builtin as run-ending: Exec stops
// the cell at once and returns err (unwrapped) as its error.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err: err}
}

// IsFatal reports whether err was marked by Fatal.
func IsFatal(err error) bool {
	var fe *fatalError
	return errors.As(err, &fe)
}

// pyError is an exception with a Python type name raised by a builtin.
type pyError = pymod.Error

// Raise returns an error that code mode reports to the model as an exception
// of Python type typ (e.g. "ValueError"), for host builtins that want to
// raise a specific Python exception instead of a generic one.
func Raise(typ, format string, args ...any) error {
	return &pyError{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

func memoryError(what string, size, limit int64) error {
	return &pyError{Type: "MemoryError", Msg: fmt.Sprintf("%s would need about %d bytes, over the cell's limit of %d bytes", what, size, limit)}
}

// exception converts a Starlark error into the model-facing Exception.
func (c *cell) exception(err error) *Exception {
	ex := &Exception{Line: c.line(err)}
	var pe *pyError
	if errors.As(err, &pe) {
		ex.Type, ex.Message = pe.Type, pe.Msg
		return ex
	}
	var se syntax.Error
	if errors.As(err, &se) {
		ex.Type, ex.Message = "SyntaxError", se.Msg
		return ex
	}
	var el resolve.ErrorList
	if errors.As(err, &el) && len(el) > 0 {
		e0 := el[0]
		ex.Line = c.mapLine(int(e0.Pos.Line))
		ex.Type, ex.Message = classify(e0.Msg)
		if ex.Type == "Exception" {
			ex.Type = "SyntaxError"
		}
		return ex
	}
	msg := err.Error()
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		msg = ee.Msg
	}
	ex.Type, ex.Message = classify(msg)
	return ex
}

// classes is compiled on first use, not at start-up.
var classes = sync.OnceValue(func() []errorClass {
	return []errorClass{
		{regexp.MustCompile(`^undefined: |not defined|referenced before assignment`), "NameError"},
		{regexp.MustCompile(`key .* not in |^popitem: empty|not in dict|^pop: missing key`), "KeyError"},
		{regexp.MustCompile(`index out of range|out of range|empty list|pop: .*empty`), "IndexError"},
		{regexp.MustCompile(`division by zero|modulo by zero|divide by zero`), "ZeroDivisionError"},
		{regexp.MustCompile(`has no \.?[A-Za-z_0-9]+ (field or method|attribute)|no such field|no such method`), "AttributeError"},
		{regexp.MustCompile(`Starlark stack overflow|maximum recursion depth`), "RecursionError"},
		{regexp.MustCompile(`^int: invalid|^float: invalid|invalid literal|not found in|value not in|^index: |^remove: element not found|^chr: |^ord: |too many values to unpack|too few values|not enough values|unpack|^invalid float literal|^float: empty string|empty separator|must not be zero|not a valid slice step`), "ValueError"},
		{regexp.MustCompile(`cannot convert float NaN to integer`), "ValueError"},
		{regexp.MustCompile(`overflow|too large|cannot convert float infinity to integer`), "OverflowError"},
		{regexp.MustCompile(`unsupported|not supported|got .*, want|not callable|invalid call|missing .*argument|unexpected keyword|takes .*argument|accepts no|requires|unhashable|not iterable|not subscriptable|cannot|invalid .*operand|want .* or|for parameter|^unknown binary op|not a|operation|has no len|not implemented$`), "TypeError"},
		{regexp.MustCompile(`frozen|immutable`), "TypeError"},
	}
})

type errorClass struct {
	re  *regexp.Regexp
	typ string
}

// classify gives a Starlark error message a Python exception type.
func classify(msg string) (typ, m string) {
	msg = strings.TrimPrefix(msg, "fail: ")
	for _, c := range classes() {
		if c.re.MatchString(msg) {
			return c.typ, msg
		}
	}
	return "Exception", msg
}
