package pyfmt

import (
	"math"
	"math/big"
	"sync"
)

// Go's math.Pow, math.Exp, math.Log, math.Log10 and math.Log2 are off by
// an ulp or more on many inputs where CPython (glibc) is correctly rounded:
// 100 ** 1.5 is 1000.0000000000002 and 1.1 ** 20 6.727499949325609 with
// math.Pow, 1000.0 and 6.727499949325611 in Python. The functions below
// compute in double-double arithmetic (about 104 bits) and round once, so
// they are correctly rounded but for results within about 2**-50 ulp of
// halfway between two floats. glibc's exp, log, log2 and pow are within
// 0.52 ulp, not correctly rounded: where glibc misrounds (about one random
// argument in a thousand for exp and pow) the results differ in the last
// bit. log10 follows glibc's own algorithm and matches it.

// dd is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func (a dd) add(b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func (a dd) mul(b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += a.hi*b.lo + a.lo*b.hi
	return quickTwoSum(p.hi, p.lo)
}

func (a dd) mulF(b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += a.lo * b
	return quickTwoSum(p.hi, p.lo)
}

func (a dd) div(b dd) dd {
	q1 := a.hi / b.hi
	r := a.add(b.mulF(-q1))
	q2 := r.hi / b.hi
	r = r.add(b.mulF(-q2))
	q3 := r.hi / b.hi
	q := quickTwoSum(q1, q2)
	return q.add(dd{q3, 0})
}

var (
	ddLn2    = dd{0.6931471805599453, 2.3190468138462996e-17}
	ddInvLn2 = dd{1.4426950408889634, 2.0355273740931033e-17}
)

// ddExpSlow is e**t as a double-double times 2**k, for |t.hi| < 746, by
// a Taylor series of exp(r/2**10) squared ten times. ddExp is faster; this
// one builds its table.
func ddExpSlow(t dd) (dd, int) {
	k := math.Round(t.hi / ddLn2.hi)
	r := t.add(ddLn2.mulF(-k))
	// exp(r) = (exp(r/2^10))^(2^10); e = exp(s) - 1 by Taylor series
	const sq = 10
	s := dd{math.Ldexp(r.hi, -sq), math.Ldexp(r.lo, -sq)}
	e := s
	term := s
	for i := 2; i <= 12; i++ {
		term = term.mul(s).div(dd{float64(i), 0})
		e = e.add(term)
		if math.Abs(term.hi) < 1e-36 {
			break
		}
	}
	for i := 0; i < sq; i++ {
		// (1+e)^2 - 1 = 2e + e^2
		e = dd{2 * e.hi, 2 * e.lo}.add(e.mul(e))
	}
	return e.add(dd{1, 0}), int(k)
}

// expTableBits sets ddExp's table: 2**(j/64) for j < 64.
const expTableBits = 6

var (
	expTableOnce sync.Once
	expTable     [1 << expTableBits]dd
	// invFact[i] is 1/i! as a double-double.
	invFact = func() (f [12]dd) {
		p := 1.0
		for i := range f {
			if i > 0 {
				p *= float64(i)
			}
			f[i] = dd{1, 0}.div(dd{p, 0})
		}
		return f
	}()
)

// ddExp is e**t as a double-double times 2**k, for |t.hi| < 746:
// t = (64m + j) * ln2/64 + r with |r| <= ln2/128, so that e**t is
// 2**m * 2**(j/64) * e**r, e**r by its Taylor series to 11 terms (an
// error under 2**-106).
func ddExp(t dd) (dd, int) {
	expTableOnce.Do(func() {
		for j := range expTable {
			e, k := ddExpSlow(ddLn2.mulF(float64(j) / (1 << expTableBits)))
			expTable[j] = dd{math.Ldexp(e.hi, k), math.Ldexp(e.lo, k)}
		}
	})
	const scale = 1 << expTableBits
	n := math.Round(t.hi * (scale / ddLn2.hi))
	r := t.add(dd{ddLn2.hi / scale, ddLn2.lo / scale}.mulF(-n))
	e := invFact[11]
	for i := 10; i >= 0; i-- {
		e = e.mul(r).add(invFact[i])
	}
	ni := int(n)
	j := ni & (scale - 1)
	return e.mul(expTable[j]), (ni - j) >> expTableBits
}

