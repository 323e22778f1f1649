package python

import (
	"errors"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// fromKernel converts an error of the pyfmt or pystr kernels into the
// Python exception it names.
func fromKernel(err error) error {
	if err == nil {
		return nil
	}
	var pe *pyfmt.Error
	if errors.As(err, &pe) {
		return Errorf(exceptionClass(pe.Type), "%s", pe.Msg)
	}
	var se *pystr.Error
	if errors.As(err, &se) {
		return Errorf(exceptionClass(se.Type), "%s", se.Msg)
	}
	var le *pystr.LimitError
	if errors.As(err, &le) {
		return Errorf(MemoryErrorType, "%s", le.Error())
	}
	return err
}

// exceptionClass maps a built-in exception name to its class.
func exceptionClass(name string) *Type {
	for _, c := range builtinExceptions() {
		if c.name == name {
			return c
		}
	}
	return ValueErrorType
}

func setupFormat() {
	FloatRepr = pyfmt.FloatRepr
	ParseFloat = func(s string) (float64, error) {
		f, err := pyfmt.ParseFloat(s)
		return f, fromKernel(err)
	}
	ParseInt = func(s string, base int) (Object, error) {
		small, b, err := pyfmt.ParseInt(s, base, maxIntDigits)
		if err != nil {
			return nil, fromKernel(err)
		}
		if b != nil {
			return MakeBigInt(b), nil
		}
		return MakeInt(small), nil
	}
	RoundFloat = func(x float64, n int) float64 {
		r, err := pyfmt.RoundFloatDigits(x, int64(n))
		if err != nil {
			return x
		}
		return r
	}
	powFloat = func(x, y float64) float64 {
		r, _, err := pyfmt.FloatPow(x, y)
		if err != nil {
			return powFallback(x, y)
		}
		return r
	}
}

// limitOf returns the byte bound for text a builtin may build.
func limitOf(t *Thread) int {
	if t == nil || t.maxValue <= 0 {
		return 1 << 62
	}
	return int(t.maxValue)
}

// Format returns format(v, spec).
func Format(t *Thread, v Object, spec string) (string, error) {
	switch x := v.(type) {
	case *Str:
		if spec == "" {
			return x.s, nil
		}
		s, err := pyfmt.FormatStr(x.s, spec, "str", limitOf(t))
		return s, fromKernel(err)
	case Int:
		s, err := pyfmt.FormatInt(int64(x), spec, "int", maxIntDigits, limitOf(t))
		return s, fromKernel(err)
	case Bool:
		if spec == "" {
			if x {
				return "True", nil
			}
			return "False", nil
		}
		n := int64(0)
		if x {
			n = 1
		}
		s, err := pyfmt.FormatInt(n, spec, "bool", maxIntDigits, limitOf(t))
		return s, fromKernel(err)
	case *BigInt:
		s, err := pyfmt.FormatBigInt(x.v, spec, "int", maxIntDigits, limitOf(t))
		return s, fromKernel(err)
	case Float:
		s, err := pyfmt.FormatFloat(float64(x), spec, "float", limitOf(t))
		return s, fromKernel(err)
	case Complex:
		s, err := pyfmt.FormatComplex(real(x), imag(x), spec, "complex", limitOf(t))
		return s, fromKernel(err)
	case *Instance:
		if m := x.cls.userMethod("__format__"); m != nil {
			r, err := callMethod(t, m, x, []Object{NewStr(spec)}, nil)
			if err != nil {
				return "", err
			}
			s, ok := r.(*Str)
			if !ok {
				return "", Errorf(TypeErrorType, "__format__ must return a str, not %s", typeName(r))
			}
			return s.s, nil
		}
		if x.base != nil {
			if spec == "" {
				if x.cls.userMethod("__str__") != nil || x.cls.userMethod("__repr__") != nil {
					return StrOf(t, x)
				}
			}
			return Format(t, x.base, spec)
		}
	case *hostStr:
		s, err := x.materialize(t)
		if err != nil {
			return "", err
		}
		return Format(t, s, spec)
	}
	if f, ok := v.(interface {
		PyFormat(t *Thread, spec string) (string, error)
	}); ok {
		return f.PyFormat(t, spec)
	}
	if spec != "" {
		return "", Errorf(TypeErrorType, "unsupported format string passed to %s.__format__", typeName(v))
	}
	return StrOf(t, v)
}

// percentArg adapts an object to pyfmt's % formatting.
type percentArg struct {
	t *Thread
	v Object
}

func (a percentArg) TypeName() string { return typeName(a.v) }
func (a percentArg) Str() (string, error) {
	return StrOf(a.t, a.v)
}
func (a percentArg) Repr() (string, error) { return Repr(a.t, a.v) }
func (a percentArg) ASCII() (string, error) {
	s, err := Repr(a.t, a.v)
	return asciiEscape(s), err
}
func (a percentArg) IsInt() bool {
	_, ok := intValue(a.v)
	return ok
}
func (a percentArg) Int(index bool) (int64, *big.Int, bool, error) {
	v := a.v
	if iv, ok := intValue(v); ok {
		if n, ok := iv.(Int); ok {
			return int64(n), nil, true, nil
		}
		return 0, toBig(iv), true, nil
	}
	if index {
		if o, ok := v.(*Instance); ok && o.cls.userMethod("__index__") != nil {
			r, err := callMethod(a.t, o.cls.userMethod("__index__"), o, nil, nil)
			if err != nil {
				return 0, nil, true, err
			}
			return percentArg{a.t, r}.Int(true)
		}
		return 0, nil, false, nil
	}
	switch x := v.(type) {
	case Float:
		r, err := floatToInt(float64(x))
		if err != nil {
			return 0, nil, true, err
		}
		return percentArg{a.t, r}.Int(true)
	case *Instance:
		if x.cls.userMethod("__int__") != nil || x.cls.userMethod("__index__") != nil {
			r, err := toInt(a.t, x, nil)
			if err != nil {
				return 0, nil, true, err
			}
			return percentArg{a.t, r}.Int(true)
		}
	}
	return 0, nil, false, nil
}
func (a percentArg) Float() (float64, bool, error) {
	if f, ok, err := floatValue(a.v); ok {
		return f, true, err
	}
	if o, ok := a.v.(*Instance); ok && o.cls.userMethod("__float__") != nil {
		r, err := toFloat(a.t, o)
		if err != nil {
			return 0, true, err
		}
		return float64(r.(Float)), true, nil
	}
	return 0, false, nil
}
func (a percentArg) Text() (string, bool) {
	if s, ok := a.v.(*Str); ok {
		return s.s, true
	}
	return "", false
}

// strPercent is str % values.
func strPercent(t *Thread, format *Str, values Object) (Object, error) {
	op := pyfmt.Operand{}
	tuple := values
	if o, ok := values.(*Instance); ok {
		if _, ok := o.base.(*Tuple); ok {
			tuple = o.base
		}
	}
	switch v := tuple.(type) {
	case *Tuple:
		for _, x := range v.items {
			op.Args = append(op.Args, percentArg{t, x})
		}
	default:
		op.Args = []Arg{percentArg{t, values}}
		_, isStr := values.(*Str)
		if !isStr {
			if _, err := getAttr(t, values, "__getitem__"); err == nil {
				if has, _ := HasAttr(t, values, "__getitem__"); has || isMapping(values) {
					op.Lookup = func(key string) (pyfmt.Arg, error) {
						r, err := GetItem(t, values, NewStr(key))
						if err != nil {
							return nil, err
						}
						return percentArg{t, r}, nil
					}
				}
			}
		}
	}
	s, err := pyfmt.Percent(format.s, op, maxIntDigits, limitOf(t))
	if err != nil {
		if _, isKernel := err.(*pyfmt.Error); isKernel {
			return nil, fromKernel(err)
		}
		return nil, err
	}
	return NewStr(s), nil
}

// Arg is pyfmt's % operand interface.
type Arg = pyfmt.Arg

func isMapping(x Object) bool {
	switch v := x.(type) {
	case *Dict:
		return true
	case *Instance:
		_, ok := v.base.(*Dict)
		return ok || v.cls.userMethod("__getitem__") != nil
	}
	return false
}

// bytesPercent is bytes % values (ASCII formatting of numbers and bytes).
func bytesPercent(t *Thread, format *Bytes, values Object) (Object, error) {
	return bytesFormat(t, format.b, values, false)
}

func powFallback(x, y float64) float64 {
	f, _ := new(big.Float).SetFloat64(x).Float64()
	_ = f
	return mathPow(x, y)
}
