package enum

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// auto is enum.auto.
type auto struct{ value obj }

type autoNullType struct{}

func (autoNullType) Type() *python.Type { return autoNullClass }

// PyRepr renders _auto_null.
func (autoNullType) PyRepr(*python.Thread) (string, error) { return "_auto_null", nil }

var (
	autoNullClass *python.Type
	autoNull      obj = autoNullType{}
	autoType      *python.Type
)

// setupAuto makes auto, _auto_null, member and nonmember.
func setupAuto() {
	autoNullClass = python.NewBuiltinType("_auto_null", "enum", nil, nil)
	autoType = python.NewBuiltinType("auto", "enum", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		a, err := (&python.Signature{Name: "auto.__init__", Pos: []string{"self", "value"}, Required: 1}).Values(append([]obj{python.None}, args...), kwargs)
		if err != nil {
			return nil, err
		}
		if a[1] == nil {
			a[1] = autoNull
		}
		return &auto{value: a[1]}, nil
	})
	memberType = newWrapperType("member", wrapMember)
	nonmemberType = newWrapperType("nonmember", wrapNonmember)
	autoType.AddGetSet("value", func(t *python.Thread, o obj) (obj, error) { return o.(*auto).value, nil },
		func(t *python.Thread, o, v obj) error { o.(*auto).value = v; return nil })
	for _, w := range []*python.Type{memberType, nonmemberType} {
		w.AddGetSet("value", func(t *python.Thread, o obj) (obj, error) { return o.(*wrapper).value, nil },
			func(t *python.Thread, o, v obj) error { o.(*wrapper).value = v; return nil })
	}
}

// Type returns enum.auto.
func (*auto) Type() *python.Type { return autoType }

// PyRepr renders auto(value).
func (a *auto) PyRepr(t *python.Thread) (string, error) {
	r, err := python.Repr(t, a.value)
	return "auto(" + r + ")", err
}

// wrapper is enum.member(value) or enum.nonmember(value).
type wrapper struct {
	kind  int
	value obj
}

const (
	wrapMember = iota
	wrapNonmember
)

func newWrapperType(name string, kind int) *python.Type {
	return python.NewBuiltinType(name, "enum", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		a, err := (&python.Signature{Name: name + ".__init__", Pos: []string{"self", "value"}, Required: 2}).Values(append([]obj{python.None}, args...), kwargs)
		if err != nil {
			return nil, err
		}
		return &wrapper{kind: kind, value: a[1]}, nil
	})
}

// memberType and nonmemberType are enum.member and enum.nonmember (set by
// setupAuto).
var memberType, nonmemberType *python.Type

// Type returns member or nonmember.
func (w *wrapper) Type() *python.Type {
	if w.kind == wrapMember {
		return memberType
	}
	return nonmemberType
}

const enumDoc = "\n    Create a collection of name/value pairs.\n\n    Example enumeration:\n\n    >>> class Color(Enum):\n    ...     RED = 1\n    ...     BLUE = 2\n    ...     GREEN = 3\n\n    Access them by:\n\n    - attribute access:\n\n      >>> Color.RED\n      <Color.RED: 1>\n\n    - value lookup:\n\n      >>> Color(1)\n      <Color.RED: 1>\n\n    - name lookup:\n\n      >>> Color['RED']\n      <Color.RED: 1>\n\n    Enumerations can be iterated over, and know how many members they have:\n\n    >>> len(Color)\n    3\n\n    >>> list(Color)\n    [<Color.RED: 1>, <Color.BLUE: 2>, <Color.GREEN: 3>]\n\n    Methods can be added to enumerations, and members can have their own\n    attributes -- see the documentation for details.\n    "

// newClass makes one of the module's classes through the class machinery
// (so that the Created hook processes it as any enum class).
func (st *state) newClass(t *python.Thread, name string, bases []*python.Type, doc string, body func(ns *python.Dict)) (*python.Type, error) {
	ns := python.NewDict(16)
	ns.SetStr("__module__", python.NewStr("enum"))
	ns.SetStr("__qualname__", python.NewStr(name))
	ns.SetStr("__doc__", python.NewStr(doc))
	if body != nil {
		body(ns)
	}
	st.building = name
	defer func() { st.building = "" }()
	return python.NewClass(t, st.meta, name, bases, ns)
}

