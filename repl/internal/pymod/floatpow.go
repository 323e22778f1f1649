package pymod

import "math"

// Go's math.Pow, math.Log10 and math.Log2 are off by an ulp or more on
// many inputs where CPython (the C library) is correctly rounded:
// 100 ** 1.5 is 1000.0000000000002 and 1.1 ** 20 6.727499949325609 with
// math.Pow, 1000.0 and 6.727499949325611 in Python. The functions below
// compute in double-double arithmetic (about 100 bits) and round once
// (glibc's pow is within 0.52 ulp, so a result that close to halfway
// between two floats can still differ).

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
	ddLn2     = dd{0.6931471805599453, 2.3190468138462996e-17}
	ddInvLn2  = dd{1.4426950408889634, 2.0355273740931033e-17}
	ddInvLn10 = dd{0.4342944819032518, 1.098319650216765e-17}
)

// ddExp is e**t as a double-double times 2**k, for |t.hi| < 746.
func ddExp(t dd) (dd, int) {
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

// normal reports whether x is a finite, non-zero, normal float far from the
// exponent limits (where double-double products stay exact enough).
func normal(x float64) bool {
	a := math.Abs(x)
	return a > 1e-290 && a < 1e290
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
		return math.Ldexp(r.hi+r.lo, re)
	}
	t := ddLog(x).mulF(y)
	if math.Abs(t.hi) > 745 {
		return math.Pow(x, y)
	}
	r, k := ddExp(t)
	return math.Ldexp(r.hi+r.lo, k)
}

// Pow is x ** y for floats with the C library's accuracy.
func Pow(x, y float64) float64 {
	if x < 0 && y == math.Trunc(y) && !math.IsInf(y, 0) {
		r := accuratePow(-x, y)
		if math.Abs(y) < 1<<53 && int64(y)&1 == 1 {
			return -r
		}
		return r
	}
	if x > 0 {
		return accuratePow(x, y)
	}
	return math.Pow(x, y)
}

// Log10 is log10(x) as glibc computes it (fdlibm's e_log10.c over a
// correctly rounded log), which CPython on Linux returns.
func Log10(x float64) float64 {
	if !normal(x) || x < 0 {
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
	z := y*log10_2lo + ivln10*Log(m)
	return z + y*log10_2hi
}

// Log2 is log2(x) with the C library's accuracy.
func Log2(x float64) float64 {
	if !normal(x) || x < 0 {
		return math.Log2(x)
	}
	if f, e := math.Frexp(x); f == 0.5 {
		return float64(e - 1)
	}
	r := ddLog(x).mul(ddInvLn2)
	return r.hi + r.lo
}

// Exp is e**x with the C library's accuracy.
func Exp(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 745 {
		return math.Exp(x)
	}
	r, k := ddExp(dd{x, 0})
	return math.Ldexp(r.hi+r.lo, k)
}

// Log is the natural logarithm with the C library's accuracy.
func Log(x float64) float64 {
	if !normal(x) || x < 0 {
		return math.Log(x)
	}
	r := ddLog(x)
	return r.hi + r.lo
}
