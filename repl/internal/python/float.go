package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/crmath"
	"math"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// Float is a Python float.
type Float float64

// Type returns float.
func (Float) Type() *Type { return FloatType }

// Complex is a Python complex.
type Complex complex128

// Type returns complex.
func (Complex) Type() *Type { return ComplexType }

// floatValue returns x as a float64 when it is a float, an int or a bool.
func floatValue(x Object) (float64, bool, error) {
	switch v := x.(type) {
	case Float:
		return float64(v), true, nil
	case Int:
		return float64(v), true, nil
	case Bool:
		if v {
			return 1, true, nil
		}
		return 0, true, nil
	case *BigInt:
		f, err := intToFloat(v)
		return f, true, err
	case *Instance:
		if v.base != nil {
			return floatValue(v.base)
		}
	}
	return 0, false, nil
}

// floatPow is float ** float with Python's errors.
func floatPow(x, y float64) (Object, error) {
	if x == 0 && y < 0 {
		return nil, Errorf(ZeroDivisionErrorType, "0.0 cannot be raised to a negative power")
	}
	if x < 0 && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y) {
		// A negative number to a fractional power is complex.
		return Complex(complexPow(complex(x, 0), complex(y, 0))), nil
	}
	r := powFloat(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, Errorf(OverflowErrorType, "(34, 'Numerical result out of range')")
	}
	return Float(r), nil
}

// powFloat computes x**y; replaced by a libm-exact version in pyfmt.
var powFloat = math.Pow

var mathPow = math.Pow

func complexPow(a, b complex128) complex128 {
	if b == 0 {
		return 1
	}
	if a == 0 {
		return 0
	}
	// Integer exponents by repeated squaring, as CPython does for small
	// ones.
	if imag(b) == 0 && real(b) == math.Trunc(real(b)) && math.Abs(real(b)) <= 100 {
		n := int(real(b))
		neg := n < 0
		if neg {
			n = -n
		}
		r := complex(1, 0)
		p := a
		for n > 0 {
			if n&1 == 1 {
				r *= p
			}
			p *= p
			n >>= 1
		}
		if neg {
			return 1 / r
		}
		return r
	}
	// CPython's formula, with the C library's correctly rounded functions.
	vabs := pyfmt.Hypot(real(a), imag(a))
	l := crmath.Pow(vabs, real(b))
	at := math.Atan2(imag(a), real(a))
	phase := at * real(b)
	if imag(b) != 0 {
		l /= crmath.Exp(at * imag(b))
		phase += imag(b) * crmath.Log(vabs)
	}
	return complex(l*crmath.Cos(phase), l*crmath.Sin(phase))
}

// floatFloorDivMod is Python's float // and % (op "//", "%" or
// "divmod").
func floatFloorDivMod(x, y float64, op string) (float64, float64, error) {
	switch op {
	case "//":
		q, err := pyfmt.FloatFloorDiv(x, y)
		return q, 0, fromKernel(err)
	case "%":
		m, err := pyfmt.FloatMod(x, y)
		return 0, m, fromKernel(err)
	}
	q, m, err := pyfmt.FloatDivmod(x, y)
	return q, m, fromKernel(err)
}

// FloatRepr returns repr(x) of a float.
var FloatRepr = func(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "nan"
	}
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	epos := strings.IndexByte(s, 'e')
	mant, exp := s[:epos], s[epos+1:]
	e, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := e + 1
	var out string
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			out = "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			out = digits[:decpt] + "." + digits[decpt:]
		}
	} else {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if e < 0 {
			sign = "-"
			e = -e
		}
		es := strconv.Itoa(e)
		if len(es) < 2 {
			es = "0" + es
		}
		out = m + "e" + sign + es
	}
	if neg {
		return "-" + out
	}
	return out
}

// ComplexRepr returns repr(z).
func ComplexRepr(z complex128) string { return pyfmt.ComplexRepr(real(z), imag(z)) }
