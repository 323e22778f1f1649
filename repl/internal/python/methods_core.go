package python

import (
	"math/big"
	"slices"
	"strings"
)

func initObjectMethods() {
	o := ObjectType
	method(o, "__init__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if len(args)+len(kwargs) > 1 {
			cls := args[0].Type()
			if _, owner := cls.lookupOwner("__new__"); owner == ObjectType {
				if _, owner := cls.lookupOwner("__init__"); owner == ObjectType {
					return nil, Errorf(TypeErrorType, "%s() takes no arguments", cls.name)
				}
				return nil, Errorf(TypeErrorType, "object.__init__() takes exactly one argument (the instance to initialize)")
			}
		}
		return None, nil
	})
	o.dict.SetStr("__new__", newWrapper(o))
	method(o, "__repr__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x := args[0]
		if in, ok := x.(*Instance); ok {
			mod := in.cls.module
			if mod == "" || mod == "builtins" {
				return NewStr("<" + in.cls.qualname + " object at " + addr(in) + ">"), nil
			}
			return NewStr("<" + mod + "." + in.cls.qualname + " object at " + addr(in) + ">"), nil
		}
		s, err := Repr(t, x)
		return NewStr(s), err
	})
	method(o, "__str__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		s, err := Repr(t, args[0])
		return NewStr(s), err
	})
	method(o, "__eq__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		if identical(args[0], args[1]) {
			return True, nil
		}
		return NotImplemented, nil
	})
	method(o, "__ne__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		r, err := Compare(t, CmpEq, args[0], args[1])
		if err != nil || r == NotImplemented {
			return r, err
		}
		b, err := TruthE(t, r)
		return MakeBool(!b), err
	})
	for _, n := range []string{"__lt__", "__le__", "__gt__", "__ge__"} {
		method(o, n, func(*Thread, []Object, []Kwarg) (Object, error) { return NotImplemented, nil })
	}
	method(o, "__hash__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if h, ok := args[0].(hasIdentity); ok {
			return MakeInt(int64(h.ident())), nil
		}
		h, err := Hash(t, args[0])
		return MakeInt(h), err
	})
	method(o, "__setattr__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 3 {
			return nil, Errorf(TypeErrorType, "expected 2 arguments, got %d", len(args)-1)
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "attribute name must be string, not '%s'", typeName(args[1]))
		}
		return None, genericSetAttr(t, args[0], name.s, args[2])
	})
	method(o, "__delattr__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "attribute name must be string, not '%s'", typeName(args[1]))
		}
		return None, genericDelAttr(t, args[0], name.s)
	})
	method(o, "__getattribute__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "attribute name must be string, not '%s'", typeName(args[1]))
		}
		v, err := genericGetAttr(t, args[0], name.s)
		if err == nil && v == nil {
			err = attrError(args[0], name.s)
		}
		return v, err
	})
	method(o, "__format__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		spec := StrValue(args[1])
		if spec != "" {
			return nil, Errorf(TypeErrorType, "unsupported format string passed to %s.__format__", typeName(args[0]))
		}
		s, err := StrOf(t, args[0])
		return NewStr(s), err
	})
	method(o, "__dir__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return builtinDir(t, args[:1], nil)
	})
	method(o, "__reduce_ex__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return nil, NotSupported("pickling", "copy.copy/copy.deepcopy work without it")
	})
	method(o, "__reduce__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return nil, NotSupported("pickling", "copy.copy/copy.deepcopy work without it")
	})
	method(o, "__sizeof__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return nil, NotSupported("object sizes (__sizeof__, sys.getsizeof)", "")
	})
	method(o, "__getstate__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("__getstate__", args[1:], kwargs, 0, 0); err != nil {
			return nil, err
		}
		inst, ok := args[0].(*Instance)
		if !ok {
			if e, ok := args[0].(*Exception); ok && e.dict != nil && e.dict.Len() > 0 {
				return e.dict, nil
			}
			return None, nil
		}
		var state Object = None
		if inst.cls.slots == nil {
			if inst.dict != nil && inst.dict.Len() > 0 {
				state = inst.dict
			}
			return state, nil
		}
		// Slots only: (None, {slot: value}).
		sl := NewDict(len(inst.cls.slots))
		for _, n := range inst.cls.slots {
			if inst.dict != nil {
				if v, ok := inst.dict.GetStr(n); ok {
					sl.SetStr(n, v)
				}
			}
		}
		if sl.Len() == 0 {
			return None, nil
		}
		return NewTuple([]Object{None, sl}), nil
	})
	o.dict.SetStr("__subclasshook__", NewClassMethod(o, "__subclasshook__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return NotImplemented, nil
	}))
	o.dict.SetStr("__init_subclass__", NewClassMethod(o, "__init_subclass__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if len(kwargs) > 0 {
			return nil, Errorf(TypeErrorType, "%s.__init_subclass__() takes no keyword arguments", StrValue(NewStr(args[0].(*Type).name)))
		}
		return None, nil
	}))
	o.dict.SetStr("__class__", &GetSet{name: "__class__", owner: o, get: func(_ *Thread, x Object) (Object, error) { return x.Type(), nil }, set: setClass})
	o.dict.SetStr("__doc__", NewStr("The base class of the class hierarchy."))
}

