package python

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// Repr returns repr(x).
func Repr(t *Thread, x Object) (string, error) {
	switch v := x.(type) {
	case *Str:
		r := StrRepr(v.s)
		if t != nil && t.maxValue > 0 && int64(len(r)) > t.maxValue {
			return "", memoryError(int64(len(r)), t.maxValue)
		}
		return r, nil
	case Int:
		return strconv.FormatInt(int64(v), 10), nil
	case *BigInt:
		return bigIntString(v.v)
	case Bool:
		if v {
			return "True", nil
		}
		return "False", nil
	case NoneType:
		return "None", nil
	case Float:
		return FloatRepr(float64(v)), nil
	case Complex:
		return ComplexRepr(complex128(v)), nil
	case *List:
		if len(v.items) == 0 {
			return "[]", nil
		}
		if err := t.enterC(reprRecursion); err != nil {
			return "", err
		}
		defer t.leaveC()
		return reprSeq(t, v, "[", "]", v.items, false)
	case *Tuple:
		if len(v.items) == 0 {
			return "()", nil
		}
		if err := t.enterC(reprRecursion); err != nil {
			return "", err
		}
		defer t.leaveC()
		return reprSeq(t, v, "(", ")", v.items, len(v.items) == 1)
	case *Dict:
		if err := t.enterC(reprRecursion); err != nil {
			return "", err
		}
		defer t.leaveC()
		return reprDict(t, v)
	case *Set:
		if err := t.enterC(reprRecursion); err != nil {
			return "", err
		}
		defer t.leaveC()
		return reprSet(t, v)
	case *Range:
		if v.step == 1 {
			return fmt.Sprintf("range(%d, %d)", v.start, v.stop), nil
		}
		return fmt.Sprintf("range(%d, %d, %d)", v.start, v.stop, v.step), nil
	case *Bytes:
		r := BytesRepr(v.b)
		if t != nil && t.maxValue > 0 && int64(len(r)) > t.maxValue {
			return "", memoryError(int64(len(r)), t.maxValue)
		}
		return r, nil
	case *ByteArray:
		return byteArrayRepr("bytearray", string(v.b)), nil
	case *Type:
		if v.Hooks != nil && v.Hooks.Repr != nil {
			return v.Hooks.Repr(t, v)
		}
		return v.repr(), nil
	case *Function:
		return fmt.Sprintf("<function %s at %s>", v.qualname, addr(v)), nil
	case *Builtin:
		if v.self != nil {
			if _, isMod := v.self.(*Module); !isMod {
				return fmt.Sprintf("<built-in method %s of %s object at %s>", v.name, typeName(v.self), addr(v.self)), nil
			}
		}
		if v.method && v.owner != nil {
			return fmt.Sprintf("<method '%s' of '%s' objects>", v.name, v.owner.name), nil
		}
		return "<built-in function " + v.name + ">", nil
	case *Method:
		sr, err := Repr(t, v.self)
		if err != nil {
			return "", err
		}
		name := ""
		if f, ok := v.fn.(*Function); ok {
			name = f.qualname
		}
		return fmt.Sprintf("<bound method %s of %s>", name, sr), nil
	case *Module:
		return "<module '" + v.name + "'>", nil
	case *Exception:
		return reprException(t, v)
	case *Instance:
		return reprInstance(t, v)
	case ellipsisType:
		return "Ellipsis", nil
	case notImplementedType:
		return "NotImplemented", nil
	case *Slice:
		s1, _ := Repr(t, v.Start)
		s2, _ := Repr(t, v.Stop)
		s3, _ := Repr(t, v.Step)
		return "slice(" + s1 + ", " + s2 + ", " + s3 + ")", nil
	case *Property:
		return fmt.Sprintf("<property object at %s>", addr(v)), nil
	case *GetSet:
		if v.owner != nil {
			return fmt.Sprintf("<attribute '%s' of '%s' objects>", v.name, v.owner.name), nil
		}
	case *StaticMethod:
		r, err := Repr(t, v.fn)
		return "<staticmethod(" + r + ")>", err
	case *ClassMethod:
		r, err := Repr(t, v.fn)
		return "<classmethod(" + r + ")>", err
	case *Generator:
		return fmt.Sprintf("<generator object %s at %s>", v.frame.code.Qualname, addr(v)), nil
	case *Cell:
		return fmt.Sprintf("<cell at %s>", addr(v)), nil
	case *hostStr:
		return v.repr(t)
	}
	if r, ok := x.(interface {
		PyRepr(t *Thread) (string, error)
	}); ok {
		return r.PyRepr(t)
	}
	return fmt.Sprintf("<%s object at %s>", typeName(x), addr(x)), nil
}

