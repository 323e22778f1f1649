package fractions

import (
	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
	"math/big"
	"strings"
	"unicode"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// maxStrDigits is CPython's default limit on the digits int() converts
// (sys.get_int_max_str_digits()).
const maxStrDigits = 4300

// isSpace is \s of a str pattern.
func isSpace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x1f
	}
	return pystr.IsSpace(string(r))
}

// isDigit is \d of a str pattern: a decimal digit (category Nd).
func isDigit(r rune) bool {
	if r < 0x80 {
		return r >= '0' && r <= '9'
	}
	return unicode.Is(unicode.Nd, r)
}

// literal is the parse of Fraction(str): the groups of CPython's
// _RATIONAL_FORMAT.
type literal struct {
	neg                  bool
	num, denom, dec, exp []rune // nil: the group did not match
	hasDenom, hasDec     bool
	hasExp               bool
}

// digitsUnderscore matches \d+(_\d+)* at s[i:], returning its end or -1.
func digitsUnderscore(s []rune, i int) int {
	j := i
	if j >= len(s) || !isDigit(s[j]) {
		return -1
	}
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	for j+1 < len(s) && s[j] == '_' && isDigit(s[j+1]) {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	return j
}

func skipSpace(s []rune, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// parseLiteral matches s as CPython's pattern does:
//
//	\A\s*[-+]?(?=\d|\.\d)(\d*|\d+(_\d+)*)
//	(?:(?:\s*/\s*\d+(_\d+)*)?|(?:\.(d*|\d+(_\d+)*))?(?:E[-+]?\d+(_\d+)*)?)\s*\Z
//
// (ignoring case; the fractional part's first alternative is a literal
// "d*", as CPython has it).
func parseLiteral(str string) (*literal, bool) {
	s := []rune(str)
	i := skipSpace(s, 0)
	lit := &literal{}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		lit.neg = s[i] == '-'
		i++
	}
	if !(i < len(s) && isDigit(s[i]) || i+1 < len(s) && s[i] == '.' && isDigit(s[i+1])) {
		return nil, false
	}
	// The numerator: \d* first, else \d+(_\d+)*.
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	numEnds := []int{j}
	if k := digitsUnderscore(s, i); k > j {
		numEnds = append(numEnds, k)
	}
	for _, ne := range numEnds {
		lit.num = s[i:ne]
		if tail(s, ne, lit) {
			return lit, true
		}
	}
	return nil, false
}

// tail matches what follows the numerator.
func tail(s []rune, i int, lit *literal) bool {
	end := func(k int) bool { return skipSpace(s, k) == len(s) }
	// First alternative: an optional denominator.
	lit.hasDenom, lit.hasDec, lit.hasExp = false, false, false
	k := skipSpace(s, i)
	if k < len(s) && s[k] == '/' {
		k = skipSpace(s, k+1)
		if e := digitsUnderscore(s, k); e >= 0 && end(e) {
			lit.denom, lit.hasDenom = s[k:e], true
			return true
		}
	}
	if end(i) {
		return true
	}
	// Second alternative: an optional fractional part, an optional
	// exponent.
	type cand struct {
		decEnd int
		dec    []rune
		has    bool
	}
	var cands []cand
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && (s[j] == 'd' || s[j] == 'D') {
			j++
		}
		cands = append(cands, cand{j, s[i+1 : j], true})
		if e := digitsUnderscore(s, i+1); e >= 0 {
			cands = append(cands, cand{e, s[i+1 : e], true})
		}
	}
	cands = append(cands, cand{i, nil, false})
	for _, c := range cands {
		j := c.decEnd
		lit.dec, lit.hasDec = c.dec, c.has
		if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
			k := j + 1
			if k < len(s) && (s[k] == '-' || s[k] == '+') {
				k++
			}
			if e := digitsUnderscore(s, k); e >= 0 && end(e) {
				lit.exp, lit.hasExp = s[j+1:e], true
				return true
			}
		}
		lit.hasExp = false
		if end(j) {
			return true
		}
	}
	return false
}

// parseInt is int() of a group's digits (Unicode digits and underscores
// allowed), with int()'s errors.
func parseInt(t *python.Thread, digits []rune) (*big.Int, error) {
	var b strings.Builder
	n := 0
	for _, r := range digits {
		switch {
		case r == '_':
			continue
		case r == '-' || r == '+':
			b.WriteRune(r)
			continue
		}
		d, err := pystr.Decimal(r)
		if err != nil {
			return nil, python.Errorf(python.ValueErrorType, "invalid literal for int() with base 10: %s", python.StrRepr(string(digits)))
		}
		b.WriteByte(byte('0' + d))
		n++
	}
	if n > maxStrDigits {
		return nil, python.Errorf(python.ValueErrorType, "Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxStrDigits, n)
	}
	if err := t.CheckSize(int64(n)); err != nil {
		return nil, err
	}
	v, ok := new(big.Int).SetString(b.String(), 10)
	if !ok {
		return nil, python.Errorf(python.ValueErrorType, "invalid literal for int() with base 10: %s", python.StrRepr(string(digits)))
	}
	return v, nil
}

// pow10 returns 10**e, bounded by the thread's size limit.
func pow10(t *python.Thread, e int64) (*big.Int, error) {
	if err := t.CheckSize(e/2 + 16); err != nil {
		return nil, err
	}
	r, err := pyfmt.IntPow(t.Context(), big.NewInt(10), big.NewInt(e), 0)
	if err != nil {
		return nil, python.KernelError(t, err)
	}
	return r, nil
}

// parse is Fraction(str).
func parse(t *python.Thread, s string) (*Fraction, error) {
	lit, ok := parseLiteral(s)
	if !ok {
		return nil, python.Errorf(python.ValueErrorType, "Invalid literal for Fraction: %s", python.StrRepr(s))
	}
	num := new(big.Int)
	if len(lit.num) > 0 {
		v, err := parseInt(t, lit.num)
		if err != nil {
			return nil, err
		}
		num = v
	}
	den := big.NewInt(1)
	if lit.hasDenom {
		v, err := parseInt(t, lit.denom)
		if err != nil {
			return nil, err
		}
		den = v
	} else {
		if lit.hasDec && len(lit.dec) > 0 {
			var dec []rune
			for _, r := range lit.dec {
				if r != '_' {
					dec = append(dec, r)
				}
			}
			scale, err := pow10(t, int64(len(dec)))
			if err != nil {
				return nil, err
			}
			dv, err := parseInt(t, dec)
			if err != nil {
				return nil, err
			}
			num = new(big.Int).Add(new(big.Int).Mul(num, scale), dv)
			den = scale
		}
		if lit.hasExp {
			e, err := parseInt(t, lit.exp)
			if err != nil {
				return nil, err
			}
			if !e.IsInt64() || e.Int64() > 1<<40 || e.Int64() < -(1<<40) {
				return nil, python.Errorf(python.MemoryErrorType, "")
			}
			ev := e.Int64()
			if ev >= 0 {
				p, err := pow10(t, ev)
				if err != nil {
					return nil, err
				}
				num = new(big.Int).Mul(num, p)
			} else {
				p, err := pow10(t, -ev)
				if err != nil {
					return nil, err
				}
				den = new(big.Int).Mul(den, p)
			}
		}
	}
	if lit.neg {
		num = new(big.Int).Neg(num)
	}
	return New(num, den)
}
