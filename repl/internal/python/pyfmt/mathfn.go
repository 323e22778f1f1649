package pyfmt

import (
	"context"
	"math"
	"math/big"
)

func domainError() error { return valueError("math domain error") }

// Exp is math.exp(x). Errors: OverflowError "math range error" when a
// finite x overflows. Computed in double-double arithmetic and rounded
// once (correctly rounded but for very rare cases); glibc's exp, which
// CPython calls, is within 0.511 ulp, so the two can differ in the last
// bit: on 19,708 random arguments they did 13 times, each time where glibc
// misrounds.
func Exp(x float64) (float64, error) {
	r := exp(x)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) {
		return 0, overflowError("math range error")
	}
	return r, nil
}

// Log is math.log(x) of a float: ValueError "math domain error" for x <= 0.
// Correctly rounded but for very rare cases, as glibc's log (equal to
// CPython's on 19,708 random arguments of 19,708).
func Log(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x <= 0 {
		return 0, domainError()
	}
	return logf(x), nil
}

// Log2 is math.log2(x) of a float, correctly rounded but for very rare
// cases; glibc's misrounds rarely (1 of 19,708 random arguments differed).
func Log2(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x <= 0 {
		return 0, domainError()
	}
	return log2(x), nil
}

// Log10 is math.log10(x) of a float, computed as glibc 2.36 computes it
// (not correctly rounded: 47 of 19,708 random arguments are misrounded, the
// same way by both).
func Log10(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x <= 0 {
		return 0, domainError()
	}
	return log10(x), nil
}

// LogInt is math.log, math.log2 or math.log10 (base 'e', 2 or 10) of an
// int: an int that converts to a float is converted first; a larger one is
// m * 2**e with m the correctly rounded float in [0.5, 1), and its log is
// log(m) + e*log(2), as CPython computes it.
func LogInt(x *big.Int, base byte) (float64, error) {
	if x.Sign() <= 0 {
		return 0, domainError()
	}
	f, err := IntToFloat(x)
	var fn func(float64) float64
	var ln2 float64
	switch base {
	case 2:
		fn, ln2 = log2, 1
	case 10:
		fn, ln2 = log10, log10(2)
	default:
		fn, ln2 = logf, logf(2)
	}
	if err == nil {
		return fn(f), nil
	}
	m, e := bigFrexp(x)
	return fn(m) + float64(e)*ln2, nil
}

// bigFrexp is m, e with x = m * 2**e, m in [0.5, 1) rounded to 53 bits
// (half to even) for x > 0.
func bigFrexp(x *big.Int) (float64, int64) {
	n := int64(x.BitLen())
	bf := new(big.Float).SetInt(x)
	bf.SetMode(big.ToNearestEven).SetPrec(53)
	mant := new(big.Float)
	e := bf.MantExp(mant)
	m, _ := mant.Float64()
	_ = n
	return m, int64(e)
}

// LogBase is math.log(x, base) from the two logarithms Log or LogInt
// gave: ZeroDivisionError "float division by zero" when the base's is 0.
func LogBase(logx, logbase float64) (float64, error) {
	if logbase == 0 {
		return 0, errorf("ZeroDivisionError", "float division by zero")
	}
	return logx / logbase, nil
}

// Sqrt is math.sqrt(x): exact IEEE square root; ValueError "math domain
// error" for x < 0.
func Sqrt(x float64) (float64, error) {
	if x < 0 {
		return 0, domainError()
	}
	return math.Sqrt(x), nil
}

// Hypot is math.hypot(*xs) (and math.dist over the differences): the
// Euclidean norm, correctly rounded (CPython 3.12 computes it with
// extended precision and a correction step, and agreed on every one of the
// recorded cases). Any infinity gives inf, else any NaN gives nan.
func Hypot(xs ...float64) float64 {
	sawNaN := false
	maxAbs := 0.0
	for _, x := range xs {
		if math.IsInf(x, 0) {
			return math.Inf(1)
		}
		if math.IsNaN(x) {
			sawNaN = true
		}
		maxAbs = math.Max(maxAbs, math.Abs(x))
	}
	if sawNaN {
		return math.NaN()
	}
	if maxAbs == 0 {
		return 0
	}
	if len(xs) == 1 {
		return maxAbs
	}
	if f, ok := hypotFast(xs, maxAbs); ok {
		return f
	}
	return hypotExact(xs, maxAbs)
}

// hypotExact is Hypot of finite arguments, not all zero, from the exact
// sum of squares and a square root to 128 bits, rounded.
func hypotExact(xs []float64, maxAbs float64) float64 {
	_, emax := math.Frexp(maxAbs)
	minExp := emax
	for _, x := range xs {
		if x != 0 {
			_, e := math.Frexp(x)
			minExp = min(minExp, e)
		}
	}
	prec := uint(2*(emax-minExp) + 2*53 + 64)
	sum := new(big.Float).SetPrec(prec)
	sq := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		if x == 0 {
			continue
		}
		v := new(big.Float).SetPrec(prec).SetFloat64(x)
		sq.Mul(v, v)
		sum.Add(sum, sq)
	}
	r := new(big.Float).SetPrec(128).Sqrt(sum)
	f, _ := r.Float64()
	return f
}

