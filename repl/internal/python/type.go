package python

import (
	"fmt"
	"slices"
	"strings"
)

// Type is a Python class: a built-in type or a class statement's result.
type Type struct {
	identity
	name     string
	qualname string
	module   string
	bases    []*Type
	mro      []*Type
	dict     *Dict
	meta     *Type // the metaclass; nil means type
	builtin  bool
	final    bool // not an acceptable base type
	solid    *Type
	// new makes an instance of a built-in type (or of a subclass, whose
	// solid type it is): func(t, cls, args, kwargs).
	new func(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error)
	// Hooks of built-in metaclasses (enum) and per-class data of library
	// classes (namedtuple fields, dataclass fields, enum members).
	Hooks *TypeHooks
	Extra any
	// abstract names the abstract methods left (abc).
	abstract []string
	// pythonClass marks a Go type standing for a class CPython writes in
	// Python (fractions.Fraction): messages name it without its module.
	pythonClass bool
	// slots lists the attributes instances may have when every class
	// of the MRO defines __slots__ (nil: instances have a __dict__).
	slots []string
}

// TypeHooks let a library module give its classes behaviour Python gives
// through metaclasses (enum's iteration and lookup) or class creation
// (__init_subclass__-like processing).
type TypeHooks struct {
	// Keywords, then Created, run when a subclass is created (after
	// __set_name__, before __init_subclass__), as a metaclass's __new__
	// would: Keywords receives the class statement's keywords and returns
	// those left for __init_subclass__.
	Keywords func(t *Thread, cls *Type, kwargs []Kwarg) ([]Kwarg, error)
	Created  func(t *Thread, cls *Type) error
	// Call replaces cls(...) when set.
	Call func(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error)
	// Iter, Len, GetItem, Contains implement iteration, len, cls[key] and
	// `x in cls` on the class itself.
	Iter     func(t *Thread, cls *Type) (Object, error)
	Len      func(t *Thread, cls *Type) (int, error)
	GetItem  func(t *Thread, cls *Type, key Object) (Object, error)
	Contains func(t *Thread, cls *Type, x Object) (bool, error)
	// Repr of the class.
	Repr func(t *Thread, cls *Type) (string, error)
	// InstanceCheck and SubclassCheck replace isinstance and issubclass
	// against the class (abstract base classes).
	InstanceCheck func(t *Thread, cls *Type, x Object) (bool, error)
	SubclassCheck func(t *Thread, cls *Type, c *Type) (bool, error)
	// SetAttr, when set, is asked first when code sets (v non-nil) or
	// deletes (v nil) an attribute of the class: an error refuses it
	// (enum members cannot be reassigned).
	SetAttr func(t *Thread, cls *Type, name string, v Object) error
}

// Type returns the metaclass.
func (c *Type) Type() *Type {
	if c.meta != nil {
		return c.meta
	}
	return TypeType
}

// Name returns the class name.
func (c *Type) Name() string { return c.name }

// Dict returns the class namespace.
func (c *Type) Dict() *Dict { return c.dict }

// MRO returns the method resolution order.
func (c *Type) MRO() []*Type { return c.mro }

// IsSubtype reports whether c is b or a subclass of b.
func (c *Type) IsSubtype(b *Type) bool {
	if c == b {
		return true
	}
	for _, m := range c.mro {
		if m == b {
			return true
		}
	}
	return false
}

// Lookup finds name in the class and its bases (no descriptor binding).
func (c *Type) Lookup(name string) (Object, bool) {
	for _, m := range c.mro {
		if v, ok := m.dict.GetStr(name); ok {
			return v, true
		}
	}
	return nil, false
}

// lookupOwner is Lookup that also returns the class defining name.
func (c *Type) lookupOwner(name string) (Object, *Type) {
	for _, m := range c.mro {
		if v, ok := m.dict.GetStr(name); ok {
			return v, m
		}
	}
	return nil, nil
}

// overrides reports whether name is defined by a class before base in c's
// MRO (a user override of a built-in behaviour).
func (c *Type) overrides(name string, base *Type) bool {
	for _, m := range c.mro {
		if m == base || m.builtin {
			return false
		}
		if _, ok := m.dict.GetStr(name); ok {
			return true
		}
	}
	return false
}

// userMethod returns name as c's MRO resolves it when a non-built-in
// class defines it (class X(int, M) finds M.__len__), and nil when a
// built-in class defines it first, whose behaviour the runtime applies.
func (c *Type) userMethod(name string) Object {
	for _, m := range c.mro {
		if v, ok := m.dict.GetStr(name); ok {
			if m.builtin {
				return nil
			}
			return v
		}
	}
	return nil
}

// SetAttr sets a class attribute (library use).
func (c *Type) SetAttr(name string, v Object) { c.dict.SetStr(name, v) }

// newType makes a built-in type.
func newType(name string, base *Type, new func(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error)) *Type {
	c := &Type{name: name, qualname: name, module: "builtins", dict: NewDict(8), builtin: true, new: new}
	if base != nil {
		c.bases = []*Type{base}
		c.mro = append([]*Type{c}, base.mro...)
		if new == nil {
			c.new = base.new
		}
		c.solid = base.solid
	} else {
		c.mro = []*Type{c}
	}
	if c.solid == nil || new != nil {
		c.solid = c
	}
	if new != nil {
		c.dict.SetStr("__new__", newWrapper(c))
	}
	return c
}

