package functools

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// attrObject is a callable with attributes (a function-like object:
// singledispatchmethod's bound dispatcher).
type attrObject struct {
	ident
	typ  *python.Type
	call python.BuiltinFunc
	dict *python.Dict
}

func (a *attrObject) Type() *python.Type { return a.typ }

// PyCall calls the function.
func (a *attrObject) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	return a.call(t, args, kwargs)
}

// PyGetAttr reads an attribute.
func (a *attrObject) PyGetAttr(t *python.Thread, name string) (obj, error) {
	if name == "__dict__" {
		return a.dict, nil
	}
	v, _ := a.dict.GetStr(name)
	return v, nil
}

// PySetAttr sets an attribute.
func (a *attrObject) PySetAttr(t *python.Thread, name string, v obj) error {
	a.dict.SetStr(name, v)
	return nil
}

// PyRepr renders <function name at 0x...>.
func (a *attrObject) PyRepr(t *python.Thread) (string, error) {
	return funcRepr(t, a)
}

func funcRepr(t *python.Thread, x obj) (string, error) {
	name := "?"
	if v, err := python.GetAttr(t, x, "__qualname__"); err == nil && python.IsStr(v) {
		name = python.StrValue(v)
	}
	return fmt.Sprintf("<function %s at %#x>", name, idOf(t, x)), nil
}

// readonlyMap is a read-only view of a dict (the registry attribute of a
// singledispatch function, a mappingproxy in CPython).
type readonlyMap struct {
	typ *python.Type
	d   *python.Dict
}

func (r *readonlyMap) Type() *python.Type { return r.typ }

// PyGetItem is proxy[key].
func (r *readonlyMap) PyGetItem(t *python.Thread, key obj) (obj, error) {
	return python.GetItem(t, r.d, key)
}

// PyLen is len(proxy).
func (r *readonlyMap) PyLen(t *python.Thread) (int, error) { return r.d.Len(), nil }

// PyIter iterates the keys.
func (r *readonlyMap) PyIter(t *python.Thread) (obj, error) { return python.Iter(t, r.d) }

// PyContains is key in proxy.
func (r *readonlyMap) PyContains(t *python.Thread, key obj) (bool, error) {
	return python.Contains(t, r.d, key)
}

// PyRepr renders mappingproxy({...}).
func (r *readonlyMap) PyRepr(t *python.Thread) (string, error) {
	s, err := python.Repr(t, r.d)
	return "mappingproxy(" + s + ")", err
}

// bindTo is method.__get__(obj, cls) for the callables singledispatch
// registers.
func bindTo(t *python.Thread, method, self, cls obj) (obj, error) {
	switch method.Type() {
	case python.FunctionType:
		if self == python.None {
			return method, nil
		}
		return python.NewMethodObject(method, self), nil
	case python.StaticMethodType:
		return python.FunctionOf(method), nil
	case python.ClassMethodType:
		return python.NewMethodObject(python.FunctionOf(method), cls), nil
	}
	ok, err := python.HasAttr(t, method, "__get__")
	if err != nil || !ok {
		return method, err
	}
	return python.CallMethod(t, method, "__get__", []obj{self, cls}, nil)
}

// dispatchState is one singledispatch function's registry.
type dispatchState struct {
	fn       obj
	registry *python.Dict
	order    []*python.Type
}

