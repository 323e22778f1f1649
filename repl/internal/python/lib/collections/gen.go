package collections

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// generator is a generator written in Go (the mixin methods of the
// abstract base classes that CPython writes as generators).
type generator struct {
	ident
	typ  *python.Type
	name string
	next func(t *python.Thread) (obj, error)
	done bool
	runs bool
}

func (g *generator) Type() *python.Type { return g.typ }

// Next returns the next item, nil at the end.
func (g *generator) Next(t *python.Thread) (obj, error) {
	if g.done {
		return nil, nil
	}
	if g.runs {
		return nil, python.Errorf(python.ValueErrorType, "generator already executing")
	}
	g.runs = true
	v, err := g.next(t)
	g.runs = false
	if v == nil || err != nil {
		g.done = true
	}
	return v, err
}

// PyRepr renders <generator object Name at 0x...>.
func (g *generator) PyRepr(t *python.Thread) (string, error) {
	return fmt.Sprintf("<generator object %s at %#x>", g.name, idOf(t, g)), nil
}

func newGeneratorType() *python.Type {
	c := python.NewBuiltinType("generator", "builtins", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.Errorf(python.TypeErrorType, "cannot create 'generator' instances")
	})
	c.SetFinal()
	next := func(t *python.Thread, g *generator) (obj, error) {
		v, err := g.Next(t)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, python.NewException(python.StopIterationType)
		}
		return v, nil
	}
	c.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return args[0], nil })
	c.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return next(t, args[0].(*generator))
	})
	c.AddMethod("send", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "generator.send() takes exactly one argument (%d given)", len(args)-1)
		}
		if args[1] != python.None {
			return nil, python.NotSupported("send() of a non-None value to this generator", "")
		}
		return next(t, args[0].(*generator))
	})
	c.AddMethod("close", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		args[0].(*generator).done = true
		return python.None, nil
	})
	c.AddMethod("throw", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("throw() into this generator", "")
	})
	return c
}