// newWrapper is a built-in type's __new__: owner.__new__(cls, ...) makes a
// cls instance with owner's constructor, if cls's layout is owner's.
func newWrapper(owner *Type) Object {
	return &StaticMethod{fn: NewBuiltin("__new__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if len(args) == 0 {
			return nil, Errorf(TypeErrorType, "%s.__new__(): not enough arguments", owner.name)
		}
		sub, ok := args[0].(*Type)
		if !ok {
			return nil, Errorf(TypeErrorType, "%s.__new__(X): X is not a type object (%s)", owner.name, typeName(args[0]))
		}
		if !sub.IsSubtype(owner) {
			return nil, Errorf(TypeErrorType, "%s.__new__(%s): %s is not a subtype of %s", owner.name, sub.name, sub.name, owner.name)
		}
		if err := checkSafeNew(owner, sub); err != nil {
			return nil, err
		}
		if owner == ObjectType {
			return objectNew(t, sub, args[1:], kwargs)
		}
		return owner.new(t, sub, args[1:], kwargs)
	})}
}

// checkSafeNew is CPython's check that owner.__new__ can make a sub
// instance: sub's layout (its solid type) is owner's. The class the error
// names is the first up sub's chain whose __new__ is not written in Python.
func checkSafeNew(owner, sub *Type) error {
	if sub.solid == owner.solid {
		return nil
	}
	static := sub
	for !static.builtin && len(static.bases) > 0 {
		v, ok := static.dict.GetStr("__new__")
		if !ok || !isPythonNew(v) {
			break
		}
		static = static.bases[0]
	}
	return Errorf(TypeErrorType, "%s.__new__(%s) is not safe, use %s.__new__()", owner.name, sub.name, static.name)
}

// isPythonNew reports whether a class's __new__ entry is a Python function.
func isPythonNew(v Object) bool {
	if sm, ok := v.(*StaticMethod); ok {
		v = sm.fn
	}
	_, ok := v.(*Function)
	return ok
}

// NewBuiltinType makes a type implemented in Go by a library module:
// instances are whatever new returns.
func NewBuiltinType(name, module string, base *Type, new func(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error)) *Type {
	Setup()
	if base == nil {
		base = ObjectType
	}
	c := newType(name, base, new)
	c.module = module
	return c
}

// SetFinal marks a type as not subclassable.
func (c *Type) SetFinal() { c.final = true }

// Qualname returns the qualified name.
func (c *Type) Qualname() string { return c.qualname }

// Module returns the defining module's name.
func (c *Type) Module() string { return c.module }

// reprType renders <class 'name'>.
func (c *Type) repr() string {
	if c.module == "builtins" || c.module == "" {
		return "<class '" + c.qualname + "'>"
	}
	return "<class '" + c.module + "." + c.qualname + "'>"
}

// c3 computes the C3 linearization of a new class's MRO.
func c3(c *Type, bases []*Type) ([]*Type, error) {
	var seqs [][]*Type
	for _, b := range bases {
		seqs = append(seqs, append([]*Type(nil), b.mro...))
	}
	seqs = append(seqs, append([]*Type(nil), bases...))
	out := []*Type{c}
	for {
		empty := true
		for _, s := range seqs {
			if len(s) > 0 {
				empty = false
			}
		}
		if empty {
			return out, nil
		}
		var cand *Type
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			h := s[0]
			inTail := false
			for _, s2 := range seqs {
				for _, x := range s2[min(1, len(s2)):] {
					if x == h {
						inTail = true
					}
				}
			}
			if !inTail {
				cand = h
				break
			}
		}
		if cand == nil {
			// The heads left, as CPython lists them.
			var names []string
			seen := map[*Type]bool{}
			for _, s := range seqs {
				if len(s) > 0 && !seen[s[0]] {
					seen[s[0]] = true
					names = append(names, s[0].name)
				}
			}
			return nil, Errorf(TypeErrorType, "Cannot create a consistent method resolution\norder (MRO) for bases %s", strings.Join(names, ", "))
		}
		out = append(out, cand)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == cand {
				seqs[i] = s[1:]
			}
		}
	}
}

// NewClass creates a class as a class statement does: name, bases and the
// namespace the body filled.
func NewClass(t *Thread, meta *Type, name string, bases []*Type, ns *Dict) (*Type, error) {
	return NewClassKw(t, meta, name, bases, ns, nil)
}

