package pymod

import (
	"math"
	"math/big"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

func mathInf() float64 { return math.Inf(1) }
func mathNaN() float64 { return math.NaN() }

func toFloat(v starlark.Value) (float64, error) {
	switch v := v.(type) {
	case starlark.Int:
		f := float64(v.Float())
		if math.IsInf(f, 0) {
			return 0, Errorf("OverflowError", "int too large to convert to float")
		}
		return f, nil
	case starlark.Float:
		return float64(v), nil
	case starlark.Bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	return 0, Errorf("TypeError", "must be a real number, not %s", TypeName(v))
}

// toInt is an integer argument of a math function (bool counts as int, as in Python).
func toInt(v starlark.Value) (*big.Int, error) {
	switch v := v.(type) {
	case starlark.Int:
		return v.BigInt(), nil
	case starlark.Bool:
		if v {
			return big.NewInt(1), nil
		}
		return big.NewInt(0), nil
	}
	return nil, Errorf("TypeError", "'%s' object cannot be interpreted as an integer", TypeName(v))
}

// floatArgs unpacks len(fs) positional arguments of builtin b as floats
// (ints and bools are converted, anything else is a TypeError).
func floatArgs(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, fs ...*float64) error {
	vs := make([]any, len(fs))
	vals := make([]starlark.Value, len(fs))
	for i := range vals {
		vs[i] = &vals[i]
	}
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, len(fs), vs...); err != nil {
		return err
	}
	for i, v := range vals {
		f, err := toFloat(v)
		if err != nil {
			return err
		}
		*fs[i] = f
	}
	return nil
}

func domainError() error { return Errorf("ValueError", "math domain error") }
func rangeError() error  { return Errorf("OverflowError", "math range error") }

// checkResult applies CPython's rule for a math function of finite or
// special arguments: a NaN from non-NaN arguments is a domain error, an
// infinity from finite arguments a range error (an OverflowError when the
// function can overflow, else a domain error: log(0), atanh(1)).
func checkResult(r float64, canOverflow bool, args ...float64) (starlark.Value, error) {
	anyNaN, allFinite := false, true
	for _, a := range args {
		if math.IsNaN(a) {
			anyNaN = true
		}
		if math.IsNaN(a) || math.IsInf(a, 0) {
			allFinite = false
		}
	}
	if math.IsNaN(r) && !anyNaN {
		return nil, domainError()
	}
	if math.IsInf(r, 0) && allFinite {
		if canOverflow {
			return nil, rangeError()
		}
		return nil, domainError()
	}
	return starlark.Float(r), nil
}

type builtinFn = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

// mathUnary is a one-argument float function with Python's errors.
func mathUnary(fn func(float64) float64, canOverflow bool) builtinFn {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var f float64
		if err := floatArgs(b, args, kwargs, &f); err != nil {
			return nil, err
		}
		return checkResult(fn(f), canOverflow, f)
	}
}

// mathBinary is a two-argument float function with Python's errors.
func mathBinary(fn func(float64, float64) float64, canOverflow bool) builtinFn {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var f, g float64
		if err := floatArgs(b, args, kwargs, &f, &g); err != nil {
			return nil, err
		}
		return checkResult(fn(f, g), canOverflow, f, g)
	}
}

// logOf is the natural logarithm of a positive int or float; ints too large
// for a float are reduced first (math.log(10**400) works in Python).
func logOf(v starlark.Value) (float64, error) {
	if i, ok := v.(starlark.Int); ok {
		bi := i.BigInt()
		if bi.Sign() <= 0 {
			return 0, domainError()
		}
		if n := bi.BitLen(); n > 1000 {
			sh := n - 60
			top := new(big.Int).Rsh(bi, uint(sh))
			f, _ := new(big.Float).SetInt(top).Float64()
			return Log(f) + float64(sh)*math.Ln2, nil
		}
	}
	f, err := toFloat(v)
	if err != nil {
		return 0, err
	}
	if f <= 0 {
		return 0, domainError()
	}
	return Log(f), nil
}

func mathLog(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, base starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x, &base); err != nil {
		return nil, err
	}
	lx, err := logOf(x)
	if err != nil {
		return nil, err
	}
	if base == nil {
		return starlark.Float(lx), nil
	}
	lb, err := logOf(base)
	if err != nil {
		return nil, err
	}
	if lb == 0 {
		return nil, Errorf("ZeroDivisionError", "float division by zero")
	}
	return starlark.Float(lx / lb), nil
}

