package collections

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/heapq"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// zero and one are the ints 0 and 1 (set by setup).
var zero, one obj

// newItemGetter1 makes operator.itemgetter(1), the key of most_common.
func newItemGetter1() obj {
	return python.NewBuiltin("itemgetter", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 1 {
			return nil, python.Errorf(python.TypeErrorType, "itemgetter expected 1 argument, got %d", len(args))
		}
		return python.GetItem(t, args[0], one)
	})
}

func (st *state) newCounter() *python.Instance {
	return python.NewInstance(st.counter, python.NewDict(0))
}

func (st *state) isCounter(x obj) bool { return x.Type().IsSubtype(st.counter) }

func (st *state) makeCounter() {
	cmp := func(name string, f func(t *python.Thread, a, b obj) (obj, error)) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter."+name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if !st.isCounter(args[1]) {
				return python.NotImplemented, nil
			}
			return f(t, args[0], args[1])
		})
	}
	arith := func(name string, f func(t *python.Thread, a, b obj) (obj, error)) member {
		return cmp(name, f)
	}
	inplace := func(name string, f func(t *python.Thread, a, b obj) error) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter."+name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if err := f(t, args[0], args[1]); err != nil {
				return nil, err
			}
			return callMethod(t, args[0], "_keep_positive")
		})
	}
	st.counter = newClass("Counter", "collections", []*python.Type{python.DictType},
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("Counter.__init__", len(args)-1, 0, 1)
			}
			var it obj = python.None
			if len(args) == 2 {
				it = args[1]
			}
			_, err := python.CallMethod(t, args[0], "update", []obj{it}, kwargs)
			return python.None, err
		}),
		method("__missing__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.__missing__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return zero, nil
		}),
		method("total", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.total", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			vals, err := callMethod(t, args[0], "values")
			if err != nil {
				return nil, err
			}
			return python.Call(t, builtin(t, "sum"), []obj{vals}, nil)
		}),
		method("most_common", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "Counter.most_common", Pos: []string{"self", "n"}, Required: 1}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			return mostCommon(t, a[0], a[1], st.itemGetter1)
		}),
		method("elements", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.elements", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return st.elements(t, args[0])
		}),
		classMethod("fromkeys", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.Errorf(python.NotImplementedErrorType, "Counter.fromkeys() is undefined.  Use Counter(iterable) instead.")
		}),
		method("update", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("Counter.update", len(args)-1, 0, 1)
			}
			var it obj = python.None
			if len(args) == 2 {
				it = args[1]
			}
			return python.None, st.counterUpdate(t, args[0], it, kwargs, false)
		}),
		method("subtract", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("Counter.subtract", len(args)-1, 0, 1)
			}
			var it obj = python.None
			if len(args) == 2 {
				it = args[1]
			}
			return python.None, st.counterUpdate(t, args[0], it, kwargs, true)
		}),
		method("copy", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.copy", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return python.Call(t, args[0].Type(), []obj{args[0]}, nil)
		}),
		method("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.__reduce__", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			d, err := python.Call(t, python.DictType, []obj{args[0]}, nil)
			if err != nil {
				return nil, err
			}
			return python.NewTuple([]obj{args[0].Type(), python.NewTuple([]obj{d})}), nil
		}),
		method("__delitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.__delitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			in, err := python.Contains(t, args[0], args[1])
			if err != nil || !in {
				return python.None, err
			}
			_, _, err = baseDict(args[0]).Delete(t, args[1])
			return python.None, err
		}),
		method("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			s, err := st.counterRepr(t, args[0])
			if err != nil {
				return nil, err
			}
			return python.NewStr(s), nil
		}),
		method("__eq__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.__eq__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if !st.isCounter(args[1]) {
				if r, ok, err := reflectedDictEq(t, args[0], args[1], false); ok {
					return r, err
				}
				return python.NotImplemented, nil
			}
			return counterAll(t, args[0], args[1], python.CmpEq)
		}),
		method("__ne__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Counter.__ne__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if !st.isCounter(args[1]) {
				if r, ok, err := reflectedDictEq(t, args[0], args[1], true); ok {
					return r, err
				}
				return python.NotImplemented, nil
			}
			eq, err := python.Equal(t, args[0], args[1])
			return python.MakeBool(!eq), err
		}),
		cmp("__le__", func(t *python.Thread, a, b obj) (obj, error) { return counterAll(t, a, b, python.CmpLe) }),
		cmp("__lt__", func(t *python.Thread, a, b obj) (obj, error) {
			le, err := compareTrue(t, python.CmpLe, a, b)
			if err != nil || !le {
				return python.False, err
			}
			ne, err := compareTrue(t, python.CmpNe, a, b)
			return python.MakeBool(ne), err
		}),
		cmp("__ge__", func(t *python.Thread, a, b obj) (obj, error) { return counterAll(t, a, b, python.CmpGe) }),
		cmp("__gt__", func(t *python.Thread, a, b obj) (obj, error) {
			ge, err := compareTrue(t, python.CmpGe, a, b)
			if err != nil || !ge {
				return python.False, err
			}
			ne, err := compareTrue(t, python.CmpNe, a, b)
			return python.MakeBool(ne), err
		}),
		arith("__add__", func(t *python.Thread, a, b obj) (obj, error) {
			return st.combine(t, a, b, func(count, other obj) (obj, error) {
				return python.Binary(t, syntax.Add, count, other)
			}, func(count obj) (obj, bool, error) {
				pos, err := compareTrue(t, python.CmpGt, count, zero)
				return count, pos, err
			})
		}),
		arith("__sub__", func(t *python.Thread, a, b obj) (obj, error) {
			return st.combine(t, a, b, func(count, other obj) (obj, error) {
				return python.Binary(t, syntax.Sub, count, other)
			}, func(count obj) (obj, bool, error) {
				neg, err := compareTrue(t, python.CmpLt, count, zero)
				if err != nil || !neg {
					return nil, false, err
				}
				v, err := python.Binary(t, syntax.Sub, zero, count)
				return v, true, err
			})
		}),
		arith("__or__", func(t *python.Thread, a, b obj) (obj, error) {
			return st.combine(t, a, b, func(count, other obj) (obj, error) {
				lt, err := compareTrue(t, python.CmpLt, count, other)
				if lt {
					return other, err
				}
				return count, err
			}, func(count obj) (obj, bool, error) {
				pos, err := compareTrue(t, python.CmpGt, count, zero)
				return count, pos, err
			})
		}),
		arith("__and__", func(t *python.Thread, a, b obj) (obj, error) {
			return st.combine(t, a, b, func(count, other obj) (obj, error) {
				lt, err := compareTrue(t, python.CmpLt, count, other)
				if lt {
					return count, err
				}
				return other, err
			}, nil)
		}),
		method("__pos__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return st.filterCounts(t, args[0], false)
		}),
		method("__neg__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return st.filterCounts(t, args[0], true)
		}),
		method("_keep_positive", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			d := baseDict(self)
			var drop []obj
			var err error
			d.Items(func(k, v obj) bool {
				var pos bool
				pos, err = compareTrue(t, python.CmpGt, v, zero)
				if !pos {
					drop = append(drop, k)
				}
				return err == nil
			})
			if err != nil {
				return nil, err
			}
			for _, k := range drop {
				if err := python.DelItem(t, self, k); err != nil {
					return nil, err
				}
			}
			return self, nil
		}),
		inplace("__iadd__", func(t *python.Thread, a, b obj) error {
			return eachItem(t, b, func(k, v obj) error {
				cur, err := getItem(t, a, k)
				if err != nil {
					return err
				}
				n, err := python.Inplace(t, syntax.Add, cur, v)
				if err != nil {
					return err
				}
				return python.SetItem(t, a, k, n)
			})
		}),
		inplace("__isub__", func(t *python.Thread, a, b obj) error {
			return eachItem(t, b, func(k, v obj) error {
				cur, err := getItem(t, a, k)
				if err != nil {
					return err
				}
				n, err := python.Inplace(t, syntax.Sub, cur, v)
				if err != nil {
					return err
				}
				return python.SetItem(t, a, k, n)
			})
		}),
		inplace("__ior__", func(t *python.Thread, a, b obj) error {
			return eachItem(t, b, func(k, v obj) error {
				cur, err := getItem(t, a, k)
				if err != nil {
					return err
				}
				gt, err := compareTrue(t, python.CmpGt, v, cur)
				if err != nil || !gt {
					return err
				}
				return python.SetItem(t, a, k, v)
			})
		}),
		inplace("__iand__", func(t *python.Thread, a, b obj) error {
			return eachItem(t, a, func(k, v obj) error {
				other, err := getItem(t, b, k)
				if err != nil {
					return err
				}
				lt, err := compareTrue(t, python.CmpLt, other, v)
				if err != nil || !lt {
					return err
				}
				return python.SetItem(t, a, k, other)
			})
		}),
		classGetItem,
	)
}