// reprRecursion ends the message of a RecursionError raised by repr.
const reprRecursion = " while getting the repr of an object"

// addr renders a deterministic stand-in for an object's address.
func addr(x Object) string {
	var id uint64
	if h, ok := x.(hasIdentity); ok {
		id = h.ident()
	} else {
		id = newID()
	}
	return fmt.Sprintf("0x7f%010x", id*16)
}

// reprGuard tracks containers being rendered, for [...] on cycles.
func reprEnter(t *Thread, x Object) bool {
	if t == nil {
		return true
	}
	for _, y := range t.reprStack {
		if y == x {
			return false
		}
	}
	t.reprStack = append(t.reprStack, x)
	return true
}

func reprLeave(t *Thread) {
	if t != nil {
		t.reprStack = t.reprStack[:len(t.reprStack)-1]
	}
}

func reprSeq(t *Thread, self Object, open, close string, items []Object, trailing bool) (string, error) {
	if self != nil {
		// (A set's body comes with self nil: the set is on the stack.)
		if !reprEnter(t, self) {
			return open + "..." + close, nil
		}
		defer reprLeave(t)
	}
	var b strings.Builder
	b.WriteString(open)
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		r, err := Repr(t, it)
		if err != nil {
			return "", err
		}
		b.WriteString(r)
		if t != nil && b.Len() > int(t.maxValue) && t.maxValue > 0 {
			return "", memoryError(int64(b.Len()), t.maxValue)
		}
		if i&255 == 255 && t != nil {
			if err := t.Tick(1); err != nil {
				return "", err
			}
		}
	}
	if trailing {
		b.WriteString(",")
	}
	b.WriteString(close)
	return b.String(), nil
}

func reprDictBody(t *Thread, d *Dict) (string, error) {
	var b strings.Builder
	b.WriteString("{")
	first := true
	var err error
	i := 0
	d.Items(func(k, v Object) bool {
		if !first {
			b.WriteString(", ")
		}
		first = false
		var ks, vs string
		if ks, err = Repr(t, k); err != nil {
			return false
		}
		if vs, err = Repr(t, v); err != nil {
			return false
		}
		b.WriteString(ks)
		b.WriteString(": ")
		b.WriteString(vs)
		i++
		if t != nil && t.maxValue > 0 && b.Len() > int(t.maxValue) {
			err = memoryError(int64(b.Len()), t.maxValue)
			return false
		}
		return true
	})
	if err != nil {
		return "", err
	}
	b.WriteString("}")
	return b.String(), nil
}

func reprDict(t *Thread, d *Dict) (string, error) {
	if !reprEnter(t, d) {
		return "{...}", nil
	}
	defer reprLeave(t)
	if d.cls != nil {
		if r, ok := d.extra.(interface {
			PyRepr(t *Thread, d *Dict) (string, error)
		}); ok {
			return r.PyRepr(t, d)
		}
	}
	return reprDictBody(t, d)
}

func reprSet(t *Thread, s *Set) (string, error) {
	name := "set"
	if s.frozen {
		name = "frozenset"
	}
	if s.cls != nil {
		name = s.cls.name
	}
	return reprSetNamed(t, s, name)
}

// reprSetNamed renders a set as an instance of the class name: "{1}" for
// set itself, "name({1})" otherwise.
func reprSetNamed(t *Thread, s *Set, name string) (string, error) {
	if s.used == 0 {
		return name + "()", nil
	}
	if !reprEnter(t, s) {
		return name + "(...)", nil
	}
	defer reprLeave(t)
	body, err := reprSeq(t, nil, "{", "}", s.Elems(), false)
	if err != nil {
		return "", err
	}
	if name == "set" {
		return body, nil
	}
	return name + "(" + body + ")", nil
}

func reprException(t *Thread, e *Exception) (string, error) {
	if m := e.cls.userMethod("__repr__"); m != nil {
		return reprCall(t, m, e)
	}
	name := e.cls.name
	if e.args == nil || len(e.args.items) == 0 {
		return name + "()", nil
	}
	if len(e.args.items) == 1 {
		r, err := Repr(t, e.args.items[0])
		return name + "(" + r + ")", err
	}
	r, err := Repr(t, e.args)
	return name + r, err
}

func reprCall(t *Thread, m, self Object) (string, error) {
	r, err := callMethod(t, m, self, nil, nil)
	if err != nil {
		return "", err
	}
	s, ok := r.(*Str)
	if !ok {
		return "", Errorf(TypeErrorType, "__repr__ returned non-string (type %s)", typeName(r))
	}
	return s.s, nil
}