func (m *module) makeSingleDispatch() {
	m.dispatchBase = python.NewBuiltinType("function", "builtins", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.NotSupported("creating function objects", "")
	})
	proxy := python.NewBuiltinType("mappingproxy", "builtins", nil, nil)
	proxy.SetFinal()
	proxy.AddMethod("get", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.CallMethod(t, args[0].(*readonlyMap).d, "get", args[1:], kwargs)
	})
	for _, n := range []string{"keys", "values", "items", "copy"} {
		n := n
		proxy.AddMethod(n, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return python.CallMethod(t, args[0].(*readonlyMap).d, n, args[1:], kwargs)
		})
	}
	m.dispatchProxy = proxy
	singleDispatchMethod := newClass("singledispatchmethod", nil, map[string]python.BuiltinFunc{
		"__init__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "singledispatchmethod.__init__", Pos: []string{"self", "func"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			self, fn := a[0], a[1]
			if err := callableOrDescriptor(t, fn); err != nil {
				return nil, err
			}
			d, err := m.singleDispatch(t, []obj{fn}, nil)
			if err != nil {
				return nil, err
			}
			if err := python.SetAttr(t, self, "dispatcher", d); err != nil {
				return nil, err
			}
			return python.None, python.SetAttr(t, self, "func", fn)
		},
		"register": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "singledispatchmethod.register", Pos: []string{"self", "cls", "method"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			d, err := python.GetAttr(t, a[0], "dispatcher")
			if err != nil {
				return nil, err
			}
			method := a[2]
			if method == nil {
				method = python.None
			}
			return python.CallMethod(t, d, "register", []obj{a[1]}, []kwarg{{Name: "func", Value: method}})
		},
		"__get__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "singledispatchmethod.__get__", Pos: []string{"self", "obj", "cls"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			self, inst, cls := a[0], a[1], a[2]
			if cls == nil {
				cls = python.None
			}
			d, err := python.GetAttr(t, self, "dispatcher")
			if err != nil {
				return nil, err
			}
			dispatch, err := python.GetAttr(t, d, "dispatch")
			if err != nil {
				return nil, err
			}
			f := &attrObject{typ: m.dispatchBase, dict: python.NewDict(8)}
			f.call = func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
				if len(args) == 0 {
					return nil, python.Errorf(python.IndexErrorType, "tuple index out of range")
				}
				c, err := python.GetAttr(t, args[0], "__class__")
				if err != nil {
					return nil, err
				}
				method, err := python.Call(t, dispatch, []obj{c}, nil)
				if err != nil {
					return nil, err
				}
				bound, err := bindTo(t, method, inst, cls)
				if err != nil {
					return nil, err
				}
				return python.Call(t, bound, args, kwargs)
			}
			reg, err := python.GetAttr(t, self, "register")
			if err != nil {
				return nil, err
			}
			f.dict.SetStr("register", reg)
			fn, err := python.GetAttr(t, self, "func")
			if err != nil {
				return nil, err
			}
			return updateWrapper(t, f, fn, strs(wrapperAssignments...), strs(wrapperUpdates...))
		},
	}, nil)
	singleDispatchMethod.SetAttr("__class_getitem__", python.NewClassMethod(singleDispatchMethod, "__class_getitem__", classGetItem))
	m.dispatchMethod = singleDispatchMethod
}

// isValidDispatchType is a class or a union of classes.
func isValidDispatchType(t *python.Thread, x obj) (bool, error) {
	if _, ok := x.(*python.Type); ok {
		return true, nil
	}
	if x.Type() != python.UnionTypeType {
		return false, nil
	}
	args, err := python.GetAttr(t, x, "__args__")
	if err != nil {
		return false, err
	}
	items, err := python.ToSlice(t, args)
	if err != nil {
		return false, err
	}
	for _, a := range items {
		if _, ok := a.(*python.Type); !ok {
			return false, nil
		}
	}
	return true, nil
}

func (s *dispatchState) add(t *python.Thread, cls *python.Type, fn obj) error {
	if _, ok, _ := s.registry.Get(t, cls); !ok {
		s.order = append(s.order, cls)
	}
	return s.registry.Set(t, cls, fn)
}