func str(s string) obj { return python.NewStr(s) }

// build makes the module's classes.
func (st *state) build(t *python.Thread) error {
	st.genType = python.NewBuiltinType("generator", "builtins", nil, nil)
	st.meta = python.NewBuiltinType("EnumType", "enum", python.TypeType, nil)
	st.meta.AddGetSet("__members__", func(t *python.Thread, o obj) (obj, error) {
		if i := infoOf(o.(*python.Type)); i != nil {
			return i.proxy, nil
		}
		return nil, python.Errorf(python.AttributeErrorType, "__members__")
	}, nil)
	st.meta.AddMethod("__reversed__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		cls, _ := args[0].(*python.Type)
		i, err := enumInfo(cls)
		if err != nil {
			return nil, err
		}
		names := append([]obj(nil), i.names.Items()...)
		k := len(names)
		return python.NewIterator(st.genType, func(t *python.Thread) (obj, error) {
			if k == 0 {
				return nil, nil
			}
			k--
			m, _ := i.members.GetStr(python.StrValue(names[k]))
			return m, nil
		}), nil
	})
	st.hooks = &python.TypeHooks{
		Created: st.created,
		Call:    st.call,
		Iter:    st.classIter,
		Len: func(t *python.Thread, cls *python.Type) (int, error) {
			i, err := enumInfo(cls)
			if err != nil {
				return 0, err
			}
			return len(i.names.Items()), nil
		},
		GetItem:  st.classGetItem,
		Contains: st.classContains,
		SetAttr:  classSetAttr,
		Repr: func(t *python.Thread, cls *python.Type) (string, error) {
			if st.flag != nil && cls.IsSubtype(st.flag) {
				return "<flag " + python.StrRepr(cls.Name()) + ">", nil
			}
			return "<enum " + python.StrRepr(cls.Name()) + ">", nil
		},
	}

	enum, err := st.newClass(t, "Enum", nil, enumDoc, nil)
	if err != nil {
		return err
	}
	st.enum = enum
	enum.Hooks = st.hooks
	ei := st.newInfo(python.ObjectType, nil)
	enum.Extra = ei
	st.setBookkeeping(enum, ei)
	st.addEnumMethods(enum)

	if st.reprEnum, err = st.newClass(t, "ReprEnum", []*python.Type{enum}, "\n    Only changes the repr(), leaving str() and format() to the mixed-in type.\n    ", nil); err != nil {
		return err
	}
	if st.intEnum, err = st.newClass(t, "IntEnum", []*python.Type{python.IntType, st.reprEnum}, "\n    Enum where members are also (and must be) ints\n    ", nil); err != nil {
		return err
	}
	if st.strEnum, err = st.newClass(t, "StrEnum", []*python.Type{python.StrType, st.reprEnum}, "\n    Enum where members are also (and must be) strings\n    ", func(ns *python.Dict) {
		ns.SetStr("__new__", python.NewStaticMethod(python.NewBuiltin("__new__", strEnumNew)))
		ns.SetStr("_generate_next_value_", python.NewStaticMethod(python.NewBuiltin("_generate_next_value_", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs("_generate_next_value_", args, kwargs, 4, "name", "start", "count", "last_values")
			if err != nil {
				return nil, err
			}
			return python.CallMethod(t, a[0], "lower", nil, nil)
		})))
	}); err != nil {
		return err
	}
	fb, err := st.newClass(t, "FlagBoundary", []*python.Type{st.strEnum}, "\n    control how out of range values are handled\n    \"strict\" -> error is raised             [default for Flag]\n    \"conform\" -> extra bits are discarded\n    \"eject\" -> lose flag status\n    \"keep\" -> keep flag status and all bits [default for IntFlag]\n    ", func(ns *python.Dict) {
		for _, n := range []string{"STRICT", "CONFORM", "EJECT", "KEEP"} {
			ns.SetStr(n, &auto{value: autoNull})
		}
	})
	if err != nil {
		return err
	}
	st.flagBoundary = fb
	fbi := infoOf(fb)
	st.strict, _ = fbi.members.GetStr("STRICT")
	st.conform, _ = fbi.members.GetStr("CONFORM")
	st.eject, _ = fbi.members.GetStr("EJECT")
	st.keep, _ = fbi.members.GetStr("KEEP")

	if st.flag, err = st.newClass(t, "Flag", []*python.Type{enum}, "\n    Support for flags\n    ", func(ns *python.Dict) {
		st.addFlagMethods(ns)
	}); err != nil {
		return err
	}
	fi := infoOf(st.flag)
	fi.boundary = st.strict
	st.flag.Dict().SetStr("_boundary_", st.strict)
	if st.intFlag, err = st.newClass(t, "IntFlag", []*python.Type{python.IntType, st.reprEnum, st.flag}, "\n    Support for integer-based Flags\n    ", nil); err != nil {
		return err
	}
	ifi := infoOf(st.intFlag)
	ifi.boundary = st.keep
	st.intFlag.Dict().SetStr("_boundary_", st.keep)
	return nil
}