// ddLog is the natural logarithm of a positive normal finite x: one Newton
// step on exp from math.Log doubles its precision.
func ddLog(x float64) dd {
	l := math.Log(x)
	e, k := ddExp(dd{l, 0})
	e = dd{math.Ldexp(e.hi, k), math.Ldexp(e.lo, k)}
	// l + (x - e)/e
	d := dd{x, 0}.add(dd{-e.hi, -e.lo})
	return quickTwoSum(l, d.hi/e.hi)
}

// ddLdexp is v * 2**e rounded once to a float, subnormals included.
func ddLdexp(v dd, e int) float64 {
	if _, ex := math.Frexp(v.hi); ex+e > -1020 {
		return math.Ldexp(v.hi+v.lo, e) // a normal result: scaling is exact
	}
	b := new(big.Float).SetPrec(200).SetFloat64(v.hi)
	b.Add(b, new(big.Float).SetPrec(200).SetFloat64(v.lo))
	b.SetMantExp(b, e)
	f, _ := b.Float64()
	return f
}

// accuratePow is x**y, correctly rounded in all but very rare cases, for
// x > 0 (finite).
func accuratePow(x, y float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) || y == 0 || x == 1 {
		return math.Pow(x, y)
	}
	if y == math.Trunc(y) && math.Abs(y) <= 1<<20 {
		// repeated squaring on a double-double mantissa with a separate
		// binary exponent, so nothing overflows or underflows on the way
		fx, ex := math.Frexp(x)
		r, re := dd{1, 0}, 0
		b, be := dd{fx, 0}, ex
		norm := func(v dd, e int) (dd, int) {
			f, k := math.Frexp(v.hi)
			return dd{f, math.Ldexp(v.lo, -k)}, e + k
		}
		for n := int64(math.Abs(y)); n > 0; n >>= 1 {
			if n&1 == 1 {
				r, re = norm(r.mul(b), re+be)
			}
			if n > 1 {
				b, be = norm(b.mul(b), 2*be)
			}
		}
		if y < 0 {
			r, re = norm(dd{1, 0}.div(r), -re)
		}
		return ddLdexp(r, re)
	}
	t := ddLogAny(x).mulF(y)
	if math.Abs(t.hi) > 746 {
		return math.Pow(x, y) // an overflow or zero
	}
	r, k := ddExp(t)
	return ddLdexp(r, k)
}

// ddLogAny is the natural logarithm of any positive finite x (subnormals
// included): x = f * 2**e with f near 1, log(x) = e*log(2) + log(f).
func ddLogAny(x float64) dd {
	f, e := math.Frexp(x) // f in [0.5, 1)
	if f < math.Sqrt2/2 {
		f *= 2
		e--
	}
	if e == 0 {
		return ddLog(f)
	}
	return ddLn2.mulF(float64(e)).add(ddLog(f))
}

// log10 is log10(x) as glibc 2.36 computes it (the fdlibm algorithm:
// y*log10(2) split in two parts plus log(m)/ln(10) for x = m * 2**y, m in
// [1, 2) or, for x < 1, [0.5, 1)) over a correctly rounded log, which
// CPython on Linux returns.
func log10(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log10(x)
	}
	const (
		ivln10    = 4.34294481903251816668e-01
		log10_2hi = 3.01029995663611771306e-01
		log10_2lo = 3.69423907715893078616e-13
	)
	f, e := math.Frexp(x) // x = f * 2**e, f in [0.5, 1)
	m, y := 2*f, float64(e-1)
	if e-1 < 0 {
		m, y = f, float64(e)
	}
	z := y*log10_2lo + ivln10*logf(m)
	return z + y*log10_2hi
}

// log2 is log2(x), correctly rounded but for very rare cases.
func log2(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log2(x)
	}
	if f, e := math.Frexp(x); f == 0.5 {
		return float64(e - 1)
	}
	r := ddLogAny(x).mul(ddInvLn2)
	return r.hi + r.lo
}

// exp is e**x, correctly rounded but for very rare cases.
func exp(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 745 {
		return math.Exp(x)
	}
	r, k := ddExp(dd{x, 0})
	return ddLdexp(r, k)
}

// logf is the natural logarithm, correctly rounded but for very rare cases.
func logf(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log(x)
	}
	r := ddLogAny(x)
	return r.hi + r.lo
}
