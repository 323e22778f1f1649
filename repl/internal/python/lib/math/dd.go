package math

import (
	"math"
	"math/big"
	"sync"
)

// Double-double fast paths of the correctly rounded functions of cr.go:
// the same functions evaluated in about 106 bits with float64 arithmetic
// (FMA), whose result is returned when its error bound shows how it
// rounds; the multiple-precision path decides the rare rest.

// dd is the unevaluated sum hi + lo, |lo| <= ulp(hi)/2.
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

func (a dd) neg() dd { return dd{-a.hi, -a.lo} }

func (a dd) sub(b dd) dd { return a.add(b.neg()) }

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
	r := a.sub(b.mulF(q1))
	q2 := r.hi / b.hi
	r = r.sub(b.mulF(q2))
	q3 := r.hi / b.hi
	return quickTwoSum(q1, q2).add(dd{q3, 0})
}

func (a dd) sqrt() dd {
	if a.hi <= 0 {
		return dd{math.Sqrt(a.hi), 0}
	}
	s := math.Sqrt(a.hi)
	r := a.sub(twoProd(s, s))
	return quickTwoSum(s, r.hi/(2*s))
}

// rounded returns v rounded to float64 and whether v, known within a
// relative error of 2**-rel, certainly rounds there.
func (v dd) rounded(rel int) (float64, bool) {
	f := v.hi + v.lo
	e := math.Ldexp(math.Abs(v.hi), -rel)
	return f, v.hi+(v.lo+e) == f && v.hi+(v.lo-e) == f
}

var (
	ddOnce sync.Once
	// pio2 is pi/2 as three floats (about 160 bits); ddPi is pi as a
	// double-double.
	pio2 [3]float64
	ddPi dd
	// sinCoef[k] = (-1)^k / (2k+1)!, cosCoef[k] = (-1)^k / (2k)!.
	sinCoef, cosCoef [15]dd
)

// toDD rounds a big.Float to a double-double.
func toDD(b *big.Float) dd {
	hi, _ := b.Float64()
	rest := newF(b.Prec()).Sub(b, newF(b.Prec()).SetFloat64(hi))
	lo, _ := rest.Float64()
	return dd{hi, lo}
}

func initDD() {
	ddOnce.Do(func() {
		const p = 256
		h := piAt(p)
		h.SetMantExp(h, -1)
		rest := newF(p).Set(h)
		for i := range pio2 {
			pio2[i], _ = rest.Float64()
			rest.Sub(rest, newF(p).SetFloat64(pio2[i]))
		}
		ddPi = toDD(piAt(p))
		fact := one(p)
		for n := int64(0); n < 30; n++ {
			if n > 0 {
				fact.Mul(fact, newF(p).SetInt64(n))
			}
			c := toDD(newF(p).Quo(one(p), fact))
			if (n/2)%2 == 1 {
				c = c.neg()
			}
			if n%2 == 1 {
				sinCoef[n/2] = c
			} else {
				cosCoef[n/2] = c
			}
		}
	})
}

// ddReduce returns r and k mod 4 with x = k*pi/2 + r for |x| < 2**20,
// r exact to about 2**-135 absolutely; ok is false when r is too small
// for that to be a good relative precision.
func ddReduce(x float64) (dd, int, bool) {
	if math.Abs(x) <= 0.785 {
		return dd{x, 0}, 0, true
	}
	k := math.RoundToEven(x / pio2[0])
	p1 := twoProd(k, pio2[0])
	s := twoSum(x, -p1.hi)
	r := s.add(dd{-p1.lo, 0})
	r = r.sub(twoProd(k, pio2[1]))
	r = r.sub(dd{k * pio2[2], 0})
	if math.Abs(r.hi) < 0x1p-36 {
		return r, 0, false
	}
	return r, int(int64(k) & 3), true
}

func ddPoly(r2 dd, c *[15]dd, n int) dd {
	s := c[n-1]
	for i := n - 2; i >= 0; i-- {
		s = s.mul(r2).add(c[i])
	}
	return s
}

