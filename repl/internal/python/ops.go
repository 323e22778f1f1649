package python

import (
	"math"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// Operators: the Python protocol of binary, in-place, unary and rich
// comparison operations, with fast paths for the built-in types.

var binNames = [...][3]string{
	syntax.Add:      {"__add__", "__radd__", "__iadd__"},
	syntax.Sub:      {"__sub__", "__rsub__", "__isub__"},
	syntax.Mult:     {"__mul__", "__rmul__", "__imul__"},
	syntax.MatMult:  {"__matmul__", "__rmatmul__", "__imatmul__"},
	syntax.Div:      {"__truediv__", "__rtruediv__", "__itruediv__"},
	syntax.Mod:      {"__mod__", "__rmod__", "__imod__"},
	syntax.Pow:      {"__pow__", "__rpow__", "__ipow__"},
	syntax.LShift:   {"__lshift__", "__rlshift__", "__ilshift__"},
	syntax.RShift:   {"__rshift__", "__rrshift__", "__irshift__"},
	syntax.BitOr:    {"__or__", "__ror__", "__ior__"},
	syntax.BitXor:   {"__xor__", "__rxor__", "__ixor__"},
	syntax.BitAnd:   {"__and__", "__rand__", "__iand__"},
	syntax.FloorDiv: {"__floordiv__", "__rfloordiv__", "__ifloordiv__"},
}

var opSymbols = [...]string{
	syntax.Add: "+", syntax.Sub: "-", syntax.Mult: "*", syntax.MatMult: "@",
	syntax.Div: "/", syntax.Mod: "%", syntax.Pow: "** or pow()", syntax.LShift: "<<",
	syntax.RShift: ">>", syntax.BitOr: "|", syntax.BitXor: "^", syntax.BitAnd: "&",
	syntax.FloorDiv: "//",
}

// Binary returns a op b.
func Binary(t *Thread, op syntax.Operator, a, b Object) (Object, error) {
	// Fast paths: int and float arithmetic, str concatenation.
	switch x := a.(type) {
	case Int:
		if y, ok := b.(Int); ok {
			switch op {
			case syntax.Add:
				if s := x + y; (s > x) == (y > 0) {
					return MakeInt(int64(s)), nil
				}
			case syntax.Sub:
				if s := x - y; (s < x) == (y > 0) {
					return MakeInt(int64(s)), nil
				}
			case syntax.Mult:
				if x > -(1<<31) && x < 1<<31 && y > -(1<<31) && y < 1<<31 {
					return MakeInt(int64(x * y)), nil
				}
			case syntax.Mod:
				if y > 0 && x >= 0 {
					return MakeInt(int64(x % y)), nil
				}
			case syntax.FloorDiv:
				if y > 0 && x >= 0 {
					return MakeInt(int64(x / y)), nil
				}
			}
		}
	case Float:
		if y, ok := b.(Float); ok {
			switch op {
			case syntax.Add:
				return x + y, nil
			case syntax.Sub:
				return x - y, nil
			case syntax.Mult:
				return x * y, nil
			case syntax.Div:
				if y != 0 {
					return x / y, nil
				}
			}
		}
	case *Str:
		if y, ok := b.(*Str); ok && op == syntax.Add {
			return strConcat(t, x, y)
		}
	}
	return binarySlow(t, op, a, b, false)
}

func binarySlow(t *Thread, op syntax.Operator, a, b Object, inplace bool) (Object, error) {
	ta, tb := a.Type(), b.Type()
	if ta.builtin && tb.builtin {
		r, err := builtinBinary(t, op, a, b)
		if err != nil || r != NotImplemented {
			return r, err
		}
		return nil, binaryTypeError(op, a, b, inplace)
	}
	names := binNames[op]
	lm := ta.userMethod(names[0])
	var rm Object
	if ta != tb {
		rm = tb.userMethod(names[1])
	}
	if rm != nil && tb.IsSubtype(ta) {
		r, err := callMethod(t, rm, b, []Object{a}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
		rm = nil
	}
	if lm != nil {
		r, err := callMethod(t, lm, a, []Object{b}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
	} else {
		ub := unwrap(b)
		if op == syntax.Mod {
			// str % values formats the values themselves (an int
			// subclass's __str__, a tuple subclass's items).
			switch unwrap(a).(type) {
			case *Str, *Bytes, *ByteArray:
				ub = b
			}
		}
		r, err := builtinBinary(t, op, unwrap(a), ub)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	if rm != nil {
		r, err := callMethod(t, rm, b, []Object{a}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	return nil, binaryTypeError(op, a, b, inplace)
}

func binaryTypeError(op syntax.Operator, a, b Object, inplace bool) error {
	ua := unwrap(a)
	switch op {
	case syntax.Add:
		switch ua.(type) {
		case *Str:
			return Errorf(TypeErrorType, "can only concatenate str (not \"%s\") to str", typeName(b))
		case *List:
			return Errorf(TypeErrorType, "can only concatenate list (not \"%s\") to list", typeName(b))
		case *Tuple:
			return Errorf(TypeErrorType, "can only concatenate tuple (not \"%s\") to tuple", typeName(b))
		case *Bytes:
			return Errorf(TypeErrorType, "can't concat %s to bytes", typeName(b))
		}
	case syntax.Mult:
		switch ua.(type) {
		case *Str, *List, *Tuple, *Bytes:
			return Errorf(TypeErrorType, "can't multiply sequence by non-int of type '%s'", typeName(b))
		}
		switch unwrap(b).(type) {
		case *Str, *List, *Tuple, *Bytes:
			return Errorf(TypeErrorType, "can't multiply sequence by non-int of type '%s'", typeName(a))
		}
	}
	sym := opSymbols[op]
	if inplace {
		sym += "="
		if op == syntax.Pow {
			sym = "**="
		}
	}
	return Errorf(TypeErrorType, "unsupported operand type(s) for %s: '%s' and '%s'", sym, typeName(a), typeName(b))
}

// builtinBinary implements the operators of built-in types; it returns
// NotImplemented for unsupported operand types.
func builtinBinary(t *Thread, op syntax.Operator, a, b Object) (Object, error) {
	// Integers (bools included; bool & | ^ bool stays bool).
	if x, ok := intValue(a); ok {
		if y, ok := intValue(b); ok {
			if ba, ok := a.(Bool); ok {
				if bb, ok := b.(Bool); ok {
					switch op {
					case syntax.BitAnd:
						return MakeBool(bool(ba && bb)), nil
					case syntax.BitOr:
						return MakeBool(bool(ba || bb)), nil
					case syntax.BitXor:
						return MakeBool(ba != bb), nil
					}
				}
			}
			return intBinary(t, op, x, y)
		}
	}
	// Floats mixed with ints.
	if x, okx, err := floatValue(a); okx {
		if err != nil {
			if _, isF := b.(Float); isF {
				return nil, err
			}
		}
		if y, oky, err2 := floatValue(b); oky {
			if _, fa := a.(Float); fa || isFloat(b) {
				if err != nil {
					return nil, err
				}
				if err2 != nil {
					return nil, err2
				}
				return floatBinary(t, op, x, y)
			}
		}
	}
	// Complex.
	if isComplex(a) || isComplex(b) {
		x, okx := complexValue(a)
		y, oky := complexValue(b)
		if okx && oky {
			return complexBinary(op, x, y)
		}
	}
	if ha, ok := a.(*hostStr); ok && (op == syntax.Add || op == syntax.Mult || op == syntax.Mod) {
		s, err := ha.materialize(t)
		if err != nil {
			return nil, err
		}
		return builtinBinary(t, op, s, b)
	}
	if hb, ok := b.(*hostStr); ok && (op == syntax.Add || op == syntax.Mult) {
		if _, isStr := a.(*Str); isStr || op == syntax.Mult {
			s, err := hb.materialize(t)
			if err != nil {
				return nil, err
			}
			return builtinBinary(t, op, a, s)
		}
	}
	switch x := a.(type) {
	case *Str:
		switch op {
		case syntax.Add:
			if y, ok := b.(*Str); ok {
				return strConcat(t, x, y)
			}
		case syntax.Mult:
			if n, ok, err := indexValue(t, b); ok {
				if err != nil {
					return nil, overflowRepeat(err)
				}
				return strRepeat(t, x, n)
			}
		case syntax.Mod:
			return strPercent(t, x, b)
		}
	case *List:
		switch op {
		case syntax.Add:
			if y, ok := b.(*List); ok {
				if err := t.grow(int64(len(x.items)+len(y.items)) * 16); err != nil {
					return nil, err
				}
				out := make([]Object, 0, len(x.items)+len(y.items))
				return NewList(append(append(out, x.items...), y.items...)), nil
			}
		case syntax.Mult:
			if n, ok, err := indexValue(t, b); ok {
				if err != nil {
					return nil, overflowRepeat(err)
				}
				items, err := repeatItems(t, x.items, n)
				return NewList(items), err
			}
		}
	case *Tuple:
		switch op {
		case syntax.Add:
			if y, ok := b.(*Tuple); ok {
				out := make([]Object, 0, len(x.items)+len(y.items))
				return NewTuple(append(append(out, x.items...), y.items...)), nil
			}
		case syntax.Mult:
			if n, ok, err := indexValue(t, b); ok {
				if err != nil {
					return nil, overflowRepeat(err)
				}
				items, err := repeatItems(t, x.items, n)
				return NewTuple(items), err
			}
		}
	case *Bytes:
		switch op {
		case syntax.Add:
			if y, ok := bytesLike(b); ok {
				if err := t.grow(int64(len(x.b) + len(y))); err != nil {
					return nil, err
				}
				return NewBytes(x.b + y), nil
			}
		case syntax.Mult:
			if n, ok, err := indexValue(t, b); ok {
				if err != nil {
					return nil, overflowRepeat(err)
				}
				if n <= 0 {
					return NewBytes(""), nil
				}
				if err := t.grow(int64(len(x.b)) * n); err != nil {
					return nil, err
				}
				out := make([]byte, 0, len(x.b)*int(n))
				for i := int64(0); i < n; i++ {
					out = append(out, x.b...)
				}
				return NewBytes(string(out)), nil
			}
		case syntax.Mod:
			return bytesPercent(t, x, b)
		}
	case *ByteArray:
		return bytearrayBinary(t, op, x, b)
	case *Set:
		if y, ok := b.(*Set); ok {
			var r *Set
			var err error
			switch op {
			case syntax.BitOr:
				r, err = x.union(t, y)
			case syntax.BitAnd:
				r, err = x.intersection(t, y)
			case syntax.Sub:
				r, err = x.difference(t, y)
			case syntax.BitXor:
				r, err = x.symmetricDifference(t, y)
			default:
				return NotImplemented, nil
			}
			if r != nil {
				r.frozen = x.frozen
			}
			return r, err
		}
	case *Dict:
		if y, ok := b.(*Dict); ok && op == syntax.BitOr {
			if x.cls != nil && x.cls.solid != DictType {
				break
			}
			r := x.Copy()
			r.cls, r.missing, r.extra = x.cls, x.missing, x.extra
			var err error
			y.Items(func(k, v Object) bool { err = r.Set(t, k, v); return err == nil })
			return r, err
		}
	}
	if op == syntax.Mult {
		if n, ok, err := indexValue(t, a); ok {
			switch unwrap(b).(type) {
			case *Str, *List, *Tuple, *Bytes, *ByteArray:
				if err != nil {
					return nil, overflowRepeat(err)
				}
				return builtinBinary(t, op, unwrap(b), MakeInt(n))
			}
		}
	}
	if op == syntax.BitOr && isTypeForm(a) && isTypeForm(b) {
		return unionOf(a, b)
	}
	if ha, ok := a.(BinaryOperand); ok {
		r, err := ha.PyBinary(t, op, b, false)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	if hb, ok := b.(BinaryOperand); ok {
		r, err := hb.PyBinary(t, op, a, true)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	if hb, ok := b.(dictOperand); ok {
		return hb.dictBinary(t, op, a, true)
	}
	if ha, ok := a.(dictOperand); ok {
		return ha.dictBinary(t, op, b, false)
	}
	return NotImplemented, nil
}

// dictOperand is implemented by dict views, whose set operators take any
// iterable.
type dictOperand interface {
	dictBinary(t *Thread, op syntax.Operator, other Object, reflected bool) (Object, error)
}

func overflowRepeat(err error) error {
	if IsInstance(err, IndexErrorType) {
		return Errorf(OverflowErrorType, "cannot fit 'int' into an index-sized integer")
	}
	return err
}

func isFloat(x Object) bool {
	_, ok := x.(Float)
	return ok
}

func isComplex(x Object) bool {
	_, ok := x.(Complex)
	return ok
}

func complexValue(x Object) (complex128, bool) {
	switch v := x.(type) {
	case Complex:
		return complex128(v), true
	}
	if f, ok, err := floatValue(x); ok && err == nil {
		return complex(f, 0), true
	}
	return 0, false
}

func repeatItems(t *Thread, items []Object, n int64) ([]Object, error) {
	if n <= 0 || len(items) == 0 {
		return nil, nil
	}
	if int64(len(items)) > (1<<60)/n {
		return nil, t.grow(1 << 62)
	}
	if err := t.grow(int64(len(items)) * n * 16); err != nil {
		return nil, err
	}
	out := make([]Object, 0, int64(len(items))*n)
	for i := int64(0); i < n; i++ {
		out = append(out, items...)
	}
	return out, nil
}

func intBinary(t *Thread, op syntax.Operator, x, y Object) (Object, error) {
	switch op {
	case syntax.Add:
		return intAdd(x, y), nil
	case syntax.Sub:
		return intSub(x, y), nil
	case syntax.Mult:
		return intMul(t, x, y)
	case syntax.Div:
		return intTrueDiv(x, y)
	case syntax.FloorDiv:
		q, _, err := intFloorDivMod(t, x, y, true, false, "//")
		return q, err
	case syntax.Mod:
		_, r, err := intFloorDivMod(t, x, y, false, true, "%")
		return r, err
	case syntax.Pow:
		return intPow(t, x, y)
	case syntax.LShift:
		return intShift(t, x, y, true)
	case syntax.RShift:
		return intShift(t, x, y, false)
	case syntax.BitAnd:
		return intBitOp(x, y, '&'), nil
	case syntax.BitOr:
		return intBitOp(x, y, '|'), nil
	case syntax.BitXor:
		return intBitOp(x, y, '^'), nil
	}
	return NotImplemented, nil
}

func floatBinary(_ *Thread, op syntax.Operator, x, y float64) (Object, error) {
	switch op {
	case syntax.Add:
		return Float(x + y), nil
	case syntax.Sub:
		return Float(x - y), nil
	case syntax.Mult:
		return Float(x * y), nil
	case syntax.Div:
		if y == 0 {
			return nil, Errorf(ZeroDivisionErrorType, "float division by zero")
		}
		return Float(x / y), nil
	case syntax.FloorDiv:
		q, _, err := floatFloorDivMod(x, y, "//")
		return Float(q), err
	case syntax.Mod:
		_, r, err := floatFloorDivMod(x, y, "%")
		return Float(r), err
	case syntax.Pow:
		return floatPow(x, y)
	}
	return NotImplemented, nil
}

func complexBinary(op syntax.Operator, x, y complex128) (Object, error) {
	switch op {
	case syntax.Add:
		return Complex(x + y), nil
	case syntax.Sub:
		return Complex(x - y), nil
	case syntax.Mult:
		return Complex(x * y), nil
	case syntax.Div:
		if y == 0 {
			return nil, Errorf(ZeroDivisionErrorType, "complex division by zero")
		}
		return Complex(complexDiv(x, y)), nil
	case syntax.Pow:
		if x == 0 && (real(y) < 0 || imag(y) != 0) {
			return nil, Errorf(ZeroDivisionErrorType, "0.0 to a negative or complex power")
		}
		return Complex(complexPow(x, y)), nil
	}
	// complex has no //, % or bitwise operators.
	return NotImplemented, nil
}

// complexDiv divides as CPython's _Py_c_quot does (Smith's method).
func complexDiv(a, b complex128) complex128 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	absBr, absBi := math.Abs(br), math.Abs(bi)
	if absBr >= absBi {
		ratio := bi / br
		denom := br + bi*ratio
		return complex((ar+ai*ratio)/denom, (ai-ar*ratio)/denom)
	}
	ratio := br / bi
	denom := br*ratio + bi
	return complex((ar*ratio+ai)/denom, (ai*ratio-ar)/denom)
}

// Inplace returns a op= b.
func Inplace(t *Thread, op syntax.Operator, a, b Object) (Object, error) {
	switch x := a.(type) {
	case *List:
		switch op {
		case syntax.Add:
			if y, ok := b.(*List); ok {
				if err := t.grow(int64(len(x.items)+len(y.items)) * 16); err != nil {
					return nil, err
				}
				x.items = append(x.items, y.items...)
				return x, nil
			}
			items, err := ToSlice(t, b)
			if err != nil {
				return nil, err
			}
			x.items = append(x.items, items...)
			return x, nil
		case syntax.Mult:
			if n, ok, err := indexValue(t, b); ok {
				if err != nil {
					return nil, err
				}
				items, err := repeatItems(t, x.items, n)
				if err != nil {
					return nil, err
				}
				x.items = items
				return x, nil
			}
		}
	case *Set:
		if y, ok := b.(*Set); ok && !x.frozen {
			var err error
			switch op {
			case syntax.BitOr:
				err = x.merge(t, y)
			case syntax.BitAnd:
				var r *Set
				r, err = x.intersection(t, y)
				if err == nil {
					x.table, x.mask, x.fill, x.used = r.table, r.mask, r.fill, r.used
					x.version++
				}
			case syntax.Sub:
				err = x.differenceUpdate(t, y)
			case syntax.BitXor:
				err = x.symmetricDifferenceUpdate(t, y)
			default:
				return binarySlow(t, op, a, b, true)
			}
			return x, err
		}
	case *Dict:
		if op == syntax.BitOr && (x.cls == nil || x.cls.solid == DictType) {
			if err := dictUpdate(t, x, []Object{b}, nil); err != nil {
				return nil, err
			}
			return x, nil
		}
	case *ByteArray:
		return bytearrayInplace(t, op, x, b)
	case *Instance:
		if m := x.cls.userMethod(binNames[op][2]); m != nil {
			r, err := callMethod(t, m, a, []Object{b}, nil)
			if err != nil || r != NotImplemented {
				return r, err
			}
		} else if x.base != nil {
			switch base := x.base.(type) {
			case *List, *Dict, *Set:
				if _, err := Inplace(t, op, base, b); err != nil {
					return nil, err
				}
				return x, nil
			case InplaceOperand:
				r, err := base.PyInplace(t, op, b)
				if err != nil {
					return nil, err
				}
				if r == x.base {
					return x, nil
				}
				if r != NotImplemented {
					return r, nil
				}
			}
		}
	default:
		if ia, ok := a.(InplaceOperand); ok {
			r, err := ia.PyInplace(t, op, b)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
	}
	if _, isF := a.(Float); !isF {
		if _, isI := a.(Int); !isI {
			return binarySlow(t, op, a, b, true)
		}
	}
	return Binary(t, op, a, b)
}

// Unary returns op x.
func Unary(t *Thread, op syntax.UnaryOperator, x Object) (Object, error) {
	if op == syntax.Not {
		b, err := TruthE(t, x)
		if err != nil {
			return nil, err
		}
		return MakeBool(!b), nil
	}
	switch v := x.(type) {
	case Int:
		switch op {
		case syntax.USub:
			return intNeg(v), nil
		case syntax.UAdd:
			return v, nil
		case syntax.Invert:
			return MakeInt(^int64(v)), nil
		}
	case *BigInt:
		switch op {
		case syntax.USub:
			return intNeg(v), nil
		case syntax.UAdd:
			return v, nil
		case syntax.Invert:
			return MakeBigInt(new(big.Int).Not(v.v)), nil
		}
	case Bool:
		n := int64(0)
		if v {
			n = 1
		}
		return Unary(t, op, MakeInt(n))
	case Float:
		switch op {
		case syntax.USub:
			return -v, nil
		case syntax.UAdd:
			return v, nil
		}
	case Complex:
		switch op {
		case syntax.USub:
			return -v, nil
		case syntax.UAdd:
			return v, nil
		}
	case *Instance:
		name := map[syntax.UnaryOperator]string{syntax.USub: "__neg__", syntax.UAdd: "__pos__", syntax.Invert: "__invert__"}[op]
		if m := v.cls.userMethod(name); m != nil {
			return callMethod(t, m, v, nil, nil)
		}
		if v.base != nil {
			return Unary(t, op, v.base)
		}
	default:
		if u, ok := x.(UnaryOperand); ok {
			return u.PyUnary(t, op)
		}
	}
	sym := map[syntax.UnaryOperator]string{syntax.USub: "-", syntax.UAdd: "+", syntax.Invert: "~"}[op]
	return nil, Errorf(TypeErrorType, "bad operand type for unary %s: '%s'", sym, typeName(x))
}

// isTypeForm reports whether x may be an operand of a type union (X | Y).
func isTypeForm(x Object) bool {
	switch x.(type) {
	case *Type, *GenericAlias, *UnionType, NoneType:
		return true
	}
	return false
}