// eachItem calls f for each (key, value) of m.items().
func eachItem(t *python.Thread, m obj, f func(k, v obj) error) error {
	items, err := callMethod(t, m, "items")
	if err != nil {
		return err
	}
	return python.Iterate(t, items, func(kv obj) error {
		pair, err := python.ToSlice(t, kv)
		if err != nil {
			return err
		}
		if len(pair) != 2 {
			return python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
		}
		return f(pair[0], pair[1])
	})
}

// combine implements the binary operators of Counter: for each element of
// a, op(a[e], b[e]) kept when positive; then with onlyB set, each element
// of b not in a mapped by onlyB.
func (st *state) combine(t *python.Thread, a, b obj, op func(count, other obj) (obj, error), onlyB func(count obj) (obj, bool, error)) (obj, error) {
	result := st.newCounter()
	rd := baseDict(result)
	err := eachItem(t, a, func(k, count obj) error {
		other, err := getItem(t, b, k)
		if err != nil {
			return err
		}
		n, err := op(count, other)
		if err != nil {
			return err
		}
		pos, err := compareTrue(t, python.CmpGt, n, zero)
		if err != nil || !pos {
			return err
		}
		return rd.Set(t, k, n)
	})
	if err != nil || onlyB == nil {
		return result, err
	}
	err = eachItem(t, b, func(k, count obj) error {
		in, err := python.Contains(t, a, k)
		if err != nil || in {
			return err
		}
		v, keep, err := onlyB(count)
		if err != nil || !keep {
			return err
		}
		return rd.Set(t, k, v)
	})
	return result, err
}

