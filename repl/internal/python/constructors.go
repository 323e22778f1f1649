package python

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// Constructors of the built-in types (type.__new__ and friends).

func typeNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if len(args) == 1 && len(kwargs) == 0 {
		return args[0].Type(), nil
	}
	if len(args) != 3 {
		return nil, Errorf(TypeErrorType, "type() takes 1 or 3 arguments")
	}
	name, ok := args[0].(*Str)
	if !ok {
		return nil, Errorf(TypeErrorType, "type.__new__() argument 1 must be str, not %s", typeName(args[0]))
	}
	bt, ok := args[1].(*Tuple)
	if !ok {
		return nil, Errorf(TypeErrorType, "type.__new__() argument 2 must be tuple, not %s", typeName(args[1]))
	}
	ns, ok := args[2].(*Dict)
	if !ok {
		return nil, Errorf(TypeErrorType, "type.__new__() argument 3 must be dict, not %s", typeName(args[2]))
	}
	var bases []*Type
	for _, b := range bt.items {
		bc, ok := b.(*Type)
		if !ok {
			return nil, Errorf(TypeErrorType, "bases must be types")
		}
		bases = append(bases, bc)
	}
	meta := cls
	if meta == TypeType {
		meta = nil
	}
	c, err := NewClass(t, meta, name.s, bases, ns.Copy())
	if err != nil {
		return nil, err
	}
	if c.meta == nil {
		c.meta = TypeType
	}
	return c, nil
}

func intNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	var a [2]Object // x, base
	if len(kwargs) == 0 && len(args) <= 2 {
		copy(a[:], args) // int(x), int(x, base): without UnpackArgs's slices
	} else {
		v, err := UnpackArgs("int", args, kwargs, 0, "x", "/", "base")
		if err != nil {
			return nil, err
		}
		copy(a[:], v)
	}
	v, err := toInt(t, a[0], a[1])
	if err != nil {
		return nil, err
	}
	if cls != IntType {
		return &Instance{cls: cls, dict: NewDict(2), base: v}, nil
	}
	return v, nil
}

// parseIntBytes is int(b, base) of bytes or a bytearray.
func parseIntBytes(b string, base int) (Object, error) {
	small, v, err := pyfmt.ParseIntBytes(b, base, maxIntDigits)
	if err != nil {
		return nil, fromKernel(err)
	}
	if v != nil {
		return MakeBigInt(v), nil
	}
	return MakeInt(small), nil
}

// toInt implements int(x) and int(x, base).
func toInt(t *Thread, x, base Object) (Object, error) {
	if x == nil {
		if base != nil {
			return nil, Errorf(TypeErrorType, "int() missing string argument")
		}
		return Int(0), nil
	}
	if base != nil {
		b, err := argInt(t, "int", base)
		if err != nil {
			return nil, err
		}
		switch v := x.(type) {
		case *Str:
			return ParseInt(v.s, int(b))
		case *Bytes:
			return parseIntBytes(v.b, int(b))
		case *ByteArray:
			return parseIntBytes(string(v.b), int(b))
		}
		return nil, Errorf(TypeErrorType, "int() can't convert non-string with explicit base")
	}
	switch v := x.(type) {
	case Int, *BigInt:
		return v, nil
	case Bool:
		if v {
			return Int(1), nil
		}
		return Int(0), nil
	case Float:
		return floatToInt(float64(v))
	case *Str:
		return ParseInt(v.s, 10)
	case *Bytes:
		return parseIntBytes(v.b, 10)
	case *ByteArray:
		return parseIntBytes(string(v.b), 10)
	case *Instance:
		for _, name := range []string{"__int__", "__index__", "__trunc__"} {
			if m := v.cls.userMethod(name); m != nil {
				r, err := callMethod(t, m, v, nil, nil)
				if err != nil {
					return nil, err
				}
				if iv, ok := intValue(r); ok {
					return iv, nil
				}
				return nil, Errorf(TypeErrorType, "%s returned non-int (type %s)", name, typeName(r))
			}
		}
		if v.base != nil {
			return toInt(t, v.base, nil)
		}
	case *hostStr:
		s, err := v.materialize(t)
		if err != nil {
			return nil, err
		}
		return ParseInt(s.s, 10)
	}
	if iv, ok := x.(interface {
		PyInt(t *Thread) (Object, error)
	}); ok {
		return iv.PyInt(t)
	}
	return nil, Errorf(TypeErrorType, "int() argument must be a string, a bytes-like object or a real number, not '%s'", typeName(x))
}

