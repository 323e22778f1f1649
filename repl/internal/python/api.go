package python

import (
	"math"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// The API library modules (packages under lib) build on.

// IntValue returns x as an int object when it is an int or a bool (or an
// int subclass instance).
func IntValue(x Object) (Object, bool) { return intValue(x) }

// ToBig returns an int object's value as a *big.Int (do not modify it).
func ToBig(x Object) *big.Int {
	v, ok := intValue(x)
	if !ok {
		return nil
	}
	return toBig(v)
}

// FloatValue returns x as a float64 when it is a float, an int or a bool.
func FloatValue(x Object) (float64, bool, error) { return floatValue(x) }

// IndexValue returns x as an index (ints, bools, __index__): ok is false
// when x is not one.
func IndexValue(t *Thread, x Object) (int64, bool, error) { return indexValue(t, x) }

// IndexClamped converts x as CPython's PyNumber_AsSsize_t(x, NULL): ok
// is false when x has no __index__; an int outside the int64 range is
// clamped to it (no error); an error __index__ raises is returned, and
// so is the TypeError for an __index__ that returns something other than
// an int.
func IndexClamped(t *Thread, x Object) (int64, bool, error) {
	switch v := x.(type) {
	case Int, Bool:
		return indexValue(t, x)
	case *BigInt:
		if v.v.Sign() < 0 {
			return math.MinInt64, true, nil
		}
		return math.MaxInt64, true, nil
	case *Instance:
		if iv, ok := intValue(v); ok {
			return IndexClamped(t, iv) // an int subclass: its value, as PyNumber_Index
		}
		if m := v.cls.userMethod("__index__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return 0, true, err
			}
			if _, ok := intValue(r); !ok {
				return 0, true, Errorf(TypeErrorType, "__index__ returned non-int (type %s)", typeName(r))
			}
			return IndexClamped(t, r)
		}
	}
	return 0, false, nil
}

// ArgInt returns an int argument, with Python's TypeError when it is not
// one.
func ArgInt(t *Thread, fn string, x Object) (int64, error) { return argInt(t, fn, x) }

// Unwrap returns the built-in value behind an instance of a subclass of a
// built-in type (a namedtuple's tuple), or x itself.
func Unwrap(x Object) Object { return unwrap(x) }

// Identical implements `is`.
func Identical(a, b Object) bool { return identical(a, b) }

// IsIterable reports whether iter(x) would succeed.
func IsIterable(x Object) bool { return isIterable(x) }

// IsInstanceOf implements isinstance(x, cls).
func IsInstanceOf(t *Thread, x, cls Object) (bool, error) { return isInstanceOf(t, x, cls, 0) }

// TypeName returns type(x).__name__.
func TypeName(x Object) string { return typeName(x) }

// AddMethod adds a Go method to a type: fn receives the receiver as
// args[0].
func (c *Type) AddMethod(name string, fn BuiltinFunc) { method(c, name, fn) }

// AddBorrowingMethod is AddMethod for a method that reads its argument
// slice only during the call and keeps neither it nor a part of it: a
// call site passes it the thread's argument stack instead of a new slice.
func (c *Type) AddBorrowingMethod(name string, fn BuiltinFunc) {
	b := NewMethod(c, name, fn)
	b.borrows = true
	c.dict.SetStr(name, b)
}

// AddClassMethod adds a Go class method: fn receives the class as args[0].
func (c *Type) AddClassMethod(name string, fn BuiltinFunc) { classMethod(c, name, fn) }

// AddStaticMethod adds a Go static method.
func (c *Type) AddStaticMethod(name string, fn BuiltinFunc) {
	c.dict.SetStr(name, &StaticMethod{fn: NewBuiltin(name, fn)})
}

// AddGetSet adds an attribute computed by get (and set, when not nil).
func (c *Type) AddGetSet(name string, get func(t *Thread, obj Object) (Object, error), set func(t *Thread, obj, v Object) error) {
	g := NewGetSet(name, get, set)
	g.owner = c
	c.dict.SetStr(name, g)
}

// SetMeta sets a class's metaclass (library metaclasses: enum, abc).
func (c *Type) SetMeta(m *Type) { c.meta = m }

// Bases returns the direct bases.
func (c *Type) Bases() []*Type { return c.bases }

// IsBuiltin reports whether the class is implemented in Go.
func (c *Type) IsBuiltin() bool { return c.builtin }

// SetModule sets __module__ of a Go-implemented class.
func (c *Type) SetModule(m string) { c.module = m }

// SetAbstract marks a function (or property, static or class method) as
// abstract (abc.abstractmethod).
func SetAbstract(x Object) {
	switch v := x.(type) {
	case *Function:
		v.abstract = true
		v.attrs().SetStr("__isabstractmethod__", True)
	case *Property:
		v.abstract = true
	case *StaticMethod:
		SetAbstract(v.fn)
	case *ClassMethod:
		SetAbstract(v.fn)
	}
}

// NewDictOf returns an empty dict of a Go-implemented dict subclass
// (Counter, defaultdict, OrderedDict).
func NewDictOf(cls *Type) *Dict {
	d := NewDict(8)
	if cls != DictType {
		d.cls = cls
	}
	return d
}

// Class returns the dict's class.
func (d *Dict) Class() *Type { return d.Type() }

// SetClass sets the dict's class (a Go-implemented subclass).
func (d *Dict) SetClass(cls *Type) { d.cls = cls }

// SetMissing sets what d[key] returns for a missing key (defaultdict,
// Counter).
func (d *Dict) SetMissing(f func(t *Thread, d *Dict, key Object) (Object, error)) { d.missing = f }

// Missing returns the missing-key hook.
func (d *Dict) Missing() func(t *Thread, d *Dict, key Object) (Object, error) { return d.missing }