// setClass is obj.__class__ = cls: between class statements' classes of
// the same layout.
func setClass(t *Thread, obj, v Object) error {
	cls, ok := v.(*Type)
	if !ok {
		return Errorf(TypeErrorType, "__class__ must be set to a class, not '%s' object", typeName(v))
	}
	old := obj.Type()
	switch o := obj.(type) {
	case *Instance:
		if old.builtin || cls.builtin {
			return Errorf(TypeErrorType, "__class__ assignment only supported for mutable types or ModuleType subclasses")
		}
		if cls.solid != old.solid || !slices.Equal(cls.slots, old.slots) || (cls.slots == nil) != (old.slots == nil) || cls.Hooks != old.Hooks {
			return Errorf(TypeErrorType, "__class__ assignment: '%s' object layout differs from '%s'", cls.name, old.name)
		}
		o.cls = cls
		return nil
	case *Exception:
		if old.builtin || cls.builtin {
			return Errorf(TypeErrorType, "__class__ assignment only supported for mutable types or ModuleType subclasses")
		}
		if cls.solid != old.solid || !cls.IsSubtype(BaseExceptionType) {
			return Errorf(TypeErrorType, "__class__ assignment: '%s' object layout differs from '%s'", cls.name, old.name)
		}
		o.cls = cls
		return nil
	}
	return Errorf(TypeErrorType, "__class__ assignment only supported for mutable types or ModuleType subclasses")
}

// genericSetAttr is object.__setattr__: the instance dict, past any user
// __setattr__.
func genericSetAttr(t *Thread, obj Object, name string, v Object) error {
	attr, owner := obj.Type().lookupOwner(name)
	if owner != nil && isDataDescriptor(attr) {
		return setDescriptor(t, attr, obj, name, v)
	}
	if o, ok := obj.(*Instance); ok && (o.dict == nil || o.cls.slots != nil && !slices.Contains(o.cls.slots, name)) {
		return Errorf(AttributeErrorType, "'%s' object has no attribute '%s'", o.cls.name, name)
	}
	if e, ok := obj.(*Exception); ok {
		e.dictOf().SetStr(name, v)
		return nil
	}
	if d := instanceDict(obj); d != nil {
		d.SetStr(name, v)
		return nil
	}
	return attrError(obj, name)
}

func initTypeMethods() {
	c := TypeType
	method(c, "mro", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		cls, ok := args[0].(*Type)
		if !ok {
			return nil, Errorf(TypeErrorType, "descriptor 'mro' requires a 'type' object")
		}
		out := make([]Object, len(cls.mro))
		for i, m := range cls.mro {
			out[i] = m
		}
		return NewList(out), nil
	})
	method(c, "__subclasses__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return nil, NotSupported("type.__subclasses__()", "keep a registry of the classes you define")
	})
	method(c, "__instancecheck__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument")
		}
		b, err := isInstanceOf(t, args[1], args[0], 0)
		return MakeBool(b), err
	})
	method(c, "__subclasscheck__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		sub, ok := args[1].(*Type)
		if !ok {
			return nil, Errorf(TypeErrorType, "issubclass() arg 1 must be a class")
		}
		b, err := isSubclassOf(t, sub, args[0], 0)
		return MakeBool(b), err
	})
	method(c, "__or__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return unionOf(args[0], args[1])
	})
	method(c, "__ror__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return unionOf(args[1], args[0])
	})
}

