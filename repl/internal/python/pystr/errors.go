package pystr

import (
	"fmt"
	"strconv"
)

// Error is a Python exception raised by one of this package's functions:
// Type is the name of its class ("ValueError", "TypeError", "IndexError",
// "KeyError", "LookupError", "OverflowError"), Msg its message, as
// CPython 3.12 gives them.
type Error struct {
	Type string
	Msg  string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

func valueError(msg string) error { return &Error{"ValueError", msg} }

func typeError(msg string) error { return &Error{"TypeError", msg} }

// UnicodeError is a UnicodeEncodeError or a UnicodeDecodeError, with the
// attributes Python gives it.
type UnicodeError struct {
	// Type is "UnicodeEncodeError" or "UnicodeDecodeError".
	Type string
	// Encoding is the codec's name as Python reports it ("utf-8",
	// "ascii", "latin-1", "charmap", "utf-16-le", ...).
	Encoding string
	// Object is the str being encoded, or the bytes being decoded.
	Object string
	// Start and End delimit the part that could not be converted: code
	// points of Object when encoding, bytes when decoding.
	Start, End int
	// Reason is the codec's explanation, as "ordinal not in range(128)".
	Reason string
}

// Error returns the exception's message, as Python's str(exc).
func (e *UnicodeError) Error() string {
	if e.Type == "UnicodeEncodeError" {
		if e.End == e.Start+1 {
			r := runeAt(e.Object, e.Start)
			var ch string
			switch {
			case r < 0x100:
				ch = fmt.Sprintf(`\x%02x`, r)
			case r < 0x10000:
				ch = fmt.Sprintf(`\u%04x`, r)
			default:
				ch = fmt.Sprintf(`\U%08x`, r)
			}
			return fmt.Sprintf("'%s' codec can't encode character '%s' in position %d: %s", e.Encoding, ch, e.Start, e.Reason)
		}
		return fmt.Sprintf("'%s' codec can't encode characters in position %d-%d: %s", e.Encoding, e.Start, e.End-1, e.Reason)
	}
	if e.End == e.Start+1 && e.Start < len(e.Object) {
		return fmt.Sprintf("'%s' codec can't decode byte 0x%02x in position %d: %s", e.Encoding, e.Object[e.Start], e.Start, e.Reason)
	}
	return fmt.Sprintf("'%s' codec can't decode bytes in position %d-%d: %s", e.Encoding, e.Start, e.End-1, e.Reason)
}

// LimitError reports that a result would be longer than the byte limit
// the caller passed; nothing that large was allocated. CPython would try
// to build it (and might raise MemoryError or OverflowError).
type LimitError struct {
	// Op is the operation, as "replace" or "join".
	Op string
	// Need is the size the result would have, in bytes, or -1 when it
	// overflows an int; Limit is the limit passed.
	Need, Limit int
}

func (e *LimitError) Error() string {
	if e.Need < 0 {
		return "pystr: " + e.Op + ": result too long"
	}
	return "pystr: " + e.Op + ": result of " + strconv.Itoa(e.Need) + " bytes exceeds the limit of " + strconv.Itoa(e.Limit)
}

// UnsupportedError reports an operation whose Python result cannot be
// represented by this package, such as a str holding a lone surrogate.
type UnsupportedError struct {
	Msg string
}

func (e *UnsupportedError) Error() string { return "pystr: unsupported: " + e.Msg }

// checkLimit returns a *LimitError when need (negative on overflow)
// exceeds limit.
func checkLimit(op string, need, limit int) error {
	if need < 0 || need > limit {
		if need < 0 {
			need = -1
		}
		return &LimitError{Op: op, Need: need, Limit: limit}
	}
	return nil
}

// addSize and mulSize compute sizes, returning -1 on overflow or when an
// operand is already -1.
func addSize(a, b int) int {
	if a < 0 || b < 0 || a > maxInt-b {
		return -1
	}
	return a + b
}

func mulSize(a, b int) int {
	if a < 0 || b < 0 {
		return -1
	}
	if a != 0 && b > maxInt/a {
		return -1
	}
	return a * b
}

const maxInt = int(^uint(0) >> 1)