// SetExtra sets the subclass's own state; if it has a method
// PyRepr(t *Thread, d *Dict) (string, error), repr(d) uses it.
func (d *Dict) SetExtra(x any) { d.extra = x }

// Extra returns the subclass's own state.
func (d *Dict) Extra() any { return d.extra }

// DictUpdate implements d.update(*args, **kwargs).
func DictUpdate(t *Thread, d *Dict, args []Object, kwargs []Kwarg) error {
	return dictUpdate(t, d, args, kwargs)
}

// ReprDict renders a dict's body {k: v, ...}.
func ReprDict(t *Thread, d *Dict) (string, error) { return reprDictBody(t, d) }

// ReprItems renders items between open and close, comma separated, with
// the cycle guard of container reprs (self: the container).
func ReprItems(t *Thread, self Object, open, close string, items []Object) (string, error) {
	return reprSeq(t, self, open, close, items, false)
}

// NewMethodObject binds fn to self, as reading a method off an instance
// does.
func NewMethodObject(fn, self Object) Object { return &Method{fn: fn, self: self} }

// NewStaticMethod and NewProperty wrap callables as staticmethod(fn) and
// property(fget, fset).
func NewStaticMethod(fn Object) Object { return &StaticMethod{fn: fn} }

// NewProperty returns property(fget, fset).
func NewProperty(fget, fset Object) Object { return &Property{fget: fget, fset: fset} }

// FunctionOf returns the function behind a method, static or class
// method, or x.
func FunctionOf(x Object) Object {
	switch v := x.(type) {
	case *Method:
		return v.fn
	case *StaticMethod:
		return v.fn
	case *ClassMethod:
		return v.fn
	}
	return x
}

// CallableName names a callable for messages ("f()").
func CallableName(x Object) string { return callableName(x) }

// Binary-operator protocol for Go-implemented types: PyBinary is called
// with reflected false for x op other and true for other op x; it returns
// NotImplemented for operand types it does not handle.
type BinaryOperand interface {
	PyBinary(t *Thread, op syntax.Operator, other Object, reflected bool) (Object, error)
}

// InplaceOperand is the in-place operator protocol (x op= other); return
// NotImplemented to fall back to the binary operator.
type InplaceOperand interface {
	PyInplace(t *Thread, op syntax.Operator, other Object) (Object, error)
}

// UnaryOperand is the unary operator protocol (-x, +x, ~x).
type UnaryOperand interface {
	PyUnary(t *Thread, op syntax.UnaryOperator) (Object, error)
}

// Truther is bool(x) for Go-implemented types.
type Truther interface {
	PyBool(t *Thread) (bool, error)
}

// Caller is x(...) for Go-implemented types.
type Caller interface {
	PyCall(t *Thread, args []Object, kwargs []Kwarg) (Object, error)
}

// Attrs is attribute access for Go-implemented types: PyGetAttr returns
// nil, nil for a missing attribute (the type's methods are looked up
// first).
type Attrs interface {
	PyGetAttr(t *Thread, name string) (Object, error)
}

// AttrSetter is attribute assignment for Go-implemented types.
type AttrSetter interface {
	PySetAttr(t *Thread, name string, v Object) error
}

// FrameCode returns the name of the function running in the thread's
// innermost frame and its line (for warnings and tracebacks).
func (t *Thread) FrameCode() (string, int) {
	f := t.frame
	for f != nil && f.inlined {
		f = f.back
	}
	if f == nil || f.code == nil {
		return "", 0
	}
	return f.code.Name, f.line
}

// Handled returns the exception being handled (sys.exc_info), or nil.
func (t *Thread) Handled() *Exception { return t.handled }

// Globals returns the globals of the innermost frame.
func (t *Thread) Globals() *Dict {
	if t.frame != nil {
		return t.frame.globals
	}
	return t.interp.globals
}

// NewThreadLike returns a thread for running library callbacks outside a
// cell (deterministic, no stdout), bounded by steps.
func NewThreadLike(t *Thread) *Thread { return t }

// ExceptionClass returns the built-in exception class named name, or nil.
func ExceptionClass(name string) *Type {
	for _, c := range builtinExceptions() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// FromKernel converts an error of the pystr or pyfmt kernels into the
// Python exception it names.
func FromKernel(err error) error { return fromKernel(err) }

// SetValue sets StopIteration's value (library generators).
func (e *Exception) SetValue(v Object) { e.value = v }

// Dict returns the exception's attribute dict.
func (e *Exception) Dict() *Dict { return e.dictOf() }

// Code returns a function's code: its name, parameter names and defaults
// (inspect-like needs of dataclasses and functools).
func (fn *Function) Code() *Code { return fn.code }

// Defaults returns the function's positional defaults.
func (fn *Function) Defaults() []Object { return fn.defaults }

// NewMappingProxy returns a read-only view of the mapping m
// (types.MappingProxyType(m)).
func NewMappingProxy(m Object) Object { return &MappingProxy{m: m} }

// Divmoder is divmod(x, other) (reflected: divmod(other, x)) for
// Go-implemented types; return NotImplemented for operand types it does
// not handle.
type Divmoder interface {
	PyDivmod(t *Thread, other Object, reflected bool) (Object, error)
}

// Solid returns the built-in type whose instance layout c's instances
// have (int for class X(int), object for plain classes): its __new__ is
// the one that can make c instances.
func (c *Type) Solid() *Type { return c.solid }

// SetPythonClass marks a Go-implemented type as one CPython defines in
// Python (fractions.Fraction, not a C type): error messages name it as
// 'Fraction', not 'fractions.Fraction'.
func (c *Type) SetPythonClass() { c.pythonClass = true }