func initIterMethods() {
	for _, c := range []*Type{ListIterType, TupleIterType, StrIterType, RangeIterType, DictKeyIterType,
		DictValueIterType, DictItemIterType, SetIterType, BytesIterType, SeqIterType, CallableIterType,
		MapType, FilterType, ZipType, EnumerateType, ReversedType, ListRevIterType, StrUnicodeIterType,
		ByteArrayIterType, DictRevKeyIterType, DictRevValueIterType, DictRevItemIterType, LongRangeIterType} {
		method(c, "__iter__", func(_ *Thread, args []Object, _ []Kwarg) (Object, error) { return args[0], nil })
		method(c, "__next__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			v, err := Next(t, args[0])
			if err != nil {
				return nil, err
			}
			if v == nil {
				return nil, NewException(StopIterationType)
			}
			return v, nil
		})
	}
	g := GeneratorType
	getset(g, "__name__", func(_ *Thread, x Object) (Object, error) {
		if v, ok := x.(*Generator); ok {
			return NewStr(v.frame.code.Name), nil
		}
		return NewStr("<genexpr>"), nil
	})
	getset(g, "__qualname__", func(_ *Thread, x Object) (Object, error) {
		switch v := x.(type) {
		case *Generator:
			return NewStr(v.frame.code.Qualname), nil
		case *genexpIter:
			return NewStr(v.name), nil
		}
		return NewStr("<genexpr>"), nil
	})
	getset(g, "gi_running", func(_ *Thread, x Object) (Object, error) {
		switch v := x.(type) {
		case *Generator:
			return MakeBool(v.core.getState() == genRunning), nil
		case *genexpIter:
			return MakeBool(v.runs), nil
		}
		return False, nil
	})
	getset(g, "gi_suspended", func(_ *Thread, x Object) (Object, error) {
		if v, ok := x.(*Generator); ok {
			return MakeBool(v.core.getState() == genSuspended), nil
		}
		return False, nil
	})
	getset(g, "gi_frame", func(_ *Thread, x Object) (Object, error) {
		switch v := x.(type) {
		case *Generator:
			if v.core.getState() == genDone {
				return None, nil
			}
			return frameObject(v.frame), nil
		case *genexpIter:
			if v.done {
				return None, nil
			}
			return frameObject(v.cf), nil
		}
		return None, nil
	})
	getset(g, "gi_code", func(_ *Thread, x Object) (Object, error) {
		return nil, NotSupported("generator code objects (gi_code)", "")
	})
	getset(g, "gi_yieldfrom", func(_ *Thread, x Object) (Object, error) {
		return nil, NotSupported("generator.gi_yieldfrom", "")
	})
	method(g, "__iter__", func(_ *Thread, args []Object, _ []Kwarg) (Object, error) { return args[0], nil })
	method(g, "__next__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return genSend(t, args[0], None)
	})
	method(g, "send", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "generator.send() takes exactly one argument (%d given)", len(args)-1)
		}
		return genSend(t, args[0], args[1])
	})
	method(g, "close", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		switch x := args[0].(type) {
		case *Generator:
			return None, x.close(t)
		case *genexpIter:
			x.close()
		}
		return None, nil
	})
	method(g, "throw", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) < 2 {
			return nil, Errorf(TypeErrorType, "throw expected at least 1 argument, got 0")
		}
		e, err := makeException(t, args[1])
		if err != nil {
			return nil, err
		}
		x, ok := args[0].(*Generator)
		if !ok {
			// A generator expression has no handler: the exception
			// ends it and propagates.
			if ge, ok := args[0].(*genexpIter); ok {
				if ge.runs {
					return nil, Errorf(ValueErrorType, "generator already executing")
				}
				ge.done = true
			}
			return nil, e
		}
		v, done, err := x.core.send(t, nil, e)
		if err != nil {
			return nil, err
		}
		if done {
			return nil, stopIteration(v)
		}
		return v, nil
	})
}

func stopIteration(v Object) *Exception {
	if v == nil || v == None {
		return NewException(StopIterationType)
	}
	e := NewException(StopIterationType, v)
	e.value = v
	return e
}