// mathLogBase is log2 or log10 (exact for powers of the base, as in C).
func mathLogBase(fn func(float64) float64, ln float64) builtinFn {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		if i, ok := x.(starlark.Int); ok && i.BigInt().BitLen() > 1000 {
			l, err := logOf(x)
			if err != nil {
				return nil, err
			}
			return starlark.Float(l / ln), nil
		}
		f, err := toFloat(x)
		if err != nil {
			return nil, err
		}
		if f <= 0 {
			return nil, domainError()
		}
		return starlark.Float(fn(f)), nil
	}
}

func mathPow(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f, g float64
	if err := floatArgs(b, args, kwargs, &f, &g); err != nil {
		return nil, err
	}
	if f == 0 && g < 0 && !math.IsInf(g, 0) {
		return nil, domainError()
	}
	return checkResult(Pow(f, g), true, f, g)
}

// FloatPow is x ** y on floats with Python's errors: 0.0 to a negative power
// is a ZeroDivisionError, a negative base to a fractional power (a complex
// result) a ValueError, an infinite result of finite operands an
// OverflowError.
func FloatPow(f, g float64) (starlark.Value, error) {
	if f == 0 && g < 0 {
		return nil, Errorf("ZeroDivisionError", "0.0 cannot be raised to a negative power")
	}
	r := Pow(f, g)
	if math.IsNaN(r) && !math.IsNaN(f) && !math.IsNaN(g) {
		return nil, Errorf("ValueError", "math domain error (complex result)")
	}
	if math.IsInf(r, 0) && !math.IsInf(f, 0) && !math.IsInf(g, 0) && !math.IsNaN(f) && !math.IsNaN(g) {
		return nil, Errorf("OverflowError", "(34, 'Numerical result out of range')")
	}
	return starlark.Float(r), nil
}

func mathFmod(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f, g float64
	if err := floatArgs(b, args, kwargs, &f, &g); err != nil {
		return nil, err
	}
	if math.IsInf(g, 0) && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return starlark.Float(f), nil
	}
	return checkResult(math.Mod(f, g), false, f, g)
}

// mathToInt is floor, ceil or trunc: an int, as in Python.
func mathToInt(fn func(float64) float64) builtinFn {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		switch x := x.(type) {
		case starlark.Int:
			return x, nil
		case starlark.Bool:
			return starlark.MakeBigInt(must(toInt(x))), nil
		}
		f, err := toFloat(x)
		if err != nil {
			return nil, err
		}
		return FloatToInt(fn(f))
	}
}

func must(i *big.Int, _ error) *big.Int { return i }

// FloatToInt converts an integral float to an int with Python's errors.
func FloatToInt(f float64) (starlark.Value, error) {
	if math.IsInf(f, 0) {
		return nil, Errorf("OverflowError", "cannot convert float infinity to integer")
	}
	if math.IsNaN(f) {
		return nil, Errorf("ValueError", "cannot convert float NaN to integer")
	}
	return starlark.NumberToInt(starlark.Float(f))
}

func mathHypot(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, Errorf("TypeError", "%s() takes no keyword arguments", b.Name())
	}
	fs := make([]float64, len(args))
	r := 0.0
	for i, a := range args {
		f, err := toFloat(a)
		if err != nil {
			return nil, err
		}
		fs[i] = f
		r = math.Hypot(r, f)
	}
	for _, f := range fs {
		if math.IsInf(f, 0) {
			return starlark.Float(math.Inf(1)), nil
		}
	}
	return checkResult(r, true, fs...)
}

func mathDist(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var p, q starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &p, &q); err != nil {
		return nil, err
	}
	var ps, qs []float64
	for _, pair := range []struct {
		v   starlark.Value
		out *[]float64
	}{{p, &ps}, {q, &qs}} {
		if err := Iterate(pair.v, func(x starlark.Value) error {
			f, err := toFloat(x)
			*pair.out = append(*pair.out, f)
			return err
		}); err != nil {
			return nil, err
		}
	}
	if len(ps) != len(qs) {
		return nil, Errorf("ValueError", "both points must have the same number of dimensions")
	}
	r := 0.0
	for i := range ps {
		r = math.Hypot(r, ps[i]-qs[i])
	}
	return starlark.Float(r), nil
}

