package math

import (
	"math"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// The hyperbolic functions as the C library CPython calls on Linux
// computes them: glibc's sinh, cosh, tanh, asinh and acosh follow the
// methods fdlibm documents, in terms of exp, log (correctly rounded, as
// pyfmt's), expm1 and log1p (Go's, which agree with glibc's). Evaluated
// the same way they give the same results, where a correctly rounded
// result would differ on about a quarter of the arguments.

const (
	ln2      = 6.93147180559945286227e-01
	expLimit = 7.09782712893383973096e+02 // log(MaxFloat64)
	overLim  = 7.10475860073943977113e+02 // the largest x with finite sinh
)

func crExp(x float64) float64 {
	r, err := pyfmt.Exp(x)
	if err != nil {
		return math.Inf(1)
	}
	return r
}

func crLog(x float64) float64 {
	r, err := pyfmt.Log(x)
	if err != nil {
		return math.NaN()
	}
	return r
}

func sinh(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	h := 0.5
	if x < 0 {
		h = -0.5
	}
	ax := math.Abs(x)
	switch {
	case ax < 22:
		if ax < 0x1p-28 {
			return x
		}
		t := math.Expm1(ax)
		if ax < 1 {
			return h * (2*t - t*t/(t+1))
		}
		return h * (t + t/(t+1))
	case ax <= expLimit:
		return h * crExp(ax)
	case ax <= overLim:
		w := crExp(0.5 * ax)
		t := h * w
		return t * w
	}
	return math.Copysign(math.Inf(1), x)
}

func cosh(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	ax := math.Abs(x)
	switch {
	case math.IsInf(x, 0):
		return ax
	case ax < 0.5*ln2:
		t := math.Expm1(ax)
		w := 1 + t
		if ax < 0x1p-55 {
			return w
		}
		return 1 + (t*t)/(w+w)
	case ax < 22:
		t := crExp(ax)
		return 0.5*t + 0.5/t
	case ax <= expLimit:
		return 0.5 * crExp(ax)
	case ax <= overLim:
		w := crExp(0.5 * ax)
		t := 0.5 * w
		return t * w
	}
	return math.Inf(1)
}

func tanh(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	if math.IsInf(x, 0) {
		return math.Copysign(1, x)
	}
	ax := math.Abs(x)
	var z float64
	switch {
	case ax < 22:
		if ax < 0x1p-55 {
			return x * (1 + x)
		}
		if ax >= 1 {
			t := math.Expm1(2 * ax)
			z = 1 - 2/(t+2)
		} else {
			t := math.Expm1(-2 * ax)
			z = -t / (t + 2)
		}
	default:
		z = 1
	}
	return math.Copysign(z, x)
}

func asinh(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	ax := math.Abs(x)
	var w float64
	switch {
	case ax < 0x1p-28:
		return x
	case ax > 0x1p28:
		w = crLog(ax) + ln2
	case ax > 2:
		w = crLog(2*ax + 1/(math.Sqrt(x*x+1)+ax))
	default:
		t := x * x
		w = math.Log1p(ax + t/(1+math.Sqrt(1+t)))
	}
	return math.Copysign(w, x)
}

func acosh(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x < 1:
		return math.NaN()
	case x >= 0x1p28:
		if math.IsInf(x, 0) {
			return x
		}
		return crLog(x) + ln2
	case x == 1:
		return 0
	case x > 2:
		t := x * x
		return crLog(2*x - 1/(x+math.Sqrt(t-1)))
	}
	t := x - 1
	return math.Log1p(t + math.Sqrt(2*t+t*t))
}