func genSend(t *Thread, g Object, v Object) (Object, error) {
	switch x := g.(type) {
	case *Generator:
		r, done, err := x.core.send(t, v, nil)
		if err != nil {
			return nil, err
		}
		if done {
			return nil, stopIteration(r)
		}
		return r, nil
	case *genexpIter:
		if v != None {
			return nil, Errorf(TypeErrorType, "can't send non-None value to a just-started generator")
		}
		r, err := x.Next(t)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, NewException(StopIterationType)
		}
		return r, nil
	}
	return nil, Errorf(TypeErrorType, "not a generator")
}

func initMiscMethods() {
	p := PropertyType
	for _, n := range []string{"getter", "setter", "deleter"} {
		n := n
		method(p, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			if len(args) != 2 {
				return nil, Errorf(TypeErrorType, "%s() takes exactly one argument", n)
			}
			old := args[0].(*Property)
			np := *old
			switch n {
			case "getter":
				np.fget = args[1]
				if np.docFromGetter || np.doc == nil || np.doc == None {
					np.doc = getterDoc(t, args[1])
					np.docFromGetter = np.doc != nil
				}
			case "setter":
				np.fset = args[1]
			default:
				np.fdel = args[1]
			}
			return &np, nil
		})
	}
	getset(p, "fget", func(_ *Thread, x Object) (Object, error) { return nilToNone(x.(*Property).fget), nil })
	getset(p, "fset", func(_ *Thread, x Object) (Object, error) { return nilToNone(x.(*Property).fset), nil })
	getset(p, "fdel", func(_ *Thread, x Object) (Object, error) { return nilToNone(x.(*Property).fdel), nil })
	p.dict.SetStr("__doc__", &GetSet{name: "__doc__", owner: p, get: func(_ *Thread, x Object) (Object, error) {
		if pr, ok := x.(*Property); ok {
			return nilToNone(pr.doc), nil
		}
		return None, nil
	}, set: func(_ *Thread, x, v Object) error {
		pr := x.(*Property)
		pr.doc, pr.docFromGetter = v, false
		return nil
	}})
	method(p, "__set__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 3 {
			return nil, Errorf(TypeErrorType, "expected 2 arguments, got %d", len(args)-1)
		}
		return None, args[0].(*Property).set(t, args[1], args[2])
	})
	method(p, "__delete__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		return None, args[0].(*Property).del(t, args[1])
	})
	method(p, "__set_name__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 3 {
			return nil, Errorf(TypeErrorType, "__set_name__() takes 2 positional arguments but %d were given", len(args)-1)
		}
		if n, ok := args[2].(*Str); ok {
			args[0].(*Property).name = n.s
		}
		return None, nil
	})
	getset(p, "__isabstractmethod__", func(_ *Thread, x Object) (Object, error) { return MakeBool(x.(*Property).abstract), nil })
	method(p, "__get__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) < 2 || args[1] == None {
			return args[0], nil
		}
		return args[0].(*Property).get(t, args[1])
	})
	getset(StaticMethodType, "__func__", func(_ *Thread, x Object) (Object, error) { return x.(*StaticMethod).fn, nil })
	// staticmethod and classmethod objects carry their function's
	// __name__, __qualname__, __doc__ and __module__ (and __wrapped__).
	wrapped := func(x Object) Object {
		switch v := x.(type) {
		case *StaticMethod:
			return v.fn
		case *ClassMethod:
			return v.fn
		}
		return None
	}
	for _, c := range []*Type{StaticMethodType, ClassMethodType} {
		getset(c, "__wrapped__", func(_ *Thread, x Object) (Object, error) { return wrapped(x), nil })
		getset(c, "__isabstractmethod__", func(_ *Thread, x Object) (Object, error) { return MakeBool(isAbstract(x)), nil })
		for _, n := range []string{"__name__", "__qualname__", "__doc__", "__module__"} {
			getset(c, n, func(t *Thread, x Object) (Object, error) {
				v, err := getAttr(t, wrapped(x), n)
				if err != nil {
					return nil, err
				}
				if v == nil {
					return nil, attrError(x, n)
				}
				return v, nil
			})
		}
	}
	getset(ClassMethodType, "__func__", func(_ *Thread, x Object) (Object, error) { return x.(*ClassMethod).fn, nil })
	method(StaticMethodType, "__get__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return args[0].(*StaticMethod).fn, nil
	})
	method(ClassMethodType, "__get__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		cm := args[0].(*ClassMethod)
		var cls Object = None
		if len(args) > 2 && args[2] != None {
			cls = args[2]
		} else if len(args) > 1 && args[1] != None {
			cls = args[1].Type()
		}
		return &Method{fn: cm.fn, self: cls}, nil
	})
	method(StaticMethodType, "__call__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return Call(t, args[0].(*StaticMethod).fn, args[1:], kwargs)
	})

	f := FunctionType
	getset(f, "__name__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*Function).name), nil })
	getset(f, "__qualname__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*Function).qualname), nil })
	getset(f, "__module__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*Function).module), nil })
	getset(f, "__doc__", func(_ *Thread, x Object) (Object, error) { return nilToNone(x.(*Function).doc), nil })
	getset(f, "__defaults__", func(_ *Thread, x Object) (Object, error) {
		d := x.(*Function).defaults
		if d == nil {
			return None, nil
		}
		return NewTuple(d), nil
	})
	getset(f, "__kwdefaults__", func(_ *Thread, x Object) (Object, error) {
		fn := x.(*Function)
		d := NewDict(len(fn.kwdefaults))
		for i, v := range fn.kwdefaults {
			if v != nil {
				d.SetStr(fn.code.KwOnly[i], v)
			}
		}
		if d.Len() == 0 {
			return None, nil
		}
		return d, nil
	})
	getset(f, "__closure__", func(_ *Thread, x Object) (Object, error) {
		fn := x.(*Function)
		if len(fn.closure) == 0 {
			return None, nil
		}
		cells := make([]Object, len(fn.closure))
		for i, c := range fn.closure {
			cells[i] = c
		}
		return NewTuple(cells), nil
	})
	getset(f, "__builtins__", func(t *Thread, x Object) (Object, error) { return t.interp.builtins, nil })
	getset(f, "__type_params__", func(t *Thread, x Object) (Object, error) {
		if v, ok := x.(*Function).attrs().GetStr("__type_params__"); ok {
			return v, nil
		}
		return NewTuple(nil), nil
	})
	f.dict.SetStr("__dict__", &GetSet{name: "__dict__", owner: f, get: func(_ *Thread, x Object) (Object, error) {
		return x.(*Function).attrs(), nil
	}, set: func(_ *Thread, x, v Object) error {
		d, ok := v.(*Dict)
		if !ok {
			return Errorf(TypeErrorType, "__dict__ must be set to a dictionary, not a '%s'", typeName(v))
		}
		x.(*Function).dict = d
		return nil
	}})
	method(f, "__call__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return Call(t, args[0], args[1:], kwargs)
	})
	getset(CellType, "cell_contents", func(_ *Thread, x Object) (Object, error) {
		if v := x.(*Cell).v; v != nil {
			return v, nil
		}
		return nil, Errorf(ValueErrorType, "Cell is empty")
	})
	getset(f, "__annotations__", func(_ *Thread, x Object) (Object, error) {
		fn := x.(*Function)
		if v, ok := fn.attrs().GetStr("__annotations__"); ok {
			return v, nil
		}
		d := NewDict(0)
		fn.attrs().SetStr("__annotations__", d)
		return d, nil
	})
	getset(f, "__code__", func(_ *Thread, x Object) (Object, error) {
		return nil, NotSupported("function code objects", "")
	})
	getset(f, "__globals__", func(_ *Thread, x Object) (Object, error) { return x.(*Function).globals, nil })
	method(f, "__get__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) < 2 || args[1] == None {
			return args[0], nil
		}
		return &Method{fn: args[0], self: args[1]}, nil
	})
	getset(MethodType, "__self__", func(_ *Thread, x Object) (Object, error) { return x.(*Method).self, nil })
	getset(MethodType, "__func__", func(_ *Thread, x Object) (Object, error) { return x.(*Method).fn, nil })
	getset(MethodType, "__name__", func(t *Thread, x Object) (Object, error) { return GetAttr(t, x.(*Method).fn, "__name__") })
	getset(MethodType, "__qualname__", func(t *Thread, x Object) (Object, error) { return GetAttr(t, x.(*Method).fn, "__qualname__") })
	getset(MethodType, "__doc__", func(t *Thread, x Object) (Object, error) { return GetAttr(t, x.(*Method).fn, "__doc__") })
	getset(BuiltinFunctionType, "__name__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*Builtin).name), nil })
	getset(BuiltinFunctionType, "__qualname__", func(_ *Thread, x Object) (Object, error) {
		b := x.(*Builtin)
		if b.owner != nil && (b.method || b.classMethod) {
			return NewStr(b.owner.qualname + "." + b.name), nil
		}
		return NewStr(b.name), nil
	})
	getset(BuiltinFunctionType, "__self__", func(_ *Thread, x Object) (Object, error) { return nilToNone(x.(*Builtin).self), nil })
	getset(BuiltinFunctionType, "__module__", func(_ *Thread, x Object) (Object, error) {
		if m := x.(*Builtin).module; m != "" {
			return NewStr(m), nil
		}
		return None, nil
	})
	getset(BuiltinFunctionType, "__doc__", func(_ *Thread, x Object) (Object, error) { return None, nil })
	getset(MethodDescriptorType, "__name__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*Builtin).name), nil })
	getset(MethodDescriptorType, "__qualname__", func(_ *Thread, x Object) (Object, error) {
		b := x.(*Builtin)
		return NewStr(b.owner.name + "." + b.name), nil
	})

	r := RangeType
	part := func(i int) func(_ *Thread, x Object) (Object, error) {
		return func(_ *Thread, x Object) (Object, error) {
			if rg, ok := x.(*Range); ok {
				return MakeInt([3]int64{rg.start, rg.stop, rg.step}[i]), nil
			}
			start, stop, step, _, _ := rangeParts(x)
			return MakeBigInt(new(big.Int).Set([3]*big.Int{start, stop, step}[i])), nil
		}
	}
	getset(r, "start", part(0))
	getset(r, "stop", part(1))
	getset(r, "step", part(2))
	method(r, "index", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("index", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		if v, ok := intValue(args[1]); ok {
			if i := rangeIndexOf(args[0], toBig(v)); i != nil {
				return i, nil
			}
		} else {
			// Any other value: the first equal item, by iteration.
			i := int64(0)
			var found Object
			err := Iterate(t, args[0], func(x Object) error {
				eq, err := Equal(t, x, args[1])
				if err != nil {
					return err
				}
				if eq {
					found = MakeInt(i)
					return ErrStop
				}
				i++
				return t.tick()
			})
			if err != nil || found != nil {
				return found, err
			}
		}
		s, err := Repr(t, args[1])
		if err != nil {
			return nil, err
		}
		return nil, Errorf(ValueErrorType, "%s is not in range", s)
	})
	method(r, "count", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("count", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		if v, ok := intValue(args[1]); ok {
			if rangeIndexOf(args[0], toBig(v)) != nil {
				return Int(1), nil
			}
			return Int(0), nil
		}
		n := int64(0)
		err := Iterate(t, args[0], func(x Object) error {
			eq, err := Equal(t, x, args[1])
			if err != nil {
				return err
			}
			if eq {
				n++
			}
			return t.tick()
		})
		return MakeInt(n), err
	})
	method(r, "__reversed__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return reversedNew(t, nil, args[:1], nil)
	})
	s := SliceType
	getset(s, "start", func(_ *Thread, x Object) (Object, error) { return x.(*Slice).Start, nil })
	getset(s, "stop", func(_ *Thread, x Object) (Object, error) { return x.(*Slice).Stop, nil })
	getset(s, "step", func(_ *Thread, x Object) (Object, error) { return x.(*Slice).Step, nil })
	method(s, "indices", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("indices", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		n, err := argInt(t, "indices", args[1])
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return nil, Errorf(ValueErrorType, "length should not be negative")
		}
		start, stop, step, _, err := sliceIndices(t, args[0].(*Slice), int(n))
		if err != nil {
			return nil, err
		}
		return NewTuple([]Object{MakeInt(int64(start)), MakeInt(int64(stop)), MakeInt(int64(step))}), nil
	})
	m := ModuleType
	getset(m, "__name__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*Module).name), nil })
	getset(m, "__dict__", func(_ *Thread, x Object) (Object, error) { return x.(*Module).dict, nil })
	initMappingProxy()
	initGenericAlias()
}