func floatToInt(f float64) (Object, error) {
	small, b, err := pyfmt.FloatToInt(f)
	if err != nil {
		return nil, fromKernel(err)
	}
	if b != nil {
		return MakeBigInt(b), nil
	}
	return MakeInt(small), nil
}

// ParseInt parses an int literal as int(s, base) does.
var ParseInt = func(s string, base int) (Object, error) {
	orig := s
	bad := func() error {
		return Errorf(ValueErrorType, "invalid literal for int() with base %d: %s", base, StrRepr(orig))
	}
	if base != 0 && (base < 2 || base > 36) {
		return nil, Errorf(ValueErrorType, "int() base must be >= 2 and <= 36, or 0")
	}
	s = strings.TrimFunc(s, unicode.IsSpace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	b := base
	if len(s) >= 2 && s[0] == '0' {
		p := s[1] | 0x20
		switch {
		case p == 'x' && (b == 16 || b == 0):
			b, s = 16, s[2:]
		case p == 'o' && (b == 8 || b == 0):
			b, s = 8, s[2:]
		case p == 'b' && (b == 2 || b == 0):
			b, s = 2, s[2:]
		}
		if b != base && strings.HasPrefix(s, "_") {
			s = s[1:]
		}
	}
	if b == 0 {
		b = 10
		if len(s) > 1 && s[0] == '0' {
			if strings.Trim(s, "0_") != "" {
				return nil, bad()
			}
		}
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return nil, bad()
	}
	digits := strings.ReplaceAll(s, "_", "")
	for _, r := range digits {
		if r > 127 {
			// Unicode decimal digits are accepted by int().
			if d := unicodeDigit(r); d < 0 || d >= b {
				return nil, bad()
			}
		}
	}
	digits = asciiDigits(digits)
	if b&(b-1) != 0 && len(digits) > maxIntDigits {
		return nil, Errorf(ValueErrorType, "Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxIntDigits, len(digits))
	}
	if n, err := strconv.ParseInt(digits, b, 64); err == nil {
		if neg {
			n = -n
		}
		return MakeInt(n), nil
	}
	v, ok := new(big.Int).SetString(digits, b)
	if !ok {
		return nil, bad()
	}
	if neg {
		v.Neg(v)
	}
	return MakeBigInt(v), nil
}

func unicodeDigit(r rune) int {
	if unicode.Is(unicode.Nd, r) {
		// Decimal digits come in runs of ten starting at a multiple of
		// 16 or so; find the zero of the run.
		z := r
		for z > 0 && unicode.Is(unicode.Nd, z-1) && r-z < 9 {
			z--
		}
		return int(r - z)
	}
	return -1
}

func asciiDigits(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r > 127 {
			b.WriteByte(byte('0' + unicodeDigit(r)))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func boolNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("bool", args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return False, nil
	}
	b, err := TruthE(t, args[0])
	return MakeBool(b), err
}

func floatNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("float", args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	var v Object = Float(0)
	if len(args) == 1 {
		var err error
		if v, err = toFloat(t, args[0]); err != nil {
			return nil, err
		}
	}
	if cls != FloatType {
		return &Instance{cls: cls, dict: NewDict(2), base: v}, nil
	}
	return v, nil
}

func toFloat(t *Thread, x Object) (Object, error) {
	switch v := x.(type) {
	case Float:
		return v, nil
	case *Str:
		f, err := ParseFloat(v.s)
		return Float(f), err
	case *Bytes, *ByteArray:
		var b string
		if by, ok := v.(*Bytes); ok {
			b = by.b
		} else {
			b = string(v.(*ByteArray).b)
		}
		f, err := ParseFloat(b)
		if err != nil && IsInstance(err, ValueErrorType) {
			r, rerr := Repr(t, v)
			if rerr != nil {
				return nil, rerr
			}
			return nil, Errorf(ValueErrorType, "could not convert string to float: %s", r)
		}
		return Float(f), err
	case *Instance:
		if m := v.cls.userMethod("__float__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return nil, err
			}
			if _, ok := r.(Float); !ok {
				return nil, Errorf(TypeErrorType, "%s.__float__ returned non-float (type %s)", v.cls.name, typeName(r))
			}
			return r, nil
		}
		if m := v.cls.userMethod("__index__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return nil, err
			}
			return toFloat(t, r)
		}
		if v.base != nil {
			return toFloat(t, v.base)
		}
	case *hostStr:
		s, err := v.materialize(t)
		if err != nil {
			return nil, err
		}
		f, err := ParseFloat(s.s)
		return Float(f), err
	}
	if f, ok, err := floatValue(x); ok {
		return Float(f), err
	}
	if fv, ok := x.(interface {
		PyFloat(t *Thread) (float64, error)
	}); ok {
		f, err := fv.PyFloat(t)
		return Float(f), err
	}
	return nil, Errorf(TypeErrorType, "float() argument must be a string or a real number, not '%s'", typeName(x))
}

// ParseFloat parses a float literal as float(s) does.
var ParseFloat = func(s string) (float64, error) {
	orig := s
	s = strings.TrimFunc(s, unicode.IsSpace)
	bad := Errorf(ValueErrorType, "could not convert string to float: %s", StrRepr(orig))
	if s == "" {
		return 0, bad
	}
	body := s
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if s[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "nan":
		return math.NaN(), nil
	}
	if strings.Contains(s, "_") {
		for i := 0; i < len(s); i++ {
			if s[i] == '_' && (i == 0 || i == len(s)-1 || !isDigitByte(s[i-1]) || !isDigitByte(s[i+1])) {
				return 0, bad
			}
		}
		s = strings.ReplaceAll(s, "_", "")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigitByte(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, bad
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, nil
		}
		return 0, bad
	}
	return f, nil
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func complexNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("complex", args, kwargs, 0, "real", "imag")
	if err != nil {
		return nil, err
	}
	r, i := a[0], a[1]
	if r == nil {
		r = False
	}
	if s, ok := r.(*Str); ok {
		if i != nil {
			return nil, Errorf(TypeErrorType, "complex() can't take second arg if first is a string")
		}
		re, im, err := pyfmt.ParseComplex(s.s)
		if err != nil {
			return nil, fromKernel(err)
		}
		return Complex(complex(re, im)), nil
	}
	if _, ok := i.(*Str); ok {
		return nil, Errorf(TypeErrorType, "complex() second arg can't be a string")
	}
	// As CPython's complex_new: __complex__, else a complex, else
	// float(r); then the second argument.
	var cr complex128
	crComplex := false
	if m := complexMethod(r); m != nil {
		v, err := callMethod(t, m, r, nil, nil)
		if err != nil {
			return nil, err
		}
		c, ok := unwrap(v).(Complex)
		if !ok {
			return nil, Errorf(TypeErrorType, "__complex__ returned non-complex (type %s)", typeName(v))
		}
		cr, crComplex = complex128(c), true
	} else if c, ok := unwrap(r).(Complex); ok {
		if i == nil && r.Type() == ComplexType {
			return r, nil
		}
		cr, crComplex = complex128(c), true
	} else {
		f, ok, err := numberFloat(t, r)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Errorf(TypeErrorType, "complex() first argument must be a string or a number, not '%s'", typeName(r))
		}
		cr = complex(f, 0)
	}
	var ciRe, ciIm float64
	ciComplex := false
	switch {
	case i == nil:
		ciRe = imag(cr)
	default:
		if c, ok := unwrap(i).(Complex); ok {
			ciRe, ciIm, ciComplex = real(c), imag(c), true
			break
		}
		f, ok, err := numberFloat(t, i)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Errorf(TypeErrorType, "complex() second argument must be a number, not '%s'", typeName(i))
		}
		ciRe = f
	}
	re := real(cr)
	if ciComplex {
		re -= ciIm
	}
	if crComplex && i != nil {
		ciRe += imag(cr)
	}
	return Complex(complex(re, ciRe)), nil
}

