// Package crmath computes elementary functions of float64 correctly rounded
// (to nearest), in double-double arithmetic.
//
// CPython's math functions call the C library, whose log, exp, sin, cos,
// acos and pow are correctly rounded in all but rare cases (about one
// argument in a thousand differs by one unit in the last place); Go's math
// package is less accurate. The interpreter's modules use this package so
// that their results match CPython's in all but those rare cases.
package crmath

import (
	"math"
	"math/big"
	"sync"
)

// dd is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	e := (a - (s - bb)) + (b - bb)
	return dd{s, e}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	e := b - (s - a)
	return dd{s, e}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func add(a, b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func neg(a dd) dd { return dd{-a.hi, -a.lo} }

func sub(a, b dd) dd { return add(a, neg(b)) }

func mul(a, b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += a.hi*b.lo + a.lo*b.hi
	return quickTwoSum(p.hi, p.lo)
}

func mulF(a dd, b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += a.lo * b
	return quickTwoSum(p.hi, p.lo)
}

func div(a, b dd) dd {
	q1 := a.hi / b.hi
	r := sub(a, mulF(b, q1))
	q2 := r.hi / b.hi
	r = sub(r, mulF(b, q2))
	q3 := r.hi / b.hi
	return add(quickTwoSum(q1, q2), dd{q3, 0})
}

func ldexpDD(a dd, k int) dd { return dd{math.Ldexp(a.hi, k), math.Ldexp(a.lo, k)} }

var (
	ln2    = dd{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56}
	ln2Lo2 = 0x1.7b57a079a1934p-111
	invLn2 = dd{0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56}
	pio2   = [3]float64{0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54, -0x1.f1976b7ed8fbcp-110}
	pi     = dd{0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53}

	invFact [32]dd // 1/n!
)

func init() {
	f := dd{1, 0}
	invFact[0] = f
	for n := 1; n < len(invFact); n++ {
		f = div(f, dd{float64(n), 0})
		invFact[n] = f
	}
}

// expm1Small returns exp(s)-1 for |s| <= 0.35, with a relative error near
// 2**-104.
func expm1Small(s dd) dd {
	const halvings = 10
	t := ldexpDD(s, -halvings)
	// Horner: t*(1 + t/2 + t^2/6 + ... ) up to t^9/9!.
	p := invFact[10]
	for n := 9; n >= 1; n-- {
		p = add(mul(p, t), invFact[n])
	}
	e := mul(p, t)
	for i := 0; i < halvings; i++ {
		// (1+e)^2 - 1 = 2e + e^2
		e = add(ldexpDD(e, 1), mul(e, e))
	}
	return e
}

// reduceLn2 splits x (a double-double) as k*ln2 + r with |r| <= ln2/2
// roughly, r in double-double.
func reduceLn2(x dd) (int, dd) {
	k := math.RoundToEven(x.hi * invLn2.hi)
	t := twoProd(k, ln2.hi)
	r := sub(x, t)
	r = sub(r, twoProd(k, ln2.lo))
	r = sub(r, dd{k * ln2Lo2, 0})
	return int(k), r
}

// round returns the double nearest to m * 2**k.
func round(m dd, k int) float64 {
	v := m.hi + m.lo
	if v == 0 {
		return 0
	}
	_, e := math.Frexp(v)
	if e+k > -1021 {
		return math.Ldexp(v, k) // exact scaling, or ±Inf on overflow
	}
	// Subnormal result: round at the quantum 2**-1074.
	h := math.Ldexp(m.hi, k+1074)
	l := math.Ldexp(m.lo, k+1074)
	n := math.RoundToEven(h)
	rem := (h - n) + l
	switch {
	case rem > 0.5:
		n++
	case rem < -0.5:
		n--
	case rem == 0.5 || rem == -0.5:
		if math.Mod(n, 2) != 0 {
			n += math.Copysign(1, rem)
		}
	}
	return math.Ldexp(n, -1074)
}

// expDD returns exp(x) as m * 2**k.
func expDD(x dd) (dd, int) {
	k, r := reduceLn2(x)
	e := expm1Small(r)
	return add(dd{1, 0}, e), k
}

// Exp returns e**x correctly rounded.
func Exp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 710:
		return math.Inf(1)
	case x < -746:
		return 0
	}
	m, k := expDD(dd{x, 0})
	return round(m, k)
}