// NewClassKw is NewClass with the class statement's keywords (other than
// metaclass): the bases' Keywords hook takes those it knows, the rest go
// to __init_subclass__.
func NewClassKw(t *Thread, meta *Type, name string, bases []*Type, ns *Dict, kwargs []Kwarg) (*Type, error) {
	if len(bases) == 0 {
		bases = []*Type{ObjectType}
	}
	if meta == nil {
		// The most derived of the bases' metaclasses (a subclass of an
		// abc.ABCMeta class is one too).
		meta = TypeType
		for _, b := range bases {
			if bm := b.Type(); bm.IsSubtype(meta) {
				meta = bm
			}
		}
	}
	if meta == TypeType {
		meta = nil
	}
	solid := ObjectType
	for _, b := range bases {
		if b.final {
			return nil, Errorf(TypeErrorType, "type '%s' is not an acceptable base type", qualifiedName(b))
		}
		s := b.solid
		switch {
		case s.IsSubtype(solid):
			solid = s
		case solid.IsSubtype(s):
		default:
			return nil, Errorf(TypeErrorType, "multiple bases have instance lay-out conflict")
		}
	}
	for i, b := range bases {
		for _, b2 := range bases[:i] {
			if b == b2 {
				return nil, Errorf(TypeErrorType, "duplicate base class %s", b.name)
			}
		}
	}
	c := &Type{name: name, qualname: name, module: "__main__", bases: bases, dict: ns, meta: meta, solid: solid}
	mro, err := c3(c, bases)
	if err != nil {
		return nil, err
	}
	c.mro = mro
	c.new = solid.new
	for _, b := range bases {
		if b.Hooks != nil && c.Hooks == nil {
			c.Hooks = b.Hooks
		}
	}
	if v, ok := ns.GetStr("__qualname__"); ok {
		if s, ok := v.(*Str); ok {
			c.qualname = s.s
		}
		_, _, _ = ns.Delete(t, NewStr("__qualname__"))
	}
	if v, ok := ns.GetStr("__module__"); ok {
		if s, ok := v.(*Str); ok {
			c.module = s.s
		}
	} else {
		ns.SetStr("__module__", NewStr(c.module))
	}
	// A class that defines __eq__ and not __hash__ is unhashable.
	if _, eq := ns.GetStr("__eq__"); eq {
		if _, h := ns.GetStr("__hash__"); !h {
			ns.SetStr("__hash__", None)
		}
	}
	// __slots__: instances without a __dict__ when every class defines
	// them.
	c.slots = nil
	if sl, ok := ns.GetStr("__slots__"); ok {
		var names []string
		if s, ok := sl.(*Str); ok {
			names = []string{s.s}
		} else {
			items, err := ToSlice(t, sl)
			if err != nil {
				return nil, err
			}
			for _, it := range items {
				s, ok := it.(*Str)
				if !ok {
					return nil, Errorf(TypeErrorType, "__slots__ items must be strings, not '%s'", typeName(it))
				}
				names = append(names, s.s)
			}
		}
		hasDict, weakSlot := false, false
		var declared []string
		for i, n := range names {
			if n == "__dict__" {
				// The slots would live in the instance dict (vars()
				// would show them).
				return nil, NotSupported("'__dict__' in __slots__", "leave __slots__ out to give instances a __dict__")
			}
			if n == "__weakref__" {
				weakSlot = true
				continue
			}
			n = mangleName(name, n)
			names[i] = n
			if _, ok := ns.GetStr(n); ok {
				return nil, Errorf(ValueErrorType, "'%s' in __slots__ conflicts with class variable", n)
			}
			declared = append(declared, n)
		}
		for _, b := range bases {
			if b.solid == ObjectType && !b.builtin && b.slots == nil {
				hasDict = true
			}
			names = append(names, b.slots...)
		}
		if !hasDict {
			c.slots = append([]string{}, names...)
			if c.slots == nil {
				c.slots = []string{}
			}
		}
		// Each slot is a member descriptor of the class (its value lives
		// in the instance's attribute table, which only a class without
		// __slots__ below exposes as __dict__).
		for _, n := range declared {
			ns.SetStr(n, &memberDescriptor{name: n, owner: c})
		}
		if weakSlot {
			ns.SetStr("__weakref__", weakrefDescriptor(c))
		}
	}
	// type.__new__'s standard entries: __doc__, and the __dict__ and
	// __weakref__ descriptors of the first class of a hierarchy whose
	// instances have them.
	if _, ok := ns.GetStr("__doc__"); !ok {
		ns.SetStr("__doc__", None)
	}
	if c.slots == nil {
		addDict, addWeak := true, true
		for _, b := range bases {
			for _, m := range b.mro {
				if m.instancesHaveDict() {
					addDict = false
				}
				if m.instancesHaveWeakref() {
					addWeak = false
				}
			}
		}
		switch solid {
		case IntType, TupleType, BytesType:
			addWeak = false
		}
		if addDict {
			if _, ok := ns.GetStr("__dict__"); !ok {
				ns.SetStr("__dict__", instanceDictDescriptor(c))
			}
		}
		if addWeak {
			if _, ok := ns.GetStr("__weakref__"); !ok {
				ns.SetStr("__weakref__", weakrefDescriptor(c))
			}
		}
	}
	// Plain functions named __new__, __init_subclass__ and __class_getitem__
	// are implicitly static or class methods.
	if v, ok := ns.GetStr("__new__"); ok {
		if fn, ok := v.(*Function); ok {
			ns.SetStr("__new__", &StaticMethod{fn: fn})
		}
	}
	for _, n := range []string{"__init_subclass__", "__class_getitem__"} {
		if v, ok := ns.GetStr(n); ok {
			if fn, ok := v.(*Function); ok {
				ns.SetStr(n, &ClassMethod{fn: fn})
			}
		}
	}
	// Abstract methods left by the bases and this class: only classes
	// whose metaclass is abc.ABCMeta have them.
	c.abstract = nil
	seen := map[string]bool{}
	for _, m := range c.mro {
		if meta == nil || !meta.IsSubtype(ABCMetaType) {
			break
		}
		m.dict.Items(func(k, v Object) bool {
			ks, ok := k.(*Str)
			if !ok || seen[ks.s] {
				return true
			}
			seen[ks.s] = true
			if isAbstract(v) {
				c.abstract = append(c.abstract, ks.s)
			}
			return true
		})
	}
	slices.Sort(c.abstract)
	// __set_name__ of descriptors.
	var err2 error
	ns.Items(func(k, v Object) bool {
		if _, ok := v.(*Instance); ok {
			if m := v.Type().userMethod("__set_name__"); m != nil {
				if _, err2 = callMethod(t, m, v, []Object{c, k}, nil); err2 != nil {
					return false
				}
			}
		}
		if p, ok := v.(interface{ setName(*Type, string) }); ok {
			if ks, ok := k.(*Str); ok {
				p.setName(c, ks.s)
			}
		}
		return true
	})
	if err2 != nil {
		return nil, err2
	}
	// What a library metaclass's __new__ does (enum members, TypedDict
	// keys), then __init_subclass__ of the nearest base defining one
	// (object's takes no keywords), as type.__new__ does.
	if c.Hooks != nil && c.Hooks.Keywords != nil {
		var err error
		if kwargs, err = c.Hooks.Keywords(t, c, kwargs); err != nil {
			return nil, err
		}
	}
	if c.Hooks != nil && c.Hooks.Created != nil {
		if err := c.Hooks.Created(t, c); err != nil {
			return nil, err
		}
	}
	if err := initSubclass(t, c, kwargs); err != nil {
		return nil, err
	}
	return c, nil
}

