// Package pymod implements the Python standard modules and formatting rules
// that code mode predeclares over Starlark: re (on Go's RE2 regexp), json,
// collections, string, time (without a clock), and the format-spec
// mini-language used by f-strings and str.format. It is a leaf package so its
// argument handling can be fuzzed on its own.
package pymod

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Error is an exception with a Python type name (e.g. "re.error",
// "json.JSONDecodeError", "MemoryError", "ValueError").
type Error struct {
	Type string
	Msg  string
	Val  starlark.Value // the raised exception value, when model code raised one
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return e.Type
	}
	return e.Type + ": " + e.Msg
}

// Errorf returns an *Error of Python type typ.
func Errorf(typ, format string, args ...any) *Error {
	return &Error{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

// LimitKey is the thread-local key holding the cell's value-size bound (int64 bytes).
const LimitKey = "rlm.repl.maxvalue"

// Limit returns the value-size bound of the running cell (64 MiB when unset).
func Limit(thread *starlark.Thread) int64 {
	if thread != nil {
		if n, ok := thread.Local(LimitKey).(int64); ok && n > 0 {
			return n
		}
	}
	return 64 << 20
}

// CheckSize returns a MemoryError when size exceeds the cell's bound.
func CheckSize(thread *starlark.Thread, what string, size int64) error {
	if lim := Limit(thread); size > lim || size < 0 {
		return Errorf("MemoryError", "%s would need about %d bytes, over the cell's limit of %d bytes", what, size, lim)
	}
	return nil
}

// DoneKey is the thread-local key holding the running cell's context.
const DoneKey = "rlm.repl.done"

// IterateT is Iterate that stops with the cell: every 1024 elements it
// checks the cell's context (done on wall time, memory, cancellation).
func IterateT(thread *starlark.Thread, v starlark.Value, fn func(starlark.Value) error) error {
	done, _ := thread.Local(DoneKey).(interface{ Err() error })
	n := 0
	return Iterate(v, func(x starlark.Value) error {
		if n++; n&1023 == 0 && done != nil && done.Err() != nil {
			return fmt.Errorf("Starlark computation cancelled: %v", done.Err())
		}
		return fn(x)
	})
}

// ElemBytes is the approximate cost of one element of a list, tuple or dict.
const ElemBytes = 32

// TypeName names v's type the way Python would.
func TypeName(v starlark.Value) string {
	switch v.(type) {
	case starlark.NoneType:
		return "NoneType"
	case starlark.String:
		return "str"
	case *starlark.List:
		return "list"
	case *starlark.Dict:
		return "dict"
	case starlark.Tuple:
		return "tuple"
	case *starlark.Set:
		return "set"
	case starlark.Bool:
		return "bool"
	case starlark.Int:
		return "int"
	case starlark.Float:
		return "float"
	case *starlark.Function, *starlark.Builtin:
		return "function"
	}
	return v.Type()
}