// method wraps a Go method for an enum class's namespace.
func (st *state) method(name string, fn python.BuiltinFunc) *python.Builtin {
	return python.NewMethod(st.enum, name, fn)
}

func (st *state) addEnumMethods(enum *python.Type) {
	d := enum.Dict()
	set := func(name string, fn python.BuiltinFunc) *python.Builtin {
		m := st.method(name, fn)
		d.SetStr(name, m)
		return m
	}
	set("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return python.None, nil })
	set("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		self := args[0]
		vr, err := st.valueRepr(t, self.Type(), memberValue(self))
		if err != nil {
			return nil, err
		}
		name, err := python.StrOf(t, memberName(self))
		if err != nil {
			return nil, err
		}
		return str("<" + self.Type().Name() + "." + name + ": " + vr + ">"), nil
	})
	set("__str__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		name, err := python.StrOf(t, memberName(args[0]))
		if err != nil {
			return nil, err
		}
		return str(args[0].Type().Name() + "." + name), nil
	})
	set("__format__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "Enum.__format__() takes 2 positional arguments but %d were given", len(args))
		}
		spec, ok := args[1].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor '__format__' requires a 'str' object but received a '%s'", python.TypeName(args[1]))
		}
		s, err := python.StrOf(t, args[0])
		if err != nil {
			return nil, err
		}
		r, err := python.Format(t, python.NewStr(s), spec.String())
		return str(r), err
	})
	set("__hash__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		h, err := python.Hash(t, memberName(args[0]))
		return python.MakeInt(h), err
	})
	set("__reduce_ex__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.NewTuple([]obj{args[0].Type(), python.NewTuple([]obj{memberValue(args[0])})}), nil
	})
	self := func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return args[0], nil }
	set("__deepcopy__", self)
	set("__copy__", self)
	set("__dir__", st.memberDir)
	d.SetStr("name", python.NewGetSet("name", func(t *python.Thread, o obj) (obj, error) { return memberName(o), nil }, nil))
	d.SetStr("value", python.NewGetSet("value", func(t *python.Thread, o obj) (obj, error) { return memberValue(o), nil }, nil))
	d.SetStr("_generate_next_value_", python.NewStaticMethod(python.NewBuiltin("_generate_next_value_", enumGenerate)))
	d.SetStr("_missing_", python.NewClassMethodOf(python.NewBuiltin("_missing_", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.None, nil
	})))
	st.enumNewFn = python.NewBuiltin("__new__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "Enum.__new__() takes 2 positional arguments but %d were given", len(args))
		}
		cls, ok := args[0].(*python.Type)
		if !ok || infoOf(cls) == nil {
			return nil, python.Errorf(python.TypeErrorType, "Enum.__new__(X): X is not an enum class")
		}
		return st.lookupValue(t, cls, args[1])
	})
	st.enumNew = python.NewStaticMethod(st.enumNewFn)
	d.SetStr("__new__", st.enumNew)
	d.SetStr("__init_subclass__", python.NewClassMethodOf(python.NewBuiltin("__init_subclass__", st.initSubclass)))
	// The str() and format() of members of a ReprEnum: those of the data
	// type's value.
	st.dataStr = st.method("__str__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := st.dataStrOf(t, args[0])
		return str(s), err
	})
	st.dataFormat = st.method("__format__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "__format__() takes exactly one argument (%d given)", len(args)-1)
		}
		spec, ok := args[1].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "format_spec must be a str, not %s", python.TypeName(args[1]))
		}
		v := args[0]
		if o, ok := v.(*python.Instance); ok && o.Base() != nil {
			v = o.Base()
		} else {
			v = memberValue(v)
		}
		r, err := python.Format(t, v, spec.String())
		return str(r), err
	})
}