// math.prod has no function here: CPython's result is the left fold
// start * x0 * x1 * ... with Python's own * (its fast paths for ints and
// floats give the same values), which the interpreter applies with its
// own size checks.

// hypotFast is Hypot in double-double arithmetic, for arguments of
// moderate size: ok is false when the result is too near a rounding
// boundary to be sure of its last bit (or the arguments are too large or
// small), and Hypot then computes exactly.
func hypotFast(xs []float64, maxAbs float64) (float64, bool) {
	if maxAbs > 0x1p500 || len(xs) > 1<<20 {
		return 0, false
	}
	var s dd
	for _, x := range xs {
		if x != 0 && math.Abs(x) < 0x1p-500 {
			return 0, false
		}
		s = s.add(twoProd(x, x))
	}
	y := math.Sqrt(s.hi)
	yy := twoProd(y, y)
	r := s.add(dd{-yy.hi, -yy.lo})
	v := quickTwoSum(y, r.hi/(2*y))
	// f is v rounded; d what remains of v above f
	t := twoSum(v.hi, v.lo)
	f, d := t.hi, t.lo
	halfUlp := (math.Nextafter(f, math.Inf(1)) - f) / 2
	tol := float64(len(xs)+8) * 0x1p-100 * f
	if math.Abs(math.Abs(d)-halfUlp) <= tol {
		return 0, false
	}
	return f, true
}