// register implements the register attribute of a singledispatch
// function: register(cls, func=None).
func (m *module) register(t *python.Thread, s *dispatchState, cls, fn obj) (obj, error) {
	valid, err := isValidDispatchType(t, cls)
	if err != nil {
		return nil, err
	}
	if valid {
		if fn == nil || fn == python.None {
			return python.NewBuiltin("<lambda>", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
				if len(args) != 1 || len(kwargs) > 0 {
					return nil, python.Errorf(python.TypeErrorType, "singledispatch.<locals>.register.<locals>.<lambda>() takes 1 positional argument but %d were given", len(args))
				}
				return m.register(t, s, cls, args[0])
			}), nil
		}
	} else {
		if fn != nil && fn != python.None {
			r, _ := python.Repr(t, cls)
			return nil, python.Errorf(python.TypeErrorType, "Invalid first argument to `register()`. %s is not a class or union type.", r)
		}
		fn = cls
		ann, err := annotationsOf(t, fn)
		if err != nil {
			return nil, err
		}
		if ann == nil || ann.Len() == 0 {
			r, _ := python.Repr(t, cls)
			return nil, python.Errorf(python.TypeErrorType, "Invalid first argument to `register()`: %s. Use either `@register(some_class)` or plain `@register` on an annotated function.", r)
		}
		var argname obj
		ann.Items(func(k, v obj) bool { argname, cls = k, v; return false })
		if python.IsStr(cls) {
			// A string annotation names a class in the function's globals.
			resolved, err := resolveName(t, fn, python.StrValue(cls))
			if err != nil {
				return nil, err
			}
			cls = resolved
		}
		ok, err := isValidDispatchType(t, cls)
		if err != nil {
			return nil, err
		}
		if !ok {
			an, _ := python.Repr(t, argname)
			r, _ := python.Repr(t, cls)
			if cls.Type() == python.UnionTypeType {
				return nil, python.Errorf(python.TypeErrorType, "Invalid annotation for %s. %s not all arguments are classes.", an, r)
			}
			return nil, python.Errorf(python.TypeErrorType, "Invalid annotation for %s. %s is not a class.", an, r)
		}
	}
	if c, ok := cls.(*python.Type); ok {
		return fn, s.add(t, c, fn)
	}
	args, err := python.GetAttr(t, cls, "__args__")
	if err != nil {
		return nil, err
	}
	items, err := python.ToSlice(t, args)
	if err != nil {
		return nil, err
	}
	for _, a := range items {
		if err := s.add(t, a.(*python.Type), fn); err != nil {
			return nil, err
		}
	}
	return fn, nil
}

func annotationsOf(t *python.Thread, fn obj) (*python.Dict, error) {
	ok, err := python.HasAttr(t, fn, "__annotations__")
	if err != nil || !ok {
		return nil, err
	}
	v, err := python.GetAttr(t, fn, "__annotations__")
	if err != nil {
		return nil, err
	}
	d, _ := python.Unwrap(v).(*python.Dict)
	if d == nil {
		return nil, nil
	}
	// get_type_hints leaves out nothing for a function; 'return' comes
	// after the parameters.
	return d, nil
}

// resolveName evaluates a string annotation that names a class.
func resolveName(t *python.Thread, fn obj, name string) (obj, error) {
	if f, ok := fn.(*python.Function); ok {
		g, err := python.GetAttr(t, f, "__globals__")
		if err == nil {
			if d, ok := g.(*python.Dict); ok {
				if v, ok := d.GetStr(name); ok {
					return v, nil
				}
			}
		}
	}
	if v, ok := t.Interp().Builtins().GetStr(name); ok {
		return v, nil
	}
	return nil, python.NotSupported("singledispatch registration by the string annotation "+python.StrRepr(name), "annotate with the class itself or use @register(cls)")
}

// dispatch finds the implementation for cls.
func (m *module) dispatch(t *python.Thread, s *dispatchState, cls *python.Type) (obj, error) {
	var match *python.Type
	mro := cls.MRO()
	for _, c := range mro {
		if _, ok, _ := s.registry.Get(t, c); ok {
			match = c
			break
		}
	}
	// Registered classes outside the MRO that cls is a virtual subclass
	// of (abstract base classes).
	issub := builtin(t, "issubclass")
	var abcs []*python.Type
	for _, r := range s.order {
		inMRO := false
		for _, c := range mro {
			if c == r {
				inMRO = true
			}
		}
		if inMRO {
			continue
		}
		ok, err := python.Call(t, issub, []obj{cls, r}, nil)
		if err != nil {
			return nil, err
		}
		if ok == python.True {
			abcs = append(abcs, r)
		}
	}
	if len(abcs) > 0 && match != cls {
		// Keep the most specific ones.
		var best []*python.Type
		for _, a := range abcs {
			general := false
			for _, b := range abcs {
				if a != b {
					ok, err := python.Call(t, issub, []obj{b, a}, nil)
					if err != nil {
						return nil, err
					}
					if ok == python.True {
						general = true
					}
				}
			}
			if !general {
				best = append(best, a)
			}
		}
		if len(best) == 1 && (match == nil || match == python.ObjectType) {
			match = best[0]
		} else {
			return nil, python.NotSupported("singledispatch choosing between abstract base classes and other registered classes", "register an implementation for "+cls.Name()+" itself")
		}
	}
	v, _, err := s.registry.Get(t, match)
	return v, err
}

