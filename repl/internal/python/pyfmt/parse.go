package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// DefaultMaxStrDigits is CPython's default limit on the decimal digits of
// an int converted to or from text (sys.get_int_max_str_digits()).
const DefaultMaxStrDigits = 4300

// ParseInt is int(s, base) for a str s: surrounding whitespace, a sign,
// the prefixes 0b, 0o and 0x (required by base 0, allowed by bases 2, 8
// and 16), single underscores between digits and after a prefix, non-ASCII
// decimal digits and whitespace, bases 2 through 36 or 0 (where a decimal
// number may not start with 0 unless it is zero). The value is returned in
// small when it fits in an int64 (b is then nil), else in b.
//
// Errors are CPython's: "int() base must be >= 2 and <= 36, or 0",
// "invalid literal for int() with base 10: 'x'" (the repr cut to 200
// characters), and, for a base that is not a power of two, a number of more
// than maxDigits digits (0: no limit) is refused with "Exceeds the limit
// (4300 digits) for integer string conversion: value has N digits; use
// sys.set_int_max_str_digits() to increase the limit". Long inputs are
// converted in time O(n^1.6).
func ParseInt(s string, base, maxDigits int) (small int64, b *big.Int, err error) {
	small, b, ok, err := parseInt(toASCIINumber(s), base, maxDigits)
	if err == nil && !ok {
		err = valueError("invalid literal for int() with base %d: %s", base, quote(s, 200))
	}
	return small, b, err
}

// ParseIntBytes is int(b, base) for a bytes or bytearray b: ParseInt of
// ASCII text, with the bytes' repr in the error message.
func ParseIntBytes(b string, base, maxDigits int) (small int64, v *big.Int, err error) {
	t := b
	for i := 0; i < len(b); i++ {
		if b[i] >= 0x80 {
			t = b[:i] + "?"
			break
		}
	}
	small, v, ok, err := parseInt(t, base, maxDigits)
	if err == nil && !ok {
		err = valueError("invalid literal for int() with base %d: %s", base, quoteBytes(b, 200))
	}
	return small, v, err
}

