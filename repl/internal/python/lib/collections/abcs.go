package collections

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// state is one interpreter's collections: its classes.
type state struct {
	gen     *python.Type
	hooks   *python.TypeHooks
	abc     map[string]*python.Type
	abcList []string // in CPython's __all__ order
	abcMod  *python.Module

	counter, orderedDict, defaultDict, chainMap *python.Type
	deque, dequeIter, dequeRevIter              *python.Type
	userDict, userList, userString              *python.Type

	reprs       reprGuard // objects whose repr is being computed
	itemGetter1 obj       // the key of Counter.most_common
}

// gen makes a Go generator named name (for its repr).
func (st *state) newGen(name string, next func(t *python.Thread) (obj, error)) obj {
	return &generator{typ: st.gen, name: name, next: next}
}

// ret returns a method body that returns v.
func ret(v obj) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return v, nil }
}

func raise(cls *python.Type) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NewException(cls)
	}
}

// emptyGen returns a method body returning an exhausted generator.
func (st *state) emptyGen(name string) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return st.newGen(name, func(*python.Thread) (obj, error) { return nil, nil }), nil
	}
}

// defABC makes an abstract base class of collections.abc; hook lists the
// methods of its structural check (nil: none).
func (st *state) defABC(name string, bases []string, hook []string, members ...member) *python.Type {
	var bs []*python.Type
	for _, b := range bases {
		bs = append(bs, st.abc[b])
	}
	// The defaults come first: members override them.
	members = append([]member{
		value("__slots__", python.NewTuple(nil)),
		classMethod("register", register),
		classMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__class_getitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return python.NewGenericAlias(args[0], args[1]), nil
		}),
	}, members...)
	if hook != nil {
		members = append(members, classMethod("__subclasshook__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__subclasshook__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			c, ok := args[1].(*python.Type)
			if ok && args[0] == obj(st.abc[name]) && hasMethods(c, hook) {
				return python.True, nil
			}
			return python.NotImplemented, nil
		}))
	}
	c := newClass(name, "collections.abc", bs, members...)
	c.Hooks = st.hooks
	if infoOf(c) == nil {
		c.Extra = &abcInfo{}
		st.hooks.Created(nil, c)
	}
	infoOf(c).hook = hook
	st.abc[name] = c
	st.abcList = append(st.abcList, name)
	return c
}

// registerBuiltin records CPython's registrations of built-in types.
func (st *state) registerBuiltin(abc string, types ...*python.Type) {
	i := infoOf(st.abc[abc])
	i.registry = append(i.registry, types...)
}

