package pyfmt

import (
	"math"
	"math/big"
	"math/bits"
)

// IntToFloat is float(x) for an int: correctly rounded (half to even), an
// OverflowError "int too large to convert to float" past the largest
// float.
func IntToFloat(x *big.Int) (float64, error) {
	if x.IsInt64() {
		return float64(x.Int64()), nil
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	if math.IsInf(f, 0) {
		return 0, overflowError("int too large to convert to float")
	}
	return f, nil
}

// makeFloat rounds (acc + sticky/2) * 2**e2 to a float (half to even,
// subnormals included), where sticky means the value lies strictly above
// acc * 2**e2 by less than one unit of acc. It reports an overflow as an
// infinity.
func makeFloat(acc uint64, e2 int64, sticky bool) float64 {
	if acc == 0 {
		return 0
	}
	blen := bits.Len64(acc)
	top := int64(blen-1) + e2
	if top > 1023 {
		return math.Inf(1)
	}
	if top < -1075 {
		return 0 // below half the smallest subnormal
	}
	keep := int64(53)
	if top < -1022 {
		keep = 53 - (-1022 - top) // >= 0
	}
	if shift := int64(blen) - keep; shift > 0 { // <= 64
		var rem, half uint64
		if shift == 64 {
			rem, half, acc = acc, 1<<63, 0
		} else {
			half = uint64(1) << uint(shift-1)
			rem = acc & (half<<1 - 1)
			acc >>= uint(shift)
		}
		if rem > half || rem == half && (sticky || acc&1 == 1) {
			acc++
		}
		e2 += shift
	}
	return math.Ldexp(float64(acc), int(e2))
}

// IntTrueDiv is a / b for ints: correctly rounded, as CPython computes it
// (10**25 / 10**5 == 1e+20). Errors: ZeroDivisionError "division by zero",
// OverflowError "integer division result too large for a float".
func IntTrueDiv(a, b *big.Int) (float64, error) {
	if b.Sign() == 0 {
		return 0, errorf("ZeroDivisionError", "division by zero")
	}
	neg := (a.Sign() < 0) != (b.Sign() < 0)
	sign := 1.0
	if neg {
		sign = -1
	}
	if a.Sign() == 0 {
		return math.Copysign(0, sign), nil
	}
	if a.IsInt64() && b.IsInt64() {
		x, y := a.Int64(), b.Int64()
		if x > -1<<53 && x < 1<<53 && y > -1<<53 && y < 1<<53 {
			return float64(x) / float64(y), nil
		}
	}
	na, nb := int64(a.BitLen()), int64(b.BitLen())
	if na-nb > 1025 {
		return 0, overflowError("integer division result too large for a float")
	}
	if nb-na > 1080 {
		return math.Copysign(0, sign), nil
	}
	// a quotient of 55 or 56 bits and whether anything remains
	shift := nb - na + 55
	num := new(big.Int).Abs(a)
	den := new(big.Int).Abs(b)
	if shift >= 0 {
		num.Lsh(num, uint(shift))
	} else {
		den.Lsh(den, uint(-shift))
	}
	q, r := num.QuoRem(num, den, new(big.Int))
	f := makeFloat(q.Uint64(), -shift, r.Sign() != 0)
	if math.IsInf(f, 0) {
		return 0, overflowError("integer division result too large for a float")
	}
	return sign * f, nil
}

// FloatMod is x % y for floats: the result takes the divisor's sign.
// ZeroDivisionError "float modulo" when y is zero.
func FloatMod(x, y float64) (float64, error) {
	if y == 0 {
		return 0, errorf("ZeroDivisionError", "float modulo")
	}
	return floatMod(x, y), nil
}

func floatMod(x, y float64) float64 {
	m := math.Mod(x, y)
	if m != 0 {
		if (y < 0) != (m < 0) {
			m += y
		}
	} else {
		m = math.Copysign(0, y)
	}
	return m
}

// floatDivmod is CPython's float divmod for y != 0.
func floatDivmod(x, y float64) (q, m float64) {
	m = math.Mod(x, y)
	div := (x - m) / y
	if m != 0 {
		if (y < 0) != (m < 0) {
			m += y
			div -= 1
		}
	} else {
		m = math.Copysign(0, y)
	}
	if div != 0 {
		q = math.Floor(div)
		if div-q > 0.5 {
			q++
		}
	} else {
		q = math.Copysign(0, x/y)
	}
	return q, m
}

// FloatFloorDiv is x // y for floats. ZeroDivisionError "float floor
// division by zero" when y is zero.
func FloatFloorDiv(x, y float64) (float64, error) {
	if y == 0 {
		return 0, errorf("ZeroDivisionError", "float floor division by zero")
	}
	q, _ := floatDivmod(x, y)
	return q, nil
}

// FloatDivmod is divmod(x, y) for floats. ZeroDivisionError "float
// divmod()" when y is zero.
func FloatDivmod(x, y float64) (q, m float64, err error) {
	if y == 0 {
		return 0, 0, errorf("ZeroDivisionError", "float divmod()")
	}
	q, m = floatDivmod(x, y)
	return q, m, nil
}

// FloatTrueDiv is x / y for floats. ZeroDivisionError "float division by
// zero" when y is zero.
func FloatTrueDiv(x, y float64) (float64, error) {
	if y == 0 {
		return 0, errorf("ZeroDivisionError", "float division by zero")
	}
	return x / y, nil
}

func isOddInteger(y float64) bool {
	return math.Abs(y) < 1<<53 && y == math.Trunc(y) && int64(y)&1 == 1
}

// FloatPow is x ** y for floats, with CPython's special cases and errors:
// ZeroDivisionError "0.0 cannot be raised to a negative power",
// OverflowError "(34, 'Numerical result out of range')". A negative x to a
// non-integer power has a complex result: FloatPow then reports complex
// true and the caller computes complex(x) ** y.
//
// The power itself is computed in double-double arithmetic and rounded
// once: it is the correctly rounded result in all but very rare cases.
// glibc's pow, which CPython calls, is within 0.52 ulp, not always
// correctly rounded: on 19,708 random arguments the two differed in the
// last bit 9 times, each time where glibc misrounds (TestCorpus counts
// such cases in the recorded corpus).
func FloatPow(x, y float64) (r float64, complex bool, err error) {
	switch {
	case y == 0:
		return 1, false, nil
	case math.IsNaN(x):
		return x, false, nil
	case math.IsNaN(y):
		if x == 1 {
			return 1, false, nil
		}
		return y, false, nil
	case math.IsInf(y, 0):
		ax := math.Abs(x)
		switch {
		case ax == 1:
			return 1, false, nil
		case (y > 0) == (ax > 1):
			return math.Inf(1), false, nil
		}
		return 0, false, nil
	case math.IsInf(x, 0):
		odd := isOddInteger(y)
		if y > 0 {
			if odd {
				return x, false, nil
			}
			return math.Abs(x), false, nil
		}
		if odd {
			return math.Copysign(0, x), false, nil
		}
		return 0, false, nil
	case x == 0:
		if y < 0 {
			return 0, false, errorf("ZeroDivisionError", "0.0 cannot be raised to a negative power")
		}
		if isOddInteger(y) {
			return x, false, nil
		}
		return 0, false, nil
	}
	neg := false
	if x < 0 {
		if y != math.Floor(y) {
			return 0, true, nil
		}
		x = -x
		neg = isOddInteger(y)
	}
	if x == 1 {
		if neg {
			return -1, false, nil
		}
		return 1, false, nil
	}
	r = accuratePow(x, y)
	if math.IsInf(r, 0) {
		return 0, false, overflowError("(34, 'Numerical result out of range')")
	}
	if neg {
		r = -r
	}
	return r, false, nil
}

// IntPowNegative is a ** b for ints when b is negative, which Python
// computes as float(a) ** float(b).
func IntPowNegative(a, b *big.Int) (float64, error) {
	fa, err := IntToFloat(a)
	if err != nil {
		return 0, err
	}
	fb, err := IntToFloat(b)
	if err != nil {
		return 0, err
	}
	r, _, err := FloatPow(fa, fb)
	return r, err
}

// IntDivmod is divmod(a, b) for ints: the quotient rounded toward minus
// infinity and a remainder with the divisor's sign (Go's big.Int.Div and
// Mod round differently for negative divisors). ZeroDivisionError
// "integer division or modulo by zero" when b is zero.
func IntDivmod(a, b *big.Int) (q, r *big.Int, err error) {
	if b.Sign() == 0 {
		return nil, nil, errorf("ZeroDivisionError", "integer division or modulo by zero")
	}
	q, r = new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() != 0 && (r.Sign() < 0) != (b.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
		r.Add(r, b)
	}
	return q, r, nil
}

// IntFloorDiv is a // b for ints (ZeroDivisionError "integer division or
// modulo by zero").
func IntFloorDiv(a, b *big.Int) (*big.Int, error) {
	q, _, err := IntDivmod(a, b)
	return q, err
}

// IntMod is a % b for ints (ZeroDivisionError "integer modulo by zero").
func IntMod(a, b *big.Int) (*big.Int, error) {
	if b.Sign() == 0 {
		return nil, errorf("ZeroDivisionError", "integer modulo by zero")
	}
	_, r, err := IntDivmod(a, b)
	return r, err
}