func parseInt(s string, base, maxDigits int) (small int64, bi *big.Int, ok bool, err error) {
	if base != 0 && (base < 2 || base > 36) {
		return 0, nil, false, valueError("int() base must be >= 2 and <= 36, or 0")
	}
	i, n := 0, len(s)
	for i < n && isASCIISpace(s[i]) {
		i++
	}
	for n > i && isASCIISpace(s[n-1]) {
		n--
	}
	s = s[i:n]
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	prefixed := false
	if len(s) >= 2 && s[0] == '0' {
		p := s[1] | 0x20
		switch {
		case p == 'x' && (base == 0 || base == 16):
			base, prefixed = 16, true
		case p == 'o' && (base == 0 || base == 8):
			base, prefixed = 8, true
		case p == 'b' && (base == 0 || base == 2):
			base, prefixed = 2, true
		}
		if prefixed {
			s = s[2:]
			if len(s) > 0 && s[0] == '_' {
				s = s[1:]
			}
		}
	}
	zeroOnly := false
	if base == 0 {
		base = 10
		zeroOnly = len(s) > 0 && s[0] == '0'
	}
	// digits with single underscores between them
	if len(s) == 0 {
		return 0, nil, false, nil
	}
	digits, under := 0, 0
	prevUnder := true
	for j := 0; j < len(s); j++ {
		c := s[j]
		if c == '_' {
			if prevUnder {
				return 0, nil, false, nil
			}
			prevUnder = true
			under++
			continue
		}
		d := digitVal(c)
		if d >= base || zeroOnly && d != 0 {
			return 0, nil, false, nil
		}
		prevUnder = false
		digits++
	}
	if prevUnder {
		return 0, nil, false, nil
	}
	if maxDigits > 0 && base&(base-1) != 0 && digits > maxDigits {
		return 0, nil, false, valueError("Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxDigits, digits)
	}
	if under > 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	if v, err := strconv.ParseUint(s, base, 64); err == nil {
		if !neg && v <= math.MaxInt64 {
			return int64(v), nil, true, nil
		}
		if neg && v <= 1<<63 {
			return -int64(v), nil, true, nil
		}
	}
	bi = parseBig(s, base)
	if neg {
		bi.Neg(bi)
	}
	return 0, bi, true, nil
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// bigSplit is the length from which parseBig divides and conquers.
const bigSplit = 2000

// parseBig converts a string of valid digits: directly for powers of two
// and short strings, else as high*base**len(low) + low with the halves
// converted the same way (subquadratic with Karatsuba multiplication).
func parseBig(s string, base int) *big.Int {
	if base&(base-1) == 0 || len(s) <= bigSplit {
		v, _ := new(big.Int).SetString(s, base)
		return v
	}
	pows := map[int]*big.Int{}
	var conv func(s string) *big.Int
	conv = func(s string) *big.Int {
		if len(s) <= bigSplit {
			v, _ := new(big.Int).SetString(s, base)
			return v
		}
		// split at a power of two number of low digits so the powers are shared
		k := bigSplit
		for 2*k < len(s) {
			k *= 2
		}
		hi, lo := conv(s[:len(s)-k]), conv(s[len(s)-k:])
		p := pows[k]
		if p == nil {
			p = new(big.Int).Exp(big.NewInt(int64(base)), big.NewInt(int64(k)), nil)
			pows[k] = p
		}
		return hi.Add(hi.Mul(hi, p), lo)
	}
	return conv(s)
}

// ParseFloat is float(s) for a str s: surrounding whitespace, a sign, a
// decimal number with single underscores between digits (1_000.5e1_0), or
// inf, infinity or nan in any case; non-ASCII decimal digits count as
// digits. The result is correctly rounded (as CPython's), overflowing to an
// infinity. Anything else is a ValueError "could not convert string to
// float: 'x'".
func ParseFloat(s string) (float64, error) {
	f, ok := parseFloat(toASCIINumber(s))
	if !ok {
		return 0, valueError("could not convert string to float: %s", quote(s, 0))
	}
	return f, nil
}

// ParseFloatBytes is float(b) for a bytes b, with the bytes' repr in the
// error message.
func ParseFloatBytes(b string) (float64, error) {
	t := b
	for i := 0; i < len(b); i++ {
		if b[i] >= 0x80 {
			t = b[:i] + "?"
			break
		}
	}
	f, ok := parseFloat(t)
	if !ok {
		return 0, valueError("could not convert string to float: %s", quoteBytes(b, 0))
	}
	return f, nil
}

func parseFloat(s string) (float64, bool) {
	i, n := 0, len(s)
	for i < n && isASCIISpace(s[i]) {
		i++
	}
	for n > i && isASCIISpace(s[n-1]) {
		n--
	}
	s = s[i:n]
	t := s
	neg := false
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	switch {
	case strings.EqualFold(t, "inf"), strings.EqualFold(t, "infinity"):
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case strings.EqualFold(t, "nan"):
		return math.NaN(), true
	}
	// digitpart ["." [digitpart]] | "." digitpart, then [e [sign] digitpart]
	j := 0
	scanDigits := func() (int, bool) {
		start := j
		for j < len(t) {
			c := t[j]
			if c >= '0' && c <= '9' {
				j++
				continue
			}
			if c == '_' && j > start && j+1 < len(t) && t[j+1] >= '0' && t[j+1] <= '9' {
				j++
				continue
			}
			break
		}
		return j - start, true
	}
	intDigits, _ := scanDigits()
	fracDigits := 0
	if j < len(t) && t[j] == '.' {
		j++
		fracDigits, _ = scanDigits()
	}
	if intDigits+fracDigits == 0 {
		return 0, false
	}
	if j < len(t) && (t[j] == 'e' || t[j] == 'E') {
		j++
		if j < len(t) && (t[j] == '+' || t[j] == '-') {
			j++
		}
		if n, _ := scanDigits(); n == 0 {
			return 0, false
		}
	}
	if j != len(t) {
		return 0, false
	}
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}
