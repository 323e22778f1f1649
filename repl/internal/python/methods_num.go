package python

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

func selfInt(args []Object) (Object, error) {
	if len(args) > 0 {
		if v, ok := intValue(args[0]); ok {
			return v, nil
		}
	}
	return nil, Errorf(TypeErrorType, "descriptor requires an 'int' object")
}

func selfFloat(args []Object) (float64, error) {
	if len(args) > 0 {
		switch v := unwrap(args[0]).(type) {
		case Float:
			return float64(v), nil
		}
	}
	return 0, Errorf(TypeErrorType, "descriptor requires a 'float' object")
}

func initNumberMethods() {
	numDunders := []string{"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
		"__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__",
		"__pow__", "__rpow__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
		"__hash__", "__repr__", "__str__", "__bool__", "__format__"}
	c := IntType
	addDunders(c, numDunders...)
	addDunders(c, "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lshift__", "__rshift__")
	method(c, "bit_length", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		if n, ok := v.(Int); ok {
			return MakeInt(int64(bits.Len64(uint64(abs64(int64(n)))))), nil
		}
		return MakeInt(int64(toBig(v).BitLen())), nil
	})
	method(c, "bit_count", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		b := new(big.Int).Abs(toBig(v))
		n := 0
		for _, w := range b.Bits() {
			n += bits.OnesCount(uint(w))
		}
		return MakeInt(int64(n)), nil
	})
	method(c, "conjugate", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return selfInt(args) })
	method(c, "__index__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return selfInt(args) })
	method(c, "__int__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return selfInt(args) })
	method(c, "__float__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		f, err := intToFloat(v)
		return Float(f), err
	})
	method(c, "__abs__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		return builtinAbs(t, []Object{v}, nil)
	})
	method(c, "__neg__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		return intNeg(v), nil
	})
	for _, n := range []string{"__trunc__", "__floor__", "__ceil__", "__round__"} {
		method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return selfInt(args) })
	}
	method(c, "is_integer", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return True, nil })
	method(c, "as_integer_ratio", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		return NewTuple([]Object{v, Int(1)}), nil
	})
	intAttr := func(name string, f func(v Object) Object) {
		getset(c, name, func(_ *Thread, x Object) (Object, error) {
			v, _ := intValue(x)
			return f(v), nil
		})
	}
	intAttr("real", func(v Object) Object { return v })
	intAttr("imag", func(Object) Object { return Int(0) })
	intAttr("numerator", func(v Object) Object { return v })
	intAttr("denominator", func(Object) Object { return Int(1) })
	method(c, "to_bytes", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		v, err := selfInt(args)
		if err != nil {
			return nil, err
		}
		a, err := UnpackArgs("to_bytes", args[1:], kwargs, 0, "length", "byteorder", "*", "signed")
		if err != nil {
			return nil, err
		}
		length := int64(1)
		if a[0] != nil {
			if length, err = argInt(t, "to_bytes", a[0]); err != nil {
				return nil, err
			}
		}
		order := "big"
		if a[1] != nil {
			order = StrValue(a[1])
		}
		signed := a[2] != nil && Truth(t, a[2])
		return intToBytes(toBig(v), length, order, signed)
	})
	classMethod(c, "from_bytes", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		a, err := UnpackArgs("from_bytes", args[1:], kwargs, 1, "bytes", "byteorder", "*", "signed")
		if err != nil {
			return nil, err
		}
		b, ok := bytesLike(a[0])
		if !ok {
			items, err := ToSlice(t, a[0])
			if err != nil {
				return nil, err
			}
			bs := make([]byte, len(items))
			for i, x := range items {
				n, _ := AsInt64(x)
				bs[i] = byte(n)
			}
			b = string(bs)
		}
		order := "big"
		if a[1] != nil {
			order = StrValue(a[1])
		}
		if order != "big" && order != "little" {
			return nil, Errorf(ValueErrorType, "byteorder must be either 'little' or 'big'")
		}
		raw := []byte(b)
		if order == "little" {
			for i, j := 0, len(raw)-1; i < j; i, j = i+1, j-1 {
				raw[i], raw[j] = raw[j], raw[i]
			}
		}
		r := new(big.Int).SetBytes(raw)
		if a[2] != nil && Truth(t, a[2]) && len(raw) > 0 && raw[0]&0x80 != 0 {
			r.Sub(r, new(big.Int).Lsh(big.NewInt(1), uint(8*len(raw))))
		}
		return MakeBigInt(r), nil
	})

	b := BoolType
	addDunders(b, "__repr__", "__str__")
	method(b, "__and__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return builtinBinary(t, 12, args[0], args[1])
	})

	f := FloatType
	addDunders(f, numDunders...)
	method(f, "is_integer", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		return MakeBool(pyfmt.IsInteger(x)), nil
	})
	method(f, "as_integer_ratio", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		n, d, err := pyfmt.AsIntegerRatio(x)
		if err != nil {
			return nil, fromKernel(err)
		}
		return NewTuple([]Object{MakeBigInt(n), MakeBigInt(d)}), nil
	})
	method(f, "hex", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		return NewStr(pyfmt.FloatHex(x)), nil
	})
	classMethod(f, "fromhex", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		if len(args) != 2 {
			return nil, Errorf(TypeErrorType, "fromhex() takes exactly one argument")
		}
		s, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "fromhex() argument must be str, not %s", typeName(args[1]))
		}
		x, err := pyfmt.FloatFromHex(s.s)
		if err != nil {
			return nil, fromKernel(err)
		}
		return Float(x), nil
	})
	method(f, "conjugate", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		return Float(x), err
	})
	method(f, "__float__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		return Float(x), err
	})
	method(f, "__int__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		return floatToInt(x)
	})
	method(f, "__trunc__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		return floatToInt(x)
	})
	method(f, "__floor__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		return floatToInt(math.Floor(x))
	})
	method(f, "__ceil__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		if err != nil {
			return nil, err
		}
		return floatToInt(math.Ceil(x))
	})
	method(f, "__round__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return builtinRound(t, []Object{unwrap(args[0]), nilToNone(argAt(args, 1))}, nil)
	})
	method(f, "__abs__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		return Float(math.Abs(x)), err
	})
	method(f, "__neg__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		x, err := selfFloat(args)
		return Float(-x), err
	})
	getset(f, "real", func(_ *Thread, x Object) (Object, error) { return unwrap(x), nil })
	getset(f, "imag", func(_ *Thread, x Object) (Object, error) { return Float(0), nil })

	z := ComplexType
	addDunders(z, "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
		"__rtruediv__", "__pow__", "__rpow__", "__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__format__")
	getset(z, "real", func(_ *Thread, x Object) (Object, error) { return Float(real(unwrap(x).(Complex))), nil })
	getset(z, "imag", func(_ *Thread, x Object) (Object, error) { return Float(imag(unwrap(x).(Complex))), nil })
	method(z, "conjugate", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		v := unwrap(args[0]).(Complex)
		return Complex(complex(real(v), -imag(v))), nil
	})
	method(z, "__abs__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return builtinAbs(t, []Object{unwrap(args[0])}, nil)
	})
}

