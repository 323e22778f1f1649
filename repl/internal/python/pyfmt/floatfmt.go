package pyfmt

import (
	"math"
	"strconv"
)

// appendFloatAbs appends the text of |x| in one of CPython's float layouts
// (PyOS_double_to_string without the sign): mode 'e', 'f' or 'g' with a
// precision, or 'r' for the shortest text that reads back as x. alt is the
// alternate form (#): a decimal point always, and 'g' keeps its trailing
// zeros. dot0 (for repr, str and format without a type) appends ".0" to a
// result that would read as an integer, and moves 'g' to exponent notation
// one digit earlier. Infinities and NaNs are "inf" and "nan".
func appendFloatAbs(dst []byte, x float64, mode byte, prec int, alt, dot0 bool) []byte {
	if math.IsInf(x, 0) {
		return append(dst, "inf"...)
	}
	if math.IsNaN(x) {
		return append(dst, "nan"...)
	}
	x = math.Abs(x)
	if mode == 'f' {
		dst = strconv.AppendFloat(dst, x, 'f', prec, 64)
		if alt && prec == 0 {
			dst = append(dst, '.')
		}
		return dst
	}
	// digits and the decimal point's position, as C's dtoa gives them
	var buf [32]byte
	var e []byte
	switch mode {
	case 'r':
		e = strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	case 'e':
		e = strconv.AppendFloat(buf[:0], x, 'e', prec, 64)
	default: // 'g'
		if prec == 0 {
			prec = 1
		}
		e = strconv.AppendFloat(buf[:0], x, 'e', prec-1, 64)
	}
	// e is d[.ddd]e±XX
	ei := len(e) - 1
	for e[ei] != 'e' {
		ei--
	}
	exp := 0
	for _, c := range e[ei+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[ei+1] == '-' {
		exp = -exp
	}
	digits := make([]byte, 0, ei)
	digits = append(digits, e[0])
	if ei > 1 {
		digits = append(digits, e[2:ei]...)
	}
	decpt := exp + 1
	useExp := false
	switch mode {
	case 'e':
		useExp = true
	case 'g':
		if !alt {
			digits = trimZeros(digits)
		}
		lim := prec
		if dot0 {
			lim--
		}
		useExp = decpt <= -4 || decpt > lim
	case 'r':
		useExp = decpt <= -4 || decpt > 16
	}
	if useExp {
		dst = append(dst, digits[0])
		if len(digits) > 1 || alt {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		x := decpt - 1
		if x < 0 {
			dst = append(dst, '-')
			x = -x
		} else {
			dst = append(dst, '+')
		}
		if x < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(x), 10)
	}
	n := len(digits)
	switch {
	case decpt <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -decpt; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	case decpt >= n:
		dst = append(dst, digits...)
		for i := n; i < decpt; i++ {
			dst = append(dst, '0')
		}
		if alt || dot0 {
			dst = append(dst, '.')
			if dot0 {
				dst = append(dst, '0')
			}
		}
	default:
		dst = append(dst, digits[:decpt]...)
		dst = append(dst, '.')
		dst = append(dst, digits[decpt:]...)
	}
	return dst
}

func trimZeros(d []byte) []byte {
	n := len(d)
	for n > 1 && d[n-1] == '0' {
		n--
	}
	return d[:n]
}

// FloatRepr is repr(x) and str(x) of a Python float: the shortest decimal
// that reads back as x, in fixed notation for exponents -4 through 15
// ("0.0001", "123.0", "1e+16", "1e-05", "1.5e+300"), and "inf", "-inf",
// "nan", "-0.0".
func FloatRepr(x float64) string {
	var buf [32]byte
	return string(AppendFloatRepr(buf[:0], x))
}

// AppendFloatRepr appends FloatRepr(x) to dst.
func AppendFloatRepr(dst []byte, x float64) []byte {
	if math.Signbit(x) && !math.IsNaN(x) {
		dst = append(dst, '-')
	}
	return appendFloatAbs(dst, x, 'r', 0, false, true)
}

// ComplexRepr is repr(complex(re, im)) and its str: "(1+2j)", "2j",
// "(-0-1j)", "(nan+infj)". A real part of +0.0 is left out.
func ComplexRepr(re, im float64) string {
	var b []byte
	if re == 0 && !math.Signbit(re) {
		b = appendSigned(b, im, false)
		b = appendFloatAbs(b, im, 'r', 0, false, false)
		return string(append(b, 'j'))
	}
	b = append(b, '(')
	b = appendSigned(b, re, false)
	b = appendFloatAbs(b, re, 'r', 0, false, false)
	b = appendSigned(b, im, true)
	b = appendFloatAbs(b, im, 'r', 0, false, false)
	return string(append(b, 'j', ')'))
}

// appendSigned appends x's sign: '-' when negative (never for a NaN), '+'
// otherwise when plus is set.
func appendSigned(b []byte, x float64, plus bool) []byte {
	if math.Signbit(x) && !math.IsNaN(x) {
		return append(b, '-')
	}
	if plus {
		return append(b, '+')
	}
	return b
}