// singleDispatch implements functools.singledispatch(func).
func (m *module) singleDispatch(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "singledispatch", Pos: []string{"func"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	fn := a[0]
	s := &dispatchState{fn: fn, registry: python.NewDict(4)}
	if err := s.add(t, python.ObjectType, fn); err != nil {
		return nil, err
	}
	funcname := "singledispatch function"
	if v, err := python.GetAttr(t, fn, "__name__"); err == nil && python.IsStr(v) {
		funcname = python.StrValue(v)
	}
	dispatchFn := python.NewBuiltin("dispatch", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		b, err := (&python.Signature{Name: "singledispatch.<locals>.dispatch", Pos: []string{"cls"}, Required: 1}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		c, ok := b[0].(*python.Type)
		if !ok {
			return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute '__mro__'", python.TypeName(b[0]))
		}
		return m.dispatch(t, s, c)
	})
	cls := newClass("function", []*python.Type{m.dispatchBase}, map[string]python.BuiltinFunc{
		"__call__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) < 2 {
				return nil, python.Errorf(python.TypeErrorType, "%s requires at least 1 positional argument", funcname)
			}
			c, err := python.GetAttr(t, args[1], "__class__")
			if err != nil {
				return nil, err
			}
			impl, err := python.Call(t, dispatchFn, []obj{c}, nil)
			if err != nil {
				return nil, err
			}
			return python.Call(t, impl, args[1:], kwargs)
		},
		"__get__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) < 2 || args[1] == python.None {
				return args[0], nil
			}
			return python.NewMethodObject(args[0], args[1]), nil
		},
		"__repr__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			s, err := funcRepr(t, args[0])
			return python.NewStr(s), err
		},
	}, map[string]obj{"__module__": python.NewStr("builtins")})
	w := python.NewInstance(cls, nil)
	w.Attrs().SetStr("register", python.NewBuiltin("register", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		b, err := (&python.Signature{Name: "singledispatch.<locals>.register", Pos: []string{"cls", "func"}, Required: 1}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		return m.register(t, s, b[0], b[1])
	}))
	w.Attrs().SetStr("dispatch", dispatchFn)
	w.Attrs().SetStr("registry", &readonlyMap{typ: m.dispatchProxy, d: s.registry})
	w.Attrs().SetStr("_clear_cache", python.NewBuiltin("clear", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.None, nil
	}))
	return updateWrapper(t, w, fn, strs(wrapperAssignments...), strs(wrapperUpdates...))
}