// filterCounts implements +c (neg false) and -c.
func (st *state) filterCounts(t *python.Thread, c obj, neg bool) (obj, error) {
	result := st.newCounter()
	rd := baseDict(result)
	err := eachItem(t, c, func(k, count obj) error {
		op := python.CmpGt
		if neg {
			op = python.CmpLt
		}
		keep, err := compareTrue(t, op, count, zero)
		if err != nil || !keep {
			return err
		}
		if neg {
			if count, err = python.Binary(t, syntax.Sub, zero, count); err != nil {
				return err
			}
		}
		return rd.Set(t, k, count)
	})
	return result, err
}

// counterAll is all(self[e] op other[e] for c in (self, other) for e in c).
func counterAll(t *python.Thread, a, b obj, op python.CmpOp) (obj, error) {
	for _, c := range []obj{a, b} {
		res := true
		err := python.Iterate(t, c, func(e obj) error {
			x, err := getItem(t, a, e)
			if err != nil {
				return err
			}
			y, err := getItem(t, b, e)
			if err != nil {
				return err
			}
			ok, err := compareTrue(t, op, x, y)
			if err != nil {
				return err
			}
			if !ok {
				res = false
				return python.ErrStop
			}
			return nil
		})
		if err != nil || !res {
			return python.False, err
		}
	}
	return python.True, nil
}

// mostCommon implements Counter.most_common(n).
func mostCommon(t *python.Thread, self, n, itemGetter1 obj) (obj, error) {
	items, err := callMethod(t, self, "items")
	if err != nil {
		return nil, err
	}
	if n == nil || n == python.None {
		return python.Call(t, builtin(t, "sorted"), []obj{items}, []kwarg{{Name: "key", Value: itemGetter1}, {Name: "reverse", Value: python.True}})
	}
	return heapq.NLargest(t, n, items, itemGetter1)
}

// elements implements Counter.elements():
// chain.from_iterable(starmap(repeat, self.items())).
func (st *state) elements(t *python.Thread, self obj) (obj, error) {
	it, err := t.Interp().Import(t, "itertools")
	if err != nil {
		return nil, err
	}
	get := func(name string) (obj, error) { return python.GetAttr(t, it, name) }
	chain, err := get("chain")
	if err != nil {
		return nil, err
	}
	fromIterable, err := python.GetAttr(t, chain, "from_iterable")
	if err != nil {
		return nil, err
	}
	starmap, err := get("starmap")
	if err != nil {
		return nil, err
	}
	repeat, err := get("repeat")
	if err != nil {
		return nil, err
	}
	items, err := callMethod(t, self, "items")
	if err != nil {
		return nil, err
	}
	sm, err := python.Call(t, starmap, []obj{repeat, items}, nil)
	if err != nil {
		return nil, err
	}
	return python.Call(t, fromIterable, []obj{sm}, nil)
}

