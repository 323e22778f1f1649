package random

import "math"

// Constants of CPython's random module, as the float64 values CPython
// 3.12 computes them (TestMagicConstants recomputes them): constants, so
// that package initialisation computes nothing.
const (
	nvMagicConst = 0x1.b72cd3f331398p+0 // 4 * exp(-0.5) / sqrt(2.0)
	log4         = 0x1.62e42fefa39efp+0 // log(4.0)
	sgMagicConst = 0x1.40859baee748fp+1 // 1.0 + log(4.5)
)

const twoPi = 2 * math.Pi

// Python float operations that raise where IEEE arithmetic would not.

func fdiv(a, b float64) (float64, error) {
	if b == 0 {
		return 0, newError(ZeroDivisionError, "float division by zero")
	}
	return a / b, nil
}

// fmod is Python's float %.
func fmod(a, b float64) (float64, error) {
	if b == 0 {
		return 0, newError(ZeroDivisionError, "float modulo")
	}
	m := math.Mod(a, b)
	if m != 0 {
		if (b < 0) != (m < 0) {
			m += b
		}
	} else {
		m = math.Copysign(0, b)
	}
	return m, nil
}

func mathLog(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x <= 0 {
		return 0, valueError("math domain error")
	}
	return pyLog(x), nil
}

func mathLog2(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x <= 0 {
		return 0, valueError("math domain error")
	}
	return pyLog2(x), nil
}

func mathExp(x float64) (float64, error) {
	v, ok := pyExp(x)
	if !ok {
		return 0, newError(OverflowError, "math range error")
	}
	return v, nil
}

func mathSqrt(x float64) (float64, error) {
	if x < 0 {
		return 0, valueError("math domain error")
	}
	return math.Sqrt(x), nil
}

func mathAcos(x float64) (float64, error) {
	if x < -1 || x > 1 {
		return 0, valueError("math domain error")
	}
	return pyAcos(x), nil
}

// floatPow is Python's float ** float for the cases the distributions
// reach; a negative base with a non-integral exponent (a complex result in
// Python) is refused.
func floatPow(x, y float64) (float64, error) {
	if x == 0 && y < 0 && !math.IsInf(y, 0) {
		return 0, newError(ZeroDivisionError, "0.0 cannot be raised to a negative power")
	}
	if x < 0 && !math.IsInf(x, 0) && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y) {
		return 0, newError(TypeError, "complex results of float ** are not supported")
	}
	v := pyPow(x, y)
	if math.IsInf(v, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return 0, newError(OverflowError, "(34, 'Numerical result out of range')")
	}
	return v, nil
}

// pyFloor is math.floor of a float, as an int.
func pyFloor(x float64) (int64, error) {
	if math.IsNaN(x) {
		return 0, valueError("cannot convert float NaN to integer")
	}
	if math.IsInf(x, 0) {
		return 0, newError(OverflowError, "cannot convert float infinity to integer")
	}
	f := math.Floor(x)
	if f >= 9.223372036854775807e18 || f < -9.223372036854775807e18 {
		return 0, newError(LimitError, "floor of %g exceeds this interpreter's 64-bit bound", x)
	}
	return int64(f), nil
}

// Uniform returns random.uniform(a, b) = a + (b-a) * random() for float
// arguments. (For two ints the wrapper passes a and float(b - a) computed
// exactly to UniformWidth.)
func (r *Random) Uniform(a, b float64) float64 {
	return r.UniformWidth(a, b-a)
}

// UniformWidth returns a + width*random().
func (r *Random) UniformWidth(a, width float64) float64 {
	return a + float64(width*r.Random())
}

// Triangular returns random.triangular(low, high, mode). hasMode is false
// for mode=None. When mode is given and high == low, CPython returns low
// itself (possibly an int): then lowReturned is true.
func (r *Random) Triangular(low, high, mode float64, hasMode bool) (v float64, lowReturned bool, err error) {
	u := r.Random()
	c := 0.5
	if hasMode {
		if high-low == 0 {
			return low, true, nil
		}
		c = (mode - low) / (high - low)
	}
	if u > c {
		u = 1.0 - u
		c = 1.0 - c
		low, high = high, low
	}
	s, err := mathSqrt(u * c)
	if err != nil {
		return 0, false, err
	}
	return low + float64((high-low)*s), false, nil
}

