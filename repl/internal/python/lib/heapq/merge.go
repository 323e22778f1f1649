package heapq

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// merger is the state of heapq.merge(*iterables, key=, reverse=): the
// heap of [key or value, order, index] lists, as CPython's generator keeps
// [value, order, next] (the order numbers are distinct, so the third field
// is never compared).
type merger struct {
	iterables []obj
	key       obj // nil: none
	reverse   bool
	started   bool
	h         *python.List
	its       []obj // iterator of each input, by index
	vals      []obj // with key: the current value of each input
	pending   bool  // the top's value was yielded: advance its input
	tail      obj   // the last input, yielded to its end without key
}

func (m *merger) setup(t *python.Thread) error {
	m.started = true
	dir := int64(1)
	if m.reverse {
		dir = -1
	}
	var entries []obj
	for order, x := range m.iterables {
		it, err := python.Iter(t, x)
		if err != nil {
			return err
		}
		v, err := python.Next(t, it)
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		k := v
		if m.key != nil {
			if k, err = python.Call(t, m.key, []obj{v}, nil); err != nil {
				return err
			}
		}
		idx := len(m.its)
		m.its = append(m.its, it)
		m.vals = append(m.vals, v)
		entries = append(entries, python.NewList([]obj{k, python.MakeInt(int64(order) * dir), python.MakeInt(int64(idx))}))
	}
	m.iterables = nil
	m.h = python.NewList(entries)
	return Heapify(t, m.h, m.reverse)
}

func entryIndex(e obj) int {
	n, _ := python.AsInt64(e.(*python.List).Items()[2])
	return int(n)
}

func (m *merger) next(t *python.Thread) (obj, error) {
	if !m.started {
		if err := m.setup(t); err != nil {
			return nil, err
		}
	}
	if m.tail != nil {
		return python.Next(t, m.tail)
	}
	if m.pending {
		m.pending = false
		s := m.h.Items()[0].(*python.List)
		i := entryIndex(s)
		v, err := python.Next(t, m.its[i])
		if err != nil {
			return nil, err
		}
		if v == nil {
			if _, err := Pop(t, m.h, m.reverse); err != nil {
				return nil, err
			}
		} else {
			k := v
			if m.key != nil {
				if k, err = python.Call(t, m.key, []obj{v}, nil); err != nil {
					return nil, err
				}
			}
			s.Items()[0] = k
			m.vals[i] = v
			if _, err := Replace(t, m.h, s, m.reverse); err != nil {
				return nil, err
			}
		}
	}
	switch len(m.h.Items()) {
	case 0:
		return nil, nil
	case 1:
		i := entryIndex(m.h.Items()[0])
		m.tail = m.its[i]
		return m.vals[i], nil
	}
	m.pending = true
	return m.vals[entryIndex(m.h.Items()[0])], nil
}

// generator is a Go-implemented generator (heapq.merge's result).
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

// PyRepr renders <generator object merge at 0x...>.
func (g *generator) PyRepr(t *python.Thread) (string, error) {
	id, err := python.Call(t, idFunc(t), []obj{g}, nil)
	if err != nil {
		return "", err
	}
	n, _ := python.AsInt64(id)
	return fmt.Sprintf("<generator object %s at %#x>", g.name, n), nil
}

func idFunc(t *python.Thread) obj {
	f, _ := t.Interp().Builtins().GetStr("id")
	return f
}

func newGeneratorType() *python.Type {
	c := python.NewBuiltinType("generator", "builtins", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.Errorf(python.TypeErrorType, "cannot create 'generator' instances")
	})
	c.SetFinal()
	c.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return args[0], nil })
	c.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		v, err := args[0].(*generator).Next(t)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, python.NewException(python.StopIterationType)
		}
		return v, nil
	})
	c.AddMethod("send", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "generator.send() takes exactly one argument (%d given)", len(args)-1)
		}
		if args[1] != python.None {
			return nil, python.NotSupported("send() of a non-None value to heapq.merge's generator", "")
		}
		v, err := args[0].(*generator).Next(t)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, python.NewException(python.StopIterationType)
		}
		return v, nil
	})
	c.AddMethod("close", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		args[0].(*generator).done = true
		return python.None, nil
	})
	c.AddMethod("throw", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("throw() into heapq.merge's generator", "")
	})
	return c
}
