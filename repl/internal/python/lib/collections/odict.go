package collections

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

func (st *state) isOrderedDict(x obj) bool { return x.Type().IsSubtype(st.orderedDict) }

// moveToEnd moves key to the end (last) or the front of d.
func moveToEnd(t *python.Thread, d *python.Dict, key obj, last bool) error {
	v, ok, err := d.Get(t, key)
	if err != nil {
		return err
	}
	if !ok {
		return python.NewException(python.KeyErrorType, key)
	}
	if last {
		// Keep the stored key (an equal key may differ in type; equal
		// strs do not).
		var stored obj
		if _, isStr := key.(*python.Str); isStr {
			stored = key
		}
		d.Items(func(k, _ obj) bool {
			if stored != nil {
				return false
			}
			eq, _ := eqOrIs(t, k, key)
			if eq {
				stored = k
				return false
			}
			return true
		})
		if stored == nil {
			stored = key
		}
		if _, _, err := d.Delete(t, key); err != nil {
			return err
		}
		return d.Set(t, stored, v)
	}
	type kv struct{ k, v obj }
	var rest []kv
	var first kv
	d.Items(func(k, val obj) bool {
		if eq, _ := eqOrIs(t, k, key); eq && first.k == nil {
			first = kv{k, val}
		} else {
			rest = append(rest, kv{k, val})
		}
		return true
	})
	d.Clear()
	if err := d.Set(t, first.k, first.v); err != nil {
		return err
	}
	for _, e := range rest {
		if err := d.Set(t, e.k, e.v); err != nil {
			return err
		}
	}
	return t.Tick(len(rest) / 64)
}

func (st *state) makeOrderedDict() {
	eq := func(name string, ne bool) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("OrderedDict."+name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			a, b := args[0], args[1]
			bd := baseDict(b)
			if bd == nil {
				return python.NotImplemented, nil
			}
			same, err := python.Equal(t, baseDict(a), bd)
			if err != nil {
				return nil, err
			}
			if same && st.isOrderedDict(b) {
				ka, kb := baseDict(a).Keys(), bd.Keys()
				for i := range ka {
					if i >= len(kb) {
						break
					}
					e, err := eqOrIs(t, ka[i], kb[i])
					if err != nil {
						return nil, err
					}
					if !e {
						same = false
						break
					}
				}
			}
			return python.MakeBool(same != ne), nil
		})
	}
	st.orderedDict = newClass("OrderedDict", "collections", []*python.Type{python.DictType},
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, python.Errorf(python.TypeErrorType, "expected at most 1 arguments, got %d", len(args)-1)
			}
			var other obj
			if len(args) == 2 {
				other = args[1]
			}
			return python.None, st.mappingUpdate(t, args[0], other, kwargs)
		}),
		method("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			name := typeName(self)
			d := baseDict(self)
			if d.Len() == 0 {
				return python.NewStr(name + "()"), nil
			}
			if !st.reprs.enter(self) {
				return python.NewStr("..."), nil
			}
			defer st.reprs.leave(self)
			body, err := python.ReprDict(t, d)
			if err != nil {
				return nil, err
			}
			return python.NewStr(name + "(" + body + ")"), nil
		}),
		eq("__eq__", false),
		eq("__ne__", true),
		method("move_to_end", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs("move_to_end", args[1:], kwargs, 1, "key", "last")
			if err != nil {
				return nil, err
			}
			last := true
			if a[1] != nil {
				if last, err = truth(t, a[1]); err != nil {
					return nil, err
				}
			}
			return python.None, moveToEnd(t, baseDict(args[0]), a[0], last)
		}),
		method("popitem", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs("popitem", args[1:], kwargs, 0, "last")
			if err != nil {
				return nil, err
			}
			last := true
			if a[0] != nil {
				if last, err = truth(t, a[0]); err != nil {
					return nil, err
				}
			}
			d := baseDict(args[0])
			if d.Len() == 0 {
				return nil, python.Errorf(python.KeyErrorType, "dictionary is empty")
			}
			if last {
				k, v, _ := d.PopLast(t)
				return python.NewTuple([]obj{k, v}), nil
			}
			var k obj
			d.Items(func(key, _ obj) bool { k = key; return false })
			v, _, err := d.Delete(t, k)
			if err != nil {
				return nil, err
			}
			return python.NewTuple([]obj{k, v}), nil
		}),
		method("update", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("update", len(args)-1, 0, 1)
			}
			var other obj
			if len(args) == 2 {
				other = args[1]
			}
			return python.None, st.mappingUpdate(t, args[0], other, kwargs)
		}),
		method("copy", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("OrderedDict.copy", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return python.Call(t, args[0].Type(), []obj{args[0]}, nil)
		}),
		method("__copy__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return python.Call(t, args[0].Type(), []obj{args[0]}, nil)
		}),
		classMethod("fromkeys", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs("fromkeys", args[1:], kwargs, 1, "iterable", "value")
			if err != nil {
				return nil, err
			}
			v := a[1]
			if v == nil {
				v = python.None
			}
			r, err := python.Call(t, args[0], nil, nil)
			if err != nil {
				return nil, err
			}
			err = python.Iterate(t, a[0], func(k obj) error { return python.SetItem(t, r, k, v) })
			return r, err
		}),
		method("__or__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__or__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return st.odictOr(t, args[0], args[1], args[0])
		}),
		method("__ror__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ror__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return st.odictOr(t, args[1], args[0], args[0])
		}),
		method("__ior__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ior__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if err := st.mappingUpdate(t, args[0], args[1], nil); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
		method("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return dictReduce(t, args[0], python.NewTuple(nil))
		}),
		classGetItem,
	)
}