// GenericAlias is list[int] and friends (annotations).
type GenericAlias struct {
	origin Object
	args   []Object
}

// Type returns types.GenericAlias.
func (*GenericAlias) Type() *Type { return GenericAliasType }

// NewGenericAlias returns origin[args].
func NewGenericAlias(origin, args Object) Object {
	var as []Object
	if tu, ok := args.(*Tuple); ok {
		as = tu.items
	} else {
		as = []Object{args}
	}
	return &GenericAlias{origin: origin, args: as}
}

// UnionType is X | Y of types.
type UnionType struct{ args []Object }

// Type returns types.UnionType.
func (*UnionType) Type() *Type { return UnionTypeType }

func unionOf(a, b Object) (Object, error) {
	ok := func(x Object) bool {
		switch x.(type) {
		case *Type, *GenericAlias, *UnionType, NoneType:
			return true
		}
		return false
	}
	if !ok(a) || !ok(b) {
		return NotImplemented, nil
	}
	var args []Object
	add := func(x Object) {
		if u, ok := x.(*UnionType); ok {
			args = append(args, u.args...)
			return
		}
		if x == None {
			x = NoneTypeType
		}
		for _, y := range args {
			if y == x {
				return
			}
		}
		args = append(args, x)
	}
	add(a)
	add(b)
	return &UnionType{args: args}, nil
}

