// Package itertools is Python's itertools module for code mode's
// interpreter: every function of CPython 3.12, each a lazy iterator type
// of its own with CPython's name, arguments, errors and order of work.
package itertools

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes the itertools module importable.
func Register() {
	python.Setup()
	python.RegisterModule("itertools", load)
}

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// iterObj is an instance of one of the module's iterator types.
type iterObj struct {
	ident
	typ  *python.Type
	next func(t *python.Thread) (obj, error)
	// repr renders the iterator; nil: <itertools.name object at 0x...>.
	repr func(t *python.Thread) (string, error)
	// state is the type's own data (tee links, groupby state).
	state any
}

func (it *iterObj) Type() *python.Type { return it.typ }

// Next returns the next item, or nil at the end.
func (it *iterObj) Next(t *python.Thread) (obj, error) { return it.next(t) }

// PyRepr renders the iterator as CPython does.
func (it *iterObj) PyRepr(t *python.Thread) (string, error) {
	if it.repr != nil {
		return it.repr(t)
	}
	return defaultRepr(t, it)
}

func defaultRepr(t *python.Thread, x obj) (string, error) {
	idf, _ := t.Interp().Builtins().GetStr("id")
	id, err := python.Call(t, idf, []obj{x}, nil)
	if err != nil {
		return "", err
	}
	n, _ := python.AsInt64(id)
	c := x.Type()
	return fmt.Sprintf("<%s.%s object at %#x>", c.Module(), c.Qualname(), n), nil
}

// module is one interpreter's itertools: its types.
type module struct {
	types map[string]*python.Type
}

// newType makes one of the module's classes; make builds an instance from
// the constructor's arguments.
func (m *module) newType(name string, make func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error)) *python.Type {
	var c *python.Type
	c = python.NewBuiltinType(name, "itertools", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		it, err := make(t, cls, args, kwargs)
		if err != nil {
			return nil, err
		}
		it.typ = c
		if cls != c {
			// A subclass's instance wraps the iterator.
			it.typ = cls
			return python.NewInstance(cls, it), nil
		}
		return it, nil
	})
	c.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return args[0], nil })
	c.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		it, ok := python.Unwrap(args[0]).(*iterObj)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor '__next__' requires a '%s' object", name)
		}
		v, err := it.Next(t)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, python.NewException(python.StopIterationType)
		}
		return v, nil
	})
	c.AddMethod("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("pickling itertools objects", "")
	})
	m.types[name] = c
	return c
}

func load(*python.Interp) (*python.Module, error) {
	m := &module{types: map[string]*python.Type{}}
	mod := python.NewModule("itertools")
	m.infinite()
	m.filters()
	m.combinatoric()
	m.grouping()
	for name, c := range m.types {
		mod.Set(name, c)
	}
	mod.Func("tee", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "itertools.tee() takes no keyword arguments")
		}
		if err := posArgs("tee", args, nil, 1, 2); err != nil {
			return nil, err
		}
		n := int64(2)
		if len(args) == 2 {
			var err error
			if n, err = python.ArgInt(t, "tee", args[1]); err != nil {
				return nil, err
			}
		}
		return m.tee(t, args[0], n)
	})
	return mod, nil
}

// posArgs checks positional-only arguments (no keywords) as CPython's
// _PyArg_CheckPositional does.
func posArgs(fn string, args []obj, kwargs []kwarg, lo, hi int) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", fn)
	}
	n := len(args)
	switch {
	case n >= lo && n <= hi:
		return nil
	case lo == hi:
		return python.Errorf(python.TypeErrorType, "%s expected %d argument%s, got %d", fn, lo, plural(lo), n)
	case n < lo:
		return python.Errorf(python.TypeErrorType, "%s expected at least %d argument%s, got %d", fn, lo, plural(lo), n)
	}
	return python.Errorf(python.TypeErrorType, "%s expected at most %d argument%s, got %d", fn, hi, plural(hi), n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ssize converts an argument CPython reads as a Py_ssize_t.
func ssize(t *python.Thread, x obj) (int64, error) {
	n, ok, err := python.IndexValue(t, x)
	if err != nil {
		if python.IsInstance(err, python.IndexErrorType) {
			return 0, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C ssize_t")
		}
		return 0, err
	}
	if !ok {
		return 0, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
	}
	return n, nil
}

// truth is bool(x).
func truth(t *python.Thread, x obj) (bool, error) { return python.TruthE(t, x) }

// tick counts work done in a loop that does not return to Python code.
func tick(t *python.Thread, i int) error {
	if i&255 == 255 {
		return t.Tick(1)
	}
	return nil
}