// ddSinCos returns sin(r) and cos(r) for |r| <= pi/4 + a little.
func ddSinCos(r dd) (dd, dd) {
	r2 := r.mul(r)
	s := ddPoly(r2, &sinCoef, 14).mul(r)
	c := ddPoly(r2, &cosCoef, 15)
	return s, c
}

// fastSinCos returns sin(x) (which 0) or cos(x) (which 1), ok when the
// double-double result certainly rounds to it.
func fastSinCos(x float64, which int) (float64, bool) {
	if math.Abs(x) >= 0x1p20 {
		return 0, false
	}
	initDD()
	r, k, ok := ddReduce(x)
	if !ok {
		return 0, false
	}
	s, c := ddSinCos(r)
	k = (k + which) & 3
	v := s
	if k%2 == 1 {
		v = c
	}
	if k >= 2 {
		v = v.neg()
	}
	return v.rounded(96)
}

func fastTan(x float64) (float64, bool) {
	if math.Abs(x) >= 0x1p20 {
		return 0, false
	}
	initDD()
	r, k, ok := ddReduce(x)
	if !ok {
		return 0, false
	}
	s, c := ddSinCos(r)
	var v dd
	if k%2 == 1 {
		v = c.div(s).neg()
	} else {
		v = s.div(c)
	}
	return v.rounded(94)
}

// ddAtan is atan(z) of a double-double: one Newton step on tan from Go's
// atan of z.hi, y1 = y0 - (sin y0 cos y0 - z cos^2 y0).
func ddAtan(z dd) (dd, bool) {
	y0 := math.Atan(z.hi)
	if y0 == 0 || math.Abs(z.hi) > 0x1p50 {
		return dd{}, false
	}
	r, k, ok := ddReduce(y0)
	if !ok {
		return dd{}, false
	}
	s, c := ddSinCos(r)
	switch k {
	case 1:
		s, c = c, s.neg()
	case 2:
		s, c = s.neg(), c.neg()
	case 3:
		s, c = c.neg(), s
	}
	corr := s.mul(c).sub(z.mul(c).mul(c))
	return dd{y0, 0}.sub(corr), true
}

func fastAtan(x float64) (float64, bool) {
	initDD()
	if math.Abs(x) < 0x1p-26 {
		return 0, false
	}
	v, ok := ddAtan(dd{x, 0})
	if !ok {
		return 0, false
	}
	return v.rounded(92)
}

func fastAsin(x float64) (float64, bool) {
	initDD()
	ax := math.Abs(x)
	if ax < 0x1p-26 || ax > 0.9999 {
		return 0, false
	}
	d := dd{1, 0}.sub(twoProd(x, x)).sqrt()
	v, ok := ddAtan(dd{x, 0}.div(d))
	if !ok {
		return 0, false
	}
	return v.rounded(90)
}

func fastAcos(x float64) (float64, bool) {
	initDD()
	if math.Abs(x) > 0.9999 {
		return 0, false
	}
	q := twoSum(1, -x).div(twoSum(1, x)).sqrt()
	v, ok := ddAtan(q)
	if !ok {
		return 0, false
	}
	return dd{2 * v.hi, 2 * v.lo}.rounded(90)
}

func fastAtan2(y, x float64) (float64, bool) {
	initDD()
	q := dd{y, 0}.div(dd{x, 0})
	if math.IsInf(q.hi, 0) || math.IsNaN(q.hi) || math.Abs(q.hi) < 0x1p-900 {
		return 0, false
	}
	if x > 0 && math.Abs(q.hi) < 0x1p-26 {
		return 0, false
	}
	v, ok := ddAtan(q)
	if !ok {
		return 0, false
	}
	if x < 0 {
		if y < 0 {
			v = v.sub(ddPi)
		} else {
			v = v.add(ddPi)
		}
	}
	return v.rounded(90)
}