func initGenericAlias() {
	g := GenericAliasType
	getset(g, "__origin__", func(_ *Thread, x Object) (Object, error) { return x.(*GenericAlias).origin, nil })
	getset(g, "__args__", func(_ *Thread, x Object) (Object, error) { return NewTuple(x.(*GenericAlias).args), nil })
	method(g, "__call__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return Call(t, args[0].(*GenericAlias).origin, args[1:], kwargs)
	})
	method(g, "__or__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return unionOf(args[0], args[1]) })
	method(g, "__ror__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return unionOf(args[1], args[0]) })
	u := UnionTypeType
	getset(u, "__args__", func(_ *Thread, x Object) (Object, error) { return NewTuple(x.(*UnionType).args), nil })
	method(u, "__or__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return unionOf(args[0], args[1]) })
	method(u, "__ror__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return unionOf(args[1], args[0]) })
}

// PyRepr renders list[int].
func (g *GenericAlias) PyRepr(t *Thread) (string, error) {
	o, err := typeArgRepr(t, g.origin)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(g.args))
	for i, a := range g.args {
		if parts[i], err = typeArgRepr(t, a); err != nil {
			return "", err
		}
	}
	return o + "[" + strings.Join(parts, ", ") + "]", nil
}

// PyGetItem lets aliases be subscripted again (dict[str, list[int]]).
func (g *GenericAlias) PyGetItem(t *Thread, key Object) (Object, error) {
	return NewGenericAlias(g, key), nil
}

// PyRepr renders int | str.
func (u *UnionType) PyRepr(t *Thread) (string, error) {
	parts := make([]string, len(u.args))
	for i, a := range u.args {
		var err error
		if parts[i], err = typeArgRepr(t, a); err != nil {
			return "", err
		}
	}
	return strings.Join(parts, " | "), nil
}

func typeArgRepr(t *Thread, x Object) (string, error) {
	switch v := x.(type) {
	case *Type:
		if v == NoneTypeType {
			return "None", nil
		}
		if v.module == "builtins" {
			return v.qualname, nil
		}
		return v.module + "." + v.qualname, nil
	case ellipsisType:
		return "...", nil
	}
	return Repr(t, x)
}

// PyHash hashes aliases (they can be dict keys).
func (g *GenericAlias) PyHash(t *Thread) (int64, error) {
	h, err := Hash(t, g.origin)
	if err != nil {
		return 0, err
	}
	ah, err := Hash(t, NewTuple(g.args))
	return h ^ ah, err
}

func (g *GenericAlias) compare(t *Thread, op CmpOp, other Object) (Object, error) {
	o, ok := other.(*GenericAlias)
	if !ok || (op != CmpEq && op != CmpNe) {
		return NotImplemented, nil
	}
	eq, err := Equal(t, g.origin, o.origin)
	if err != nil {
		return nil, err
	}
	if eq {
		r, err := seqCompare(t, CmpEq, g.args, o.args)
		if err != nil {
			return nil, err
		}
		eq = r == True
	}
	return MakeBool(eq == (op == CmpEq)), nil
}