// initSubclass calls super(cls, cls).__init_subclass__(**kwargs).
func initSubclass(t *Thread, c *Type, kwargs []Kwarg) error {
	for _, m := range c.mro[1:] {
		v, ok := m.dict.GetStr("__init_subclass__")
		if !ok {
			continue
		}
		var fn Object
		switch x := v.(type) {
		case *ClassMethod:
			fn = &Method{fn: x.fn, self: c}
		case *Builtin:
			fn = &Builtin{name: x.name, fn: x.fn, self: c, classMethod: true, owner: x.owner}
		default:
			var err error
			if fn, err = bind(t, v, nil, c); err != nil {
				return err
			}
		}
		_, err := Call(t, fn, nil, kwargs)
		return err
	}
	return nil
}

func isAbstract(v Object) bool {
	switch x := v.(type) {
	case *Function:
		if !x.abstract && x.dict != nil {
			if v, ok := x.dict.GetStr("__isabstractmethod__"); ok {
				return Truth(nil, v)
			}
		}
		return x.abstract
	case *Property:
		return x.abstract
	case *StaticMethod:
		return isAbstract(x.fn)
	case *ClassMethod:
		return isAbstract(x.fn)
	}
	return false
}

// Instance is an instance of a class statement's class. For a subclass of
// a built-in type other than object and exceptions, base holds the
// built-in value (a namedtuple's tuple, a str subclass's str).
type Instance struct {
	identity
	cls  *Type
	dict *Dict
	base Object
}

// Type returns the instance's class.
func (o *Instance) Type() *Type { return o.cls }

// Base returns the built-in value of a subclass instance, or nil.
func (o *Instance) Base() Object { return o.base }

// SetBase sets the built-in value (library use: namedtuple).
func (o *Instance) SetBase(v Object) { o.base = v }

// Attrs returns the instance dict.
func (o *Instance) Attrs() *Dict {
	if o.dict == nil {
		o.dict = NewDict(4)
	}
	return o.dict
}

// NewInstance makes an instance of cls with no attributes.
func NewInstance(cls *Type, base Object) *Instance {
	return &Instance{cls: cls, dict: NewDict(4), base: base}
}

// unwrap returns the built-in value behind a subclass instance.
func unwrap(x Object) Object {
	if o, ok := x.(*Instance); ok && o.base != nil {
		return o.base
	}
	return x
}

func objectNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if len(args)+len(kwargs) > 0 {
		if _, owner := cls.lookupOwner("__new__"); owner != ObjectType {
			return nil, Errorf(TypeErrorType, "object.__new__() takes exactly one argument (the type to instantiate)")
		}
		if _, owner := cls.lookupOwner("__init__"); owner == ObjectType {
			return nil, Errorf(TypeErrorType, "%s() takes no arguments", cls.name)
		}
	}
	if len(cls.abstract) > 0 {
		names := make([]string, len(cls.abstract))
		for i, n := range cls.abstract {
			names[i] = q(n)
		}
		word := "method"
		if len(names) > 1 {
			word = "methods"
		}
		return nil, Errorf(TypeErrorType, "Can't instantiate abstract class %s without an implementation for abstract %s %s", cls.name, word, strings.Join(names, ", "))
	}
	if cls == ObjectType {
		return &Instance{cls: ObjectType}, nil
	}
	return &Instance{cls: cls, dict: NewDict(4)}, nil
}

// callType implements cls(...).
func callType(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if cls == TypeType && len(args) == 1 && len(kwargs) == 0 {
		return args[0].Type(), nil
	}
	if cls.Hooks != nil && cls.Hooks.Call != nil {
		return cls.Hooks.Call(t, cls, args, kwargs)
	}
	var obj Object
	var err error
	if nw, owner := cls.lookupOwner("__new__"); owner != nil && !owner.builtin {
		fn := nw
		if sm, ok := nw.(*StaticMethod); ok {
			fn = sm.fn
		}
		obj, err = Call(t, fn, append([]Object{cls}, args...), kwargs)
	} else {
		if cls.new == nil {
			return nil, Errorf(TypeErrorType, "cannot create '%s' instances", cls.qualname)
		}
		obj, err = cls.new(t, cls, args, kwargs)
	}
	if err != nil {
		return nil, err
	}
	if !obj.Type().IsSubtype(cls) {
		return obj, nil
	}
	// Built-in immutable types are fully made by new; mutable ones and
	// every user class run __init__.
	init, owner := cls.lookupOwner("__init__")
	if owner == nil || owner == ObjectType {
		return obj, nil
	}
	if owner.builtin && owner.solid == owner && owner.new != nil && !initAfterNew[owner] {
		return obj, nil
	}
	r, err := callMethod(t, init, obj, args, kwargs)
	if err != nil {
		return nil, err
	}
	if r != None {
		return nil, Errorf(TypeErrorType, "__init__() should return None, not '%s'", typeName(r))
	}
	return obj, nil
}

