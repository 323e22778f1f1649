package python

import (
	"strings"
)

// Function is a function made by def or lambda.
type Function struct {
	identity
	code       *Code
	globals    *Dict
	defaults   []Object // defaults of the last len(defaults) positional parameters
	kwdefaults []Object // parallel to code.KwOnly; nil entries have no default
	closure    []*Cell
	name       string
	qualname   string
	module     string
	doc        Object
	dict       *Dict
	abstract   bool
}

// Type returns function.
func (*Function) Type() *Type { return FunctionType }

// Name returns the function's __name__.
func (f *Function) Name() string { return f.name }

func (f *Function) attrs() *Dict {
	if f.dict == nil {
		f.dict = NewDict(2)
	}
	return f.dict
}

// Method is a function bound to an object (or a class, for classmethods).
type Method struct {
	fn   Object
	self Object
}

// Type returns method.
func (*Method) Type() *Type { return MethodType }

// BuiltinFunc is the Go signature of built-in functions and methods. A
// method receives its receiver as args[0].
type BuiltinFunc func(t *Thread, args []Object, kwargs []Kwarg) (Object, error)

// Builtin is a function or method implemented in Go.
type Builtin struct {
	identity
	name        string
	fn          BuiltinFunc
	self        Object // the bound receiver (prepended to args), or nil
	method      bool   // binds to an instance when read off one
	classMethod bool   // binds to the class
	owner       *Type
	module      string
	// borrows: fn reads its argument slice only during the call and keeps
	// neither it nor a part of it (it may keep the values), so a call site
	// may pass the thread's argument stack (callPlain).
	borrows bool
}

// Type returns builtin_function_or_method.
func (b *Builtin) Type() *Type {
	if b.method && b.self == nil {
		return MethodDescriptorType
	}
	return BuiltinFunctionType
}

// Name returns the builtin's name.
func (b *Builtin) Name() string { return b.name }

// Func returns the builtin's Go function.
func (b *Builtin) Func() BuiltinFunc { return b.fn }

// call runs the builtin. A method of a built-in type that takes no
// keyword arguments names itself with its type when given some, as
// CPython does ("list.pop() takes no keyword arguments").
func (b *Builtin) call(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	r, err := b.fn(t, args, kwargs)
	if err != nil && len(kwargs) > 0 && b.owner != nil && (b.method || b.classMethod) {
		if e, ok := err.(*Exception); ok && e.cls == TypeErrorType && len(e.Args()) == 1 {
			if StrValue(e.args.items[0]) == b.name+"() takes no keyword arguments" {
				e.args = NewTuple([]Object{NewStr(qualifiedName(b.owner) + "." + b.name + "() takes no keyword arguments")})
			}
		}
	}
	return r, err
}

// NewBuiltin returns a Go function as a Python callable.
func NewBuiltin(name string, fn BuiltinFunc) *Builtin {
	return &Builtin{name: name, fn: fn}
}

// NewMethod returns a Go method for a type's dict: it receives the
// receiver as args[0].
func NewMethod(owner *Type, name string, fn BuiltinFunc) *Builtin {
	return &Builtin{name: name, fn: fn, method: true, owner: owner}
}

// NewClassMethod returns a Go class method for a type's dict: it receives
// the class as args[0].
func NewClassMethod(owner *Type, name string, fn BuiltinFunc) *Builtin {
	return &Builtin{name: name, fn: fn, classMethod: true, owner: owner}
}

// StaticMethod wraps a function made static.
type StaticMethod struct{ fn Object }

// Type returns staticmethod.
func (*StaticMethod) Type() *Type { return StaticMethodType }

// ClassMethod wraps a function made a class method.
type ClassMethod struct{ fn Object }

// Type returns classmethod.
func (*ClassMethod) Type() *Type { return ClassMethodType }

// NewClassMethodOf wraps fn as classmethod(fn).
func NewClassMethodOf(fn Object) Object { return &ClassMethod{fn: fn} }

// Property is property(fget, fset, fdel, doc).
type Property struct {
	fget, fset, fdel Object
	doc              Object
	name             string
	abstract         bool
	docFromGetter    bool // doc is fget's docstring (a new getter replaces it)
}

// Type returns property.
func (*Property) Type() *Type { return PropertyType }

func (p *Property) setName(_ *Type, name string) { p.name = name }

func (p *Property) get(t *Thread, obj Object) (Object, error) {
	if p.fget == nil || p.fget == None {
		return nil, Errorf(AttributeErrorType, "property '%s' of '%s' object has no getter", p.name, typeName(obj))
	}
	return Call(t, p.fget, []Object{obj}, nil)
}

