// Package io is code mode's io module: the in-memory streams StringIO and
// BytesIO as CPython 3.12 has them. Everything that would touch files
// (open, FileIO, TextIOWrapper, the buffered classes) is refused: code
// mode has no file system.
package io

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// Register makes io importable. The first call makes the stream classes.
func Register() {
	python.Setup()
	python.RegisterModule("io", load)
	// setup runs after RegisterModule, which makes sure the interpreter
	// core is set up.
	setupOnce.Do(setup)
}

// The stream classes. They hold no state, so they are shared by all
// interpreters. They are nil until Register has run.
var (
	// IOBaseType is io.IOBase.
	IOBaseType *python.Type
	// RawIOBaseType is io.RawIOBase.
	RawIOBaseType *python.Type
	// BufferedIOBaseType is io.BufferedIOBase.
	BufferedIOBaseType *python.Type
	// TextIOBaseType is io.TextIOBase.
	TextIOBaseType *python.Type
	// StringIOType is io.StringIO.
	StringIOType *python.Type
	// BytesIOType is io.BytesIO.
	BytesIOType *python.Type
	// UnsupportedOperationType is io.UnsupportedOperation (an OSError and
	// a ValueError).
	UnsupportedOperationType *python.Type
)

var setupOnce sync.Once

// setup makes the stream classes. It runs on the first Register, not at
// package initialisation, so that importing the package touches nothing
// of the interpreter.
func setup() {
	IOBaseType = python.NewBuiltinType("IOBase", "io", nil, nil)
	RawIOBaseType = python.NewBuiltinType("RawIOBase", "io", IOBaseType, nil)
	BufferedIOBaseType = python.NewBuiltinType("BufferedIOBase", "io", IOBaseType, nil)
	TextIOBaseType = python.NewBuiltinType("TextIOBase", "io", IOBaseType, nil)
	UnsupportedOperationType = newUnsupportedOperation()
	StringIOType = python.NewBuiltinType("StringIO", "_io", TextIOBaseType, newStringIO)
	BytesIOType = python.NewBuiltinType("BytesIO", "_io", BufferedIOBaseType, newBytesIO)
	for _, c := range []*python.Type{StringIOType, BytesIOType} {
		common(c)
	}
	stringIOMethods()
	bytesIOMethods()
}

func newUnsupportedOperation() *python.Type {
	ns := python.NewDict(4)
	ns.SetStr("__module__", python.NewStr("io"))
	ns.SetStr("__qualname__", python.NewStr("UnsupportedOperation"))
	c, err := python.NewClass(nil, nil, "UnsupportedOperation", []*python.Type{python.ExceptionClass("OSError"), python.ValueErrorType}, ns)
	if err != nil {
		return python.NewBuiltinType("UnsupportedOperation", "io", python.ExceptionClass("OSError"), nil)
	}
	return c
}

// refused are io's names that need a file system.
var refused = []string{"open", "open_code", "FileIO", "BufferedReader", "BufferedWriter", "BufferedRandom",
	"BufferedRWPair", "TextIOWrapper", "IncrementalNewlineDecoder", "text_encoding"}

const noFiles = "code mode has no file system: use io.StringIO or io.BytesIO for in-memory text and bytes, and the `context` variable for the input"

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("io")
	m.Set("IOBase", IOBaseType)
	m.Set("RawIOBase", RawIOBaseType)
	m.Set("BufferedIOBase", BufferedIOBaseType)
	m.Set("TextIOBase", TextIOBaseType)
	m.Set("StringIO", StringIOType)
	m.Set("BytesIO", BytesIOType)
	m.Set("UnsupportedOperation", UnsupportedOperationType)
	m.Set("SEEK_SET", python.MakeInt(0))
	m.Set("SEEK_CUR", python.MakeInt(1))
	m.Set("SEEK_END", python.MakeInt(2))
	m.Set("DEFAULT_BUFFER_SIZE", python.MakeInt(8192))
	for _, n := range refused {
		name := n
		m.Func(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("io."+name, noFiles)
		})
	}
	return m, nil
}

func closedError(period bool) error {
	if period {
		return python.Errorf(python.ValueErrorType, "I/O operation on closed file.")
	}
	return python.Errorf(python.ValueErrorType, "I/O operation on closed file")
}

func unsupported(what string) error {
	return python.NewException(UnsupportedOperationType, python.NewStr(what))
}

// stream is what StringIO and BytesIO share for the common methods.
type stream interface {
	obj
	isClosed() bool
	close()
	// closedErr is the error of an operation on the closed stream (the
	// two classes word it differently).
	closedErr() error
}

