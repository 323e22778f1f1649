package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Spec is a parsed format specification, CPython's
// [[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type].
type Spec struct {
	Fill      rune // ' ' unless given (or '0' from the 0 flag)
	Align     byte // '<', '>', '^', '=' or 0 for the type's default
	Sign      byte // '+', '-', ' ' or 0
	NoNegZero bool // "z": a negative zero result is shown without its sign
	Alt       bool // "#": alternate form
	Width     int  // -1 when absent
	Grouping  byte // ',', '_' or 0
	Prec      int  // -1 when absent
	Type      rune // the presentation type, 0 when absent

	fillGiven bool
}

// maxSpecInt is the largest width or precision CPython reads from a spec
// (Py_ssize_t); more digits are "Too many decimal digits in format string".
const maxSpecInt = math.MaxInt64

// ParseSpec parses a format spec as CPython does for a value of type
// typeName (named in its errors); numeric selects the numeric default
// alignment ('>', under which the 0 flag means '=' alignment with '0'
// fill) rather than a string's ('<'). The spec is checked as far as
// CPython checks it before looking at the type: the remaining checks are
// made by the Format functions.
func ParseSpec(spec, typeName string, numeric bool) (Spec, error) {
	sp := Spec{Fill: ' ', Width: -1, Prec: -1}
	s := spec
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '^' || c == '=' }
	if r, n := utf8.DecodeRuneInString(s); n > 0 && n < len(s) && isAlign(s[n]) {
		sp.Fill, sp.Align, sp.fillGiven = r, s[n], true
		s = s[n+1:]
	} else if len(s) > 0 && isAlign(s[0]) {
		sp.Align = s[0]
		s = s[1:]
	}
	if len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
		sp.Sign = s[0]
		s = s[1:]
	}
	if len(s) > 0 && s[0] == 'z' {
		sp.NoNegZero = true
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '#' {
		sp.Alt = true
		s = s[1:]
	}
	if !sp.fillGiven && len(s) > 0 && s[0] == '0' {
		sp.Fill, sp.fillGiven = '0', true
		if sp.Align == 0 && numeric {
			sp.Align = '='
		}
		s = s[1:]
	}
	tooMany := func() (Spec, error) {
		return Spec{}, valueError("Too many decimal digits in format string")
	}
	var ok bool
	if sp.Width, s, ok = specInt(s); !ok {
		return tooMany()
	}
	both := func() (Spec, error) { return Spec{}, valueError("Cannot specify both ',' and '_'.") }
	if len(s) > 0 && s[0] == ',' {
		sp.Grouping = ','
		s = s[1:]
		if len(s) > 0 && s[0] == '_' {
			return both()
		}
	}
	if len(s) > 0 && s[0] == '_' {
		if sp.Grouping != 0 {
			return both()
		}
		sp.Grouping = '_'
		s = s[1:]
		if len(s) > 0 && s[0] == ',' {
			return both()
		}
	}
	if len(s) > 0 && s[0] == '.' {
		s = s[1:]
		if sp.Prec, s, ok = specInt(s); !ok {
			return tooMany()
		}
		if sp.Prec < 0 {
			return Spec{}, valueError("Format specifier missing precision")
		}
	}
	if len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if n != len(s) {
			return Spec{}, valueError("Invalid format specifier '%s' for object of type '%s'", spec, typeName)
		}
		sp.Type = r
	}
	if sp.Grouping != 0 {
		t := sp.Type
		if t == 0 && !numeric {
			t = 's' // a str's default type
		}
		switch t {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if sp.Grouping != '_' {
				return Spec{}, valueError("Cannot specify ',' with %s.", codeText(t))
			}
		default:
			return Spec{}, valueError("Cannot specify '%c' with %s.", sp.Grouping, codeText(t))
		}
	}
	return sp, nil
}