// odictOr implements left | right where self (one of them) is an
// OrderedDict: type(self)(left) updated with right.
func (st *state) odictOr(t *python.Thread, left, right, self obj) (obj, error) {
	if baseDict(left) == nil || baseDict(right) == nil {
		return python.NotImplemented, nil
	}
	r, err := python.Call(t, self.Type(), []obj{left}, nil)
	if err != nil {
		return nil, err
	}
	return r, st.mappingUpdate(t, r, right, nil)
}

// factoryOf returns a defaultdict's default_factory.
func factoryOf(self obj) obj {
	if d := baseDict(self); d != nil {
		if f, ok := d.Extra().(*ddFactory); ok {
			return f.fn
		}
	}
	return python.None
}

type ddFactory struct{ fn obj }

func setFactory(self, fn obj) {
	if d := baseDict(self); d != nil {
		d.SetExtra(&ddFactory{fn: fn})
	}
}

func (st *state) makeDefaultDict() {
	st.defaultDict = newClass("defaultdict", "collections", []*python.Type{python.DictType},
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			var fn obj = python.None
			rest := args[1:]
			if len(rest) > 0 {
				fn, rest = rest[0], rest[1:]
				if fn != python.None && !python.Callable(fn) {
					return nil, python.Errorf(python.TypeErrorType, "first argument must be callable or None")
				}
			}
			setFactory(self, fn)
			init, _ := python.DictType.Lookup("__init__")
			_, err := python.Call(t, init, append([]obj{self}, rest...), kwargs)
			return python.None, err
		}),
		property("default_factory", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return factoryOf(args[0]), nil
		}, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			setFactory(args[0], args[1])
			return python.None, nil
		}),
		method("__missing__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("defaultdict.__missing__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			fn := factoryOf(args[0])
			if fn == python.None {
				return nil, python.NewException(python.KeyErrorType, args[1])
			}
			v, err := python.Call(t, fn, nil, nil)
			if err != nil {
				return nil, err
			}
			return v, python.SetItem(t, args[0], args[1], v)
		}),
		method("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			fr, err := python.Repr(t, factoryOf(self))
			if err != nil {
				return nil, err
			}
			d := baseDict(self)
			body := "{...}"
			if st.reprs.enter(d) {
				body, err = python.ReprDict(t, d)
				st.reprs.leave(d)
				if err != nil {
					return nil, err
				}
			}
			return python.NewStr(typeName(self) + "(" + fr + ", " + body + ")"), nil
		}),
		method("copy", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return python.Call(t, args[0].Type(), []obj{factoryOf(args[0]), args[0]}, nil)
		}),
		method("__copy__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return python.Call(t, args[0].Type(), []obj{factoryOf(args[0]), args[0]}, nil)
		}),
		method("__or__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__or__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return st.ddOr(t, args[0], args[1], args[0])
		}),
		method("__ror__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ror__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return st.ddOr(t, args[1], args[0], args[0])
		}),
		method("__ior__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ior__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if err := python.DictUpdate(t, baseDict(args[0]), []obj{args[1]}, nil); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
		method("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return dictReduce(t, args[0], factoryArgs(args[0]))
		}),
		classGetItem,
	)
}

// ddOr implements left | right where self (one of them) is a defaultdict:
// type(self)(self.default_factory, left) updated with right.
func (st *state) ddOr(t *python.Thread, left, right, self obj) (obj, error) {
	if baseDict(left) == nil || baseDict(right) == nil {
		return python.NotImplemented, nil
	}
	r, err := python.Call(t, self.Type(), []obj{factoryOf(self), left}, nil)
	if err != nil {
		return nil, err
	}
	return r, python.DictUpdate(t, baseDict(r), []obj{right}, nil)
}

// factoryArgs is defaultdict.__reduce__'s constructor arguments.
func factoryArgs(self obj) obj {
	if f := factoryOf(self); f != python.None {
		return python.NewTuple([]obj{f})
	}
	return python.NewTuple(nil)
}

// dictReduce is the __reduce__ of OrderedDict and defaultdict: (type,
// args, the instance dict or None, None, iter(self.items())).
func dictReduce(t *python.Thread, self, args obj) (obj, error) {
	var state obj = python.None
	if inst, ok := self.(*python.Instance); ok && inst.Attrs().Len() > 0 {
		state = inst.Attrs()
	}
	items, err := callMethod(t, self, "items")
	if err != nil {
		return nil, err
	}
	it, err := python.Iter(t, items)
	if err != nil {
		return nil, err
	}
	return python.NewTuple([]obj{self.Type(), args, state, python.None, it}), nil
}