// dataStrOf is the mixed-in data type's str() of a member.
func (st *state) dataStrOf(t *python.Thread, m obj) (string, error) {
	if o, ok := m.(*python.Instance); ok && o.Base() != nil {
		return python.StrOf(t, o.Base())
	}
	i := memberInfo(m)
	if i != nil && i.memberType != python.ObjectType {
		for _, n := range []string{"__str__", "__repr__"} {
			if f, owner := lookupOwner(i.memberType, n); owner != nil && owner != python.ObjectType {
				r, err := python.Call(t, python.NewMethodObject(f, m), nil, nil)
				if err != nil {
					return "", err
				}
				return python.StrValue(r), nil
			}
		}
	}
	return python.Repr(t, memberValue(m))
}

// memberDir is Enum.__dir__ (a simplified one: the public names).
func (st *state) memberDir(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	self := args[0]
	names := map[string]bool{"__class__": true, "__doc__": true, "__eq__": true, "__hash__": true, "__module__": true}
	i := memberInfo(self)
	if o, ok := self.(*python.Instance); ok {
		o.Attrs().Items(func(k, _ obj) bool {
			n := python.StrValue(k)
			if n != "" && n[0] != '_' {
				if _, isMember := i.members.GetStr(n); !isMember {
					names[n] = true
				}
			}
			return true
		})
	}
	for _, c := range self.Type().MRO() {
		if c.IsBuiltin() {
			continue
		}
		c.Dict().Items(func(k, v obj) bool {
			n := python.StrValue(k)
			if n == "" || n[0] == '_' {
				return true
			}
			if _, isMember := i.members.GetStr(n); !isMember {
				names[n] = true
			}
			return true
		})
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	sortStrings(out)
	return strList(out), nil
}

// enumGenerate is Enum._generate_next_value_.
func enumGenerate(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := python.UnpackArgs("_generate_next_value_", args, kwargs, 4, "name", "start", "count", "last_values")
	if err != nil {
		return nil, err
	}
	last, err := python.ToSlice(t, a[3])
	if err != nil {
		return nil, err
	}
	if len(last) == 0 {
		return a[1], nil
	}
	lastValue := last[len(last)-1]
	sorted := python.NewList(append([]obj(nil), last...))
	if _, err := python.CallMethod(t, sorted, "sort", nil, nil); err == nil {
		items := sorted.Items()
		if eq, err := python.Equal(t, lastValue, items[len(items)-1]); err == nil && eq {
			if r, err := python.Binary(t, addOp, lastValue, python.MakeInt(1)); err == nil {
				return r, nil
			} else if !python.IsInstance(err, python.TypeErrorType) {
				return nil, err
			}
		} else if err != nil && !python.IsInstance(err, python.TypeErrorType) {
			return nil, err
		}
	} else if !python.IsInstance(err, python.TypeErrorType) {
		return nil, err
	}
	// The older rule (CPython also warns here), over the values as the
	// attempt to sort them left them.
	last = sorted.Items()
	for k := len(last) - 1; k >= 0; k-- {
		r, err := python.Binary(t, addOp, last[k], python.MakeInt(1))
		if err == nil {
			return r, nil
		}
		if !python.IsInstance(err, python.TypeErrorType) {
			return nil, err
		}
	}
	return a[1], nil
}

// strEnumNew is StrEnum.__new__(cls, *values).
func strEnumNew(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(args) == 0 {
		return nil, python.Errorf(python.TypeErrorType, "StrEnum.__new__() missing 1 required positional argument: 'cls'")
	}
	cls, ok := args[0].(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "str.__new__(X): X is not a type object (%s)", python.TypeName(args[0]))
	}
	values := args[1:]
	if len(values) > 3 {
		r, _ := python.Repr(t, python.NewTuple(values))
		return nil, python.Errorf(python.TypeErrorType, "too many arguments for str(): %s", r)
	}
	if len(values) == 1 && !python.IsStr(values[0]) {
		r, err := python.Repr(t, values[0])
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "%s is not a string", r)
	}
	if len(values) >= 2 && !python.IsStr(values[1]) {
		r, _ := python.Repr(t, values[1])
		return nil, python.Errorf(python.TypeErrorType, "encoding must be a string, not %s", r)
	}
	if len(values) == 3 && !python.IsStr(values[2]) {
		r, _ := python.Repr(t, values[2])
		return nil, python.Errorf(python.TypeErrorType, "errors must be a string, not %s", r)
	}
	value, err := python.Call(t, python.StrType, values, kwargs)
	if err != nil {
		return nil, err
	}
	m, err := objectNew(t, cls, []obj{value})
	if err != nil {
		return nil, err
	}
	if err := python.SetAttr(t, m, "_value_", value); err != nil {
		return nil, err
	}
	return m, nil
}

