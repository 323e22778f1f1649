package pyfmt

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// FloatHex is float.hex(x): "0x1.8000000000000p+0", "-0x0.0p+0",
// "0x0.0000000000001p-1022", "inf", "nan".
func FloatHex(x float64) string {
	if math.IsInf(x, 0) {
		if x < 0 {
			return "-inf"
		}
		return "inf"
	}
	if math.IsNaN(x) {
		return "nan"
	}
	var b []byte
	if math.Signbit(x) {
		b = append(b, '-')
	}
	if x == 0 {
		return string(append(b, "0x0.0p+0"...))
	}
	u := math.Float64bits(x)
	mant := u & (1<<52 - 1)
	exp := int(u>>52&0x7ff) - 1023
	lead := byte('1')
	if exp == -1023 {
		lead, exp = '0', -1022
	}
	b = append(b, '0', 'x', lead, '.')
	for sh := 48; sh >= 0; sh -= 4 {
		b = append(b, hexDigits[mant>>uint(sh)&15])
	}
	b = append(b, 'p')
	if exp >= 0 {
		b = append(b, '+')
	}
	return string(strconv.AppendInt(b, int64(exp), 10))
}

// FloatFromHex is float.fromhex(s): surrounding whitespace, a sign, an
// optional 0x, hexadecimal digits with an optional point, an optional
// binary exponent p±N, or inf, infinity, nan. The result is correctly
// rounded (half to even, subnormals included). Errors: ValueError "invalid
// hexadecimal floating-point string", OverflowError "hexadecimal value too
// large to represent as a float".
func FloatFromHex(s string) (float64, error) {
	invalid := func() (float64, error) {
		return 0, valueError("invalid hexadecimal floating-point string")
	}
	i, n := 0, len(s)
	for i < n && isASCIISpace(s[i]) {
		i++
	}
	for n > i && isASCIISpace(s[n-1]) {
		n--
	}
	t := s[i:n]
	neg := false
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	switch {
	case strings.EqualFold(t, "inf"), strings.EqualFold(t, "infinity"):
		if neg {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case strings.EqualFold(t, "nan"):
		return math.NaN(), nil
	}
	if len(t) >= 2 && t[0] == '0' && t[1]|0x20 == 'x' {
		t = t[2:]
	}
	j := 0
	for j < len(t) && isHex(t[j]) {
		j++
	}
	intPart := t[:j]
	t = t[j:]
	fracPart := ""
	if len(t) > 0 && t[0] == '.' {
		t = t[1:]
		j = 0
		for j < len(t) && isHex(t[j]) {
			j++
		}
		fracPart = t[:j]
		t = t[j:]
	}
	if len(intPart)+len(fracPart) == 0 {
		return invalid()
	}
	var exp int64
	if len(t) > 0 && t[0]|0x20 == 'p' {
		t = t[1:]
		eneg := false
		if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
			eneg = t[0] == '-'
			t = t[1:]
		}
		j = 0
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			if exp < 1<<40 {
				exp = exp*10 + int64(t[j]-'0')
			}
			j++
		}
		if j == 0 {
			return invalid()
		}
		t = t[j:]
		if eneg {
			exp = -exp
		}
	}
	if len(t) != 0 {
		return invalid()
	}
	sign := 1.0
	if neg {
		sign = -1
	}
	// the significant digits, and the power of two of the last one
	digits := strings.TrimLeft(intPart+fracPart, "0")
	if digits == "" {
		return math.Copysign(0, sign), nil
	}
	e2 := exp - 4*int64(len(fracPart))
	var acc uint64
	k := min(len(digits), 15)
	for _, c := range []byte(digits[:k]) {
		acc = acc<<4 | uint64(digitVal(c))
	}
	sticky := strings.TrimRight(digits[k:], "0") != ""
	e2 += 4 * int64(len(digits)-k)
	// value = (acc + sticky) * 2**e2; top bit at 2**top
	blen := bits.Len64(acc)
	top := int64(blen-1) + e2
	if top > 1023 {
		return 0, overflowError("hexadecimal value too large to represent as a float")
	}
	if top < -1075 {
		return math.Copysign(0, sign), nil // below half the smallest subnormal
	}
	keep := int64(53)
	if top < -1022 {
		keep = 53 - (-1022 - top)
	}
	shift := int64(blen) - keep
	if shift > 0 {
		half := uint64(1) << uint(shift-1)
		rem := acc & (half<<1 - 1)
		acc >>= uint(shift)
		if rem > half || rem == half && (sticky || acc&1 == 1) {
			acc++
		}
		e2 += shift
	}
	f := math.Ldexp(float64(acc), int(e2))
	if math.IsInf(f, 0) {
		return 0, overflowError("hexadecimal value too large to represent as a float")
	}
	return sign * f, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

// AsIntegerRatio is float.as_integer_ratio(x): the pair of ints in lowest
// terms, the denominator positive, whose ratio is exactly x. Errors:
// OverflowError "cannot convert Infinity to integer ratio", ValueError
// "cannot convert NaN to integer ratio".
func AsIntegerRatio(x float64) (num, den *big.Int, err error) {
	if math.IsInf(x, 0) {
		return nil, nil, overflowError("cannot convert Infinity to integer ratio")
	}
	if math.IsNaN(x) {
		return nil, nil, valueError("cannot convert NaN to integer ratio")
	}
	m, e := mantExp(x)
	num = big.NewInt(m)
	den = big.NewInt(1)
	if e >= 0 {
		num.Lsh(num, uint(e))
	} else {
		den.Lsh(den, uint(-e))
	}
	return num, den, nil
}

// mantExp splits a finite x into m * 2**e with m odd (or zero).
func mantExp(x float64) (m int64, e int) {
	if x == 0 {
		return 0, 0
	}
	f, e := math.Frexp(x)
	m = int64(math.Ldexp(f, 53))
	e -= 53
	tz := bits.TrailingZeros64(uint64(m))
	return m >> uint(tz), e + tz
}

// IsInteger is float.is_integer(x).
func IsInteger(x float64) bool {
	return !math.IsInf(x, 0) && !math.IsNaN(x) && x == math.Trunc(x)
}