// NormalVariate returns random.normalvariate(mu, sigma) (Kinderman and
// Monahan's ratio method).
func (r *Random) NormalVariate(mu, sigma float64) float64 {
	var z float64
	for {
		u1 := r.Random()
		u2 := 1.0 - r.Random()
		z = nvMagicConst * (u1 - 0.5) / u2
		zz := z * z / 4.0
		if zz <= -pyLog(u2) {
			break
		}
	}
	return mu + float64(z*sigma)
}

// Gauss returns random.gauss(mu, sigma), which makes two values at a time
// and keeps the second for the next call.
func (r *Random) Gauss(mu, sigma float64) float64 {
	z := r.gaussNext
	had := r.hasGauss
	r.hasGauss = false
	if !had {
		x2pi := r.Random() * twoPi
		g2rad := math.Sqrt(-2.0 * pyLog(1.0-r.Random()))
		z = pyCos(x2pi) * g2rad
		r.gaussNext = pySin(x2pi) * g2rad
		r.hasGauss = true
	}
	return mu + float64(z*sigma)
}

// LogNormVariate returns random.lognormvariate(mu, sigma).
func (r *Random) LogNormVariate(mu, sigma float64) (float64, error) {
	return mathExp(r.NormalVariate(mu, sigma))
}

// ExpoVariate returns random.expovariate(lambd).
func (r *Random) ExpoVariate(lambd float64) (float64, error) {
	return fdiv(-pyLog(1.0-r.Random()), lambd)
}

// VonMisesVariate returns random.vonmisesvariate(mu, kappa).
func (r *Random) VonMisesVariate(mu, kappa float64) (float64, error) {
	if kappa <= 1e-6 {
		return twoPi * r.Random(), nil
	}
	s := 0.5 / kappa
	rr := s + math.Sqrt(1.0+float64(s*s))
	var z float64
	for {
		u1 := r.Random()
		z = pyCos(math.Pi * u1)
		d := z / (rr + z)
		u2 := r.Random()
		if u2 < 1.0-float64(d*d) {
			break
		}
		e, err := mathExp(d)
		if err != nil {
			return 0, err
		}
		if u2 <= (1.0-d)*e {
			break
		}
	}
	q := 1.0 / rr
	f := (q + z) / (1.0 + float64(q*z))
	u3 := r.Random()
	a, err := mathAcos(f)
	if err != nil {
		return 0, err
	}
	if u3 > 0.5 {
		return fmod(mu+a, twoPi)
	}
	return fmod(mu-a, twoPi)
}

// GammaVariate returns random.gammavariate(alpha, beta).
func (r *Random) GammaVariate(alpha, beta float64) (float64, error) {
	if alpha <= 0.0 || beta <= 0.0 {
		return 0, valueError("gammavariate: alpha and beta must be > 0.0")
	}
	switch {
	case alpha > 1.0:
		ainv := math.Sqrt(2.0*alpha - 1.0)
		bbb := alpha - log4
		ccc := alpha + ainv
		for {
			u1 := r.Random()
			if !(1e-7 < u1 && u1 < 0.9999999) {
				continue
			}
			u2 := 1.0 - r.Random()
			v := pyLog(u1/(1.0-u1)) / ainv
			e, err := mathExp(v)
			if err != nil {
				return 0, err
			}
			x := alpha * e
			z := float64(u1*u1) * u2
			rv := bbb + float64(ccc*v) - x
			if rv+sgMagicConst-float64(4.5*z) >= 0.0 {
				return x * beta, nil
			}
			lz, err := mathLog(z)
			if err != nil {
				return 0, err
			}
			if rv >= lz {
				return x * beta, nil
			}
		}
	case alpha == 1.0:
		return -pyLog(1.0-r.Random()) * beta, nil
	default:
		var x float64
		for {
			u := r.Random()
			b := (math.E + alpha) / math.E
			p := b * u
			var err error
			if p <= 1.0 {
				x, err = floatPow(p, 1.0/alpha)
			} else {
				x, err = mathLog((b - p) / alpha)
				x = -x
			}
			if err != nil {
				return 0, err
			}
			u1 := r.Random()
			if p > 1.0 {
				t, err := floatPow(x, alpha-1.0)
				if err != nil {
					return 0, err
				}
				if u1 <= t {
					break
				}
			} else {
				e, err := mathExp(-x)
				if err != nil {
					return 0, err
				}
				if u1 <= e {
					break
				}
			}
		}
		return x * beta, nil
	}
}

