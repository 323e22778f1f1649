package itertools

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

func (m *module) filters() {
	m.newType("accumulate", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("accumulate", args, kwargs, 1, "iterable", "func", "*", "initial")
		if err != nil {
			return nil, err
		}
		src, err := python.Iter(t, a[0])
		if err != nil {
			return nil, err
		}
		fn, initial := a[1], a[2]
		if fn == python.None {
			fn = nil
		}
		if initial == python.None {
			initial = nil
		}
		var total obj
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if initial != nil {
				total, initial = initial, nil
				return total, nil
			}
			v, err := python.Next(t, src)
			if err != nil || v == nil {
				return nil, err
			}
			if total == nil {
				total = v
				return total, nil
			}
			if fn == nil {
				total, err = python.Binary(t, syntax.Add, total, v)
			} else {
				total, err = python.Call(t, fn, []obj{total, v}, nil)
			}
			if err != nil {
				return nil, err
			}
			return total, nil
		}}, nil
	})
	m.newType("batched", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("batched", args, kwargs, 2, "iterable", "n")
		if err != nil {
			return nil, err
		}
		n, err := ssize(t, a[1])
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, python.Errorf(python.ValueErrorType, "n must be at least one")
		}
		src, err := python.Iter(t, a[0])
		if err != nil {
			return nil, err
		}
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if src == nil {
				return nil, nil
			}
			var items []obj
			for int64(len(items)) < n {
				v, err := python.Next(t, src)
				if err != nil {
					src = nil
					return nil, err
				}
				if v == nil {
					break
				}
				items = append(items, v)
				if len(items)&1023 == 0 {
					if err := t.CheckSize(int64(len(items)) * 16); err != nil {
						return nil, err
					}
					if err := t.Tick(1); err != nil {
						return nil, err
					}
				}
			}
			if len(items) == 0 {
				src = nil
				return nil, nil
			}
			return python.NewTuple(items), nil
		}}, nil
	})
	chainOf := func(source obj) *iterObj {
		var active obj
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			for source != nil {
				if active == nil {
					x, err := python.Next(t, source)
					if err != nil {
						source = nil
						return nil, err
					}
					if x == nil {
						source = nil
						return nil, nil
					}
					if active, err = python.Iter(t, x); err != nil {
						source = nil
						return nil, err
					}
				}
				v, err := python.Next(t, active)
				if err != nil {
					return nil, err
				}
				if v != nil {
					return v, nil
				}
				active = nil
				if err := t.Tick(1); err != nil {
					return nil, err
				}
			}
			return nil, nil
		}}
	}
	chain := m.newType("chain", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "chain() takes no keyword arguments")
		}
		src, err := python.Iter(t, python.NewTuple(append([]obj(nil), args...)))
		if err != nil {
			return nil, err
		}
		return chainOf(src), nil
	})
	chain.AddClassMethod("from_iterable", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "chain.from_iterable() takes no keyword arguments")
		}
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "chain.from_iterable() takes exactly one argument (%d given)", len(args)-1)
		}
		src, err := python.Iter(t, args[1])
		if err != nil {
			return nil, err
		}
		it := chainOf(src)
		cls, _ := args[0].(*python.Type)
		if cls == nil || cls == chain {
			it.typ = chain
			return it, nil
		}
		it.typ = cls
		return python.NewInstance(cls, it), nil
	})
	m.newType("compress", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("compress", args, kwargs, 2, "data", "selectors")
		if err != nil {
			return nil, err
		}
		data, err := python.Iter(t, a[0])
		if err != nil {
			return nil, err
		}
		sel, err := python.Iter(t, a[1])
		if err != nil {
			return nil, err
		}
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			for i := 0; ; i++ {
				d, err := python.Next(t, data)
				if err != nil || d == nil {
					return nil, err
				}
				s, err := python.Next(t, sel)
				if err != nil || s == nil {
					return nil, err
				}
				ok, err := truth(t, s)
				if err != nil {
					return nil, err
				}
				if ok {
					return d, nil
				}
				if err := tick(t, i); err != nil {
					return nil, err
				}
			}
		}}, nil
	})
	m.newType("dropwhile", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("dropwhile", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		pred := args[0]
		src, err := python.Iter(t, args[1])
		if err != nil {
			return nil, err
		}
		started := false
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			for i := 0; ; i++ {
				v, err := python.Next(t, src)
				if err != nil || v == nil {
					return nil, err
				}
				if started {
					return v, nil
				}
				r, err := python.Call(t, pred, []obj{v}, nil)
				if err != nil {
					return nil, err
				}
				ok, err := truth(t, r)
				if err != nil {
					return nil, err
				}
				if !ok {
					started = true
					return v, nil
				}
				if err := tick(t, i); err != nil {
					return nil, err
				}
			}
		}}, nil
	})
	m.newType("takewhile", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("takewhile", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		pred := args[0]
		src, err := python.Iter(t, args[1])
		if err != nil {
			return nil, err
		}
		stopped := false
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if stopped {
				return nil, nil
			}
			v, err := python.Next(t, src)
			if err != nil || v == nil {
				return nil, err
			}
			r, err := python.Call(t, pred, []obj{v}, nil)
			if err != nil {
				return nil, err
			}
			ok, err := truth(t, r)
			if err != nil {
				return nil, err
			}
			if ok {
				return v, nil
			}
			stopped = true
			return nil, nil
		}}, nil
	})
	m.newType("filterfalse", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("filterfalse", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		fn := args[0]
		if fn == python.None || fn == obj(python.BoolType) {
			fn = nil
		}
		src, err := python.Iter(t, args[1])
		if err != nil {
			return nil, err
		}
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			for i := 0; ; i++ {
				v, err := python.Next(t, src)
				if err != nil || v == nil {
					return nil, err
				}
				r := v
				if fn != nil {
					if r, err = python.Call(t, fn, []obj{v}, nil); err != nil {
						return nil, err
					}
				}
				ok, err := truth(t, r)
				if err != nil {
					return nil, err
				}
				if !ok {
					return v, nil
				}
				if err := tick(t, i); err != nil {
					return nil, err
				}
			}
		}}, nil
	})
	m.newType("islice", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("islice", args, kwargs, 2, 4); err != nil {
			return nil, err
		}
		return islice(t, args)
	})
	m.newType("pairwise", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("pairwise", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		src, err := python.Iter(t, args[0])
		if err != nil {
			return nil, err
		}
		var old obj
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if src == nil {
				return nil, nil
			}
			if old == nil {
				v, err := python.Next(t, src)
				if err != nil || v == nil {
					src = nil
					return nil, err
				}
				old = v
			}
			v, err := python.Next(t, src)
			if err != nil || v == nil {
				src, old = nil, nil
				return nil, err
			}
			r := python.NewTuple([]obj{old, v})
			old = v
			return r, nil
		}}, nil
	})
	m.newType("starmap", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		if err := posArgs("starmap", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		fn := args[0]
		src, err := python.Iter(t, args[1])
		if err != nil {
			return nil, err
		}
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			v, err := python.Next(t, src)
			if err != nil || v == nil {
				return nil, err
			}
			items, err := python.ToSlice(t, v)
			if err != nil {
				return nil, err
			}
			return python.Call(t, fn, items, nil)
		}}, nil
	})
	m.newType("zip_longest", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		var fill obj = python.None
		for _, kw := range kwargs {
			if kw.Name != "fillvalue" || len(kwargs) > 1 {
				return nil, python.Errorf(python.TypeErrorType, "zip_longest() got an unexpected keyword argument")
			}
			fill = kw.Value
		}
		its := make([]obj, len(args))
		for i, a := range args {
			it, err := python.Iter(t, a)
			if err != nil {
				return nil, err
			}
			its[i] = it
		}
		active := len(its)
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if len(its) == 0 || active == 0 {
				return nil, nil
			}
			out := make([]obj, len(its))
			for i, it := range its {
				if it == nil {
					out[i] = fill
					continue
				}
				v, err := python.Next(t, it)
				if err != nil {
					active = 0
					return nil, err
				}
				if v == nil {
					active--
					if active == 0 {
						return nil, nil
					}
					its[i] = nil
					v = fill
				}
				out[i] = v
			}
			return python.NewTuple(out), nil
		}}, nil
	})
}