// codeText is a presentation type as CPython's messages quote it.
func codeText(r rune) string {
	if r > 32 && r < 128 {
		return "'" + string(r) + "'"
	}
	return "'\\x" + strconv.FormatInt(int64(r), 16) + "'"
}

// specInt reads a decimal number at the start of s: -1 when there is none,
// ok false when it overflows.
func specInt(s string) (int, string, bool) {
	i := 0
	v := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := int(s[i] - '0')
		if v > (maxSpecInt-d)/10 {
			return 0, s, false
		}
		v = v*10 + d
		i++
	}
	if i == 0 {
		return -1, s, true
	}
	return v, s[i:], true
}

func unknownCode(t rune, typeName string) error {
	return valueError("Unknown format code %s for object of type '%s'", codeText(t), typeName)
}

// FormatStr is format(s, spec) for a str s (typeName is the type's name
// for errors, "str" or a subclass's): alignment, fill, width and precision
// (which cuts the text), counted in code points.
func FormatStr(s, spec, typeName string, limit int) (string, error) {
	if spec == "" {
		return s, nil
	}
	sp, err := ParseSpec(spec, typeName, false)
	if err != nil {
		return "", err
	}
	if sp.Type != 0 && sp.Type != 's' {
		return "", unknownCode(sp.Type, typeName)
	}
	switch {
	case sp.Sign == ' ':
		return "", valueError("Space not allowed in string format specifier")
	case sp.Sign != 0:
		return "", valueError("Sign not allowed in string format specifier")
	case sp.NoNegZero:
		return "", valueError("Negative zero coercion (z) not allowed in string format specifier")
	case sp.Alt:
		return "", valueError("Alternate form (#) not allowed in string format specifier")
	case sp.Align == '=':
		return "", valueError("'=' alignment not allowed in string format specifier")
	}
	if sp.Prec >= 0 {
		s = truncRunes(s, sp.Prec)
	}
	return pad(s, sp, '<', limit)
}

// truncRunes is s cut to at most n code points.
func truncRunes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// pad aligns body in sp.Width code points with sp.Fill ('=' is handled
// by the numeric formatting and reads as right alignment here).
func pad(body string, sp Spec, defAlign byte, limit int) (string, error) {
	n := utf8.RuneCountInString(body)
	if sp.Width <= n {
		if err := checkSize(int64(len(body)), limit); err != nil {
			return "", err
		}
		return body, nil
	}
	fill := string(sp.Fill)
	padding := sp.Width - n
	if err := checkSize(int64(len(body))+int64(padding)*int64(len(fill)), limit); err != nil {
		return "", err
	}
	align := sp.Align
	if align == 0 {
		align = defAlign
	}
	var left int
	switch align {
	case '>', '=':
		left = padding
	case '^':
		left = padding / 2
	}
	var b strings.Builder
	b.Grow(len(body) + padding*len(fill))
	for i := 0; i < left; i++ {
		b.WriteString(fill)
	}
	b.WriteString(body)
	for i := left; i < padding; i++ {
		b.WriteString(fill)
	}
	return b.String(), nil
}

// number is a formatted number in parts, before alignment: sign, prefix
// (0x...), the integer digits that grouping applies to, and the rest
// (fraction, exponent, %, inf, j...).
type number struct {
	sign, prefix string
	digits       []byte
	rest         string
}

