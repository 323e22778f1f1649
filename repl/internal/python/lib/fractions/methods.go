package fractions

import (
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// self returns a method's Fraction receiver (a subclass instance's value
// too).
func self(args []obj, name string) (*Fraction, error) {
	if len(args) > 0 {
		if f, ok := python.Unwrap(args[0]).(*Fraction); ok {
			return f, nil
		}
	}
	return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' requires a 'Fraction' object", name)
}

// noArgs is a method without arguments.
func noArgs(c *python.Type, name string, fn func(t *python.Thread, f *Fraction) (obj, error)) {
	c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, name)
		if err != nil {
			return nil, err
		}
		if len(args) != 1 || len(kwargs) > 0 {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "Fraction.%s() got an unexpected keyword argument '%s'", name, kwargs[0].Name)
			}
			return nil, python.Errorf(python.TypeErrorType, "Fraction.%s() takes 1 positional argument but %d were given", name, len(args))
		}
		return fn(t, f)
	})
}

// binaryMethod is __op__ or __rop__ called explicitly.
func binaryMethod(c *python.Type, name string, op syntax.Operator, reflected bool) {
	c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, name)
		if err != nil {
			return nil, err
		}
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "Fraction.%s() takes 2 positional arguments but %d were given", name, len(args))
		}
		return f.PyBinary(t, op, args[1], reflected)
	})
}