func (p *Property) set(t *Thread, obj, v Object) error {
	if p.fset == nil || p.fset == None {
		return Errorf(AttributeErrorType, "property '%s' of '%s' object has no setter", p.name, typeName(obj))
	}
	_, err := Call(t, p.fset, []Object{obj, v}, nil)
	return err
}

func (p *Property) del(t *Thread, obj Object) error {
	if p.fdel == nil || p.fdel == None {
		return Errorf(AttributeErrorType, "property '%s' of '%s' object has no deleter", p.name, typeName(obj))
	}
	_, err := Call(t, p.fdel, []Object{obj}, nil)
	return err
}

// GetSet is a Go-implemented attribute of a built-in type.
type GetSet struct {
	name  string
	get   func(t *Thread, obj Object) (Object, error)
	set   func(t *Thread, obj, v Object) error
	del   func(t *Thread, obj Object) error
	owner *Type // the class whose dict holds it, when known (for repr)
}

// Type returns getset_descriptor.
func (*GetSet) Type() *Type { return GetSetType }

// NewGetSet returns an attribute descriptor for a type's dict.
func NewGetSet(name string, get func(t *Thread, obj Object) (Object, error), set func(t *Thread, obj, v Object) error) *GetSet {
	return &GetSet{name: name, get: get, set: set}
}

