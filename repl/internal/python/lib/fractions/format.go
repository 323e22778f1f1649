package fractions

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// floatSpec is a parsed float-style format specification.
type floatSpec struct {
	fill         string
	align        byte // 0 when not given
	sign         byte // 0, '+', '-' or ' '
	noNegZero    bool
	alt          bool
	zeropad      bool
	width        int
	thousands    byte // 0, ',' or '_'
	precision    int
	hasPrecision bool
	typ          byte
}

func isAlign(c byte) bool { return c == '<' || c == '>' || c == '=' || c == '^' }

// parseFloatSpec matches a spec as CPython's
// _FLOAT_FORMAT_SPECIFICATION_MATCHER does (the whole spec).
func parseFloatSpec(spec string) (*floatSpec, bool) {
	try := func(fill string, align byte, rest string) (*floatSpec, bool) {
		fs := &floatSpec{fill: fill, align: align}
		s := rest
		if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
			fs.sign, s = s[0], s[1:]
		}
		if s != "" && s[0] == 'z' {
			fs.noNegZero, s = true, s[1:]
		}
		if s != "" && s[0] == '#' {
			fs.alt, s = true, s[1:]
		}
		if len(s) >= 2 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
			fs.zeropad, s = true, s[1:]
		}
		if s != "" && s[0] == '0' {
			s = s[1:]
		} else if s != "" && s[0] >= '1' && s[0] <= '9' {
			j := 0
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			w, err := strconv.Atoi(s[:j])
			if err != nil {
				return nil, false
			}
			fs.width, s = w, s[j:]
		}
		if s != "" && (s[0] == ',' || s[0] == '_') {
			fs.thousands, s = s[0], s[1:]
		}
		if s != "" && s[0] == '.' {
			s = s[1:]
			switch {
			case s != "" && s[0] == '0':
				fs.precision, s = 0, s[1:]
			case s != "" && s[0] >= '1' && s[0] <= '9':
				j := 0
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				p, err := strconv.Atoi(s[:j])
				if err != nil {
					return nil, false
				}
				fs.precision, s = p, s[j:]
			default:
				return nil, false
			}
			fs.hasPrecision = true
		}
		if len(s) != 1 || !strings.ContainsRune("eEfFgG%", rune(s[0])) {
			return nil, false
		}
		fs.typ = s[0]
		return fs, true
	}
	if r, n := utf8.DecodeRuneInString(spec); n > 0 && n < len(spec) && isAlign(spec[n]) {
		if fs, ok := try(string(r), spec[n], spec[n+1:]); ok {
			return fs, true
		}
	}
	if spec != "" && isAlign(spec[0]) {
		if fs, ok := try("", spec[0], spec[1:]); ok {
			return fs, true
		}
	}
	return try("", 0, spec)
}

// roundToExponent rounds n/d (d > 0) to a multiple of 10**exp, ties to
// even: the sign and the significand.
func roundToExponent(t *python.Thread, n, d *big.Int, exp int, noNegZero bool) (bool, *big.Int, error) {
	if exp >= 0 {
		p, err := pow10(t, int64(exp))
		if err != nil {
			return false, nil, err
		}
		d = mul(d, p)
	} else {
		p, err := pow10(t, int64(-exp))
		if err != nil {
			return false, nil, err
		}
		n = mul(n, p)
	}
	q, r := floorDivMod(new(big.Int).Add(n, new(big.Int).Rsh(d, 1)), d)
	if r.Sign() == 0 && d.Bit(0) == 0 {
		q.And(q, big.NewInt(-2))
	}
	var neg bool
	if noNegZero {
		neg = q.Sign() < 0
	} else {
		neg = n.Sign() < 0
	}
	return neg, q.Abs(q), nil
}

