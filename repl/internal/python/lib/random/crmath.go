package random

import (
	"math"

	"github.com/rlm-go/rlm/repl/internal/python/crmath"
)

// The C library functions CPython's random module calls. CPython's
// math.lgamma is its own Lanczos approximation; Go's differs from it in
// the last bits, which only matters when binomialvariate's acceptance test
// falls within an ulp of its bound.
func pyLog(x float64) float64    { return crmath.Log(x) }
func pyLog2(x float64) float64   { return crmath.Log2(x) }
func pyCos(x float64) float64    { return crmath.Cos(x) }
func pySin(x float64) float64    { return crmath.Sin(x) }
func pyAcos(x float64) float64   { return crmath.Acos(x) }
func pyPow(x, y float64) float64 { return crmath.Pow(x, y) }
func pyLgamma(x float64) float64 { v, _ := math.Lgamma(x); return v }

func pyExp(x float64) (float64, bool) {
	v := crmath.Exp(x)
	return v, !(math.IsInf(v, 0) && !math.IsInf(x, 0))
}