// initAfterNew lists built-in types whose __init__ fills what new made.
var initAfterNew = map[*Type]bool{}

// callMethod calls an attribute found on a class with self bound.
func callMethod(t *Thread, m Object, self Object, args []Object, kwargs []Kwarg) (Object, error) {
	switch f := m.(type) {
	case *Function:
		return f.call(t, self, args, kwargs)
	case *Builtin:
		if f.self == nil && f.method {
			return f.call(t, prepend(self, args), kwargs)
		}
	case *StaticMethod:
		return Call(t, f.fn, args, kwargs)
	case *ClassMethod:
		return Call(t, f.fn, prepend(self.Type(), args), kwargs)
	}
	bound, err := bind(t, m, self, self.Type())
	if err != nil {
		return nil, err
	}
	return Call(t, bound, args, kwargs)
}

func prepend(x Object, args []Object) []Object {
	out := make([]Object, len(args)+1)
	out[0] = x
	copy(out[1:], args)
	return out
}

// bind applies the descriptor protocol to attr found on cls for obj.
func bind(t *Thread, attr Object, obj Object, cls *Type) (Object, error) {
	switch a := attr.(type) {
	case *Function:
		if obj == nil {
			return a, nil
		}
		return &Method{fn: a, self: obj}, nil
	case *Builtin:
		if a.method && a.self == nil && obj != nil {
			return &Builtin{name: a.name, fn: a.fn, self: obj, method: true, owner: a.owner}, nil
		}
		if a.classMethod && a.self == nil {
			return &Builtin{name: a.name, fn: a.fn, self: cls, classMethod: true, owner: a.owner}, nil
		}
		return a, nil
	case *StaticMethod:
		return a.fn, nil
	case *ClassMethod:
		return &Method{fn: a.fn, self: cls}, nil
	case *Property:
		if obj == nil {
			return a, nil
		}
		return a.get(t, obj)
	case *GetSet:
		if obj == nil {
			return a, nil
		}
		return a.get(t, obj)
	case *memberDescriptor:
		if obj == nil {
			return a, nil
		}
		return a.get(obj)
	case *Instance:
		if g := a.cls.userMethod("__get__"); g != nil {
			var o Object = None
			if obj != nil {
				o = obj
			}
			return callMethod(t, g, a, []Object{o, cls}, nil)
		}
	case Descriptor:
		return a.PyGet(t, obj, cls)
	}
	return attr, nil
}

// Descriptor is the descriptor protocol for Go-implemented types (a
// method-like object, a cached property): reading it off a class gives
// PyGet(t, nil, cls), off an instance PyGet(t, obj, type(obj)).
type Descriptor interface {
	PyGet(t *Thread, obj Object, cls *Type) (Object, error)
}

// isDataDescriptor reports whether attr controls setting and reading ahead
// of an instance dict.
func isDataDescriptor(attr Object) bool {
	switch a := attr.(type) {
	case *Property, *GetSet, *memberDescriptor:
		return true
	case *Instance:
		return a.cls.userMethod("__set__") != nil || a.cls.userMethod("__delete__") != nil
	}
	return false
}

// GetAttr returns obj.name.
func GetAttr(t *Thread, obj Object, name string) (Object, error) {
	v, err := getAttr(t, obj, name)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, attrError(obj, name)
	}
	return v, nil
}

// getAttr returns nil, nil when the attribute does not exist.
func getAttr(t *Thread, obj Object, name string) (Object, error) {
	switch o := obj.(type) {
	case *Module:
		if v, ok := o.dict.GetStr(name); ok {
			return v, nil
		}
		if o.getattr != nil {
			return o.getattr(t, name)
		}
		if name == "__dict__" {
			return o.dict, nil
		}
		return nil, nil
	case *Type:
		return typeGetAttr(t, o, name)
	case *Super:
		return o.lookup(t, name)
	case *hostStr:
		if ha, ok := o.h.(HostAttrs); ok {
			if v, ok, err := ha.HostAttr(t, name, o); ok || err != nil {
				return v, err
			}
		}
		if hm, ok := o.h.(HostMethods); ok {
			if f := hm.HostMethod(name, o); f != nil {
				if m, owner := StrType.lookupOwner(name); owner != nil {
					// A name both str and the host define (partition):
					// keyword arguments select the host's method.
					strFn := m.(*Builtin).fn
					return NewBuiltin(name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
						if len(kwargs) > 0 {
							return f(t, args, kwargs)
						}
						return strFn(t, prepend(o, args), kwargs)
					}), nil
				}
				return NewBuiltin(name, f), nil
			}
		}
	}
	cls := obj.Type()
	if !cls.builtin {
		// A class statement's class: its __getattribute__, then its
		// __getattr__ when that raises AttributeError.
		if ga := cls.userMethod("__getattribute__"); ga != nil {
			v, err := callMethod(t, ga, obj, []Object{NewStr(name)}, nil)
			if err == nil || !IsInstance(err, AttributeErrorType) {
				return v, err
			}
			if gt := cls.userMethod("__getattr__"); gt != nil {
				return callMethod(t, gt, obj, []Object{NewStr(name)}, nil)
			}
			return nil, err
		}
	}
	v, err := genericGetAttr(t, obj, name)
	if err == nil && v != nil {
		return v, nil
	}
	if err != nil && !IsInstance(err, AttributeErrorType) {
		return nil, err
	}
	if !cls.builtin {
		if ga := cls.userMethod("__getattr__"); ga != nil {
			return callMethod(t, ga, obj, []Object{NewStr(name)}, nil)
		}
	}
	return nil, err
}