// roundToFigures rounds n/d to figures significant digits, ties to even:
// the sign, the significand and its exponent.
func roundToFigures(t *python.Thread, n, d *big.Int, figures int) (bool, *big.Int, int, error) {
	if n.Sign() == 0 {
		return false, new(big.Int), 1 - figures, nil
	}
	sn, sd := new(big.Int).Abs(n).String(), d.String()
	m := len(sn) - len(sd)
	if sd <= sn {
		m++
	}
	exp := m - figures
	neg, sig, err := roundToExponent(t, n, d, exp, false)
	if err != nil {
		return false, nil, 0, err
	}
	if len(sig.String()) == figures+1 {
		sig.Quo(sig, big.NewInt(10))
		exp++
	}
	return neg, sig, exp, nil
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// PyFormat is format(f, spec): str(f) for an empty spec, else a
// float-style presentation computed exactly from the fraction.
func (f *Fraction) PyFormat(t *python.Thread, spec string) (string, error) {
	if spec == "" {
		return f.PyStr(t)
	}
	fs, ok := parseFloatSpec(spec)
	if !ok {
		return "", python.Errorf(python.ValueErrorType, "Invalid format specifier %s for object of type 'Fraction'", python.StrRepr(spec))
	}
	if fs.align != 0 && fs.zeropad {
		return "", python.Errorf(python.ValueErrorType, "Invalid format specifier %s for object of type 'Fraction'; can't use explicit alignment when zero-padding", python.StrRepr(spec))
	}
	if err := t.CheckSize(int64(fs.width) + int64(fs.precision) + int64(f.num.BitLen()/3+f.den.BitLen()/3) + 64); err != nil {
		return "", err
	}
	fill := fs.fill
	if fill == "" {
		fill = " "
	}
	align := fs.align
	if align == 0 {
		align = '>'
	}
	posSign := ""
	if fs.sign == '+' || fs.sign == ' ' {
		posSign = string(fs.sign)
	}
	precision := 6
	if fs.hasPrecision {
		precision = fs.precision
	}
	typ := fs.typ
	trimZeros := (typ == 'g' || typ == 'G') && !fs.alt
	trimPoint := !fs.alt
	expIndicator := "e"
	if typ == 'E' || typ == 'F' || typ == 'G' {
		expIndicator = "E"
	}
	var neg, scientific bool
	var sig *big.Int
	var exponent, pointPos int
	var err error
	if typ == 'f' || typ == 'F' || typ == '%' {
		exponent = -precision
		if typ == '%' {
			exponent -= 2
		}
		neg, sig, err = roundToExponent(t, f.num, f.den, exponent, fs.noNegZero)
		if err != nil {
			return "", err
		}
		pointPos = precision
	} else {
		figures := precision + 1
		if typ == 'g' || typ == 'G' {
			figures = max(precision, 1)
		}
		neg, sig, exponent, err = roundToFigures(t, f.num, f.den, figures)
		if err != nil {
			return "", err
		}
		scientific = typ == 'e' || typ == 'E' || exponent > 0 || exponent+figures <= -4
		if scientific {
			pointPos = figures - 1
		} else {
			pointPos = -exponent
		}
	}
	suffix := ""
	switch {
	case typ == '%':
		suffix = "%"
	case scientific:
		e := exponent + pointPos
		s := strconv.Itoa(abs(e))
		if len(s) < 2 {
			s = "0" + s
		}
		if e < 0 {
			suffix = expIndicator + "-" + s
		} else {
			suffix = expIndicator + "+" + s
		}
	}
	digits := sig.String()
	if len(digits) < pointPos+1 {
		digits = strings.Repeat("0", pointPos+1-len(digits)) + digits
	}
	sign := posSign
	if neg {
		sign = "-"
	}
	leading := digits[:len(digits)-pointPos]
	frac := digits[len(digits)-pointPos:]
	if trimZeros {
		frac = strings.TrimRight(frac, "0")
	}
	sep := "."
	if trimPoint && frac == "" {
		sep = ""
	}
	trailing := sep + frac + suffix
	if fs.zeropad {
		minLeading := fs.width - len(sign) - len(trailing)
		w := minLeading
		if fs.thousands != 0 {
			w = floorDiv(3*minLeading, 4) + 1
		}
		if len(leading) < w {
			leading = strings.Repeat("0", w-len(leading)) + leading
		}
	}
	if fs.thousands != 0 {
		first := 1 + (len(leading)-1)%3
		var b strings.Builder
		b.WriteString(leading[:first])
		for pos := first; pos < len(leading); pos += 3 {
			b.WriteByte(fs.thousands)
			b.WriteString(leading[pos : pos+3])
		}
		leading = b.String()
	}
	body := leading + trailing
	n := fs.width - runeLen(sign) - runeLen(body)
	padding := ""
	if n > 0 {
		padding = strings.Repeat(fill, n)
	}
	switch align {
	case '>':
		return padding + sign + body, nil
	case '<':
		return sign + body + padding, nil
	case '^':
		half := runeIndex(padding, n/2)
		return padding[:half] + sign + body + padding[half:], nil
	}
	return sign + padding + body, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// runeIndex returns the byte offset of the k-th code point of s.
func runeIndex(s string, k int) int {
	for i := range s {
		if k == 0 {
			return i
		}
		k--
	}
	return len(s)
}
