package math

import (
	"math"
	"math/big"
	"sync"
)

// Correctly rounded trigonometric functions. CPython's math module calls
// the C library, and glibc's sin, cos, tan, asin, acos, atan and atan2
// are correctly rounded (to nearest) but for rare arguments (a few in a
// thousand); Go's math package is not (it differs from glibc on a
// quarter of random arguments). The functions here evaluate in multiple
// precision with math/big, test whether the result rounds the same at
// both ends of its error bound, and redo the work at a higher precision
// when it does not (Ziv's strategy), so they return the correctly rounded
// result.

const (
	startPrec = 96
	maxPrec   = 1024
	// piPrec is the precision of the stored pi: enough to reduce any
	// float64 argument (exponents up to 1024) at maxPrec.
	piPrec = 1100 + maxPrec + 192
)

var (
	piOnce sync.Once
	bigPi  *big.Float
)

func newF(p uint) *big.Float { return new(big.Float).SetPrec(p) }

func one(p uint) *big.Float { return newF(p).SetInt64(1) }

// piF returns pi to piPrec bits: Machin's formula pi/4 = 4 atan(1/5) -
// atan(1/239).
func piF() *big.Float {
	piOnce.Do(func() {
		p := uint(piPrec + 32)
		a := atanInv(5, p)
		a.Mul(a, newF(p).SetInt64(4))
		a.Sub(a, atanInv(239, p))
		a.Mul(a, newF(p).SetInt64(4))
		bigPi = a.SetPrec(piPrec)
	})
	return bigPi
}

// piAt returns pi rounded to p bits.
func piAt(p uint) *big.Float { return newF(p).Set(piF()) }