// makePartialMethod makes functools.partialmethod.
func (m *module) makePartialMethod() {
	var c *python.Type
	c = newClass("partialmethod", nil, map[string]python.BuiltinFunc{
		"__init__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) < 2 {
				return nil, python.Errorf(python.TypeErrorType, "partialmethod.__init__() missing 1 required positional argument: 'func'")
			}
			self, fn := args[0], args[1]
			if err := callableOrDescriptor(t, fn); err != nil {
				return nil, err
			}
			pargs := append([]obj(nil), args[2:]...)
			kw := python.NewDict(len(kwargs))
			if fn.Type().IsSubtype(c) {
				inner, err := python.GetAttr(t, fn, "func")
				if err != nil {
					return nil, err
				}
				ia, err := python.GetAttr(t, fn, "args")
				if err != nil {
					return nil, err
				}
				items, err := python.ToSlice(t, ia)
				if err != nil {
					return nil, err
				}
				pargs = append(append([]obj(nil), items...), pargs...)
				ik, err := python.GetAttr(t, fn, "keywords")
				if err != nil {
					return nil, err
				}
				if err := python.DictUpdate(t, kw, []obj{ik}, nil); err != nil {
					return nil, err
				}
				fn = inner
			}
			for _, k := range kwargs {
				kw.SetStr(k.Name, k.Value)
			}
			if err := python.SetAttr(t, self, "func", fn); err != nil {
				return nil, err
			}
			if err := python.SetAttr(t, self, "args", python.NewTuple(pargs)); err != nil {
				return nil, err
			}
			return python.None, python.SetAttr(t, self, "keywords", kw)
		},
		"__repr__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			fn, pargs, kw, err := partialParts(t, self)
			if err != nil {
				return nil, err
			}
			p := &partial{fn: fn, args: pargs, kw: kw}
			cls := self.Type()
			name := cls.Module() + "." + cls.Qualname()
			s, err := m.partialRepr(t, &named{cls: cls, name: name}, p)
			return python.NewStr(s), err
		},
		"__get__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) < 2 {
				return nil, python.Errorf(python.TypeErrorType, "expected at least 1 argument, got 0")
			}
			self, inst := args[0], args[1]
			var cls obj = python.None
			if len(args) > 2 {
				cls = args[2]
			}
			fn, pargs, kw, err := partialParts(t, self)
			if err != nil {
				return nil, err
			}
			var kwl []kwarg
			kw.Items(func(k, v obj) bool {
				kwl = append(kwl, kwarg{Name: python.StrValue(k), Value: v})
				return true
			})
			newFn, err := bindTo(t, fn, inst, cls)
			if err != nil {
				return nil, err
			}
			if newFn != fn {
				p, err := m.newPartial(t, append([]obj{newFn}, pargs...), kwl)
				if err != nil {
					return nil, err
				}
				if s, err := python.GetAttr(t, newFn, "__self__"); err == nil {
					_ = p.PySetAttr(t, "__self__", s)
				}
				return p, nil
			}
			method := python.NewBuiltin("_method", func(t *python.Thread, a []obj, k []kwarg) (obj, error) {
				if len(a) == 0 {
					return nil, python.Errorf(python.TypeErrorType, "partialmethod._make_unbound_method.<locals>._method() missing 1 required positional argument: 'cls_or_self'")
				}
				all := append(append([]obj{a[0]}, pargs...), a[1:]...)
				merged := append(append([]kwarg(nil), kwl...), k...)
				return python.Call(t, fn, all, dedupKw(merged))
			})
			if inst == python.None {
				return method, nil
			}
			return python.NewMethodObject(method, inst), nil
		},
	}, nil)
	c.SetAttr("__class_getitem__", python.NewClassMethod(c, "__class_getitem__", classGetItem))
	m.partialMethod = c
}

// named is a stand-in receiver for partialRepr's recursion guard.
type named struct {
	cls  *python.Type
	name string
}

func (n *named) Type() *python.Type { return n.cls }

// dedupKw keeps the last value of each keyword ({**a, **b}).
func dedupKw(kws []kwarg) []kwarg {
	idx := map[string]int{}
	var out []kwarg
	for _, k := range kws {
		if i, ok := idx[k.Name]; ok {
			out[i].Value = k.Value
			continue
		}
		idx[k.Name] = len(out)
		out = append(out, k)
	}
	return out
}

// partialParts reads a partialmethod's func, args and keywords.
func partialParts(t *python.Thread, self obj) (obj, []obj, *python.Dict, error) {
	fn, err := python.GetAttr(t, self, "func")
	if err != nil {
		return nil, nil, nil, err
	}
	a, err := python.GetAttr(t, self, "args")
	if err != nil {
		return nil, nil, nil, err
	}
	items, err := python.ToSlice(t, a)
	if err != nil {
		return nil, nil, nil, err
	}
	k, err := python.GetAttr(t, self, "keywords")
	if err != nil {
		return nil, nil, nil, err
	}
	kd, ok := python.Unwrap(k).(*python.Dict)
	if !ok {
		kd = python.NewDict(0)
	}
	return fn, items, kd, nil
}

// callableOrDescriptor checks partialmethod's and singledispatchmethod's
// func: callable or with __get__ (static and class methods are
// descriptors).
func callableOrDescriptor(t *python.Thread, fn obj) error {
	if python.Callable(fn) {
		return nil
	}
	switch fn.Type() {
	case python.StaticMethodType, python.ClassMethodType, python.PropertyType:
		return nil
	}
	ok, err := python.HasAttr(t, fn, "__get__")
	if err != nil || ok {
		return err
	}
	r, err := python.Repr(t, fn)
	if err != nil {
		return err
	}
	return python.Errorf(python.TypeErrorType, "%s is not callable or a descriptor", r)
}
