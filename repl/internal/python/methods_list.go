package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/pysort"
	"slices"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

func selfList(args []Object, name string) (*List, error) {
	if len(args) > 0 {
		if l, ok := unwrap(args[0]).(*List); ok {
			return l, nil
		}
	}
	return nil, Errorf(TypeErrorType, "descriptor '%s' for 'list' objects doesn't apply to this object", name)
}

// addDunders gives a built-in type the special methods that call the
// generic protocol (for super().__getitem__(k) and friends).
func addDunders(c *Type, names ...string) {
	for _, n := range names {
		n := n
		switch n {
		case "__len__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				l, err := Len(t, unwrap(args[0]))
				return MakeInt(int64(l)), err
			})
		case "__getitem__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				if len(args) != 2 {
					return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
				}
				return GetItem(t, unwrap(args[0]), args[1])
			})
		case "__setitem__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				if len(args) != 3 {
					return nil, Errorf(TypeErrorType, "expected 2 arguments, got %d", len(args)-1)
				}
				return None, SetItem(t, unwrap(args[0]), args[1], args[2])
			})
		case "__delitem__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				if len(args) != 2 {
					return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
				}
				return None, DelItem(t, unwrap(args[0]), args[1])
			})
		case "__contains__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				if len(args) != 2 {
					return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
				}
				b, err := Contains(t, unwrap(args[0]), args[1])
				return MakeBool(b), err
			})
		case "__iter__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				return Iter(t, unwrap(args[0]))
			})
		case "__repr__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				s, err := Repr(t, unwrap(args[0]))
				return NewStr(s), err
			})
		case "__str__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				s, err := StrOf(t, unwrap(args[0]))
				return NewStr(s), err
			})
		case "__hash__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				h, err := Hash(t, unwrap(args[0]))
				return MakeInt(h), err
			})
		case "__bool__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				b, err := TruthE(t, unwrap(args[0]))
				return MakeBool(b), err
			})
		case "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__":
			op := map[string]CmpOp{"__eq__": CmpEq, "__ne__": CmpNe, "__lt__": CmpLt, "__le__": CmpLe, "__gt__": CmpGt, "__ge__": CmpGe}[n]
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				if len(args) != 2 {
					return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
				}
				if !numberSlotAccepts(c, args[1]) {
					return NotImplemented, nil
				}
				r, err := builtinCompare(t, op, unwrap(args[0]), unwrap(args[1]))
				return r, err
			})
		case "__format__":
			method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
				if len(args) != 2 {
					return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
				}
				s, err := Format(t, unwrap(args[0]), StrValue(args[1]))
				return NewStr(s), err
			})
		default:
			// Binary operators: __add__, __radd__, ...
			for op, names := range binNames {
				if names[0] == n || names[1] == n {
					op := syntax.Operator(op)
					numberSlot(c, n, names[1] == n, func(t *Thread, a, b Object) (Object, error) {
						return builtinBinary(t, op, a, b)
					})
				}
			}
		}
	}
}

// numberSlotAccepts reports whether a numeric type's own special methods
// handle other: int's take ints, float's ints and floats, complex's any
// of the three; others return NotImplemented, as CPython's slots do.
func numberSlotAccepts(c *Type, other Object) bool {
	switch c {
	case IntType, BoolType:
		_, ok := intValue(unwrap(other))
		return ok
	case FloatType:
		switch unwrap(other).(type) {
		case Float, Int, *BigInt, Bool:
			return true
		}
		return false
	case ComplexType:
		switch unwrap(other).(type) {
		case Complex, Float, Int, *BigInt, Bool:
			return true
		}
		return false
	}
	return true
}

