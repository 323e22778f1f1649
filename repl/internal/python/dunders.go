package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// initMoreDunders gives the built-in types the remaining special methods
// CPython's have (so that dir() lists what CPython lists and explicit
// calls such as (5).__divmod__(2) work): each does what the operator or
// built-in function does for the type's own values and returns
// NotImplemented for operands the type does not handle.
func initMoreDunders() {
	unary := func(c *Type, name string, op syntax.UnaryOperator) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if err := nargs(name, args[1:], kwargs, 0, 0); err != nil {
				return nil, err
			}
			return Unary(t, op, unwrap(args[0]))
		})
	}
	divmods := func(c *Type) {
		for _, n := range []string{"__divmod__", "__rdivmod__"} {
			numberSlot(c, n, n == "__rdivmod__", divmod)
		}
	}
	newargs := func(c *Type) {
		method(c, "__getnewargs__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if err := nargs("__getnewargs__", args[1:], kwargs, 0, 0); err != nil {
				return nil, err
			}
			return NewTuple([]Object{unwrap(args[0])}), nil
		})
	}
	classGetItem := func(c *Type) {
		classMethod(c, "__class_getitem__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if err := nargs("__class_getitem__", args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			return NewGenericAlias(args[0], args[1]), nil
		})
	}

	i := IntType
	addDunders(i, "__rlshift__", "__rrshift__")
	unary(i, "__pos__", syntax.UAdd)
	unary(i, "__invert__", syntax.Invert)
	divmods(i)
	newargs(i)

	f := FloatType
	unary(f, "__pos__", syntax.UAdd)
	divmods(f)
	newargs(f)
	classMethod(f, "__getformat__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("__getformat__", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		s, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "__getformat__() argument must be str, not %s", typeName(args[1]))
		}
		if s.s != "double" && s.s != "float" {
			return nil, Errorf(ValueErrorType, "__getformat__() argument 1 must be 'double' or 'float'")
		}
		return NewStr("IEEE, little-endian"), nil
	})

	z := ComplexType
	unary(z, "__pos__", syntax.UAdd)
	unary(z, "__neg__", syntax.USub)
	addDunders(z, "__bool__")
	newargs(z)
	method(z, "__complex__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("__complex__", args[1:], kwargs, 0, 0); err != nil {
			return nil, err
		}
		return unwrap(args[0]), nil
	})

	s := StrType
	newargs(s)
	method(s, "__rmod__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		if _, ok := unwrap(args[1]).(*Str); !ok {
			return NotImplemented, nil
		}
		return Binary(t, syntax.Mod, args[1], args[0])
	})

	for _, c := range []*Type{ListType, TupleType, DictType, SetType, FrozenSetType} {
		classGetItem(c)
	}
	inplace := func(c *Type, name string, op syntax.Operator) {
		method(c, name, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			if len(args) != 2 {
				return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
			}
			return Inplace(t, op, unwrap(args[0]), args[1])
		})
	}
	inplace(ListType, "__imul__", syntax.Mult)
	inplace(DictType, "__ior__", syntax.BitOr)
	reflectedSet := func(c *Type, name string, op syntax.Operator) {
		method(c, name, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			if len(args) != 2 {
				return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
			}
			a, b := unwrap(args[0]), unwrap(args[1])
			if _, ok := b.(*Dict); c == DictType && !ok {
				return NotImplemented, nil
			}
			if _, ok := b.(*Set); c != DictType && !ok {
				return NotImplemented, nil
			}
			return Binary(t, op, b, a)
		})
	}
	reflectedSet(DictType, "__ror__", syntax.BitOr)
	for _, c := range []*Type{SetType, FrozenSetType} {
		reflectedSet(c, "__rand__", syntax.BitAnd)
		reflectedSet(c, "__ror__", syntax.BitOr)
		reflectedSet(c, "__rsub__", syntax.Sub)
		reflectedSet(c, "__rxor__", syntax.BitXor)
	}

	addDunders(NoneTypeType, "__bool__")
	addDunders(RangeType, "__bool__", "__contains__", "__getitem__", "__iter__", "__len__")

	call := func(c *Type) {
		method(c, "__call__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			return Call(t, args[0], args[1:], kwargs)
		})
	}
	call(MethodType)
	call(BuiltinFunctionType)

	md := MemberDescriptorType
	method(md, "__get__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) < 2 || len(args) > 3 {
			return nil, Errorf(TypeErrorType, "expected 1 or 2 arguments, got %d", len(args)-1)
		}
		if args[1] == None {
			return args[0], nil
		}
		return args[0].(*memberDescriptor).get(args[1])
	})
	method(md, "__set__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 3 {
			return nil, Errorf(TypeErrorType, "expected 2 arguments, got %d", len(args)-1)
		}
		return None, args[0].(*memberDescriptor).set(args[1], args[2])
	})
	method(md, "__delete__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		return None, args[0].(*memberDescriptor).del(t, args[1])
	})
	getset(md, "__name__", func(_ *Thread, x Object) (Object, error) { return NewStr(x.(*memberDescriptor).name), nil })
	getset(md, "__qualname__", func(_ *Thread, x Object) (Object, error) {
		m := x.(*memberDescriptor)
		return NewStr(m.owner.qualname + "." + m.name), nil
	})
	getset(md, "__objclass__", func(_ *Thread, x Object) (Object, error) { return x.(*memberDescriptor).owner, nil })

	e := BaseExceptionType
	e.dict.SetStr("__dict__", instanceDictDescriptor(e))
	method(e, "__setstate__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "__setstate__() takes exactly one argument (%d given)", len(args)-1)
		}
		if args[1] == None {
			return None, nil
		}
		st, ok := args[1].(*Dict)
		if !ok {
			return nil, Errorf(TypeErrorType, "state is not a dictionary")
		}
		var err error
		st.Items(func(k, v Object) bool {
			err = SetAttr(t, args[0], StrValue(k), v)
			return err == nil
		})
		return None, err
	})
}

// numberSlot binds the binary special method n of c as CPython's number
// slots behave: NotImplemented for an operand the slot does not take,
// else f on the operands (swapped when reflected).
func numberSlot(c *Type, n string, reflected bool, f func(t *Thread, a, b Object) (Object, error)) {
	method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		if !numberSlotAccepts(c, args[1]) {
			return NotImplemented, nil
		}
		a, b := unwrap(args[0]), unwrap(args[1])
		if reflected {
			a, b = b, a
		}
		return f(t, a, b)
	})
}
