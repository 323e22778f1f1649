package sre

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a malformed pattern or replacement template: CPython's re.error.
//
// Msg is the exception's msg attribute. When CPython reports a position
// (HasPos), Pos is it (in code points for str patterns and templates, in
// bytes for bytes ones), Pattern is the offending pattern or template, and
// Lineno and Colno are 1-based as in re.error. Otherwise Pos, Lineno and
// Colno are zero and CPython's pattern, pos, lineno and colno are None.
type Error struct {
	Msg     string
	Pattern string
	IsBytes bool
	HasPos  bool
	Pos     int
	Lineno  int
	Colno   int
	// Warnings are those CPython emits before it raises the error.
	Warnings []Warning
}

// Error returns str() of the exception: the message followed, when there
// is a position, by " at position N" and, for patterns spanning lines, by
// " (line L, column C)".
func (e *Error) Error() string {
	if !e.HasPos {
		return e.Msg
	}
	s := fmt.Sprintf("%s at position %d", e.Msg, e.Pos)
	if strings.Contains(e.Pattern, "\n") {
		s += fmt.Sprintf(" (line %d, column %d)", e.Lineno, e.Colno)
	}
	return s
}

// newError builds an Error positioned at pos in src (code points or bytes).
func newError(msg string, pattern string, src []rune, isBytes bool, pos int) *Error {
	e := &Error{Msg: msg, Pattern: pattern, IsBytes: isBytes, HasPos: true, Pos: pos}
	e.Lineno = 1
	last := -1
	for i := 0; i < pos && i < len(src); i++ {
		if src[i] == '\n' {
			e.Lineno++
			last = i
		}
	}
	e.Colno = pos - last
	return e
}

// PyError is a failure CPython raises as a Python exception other than
// re.error: Type is the exception class name (ValueError, OverflowError,
// IndexError, RecursionError or SystemError) and Msg its message.
type PyError struct {
	Type string
	Msg  string
	// Warnings are those CPython emits before it raises the error.
	Warnings []Warning
}

// withWarnings returns err carrying the warnings emitted before it (a
// copy: some errors are shared values).
func withWarnings(err error, ws []Warning) error {
	if len(ws) == 0 {
		return err
	}
	switch e := err.(type) {
	case *Error:
		c := *e
		c.Warnings = append(append([]Warning(nil), ws...), e.Warnings...)
		return &c
	case *PyError:
		c := *e
		c.Warnings = append(append([]Warning(nil), ws...), e.Warnings...)
		return &c
	}
	return err
}

func (e *PyError) Error() string { return e.Type + ": " + e.Msg }

// Errors reported by the matching functions when a limit is reached. The
// context's own error (context.Canceled, context.DeadlineExceeded) is
// returned unchanged when the context ends first.
var (
	// ErrStepLimit reports that the step budget (Limits.MaxSteps) is spent.
	ErrStepLimit = errors.New("sre: step budget exhausted")
	// ErrStackLimit reports that the backtracking stack outgrew
	// Limits.MaxStack.
	ErrStackLimit = errors.New("sre: backtracking stack limit exceeded")
	// ErrResultTooLarge reports that a result being built (Sub, Split,
	// FindAll) outgrew Limits.MaxResult.
	ErrResultTooLarge = errors.New("sre: result too large")
)

// UnsupportedError reports a request this package refuses explicitly
// rather than answer differently from CPython.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return "sre: unsupported: " + e.What }

// pyRepr formats s as Python's repr() of a str does.
func pyRepr(s []rune) string { return reprRunes(s, false) }

// pyASCII formats s as Python's ascii() of a str does.
func pyASCII(s []rune) string { return reprRunes(s, true) }

func reprRunes(s []rune, asciiOnly bool) string {
	quote := '\''
	hasSingle, hasDouble := false, false
	for _, c := range s {
		if c == '\'' {
			hasSingle = true
		} else if c == '"' {
			hasDouble = true
		}
	}
	if hasSingle && !hasDouble {
		quote = '"'
	}
	var b strings.Builder
	b.WriteRune(quote)
	for _, c := range s {
		switch {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c < 0x7f:
			b.WriteRune(c)
		case !asciiOnly && isPrintable(c):
			b.WriteRune(c)
		case c <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			fmt.Fprintf(&b, `\U%08x`, c)
		}
	}
	b.WriteRune(quote)
	return b.String()
}

// backslashReplace is str.encode('ascii', 'backslashreplace') decoded back.
func backslashReplace(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		switch {
		case c < 0x80:
			b.WriteRune(c)
		case c <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			fmt.Fprintf(&b, `\U%08x`, c)
		}
	}
	return b.String()
}