// genericGetAttr is object.__getattribute__: data descriptors of the
// class, the instance dict, other class attributes. It returns nil, nil
// when the attribute does not exist.
func genericGetAttr(t *Thread, obj Object, name string) (Object, error) {
	cls := obj.Type()
	attr, owner := cls.lookupOwner(name)
	if owner != nil && isDataDescriptor(attr) && hasGet(attr) {
		return bind(t, attr, obj, cls)
	}
	if d := instanceDict(obj); d != nil {
		if v, ok := d.GetStr(name); ok {
			return v, nil
		}
	}
	if owner != nil {
		return bind(t, attr, obj, cls)
	}
	if a, ok := obj.(Attrs); ok {
		v, err := a.PyGetAttr(t, name)
		if err != nil || v != nil {
			return v, err
		}
	}
	switch name {
	case "__class__":
		return cls, nil
	case "__dict__":
		if o, ok := obj.(*Instance); ok && o.cls.slots != nil {
			break
		}
		if e, ok := obj.(*Exception); ok {
			if e.dict == nil {
				e.dict = NewDict(0)
			}
			return e.dict, nil
		}
		if d := instanceDict(obj); d != nil {
			return d, nil
		}
	case "__doc__":
		return None, nil
	}
	return nil, nil
}

// hasGet reports whether a descriptor found on a class binds when read
// (a class statement's descriptor needs a __get__).
func hasGet(attr Object) bool {
	if a, ok := attr.(*Instance); ok {
		return a.cls.userMethod("__get__") != nil
	}
	return true
}

// instanceDict returns the attribute dict of obj, if it has one.
func instanceDict(obj Object) *Dict {
	switch o := obj.(type) {
	case *Instance:
		return o.dict
	case *Function:
		return o.attrs()
	case *Exception:
		return o.dict
	}
	return nil
}

func typeGetAttr(t *Thread, c *Type, name string) (Object, error) {
	switch name {
	case "__name__":
		return NewStr(c.name), nil
	case "__qualname__":
		return NewStr(c.qualname), nil
	case "__module__":
		if v, ok := c.dict.GetStr("__module__"); ok {
			return v, nil
		}
		return NewStr(c.module), nil
	case "__mro__":
		out := make([]Object, len(c.mro))
		for i, m := range c.mro {
			out[i] = m
		}
		return NewTuple(out), nil
	case "__bases__":
		out := make([]Object, len(c.bases))
		for i, m := range c.bases {
			out[i] = m
		}
		return NewTuple(out), nil
	case "__base__":
		if len(c.bases) == 0 {
			return None, nil
		}
		return c.bases[0], nil
	case "__dict__":
		return &MappingProxy{m: c.dict}, nil
	case "__class__":
		return c.Type(), nil
	case "__doc__":
		if v, ok := c.dict.GetStr("__doc__"); ok {
			return v, nil
		}
		return None, nil
	case "__abstractmethods__":
		out := make([]Object, len(c.abstract))
		for i, n := range c.abstract {
			out[i] = NewStr(n)
		}
		s := NewSet(true)
		for _, x := range out {
			_ = s.Add(t, x)
		}
		return s, nil
	}
	// The metaclass's data descriptors, the class's MRO, then the
	// metaclass's other attributes (type.mro, Enum members), as
	// type.__getattribute__.
	meta := c.Type()
	var metaAttr Object
	if meta != TypeType {
		if v, owner := meta.lookupOwner(name); owner != nil && owner != TypeType && owner != ObjectType {
			if isDataDescriptor(v) {
				return bind(t, v, c, meta)
			}
			metaAttr = v
		}
	}
	if v, ok := c.Lookup(name); ok {
		return bind(t, v, nil, c)
	}
	if metaAttr != nil {
		return bind(t, metaAttr, c, meta)
	}
	if v, owner := TypeType.lookupOwner(name); owner != nil {
		return bind(t, v, c, TypeType)
	}
	return nil, nil
}

