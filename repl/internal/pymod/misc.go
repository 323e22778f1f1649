package pymod

import (
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

// Math is Starlark's math module plus inf, nan, tau, isclose, isnan, isinf, fsum, prod, gcd.
var Math = func() *starlarkstruct.Module {
	m := &starlarkstruct.Module{Name: "math", Members: starlark.StringDict{}}
	for k, v := range math.Module.Members {
		m.Members[k] = v
	}
	m.Members["inf"] = starlark.Float(mathInf())
	m.Members["nan"] = starlark.Float(mathNaN())
	m.Members["tau"] = starlark.Float(2 * 3.141592653589793)
	m.Members["isnan"] = starlark.NewBuiltin("math.isnan", floatPred(func(f float64) bool { return f != f }))
	m.Members["isinf"] = starlark.NewBuiltin("math.isinf", floatPred(func(f float64) bool { return f > 1.7976931348623157e308 || f < -1.7976931348623157e308 }))
	m.Members["isfinite"] = starlark.NewBuiltin("math.isfinite", floatPred(func(f float64) bool { return f == f && f <= 1.7976931348623157e308 && f >= -1.7976931348623157e308 }))
	m.Members["isclose"] = starlark.NewBuiltin("math.isclose", isclose)
	m.Members["gcd"] = starlark.NewBuiltin("math.gcd", gcd)
	m.Members["log2"] = starlark.NewBuiltin("math.log2", unary(log2))
	m.Members["log10"] = starlark.NewBuiltin("math.log10", unary(log10))
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