// assemble groups and aligns a number as CPython does: with '=' alignment
// and a '0' fill the zeros go between the prefix and the digits and are
// grouped like digits.
func (nm *number) assemble(sp Spec, sep byte, every int, limit int) (string, error) {
	minWidth := 0
	if sp.Fill == '0' && sp.Align == '=' {
		minWidth = sp.Width - len(nm.sign) - len(nm.prefix) - len(nm.rest)
	}
	if minWidth > 0 {
		// zeros are ASCII: the padded number takes about minWidth bytes
		if err := checkSize(int64(minWidth)+int64(len(nm.sign)+len(nm.prefix)+len(nm.rest)), limit); err != nil {
			return "", err
		}
	}
	if len(nm.digits) == 0 {
		sep = 0 // inf and nan are not grouped, nor the zeros before them
	}
	grouped := groupDigits(nm.digits, sep, every, minWidth)
	body := nm.sign + nm.prefix + string(grouped) + nm.rest
	if sp.Align == '=' {
		n := len(body) // numbers are ASCII
		if sp.Width > n {
			fill := string(sp.Fill)
			padding := sp.Width - n
			if err := checkSize(int64(n)+int64(padding)*int64(len(fill)), limit); err != nil {
				return "", err
			}
			return nm.sign + nm.prefix + strings.Repeat(fill, padding) + string(grouped) + nm.rest, nil
		}
	}
	return pad(body, sp, '>', limit)
}