func (st *state) makeABCs() {
	st.hooks = abcHooks()
	st.abc = map[string]*python.Type{}
	none := python.None
	st.defABC("Hashable", nil, []string{"__hash__"}, abstract("__hash__", ret(python.MakeInt(0))))
	st.defABC("Awaitable", nil, []string{"__await__"}, abstract("__await__", st.emptyGen("Awaitable.__await__")))
	st.defABC("Coroutine", []string{"Awaitable"}, []string{"__await__", "send", "throw", "close"},
		abstract("send", raise(python.StopIterationType)),
		abstract("throw", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("Coroutine.throw()", "")
		}),
		method("close", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("Coroutine.close()", "")
		}))
	st.defABC("AsyncIterable", nil, []string{"__aiter__"}, abstract("__aiter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("asynchronous iteration", "")
	}))
	st.defABC("AsyncIterator", []string{"AsyncIterable"}, []string{"__anext__", "__aiter__"},
		abstract("__anext__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("asynchronous iteration", "")
		}),
		method("__aiter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return args[0], nil }))
	st.defABC("AsyncGenerator", []string{"AsyncIterator"}, []string{"__aiter__", "__anext__", "asend", "athrow", "aclose"},
		abstract("asend", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("asynchronous generators", "")
		}),
		abstract("athrow", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("asynchronous generators", "")
		}))
	st.defABC("Iterable", nil, []string{"__iter__"}, abstract("__iter__", st.emptyGen("Iterable.__iter__")))
	st.defABC("Iterator", []string{"Iterable"}, []string{"__iter__", "__next__"},
		abstract("__next__", raise(python.StopIterationType)),
		method("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Iterator.__iter__", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return args[0], nil
		}))
	st.defABC("Reversible", []string{"Iterable"}, []string{"__reversed__", "__iter__"},
		abstract("__reversed__", st.emptyGen("Reversible.__reversed__")))
	st.defABC("Generator", []string{"Iterator"}, []string{"__iter__", "__next__", "send", "throw", "close"},
		method("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Generator.__next__", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return callMethod(t, args[0], "send", python.None)
		}),
		abstract("send", raise(python.StopIterationType)),
		abstract("throw", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("Generator.throw()", "")
		}),
		method("close", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("Generator.close()", "")
		}))
	st.defABC("Sized", nil, []string{"__len__"}, abstract("__len__", ret(python.MakeInt(0))))
	st.defABC("Container", nil, []string{"__contains__"}, abstract("__contains__", ret(python.False)))
	st.defABC("Collection", []string{"Sized", "Iterable", "Container"}, []string{"__len__", "__iter__", "__contains__"})
	st.defABC("Buffer", nil, []string{"__buffer__"}, abstract("__buffer__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("the buffer protocol", "")
	}))
	st.defABC("Callable", nil, []string{"__call__"}, abstract("__call__", ret(python.False)))
	st.defABC("Set", []string{"Collection"}, nil, st.setMixins()...)
	st.defABC("MutableSet", []string{"Set"}, nil, st.mutableSetMixins()...)
	st.defABC("Mapping", []string{"Collection"}, nil, append(st.mappingMixins(), value("__reversed__", none))...)
	st.defABC("MappingView", []string{"Sized"}, nil, st.mappingViewMembers()...)
	st.defABC("KeysView", []string{"MappingView", "Set"}, nil, st.keysViewMembers()...)
	st.defABC("ItemsView", []string{"MappingView", "Set"}, nil, st.itemsViewMembers()...)
	st.defABC("ValuesView", []string{"MappingView", "Collection"}, nil, st.valuesViewMembers()...)
	st.defABC("MutableMapping", []string{"Mapping"}, nil, st.mutableMappingMixins()...)
	st.defABC("Sequence", []string{"Reversible", "Collection"}, nil, st.sequenceMixins()...)
	st.defABC("ByteString", []string{"Sequence"}, nil)
	st.defABC("MutableSequence", []string{"Sequence"}, nil, st.mutableSequenceMixins()...)

	// The registrations _collections_abc makes.
	st.registerBuiltin("Iterator", python.BytesIterType, python.DictKeyIterType, python.DictValueIterType,
		python.DictItemIterType, python.ListIterType, python.RangeIterType, python.SetIterType,
		python.StrIterType, python.TupleIterType, python.ZipType)
	st.registerBuiltin("Generator", python.GeneratorType)
	st.registerBuiltin("Set", python.FrozenSetType)
	st.registerBuiltin("MutableSet", python.SetType)
	st.registerBuiltin("Mapping", python.MappingProxyType)
	st.registerBuiltin("MutableMapping", python.DictType)
	st.registerBuiltin("KeysView", python.DictKeysType)
	st.registerBuiltin("ItemsView", python.DictItemsType)
	st.registerBuiltin("ValuesView", python.DictValuesType)
	st.registerBuiltin("Sequence", python.TupleType, python.StrType, python.RangeType)
	st.registerBuiltin("ByteString", python.BytesType, python.ByteArrayType)
	st.registerBuiltin("MutableSequence", python.ListType, python.ByteArrayType)
}

// isABC reports isinstance(x, collections.abc.<name>).
func (st *state) isABC(t *python.Thread, x obj, name string) (bool, error) {
	return subclassCheck(t, st.abc[name], x.Type(), 0)
}

// fromIterable calls self._from_iterable(it).
func fromIterable(t *python.Thread, self, it obj) (obj, error) {
	return callMethod(t, self, "_from_iterable", it)
}