func mathGamma(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f float64
	if err := floatArgs(b, args, kwargs, &f); err != nil {
		return nil, err
	}
	if f <= 0 && f == math.Trunc(f) || math.IsInf(f, -1) {
		return nil, domainError()
	}
	return checkResult(math.Gamma(f), true, f)
}

func mathLgamma(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f float64
	if err := floatArgs(b, args, kwargs, &f); err != nil {
		return nil, err
	}
	if f <= 0 && f == math.Trunc(f) {
		return nil, domainError()
	}
	r, _ := math.Lgamma(f)
	return checkResult(r, true, f)
}

// maxMathBits bounds the size of an int math.factorial/comb/perm computes.
const maxMathBits = 1 << 24

func mathFactorial(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	n, err := toInt(x)
	if err != nil {
		return nil, err
	}
	if n.Sign() < 0 {
		return nil, Errorf("ValueError", "factorial() not defined for negative values")
	}
	if !n.IsInt64() || float64(n.Int64())*math.Log2(float64(n.Int64())+1) > maxMathBits {
		return nil, Errorf("MemoryError", "factorial(%s) is too large for code mode", n)
	}
	return starlark.MakeBigInt(new(big.Int).MulRange(1, n.Int64())), nil
}

// nk unpacks the n and k of comb and perm.
func nk(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, kOptional bool) (n, k *big.Int, err error) {
	var x, y starlark.Value
	if kOptional {
		err = starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x, &y)
	} else {
		err = starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y)
	}
	if err != nil {
		return nil, nil, err
	}
	if n, err = toInt(x); err != nil {
		return nil, nil, err
	}
	if y == nil || y == starlark.None {
		k = n
	} else if k, err = toInt(y); err != nil {
		return nil, nil, err
	}
	if n.Sign() < 0 {
		return nil, nil, Errorf("ValueError", "n must be a non-negative integer")
	}
	if k.Sign() < 0 {
		return nil, nil, Errorf("ValueError", "k must be a non-negative integer")
	}
	return n, k, nil
}

func mathComb(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	n, k, err := nk(b, args, kwargs, false)
	if err != nil {
		return nil, err
	}
	if k.Cmp(n) > 0 {
		return starlark.MakeInt(0), nil
	}
	if !n.IsInt64() || n.Int64() > maxMathBits {
		if r := new(big.Int).Sub(n, k); r.Sign() > 0 && k.Sign() > 0 {
			return nil, Errorf("MemoryError", "comb(%s, %s) is too large for code mode", n, k)
		}
		return starlark.MakeInt(1), nil
	}
	return starlark.MakeBigInt(new(big.Int).Binomial(n.Int64(), k.Int64())), nil
}

func mathPerm(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	n, k, err := nk(b, args, kwargs, true)
	if err != nil {
		return nil, err
	}
	if k.Cmp(n) > 0 {
		return starlark.MakeInt(0), nil
	}
	if k.Sign() == 0 {
		return starlark.MakeInt(1), nil
	}
	if !n.IsInt64() || float64(k.Int64())*math.Log2(float64(n.Int64())+1) > maxMathBits {
		return nil, Errorf("MemoryError", "perm(%s, %s) is too large for code mode", n, k)
	}
	return starlark.MakeBigInt(new(big.Int).MulRange(n.Int64()-k.Int64()+1, n.Int64())), nil
}

func mathIsqrt(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	n, err := toInt(x)
	if err != nil {
		return nil, err
	}
	if n.Sign() < 0 {
		return nil, Errorf("ValueError", "isqrt() argument must be nonnegative")
	}
	return starlark.MakeBigInt(new(big.Int).Sqrt(n)), nil
}

func gcd(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, Errorf("TypeError", "%s() takes no keyword arguments", b.Name())
	}
	g := new(big.Int)
	for _, a := range args {
		x, err := toInt(a)
		if err != nil {
			return nil, err
		}
		g.GCD(nil, nil, g, new(big.Int).Abs(x))
	}
	return starlark.MakeBigInt(g), nil
}

func lcm(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(kwargs) > 0 {
		return nil, Errorf("TypeError", "%s() takes no keyword arguments", b.Name())
	}
	l := big.NewInt(1)
	for _, a := range args {
		x, err := toInt(a)
		if err != nil {
			return nil, err
		}
		x = new(big.Int).Abs(x)
		if x.Sign() == 0 || l.Sign() == 0 {
			l.SetInt64(0)
			continue
		}
		g := new(big.Int).GCD(nil, nil, l, x)
		l.Mul(l, new(big.Int).Quo(x, g))
		if l.BitLen() > maxMathBits {
			return nil, Errorf("MemoryError", "lcm() result is too large for code mode")
		}
	}
	return starlark.MakeBigInt(l), nil
}

