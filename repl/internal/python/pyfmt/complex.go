package pyfmt

import (
	"math"
	"strconv"
	"strings"
)

// ParseComplex is complex(s) for a str s, as CPython 3.12 parses it:
// optional whitespace and parentheses around one of <float>, <float>j,
// <float><signed float>j, <float><sign>j, <sign>j and j (j or J), with
// underscores allowed between digits and Unicode digits and spaces read
// as their ASCII forms. Anything else is "complex() arg is a malformed
// string".
func ParseComplex(s string) (re, im float64, err error) {
	bad := func() (float64, float64, error) {
		return 0, 0, valueError("complex() arg is a malformed string")
	}
	s = toASCIINumber(s)
	if strings.IndexByte(s, '_') >= 0 {
		var ok bool
		if s, ok = dropUnderscores(s); !ok {
			return bad()
		}
	}
	i := skipSpace(s, 0)
	bracket := false
	if i < len(s) && s[i] == '(' {
		bracket = true
		i = skipSpace(s, i+1)
	}
	if z, n := floatPrefix(s[i:]); n > 0 {
		i += n
		switch {
		case i < len(s) && (s[i] == '+' || s[i] == '-'):
			re = z
			if y, m := floatPrefix(s[i:]); m > 0 {
				im = y
				i += m
			} else {
				im = 1
				if s[i] == '-' {
					im = -1
				}
				i++
			}
			if i >= len(s) || (s[i] != 'j' && s[i] != 'J') {
				return bad()
			}
			i++
		case i < len(s) && (s[i] == 'j' || s[i] == 'J'):
			im = z
			i++
		default:
			re = z
		}
	} else {
		im = 1
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			if s[i] == '-' {
				im = -1
			}
			i++
		}
		if i >= len(s) || (s[i] != 'j' && s[i] != 'J') {
			return bad()
		}
		i++
	}
	i = skipSpace(s, i)
	if bracket {
		if i >= len(s) || s[i] != ')' {
			return bad()
		}
		i = skipSpace(s, i+1)
	}
	if i != len(s) {
		return bad()
	}
	return re, im, nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && isASCIISpace(s[i]) {
		i++
	}
	return i
}

// dropUnderscores removes the underscores of a numeric string, each of
// which must sit between two digits (CPython's
// _Py_string_to_number_with_underscores).
func dropUnderscores(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if i == 0 || i+1 >= len(s) || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
				return "", false
			}
			continue
		}
		b = append(b, s[i])
	}
	return string(b), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// floatPrefix parses the longest float at the start of s as C's strtod
// does in CPython (sign, digits with an optional point and exponent, or
// inf, infinity and nan in any case), returning its value and length (0:
// none). An overflowing value is an infinity.
func floatPrefix(s string) (float64, int) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:min(len(s), i+8)])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return signed(s, math.Inf(1)), i + 8
	case strings.HasPrefix(rest, "inf"):
		return signed(s, math.Inf(1)), i + 3
	case strings.HasPrefix(rest, "nan"):
		return signed(s, math.NaN()), i + 3
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, 0
	}
	return f, i
}

func signed(s string, v float64) float64 {
	if s[0] == '-' {
		return -v
	}
	return v
}