// filterGen is (v for v in src if keep(v)) as a generator.
func (st *state) filterGen(t *python.Thread, src obj, keep func(v obj) (bool, error)) (obj, error) {
	it, err := python.Iter(t, src)
	if err != nil {
		return nil, err
	}
	return st.newGen("<genexpr>", func(t *python.Thread) (obj, error) {
		for {
			v, err := python.Next(t, it)
			if err != nil || v == nil {
				return nil, err
			}
			ok, err := keep(v)
			if err != nil {
				return nil, err
			}
			if ok {
				return v, nil
			}
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
	}), nil
}

func (st *state) setMixins() []member {
	notSet := func(t *python.Thread, x obj) (bool, error) {
		ok, err := st.isABC(t, x, "Set")
		return !ok, err
	}
	le := func(t *python.Thread, a, b obj) (obj, error) {
		la, err := python.Len(t, a)
		if err != nil {
			return nil, err
		}
		lb, err := python.Len(t, b)
		if err != nil {
			return nil, err
		}
		if la > lb {
			return python.False, nil
		}
		res := true
		err = python.Iterate(t, a, func(e obj) error {
			in, err := python.Contains(t, b, e)
			if err != nil {
				return err
			}
			if !in {
				res = false
				return python.ErrStop
			}
			return nil
		})
		return python.MakeBool(res), err
	}
	cmp := func(name string, f func(t *python.Thread, a, b obj) (obj, error)) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf(name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if ns, err := notSet(t, args[1]); err != nil || ns {
				return python.NotImplemented, err
			}
			return f(t, args[0], args[1])
		})
	}
	lenCmp := func(t *python.Thread, a, b obj, op python.CmpOp) (bool, error) {
		la, err := python.Len(t, a)
		if err != nil {
			return false, err
		}
		lb, err := python.Len(t, b)
		if err != nil {
			return false, err
		}
		switch op {
		case python.CmpLt:
			return la < lb, nil
		case python.CmpGt:
			return la > lb, nil
		}
		return la == lb, nil
	}
	notIterable := func(t *python.Thread, x obj) (bool, error) {
		ok, err := st.isABC(t, x, "Iterable")
		return !ok, err
	}
	// asSet makes other a set of self's kind unless it is a Set.
	asSet := func(t *python.Thread, self, other obj) (obj, error) {
		ns, err := notSet(t, other)
		if err != nil || !ns {
			return other, err
		}
		ni, err := notIterable(t, other)
		if err != nil || ni {
			return nil, err
		}
		return fromIterable(t, self, other)
	}
	sub := func(t *python.Thread, a, b obj) (obj, error) {
		g, err := st.filterGen(t, a, func(v obj) (bool, error) {
			in, err := python.Contains(t, b, v)
			return !in, err
		})
		if err != nil {
			return nil, err
		}
		return fromIterable(t, a, g)
	}
	return []member{
		cmp("__le__", le),
		cmp("__lt__", func(t *python.Thread, a, b obj) (obj, error) {
			if ok, err := lenCmp(t, a, b, python.CmpLt); err != nil || !ok {
				return python.False, err
			}
			return le(t, a, b)
		}),
		cmp("__gt__", func(t *python.Thread, a, b obj) (obj, error) {
			if ok, err := lenCmp(t, a, b, python.CmpGt); err != nil || !ok {
				return python.False, err
			}
			return le(t, b, a)
		}),
		cmp("__ge__", func(t *python.Thread, a, b obj) (obj, error) { return le(t, b, a) }),
		cmp("__eq__", func(t *python.Thread, a, b obj) (obj, error) {
			if ok, err := lenCmp(t, a, b, python.CmpEq); err != nil || !ok {
				return python.False, err
			}
			return le(t, a, b)
		}),
		classMethod("_from_iterable", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("_from_iterable", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return python.Call(t, args[0], []obj{args[1]}, nil)
		}),
		method("__and__", st.setAnd),
		method("__rand__", st.setAnd),
		method("isdisjoint", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("isdisjoint", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			res := true
			err := python.Iterate(t, args[1], func(v obj) error {
				in, err := python.Contains(t, args[0], v)
				if err != nil {
					return err
				}
				if in {
					res = false
					return python.ErrStop
				}
				return nil
			})
			return python.MakeBool(res), err
		}),
		method("__or__", st.setOr),
		method("__ror__", st.setOr),
		method("__sub__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__sub__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			other, err := asSet(t, args[0], args[1])
			if err != nil || other == nil {
				return python.NotImplemented, err
			}
			return sub(t, args[0], other)
		}),
		method("__rsub__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__rsub__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			other, err := asSet(t, args[0], args[1])
			if err != nil || other == nil {
				return python.NotImplemented, err
			}
			g, err := st.filterGen(t, other, func(v obj) (bool, error) {
				in, err := python.Contains(t, args[0], v)
				return !in, err
			})
			if err != nil {
				return nil, err
			}
			return fromIterable(t, args[0], g)
		}),
		method("__xor__", st.setXor),
		method("__rxor__", st.setXor),
		method("_hash", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("Set._hash()", "hash a frozenset of the items instead")
		}),
		abstract("__len__", ret(python.MakeInt(0))),
		abstract("__iter__", st.emptyGen("Iterable.__iter__")),
		abstract("__contains__", ret(python.False)),
	}
}