// atanInv is atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1)) to p bits.
func atanInv(n int64, p uint) *big.Float {
	sum := newF(p)
	pow := newF(p).Quo(one(p), newF(p).SetInt64(n)) // 1/n^(2k+1)
	n2 := newF(p).SetInt64(n * n)
	term := newF(p)
	for k := int64(0); ; k++ {
		term.Quo(pow, newF(p).SetInt64(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		if term.Sign() == 0 || term.MantExp(nil) < -int(p)-8 {
			return sum
		}
		pow.Quo(pow, n2)
	}
}

// ziv evaluates f (a result with relative error at most 2**(-(p-16)) at
// precision p) until the float64 it rounds to is certain.
func ziv(f func(p uint) *big.Float) float64 {
	for p := uint(startPrec); ; p *= 2 {
		v := f(p)
		r, _ := v.Float64()
		if p >= maxPrec || v.Sign() == 0 || v.IsInf() {
			return r
		}
		d := newF(p).SetMantExp(v, -int(p)+16)
		d.Abs(d)
		lo, _ := newF(p).Sub(v, d).Float64()
		hi, _ := newF(p).Add(v, d).Float64()
		if lo == hi {
			return r
		}
	}
}

// reduce returns r and k mod 4 with x = k*pi/2 + r, |r| <= pi/4, r with
// about p bits of relative precision.
func reduce(x float64, p uint) (*big.Float, int) {
	if math.Abs(x) < 0.78 {
		return newF(p).SetFloat64(x), 0
	}
	_, e := math.Frexp(x)
	q := p + 128 + uint(max(e, 0))
	halfPi := piAt(q)
	halfPi.SetMantExp(halfPi, -1)
	kf := newF(q).Quo(newF(q).SetFloat64(x), halfPi)
	kf.Add(kf, newF(q).SetFloat64(0.5))
	k, acc := kf.Int(nil)
	if acc == big.Above {
		k.Sub(k, big.NewInt(1)) // floor of a negative non-integer
	}
	r := newF(q).SetFloat64(x)
	r.Sub(r, newF(q).Mul(newF(q).SetInt(k), halfPi))
	m := new(big.Int).And(k, big.NewInt(3)).Int64()
	return r.SetPrec(p + 32), int(m)
}

// sinCosSeries returns sin(r) (odd) or cos(r) (!odd) by Taylor series,
// |r| <= pi/4.
func sinCosSeries(r *big.Float, p uint, odd bool) *big.Float {
	w := p + 32
	r2 := newF(w).Mul(r, r)
	var term *big.Float
	n := int64(0)
	if odd {
		term = newF(w).Set(r)
		n = 1
	} else {
		term = one(w)
	}
	sum := newF(w).Set(term)
	if term.Sign() == 0 {
		return sum
	}
	top := sum.MantExp(nil)
	for {
		term.Mul(term, r2)
		term.Quo(term, newF(w).SetInt64((n+1)*(n+2)))
		term.Neg(term)
		n += 2
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < top-int(w) {
			return sum
		}
	}
}

// sinCos returns sin(x) (which 0) or cos(x) (which 1) of a finite x.
func sinCos(x float64, which int) float64 {
	if x == 0 && which == 0 {
		return x
	}
	return ziv(func(p uint) *big.Float {
		r, k := reduce(x, p)
		k = (k + which) & 3
		// sin(x) for k: 0 sin r, 1 cos r, 2 -sin r, 3 -cos r
		v := sinCosSeries(r, p, k%2 == 0)
		if k >= 2 {
			v.Neg(v)
		}
		return v
	})
}

// crSin, crCos and crTan are sin, cos and tan of a finite x.
func crSin(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == 0 {
		return x
	}
	if v, ok := fastSinCos(x, 0); ok {
		return v
	}
	return sinCos(x, 0)
}

func crCos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if v, ok := fastSinCos(x, 1); ok {
		return v
	}
	return sinCos(x, 1)
}

func crTan(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == 0 {
		return x
	}
	if v, ok := fastTan(x); ok {
		return v
	}
	return ziv(func(p uint) *big.Float {
		r, k := reduce(x, p)
		s := sinCosSeries(r, p, true)
		c := sinCosSeries(r, p, false)
		if k%2 == 1 {
			// tan(r + pi/2) = -cos r / sin r
			return s.Quo(c, s).Neg(s)
		}
		return s.Quo(s, c)
	})
}

// atanBig is atan(z) for any z at about p bits: atan(z) = pi/2 - atan(1/z)
// folds |z| > 1, then halvings atan(z) = 2 atan(z / (1 + sqrt(1+z^2)))
// bring z under 1/16 for the Taylor series.
func atanBig(z *big.Float, p uint) *big.Float {
	w := p + 32
	y := newF(w).Set(z)
	neg := y.Sign() < 0
	y.Abs(y)
	inv := false
	if y.Cmp(one(w)) > 0 {
		y.Quo(one(w), y)
		inv = true
	}
	halvings := 0
	limit := newF(w).SetFloat64(1.0 / 16)
	for y.Cmp(limit) > 0 {
		s := newF(w).Mul(y, y)
		s.Add(s, one(w))
		s.Sqrt(s)
		s.Add(s, one(w))
		y.Quo(y, s)
		halvings++
	}
	sum := newF(w).Set(y)
	if y.Sign() != 0 {
		y2 := newF(w).Mul(y, y)
		pow := newF(w).Set(y)
		top := y.MantExp(nil)
		term := newF(w)
		for k := int64(1); ; k++ {
			pow.Mul(pow, y2)
			pow.Neg(pow)
			term.Quo(pow, newF(w).SetInt64(2*k+1))
			sum.Add(sum, term)
			if term.Sign() == 0 || term.MantExp(nil) < top-int(w) {
				break
			}
		}
	}
	sum.SetMantExp(sum, halvings)
	if inv {
		h := piAt(w)
		h.SetMantExp(h, -1)
		sum.Sub(h, sum)
	}
	if neg {
		sum.Neg(sum)
	}
	return sum
}

// crAtan is atan(x) of any x but NaN.
func crAtan(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	if x == 0 {
		return x
	}
	if math.IsInf(x, 0) {
		return math.Copysign(ziv(func(p uint) *big.Float {
			h := piAt(p + 32)
			return h.SetMantExp(h, -1)
		}), x)
	}
	if v, ok := fastAtan(x); ok {
		return v
	}
	return ziv(func(p uint) *big.Float { return atanBig(newF(p).SetFloat64(x), p) })
}

// crAsin is asin(x) for |x| <= 1: atan(x / sqrt(1 - x^2)).
func crAsin(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 1 {
		return math.NaN()
	}
	if x == 0 {
		return x
	}
	if v, ok := fastAsin(x); ok {
		return v
	}
	return ziv(func(p uint) *big.Float {
		w := p + 140
		bx := newF(w).SetFloat64(x)
		if math.Abs(x) == 1 {
			h := piAt(w)
			h.SetMantExp(h, -1)
			if x < 0 {
				h.Neg(h)
			}
			return h
		}
		d := newF(w).Mul(bx, bx)
		d.Sub(one(w), d)
		d.Sqrt(d)
		return atanBig(d.Quo(bx, d), p)
	})
}

// crAcos is acos(x) for |x| <= 1: 2 atan(sqrt((1-x)/(1+x))).
func crAcos(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 1 {
		return math.NaN()
	}
	if x == 1 {
		return 0
	}
	if v, ok := fastAcos(x); ok {
		return v
	}
	return ziv(func(p uint) *big.Float {
		w := p + 140
		if x == -1 {
			return piAt(w)
		}
		bx := newF(w).SetFloat64(x)
		num := newF(w).Sub(one(w), bx)
		den := newF(w).Add(one(w), bx)
		num.Quo(num, den)
		num.Sqrt(num)
		a := atanBig(num, p)
		return a.SetMantExp(a, 1)
	})
}

// crAtan2 is atan2(y, x) with C99's special values.
func crAtan2(y, x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case y == 0:
		if x > 0 || x == 0 && !math.Signbit(x) {
			return y
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(y, 0):
		switch {
		case math.IsInf(x, 1):
			return math.Copysign(math.Pi/4, y)
		case math.IsInf(x, -1):
			return math.Copysign(3*math.Pi/4, y)
		}
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 1):
		return math.Copysign(0, y)
	case math.IsInf(x, -1):
		return math.Copysign(math.Pi, y)
	}
	if v, ok := fastAtan2(y, x); ok {
		return v
	}
	return ziv(func(p uint) *big.Float {
		w := p + 32
		q := newF(w).Quo(newF(w).SetFloat64(y), newF(w).SetFloat64(x))
		a := atanBig(q, p)
		if x < 0 {
			pi := piAt(w)
			if y < 0 {
				a.Sub(a, pi)
			} else {
				a.Add(a, pi)
			}
		}
		return a
	})
}
