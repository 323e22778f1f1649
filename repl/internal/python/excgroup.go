package python

// Exception groups (PEP 654): BaseExceptionGroup(message, exceptions) and
// ExceptionGroup, with message, exceptions, derive, subgroup and split.
// The except* statement is refused by the compiler.

// excGroup is what an exception group holds beside its args.
type excGroup struct {
	message *Str
	excs    []Object // the exceptions, as a tuple's items
}

// newExceptionGroup checks BaseExceptionGroup.__new__'s arguments and
// returns the class the group gets (BaseExceptionGroup of exceptions only
// makes an ExceptionGroup) and its contents.
func newExceptionGroup(t *Thread, cls *Type, args []Object) (*Type, *excGroup, error) {
	if len(args) != 2 {
		return nil, nil, Errorf(TypeErrorType, "BaseExceptionGroup.__new__() takes exactly 2 arguments (%d given)", len(args))
	}
	msg, ok := args[0].(*Str)
	if !ok {
		return nil, nil, Errorf(TypeErrorType, "BaseExceptionGroup.__new__() argument 1 must be str, not %s", typeName(args[0]))
	}
	var items []Object
	switch v := unwrap(args[1]).(type) {
	case *List:
		items = append([]Object(nil), v.items...)
	case *Tuple:
		items = v.items
	default:
		return nil, nil, Errorf(TypeErrorType, "second argument (exceptions) must be a sequence")
	}
	if len(items) == 0 {
		return nil, nil, Errorf(ValueErrorType, "second argument (exceptions) must be a non-empty sequence")
	}
	allExceptions := true
	for i, x := range items {
		e, ok := x.(*Exception)
		if !ok {
			return nil, nil, Errorf(ValueErrorType, "Item %d of second argument (exceptions) is not an exception", i)
		}
		if !e.cls.IsSubtype(ExceptionType) {
			allExceptions = false
		}
	}
	switch {
	case cls == BaseExceptionGroupType && allExceptions:
		cls = ExceptionGroupType
	case cls.IsSubtype(ExceptionType) && !allExceptions:
		if cls == ExceptionGroupType {
			return nil, nil, Errorf(TypeErrorType, "Cannot nest BaseExceptions in an ExceptionGroup")
		}
		return nil, nil, Errorf(TypeErrorType, "Cannot nest BaseExceptions in '%s'", cls.name)
	}
	return cls, &excGroup{message: msg, excs: items}, nil
}

// exceptionMatcher returns the test of subgroup and split's condition: an
// exception type, a tuple of them, or a predicate.
func exceptionMatcher(t *Thread, cond Object) (func(e *Exception) (bool, error), error) {
	isExcType := func(x Object) bool {
		c, ok := x.(*Type)
		return ok && c.IsSubtype(BaseExceptionType)
	}
	if isExcType(cond) {
		c := cond.(*Type)
		return func(e *Exception) (bool, error) { return e.cls.IsSubtype(c), nil }, nil
	}
	if tu, ok := cond.(*Tuple); ok {
		for _, x := range tu.items {
			if !isExcType(x) {
				return nil, Errorf(TypeErrorType, "expected an exception type, a tuple of exception types, or a callable (other than a class)")
			}
		}
		return func(e *Exception) (bool, error) {
			for _, x := range tu.items {
				if e.cls.IsSubtype(x.(*Type)) {
					return true, nil
				}
			}
			return false, nil
		}, nil
	}
	if _, isType := cond.(*Type); !isType && Callable(cond) {
		return func(e *Exception) (bool, error) {
			r, err := Call(t, cond, []Object{e}, nil)
			if err != nil {
				return false, err
			}
			return TruthE(t, r)
		}, nil
	}
	return nil, Errorf(TypeErrorType, "expected an exception type, a tuple of exception types, or a callable (other than a class)")
}