func (st *state) setAnd(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("__and__", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	if ok, err := st.isABC(t, args[1], "Iterable"); err != nil || !ok {
		return python.NotImplemented, err
	}
	g, err := st.filterGen(t, args[1], func(v obj) (bool, error) { return python.Contains(t, args[0], v) })
	if err != nil {
		return nil, err
	}
	return fromIterable(t, args[0], g)
}

func (st *state) setOr(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("__or__", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	if ok, err := st.isABC(t, args[1], "Iterable"); err != nil || !ok {
		return python.NotImplemented, err
	}
	srcs := []obj{args[0], args[1]}
	var cur obj
	g := st.newGen("<genexpr>", func(t *python.Thread) (obj, error) {
		for {
			if cur == nil {
				if len(srcs) == 0 {
					return nil, nil
				}
				it, err := python.Iter(t, srcs[0])
				if err != nil {
					return nil, err
				}
				cur, srcs = it, srcs[1:]
			}
			v, err := python.Next(t, cur)
			if err != nil || v != nil {
				return v, err
			}
			cur = nil
		}
	})
	return fromIterable(t, args[0], g)
}

func (st *state) setXor(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("__xor__", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	self, other := args[0], args[1]
	if ok, err := st.isABC(t, other, "Set"); err != nil {
		return nil, err
	} else if !ok {
		if ok, err := st.isABC(t, other, "Iterable"); err != nil || !ok {
			return python.NotImplemented, err
		}
		if other, err = fromIterable(t, self, other); err != nil {
			return nil, err
		}
	}
	a, err := python.Binary(t, syntax.Sub, self, other)
	if err != nil {
		return nil, err
	}
	b, err := python.Binary(t, syntax.Sub, other, self)
	if err != nil {
		return nil, err
	}
	return python.Binary(t, syntax.BitOr, a, b)
}

func (st *state) mutableSetMixins() []member {
	clear := func(t *python.Thread, self obj) error {
		for {
			if _, err := callMethod(t, self, "pop"); err != nil {
				if isKeyError(err) {
					return nil
				}
				return err
			}
			if err := t.Tick(1); err != nil {
				return err
			}
		}
	}
	return []member{
		abstract("add", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NewException(python.NotImplementedErrorType)
		}),
		abstract("discard", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NewException(python.NotImplementedErrorType)
		}),
		method("remove", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("remove", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			in, err := python.Contains(t, args[0], args[1])
			if err != nil {
				return nil, err
			}
			if !in {
				return nil, python.NewException(python.KeyErrorType, args[1])
			}
			return callMethod(t, args[0], "discard", args[1])
		}),
		method("pop", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("pop", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			it, err := python.Iter(t, args[0])
			if err != nil {
				return nil, err
			}
			v, err := python.Next(t, it)
			if err != nil {
				return nil, err
			}
			if v == nil {
				return nil, python.NewException(python.KeyErrorType)
			}
			if _, err := callMethod(t, args[0], "discard", v); err != nil {
				return nil, err
			}
			return v, nil
		}),
		method("clear", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("clear", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return python.None, clear(t, args[0])
		}),
		method("__ior__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ior__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			err := python.Iterate(t, args[1], func(v obj) error {
				_, err := callMethod(t, args[0], "add", v)
				return err
			})
			return args[0], err
		}),
		method("__iand__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__iand__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := python.Binary(t, syntax.Sub, args[0], args[1])
			if err != nil {
				return nil, err
			}
			err = python.Iterate(t, d, func(v obj) error {
				_, err := callMethod(t, args[0], "discard", v)
				return err
			})
			return args[0], err
		}),
		method("__ixor__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ixor__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			self, it := args[0], args[1]
			if python.Is(it, self) {
				return self, clear(t, self)
			}
			if ok, err := st.isABC(t, it, "Set"); err != nil {
				return nil, err
			} else if !ok {
				if it, err = fromIterable(t, self, it); err != nil {
					return nil, err
				}
			}
			err := python.Iterate(t, it, func(v obj) error {
				in, err := python.Contains(t, self, v)
				if err != nil {
					return err
				}
				if in {
					_, err = callMethod(t, self, "discard", v)
				} else {
					_, err = callMethod(t, self, "add", v)
				}
				return err
			})
			return self, err
		}),
		method("__isub__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__isub__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			self, it := args[0], args[1]
			if python.Is(it, self) {
				return self, clear(t, self)
			}
			err := python.Iterate(t, it, func(v obj) error {
				_, err := callMethod(t, self, "discard", v)
				return err
			})
			return self, err
		}),
	}
}