// Call calls fn(*args, **kwargs).
func Call(t *Thread, fn Object, args []Object, kwargs []Kwarg) (Object, error) {
	switch f := fn.(type) {
	case *Function:
		return f.call(t, nil, args, kwargs)
	case *Builtin:
		if f.self != nil {
			return f.call(t, prepend(f.self, args), kwargs)
		}
		if f.method && len(args) > 0 && f.owner != nil && !args[0].Type().IsSubtype(f.owner) && !unwrapIs(args[0], f.owner) {
			if slotWrappers[f.name] {
				return nil, Errorf(TypeErrorType, "descriptor '%s' requires a '%s' object but received a '%s'", f.name, f.owner.name, typeName(args[0]))
			}
			return nil, Errorf(TypeErrorType, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", f.name, f.owner.name, typeName(args[0]))
		}
		if f.method && len(args) == 0 {
			if slotWrappers[f.name] {
				return nil, Errorf(TypeErrorType, "descriptor '%s' of '%s' object needs an argument", f.name, f.owner.name)
			}
			return nil, Errorf(TypeErrorType, "unbound method %s.%s() needs an argument", f.owner.name, f.name)
		}
		return f.call(t, args, kwargs)
	case *Method:
		if fn, ok := f.fn.(*Function); ok {
			return fn.call(t, f.self, args, kwargs)
		}
		return Call(t, f.fn, prepend(f.self, args), kwargs)
	case *Type:
		return callType(t, f, args, kwargs)
	case *StaticMethod:
		return Call(t, f.fn, args, kwargs)
	case Caller:
		return f.PyCall(t, args, kwargs)
	}
	if m := fn.Type().userMethodOrBuiltin("__call__"); m != nil {
		return callMethod(t, m, fn, args, kwargs)
	}
	return nil, Errorf(TypeErrorType, "'%s' object is not callable", typeName(fn))
}

// slotWrappers are the special methods CPython implements as type slots
// (wrapper_descriptor): their receiver errors are worded differently.
var slotWrappers = map[string]bool{}

func setupSlotWrappers() {
	for _, n := range []string{"__abs__", "__add__", "__and__", "__bool__", "__call__", "__contains__",
		"__delattr__", "__delete__", "__delitem__", "__divmod__", "__eq__", "__float__", "__floordiv__",
		"__ge__", "__get__", "__getattribute__", "__getitem__", "__gt__", "__hash__", "__iadd__",
		"__iand__", "__imul__", "__index__", "__init__", "__int__", "__invert__", "__ior__", "__isub__",
		"__iter__", "__ixor__", "__le__", "__len__", "__lshift__", "__lt__", "__mod__", "__mul__",
		"__ne__", "__neg__", "__next__", "__or__", "__pos__", "__pow__", "__radd__", "__rand__",
		"__rdivmod__", "__repr__", "__rfloordiv__", "__rlshift__", "__rmod__", "__rmul__", "__ror__",
		"__rpow__", "__rrshift__", "__rshift__", "__rsub__", "__rtruediv__", "__rxor__", "__set__",
		"__setattr__", "__setitem__", "__str__", "__sub__", "__truediv__", "__xor__", "__matmul__",
		"__rmatmul__", "__imatmul__", "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__",
		"__ilshift__", "__irshift__"} {
		slotWrappers[n] = true
	}
}

func unwrapIs(x Object, c *Type) bool {
	if o, ok := x.(*Instance); ok && o.base != nil {
		return o.base.Type().IsSubtype(c)
	}
	return false
}

// userMethodOrBuiltin finds a special method anywhere in the MRO except on
// object.
func (c *Type) userMethodOrBuiltin(name string) Object {
	v, owner := c.lookupOwner(name)
	if owner == nil || owner == ObjectType {
		return nil
	}
	return v
}

// Callable reports whether x can be called.
func Callable(x Object) bool {
	switch x.(type) {
	case *Function, *Builtin, *Method, *Type, *StaticMethod, Caller:
		return true
	}
	return x.Type().userMethodOrBuiltin("__call__") != nil
}

// call runs the function with an optional bound self.
func (fn *Function) call(t *Thread, self Object, args []Object, kwargs []Kwarg) (Object, error) {
	c := fn.code
	f := newFuncFrame(c.nfast)
	f.t, f.code, f.globals, f.fn = t, c, fn.globals, fn
	if n := c.ncells + len(fn.closure); n > 0 {
		f.cells = make([]*Cell, n)
		for i := 0; i < c.ncells; i++ {
			f.cells[i] = &Cell{}
		}
		copy(f.cells[c.ncells:], fn.closure)
	}
	if err := fn.bindArgs(t, f, self, args, kwargs); err != nil {
		return nil, err
	}
	if c.generator {
		return newGenerator(t, f), nil
	}
	return runFrame(t, f)
}

// newFuncFrame returns a Frame with n fast locals. Up to four are in the
// frame's own block: one allocation, and no more bytes than the frame
// and its locals took apart (152 + 16n bytes, in the size class of
// 160 + 16n).
func newFuncFrame(n int) *Frame {
	switch n {
	case 0:
		return &Frame{}
	case 1:
		x := &struct {
			Frame
			buf [1]Object
		}{}
		x.fast = x.buf[:]
		return &x.Frame
	case 2:
		x := &struct {
			Frame
			buf [2]Object
		}{}
		x.fast = x.buf[:]
		return &x.Frame
	case 3:
		x := &struct {
			Frame
			buf [3]Object
		}{}
		x.fast = x.buf[:]
		return &x.Frame
	case 4:
		x := &struct {
			Frame
			buf [4]Object
		}{}
		x.fast = x.buf[:]
		return &x.Frame
	}
	return &Frame{fast: make([]Object, n)}
}

// runFrame runs a function body in f.
func runFrame(t *Thread, f *Frame) (Object, error) {
	if t.depth >= t.maxDepth {
		return nil, Errorf(RecursionErrorType, "maximum recursion depth exceeded")
	}
	t.depth++
	f.back = t.frame
	t.frame = f
	_, err := f.code.body(f)
	t.frame = f.back
	t.depth--
	if err != nil {
		return nil, err
	}
	if f.ret == nil {
		return None, nil
	}
	return f.ret, nil
}

func (fn *Function) store(f *Frame, i int, v Object) {
	r := fn.code.paramSlots[i]
	if r.kind == varCell {
		f.cells[r.index].v = v
	} else {
		f.fast[r.index] = v
	}
}

// bindArgs binds a call's arguments to the parameters.
func (fn *Function) bindArgs(t *Thread, f *Frame, self Object, args []Object, kwargs []Kwarg) error {
	c := fn.code
	if self != nil {
		args = prepend(self, args)
	}
	npos := len(c.ArgNames)
	// Fast path: positional arguments only, exactly the parameters.
	if len(kwargs) == 0 && len(args) == npos && c.Vararg == "" && len(c.KwOnly) == 0 && c.Kwarg == "" {
		for i, a := range args {
			fn.store(f, i, a)
		}
		return nil
	}
	bound := make([]Object, npos)
	nargs := min(len(args), npos)
	copy(bound, args[:nargs])
	slot := npos
	if c.Vararg != "" {
		var extra []Object
		if len(args) > npos {
			extra = append(extra, args[npos:]...)
		}
		fn.store(f, slot, NewTuple(extra))
		slot++
	}
	kwonly := make([]Object, len(c.KwOnly))
	var kwd *Dict
	if c.Kwarg != "" {
		kwd = NewDict(len(kwargs))
	}
	for _, kw := range kwargs {
		idx := -1
		for i := c.PosOnly; i < npos; i++ {
			if c.ArgNames[i] == kw.Name {
				idx = i
				break
			}
		}
		if idx >= 0 {
			if bound[idx] != nil {
				return Errorf(TypeErrorType, "%s() got multiple values for argument '%s'", fn.qualname, kw.Name)
			}
			bound[idx] = kw.Value
			continue
		}
		found := false
		for i, n := range c.KwOnly {
			if n == kw.Name {
				kwonly[i] = kw.Value
				found = true
				break
			}
		}
		if found {
			continue
		}
		if kwd != nil {
			if _, dup := kwd.GetStr(kw.Name); dup {
				return Errorf(TypeErrorType, "%s() got multiple values for keyword argument '%s'", fn.qualname, kw.Name)
			}
			kwd.SetStr(kw.Name, kw.Value)
			continue
		}
		for i := 0; i < c.PosOnly; i++ {
			if c.ArgNames[i] == kw.Name {
				// Named: every positional-only parameter passed by
				// keyword.
				var names []string
				for j := 0; j < c.PosOnly; j++ {
					for _, k := range kwargs {
						if c.ArgNames[j] == k.Name {
							names = append(names, k.Name)
							break
						}
					}
				}
				return Errorf(TypeErrorType, "%s() got some positional-only arguments passed as keyword arguments: '%s'", fn.qualname, strings.Join(names, ", "))
			}
		}
		return Errorf(TypeErrorType, "%s() got an unexpected keyword argument '%s'", fn.qualname, kw.Name)
	}
	// As CPython: keywords are checked before the positional count.
	if c.Vararg == "" && len(args) > npos {
		return fn.tooManyPositional(len(args), len(kwargs) > 0, kwargs)
	}
	// Defaults.
	firstDefault := npos - len(fn.defaults)
	var missing []string
	for i := 0; i < npos; i++ {
		if bound[i] == nil {
			if i >= firstDefault {
				bound[i] = fn.defaults[i-firstDefault]
			} else {
				missing = append(missing, c.ArgNames[i])
			}
		}
	}
	if len(missing) > 0 {
		return fn.missingArgs("positional", missing)
	}
	for i := range bound {
		fn.store(f, i, bound[i])
	}
	missing = nil
	for i, v := range kwonly {
		if v == nil {
			if i < len(fn.kwdefaults) && fn.kwdefaults[i] != nil {
				v = fn.kwdefaults[i]
			} else {
				missing = append(missing, c.KwOnly[i])
				continue
			}
		}
		fn.store(f, slot+i, v)
	}
	if len(missing) > 0 {
		return fn.missingArgs("keyword-only", missing)
	}
	slot += len(c.KwOnly)
	if kwd != nil {
		fn.store(f, slot, kwd)
	}
	return nil
}

func (fn *Function) missingArgs(kind string, names []string) error {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = q(n)
	}
	var list string
	switch len(quoted) {
	case 1:
		list = quoted[0]
	case 2:
		list = quoted[0] + " and " + quoted[1]
	default:
		list = strings.Join(quoted[:len(quoted)-1], ", ") + ", and " + quoted[len(quoted)-1]
	}
	word := "argument"
	if len(names) > 1 {
		word = "arguments"
	}
	return Errorf(TypeErrorType, "%s() missing %d required %s %s: %s", fn.qualname, len(names), kind, word, list)
}

