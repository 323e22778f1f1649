package pymod

import (
	"math"

	"go.starlark.net/starlark"
)

func mathInf() float64        { return math.Inf(1) }
func mathNaN() float64        { return math.NaN() }
func log2(f float64) float64  { return math.Log2(f) }
func log10(f float64) float64 { return math.Log10(f) }

func toFloat(v starlark.Value) (float64, error) {
	f, ok := starlark.AsFloat(v)
	if !ok {
		return 0, Errorf("TypeError", "must be a real number, not %s", TypeName(v))
	}
	return f, nil
}

func floatPred(p func(float64) bool) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		f, err := toFloat(x)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(p(f)), nil
	}
}

func unary(fn func(float64) float64) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		f, err := toFloat(x)
		if err != nil {
			return nil, err
		}
		if f <= 0 {
			return nil, Errorf("ValueError", "math domain error")
		}
		return starlark.Float(fn(f)), nil
	}
}

func isclose(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var a, c starlark.Value
	var rel, abs starlark.Value = starlark.Float(1e-9), starlark.Float(0)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &a, "b", &c, "rel_tol?", &rel, "abs_tol?", &abs); err != nil {
		return nil, err
	}
	x, err := toFloat(a)
	if err != nil {
		return nil, err
	}
	y, err := toFloat(c)
	if err != nil {
		return nil, err
	}
	rt, _ := starlark.AsFloat(rel)
	at, _ := starlark.AsFloat(abs)
	if x == y {
		return starlark.True, nil
	}
	d := math.Abs(x - y)
	return starlark.Bool(d <= math.Max(rt*math.Max(math.Abs(x), math.Abs(y)), at)), nil
}

func gcd(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var g int64
	for _, a := range args {
		i, err := starlark.AsInt32(a)
		if err != nil {
			return nil, Errorf("TypeError", "math.gcd: arguments must be ints")
		}
		x := int64(i)
		if x < 0 {
			x = -x
		}
		for x != 0 {
			g, x = x, g%x
		}
	}
	return starlark.MakeInt64(g), nil
}