func (st *state) mappingMixins() []member {
	return []member{
		abstract("__getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NewException(python.KeyErrorType)
		}),
		method("get", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "Mapping.get", Pos: []string{"self", "key", "default"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			v, err := getItem(t, a[0], a[1])
			if err != nil {
				if isKeyError(err) {
					if a[2] == nil {
						return python.None, nil
					}
					return a[2], nil
				}
				return nil, err
			}
			return v, nil
		}),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Mapping.__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if _, err := getItem(t, args[0], args[1]); err != nil {
				if isKeyError(err) {
					return python.False, nil
				}
				return nil, err
			}
			return python.True, nil
		}),
		method("keys", st.viewMaker("KeysView")),
		method("items", st.viewMaker("ItemsView")),
		method("values", st.viewMaker("ValuesView")),
		method("__eq__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Mapping.__eq__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if ok, err := st.isABC(t, args[1], "Mapping"); err != nil || !ok {
				return python.NotImplemented, err
			}
			a, err := dictOfItems(t, args[0])
			if err != nil {
				return nil, err
			}
			b, err := dictOfItems(t, args[1])
			if err != nil {
				return nil, err
			}
			eq, err := python.Equal(t, a, b)
			return python.MakeBool(eq), err
		}),
	}
}

// dictOfItems is dict(m.items()).
func dictOfItems(t *python.Thread, m obj) (obj, error) {
	items, err := callMethod(t, m, "items")
	if err != nil {
		return nil, err
	}
	return python.Call(t, python.DictType, []obj{items}, nil)
}

func (st *state) viewMaker(view string) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if _, err := argsOf("Mapping.keys", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		return python.Call(t, st.abc[view], []obj{args[0]}, nil)
	}
}

func (st *state) mappingViewMembers() []member {
	return []member{
		value("__slots__", python.NewTuple([]obj{python.NewStr("_mapping")})),
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "MappingView.__init__", Pos: []string{"self", "mapping"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			return python.None, python.SetAttr(t, a[0], "_mapping", a[1])
		}),
		method("__len__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			m, err := python.GetAttr(t, args[0], "_mapping")
			if err != nil {
				return nil, err
			}
			n, err := python.Len(t, m)
			return python.MakeInt(int64(n)), err
		}),
		method("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			m, err := python.GetAttr(t, args[0], "_mapping")
			if err != nil {
				return nil, err
			}
			r, err := python.Repr(t, m)
			if err != nil {
				return nil, err
			}
			return python.NewStr(typeName(args[0]) + "(" + r + ")"), nil
		}),
		classMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__class_getitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return python.NewGenericAlias(args[0], args[1]), nil
		}),
	}
}