// SetAttr sets obj.name = v.
func SetAttr(t *Thread, obj Object, name string, v Object) error {
	switch o := obj.(type) {
	case *Instance:
		if sa := o.cls.userMethod("__setattr__"); sa != nil {
			_, err := callMethod(t, sa, obj, []Object{NewStr(name), v}, nil)
			return err
		}
		return genericSetAttr(t, obj, name, v)
	case *Type:
		if o.builtin {
			return Errorf(TypeErrorType, "cannot set '%s' attribute of immutable type '%s'", name, o.name)
		}
		if o.Hooks != nil && o.Hooks.SetAttr != nil {
			if err := o.Hooks.SetAttr(t, o, name, v); err != nil {
				return err
			}
		}
		if name == "__name__" {
			if s, ok := v.(*Str); ok {
				o.name = s.s
				return nil
			}
		}
		o.dict.SetStr(name, v)
		return nil
	case *Module:
		o.dict.SetStr(name, v)
		return nil
	case *Function:
		switch name {
		case "__dict__":
			attr, _ := FunctionType.lookupOwner(name)
			return setDescriptor(t, attr, obj, name, v)
		case "__closure__", "__globals__", "__builtins__":
			return Errorf(AttributeErrorType, "readonly attribute")
		case "__name__":
			if s, ok := v.(*Str); ok {
				o.name = s.s
				return nil
			}
			return Errorf(TypeErrorType, "__name__ must be set to a string object")
		case "__qualname__":
			if s, ok := v.(*Str); ok {
				o.qualname = s.s
				return nil
			}
			return Errorf(TypeErrorType, "__qualname__ must be set to a string object")
		case "__doc__":
			o.doc = v
			return nil
		case "__module__":
			if s, ok := v.(*Str); ok {
				o.module = s.s
				return nil
			}
		}
		o.attrs().SetStr(name, v)
		return nil
	case *Exception:
		if sa := o.Type().userMethod("__setattr__"); sa != nil {
			_, err := callMethod(t, sa, obj, []Object{NewStr(name), v}, nil)
			return err
		}
		return genericSetAttr(t, obj, name, v)
	}
	attr, owner := obj.Type().lookupOwner(name)
	if owner != nil && isDataDescriptor(attr) {
		return setDescriptor(t, attr, obj, name, v)
	}
	if s, ok := obj.(AttrSetter); ok {
		return s.PySetAttr(t, name, v)
	}
	if owner != nil {
		return Errorf(AttributeErrorType, "'%s' object attribute '%s' is read-only", typeName(obj), name)
	}
	return Errorf(AttributeErrorType, "'%s' object has no attribute '%s'", typeName(obj), name)
}

func setDescriptor(t *Thread, attr, obj Object, name string, v Object) error {
	switch a := attr.(type) {
	case *Property:
		return a.set(t, obj, v)
	case *GetSet:
		if a.set == nil {
			return Errorf(AttributeErrorType, "attribute '%s' of '%s' objects is not writable", name, typeName(obj))
		}
		return a.set(t, obj, v)
	case *memberDescriptor:
		return a.set(obj, v)
	case *Instance:
		s := a.cls.userMethod("__set__")
		if s == nil {
			return Errorf(AttributeErrorType, "__set__")
		}
		_, err := callMethod(t, s, a, []Object{obj, v}, nil)
		return err
	}
	return nil
}

// delDescriptor deletes through a data descriptor.
func delDescriptor(t *Thread, attr, obj Object, name string) error {
	switch a := attr.(type) {
	case *Property:
		return a.del(t, obj)
	case *GetSet:
		if a.del == nil {
			return Errorf(AttributeErrorType, "attribute '%s' of '%s' objects is not writable", name, typeName(obj))
		}
		return a.del(t, obj)
	case *memberDescriptor:
		return a.del(t, obj)
	case *Instance:
		d := a.cls.userMethod("__delete__")
		if d == nil {
			return Errorf(AttributeErrorType, "__delete__")
		}
		_, err := callMethod(t, d, a, []Object{obj}, nil)
		return err
	}
	return nil
}

// genericDelAttr is object.__delattr__: a data descriptor of the class,
// else the instance dict.
func genericDelAttr(t *Thread, obj Object, name string) error {
	attr, owner := obj.Type().lookupOwner(name)
	if owner != nil && isDataDescriptor(attr) {
		return delDescriptor(t, attr, obj, name)
	}
	if d := instanceDict(obj); d != nil {
		if _, found, _ := d.Delete(t, NewStr(name)); found {
			return nil
		}
	}
	return attrError(obj, name)
}

// DelAttr deletes obj.name.
func DelAttr(t *Thread, obj Object, name string) error {
	var d *Dict
	switch o := obj.(type) {
	case *Instance:
		if da := o.cls.userMethod("__delattr__"); da != nil {
			_, err := callMethod(t, da, obj, []Object{NewStr(name)}, nil)
			return err
		}
		return genericDelAttr(t, obj, name)
	case *Type:
		if o.builtin {
			return Errorf(TypeErrorType, "cannot delete '%s' attribute of immutable type '%s'", name, o.name)
		}
		if o.Hooks != nil && o.Hooks.SetAttr != nil {
			if err := o.Hooks.SetAttr(t, o, name, nil); err != nil {
				return err
			}
		}
		d = o.dict
	case *Module:
		d = o.dict
	case *Function:
		d = o.attrs()
	case *Exception:
		if da := o.cls.userMethod("__delattr__"); da != nil {
			_, err := callMethod(t, da, obj, []Object{NewStr(name)}, nil)
			return err
		}
		return genericDelAttr(t, obj, name)
	}
	if d != nil {
		if _, found, _ := d.Delete(t, NewStr(name)); found {
			return nil
		}
	} else if attr, owner := obj.Type().lookupOwner(name); owner != nil && isDataDescriptor(attr) {
		return delDescriptor(t, attr, obj, name)
	}
	return attrError(obj, name)
}

func attrError(obj Object, name string) error {
	var e *Exception
	switch o := obj.(type) {
	case *Module:
		e = Errorf(AttributeErrorType, "module '%s' has no attribute '%s'", o.name, name)
	case *Type:
		e = Errorf(AttributeErrorType, "type object '%s' has no attribute '%s'", o.name, name)
	default:
		e = Errorf(AttributeErrorType, "'%s' object has no attribute '%s'", typeName(obj), name)
	}
	d := e.dictOf()
	d.SetStr("name", NewStr(name))
	d.SetStr("obj", obj)
	return e
}