func reprInstance(t *Thread, o *Instance) (string, error) {
	if m := o.cls.userMethod("__repr__"); m != nil {
		return reprCall(t, m, o)
	}
	if _, owner := o.cls.lookupOwner("__repr__"); owner == SetType || owner == FrozenSetType || owner == ByteArrayType {
		// A set, frozenset or bytearray subclass is named: S({1}).
		switch b := o.base.(type) {
		case *Set:
			if err := t.enterC(reprRecursion); err != nil {
				return "", err
			}
			defer t.leaveC()
			return reprSetNamed(t, b, o.cls.name)
		case *ByteArray:
			return byteArrayRepr(o.cls.name, string(b.b)), nil
		}
	}
	if m, owner := o.cls.lookupOwner("__repr__"); owner != nil && owner != ObjectType {
		if b, ok := m.(*Builtin); ok {
			r, err := b.fn(t, []Object{o}, nil)
			if err != nil {
				return "", err
			}
			return StrValue(r), nil
		}
	}
	if o.base != nil {
		return Repr(t, o.base)
	}
	mod := o.cls.module
	if mod == "" || mod == "builtins" {
		return fmt.Sprintf("<%s object at %s>", o.cls.qualname, addr(o)), nil
	}
	return fmt.Sprintf("<%s.%s object at %s>", mod, o.cls.qualname, addr(o)), nil
}

// Str returns str(x).
func StrOf(t *Thread, x Object) (string, error) {
	switch v := x.(type) {
	case *Str:
		return v.s, nil
	case Int:
		return strconv.FormatInt(int64(v), 10), nil
	case *Exception:
		if m := v.cls.userMethod("__str__"); m != nil {
			return strCall(t, m, v)
		}
		if s, ok := v.specialStr(); ok {
			return s, nil
		}
		if v.args == nil {
			return "", nil
		}
		switch len(v.args.items) {
		case 0:
			return "", nil
		case 1:
			if v.cls.IsSubtype(KeyErrorType) {
				return Repr(t, v.args.items[0])
			}
			return StrOf(t, v.args.items[0])
		}
		return Repr(t, v.args)
	case *Instance:
		if m := v.cls.userMethod("__str__"); m != nil {
			return strCall(t, m, v)
		}
		if m := v.cls.userMethod("__repr__"); m != nil {
			return reprCall(t, m, v)
		}
		if m, owner := v.cls.lookupOwner("__str__"); owner != nil && owner != ObjectType {
			if b, ok := m.(*Builtin); ok {
				r, err := b.fn(t, []Object{v}, nil)
				if err != nil {
					return "", err
				}
				return StrValue(r), nil
			}
		}
		if v.base != nil {
			return StrOf(t, v.base)
		}
	case *hostStr:
		s, err := v.materialize(t)
		if err != nil {
			return "", err
		}
		return s.s, nil
	}
	if s, ok := x.(interface {
		PyStr(t *Thread) (string, error)
	}); ok {
		return s.PyStr(t)
	}
	return Repr(t, x)
}

func strCall(t *Thread, m, self Object) (string, error) {
	r, err := callMethod(t, m, self, nil, nil)
	if err != nil {
		return "", err
	}
	s, ok := r.(*Str)
	if !ok {
		return "", Errorf(TypeErrorType, "__str__ returned non-string (type %s)", typeName(r))
	}
	return s.s, nil
}

// StrValue returns the Go string of a str object ("" otherwise).
func StrValue(x Object) string {
	if s, ok := x.(*Str); ok {
		return s.s
	}
	return ""
}

func reprNoThread(x Object) string {
	s, err := Repr(nil, x)
	if err != nil {
		return "<?>"
	}
	return s
}

func strNoThread(x Object) string {
	s, err := StrOf(nil, x)
	if err != nil {
		return "<?>"
	}
	return s
}

// maxIntDigits is CPython's limit on int <-> decimal string conversion.
const maxIntDigits = 4300

func bigIntString(b *big.Int) (string, error) {
	s, err := pyfmt.IntString(b, maxIntDigits)
	return s, fromKernel(err)
}

// StrRepr returns the repr of a str: quoted as CPython quotes it.
func StrRepr(s string) string { return pystr.Repr(s) }

// byteArrayRepr renders a bytearray (of class name) as CPython does: the
// quote of bytes, but every ' escaped.
func byteArrayRepr(name, s string) string {
	return name + "(" + pyfmt.BytesRepr(s, true) + ")"
}

// BytesRepr returns the repr of bytes: b'...'.
func BytesRepr(s string) string { return pyfmt.BytesRepr(s, false) }