// viewSet is _from_iterable of KeysView and ItemsView: set(it).
func viewSet(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("_from_iterable", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return python.Call(t, python.SetType, []obj{args[1]}, nil)
}

func mappingOf(t *python.Thread, view obj) (obj, error) { return python.GetAttr(t, view, "_mapping") }

func (st *state) keysViewMembers() []member {
	return []member{
		value("__slots__", python.NewTuple(nil)),
		classMethod("_from_iterable", viewSet),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			m, err := mappingOf(t, args[0])
			if err != nil {
				return nil, err
			}
			in, err := python.Contains(t, m, args[1])
			return python.MakeBool(in), err
		}),
		method("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			m, err := mappingOf(t, args[0])
			if err != nil {
				return nil, err
			}
			var it obj
			return st.newGen("KeysView.__iter__", func(t *python.Thread) (obj, error) {
				if it == nil {
					if it, err = python.Iter(t, m); err != nil {
						return nil, err
					}
				}
				return python.Next(t, it)
			}), nil
		}),
	}
}

func (st *state) itemsViewMembers() []member {
	return []member{
		value("__slots__", python.NewTuple(nil)),
		classMethod("_from_iterable", viewSet),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			m, err := mappingOf(t, args[0])
			if err != nil {
				return nil, err
			}
			kv, err := python.ToSlice(t, args[1])
			if err != nil {
				return nil, err
			}
			if len(kv) != 2 {
				if len(kv) < 2 {
					return nil, python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(kv))
				}
				return nil, python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
			}
			v, err := getItem(t, m, kv[0])
			if err != nil {
				if isKeyError(err) {
					return python.False, nil
				}
				return nil, err
			}
			eq, err := eqOrIs(t, v, kv[1])
			return python.MakeBool(eq), err
		}),
		method("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			m, err := mappingOf(t, args[0])
			if err != nil {
				return nil, err
			}
			var it obj
			return st.newGen("ItemsView.__iter__", func(t *python.Thread) (obj, error) {
				if it == nil {
					if it, err = python.Iter(t, m); err != nil {
						return nil, err
					}
				}
				k, err := python.Next(t, it)
				if err != nil || k == nil {
					return nil, err
				}
				v, err := getItem(t, m, k)
				if err != nil {
					return nil, err
				}
				return python.NewTuple([]obj{k, v}), nil
			}), nil
		}),
	}
}

func (st *state) valuesViewMembers() []member {
	return []member{
		value("__slots__", python.NewTuple(nil)),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			m, err := mappingOf(t, args[0])
			if err != nil {
				return nil, err
			}
			found := false
			err = python.Iterate(t, m, func(k obj) error {
				v, err := getItem(t, m, k)
				if err != nil {
					return err
				}
				eq, err := eqOrIs(t, v, args[1])
				if err != nil {
					return err
				}
				if eq {
					found = true
					return python.ErrStop
				}
				return nil
			})
			return python.MakeBool(found), err
		}),
		method("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			m, err := mappingOf(t, args[0])
			if err != nil {
				return nil, err
			}
			var it obj
			return st.newGen("ValuesView.__iter__", func(t *python.Thread) (obj, error) {
				if it == nil {
					if it, err = python.Iter(t, m); err != nil {
						return nil, err
					}
				}
				k, err := python.Next(t, it)
				if err != nil || k == nil {
					return nil, err
				}
				return getItem(t, m, k)
			}), nil
		}),
	}
}

func (st *state) mutableMappingMixins() []member {
	marker := python.NewList(nil) // a private default
	return []member{
		abstract("__setitem__", raise(python.KeyErrorType)),
		abstract("__delitem__", raise(python.KeyErrorType)),
		method("pop", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "MutableMapping.pop", Pos: []string{"self", "key", "default"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			v, err := getItem(t, a[0], a[1])
			if err != nil {
				if isKeyError(err) && a[2] != nil && a[2] != obj(marker) {
					return a[2], nil
				}
				return nil, err
			}
			return v, python.DelItem(t, a[0], a[1])
		}),
		method("popitem", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableMapping.popitem", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return mappingPopItem(t, args[0])
		}),
		method("clear", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableMapping.clear", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			for {
				if _, err := callMethod(t, args[0], "popitem"); err != nil {
					if isKeyError(err) {
						return python.None, nil
					}
					return nil, err
				}
				if err := t.Tick(1); err != nil {
					return nil, err
				}
			}
		}),
		method("update", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("MutableMapping.update", len(args)-1, 0, 1)
			}
			var other obj
			if len(args) == 2 {
				other = args[1]
			}
			return python.None, st.mappingUpdate(t, args[0], other, kwargs)
		}),
		method("setdefault", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "MutableMapping.setdefault", Pos: []string{"self", "key", "default"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			v, err := getItem(t, a[0], a[1])
			if err == nil {
				return v, nil
			}
			if !isKeyError(err) {
				return nil, err
			}
			def := a[2]
			if def == nil {
				def = python.None
			}
			return def, python.SetItem(t, a[0], a[1], def)
		}),
	}
}