// HasAttr reports whether obj.name exists.
func HasAttr(t *Thread, obj Object, name string) (bool, error) {
	v, err := getAttr(t, obj, name)
	if err != nil {
		if IsInstance(err, AttributeErrorType) {
			return false, nil
		}
		return false, err
	}
	return v != nil, nil
}

// MappingProxy is a read-only view of a mapping (a class namespace,
// types.MappingProxyType(m)).
type MappingProxy struct{ m Object }

// Type returns mappingproxy.
func (*MappingProxy) Type() *Type { return MappingProxyType }

var _ = fmt.Sprint

// qualifiedName names a class in messages: a Go-implemented library type
// with its module ('datetime.timezone'), as CPython's C types are named.
func qualifiedName(c *Type) string {
	if c.builtin && !c.pythonClass && c.module != "builtins" && c.module != "" {
		return c.module + "." + c.name
	}
	return c.name
}

// instancesHaveDict reports whether the instances of c (a class of some
// MRO) have a __dict__ because of c: a class statement's class without
// __slots__ or an exception class.
func (c *Type) instancesHaveDict() bool {
	if c.builtin {
		return c == BaseExceptionType
	}
	return c.slots == nil
}

// instancesHaveWeakref reports whether c gives its instances a
// __weakref__ slot.
func (c *Type) instancesHaveWeakref() bool {
	if c.builtin {
		return false
	}
	if c.slots == nil {
		return true
	}
	if sl, ok := c.dict.GetStr("__slots__"); ok {
		if s, ok := sl.(*Str); ok {
			return s.s == "__weakref__"
		}
		if tu, ok := sl.(*Tuple); ok {
			for _, x := range tu.items {
				if StrValue(x) == "__weakref__" {
					return true
				}
			}
		}
		if l, ok := sl.(*List); ok {
			for _, x := range l.items {
				if StrValue(x) == "__weakref__" {
					return true
				}
			}
		}
	}
	return false
}

// instanceDictDescriptor is the __dict__ entry of a class: it reads and
// replaces the instance dict.
func instanceDictDescriptor(owner *Type) *GetSet {
	g := NewGetSet("__dict__", func(t *Thread, obj Object) (Object, error) {
		switch o := obj.(type) {
		case *Instance:
			if o.dict == nil {
				o.dict = NewDict(0)
			}
			return o.dict, nil
		case *Exception:
			return o.dictOf(), nil
		}
		if d := instanceDict(obj); d != nil {
			return d, nil
		}
		return nil, attrError(obj, "__dict__")
	}, func(t *Thread, obj, v Object) error {
		d, ok := unwrap(v).(*Dict)
		if !ok {
			return Errorf(TypeErrorType, "__dict__ must be set to a dictionary, not a '%s'", typeName(v))
		}
		switch o := obj.(type) {
		case *Instance:
			o.dict = d
			return nil
		case *Exception:
			o.dict = d
			return nil
		}
		return Errorf(AttributeErrorType, "attribute '__dict__' of '%s' objects is not writable", typeName(obj))
	})
	g.del = func(t *Thread, obj Object) error {
		// del obj.__dict__ leaves an empty dict.
		return g.set(t, obj, NewDict(0))
	}
	g.owner = owner
	return g
}

// weakrefDescriptor is the __weakref__ entry of a class: code mode has no
// weak references, so it reads None.
func weakrefDescriptor(owner *Type) *GetSet {
	g := NewGetSet("__weakref__", func(t *Thread, obj Object) (Object, error) { return None, nil }, nil)
	g.owner = owner
	return g
}

// memberDescriptor is a slot of a class with __slots__.
type memberDescriptor struct {
	name  string
	owner *Type
}

// Type returns member_descriptor.
func (*memberDescriptor) Type() *Type { return MemberDescriptorType }

// PyRepr renders <member 'a' of 'S' objects>.
func (m *memberDescriptor) PyRepr(*Thread) (string, error) {
	return "<member '" + m.name + "' of '" + m.owner.name + "' objects>", nil
}

func (m *memberDescriptor) check(obj Object) (*Instance, error) {
	o, ok := obj.(*Instance)
	if !ok || !o.cls.IsSubtype(m.owner) {
		return nil, Errorf(TypeErrorType, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", m.name, m.owner.name, typeName(obj))
	}
	return o, nil
}

func (m *memberDescriptor) get(obj Object) (Object, error) {
	o, err := m.check(obj)
	if err != nil {
		return nil, err
	}
	if o.dict != nil {
		if v, ok := o.dict.GetStr(m.name); ok {
			return v, nil
		}
	}
	return nil, attrError(obj, m.name)
}

func (m *memberDescriptor) set(obj, v Object) error {
	o, err := m.check(obj)
	if err != nil {
		return err
	}
	o.Attrs().SetStr(m.name, v)
	return nil
}

func (m *memberDescriptor) del(t *Thread, obj Object) error {
	o, err := m.check(obj)
	if err != nil {
		return err
	}
	if o.dict != nil {
		if _, found, _ := o.dict.Delete(t, NewStr(m.name)); found {
			return nil
		}
	}
	// (CPython's message is the bare name.)
	return NewException(AttributeErrorType, NewStr(m.name))
}
