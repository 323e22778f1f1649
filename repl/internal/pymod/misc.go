package pymod

import (
	gomath "math"

	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// String is the `string` module's constants.
var String = &starlarkstruct.Module{
	Name: "string",
	Members: starlark.StringDict{
		"ascii_letters":   starlark.String("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
		"ascii_lowercase": starlark.String("abcdefghijklmnopqrstuvwxyz"),
		"ascii_uppercase": starlark.String("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
		"digits":          starlark.String("0123456789"),
		"hexdigits":       starlark.String("0123456789abcdefABCDEF"),
		"octdigits":       starlark.String("01234567"),
		"punctuation":     starlark.String("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
		"whitespace":      starlark.String(" \t\n\r\x0b\x0c"),
		"printable":       starlark.String("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\x0b\x0c"),
	},
}

func zero(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return starlark.Float(0), nil
}

func none(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return starlark.None, nil
}

// Time is a clockless `time` module: code mode is deterministic, so time(),
// perf_counter() and monotonic() always return 0.0 and sleep() returns at once.
var Time = &starlarkstruct.Module{
	Name: "time",
	Members: starlark.StringDict{
		"time":         starlark.NewBuiltin("time.time", zero),
		"perf_counter": starlark.NewBuiltin("time.perf_counter", zero),
		"monotonic":    starlark.NewBuiltin("time.monotonic", zero),
		"sleep":        starlark.NewBuiltin("time.sleep", none),
	},
}

// Math is the `math` module: Python's functions with Python's errors (a
// domain error is a ValueError, a float overflow an OverflowError), plus
// Starlark's extra mod and round.
var Math = func() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "math", Members: starlark.StringDict{}}
	for k, v := range math.Module.Members {
		m.Members[k] = v
	}
	add := func(name string, fn builtinFn) { m.Members[name] = starlark.NewBuiltin("math."+name, fn) }
	m.Members["inf"] = starlark.Float(mathInf())
	m.Members["nan"] = starlark.Float(mathNaN())
	m.Members["tau"] = starlark.Float(2 * 3.141592653589793)
	add("isnan", floatPred(func(f float64) bool { return f != f }))
	add("isinf", floatPred(func(f float64) bool { return f > 1.7976931348623157e308 || f < -1.7976931348623157e308 }))
	add("isfinite", floatPred(func(f float64) bool { return f == f && f <= 1.7976931348623157e308 && f >= -1.7976931348623157e308 }))
	add("isclose", isclose)
	add("gcd", gcd)
	add("lcm", lcm)
	for name, fn := range map[string]func(float64) float64{
		"sqrt": gomath.Sqrt, "acos": gomath.Acos, "asin": gomath.Asin, "atan": gomath.Atan,
		"cos": gomath.Cos, "sin": gomath.Sin, "tan": gomath.Tan, "tanh": gomath.Tanh,
		"acosh": gomath.Acosh, "asinh": gomath.Asinh, "atanh": gomath.Atanh,
		"fabs": gomath.Abs, "log1p": gomath.Log1p, "erf": gomath.Erf, "erfc": gomath.Erfc,
		"cbrt":    gomath.Cbrt,
		"degrees": func(x float64) float64 { return x * (180 / gomath.Pi) },
		"radians": func(x float64) float64 { return x * (gomath.Pi / 180) },
	} {
		add(name, mathUnary(fn, false))
	}
	for name, fn := range map[string]func(float64) float64{
		"exp": Exp, "exp2": gomath.Exp2, "expm1": gomath.Expm1, "cosh": gomath.Cosh, "sinh": gomath.Sinh,
	} {
		add(name, mathUnary(fn, true))
	}
	add("atan2", mathBinary(gomath.Atan2, false))
	add("copysign", mathBinary(gomath.Copysign, false))
	add("remainder", mathBinary(gomath.Remainder, false))
	add("ldexp", mathBinary(func(x, i float64) float64 { return gomath.Ldexp(x, int(gomath.Max(-1<<20, gomath.Min(1<<20, i)))) }, true))
	add("log", mathLog)
	add("log2", mathLogBase(Log2, gomath.Ln2))
	add("log10", mathLogBase(Log10, gomath.Ln10))
	add("pow", mathPow)
	add("fmod", mathFmod)
	add("floor", mathToInt(gomath.Floor))
	add("ceil", mathToInt(gomath.Ceil))
	add("trunc", mathToInt(gomath.Trunc))
	add("hypot", mathHypot)
	add("dist", mathDist)
	add("gamma", mathGamma)
	add("lgamma", mathLgamma)
	add("factorial", mathFactorial)
	add("comb", mathComb)
	add("perm", mathPerm)
	add("isqrt", mathIsqrt)
	add("prod", mathProd)
	add("fsum", mathFsum)
	add("modf", mathModf)
	return m
}()

// typingModule is `typing`: every attribute is None, so annotations-only
// imports (from typing import List, Dict) work.
type typingModule struct{}

// Typing is the `typing` module.
var Typing starlark.Value = typingModule{}

func (typingModule) String() string                      { return "<module 'typing'>" }
func (typingModule) Type() string                        { return "module" }
func (typingModule) Freeze()                             {}
func (typingModule) Truth() starlark.Bool                { return true }
func (typingModule) Hash() (uint32, error)               { return 0, nil }
func (typingModule) Attr(string) (starlark.Value, error) { return starlark.None, nil }
func (typingModule) AttrNames() []string                 { return nil }