// complexMethod returns the __complex__ method of x's class, if any.
func complexMethod(x Object) Object {
	if _, ok := x.(Complex); ok {
		return nil
	}
	return x.Type().userMethodOrBuiltin("__complex__")
}

// numberFloat is PyNumber_Float for a number (not a str): ok is false
// when x has neither __float__ nor __index__.
func numberFloat(t *Thread, x Object) (float64, bool, error) {
	if f, ok, err := floatValue(x); ok {
		return f, true, err
	}
	if x.Type().userMethodOrBuiltin("__float__") == nil && x.Type().userMethodOrBuiltin("__index__") == nil {
		if _, ok := x.(interface {
			PyFloat(t *Thread) (float64, error)
		}); !ok {
			return 0, false, nil
		}
	}
	v, err := toFloat(t, x)
	if err != nil {
		return 0, true, err
	}
	f, _, err := floatValue(v)
	return f, true, err
}

func strNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("str", args, kwargs, 0, "object", "encoding", "errors")
	if err != nil {
		return nil, err
	}
	var v Object = emptyStr
	switch {
	case a[0] == nil:
	case a[1] == nil && a[2] == nil:
		s, err := StrOf(t, a[0])
		if err != nil {
			return nil, err
		}
		if x, ok := a[0].(*Str); ok {
			v = x
		} else {
			v = NewStr(s)
		}
	default:
		b, ok := bytesLike(a[0])
		if !ok {
			return nil, Errorf(TypeErrorType, "decoding to str: need a bytes-like object, %s found", typeName(a[0]))
		}
		enc, errs := "utf-8", "strict"
		if a[1] != nil {
			enc = StrValue(a[1])
		}
		if a[2] != nil {
			errs = StrValue(a[2])
		}
		s, err := decodeBytes(b, enc, errs)
		if err != nil {
			return nil, err
		}
		v = NewStr(s)
	}
	if cls != StrType {
		return &Instance{cls: cls, dict: NewDict(2), base: v}, nil
	}
	return v, nil
}

func listNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if cls != ListType {
		return &Instance{cls: cls, dict: NewDict(2), base: NewList(nil)}, nil
	}
	return NewList(nil), nil
}

func tupleNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("tuple", args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	var v Object = emptyTuple
	if len(args) == 1 {
		if tv, ok := args[0].(*Tuple); ok {
			v = tv
		} else {
			items, err := ToSlice(t, args[0])
			if err != nil {
				return nil, err
			}
			v = NewTuple(items)
		}
	}
	if cls != TupleType {
		return &Instance{cls: cls, dict: NewDict(2), base: v}, nil
	}
	return v, nil
}

func dictNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if cls != DictType {
		return &Instance{cls: cls, dict: NewDict(2), base: NewDict(0)}, nil
	}
	return NewDict(0), nil
}

func setNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if cls != SetType {
		return &Instance{cls: cls, dict: NewDict(2), base: NewSet(false)}, nil
	}
	return NewSet(false), nil
}

func frozensetNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("frozenset", args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	s := NewSet(true)
	if len(args) == 1 {
		if fs, ok := args[0].(*Set); ok && fs.frozen && cls == FrozenSetType {
			return fs, nil
		}
		if err := s.Update(t, args[0]); err != nil {
			return nil, err
		}
	}
	if cls != FrozenSetType {
		return &Instance{cls: cls, dict: NewDict(2), base: s}, nil
	}
	return s, nil
}

func rangeNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := noKwargs("range", kwargs); err != nil {
		return nil, err
	}
	if len(args) > 3 {
		return nil, Errorf(TypeErrorType, "range expected at most 3 arguments, got %d", len(args))
	}
	var v [3]Object
	for i, a := range args {
		if n, ok := a.(Int); ok {
			v[i] = n
			continue
		}
		n, ok, err := bigIndexOf(t, a)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(a))
		}
		v[i] = MakeBigInt(n)
	}
	switch len(args) {
	case 0:
		return nil, Errorf(TypeErrorType, "range expected at least 1 argument, got 0")
	case 1:
		return makeRange(Int(0), v[0], Int(1)), nil
	case 2:
		return makeRange(v[0], v[1], Int(1)), nil
	}
	if n, ok := v[2].(Int); ok && n == 0 {
		return nil, Errorf(ValueErrorType, "range() arg 3 must not be zero")
	}
	return makeRange(v[0], v[1], v[2]), nil
}

func sliceNew(_ *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("slice", args, kwargs, 1, 3); err != nil {
		return nil, err
	}
	switch len(args) {
	case 1:
		return &Slice{Start: None, Stop: args[0], Step: None}, nil
	case 2:
		return &Slice{Start: args[0], Stop: args[1], Step: None}, nil
	}
	return &Slice{Start: args[0], Stop: args[1], Step: args[2]}, nil
}

func moduleNew(_ *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("module", args, kwargs, 1, "name", "doc")
	if err != nil {
		return nil, err
	}
	name, ok := a[0].(*Str)
	if !ok {
		return nil, Errorf(TypeErrorType, "module.__init__() argument 'name' must be str, not %s", typeName(a[0]))
	}
	m := NewModule(name.s)
	if a[1] != nil {
		m.dict.SetStr("__doc__", a[1])
	}
	return m, nil
}

func propertyNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("property", args, kwargs, 0, "fget", "fset", "fdel", "doc")
	if err != nil {
		return nil, err
	}
	p := &Property{fget: a[0], fset: a[1], fdel: a[2], doc: a[3]}
	if f, ok := a[0].(*Function); ok {
		p.name = f.name
		p.abstract = f.abstract
	}
	if p.doc == nil || p.doc == None {
		p.doc = getterDoc(t, p.fget)
		p.docFromGetter = p.doc != nil
	}
	return p, nil
}

// getterDoc is the __doc__ of a property's getter (nil when it has none).
func getterDoc(t *Thread, fget Object) Object {
	if fget == nil || fget == None {
		return nil
	}
	if f, ok := fget.(*Function); ok {
		if f.doc == nil || f.doc == None {
			return nil
		}
		return f.doc
	}
	d, err := getAttr(t, fget, "__doc__")
	if err != nil || d == nil || d == None {
		return nil
	}
	return d
}

func staticmethodNew(_ *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("staticmethod", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return &StaticMethod{fn: args[0]}, nil
}

func classmethodNew(_ *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("classmethod", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return &ClassMethod{fn: args[0]}, nil
}

// Super is super(): attribute lookup that starts after a class in the MRO
// of an object.
type Super struct {
	start *Type
	obj   Object // an instance, or a class for class methods
	objT  *Type
}

// Type returns super.
func (*Super) Type() *Type { return SuperType }

func superNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("super", args, kwargs, 0, 2); err != nil {
		return nil, err
	}
	var start *Type
	var obj Object
	switch len(args) {
	case 0:
		f := t.frame
		for f != nil && f.inlined {
			f = f.back
		}
		if f == nil || f.code == nil || len(f.code.ArgNames) == 0 {
			return nil, Errorf(RuntimeErrorType, "super(): no arguments")
		}
		r := f.code.paramSlots[0]
		if r.kind == varCell {
			obj = f.cells[r.index].v
		} else {
			obj = f.fast[r.index]
		}
		if obj == nil {
			return nil, Errorf(RuntimeErrorType, "super(): arg[0] deleted")
		}
		idx := -1
		for i, n := range f.code.cellNames {
			if n == "__class__" {
				idx = i
			}
		}
		if idx < 0 {
			return nil, Errorf(RuntimeErrorType, "super(): __class__ cell not found")
		}
		cv, ok := f.cells[idx].v.(*Type)
		if !ok {
			return nil, Errorf(RuntimeErrorType, "super(): empty __class__ cell")
		}
		start = cv
	case 1:
		return nil, NotSupported("unbound super objects", "pass the instance: super(Class, self)")
	default:
		c, ok := args[0].(*Type)
		if !ok {
			return nil, Errorf(TypeErrorType, "super() argument 1 must be a type, not %s", typeName(args[0]))
		}
		start, obj = c, args[1]
	}
	s := &Super{start: start, obj: obj}
	if c, ok := obj.(*Type); ok && c.IsSubtype(start) {
		s.objT = c
	} else if obj.Type().IsSubtype(start) {
		s.objT = obj.Type()
	} else {
		return nil, Errorf(TypeErrorType, "super(type, obj): obj must be an instance or subtype of type")
	}
	return s, nil
}

// lookup finds name in the MRO after start.
func (s *Super) lookup(t *Thread, name string) (Object, error) {
	mro := s.objT.mro
	i := 0
	for i < len(mro) && mro[i] != s.start {
		i++
	}
	for _, c := range mro[i+1:] {
		if v, ok := c.dict.GetStr(name); ok {
			if _, isType := s.obj.(*Type); isType && s.objT == s.obj {
				switch a := v.(type) {
				case *ClassMethod:
					return &Method{fn: a.fn, self: s.obj}, nil
				case *Builtin:
					if a.classMethod {
						return &Builtin{name: a.name, fn: a.fn, self: s.obj, classMethod: true, owner: a.owner}, nil
					}
				}
				return bind(t, v, nil, s.objT)
			}
			return bind(t, v, s.obj, s.objT)
		}
	}
	if name == "__class__" {
		return SuperType, nil
	}
	return nil, Errorf(AttributeErrorType, "'super' object has no attribute '%s'", name)
}