// selfOf checks a method's receiver and arguments count.
func selfOf(args []obj, name string, lo, hi int) (stream, error) {
	s, ok := python.Unwrap(args[0]).(stream)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' requires a stream object", name)
	}
	n := len(args) - 1
	if n < lo || n > hi {
		switch {
		case lo == hi && lo == 0:
			return nil, python.Errorf(python.TypeErrorType, "%s.%s() takes no arguments (%d given)", s.Type().Name(), name, n)
		case lo == hi && lo == 1:
			return nil, python.Errorf(python.TypeErrorType, "%s.%s() takes exactly one argument (%d given)", s.Type().Name(), name, n)
		case n > hi:
			return nil, python.Errorf(python.TypeErrorType, "%s expected at most %d argument%s, got %d", name, hi, plural(hi), n)
		}
		return nil, python.Errorf(python.TypeErrorType, "%s expected at least %d argument%s, got %d", name, lo, plural(lo), n)
	}
	return s, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// common adds the methods both classes have.
func common(c *python.Type) {
	noKw := func(name string, fn func(t *python.Thread, s stream, self obj, args []obj) (obj, error), lo, hi int) {
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "%s.%s() takes no keyword arguments", c.Name(), name)
			}
			s, err := selfOf(args, name, lo, hi)
			if err != nil {
				return nil, err
			}
			return fn(t, s, args[0], args[1:])
		})
	}
	checked := func(name string, v func(s stream) obj) {
		noKw(name, func(t *python.Thread, s stream, self obj, args []obj) (obj, error) {
			if s.isClosed() {
				return nil, s.closedErr()
			}
			return v(s), nil
		}, 0, 0)
	}
	checked("readable", func(stream) obj { return python.True })
	checked("writable", func(stream) obj { return python.True })
	checked("seekable", func(stream) obj { return python.True })
	checked("isatty", func(stream) obj { return python.False })
	checked("flush", func(stream) obj { return python.None })
	noKw("close", func(t *python.Thread, s stream, self obj, args []obj) (obj, error) {
		s.close()
		return python.None, nil
	}, 0, 0)
	c.AddGetSet("closed", func(t *python.Thread, o obj) (obj, error) {
		return python.MakeBool(o.(stream).isClosed()), nil
	}, nil)
	noKw("fileno", func(t *python.Thread, s stream, self obj, args []obj) (obj, error) {
		return nil, unsupported("fileno")
	}, 0, 0)
	noKw("detach", func(t *python.Thread, s stream, self obj, args []obj) (obj, error) {
		return nil, unsupported("detach")
	}, 0, 0)
	noKw("__enter__", func(t *python.Thread, s stream, self obj, args []obj) (obj, error) {
		if s.isClosed() {
			return nil, closedError(true)
		}
		return self, nil
	}, 0, 0)
	c.AddMethod("__exit__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if s, ok := python.Unwrap(args[0]).(stream); ok {
			s.close()
		}
		return python.None, nil
	})
	c.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := selfOf(args, "__iter__", 0, 0)
		if err != nil {
			return nil, err
		}
		if s.isClosed() {
			return nil, s.closedErr()
		}
		return args[0], nil
	})
	c.AddMethod("writelines", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := selfOf(args, "writelines", 1, 1)
		if err != nil {
			return nil, err
		}
		if s.isClosed() {
			return nil, closedError(true)
		}
		return python.None, python.Iterate(t, args[1], func(line obj) error {
			_, err := python.CallMethod(t, args[0], "write", []obj{line}, nil)
			return err
		})
	})
	c.AddMethod("readlines", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("readlines", args[1:], kwargs, 0, "hint", "/")
		if err != nil {
			return nil, err
		}
		s, err := selfOf(args, "readlines", 0, 1)
		if err != nil {
			return nil, err
		}
		if s.isClosed() {
			return nil, s.closedErr()
		}
		hint := int64(-1)
		if a[0] != nil && a[0] != python.None {
			if hint, err = python.ArgInt(t, "readlines", a[0]); err != nil {
				return nil, err
			}
		}
		var lines []obj
		total := int64(0)
		for {
			line, err := python.CallMethod(t, args[0], "readline", nil, nil)
			if err != nil {
				return nil, err
			}
			n, err := python.Len(t, line)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				break
			}
			lines = append(lines, line)
			total += int64(n)
			if hint > 0 && total >= hint {
				break
			}
			if len(lines)&1023 == 0 {
				if err := t.Tick(1); err != nil {
					return nil, err
				}
			}
		}
		return python.NewList(lines), nil
	})
}

// sizeArg reads an optional size argument (None or missing: -1).
func sizeArg(t *python.Thread, x obj) (int64, error) {
	if x == nil || x == python.None {
		return -1, nil
	}
	n, ok, err := python.IndexValue(t, x)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, python.Errorf(python.TypeErrorType, "argument should be integer or None, not '%s'", python.TypeName(x))
	}
	return n, nil
}

var addrCounter atomic.Uint64

// addr renders a stand-in for an object's address, numbered on first use
// (CPython's differs from run to run).
func addr(id *uint64) string {
	if *id == 0 {
		*id = addrCounter.Add(1)
	}
	return fmt.Sprintf("0x7f%010x", 0x7a0000+*id*16)
}