func addMethods(c *python.Type) {
	c.AddGetSet("numerator", func(t *python.Thread, o obj) (obj, error) {
		f, err := self([]obj{o}, "numerator")
		if err != nil {
			return nil, err
		}
		return intObj(f.num), nil
	}, nil)
	c.AddGetSet("denominator", func(t *python.Thread, o obj) (obj, error) {
		f, err := self([]obj{o}, "denominator")
		if err != nil {
			return nil, err
		}
		return intObj(f.den), nil
	}, nil)
	c.AddGetSet("real", func(t *python.Thread, o obj) (obj, error) {
		f, err := self([]obj{o}, "real")
		if err != nil {
			return nil, err
		}
		return coprime(f.num, f.den), nil
	}, nil)
	c.AddGetSet("imag", func(t *python.Thread, o obj) (obj, error) { return python.MakeInt(0), nil }, nil)
	noArgs(c, "conjugate", func(t *python.Thread, f *Fraction) (obj, error) { return coprime(f.num, f.den), nil })
	noArgs(c, "as_integer_ratio", func(t *python.Thread, f *Fraction) (obj, error) {
		return python.NewTuple([]obj{intObj(f.num), intObj(f.den)}), nil
	})
	noArgs(c, "is_integer", func(t *python.Thread, f *Fraction) (obj, error) { return python.MakeBool(f.isInt()), nil })
	noArgs(c, "__floor__", func(t *python.Thread, f *Fraction) (obj, error) { return intObj(f.floor()), nil })
	noArgs(c, "__ceil__", func(t *python.Thread, f *Fraction) (obj, error) { return intObj(f.ceil()), nil })
	noArgs(c, "__trunc__", func(t *python.Thread, f *Fraction) (obj, error) { return intObj(f.trunc()), nil })
	noArgs(c, "__int__", func(t *python.Thread, f *Fraction) (obj, error) { return intObj(f.trunc()), nil })
	noArgs(c, "__float__", func(t *python.Thread, f *Fraction) (obj, error) {
		x, err := f.float()
		return python.Float(x), err
	})
	noArgs(c, "__complex__", func(t *python.Thread, f *Fraction) (obj, error) { return f.complex() })
	noArgs(c, "__abs__", func(t *python.Thread, f *Fraction) (obj, error) { return f.PyAbs(t) })
	noArgs(c, "__neg__", func(t *python.Thread, f *Fraction) (obj, error) { return f.PyUnary(t, syntax.USub) })
	noArgs(c, "__pos__", func(t *python.Thread, f *Fraction) (obj, error) { return f.PyUnary(t, syntax.UAdd) })
	noArgs(c, "__bool__", func(t *python.Thread, f *Fraction) (obj, error) { return python.MakeBool(f.num.Sign() != 0), nil })
	noArgs(c, "__hash__", func(t *python.Thread, f *Fraction) (obj, error) {
		h, err := f.PyHash(t)
		return python.MakeInt(h), err
	})
	c.AddMethod("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, "__repr__")
		if err != nil {
			return nil, err
		}
		s, err := f.repr(t, args[0].Type().Name())
		return python.NewStr(s), err
	})
	noArgs(c, "__str__", func(t *python.Thread, f *Fraction) (obj, error) {
		s, err := f.PyStr(t)
		return python.NewStr(s), err
	})
	c.AddMethod("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, "__reduce__")
		if err != nil {
			return nil, err
		}
		return python.NewTuple([]obj{args[0].Type(), python.NewTuple([]obj{intObj(f.num), intObj(f.den)})}), nil
	})
	copyFn := func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, "__copy__")
		if err != nil {
			return nil, err
		}
		if args[0].Type() == FractionType {
			return args[0], nil
		}
		return python.Call(t, args[0].Type(), []obj{intObj(f.num), intObj(f.den)}, nil)
	}
	c.AddMethod("__copy__", copyFn)
	c.AddMethod("__deepcopy__", copyFn)
	c.AddMethod("__round__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, "__round__")
		if err != nil {
			return nil, err
		}
		a, err := (&python.Signature{Name: "Fraction.__round__", Pos: []string{"self", "ndigits"}, Required: 1}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		return f.PyRound(t, a[1])
	})
	c.AddMethod("__format__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, "__format__")
		if err != nil {
			return nil, err
		}
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "Fraction.__format__() takes 2 positional arguments but %d were given", len(args))
		}
		spec, ok := args[1].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "format() argument 2 must be str, not %s", python.TypeName(args[1]))
		}
		s, err := f.PyFormat(t, spec.String())
		return python.NewStr(s), err
	})
	c.AddMethod("limit_denominator", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		f, err := self(args, "limit_denominator")
		if err != nil {
			return nil, err
		}
		a, err := (&python.Signature{Name: "Fraction.limit_denominator", Pos: []string{"self", "max_denominator"}, Required: 1}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		a = a[1:]
		maxDen := big.NewInt(1000000)
		if a[0] != nil {
			iv, ok := python.IntValue(a[0])
			if !ok {
				switch python.Unwrap(a[0]).(type) {
				case *Fraction, python.Float:
					return nil, python.NotSupported("limit_denominator with a bound that is not an int", "pass an int")
				}
				return nil, python.Errorf(python.TypeErrorType, "'<' not supported between instances of '%s' and 'int'", python.TypeName(a[0]))
			}
			maxDen = python.ToBig(iv)
		}
		return limitDenominator(t, f, maxDen)
	})
	for _, b := range []struct {
		name string
		op   syntax.Operator
	}{{"add", syntax.Add}, {"sub", syntax.Sub}, {"mul", syntax.Mult}, {"truediv", syntax.Div},
		{"floordiv", syntax.FloorDiv}, {"mod", syntax.Mod}, {"pow", syntax.Pow}} {
		binaryMethod(c, "__"+b.name+"__", b.op, false)
		binaryMethod(c, "__r"+b.name+"__", b.op, true)
	}
	for _, d := range []struct {
		name      string
		reflected bool
	}{{"__divmod__", false}, {"__rdivmod__", true}} {
		d := d
		c.AddMethod(d.name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			f, err := self(args, d.name)
			if err != nil {
				return nil, err
			}
			if len(args) != 2 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "Fraction.%s() takes 2 positional arguments but %d were given", d.name, len(args))
			}
			return f.divmod(t, args[1], d.reflected)
		})
	}
	for _, cmp := range []struct {
		name string
		op   python.CmpOp
	}{{"__eq__", python.CmpEq}, {"__lt__", python.CmpLt}, {"__le__", python.CmpLe}, {"__gt__", python.CmpGt}, {"__ge__", python.CmpGe}} {
		cmp := cmp
		c.AddMethod(cmp.name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			f, err := self(args, cmp.name)
			if err != nil {
				return nil, err
			}
			if len(args) != 2 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "Fraction.%s() takes 2 positional arguments but %d were given", cmp.name, len(args))
			}
			return f.PyCompare(t, cmp.op, args[1])
		})
	}
	c.AddClassMethod("from_float", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := (&python.Signature{Name: "Fraction.from_float", Pos: []string{"cls", "f"}, Required: 2}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		a = a[1:]
		cls := args[0].(*python.Type)
		x := a[0]
		if _, ok := python.IntValue(x); ok {
			return python.Call(t, cls, []obj{x}, nil)
		}
		fv, ok := python.Unwrap(x).(python.Float)
		if !ok {
			r, err := python.Repr(t, x)
			if err != nil {
				return nil, err
			}
			return nil, python.Errorf(python.TypeErrorType, "%s.from_float() only takes floats, not %s (%s)", cls.Name(), r, python.TypeName(x))
		}
		f, err := fromFloat(float64(fv))
		if err != nil {
			return nil, err
		}
		if cls != FractionType {
			return python.NewInstance(cls, f), nil
		}
		return f, nil
	})
	c.AddClassMethod("from_decimal", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := (&python.Signature{Name: "Fraction.from_decimal", Pos: []string{"cls", "dec"}, Required: 2}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		a = a[1:]
		cls := args[0].(*python.Type)
		if _, ok := python.IntValue(a[0]); ok {
			return python.Call(t, cls, []obj{a[0]}, nil)
		}
		r, err := python.Repr(t, a[0])
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "%s.from_decimal() only takes Decimals, not %s (%s)", cls.Name(), r, python.TypeName(a[0]))
	})
}