func (fn *Function) tooManyPositional(given int, _ bool, kwargs []Kwarg) error {
	c := fn.code
	npos := len(c.ArgNames)
	required := npos - len(fn.defaults)
	var takes string
	if len(fn.defaults) > 0 {
		takes = "from " + itoa(required) + " to " + itoa(npos)
	} else {
		takes = itoa(npos)
	}
	word := "arguments"
	if npos == 1 && len(fn.defaults) == 0 {
		word = "argument"
	}
	kwGiven := 0
	for _, kw := range kwargs {
		for _, n := range c.KwOnly {
			if n == kw.Name {
				kwGiven++
			}
		}
	}
	was := "were"
	if given == 1 {
		was = "was"
	}
	if kwGiven > 0 {
		was = "were"
		kword := "arguments"
		if kwGiven == 1 {
			kword = "argument"
		}
		return Errorf(TypeErrorType, "%s() takes %s positional %s but %d positional %s (and %d keyword-only %s) %s given", fn.qualname, takes, word, given, plural(given, "argument"), kwGiven, kword, was)
	}
	return Errorf(TypeErrorType, "%s() takes %s positional %s but %d %s given", fn.qualname, takes, word, given, was)
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// compare is method equality: the same function bound to the same object.
func (m *Method) compare(t *Thread, op CmpOp, other Object) (Object, error) {
	o, ok := other.(*Method)
	if !ok || (op != CmpEq && op != CmpNe) {
		return NotImplemented, nil
	}
	eq := m.self == o.self || identical(m.self, o.self)
	if eq && m.fn != o.fn {
		var err error
		if eq, err = Equal(t, m.fn, o.fn); err != nil {
			return nil, err
		}
	}
	return MakeBool(eq == (op == CmpEq)), nil
}

// PyHash hashes a method as CPython does: its object's identity and its
// function's hash.
func (m *Method) PyHash(t *Thread) (int64, error) {
	h, err := Hash(t, m.fn)
	if err != nil {
		return 0, err
	}
	sh := pointerHash(m.self)
	if id, ok := m.self.(hasIdentity); ok {
		sh = int64(id.ident())
	}
	return h ^ sh, nil
}