func initListMethods() {
	c := ListType
	addDunders(c, "__len__", "__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__",
		"__repr__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__")
	c.dict.SetStr("__hash__", None)
	method(c, "__init__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "__init__")
		if err != nil {
			return nil, err
		}
		if err := nargs("list", args[1:], kwargs, 0, 1); err != nil {
			return nil, err
		}
		l.items = nil
		if len(args) == 2 {
			items, err := ToSlice(t, args[1])
			if err != nil {
				return nil, err
			}
			if _, isTuple := args[1].(*Tuple); isTuple {
				items = append([]Object(nil), items...)
			}
			l.items = items
		}
		return None, nil
	})
	method(c, "append", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "append")
		if err != nil {
			return nil, err
		}
		if err := nargs("list.append", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		l.items = append(l.items, args[1])
		if n := len(l.items); n&4095 == 0 {
			if err := t.grow(int64(n) * 16); err != nil {
				l.items = l.items[:n-1]
				return nil, err
			}
		}
		return None, nil
	})
	method(c, "extend", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "extend")
		if err != nil {
			return nil, err
		}
		if err := nargs("list.extend", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		_, err = Inplace(t, syntax.Add, l, args[1])
		return None, err
	})
	method(c, "insert", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "insert")
		if err != nil {
			return nil, err
		}
		if err := nargs("insert", args[1:], kwargs, 2, 2); err != nil {
			return nil, err
		}
		i, err := argInt(t, "insert", args[1])
		if err != nil {
			return nil, err
		}
		n := int64(len(l.items))
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		l.items = slices.Insert(l.items, int(i), args[2])
		return None, nil
	})
	method(c, "pop", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "pop")
		if err != nil {
			return nil, err
		}
		if err := nargs("pop", args[1:], kwargs, 0, 1); err != nil {
			return nil, err
		}
		if len(l.items) == 0 {
			return nil, Errorf(IndexErrorType, "pop from empty list")
		}
		i := int64(len(l.items) - 1)
		if len(args) == 2 {
			if i, err = argInt(t, "pop", args[1]); err != nil {
				return nil, err
			}
			if i < 0 {
				i += int64(len(l.items))
			}
			if i < 0 || i >= int64(len(l.items)) {
				return nil, Errorf(IndexErrorType, "pop index out of range")
			}
		}
		v := l.items[i]
		l.items = slices.Delete(l.items, int(i), int(i)+1)
		return v, nil
	})
	method(c, "remove", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "remove")
		if err != nil {
			return nil, err
		}
		if err := nargs("list.remove", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		for i := 0; i < len(l.items); i++ {
			eq, err := Equal(t, l.items[i], args[1])
			if err != nil {
				return nil, err
			}
			if eq || identical(l.items[i], args[1]) {
				l.items = slices.Delete(l.items, i, i+1)
				return None, nil
			}
		}
		return nil, Errorf(ValueErrorType, "list.remove(x): x not in list")
	})
	method(c, "index", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "index")
		if err != nil {
			return nil, err
		}
		return seqIndex(t, "list", l.items, args[1:], kwargs)
	})
	method(c, "count", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "count")
		if err != nil {
			return nil, err
		}
		if err := nargs("list.count", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		return seqCount(t, l.items, args[1])
	})
	method(c, "clear", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "clear")
		if err != nil {
			return nil, err
		}
		l.items = nil
		return None, nil
	})
	method(c, "copy", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "copy")
		if err != nil {
			return nil, err
		}
		return NewList(append([]Object(nil), l.items...)), nil
	})
	method(c, "reverse", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "reverse")
		if err != nil {
			return nil, err
		}
		slices.Reverse(l.items)
		return None, nil
	})
	method(c, "sort", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		l, err := selfList(args, "sort")
		if err != nil {
			return nil, err
		}
		if len(args) > 1 {
			return nil, Errorf(TypeErrorType, "sort() takes no positional arguments")
		}
		return None, listSort(t, l, kwargs)
	})
	method(c, "__iadd__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		l, err := selfList(args, "__iadd__")
		if err != nil {
			return nil, err
		}
		if _, err := Inplace(t, syntax.Add, l, args[1]); err != nil {
			return nil, err
		}
		return args[0], nil
	})
	method(c, "__reversed__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		l, err := selfList(args, "__reversed__")
		if err != nil {
			return nil, err
		}
		return &reversedIter{list: l, i: len(l.items) - 1}, nil
	})
}

func seqIndex(t *Thread, what string, items []Object, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("index", args, kwargs, 1, 3); err != nil {
		return nil, err
	}
	n := int64(len(items))
	start, stop := int64(0), n
	if len(args) > 1 {
		v, err := bigClamp(t, args[1])
		if err != nil {
			return nil, err
		}
		start = v
	}
	if len(args) > 2 {
		v, err := bigClamp(t, args[2])
		if err != nil {
			return nil, err
		}
		stop = v
	}
	if start < 0 {
		start = max(start+n, 0)
	}
	if stop < 0 {
		stop = max(stop+n, 0)
	}
	for i := start; i < min(stop, int64(len(items))); i++ {
		eq, err := Equal(t, items[i], args[0])
		if err != nil {
			return nil, err
		}
		if eq || identical(items[i], args[0]) {
			return MakeInt(i), nil
		}
	}
	if what == "tuple" {
		return nil, Errorf(ValueErrorType, "tuple.index(x): x not in tuple")
	}
	r, _ := Repr(t, args[0])
	return nil, Errorf(ValueErrorType, "%s is not in list", r)
}