// expm1DD returns exp(x)-1 with relative accuracy even for small x.
func expm1DD(x float64) dd {
	k, r := reduceLn2(dd{x, 0})
	e := expm1Small(r)
	if k == 0 {
		return e
	}
	return sub(ldexpDD(add(dd{1, 0}, e), k), dd{1, 0})
}

// logDD returns log(x) for finite x > 0.
func logDD(x float64) dd {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	y0 := math.Log(m)
	// Newton: y1 = y0 + m*exp(-y0) - 1 = y0 + (m-1)*E + M, E = 1 + M,
	// M = expm1(-y0).
	M := expm1DD(-y0)
	E := add(dd{1, 0}, M)
	corr := add(mulF(E, m-1), M)
	y := add(dd{y0, 0}, corr)
	if e == 0 {
		return y
	}
	fe := float64(e)
	return add(add(mulF(ln2, fe), dd{fe * ln2Lo2, 0}), y)
}

func prepLog(x float64) (float64, int, bool) {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x, 0, false
	case x == 0:
		return math.Inf(-1), 0, false
	case x < 0:
		return math.NaN(), 0, false
	}
	if x < 0x1p-1022 {
		return x * 0x1p54, -54, true
	}
	return x, 0, true
}

// Log returns the natural logarithm of x correctly rounded.
func Log(x float64) float64 {
	x, adj, ok := prepLog(x)
	if !ok {
		return x
	}
	y := logDD(x)
	if adj != 0 {
		y = add(y, mulF(ln2, float64(adj)))
	}
	return y.hi + y.lo
}

// Log2 returns the base-2 logarithm of x correctly rounded.
func Log2(x float64) float64 {
	x, adj, ok := prepLog(x)
	if !ok {
		return x
	}
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	e += adj
	if m == 1 {
		return float64(e)
	}
	y := mul(logDD(m), invLn2)
	y = add(dd{float64(e), 0}, y)
	return y.hi + y.lo
}

// reducePio2 returns r and k with x = k*pi/2 + r, |r| <= pi/4 about.
func reducePio2(x float64) (dd, int) {
	k := math.RoundToEven(x * (2 / math.Pi))
	r := sub(dd{x, 0}, twoProd(k, pio2[0]))
	r = sub(r, twoProd(k, pio2[1]))
	r = sub(r, dd{k * pio2[2], 0})
	return r, int(int64(k) & 3)
}

func sinCosDD(r dd) (s, c dd) {
	r2 := mul(r, r)
	return mul(sinPoly(r2), r), cosPoly(r2)
}

func sinPoly(r2 dd) dd {
	// sum_{i=0}^{14} (-1)^i r2^i / (2i+1)!
	p := signed(invFact[29], 14)
	for i := 13; i >= 0; i-- {
		p = add(mul(p, r2), signed(invFact[2*i+1], i))
	}
	return p
}

func cosPoly(r2 dd) dd {
	p := signed(invFact[30], 15)
	for i := 14; i >= 0; i-- {
		p = add(mul(p, r2), signed(invFact[2*i], i))
	}
	return p
}

func signed(v dd, i int) dd {
	if i%2 == 1 {
		return neg(v)
	}
	return v
}

const bigArg = 0x1p20

const bigPrec = 1400

var (
	pio2Once sync.Once
	pio2Big  *big.Float
)