// mathProd is math.prod(iterable, start=1) over numbers.
func mathProd(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var acc starlark.Value = starlark.MakeInt(1)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "iterable", &it, "start?", &acc); err != nil {
		return nil, err
	}
	num := func(v starlark.Value) (starlark.Value, error) {
		switch v := v.(type) {
		case starlark.Int, starlark.Float:
			return v, nil
		case starlark.Bool:
			return starlark.MakeBigInt(must(toInt(v))), nil
		}
		return nil, Errorf("TypeError", "math.prod: unsupported operand type %s (code mode multiplies numbers only)", TypeName(v))
	}
	acc, err := num(acc)
	if err != nil {
		return nil, err
	}
	err = Iterate(it, func(x starlark.Value) error {
		x, err := num(x)
		if err != nil {
			return err
		}
		if acc, err = starlark.Binary(syntax.STAR, acc, x); err != nil {
			return err
		}
		if i, ok := acc.(starlark.Int); ok {
			if bl := i.BigInt().BitLen(); bl > 64 {
				return CheckSize(thread, "math.prod's result", int64(bl/8))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return acc, nil
}

// mathFsum is math.fsum: the correctly rounded sum (CPython's algorithm).
func mathFsum(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &it); err != nil {
		return nil, err
	}
	var p []float64
	special, infSum := 0.0, 0.0
	err := Iterate(it, func(v starlark.Value) error {
		x, err := toFloat(v)
		if err != nil {
			return err
		}
		xsave := x
		i := 0
		for _, y := range p {
			if math.Abs(x) < math.Abs(y) {
				x, y = y, x
			}
			hi := x + y
			lo := y - (hi - x)
			if lo != 0 {
				p[i] = lo
				i++
			}
			x = hi
		}
		p = p[:i]
		if x != 0 {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				// from an inf or nan summand, or an intermediate overflow
				if !math.IsInf(xsave, 0) && !math.IsNaN(xsave) {
					return Errorf("OverflowError", "intermediate overflow in fsum")
				}
				if math.IsInf(xsave, 0) {
					infSum += xsave
				}
				special += xsave
				p = p[:0]
			} else {
				p = append(p, x)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if special != 0 {
		if math.IsNaN(infSum) {
			return nil, Errorf("ValueError", "-inf + inf in fsum")
		}
		return starlark.Float(special), nil
	}
	hi := 0.0
	n := len(p)
	if n > 0 {
		var lo float64
		n--
		hi = p[n]
		for n > 0 {
			x := hi
			n--
			y := p[n]
			hi = x + y
			yr := hi - x
			lo = y - yr
			if lo != 0 {
				break
			}
		}
		if n > 0 && (lo < 0 && p[n-1] < 0 || lo > 0 && p[n-1] > 0) {
			y := lo * 2
			x := hi + y
			if yr := x - hi; y == yr {
				hi = x
			}
		}
	}
	return starlark.Float(hi), nil
}

func mathModf(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var f float64
	if err := floatArgs(b, args, kwargs, &f); err != nil {
		return nil, err
	}
	if math.IsInf(f, 0) {
		return starlark.Tuple{starlark.Float(math.Copysign(0, f)), starlark.Float(f)}, nil
	}
	i, frac := math.Modf(f)
	return starlark.Tuple{starlark.Float(frac), starlark.Float(i)}, nil
}

func floatPred(p func(float64) bool) builtinFn {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		if _, ok := x.(starlark.Int); ok {
			return starlark.Bool(p(0)), nil // any int is finite, not NaN
		}
		f, err := toFloat(x)
		if err != nil {
			return nil, err
		}
		return starlark.Bool(p(f)), nil
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
	if rt < 0 || at < 0 {
		return nil, Errorf("ValueError", "tolerances must be non-negative")
	}
	if x == y {
		return starlark.True, nil
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return starlark.False, nil
	}
	d := math.Abs(x - y)
	return starlark.Bool(d <= math.Max(rt*math.Max(math.Abs(x), math.Abs(y)), at)), nil
}