// splitGroup splits e by match into the part that matches and the rest
// (nil for an empty part), deriving groups that keep e's structure.
func splitGroup(t *Thread, e *Exception, match func(*Exception) (bool, error), depth int) (Object, Object, error) {
	if err := t.enterC(" in split"); err != nil {
		return nil, nil, err
	}
	defer t.leaveC()
	ok, err := match(e)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		return e, nil, nil
	}
	if e.group == nil {
		return nil, e, nil
	}
	var ms, rs []Object
	for _, x := range e.group.excs {
		sub := x.(*Exception)
		m, r, err := splitGroup(t, sub, match, depth+1)
		if err != nil {
			return nil, nil, err
		}
		if m != nil {
			ms = append(ms, m)
		}
		if r != nil {
			rs = append(rs, r)
		}
	}
	derive := func(items []Object) (Object, error) {
		if len(items) == 0 {
			return nil, nil
		}
		fn, err := GetAttr(t, e, "derive")
		if err != nil {
			return nil, err
		}
		g, err := Call(t, fn, []Object{NewList(items)}, nil)
		if err != nil {
			return nil, err
		}
		ge, ok := g.(*Exception)
		if !ok || ge.group == nil {
			return nil, Errorf(TypeErrorType, "derive must return an instance of BaseExceptionGroup")
		}
		// The derived group keeps the original's metadata.
		ge.traceback, ge.tb, ge.cause, ge.context, ge.suppressContext = e.traceback, e.tb, e.cause, e.context, e.suppressContext
		if e.dict != nil {
			if notes, ok := e.dict.GetStr("__notes__"); ok {
				if l, ok := notes.(*List); ok {
					notes = NewList(append([]Object(nil), l.items...))
				}
				ge.dictOf().SetStr("__notes__", notes)
			}
		}
		return ge, nil
	}
	m, err := derive(ms)
	if err != nil {
		return nil, nil, err
	}
	r, err := derive(rs)
	if err != nil {
		return nil, nil, err
	}
	return m, r, nil
}

func initExceptionGroups() {
	// ExceptionGroup is class ExceptionGroup(BaseExceptionGroup, Exception).
	eg := ExceptionGroupType
	eg.bases = []*Type{BaseExceptionGroupType, ExceptionType}
	eg.mro = []*Type{eg, BaseExceptionGroupType, ExceptionType, BaseExceptionType, ObjectType}

	g := BaseExceptionGroupType
	group := func(x Object) *excGroup {
		if e, ok := x.(*Exception); ok && e.group != nil {
			return e.group
		}
		return &excGroup{message: NewStr("")}
	}
	getset(g, "message", func(_ *Thread, x Object) (Object, error) { return group(x).message, nil })
	getset(g, "exceptions", func(_ *Thread, x Object) (Object, error) { return NewTuple(group(x).excs), nil })
	method(g, "derive", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("derive", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		return Call(t, BaseExceptionGroupType, []Object{group(args[0]).message, args[1]}, nil)
	})
	for _, name := range []string{"subgroup", "split"} {
		split := name == "split"
		method(g, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if err := nargs(name, args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			e, ok := args[0].(*Exception)
			if !ok {
				return nil, Errorf(TypeErrorType, "descriptor '%s' requires a 'BaseExceptionGroup' object", name)
			}
			match, err := exceptionMatcher(t, args[1])
			if err != nil {
				return nil, err
			}
			m, r, err := splitGroup(t, e, match, 0)
			if err != nil {
				return nil, err
			}
			if !split {
				return nilToNone(m), nil
			}
			return NewTuple([]Object{nilToNone(m), nilToNone(r)}), nil
		})
	}
	classMethod(g, "__class_getitem__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("__class_getitem__", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		return NewGenericAlias(args[0], args[1]), nil
	})
}

// groupStr is str() of an exception group: "message (n sub-exceptions)".
func (e *Exception) groupStr() string {
	n := len(e.group.excs)
	s := e.group.message.s + " (" + itoa(n) + " sub-exception"
	if n != 1 {
		s += "s"
	}
	return s + ")"
}