// initSubclass is the __init_subclass__ of enum classes: it takes the
// boundary class keyword of flags.
func (st *state) initSubclass(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	cls, _ := args[0].(*python.Type)
	for _, kw := range kwargs {
		if kw.Name != "boundary" {
			return nil, python.Errorf(python.TypeErrorType, "%s.__init_subclass__() takes no keyword arguments", cls.Name())
		}
		if i := infoOf(cls); i != nil && kw.Value != python.None {
			i.boundary = kw.Value
			if i.isFlag {
				cls.Dict().SetStr("_boundary_", kw.Value)
			}
		}
	}
	return python.None, nil
}

// classIter iterates an enum class: its members in definition order.
func (st *state) classIter(t *python.Thread, cls *python.Type) (obj, error) {
	i, err := enumInfo(cls)
	if err != nil {
		return nil, err
	}
	names := append([]obj(nil), i.names.Items()...)
	k := 0
	return python.NewIterator(st.genType, func(t *python.Thread) (obj, error) {
		if k >= len(names) {
			return nil, nil
		}
		m, ok := i.members.GetStr(python.StrValue(names[k]))
		k++
		if !ok {
			return nil, python.NewException(python.KeyErrorType, names[k-1])
		}
		return m, nil
	}), nil
}

// classGetItem is cls[name].
func (st *state) classGetItem(t *python.Thread, cls *python.Type, key obj) (obj, error) {
	i, err := enumInfo(cls)
	if err != nil {
		return nil, err
	}
	return python.GetItem(t, i.members, key)
}

// classContains is `x in cls`: a member, or the value of one.
func (st *state) classContains(t *python.Thread, cls *python.Type, x obj) (bool, error) {
	if ok, err := python.IsInstanceOf(t, x, cls); err != nil || ok {
		return ok, err
	}
	i, err := enumInfo(cls)
	if err != nil {
		return false, err
	}
	if ok, err := python.Contains(t, i.byValue, x); err != nil || ok {
		return ok, err
	}
	return python.Contains(t, i.unhashable, x)
}

// unique is the enum.unique class decorator.
func (st *state) unique(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "unique", Pos: []string{"enumeration"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	cls, ok := a[0].(*python.Type)
	var i *info
	if ok {
		i = infoOf(cls)
	}
	if i == nil {
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute '__members__'", python.TypeName(a[0]))
	}
	var dups []string
	i.members.Items(func(k, m obj) bool {
		if n := python.StrValue(memberName(m)); n != python.StrValue(k) {
			dups = append(dups, python.StrValue(k)+" -> "+n)
		}
		return true
	})
	if len(dups) > 0 {
		r, _ := python.Repr(t, cls)
		return nil, python.Errorf(python.ValueErrorType, "duplicate values found in %s: %s", r, strings.Join(dups, ", "))
	}
	return cls, nil
}

// classSetAttr is EnumType.__setattr__ and __delattr__: a member cannot be
// reassigned or deleted.
func classSetAttr(t *python.Thread, cls *python.Type, name string, v obj) error {
	i := infoOf(cls)
	if i == nil || i.members == nil {
		return nil
	}
	if _, ok := i.members.GetStr(name); !ok {
		return nil
	}
	if v == nil {
		return python.Errorf(python.AttributeErrorType, "%s cannot delete member %s.", python.StrRepr(cls.Name()), python.StrRepr(name))
	}
	return python.Errorf(python.AttributeErrorType, "cannot reassign member %s", python.StrRepr(name))
}