// mappingPopItem is MutableMapping.popitem.
func mappingPopItem(t *python.Thread, self obj) (obj, error) {
	it, err := python.Iter(t, self)
	if err != nil {
		return nil, err
	}
	k, err := python.Next(t, it)
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, python.NewException(python.KeyErrorType)
	}
	v, err := getItem(t, self, k)
	if err != nil {
		return nil, err
	}
	if err := python.DelItem(t, self, k); err != nil {
		return nil, err
	}
	return python.NewTuple([]obj{k, v}), nil
}

// mappingUpdate is MutableMapping.update(other, **kwds).
func (st *state) mappingUpdate(t *python.Thread, self, other obj, kwargs []kwarg) error {
	if other != nil {
		isMap, err := st.isABC(t, other, "Mapping")
		if err != nil {
			return err
		}
		hasKeys := false
		if !isMap {
			if hasKeys, err = python.HasAttr(t, other, "keys"); err != nil {
				return err
			}
		}
		switch {
		case isMap:
			err = python.Iterate(t, other, func(k obj) error {
				v, err := getItem(t, other, k)
				if err != nil {
					return err
				}
				return python.SetItem(t, self, k, v)
			})
		case hasKeys:
			var keys obj
			if keys, err = callMethod(t, other, "keys"); err != nil {
				return err
			}
			err = python.Iterate(t, keys, func(k obj) error {
				v, err := getItem(t, other, k)
				if err != nil {
					return err
				}
				return python.SetItem(t, self, k, v)
			})
		default:
			err = python.Iterate(t, other, func(kv obj) error {
				pair, err := python.ToSlice(t, kv)
				if err != nil {
					return err
				}
				if len(pair) != 2 {
					if len(pair) < 2 {
						return python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(pair))
					}
					return python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
				}
				return python.SetItem(t, self, pair[0], pair[1])
			})
		}
		if err != nil {
			return err
		}
	}
	for _, kw := range kwargs {
		if err := python.SetItem(t, self, python.NewStr(kw.Name), kw.Value); err != nil {
			return err
		}
	}
	return nil
}

func (st *state) sequenceMixins() []member {
	return []member{
		abstract("__getitem__", raise(python.IndexErrorType)),
		method("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			i := int64(0)
			return st.newGen("Sequence.__iter__", func(t *python.Thread) (obj, error) {
				v, err := getItem(t, self, python.MakeInt(i))
				if err != nil {
					if python.IsInstance(err, python.IndexErrorType) {
						return nil, nil
					}
					return nil, err
				}
				i++
				return v, nil
			}), nil
		}),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Sequence.__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			found := false
			err := python.Iterate(t, args[0], func(v obj) error {
				eq, err := eqOrIs(t, v, args[1])
				if err != nil {
					return err
				}
				if eq {
					found = true
					return python.ErrStop
				}
				return nil
			})
			return python.MakeBool(found), err
		}),
		method("__reversed__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			n, err := python.Len(t, self)
			if err != nil {
				return nil, err
			}
			i := int64(n)
			return st.newGen("Sequence.__reversed__", func(t *python.Thread) (obj, error) {
				if i <= 0 {
					return nil, nil
				}
				i--
				return getItem(t, self, python.MakeInt(i))
			}), nil
		}),
		method("index", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "Sequence.index", Pos: []string{"self", "value", "start", "stop"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			return seqIndex(t, a[0], a[1], a[2], a[3])
		}),
		method("count", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("Sequence.count", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			n := int64(0)
			err := python.Iterate(t, args[0], func(v obj) error {
				eq, err := eqOrIs(t, v, args[1])
				if eq {
					n++
				}
				return err
			})
			return python.MakeInt(n), err
		}),
	}
}