func argAt(args []Object, i int) Object {
	if i < len(args) {
		return args[i]
	}
	return nil
}

func intToBytes(v *big.Int, length int64, order string, signed bool) (Object, error) {
	if order != "big" && order != "little" {
		return nil, Errorf(ValueErrorType, "byteorder must be either 'little' or 'big'")
	}
	if length < 0 {
		return nil, Errorf(ValueErrorType, "length argument must be non-negative")
	}
	if length > 1<<26 {
		return nil, Errorf(OverflowErrorType, "int too big to convert")
	}
	if v.Sign() < 0 && !signed {
		return nil, Errorf(OverflowErrorType, "can't convert negative int to unsigned")
	}
	x := new(big.Int).Set(v)
	if v.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*length)))
	}
	raw := x.Bytes()
	fits := int64(len(raw)) <= length
	if signed && fits {
		limit := new(big.Int).Lsh(big.NewInt(1), uint(8*length-1))
		if v.Sign() >= 0 && v.Cmp(limit) >= 0 || v.Sign() < 0 && new(big.Int).Neg(v).Cmp(limit) > 0 {
			fits = false
		}
	}
	if !fits || x.Sign() < 0 {
		return nil, Errorf(OverflowErrorType, "int too big to convert")
	}
	out := make([]byte, length)
	copy(out[length-int64(len(raw)):], raw)
	if order == "little" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return NewBytes(string(out)), nil
}