// counterUpdate implements Counter.update (sub: subtract).
func (st *state) counterUpdate(t *python.Thread, self, it obj, kwargs []kwarg, sub bool) error {
	if it != python.None {
		isMap, err := st.isABC(t, it, "Mapping")
		if err != nil {
			return err
		}
		switch {
		case isMap && !sub:
			nonEmpty, err := truth(t, self)
			if err != nil {
				return err
			}
			if nonEmpty {
				err = eachItem(t, it, func(k, count obj) error {
					cur, err := python.CallMethod(t, self, "get", []obj{k, zero}, nil)
					if err != nil {
						return err
					}
					n, err := python.Binary(t, syntax.Add, count, cur)
					if err != nil {
						return err
					}
					return python.SetItem(t, self, k, n)
				})
			} else {
				err = python.DictUpdate(t, baseDict(self), []obj{it}, nil)
			}
			if err != nil {
				return err
			}
		case isMap:
			err := eachItem(t, it, func(k, count obj) error {
				cur, err := python.CallMethod(t, self, "get", []obj{k, zero}, nil)
				if err != nil {
					return err
				}
				n, err := python.Binary(t, syntax.Sub, cur, count)
				if err != nil {
					return err
				}
				return python.SetItem(t, self, k, n)
			})
			if err != nil {
				return err
			}
		case sub:
			err := python.Iterate(t, it, func(k obj) error {
				cur, err := python.CallMethod(t, self, "get", []obj{k, zero}, nil)
				if err != nil {
					return err
				}
				n, err := python.Binary(t, syntax.Sub, cur, one)
				if err != nil {
					return err
				}
				return python.SetItem(t, self, k, n)
			})
			if err != nil {
				return err
			}
		default:
			if err := countElements(t, self, it); err != nil {
				return err
			}
		}
	}
	if len(kwargs) > 0 {
		d := python.NewDict(len(kwargs))
		for _, kw := range kwargs {
			d.SetStr(kw.Name, kw.Value)
		}
		name := "update"
		if sub {
			name = "subtract"
		}
		_, err := callMethod(t, self, name, d)
		return err
	}
	return nil
}

// dictGet and dictSetItem are dict's own get and __setitem__ (set by
// setup).
var dictGet, dictSetItem obj

// countElements is CPython's _count_elements(mapping, iterable): the dict
// itself when the class keeps dict's get and __setitem__, else through
// them.
func countElements(t *python.Thread, self, it obj) error {
	c := self.Type()
	get, _ := c.Lookup("get")
	set, _ := c.Lookup("__setitem__")
	d := baseDict(self)
	if get == dictGet && set == dictSetItem && d != nil {
		i := 0
		return python.Iterate(t, it, func(k obj) error {
			i++
			if i&1023 == 0 {
				if err := t.Tick(1); err != nil {
					return err
				}
			}
			old, ok, err := d.Get(t, k)
			if err != nil {
				return err
			}
			if !ok {
				return d.Set(t, k, one)
			}
			if n, isInt := old.(python.Int); isInt && n < 1<<62 {
				return d.Set(t, k, python.MakeInt(int64(n)+1))
			}
			n, err := python.Binary(t, syntax.Add, old, one)
			if err != nil {
				return err
			}
			return d.Set(t, k, n)
		})
	}
	getter, err := python.GetAttr(t, self, "get")
	if err != nil {
		return err
	}
	return python.Iterate(t, it, func(k obj) error {
		old, err := python.Call(t, getter, []obj{k, zero}, nil)
		if err != nil {
			return err
		}
		n, err := python.Binary(t, syntax.Add, old, one)
		if err != nil {
			return err
		}
		return python.SetItem(t, self, k, n)
	})
}

// counterRepr implements Counter.__repr__.
func (st *state) counterRepr(t *python.Thread, self obj) (string, error) {
	name := typeName(self)
	nonEmpty, err := truth(t, self)
	if err != nil {
		return "", err
	}
	if !nonEmpty {
		return name + "()", nil
	}
	if !st.reprs.enter(self) {
		return "", python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded while getting the repr of an object")
	}
	defer st.reprs.leave(self)
	var d obj
	mc, err := callMethod(t, self, "most_common")
	if err == nil {
		d, err = python.Call(t, python.DictType, []obj{mc}, nil)
	}
	if err != nil {
		if !python.IsInstance(err, python.TypeErrorType) {
			return "", err
		}
		if d, err = python.Call(t, python.DictType, []obj{self}, nil); err != nil {
			return "", err
		}
	}
	r, err := python.Repr(t, d)
	if err != nil {
		return "", err
	}
	return name + "(" + r + ")", nil
}