// islice builds islice(iterable, stop) or islice(iterable, start, stop[,
// step]).
func islice(t *python.Thread, args []obj) (*iterObj, error) {
	const (
		stopMsg  = "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."
		indexMsg = "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize."
		stepMsg  = "Step for islice() must be a positive integer or None."
	)
	// asSsize reads an index; ok is false when x is not one (or too big).
	asSsize := func(x obj) (int64, bool, error) {
		n, ok, err := python.IndexValue(t, x)
		if err != nil {
			// CPython clears any exception the conversion raised.
			if _, isExc := python.AsException(err); isExc {
				return 0, false, nil
			}
			return 0, false, err
		}
		return n, ok, nil
	}
	start, stop, step := int64(0), int64(-1), int64(1)
	if len(args) == 2 {
		if args[1] != python.None {
			n, ok, err := asSsize(args[1])
			if err != nil {
				return nil, err
			}
			if !ok || n == -1 {
				return nil, python.Errorf(python.ValueErrorType, stopMsg)
			}
			stop = n
		}
	} else {
		if args[1] != python.None {
			n, ok, err := asSsize(args[1])
			if err != nil {
				return nil, err
			}
			if !ok {
				n = -1
			}
			start = n
		}
		if args[2] != python.None {
			n, ok, err := asSsize(args[2])
			if err != nil {
				return nil, err
			}
			if !ok || n == -1 {
				return nil, python.Errorf(python.ValueErrorType, stopMsg)
			}
			stop = n
		}
	}
	if start < 0 || stop < -1 {
		return nil, python.Errorf(python.ValueErrorType, indexMsg)
	}
	if len(args) == 4 && args[3] != python.None {
		n, ok, err := asSsize(args[3])
		if err != nil {
			return nil, err
		}
		if !ok {
			n = -1
		}
		step = n
	}
	if step < 1 {
		return nil, python.Errorf(python.ValueErrorType, stepMsg)
	}
	src, err := python.Iter(t, args[0])
	if err != nil {
		return nil, err
	}
	next, cnt := start, int64(0)
	return &iterObj{next: func(t *python.Thread) (obj, error) {
		if src == nil {
			return nil, nil
		}
		for cnt < next {
			v, err := python.Next(t, src)
			if err != nil || v == nil {
				src = nil
				return nil, err
			}
			cnt++
			if err := tick(t, int(cnt)); err != nil {
				return nil, err
			}
		}
		if stop != -1 && cnt >= stop {
			src = nil
			return nil, nil
		}
		v, err := python.Next(t, src)
		if err != nil || v == nil {
			src = nil
			return nil, err
		}
		cnt++
		old := next
		next += step
		if next < old || (stop != -1 && next > stop) {
			next = stop
		}
		return v, nil
	}}, nil
}