// divmod is divmod(f, other), or divmod(other, f) when reflected.
func (f *Fraction) divmod(t *python.Thread, other obj, reflected bool) (obj, error) {
	if g, ok := asFraction(other); ok {
		if reflected {
			return divmodFractions(t, g, f)
		}
		return divmodFractions(t, f, g)
	}
	var a, b obj
	switch v := python.Unwrap(other).(type) {
	case python.Float:
		x, err := f.float()
		if err != nil {
			return nil, err
		}
		a, b = python.Float(x), v
	case python.Complex:
		return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for divmod(): 'complex' and 'complex'")
	default:
		return python.NotImplemented, nil
	}
	if reflected {
		a, b = b, a
	}
	divmod, ok := t.Interp().Builtins().GetStr("divmod")
	if !ok {
		return nil, python.NotSupported("divmod", "")
	}
	return python.Call(t, divmod, []obj{a, b}, nil)
}

// limitDenominator is Fraction.limit_denominator: the closest fraction
// whose denominator is at most maxDen (by continued fractions; on a tie
// the one with the smaller denominator).
func limitDenominator(t *python.Thread, f *Fraction, maxDen *big.Int) (obj, error) {
	if maxDen.Cmp(bigOne) < 0 {
		return nil, python.Errorf(python.ValueErrorType, "max_denominator should be at least 1")
	}
	if f.den.Cmp(maxDen) <= 0 {
		return coprime(f.num, f.den), nil
	}
	p0, q0, p1, q1 := big.NewInt(0), big.NewInt(1), big.NewInt(1), big.NewInt(0)
	n, d := new(big.Int).Set(f.num), new(big.Int).Set(f.den)
	for steps := 0; ; steps++ {
		if steps&63 == 63 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
		a, _ := floorDivMod(n, d)
		q2 := new(big.Int).Add(q0, mul(a, q1))
		if q2.Cmp(maxDen) > 0 {
			break
		}
		p0, q0, p1, q1 = p1, q1, new(big.Int).Add(p0, mul(a, p1)), q2
		n, d = d, new(big.Int).Sub(n, mul(a, d))
	}
	k, _ := floorDivMod(new(big.Int).Sub(maxDen, q0), q1)
	qk := new(big.Int).Add(q0, mul(k, q1))
	lhs := mul(mul(big.NewInt(2), d), qk)
	if lhs.Cmp(f.den) <= 0 {
		return coprime(p1, q1), nil
	}
	return coprime(new(big.Int).Add(p0, mul(k, p1)), qk), nil
}