// arctanInv returns atan(1/n) to bigPrec bits.
func arctanInv(n int64) *big.Float {
	x := new(big.Float).SetPrec(bigPrec+32).Quo(big.NewFloat(1).SetPrec(bigPrec+32), big.NewFloat(float64(n)))
	n2 := big.NewFloat(float64(n * n)).SetPrec(bigPrec + 32)
	sum := new(big.Float).SetPrec(bigPrec + 32).Set(x)
	pow := new(big.Float).SetPrec(bigPrec + 32).Set(x)
	term := new(big.Float).SetPrec(bigPrec + 32)
	for k := int64(3); ; k += 2 {
		pow.Quo(pow, n2)
		term.Quo(pow, big.NewFloat(float64(k)))
		if term.Sign() == 0 || term.MantExp(nil) < -bigPrec-40 {
			break
		}
		if (k/2)%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum
}

// reduceBig reduces a huge argument exactly enough with a 1400-bit pi/2
// (Machin's formula: pi/4 = 4 atan(1/5) - atan(1/239)).
func reduceBig(x float64) (dd, int) {
	pio2Once.Do(func() {
		a := arctanInv(5)
		a.Mul(a, big.NewFloat(4))
		a.Sub(a, arctanInv(239))
		pio2Big = a.Mul(a, big.NewFloat(2)) // pi/2
	})
	bx := new(big.Float).SetPrec(bigPrec).SetFloat64(x)
	q := new(big.Float).SetPrec(bigPrec).Quo(bx, pio2Big)
	// Round q to the nearest integer.
	qi, _ := new(big.Float).SetPrec(bigPrec).Add(q, big.NewFloat(0.5)).Int(nil)
	if q.Sign() < 0 {
		qi, _ = new(big.Float).SetPrec(bigPrec).Sub(q, big.NewFloat(0.5)).Int(nil)
	}
	k := new(big.Float).SetPrec(bigPrec).SetInt(qi)
	r := new(big.Float).SetPrec(bigPrec).Mul(k, pio2Big)
	r.Sub(bx, r)
	hi, _ := r.Float64()
	r.Sub(r, big.NewFloat(hi))
	lo, _ := r.Float64()
	quad := new(big.Int).And(qi, big.NewInt(3)).Int64()
	return dd{hi, lo}, int(quad)
}

// sinCos returns sin(x) and cos(x) in double-double.
func sinCos(x float64) (dd, dd) {
	var r dd
	var q int
	if math.Abs(x) < bigArg {
		r, q = reducePio2(x)
	} else {
		r, q = reduceBig(x)
	}
	s, c := sinCosDD(r)
	switch q {
	case 1:
		return c, neg(s)
	case 2:
		return neg(s), neg(c)
	case 3:
		return neg(c), s
	}
	return s, c
}

// Sin returns sin(x) correctly rounded.
func Sin(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == 0 {
		return x
	}
	s, _ := sinCos(x)
	return s.hi + s.lo
}

// Cos returns cos(x) correctly rounded.
func Cos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	_, c := sinCos(x)
	return c.hi + c.lo
}

// Acos returns acos(x) correctly rounded (NaN outside [-1, 1]).
func Acos(x float64) float64 {
	switch {
	case math.IsNaN(x) || x > 1 || x < -1:
		return math.NaN()
	case x == 1:
		return 0
	case x == -1:
		return pi.hi
	}
	y0 := math.Acos(x)
	s, c := sinCos(y0)
	// Newton on cos(y) = x: y1 = y0 + (cos(y0) - x) / sin(y0).
	y := add(dd{y0, 0}, div(sub(c, dd{x, 0}), s))
	return y.hi + y.lo
}

// Pow returns x**y correctly rounded, with C99's special cases.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0:
		return math.Pow(x, y)
	}
	sign := 1.0
	if x < 0 {
		if y != math.Trunc(y) {
			return math.NaN()
		}
		if math.Abs(y) < 0x1p53 && int64(y)%2 != 0 {
			sign = -1
		}
		x = -x
	}
	x, adj, _ := prepLog(x)
	l := logDD(x)
	if adj != 0 {
		l = add(l, mulF(ln2, float64(adj)))
	}
	p := mulF(l, y)
	switch {
	case p.hi > 710:
		return sign * math.Inf(1)
	case p.hi < -746:
		return sign * 0
	}
	m, k := expDD(p)
	return sign * round(m, k)
}