// seqIndex is Sequence.index(value, start, stop).
func seqIndex(t *python.Thread, self, value, startArg, stopArg obj) (obj, error) {
	var start, stop int64
	hasStop := false
	if startArg != nil && startArg != python.None {
		n, err := python.ArgInt(t, "index", startArg)
		if err != nil {
			return nil, err
		}
		start = n
		if start < 0 {
			l, err := python.Len(t, self)
			if err != nil {
				return nil, err
			}
			start = max(int64(l)+start, 0)
		}
	}
	if stopArg != nil && stopArg != python.None {
		n, err := python.ArgInt(t, "index", stopArg)
		if err != nil {
			return nil, err
		}
		stop, hasStop = n, true
		if stop < 0 {
			l, err := python.Len(t, self)
			if err != nil {
				return nil, err
			}
			stop += int64(l)
		}
	}
	for i := start; !hasStop || i < stop; i++ {
		v, err := getItem(t, self, python.MakeInt(i))
		if err != nil {
			if python.IsInstance(err, python.IndexErrorType) {
				break
			}
			return nil, err
		}
		eq, err := eqOrIs(t, v, value)
		if err != nil {
			return nil, err
		}
		if eq {
			return python.MakeInt(i), nil
		}
		if err := t.Tick(1); err != nil {
			return nil, err
		}
	}
	return nil, python.NewException(python.ValueErrorType)
}

func (st *state) mutableSequenceMixins() []member {
	return []member{
		abstract("__setitem__", raise(python.IndexErrorType)),
		abstract("__delitem__", raise(python.IndexErrorType)),
		abstract("insert", raise(python.IndexErrorType)),
		method("append", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableSequence.append", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			n, err := python.Len(t, args[0])
			if err != nil {
				return nil, err
			}
			_, err = callMethod(t, args[0], "insert", python.MakeInt(int64(n)), args[1])
			return python.None, err
		}),
		method("clear", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableSequence.clear", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			for {
				if _, err := callMethod(t, args[0], "pop"); err != nil {
					if python.IsInstance(err, python.IndexErrorType) {
						return python.None, nil
					}
					return nil, err
				}
				if err := t.Tick(1); err != nil {
					return nil, err
				}
			}
		}),
		method("reverse", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableSequence.reverse", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			self := args[0]
			n, err := python.Len(t, self)
			if err != nil {
				return nil, err
			}
			for i := 0; i < n/2; i++ {
				a, err := getItem(t, self, python.MakeInt(int64(n-i-1)))
				if err != nil {
					return nil, err
				}
				b, err := getItem(t, self, python.MakeInt(int64(i)))
				if err != nil {
					return nil, err
				}
				if err := python.SetItem(t, self, python.MakeInt(int64(i)), a); err != nil {
					return nil, err
				}
				if err := python.SetItem(t, self, python.MakeInt(int64(n-i-1)), b); err != nil {
					return nil, err
				}
			}
			return python.None, nil
		}),
		method("extend", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableSequence.extend", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return python.None, seqExtend(t, args[0], args[1])
		}),
		method("pop", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableSequence.pop", args, kwargs, 0, 1); err != nil {
				return nil, err
			}
			var idx obj = python.MakeInt(-1)
			if len(args) == 2 {
				idx = args[1]
			}
			v, err := getItem(t, args[0], idx)
			if err != nil {
				return nil, err
			}
			return v, python.DelItem(t, args[0], idx)
		}),
		method("remove", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("MutableSequence.remove", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			i, err := callMethod(t, args[0], "index", args[1])
			if err != nil {
				return nil, err
			}
			return python.None, python.DelItem(t, args[0], i)
		}),
		method("__iadd__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__iadd__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if _, err := callMethod(t, args[0], "extend", args[1]); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
	}
}

// seqExtend is MutableSequence.extend.
func seqExtend(t *python.Thread, self, values obj) error {
	if python.Is(values, self) {
		items, err := python.ToSlice(t, values)
		if err != nil {
			return err
		}
		values = python.NewList(items)
	}
	return python.Iterate(t, values, func(v obj) error {
		_, err := callMethod(t, self, "append", v)
		return err
	})
}
