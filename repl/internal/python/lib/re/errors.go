package re

import (
	"context"
	"errors"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// errorType is re.error: an Exception subclass whose instances carry msg,
// pattern, pos, lineno and colno.
var errorType *python.Type

func initErrorType() {
	errorType = python.NewBuiltinType("error", "re", python.ExceptionType, nil)
	errorType.AddMethod("__init__", errorInit)
}

// errorInit is re.error.__init__(self, msg, pattern=None, pos=None).
func errorInit(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	e, ok := args[0].(*python.Exception)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "error.__init__() needs an exception")
	}
	// A Python method: self counts among the positional arguments.
	vals, err := funcArgs("error.__init__", args, kwargs, 2, "self", "msg", "pattern", "pos")
	if err != nil {
		return nil, err
	}
	msg, pattern, pos := vals[1], vals[2], vals[3]
	if pattern == nil {
		pattern = python.None
	}
	if pos == nil {
		pos = python.None
	}
	var lineno, colno python.Object = python.None, python.None
	text := msg
	if pattern != python.None && pos != python.None {
		s, err := python.CallMethod(t, python.NewStr("%s at position %d"), "__mod__", []python.Object{python.NewTuple([]python.Object{msg, pos})}, nil)
		if err != nil {
			return nil, err
		}
		var newline python.Object = python.NewStr("\n")
		if !python.IsStr(pattern) {
			newline = python.NewBytes("\n")
		}
		count, err := python.CallMethod(t, pattern, "count", []python.Object{newline, python.MakeInt(0), pos}, nil)
		if err != nil {
			return nil, err
		}
		if lineno, err = python.CallMethod(t, count, "__add__", []python.Object{python.MakeInt(1)}, nil); err != nil {
			return nil, err
		}
		last, err := python.CallMethod(t, pattern, "rfind", []python.Object{newline, python.MakeInt(0), pos}, nil)
		if err != nil {
			return nil, err
		}
		if colno, err = python.CallMethod(t, pos, "__sub__", []python.Object{last}, nil); err != nil {
			return nil, err
		}
		has, err := python.Contains(t, pattern, newline)
		if err != nil {
			return nil, err
		}
		if has {
			s, err = python.CallMethod(t, python.NewStr("%s (line %d, column %d)"), "__mod__", []python.Object{python.NewTuple([]python.Object{s, lineno, colno})}, nil)
			if err != nil {
				return nil, err
			}
		}
		text = s
	}
	if err := python.SetAttr(t, e, "args", python.NewTuple([]python.Object{text})); err != nil {
		return nil, err
	}
	d := e.Dict()
	d.SetStr("msg", msg)
	d.SetStr("pattern", pattern)
	d.SetStr("pos", pos)
	d.SetStr("lineno", lineno)
	d.SetStr("colno", colno)
	return python.None, nil
}

// newError makes the re.error of an sre error.
func newError(e *sre.Error) *python.Exception {
	x := python.NewException(errorType, python.NewStr(e.Error()))
	d := x.Dict()
	d.SetStr("msg", python.NewStr(e.Msg))
	if !e.HasPos {
		for _, n := range []string{"pattern", "pos", "lineno", "colno"} {
			d.SetStr(n, python.None)
		}
		return x
	}
	if e.IsBytes {
		d.SetStr("pattern", python.NewBytes(e.Pattern))
	} else {
		d.SetStr("pattern", python.NewStr(e.Pattern))
	}
	d.SetStr("pos", python.MakeInt(int64(e.Pos)))
	d.SetStr("lineno", python.MakeInt(int64(e.Lineno)))
	d.SetStr("colno", python.MakeInt(int64(e.Colno)))
	return x
}

// mapErr converts an error of the sre engine into what the cell sees:
// re.error, the exception CPython raises, an explicit refusal, an
// exception naming code mode's limit, or the cell's stop when its context
// is done. Errors that are already Python's (from a callback) pass.
func mapErr(t *python.Thread, err error, lim sre.Limits) error {
	if err == nil {
		return nil
	}
	var se *sre.Error
	var pe *sre.PyError
	var ue *sre.UnsupportedError
	switch {
	case errors.As(err, &se):
		return newError(se)
	case errors.As(err, &pe):
		cls := python.ExceptionClass(pe.Type)
		if cls == nil {
			cls = python.RuntimeErrorType
		}
		return python.Errorf(cls, "%s", pe.Msg)
	case errors.As(err, &ue):
		what := strings.TrimPrefix(ue.What, "sre: unsupported: ")
		return python.NotSupported(what, "leave the flag out")
	case errors.Is(err, sre.ErrStepLimit):
		return python.Errorf(python.RuntimeErrorType, "regular expression matching exceeded code mode's limit of %d steps (catastrophic backtracking?); simplify the pattern, e.g. avoid nested repeats like (a+)+, or match a smaller text", lim.MaxSteps)
	case errors.Is(err, sre.ErrStackLimit):
		return python.Errorf(python.RecursionErrorType, "regular expression backtracking exceeded code mode's stack limit of %d bytes; simplify the pattern or match a smaller text", stackLimit(lim))
	case errors.Is(err, sre.ErrResultTooLarge):
		return tooLarge(t)
	}
	if _, ok := python.AsException(err); ok {
		return err
	}
	var stop *python.StopError
	if errors.As(err, &stop) {
		return err
	}
	if ctx := t.Context(); ctx != nil && ctx.Err() != nil {
		return stopCell(t)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return stopCell(t)
	}
	return err
}

// stopCell stops the thread because its context is done, as the
// interpreter does when it sees a done context between steps.
func stopCell(t *python.Thread) error {
	if s := t.Stopped(); s != nil {
		return s
	}
	ctx := t.Context()
	t.Stop(&python.StopError{Kind: "cancelled", Err: context.Cause(ctx)})
	return t.Stopped()
}

func stackLimit(lim sre.Limits) int {
	if lim.MaxStack > 0 {
		return lim.MaxStack
	}
	return sre.DefaultMaxStack
}

// tooLarge is the MemoryError of a result past the value bound.
func tooLarge(t *python.Thread) error {
	if err := t.CheckSize(t.MaxValue() + 1); err != nil {
		return err
	}
	return python.Errorf(python.MemoryErrorType, "regular expression result too large")
}