// groupDigits inserts sep every `every` digits from the right and, when
// minWidth > 0, adds leading zeros (grouped too) until the result has at
// least minWidth characters, never starting with a separator.
func groupDigits(digits []byte, sep byte, every int, minWidth int) []byte {
	if sep == 0 {
		if len(digits) >= minWidth {
			return digits
		}
		out := make([]byte, minWidth-len(digits), minWidth)
		for i := range out {
			out[i] = '0'
		}
		return append(out, digits...)
	}
	if len(digits) <= every && minWidth <= len(digits) {
		return digits
	}
	// build right to left
	out := make([]byte, 0, max(len(digits)+len(digits)/every, minWidth)+2)
	remaining := len(digits)
	width := minWidth
	for first := true; ; first = false {
		l := min(every, max(remaining, width, 1))
		chars := min(remaining, l)
		zeros := max(0, l-remaining)
		if !first {
			out = append(out, sep)
		}
		for i := 0; i < chars; i++ {
			out = append(out, digits[remaining-1-i])
		}
		for i := 0; i < zeros; i++ {
			out = append(out, '0')
		}
		remaining -= chars
		width -= l
		if remaining <= 0 && width <= 0 {
			break
		}
		width--
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func signText(neg bool, sign byte) string {
	switch {
	case neg:
		return "-"
	case sign == '+':
		return "+"
	case sign == ' ':
		return " "
	}
	return ""
}

// FormatInt is format(x, spec) for an int x (typeName: "int", "bool" or a
// subclass's name, for errors). An empty spec gives str(x) (for a bool the
// caller gives "True" or "False" itself). Types b c d o x X n and none
// format the int, e E f F g G % its float value; 'n' formats as 'd' (the C
// locale). maxDigits is the digit limit of decimal output, limit the
// largest result in bytes (0: none).
func FormatInt(x int64, spec, typeName string, maxDigits, limit int) (string, error) {
	if spec == "" {
		return strconv.FormatInt(x, 10), nil
	}
	return formatInt(x, nil, spec, typeName, maxDigits, limit)
}

// FormatBigInt is FormatInt for any int.
func FormatBigInt(x *big.Int, spec, typeName string, maxDigits, limit int) (string, error) {
	if x.IsInt64() {
		return FormatInt(x.Int64(), spec, typeName, maxDigits, limit)
	}
	if spec == "" {
		return IntString(x, maxDigits)
	}
	return formatInt(0, x, spec, typeName, maxDigits, limit)
}

func formatInt(small int64, bx *big.Int, spec, typeName string, maxDigits, limit int) (string, error) {
	sp, err := ParseSpec(spec, typeName, true)
	if err != nil {
		return "", err
	}
	switch sp.Type {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f := float64(small)
		if bx != nil {
			if f, err = IntToFloat(bx); err != nil {
				return "", err
			}
		}
		return formatFloat(f, sp, typeName, limit)
	case 'b', 'c', 'd', 'o', 'x', 'X', 'n', 0:
	default:
		return "", unknownCode(sp.Type, typeName)
	}
	if sp.Prec >= 0 {
		return "", valueError("Precision not allowed in integer format specifier")
	}
	if sp.NoNegZero {
		return "", valueError("Negative zero coercion (z) not allowed in integer format specifier")
	}
	neg := small < 0
	if bx != nil {
		neg = bx.Sign() < 0
	}
	if sp.Type == 'c' {
		if sp.Sign != 0 {
			return "", valueError("Sign not allowed with integer format specifier 'c'")
		}
		if sp.Alt {
			return "", valueError("Alternate form (#) not allowed with integer format specifier 'c'")
		}
		if bx != nil {
			return "", overflowError("Python int too large to convert to C long")
		}
		if small < 0 || small > utf8.MaxRune {
			return "", overflowError("%%c arg not in range(0x110000)")
		}
		return pad(string(rune(small)), sp, '>', limit)
	}
	base, prefix, every := 10, "", 3
	switch sp.Type {
	case 'b':
		base, prefix, every = 2, "0b", 4
	case 'o':
		base, prefix, every = 8, "0o", 4
	case 'x':
		base, prefix, every = 16, "0x", 4
	case 'X':
		base, prefix, every = 16, "0X", 4
	}
	if !sp.Alt {
		prefix = ""
	}
	var digits []byte
	if bx == nil {
		u := uint64(small)
		if neg {
			u = -u
		}
		digits = strconv.AppendUint(nil, u, base)
	} else {
		bits := bx.BitLen()
		if base == 10 {
			if err := checkDigits(bx, maxDigits); err != nil {
				return "", err
			}
		}
		if err := checkSize(int64(float64(bits)/math.Log2(float64(base)))+2, limit); err != nil {
			return "", err
		}
		digits = new(big.Int).Abs(bx).Append(nil, base)
		if base == 10 && maxDigits > 0 && len(digits) > maxDigits {
			return "", limitError(maxDigits)
		}
	}
	if sp.Type == 'X' {
		for i, c := range digits {
			if c >= 'a' {
				digits[i] = c - 'a' + 'A'
			}
		}
	}
	var sep byte
	if sp.Type != 'n' {
		sep = sp.Grouping
	}
	nm := number{sign: signText(neg, sp.Sign), prefix: prefix, digits: digits}
	return nm.assemble(sp, sep, every, limit)
}

// FormatFloat is format(x, spec) for a float x (typeName "float" or a
// subclass's name, for errors). An empty spec gives repr(x). Types e E f F
// g G n % and none, as CPython: no type and no precision is repr, no type
// with a precision is 'g' that keeps a ".0"; 'n' is 'g' (the C locale).
func FormatFloat(x float64, spec, typeName string, limit int) (string, error) {
	if spec == "" {
		return FloatRepr(x), nil
	}
	sp, err := ParseSpec(spec, typeName, true)
	if err != nil {
		return "", err
	}
	return formatFloat(x, sp, typeName, limit)
}

// floatMode maps a float presentation type to the layout, precision and
// flags of appendFloatAbs.
func floatMode(t rune, prec int, typeName string) (mode byte, p int, dot0, upper, pct bool, err error) {
	switch t {
	case 0:
		if prec < 0 {
			return 'r', 0, true, false, false, nil
		}
		return 'g', prec, true, false, false, nil
	case 'e', 'f', 'g':
		mode = byte(t)
	case 'E', 'F', 'G':
		mode, upper = byte(t)+'a'-'A', true
	case 'n':
		mode = 'g'
	case '%':
		mode, pct = 'f', true
	default:
		return 0, 0, false, false, false, unknownCode(t, typeName)
	}
	if prec < 0 {
		prec = 6
	}
	return mode, prec, false, upper, pct, nil
}

// maxFloatPrec is the largest precision CPython accepts for a float (C int).
const maxFloatPrec = math.MaxInt32

func formatFloat(x float64, sp Spec, typeName string, limit int) (string, error) {
	mode, prec, dot0, upper, pct, err := floatMode(sp.Type, sp.Prec, typeName)
	if err != nil {
		return "", err
	}
	if prec > maxFloatPrec {
		return "", valueError("precision too big")
	}
	if err := checkSize(int64(prec), limit); err != nil {
		return "", err
	}
	if pct {
		x *= 100
	}
	nm := floatNumber(x, mode, prec, sp, dot0, upper, false)
	if pct {
		nm.rest += "%"
	}
	var sep byte
	if sp.Type != 'n' {
		sep = sp.Grouping
	}
	return nm.assemble(sp, sep, 3, limit)
}

// floatNumber lays out x in parts. forceSign gives a '+' to a positive x
// (the imaginary part of a complex).
func floatNumber(x float64, mode byte, prec int, sp Spec, dot0, upper, forceSign bool) number {
	body := appendFloatAbs(nil, x, mode, prec, sp.Alt, dot0)
	if upper {
		for i, c := range body {
			if c >= 'a' && c <= 'z' {
				body[i] = c - 'a' + 'A'
			}
		}
	}
	neg := math.Signbit(x) && !math.IsNaN(x)
	if neg && sp.NoNegZero && allZero(body) {
		neg = false
	}
	sign := sp.Sign
	if forceSign {
		sign = '+'
	}
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	return number{sign: signText(neg, sign), digits: body[:i], rest: string(body[i:])}
}

// allZero reports whether a formatted number shows zero.
func allZero(b []byte) bool {
	for _, c := range b {
		if c == 'e' || c == 'E' {
			return true // the exponent of a zero mantissa
		}
		if c >= '1' && c <= '9' || c == 'i' || c == 'n' || c == 'I' || c == 'N' {
			return false // a digit, inf or nan
		}
	}
	return true
}

// FormatComplex is format(complex(re, im), spec) (typeName "complex" or a
// subclass's name, for errors). An empty spec gives repr. Types e E f F g
// G n and none; no type puts the number in parentheses and leaves out a
// real part of +0.0, as repr does.
func FormatComplex(re, im float64, spec, typeName string, limit int) (string, error) {
	if spec == "" {
		return ComplexRepr(re, im), nil
	}
	sp, err := ParseSpec(spec, typeName, true)
	if err != nil {
		return "", err
	}
	if sp.Type == '%' {
		return "", unknownCode(sp.Type, typeName)
	}
	mode, prec, _, upper, _, err := floatMode(sp.Type, sp.Prec, typeName)
	if err != nil {
		return "", err
	}
	if sp.Fill == '0' {
		return "", valueError("Zero padding is not allowed in complex format specifier")
	}
	if sp.Align == '=' {
		return "", valueError("'=' alignment flag is not allowed in complex format specifier")
	}
	if prec > maxFloatPrec {
		return "", valueError("precision too big")
	}
	if err := checkSize(2*int64(prec), limit); err != nil {
		return "", err
	}
	skipRe, parens := false, false
	if sp.Type == 0 {
		parens = true
		if re == 0 && !math.Signbit(re) {
			skipRe, parens = true, false
		}
	}
	var b strings.Builder
	var sep byte
	if sp.Type != 'n' {
		sep = sp.Grouping
	}
	if parens {
		b.WriteByte('(')
	}
	if !skipRe {
		nm := floatNumber(re, mode, prec, sp, false, upper, false)
		b.WriteString(nm.sign)
		b.Write(groupDigits(nm.digits, sep, 3, 0))
		b.WriteString(nm.rest)
	}
	nm := floatNumber(im, mode, prec, sp, false, upper, !skipRe)
	b.WriteString(nm.sign)
	b.Write(groupDigits(nm.digits, sep, 3, 0))
	b.WriteString(nm.rest)
	b.WriteByte('j')
	if parens {
		b.WriteByte(')')
	}
	return pad(b.String(), sp, '>', limit)
}