func bigClamp(t *Thread, x Object) (int64, error) {
	v, ok, err := bigIndexValue(t, x)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, Errorf(TypeErrorType, "slice indices must be integers or have an __index__ method")
	}
	return v, nil
}

func seqCount(t *Thread, items []Object, x Object) (Object, error) {
	n := 0
	for i := 0; i < len(items); i++ {
		eq, err := Equal(t, items[i], x)
		if err != nil {
			return nil, err
		}
		if eq || identical(items[i], x) {
			n++
		}
	}
	return MakeInt(int64(n)), nil
}

// listSort sorts l in place, stable, with key= and reverse=.
func listSort(t *Thread, l *List, kwargs []Kwarg) error {
	var key Object
	reverse := false
	for _, kw := range kwargs {
		switch kw.Name {
		case "key":
			if kw.Value != None {
				key = kw.Value
			}
		case "reverse":
			b, err := TruthE(t, kw.Value)
			if err != nil {
				return err
			}
			reverse = b
		default:
			return Errorf(TypeErrorType, "'%s' is an invalid keyword argument for sort()", kw.Name)
		}
	}
	// The list looks empty for the whole sort, key calls included; a
	// change made meanwhile is detected (CPython's "modified" check) and
	// discarded.
	items := l.items
	l.items = nil
	var err error
	if key == nil {
		err = pysort.Slice(items, reverse, sortLess(t, items))
	} else {
		keys := make([]Object, len(items))
		for i, x := range items {
			k, err := Call(t, key, []Object{x}, nil)
			if err != nil {
				l.items = items
				return err
			}
			keys[i] = k
			if i&1023 == 1023 {
				if err := t.Tick(1); err != nil {
					l.items = items
					return err
				}
			}
		}
		pairs := make([]sortPair, len(items))
		for i := range items {
			pairs[i] = sortPair{keys[i], items[i]}
		}
		less := sortLess(t, keys)
		err = pysort.Slice(pairs, reverse, func(a, b sortPair) (bool, error) { return less(a.key, b.key) })
		for i, p := range pairs {
			items[i] = p.item
		}
	}
	mutated := l.items != nil
	l.items = items
	if err != nil {
		return err
	}
	if mutated {
		return Errorf(ValueErrorType, "list modified during sort")
	}
	return nil
}

type sortPair struct{ key, item Object }

// sortLess is the comparison list.sort makes: a < b, with a tick every
// 1024 comparisons. When every key has the same user class, CPython calls
// that class's __lt__ directly and, if it returns NotImplemented, once
// more through the full comparison (which then tries the reflected
// __gt__); so does this.
func sortLess(t *Thread, keys []Object) func(a, b Object) (bool, error) {
	var lt Object
	if len(keys) > 0 {
		if o, ok := keys[0].(*Instance); ok {
			lt = o.cls.userMethod("__lt__")
			for _, k := range keys[1:] {
				if k.Type() != o.cls {
					lt = nil
					break
				}
			}
		}
	}
	n := 0
	return func(a, b Object) (bool, error) {
		n++
		if n&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return false, err
			}
		}
		if lt != nil {
			r, err := callMethod(t, lt, a, []Object{b}, nil)
			if err != nil {
				return false, err
			}
			if r != NotImplemented {
				return TruthE(t, r)
			}
		}
		return Less(t, a, b)
	}
}

func initTupleMethods() {
	c := TupleType
	addDunders(c, "__len__", "__getitem__", "__contains__", "__iter__", "__repr__", "__hash__",
		"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__")
	method(c, "index", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		tu, ok := unwrap(args[0]).(*Tuple)
		if !ok {
			return nil, Errorf(TypeErrorType, "descriptor 'index' for 'tuple' objects doesn't apply")
		}
		return seqIndex(t, "tuple", tu.items, args[1:], kwargs)
	})
	method(c, "count", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		tu, ok := unwrap(args[0]).(*Tuple)
		if !ok {
			return nil, Errorf(TypeErrorType, "descriptor 'count' for 'tuple' objects doesn't apply")
		}
		if err := nargs("tuple.count", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		return seqCount(t, tu.items, args[1])
	})
	method(c, "__getnewargs__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return NewTuple([]Object{unwrap(args[0])}), nil
	})
}