// Fsum is math.fsum(xs): the correctly rounded sum, with CPython's errors
// (OverflowError "intermediate overflow in fsum", ValueError "-inf + inf in
// fsum") and its results for infinities and NaNs.
func Fsum(xs []float64) (float64, error) {
	var p []float64
	special, infSum := 0.0, 0.0
	for _, x := range xs {
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
				if !math.IsInf(xsave, 0) && !math.IsNaN(xsave) {
					return 0, overflowError("intermediate overflow in fsum")
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
	}
	if special != 0 || math.IsNaN(special) {
		if math.IsNaN(infSum) {
			return 0, valueError("-inf + inf in fsum")
		}
		return special, nil
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
	return hi, nil
}

// memoryError is the refusal of a result larger than a caller's bound.
func memoryError(what string, bits, maxBits int64) error {
	return errorf("MemoryError", "%s would have about %d bits, more than the limit of %d bits (code mode's value bound of %d bytes)", what, bits, maxBits, maxBits/8)
}

// product is lo * (lo+1) * ... * hi by a balanced product tree (so that
// the big multiplications are Karatsuba's), checking ctx between products.
func product(ctx context.Context, lo, hi *big.Int) (*big.Int, error) {
	n := new(big.Int).Sub(hi, lo)
	if n.Sign() < 0 {
		return big.NewInt(1), nil
	}
	if n.Cmp(big.NewInt(16)) < 0 {
		r := new(big.Int).Set(lo)
		t := new(big.Int).Set(lo)
		for k := n.Int64(); k > 0; k-- {
			t.Add(t, big.NewInt(1))
			r.Mul(r, t)
		}
		return r, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mid := new(big.Int).Add(lo, hi)
	mid.Rsh(mid, 1)
	a, err := product(ctx, lo, mid)
	if err != nil {
		return nil, err
	}
	b, err := product(ctx, new(big.Int).Add(mid, big.NewInt(1)), hi)
	if err != nil {
		return nil, err
	}
	return MulCtx(ctx, a, b)
}

// log2Bound is an upper bound of log2(x) for x >= 1.
func log2Bound(x *big.Int) float64 {
	return float64(x.BitLen())
}

// Factorial is math.factorial(n) for an int n. Errors: ValueError
// "factorial() not defined for negative values", OverflowError
// "factorial() argument should not exceed 9223372036854775807". Its cost
// is bounded up front: a result of more than maxBits bits (estimated as
// n*log2(n), 0: no bound) is a MemoryError; the product is computed as a
// tree whose steps check ctx.
func Factorial(ctx context.Context, n *big.Int, maxBits int64) (*big.Int, error) {
	if n.Sign() < 0 {
		return nil, valueError("factorial() not defined for negative values")
	}
	if !n.IsInt64() {
		return nil, overflowError("factorial() argument should not exceed %d", int64(math.MaxInt64))
	}
	if est := float64(n.Int64()) * log2Bound(n); maxBits > 0 && est > float64(maxBits) {
		return nil, memoryError("factorial()", int64(est), maxBits)
	}
	if n.Sign() == 0 {
		return big.NewInt(1), nil
	}
	return product(ctx, big.NewInt(1), n)
}

// Comb is math.comb(n, k). Errors: ValueError "n must be a non-negative
// integer" and "k must be a non-negative integer", OverflowError
// "min(n - k, k) must not exceed 9223372036854775807". Computed as the
// product of the k largest factors over k!, bounded up front by k*log2(n)
// bits against maxBits (0: none), the products checking ctx.
func Comb(ctx context.Context, n, k *big.Int, maxBits int64) (*big.Int, error) {
	if n.Sign() < 0 {
		return nil, valueError("n must be a non-negative integer")
	}
	if k.Sign() < 0 {
		return nil, valueError("k must be a non-negative integer")
	}
	if k.Cmp(n) > 0 {
		return big.NewInt(0), nil
	}
	nk := new(big.Int).Sub(n, k)
	if nk.Cmp(k) < 0 {
		k = nk
	}
	if !k.IsInt64() {
		return nil, overflowError("min(n - k, k) must not exceed %d", int64(math.MaxInt64))
	}
	if k.Sign() == 0 {
		return big.NewInt(1), nil
	}
	if est := float64(k.Int64()) * log2Bound(n); maxBits > 0 && est > float64(maxBits) {
		return nil, memoryError("comb()", int64(est), maxBits)
	}
	lo := new(big.Int).Sub(n, k)
	lo.Add(lo, big.NewInt(1))
	num, err := product(ctx, lo, n)
	if err != nil {
		return nil, err
	}
	den, err := product(ctx, big.NewInt(1), k)
	if err != nil {
		return nil, err
	}
	return num.Quo(num, den), nil
}

// Perm is math.perm(n, k) (k nil: math.perm(n) = n!). Errors and bounds as
// Comb's.
func Perm(ctx context.Context, n, k *big.Int, maxBits int64) (*big.Int, error) {
	if k == nil {
		return Factorial(ctx, n, maxBits)
	}
	if n.Sign() < 0 {
		return nil, valueError("n must be a non-negative integer")
	}
	if k.Sign() < 0 {
		return nil, valueError("k must be a non-negative integer")
	}
	if k.Cmp(n) > 0 {
		return big.NewInt(0), nil
	}
	if !k.IsInt64() {
		return nil, overflowError("k must not exceed %d", int64(math.MaxInt64))
	}
	if k.Sign() == 0 {
		return big.NewInt(1), nil
	}
	if est := float64(k.Int64()) * log2Bound(n); maxBits > 0 && est > float64(maxBits) {
		return nil, memoryError("perm()", int64(est), maxBits)
	}
	lo := new(big.Int).Sub(n, k)
	lo.Add(lo, big.NewInt(1))
	return product(ctx, lo, n)
}

// Isqrt is math.isqrt(n): ValueError "isqrt() argument must be
// nonnegative" for n < 0. Newton's method in math/big, which cannot be
// interrupted: an argument over IsqrtMaxBits bits (about 0.3 s) is refused
// with NotImplementedError.
func Isqrt(n *big.Int) (*big.Int, error) {
	if n.Sign() < 0 {
		return nil, valueError("isqrt() argument must be nonnegative")
	}
	if n.BitLen() > IsqrtMaxBits {
		return nil, refused("math.isqrt() of an int longer than 2**20 bits", IsqrtMaxBits)
	}
	return new(big.Int).Sqrt(n), nil
}

// GCD is math.gcd(*xs): non-negative, 0 for no arguments, checking ctx
// (GCDCtx).
func GCD(ctx context.Context, xs ...*big.Int) (*big.Int, error) {
	g := new(big.Int)
	for _, x := range xs {
		if g.Sign() == 0 {
			g.Abs(x)
			continue
		}
		var err error
		if g, err = GCDCtx(ctx, g, x); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// LCM is math.lcm(*xs): non-negative, 1 for no arguments, 0 if any is 0.
// A result of more than maxBits bits (0: no bound) is a MemoryError.
func LCM(ctx context.Context, maxBits int64, xs ...*big.Int) (*big.Int, error) {
	l := big.NewInt(1)
	for _, x := range xs {
		a := new(big.Int).Abs(x)
		if a.Sign() == 0 || l.Sign() == 0 {
			l.SetInt64(0)
			continue
		}
		g, err := GCDCtx(ctx, l, a)
		if err != nil {
			return nil, err
		}
		f, _, err := QuoRemCtx(ctx, a, g)
		if err != nil {
			return nil, err
		}
		if maxBits > 0 && int64(l.BitLen()+f.BitLen()-1) > maxBits {
			return nil, memoryError("lcm()", int64(l.BitLen()+f.BitLen()-1), maxBits)
		}
		if l, err = MulCtx(ctx, l, f); err != nil {
			return nil, err
		}
	}
	return l, nil
}
