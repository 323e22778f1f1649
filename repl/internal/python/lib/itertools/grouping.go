package itertools

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// groupState is a groupby object's state, shared with its groupers
// (CPython's groupbyobject).
type groupState struct {
	it                       obj
	key                      obj // nil: identity
	tgtKey, currKey, currVal obj
	currGrouper              *iterObj
}

// step reads the next item and its key; ok is false at the end.
func (g *groupState) step(t *python.Thread) (bool, error) {
	v, err := python.Next(t, g.it)
	if err != nil || v == nil {
		return false, err
	}
	k := v
	if g.key != nil {
		if k, err = python.Call(t, g.key, []obj{v}, nil); err != nil {
			return false, err
		}
	}
	g.currVal, g.currKey = v, k
	return true, nil
}

// eq is PyObject_RichCompareBool(a, b, Py_EQ): identity first.
func eq(t *python.Thread, a, b obj) (bool, error) {
	if python.Is(a, b) {
		return true, nil
	}
	return python.Equal(t, a, b)
}

func (m *module) grouping() {
	grouperType := m.newType("_grouper", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		return nil, python.NotSupported("creating itertools._grouper objects directly", "use itertools.groupby()")
	})
	m.newType("groupby", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("groupby", args, kwargs, 1, "iterable", "key")
		if err != nil {
			return nil, err
		}
		src, err := python.Iter(t, a[0])
		if err != nil {
			return nil, err
		}
		g := &groupState{it: src, key: a[1]}
		if g.key == python.None {
			g.key = nil
		}
		return &iterObj{state: g, next: func(t *python.Thread) (obj, error) {
			g.currGrouper = nil
			for i := 0; ; i++ {
				if g.currKey != nil {
					if g.tgtKey == nil {
						break
					}
					same, err := eq(t, g.tgtKey, g.currKey)
					if err != nil {
						return nil, err
					}
					if !same {
						break
					}
				}
				ok, err := g.step(t)
				if err != nil || !ok {
					return nil, err
				}
				if err := tick(t, i); err != nil {
					return nil, err
				}
			}
			g.tgtKey = g.currKey
			gr := &iterObj{typ: grouperType}
			tgt := g.tgtKey
			gr.next = func(t *python.Thread) (obj, error) {
				if g.currGrouper != gr {
					return nil, nil
				}
				if g.currVal == nil {
					ok, err := g.step(t)
					if err != nil || !ok {
						return nil, err
					}
				}
				same, err := eq(t, tgt, g.currKey)
				if err != nil || !same {
					return nil, err
				}
				v := g.currVal
				g.currVal, g.currKey = nil, nil
				return v, nil
			}
			g.currGrouper = gr
			return python.NewTuple([]obj{g.tgtKey, gr}), nil
		}}, nil
	})
	teeType := m.newType("_tee", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("_tee", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		src, err := python.Iter(t, args[0])
		if err != nil {
			return nil, err
		}
		if it, ok := src.(*iterObj); ok {
			if st, ok := it.state.(*teeState); ok {
				return m.teeCopy(st), nil
			}
		}
		return m.newTee(src), nil
	})
	teeType.AddMethod("__copy__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		it, _ := python.Unwrap(args[0]).(*iterObj)
		st, ok := it.state.(*teeState)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor '__copy__' requires a '_tee' object")
		}
		return m.teeCopy(st), nil
	})
	m.newType("_tee_dataobject", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		return nil, python.NotSupported("creating itertools._tee_dataobject objects", "use itertools.tee()")
	})
}

// teeLink is one buffered item of a tee family; the last link of the
// chain is unfilled.
type teeLink struct {
	value  obj
	next   *teeLink
	filled bool
}

// teeSource is the iterator a family of tees shares.
type teeSource struct {
	it      obj
	running bool
}

// teeState is one tee iterator's position.
type teeState struct {
	src *teeSource
	cur *teeLink
}

func (m *module) newTee(src obj) *iterObj {
	return m.teeAt(&teeState{src: &teeSource{it: src}, cur: &teeLink{}})
}

func (m *module) teeCopy(st *teeState) *iterObj {
	return m.teeAt(&teeState{src: st.src, cur: st.cur})
}

func (m *module) teeAt(st *teeState) *iterObj {
	return &iterObj{typ: m.types["_tee"], state: st, next: func(t *python.Thread) (obj, error) {
		l := st.cur
		if !l.filled {
			if st.src.running {
				return nil, python.Errorf(python.RuntimeErrorType, "cannot re-enter the tee iterator")
			}
			st.src.running = true
			v, err := python.Next(t, st.src.it)
			st.src.running = false
			if err != nil || v == nil {
				return nil, err
			}
			l.value, l.filled, l.next = v, true, &teeLink{}
		}
		st.cur = l.next
		return l.value, nil
	}}
}

// tee implements itertools.tee(iterable, n).
func (m *module) tee(t *python.Thread, iterable obj, n int64) (obj, error) {
	if n < 0 {
		return nil, python.Errorf(python.ValueErrorType, "n must be >= 0")
	}
	if n == 0 {
		return python.NewTuple(nil), nil
	}
	if err := t.CheckSize(n * 16); err != nil {
		return nil, err
	}
	it, err := python.Iter(t, iterable)
	if err != nil {
		return nil, err
	}
	out := make([]obj, n)
	copyFn, err := copyMethod(t, it)
	if err != nil {
		return nil, err
	}
	if copyFn != nil {
		out[0] = it
	} else {
		out[0] = m.newTee(it)
		if copyFn, err = copyMethod(t, out[0]); err != nil {
			return nil, err
		}
	}
	for i := int64(1); i < n; i++ {
		c, err := python.Call(t, copyFn, nil, nil)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return python.NewTuple(out), nil
}

// copyMethod returns x.__copy__ bound, or nil if x has none.
func copyMethod(t *python.Thread, x obj) (obj, error) {
	ok, err := python.HasAttr(t, x, "__copy__")
	if err != nil || !ok {
		return nil, err
	}
	return python.GetAttr(t, x, "__copy__")
}
