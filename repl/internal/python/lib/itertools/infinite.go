package itertools

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// isNumber is CPython's PyNumber_Check: ints, floats, complexes and
// objects with __index__, __int__ or __float__.
func isNumber(x obj) bool {
	switch python.Unwrap(x).(type) {
	case python.Int, *python.BigInt, python.Bool, python.Float, python.Complex:
		return true
	}
	for _, n := range []string{"__index__", "__int__", "__float__", "__complex__"} {
		if v, ok := x.Type().Lookup(n); ok && v != python.None {
			return true
		}
	}
	return false
}

func (m *module) infinite() {
	m.newType("count", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if len(args) > 2 {
			return nil, python.Errorf(python.TypeErrorType, "count() takes at most 2 arguments (%d given)", len(args))
		}
		a, err := python.UnpackArgs("count", args, kwargs, 0, "start", "step")
		if err != nil {
			return nil, err
		}
		start, step := a[0], a[1]
		if start == nil {
			start = python.MakeInt(0)
		}
		if step == nil {
			step = python.MakeInt(1)
		}
		if !isNumber(start) || !isNumber(step) {
			return nil, python.Errorf(python.TypeErrorType, "a number is required")
		}
		// CPython counts in C integers (yielding plain ints) when start is
		// an int and step is the int 1.
		stepIsOne := false
		if v, ok := python.IntValue(step); ok {
			if n, ok := python.AsInt64(v); ok && n == 1 {
				stepIsOne = true
			}
		}
		if v, ok := python.IntValue(start); ok && stepIsOne {
			if b, isBool := v.(python.Bool); isBool {
				v = python.MakeInt(0)
				if b {
					v = python.MakeInt(1)
				}
			}
			start = v
		}
		cur := start
		it := &iterObj{}
		it.next = func(t *python.Thread) (obj, error) {
			v := cur
			n, err := python.Binary(t, syntax.Add, cur, step)
			if err != nil {
				return nil, err
			}
			cur = n
			return v, nil
		}
		it.repr = func(t *python.Thread) (string, error) {
			rc, err := python.Repr(t, cur)
			if err != nil {
				return "", err
			}
			if stepIsOne {
				return cls.Name() + "(" + rc + ")", nil
			}
			rs, err := python.Repr(t, step)
			if err != nil {
				return "", err
			}
			return cls.Name() + "(" + rc + ", " + rs + ")", nil
		}
		return it, nil
	})
	m.newType("cycle", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("cycle", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		src, err := python.Iter(t, args[0])
		if err != nil {
			return nil, err
		}
		var saved []obj
		index := 0
		it := &iterObj{}
		it.next = func(t *python.Thread) (obj, error) {
			if src != nil {
				v, err := python.Next(t, src)
				if err != nil {
					return nil, err
				}
				if v != nil {
					if len(saved)&1023 == 1023 {
						if err := t.CheckSize(int64(len(saved)+1) * 16); err != nil {
							return nil, err
						}
					}
					saved = append(saved, v)
					return v, nil
				}
				src = nil
			}
			if len(saved) == 0 {
				return nil, nil
			}
			v := saved[index]
			index++
			if index >= len(saved) {
				index = 0
			}
			return v, nil
		}
		return it, nil
	})
	rep := m.newType("repeat", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("repeat", args, kwargs, 1, "object", "times")
		if err != nil {
			return nil, err
		}
		elem := a[0]
		cnt := int64(-1)
		if a[1] != nil {
			if cnt, err = ssize(t, a[1]); err != nil {
				return nil, err
			}
			if cnt < 0 {
				cnt = 0
			}
		}
		st := &repeatState{cnt: cnt}
		it := &iterObj{state: st}
		it.next = func(t *python.Thread) (obj, error) {
			if st.cnt == 0 {
				return nil, nil
			}
			if st.cnt > 0 {
				st.cnt--
			}
			return elem, nil
		}
		it.repr = func(t *python.Thread) (string, error) {
			r, err := python.Repr(t, elem)
			if err != nil {
				return "", err
			}
			if st.cnt < 0 {
				return cls.Name() + "(" + r + ")", nil
			}
			return cls.Name() + "(" + r + ", " + itoa(st.cnt) + ")", nil
		}
		return it, nil
	})
	rep.AddMethod("__length_hint__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		it, _ := python.Unwrap(args[0]).(*iterObj)
		st, _ := it.state.(*repeatState)
		if st == nil || st.cnt < 0 {
			return nil, python.Errorf(python.TypeErrorType, "len() of unsized object")
		}
		return python.MakeInt(st.cnt), nil
	})
}

type repeatState struct{ cnt int64 }

func itoa(n int64) string {
	r, _ := python.Repr(nil, python.MakeInt(n))
	return r
}