// BetaVariate returns random.betavariate(alpha, beta).
func (r *Random) BetaVariate(alpha, beta float64) (float64, error) {
	y, err := r.GammaVariate(alpha, 1.0)
	if err != nil {
		return 0, err
	}
	if y != 0 {
		g, err := r.GammaVariate(beta, 1.0)
		if err != nil {
			return 0, err
		}
		return fdiv(y, y+g)
	}
	return 0.0, nil
}

// ParetoVariate returns random.paretovariate(alpha).
func (r *Random) ParetoVariate(alpha float64) (float64, error) {
	u := 1.0 - r.Random()
	e, err := fdiv(-1.0, alpha)
	if err != nil {
		return 0, err
	}
	return floatPow(u, e)
}

// WeibullVariate returns random.weibullvariate(alpha, beta).
func (r *Random) WeibullVariate(alpha, beta float64) (float64, error) {
	u := 1.0 - r.Random()
	e, err := fdiv(1.0, beta)
	if err != nil {
		return 0, err
	}
	p, err := floatPow(-pyLog(u), e)
	if err != nil {
		return 0, err
	}
	return alpha * p, nil
}

// BinomialVariate returns random.binomialvariate(n, p) (3.12).
func (r *Random) BinomialVariate(n int64, p float64) (int64, error) {
	if n < 0 {
		return 0, valueError("n must be non-negative")
	}
	if p <= 0.0 || p >= 1.0 {
		if p == 0.0 {
			return 0, nil
		}
		if p == 1.0 {
			return n, nil
		}
		return 0, valueError("p must be in the range 0.0 <= p <= 1.0")
	}
	if n == 1 {
		if r.Random() < p {
			return 1, nil
		}
		return 0, nil
	}
	if p > 0.5 {
		v, err := r.BinomialVariate(n, 1.0-p)
		return n - v, err
	}
	fn := float64(n)
	if fn*p < 10.0 {
		var x, y int64
		c := pyLog2(1.0 - p)
		if c == 0 {
			return x, nil
		}
		for {
			l, err := mathLog2(r.Random())
			if err != nil {
				return 0, err
			}
			f, err := pyFloor(l / c)
			if err != nil {
				return 0, err
			}
			y += f + 1
			if y > n {
				return x, nil
			}
			x++
		}
	}
	spq := math.Sqrt(float64(fn*p) * (1.0 - p))
	b := 1.15 + float64(2.53*spq)
	a := -0.0873 + float64(0.0248*b) + float64(0.01*p)
	c := float64(fn*p) + 0.5
	vr := 0.92 - 4.2/b
	setup := false
	var alpha, lpq, h float64
	var m int64
	for {
		u := r.Random()
		u -= 0.5
		us := 0.5 - math.Abs(u)
		t, err := fdiv(2.0*a, us)
		if err != nil {
			return 0, err
		}
		k, err := pyFloor(float64((t+b)*u) + c)
		if err != nil {
			return 0, err
		}
		if k < 0 || k > n {
			continue
		}
		v := r.Random()
		if us >= 0.07 && v <= vr {
			return k, nil
		}
		if !setup {
			alpha = (2.83 + 5.1/b) * spq
			lpq = pyLog(p / (1.0 - p))
			m, err = pyFloor(float64(n+1) * p)
			if err != nil {
				return 0, err
			}
			h = pyLgamma(float64(m+1)) + pyLgamma(float64(n-m+1))
			setup = true
		}
		v *= alpha / (a/float64(us*us) + b)
		lv, err := mathLog(v)
		if err != nil {
			return 0, err
		}
		if lv <= h-pyLgamma(float64(k+1))-pyLgamma(float64(n-k+1))+float64(float64(k-m)*lpq) {
			return k, nil
		}
	}
}
