package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Arg is one value on the right of str % values, as the interpreter sees
// it. The conversions report ok false when the value has no such
// conversion (Percent words the TypeError as CPython does); any other
// failure (an OverflowError converting an infinity, an exception raised by
// a user's __int__) is returned as err and passed on.
type Arg interface {
	// TypeName is type(v).__name__, for error messages.
	TypeName() string
	// Str, Repr and ASCII are str(v), repr(v) and ascii(v).
	Str() (string, error)
	Repr() (string, error)
	ASCII() (string, error)
	// IsInt reports whether v is an int (bools included), as a '*' width
	// or precision requires.
	IsInt() bool
	// Int converts v to an int: for %d %i %u (index false) as CPython's
	// int(v) of a number (a float truncated; ok false when v is not a
	// number); for %o %x %X %c and '*' (index true) by __index__ only.
	// The value is small when big is nil.
	Int(index bool) (small int64, big *big.Int, ok bool, err error)
	// Float is float(v) for %e %E %f %F %g %G (ok false when v is not a
	// real number).
	Float() (f float64, ok bool, err error)
	// Text is v itself when v is a str, for %c.
	Text() (s string, ok bool)
}

// Operand is the right side of str % values: Args holds a tuple's items,
// or the single value when it is not a tuple. Lookup is set when the value
// is used as a mapping, which CPython does for any value with __getitem__
// that is not a tuple or a str (a list too); then %(key)s looks the key up
// and unused values are not an error.
type Operand struct {
	Args   []Arg
	Lookup func(key string) (Arg, error)
}

// Percent flags.
const (
	fLeft = 1 << iota
	fSign
	fBlank
	fAlt
	fZero
)

// Percent is format % values for a str format (printf-style formatting):
// conversions %[(key)][flags][width][.precision][length]type with flags
// "#0- +", '*' widths and precisions taken from the values, length
// modifiers h l L ignored, types d i u o x X e E f F g G c r s a and %%,
// exactly as CPython 3.12, errors included ("not enough arguments for
// format string", "not all arguments converted during string formatting",
// "%d format: a real number is required, not str", "unsupported format
// character 'q' (0x71) at index 1", "incomplete format", "format requires a
// mapping", ...), raised in CPython's order. maxDigits is the int digit
// limit of %d, limit the largest result in bytes (0: none).
func Percent(format string, op Operand, maxDigits, limit int) (string, error) {
	p := percentState{op: op, args: op.Args, maxDigits: maxDigits, limit: limit}
	return p.run(format)
}

type percentState struct {
	op        Operand
	args      []Arg
	next      int
	maxDigits int
	limit     int
	out       []byte
}

func (p *percentState) nextArg() (Arg, error) {
	if p.next >= len(p.args) {
		return nil, typeError("not enough arguments for format string")
	}
	a := p.args[p.next]
	p.next++
	return a, nil
}

// starArg is a '*' width (or precision) from the values.
func (p *percentState) starArg(prec bool) (int64, error) {
	a, err := p.nextArg()
	if err != nil {
		return 0, err
	}
	if !a.IsInt() {
		return 0, typeError("* wants int")
	}
	v, b, _, err := a.Int(true)
	if err != nil {
		return 0, err
	}
	if prec {
		if b != nil || v > math.MaxInt32 || v < math.MinInt32 {
			return 0, overflowError("Python int too large to convert to C int")
		}
	} else if b != nil {
		return 0, overflowError("Python int too large to convert to C ssize_t")
	}
	return v, nil
}

func (p *percentState) run(format string) (string, error) {
	i := 0
	for i < len(format) {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			p.out = append(p.out, format[i:]...)
			break
		}
		p.out = append(p.out, format[i:i+j]...)
		i += j + 1
		if i < len(format) && format[i] == '%' {
			p.out = append(p.out, '%')
			i++
			continue
		}
		var err error
		if i, err = p.conversion(format, i); err != nil {
			return "", err
		}
		if err := checkSize(int64(len(p.out)), p.limit); err != nil {
			return "", err
		}
	}
	if p.op.Lookup == nil && p.next < len(p.args) {
		return "", typeError("not all arguments converted during string formatting")
	}
	return string(p.out), nil
}

// conversion formats the conversion whose text starts at format[i] (after
// the '%') and returns the index after it.
func (p *percentState) conversion(format string, i int) (int, error) {
	incomplete := func() (int, error) { return 0, valueError("incomplete format") }
	var arg Arg
	if i < len(format) && format[i] == '(' {
		if p.op.Lookup == nil {
			return 0, typeError("format requires a mapping")
		}
		depth, j := 1, i+1
		for ; j < len(format) && depth > 0; j++ {
			switch format[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		if depth > 0 {
			return 0, valueError("incomplete format key")
		}
		v, err := p.op.Lookup(format[i+1 : j-1])
		if err != nil {
			return 0, err
		}
		// the looked-up value is the only value left
		p.args, p.next = []Arg{v}, 0
		arg = nil
		i = j
	}
	flags := 0
flagLoop:
	for ; i < len(format); i++ {
		switch format[i] {
		case '-':
			flags |= fLeft
		case '+':
			flags |= fSign
		case ' ':
			flags |= fBlank
		case '#':
			flags |= fAlt
		case '0':
			flags |= fZero
		default:
			break flagLoop
		}
	}
	width, prec := int64(-1), int64(-1)
	if i < len(format) && format[i] == '*' {
		w, err := p.starArg(false)
		if err != nil {
			return 0, err
		}
		if w < 0 {
			flags |= fLeft
			w = -w
		}
		width = w
		i++
	} else {
		for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			d := int64(format[i] - '0')
			if width < 0 {
				width = 0
			}
			if width > (math.MaxInt64-d)/10 {
				return 0, valueError("width too big")
			}
			width = width*10 + d
		}
	}
	if i < len(format) && format[i] == '.' {
		i++
		prec = 0
		if i < len(format) && format[i] == '*' {
			v, err := p.starArg(true)
			if err != nil {
				return 0, err
			}
			prec = max(v, 0)
			i++
		} else {
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				d := int64(format[i] - '0')
				if prec > (math.MaxInt32-d)/10 {
					return 0, valueError("precision too big")
				}
				prec = prec*10 + d
			}
		}
	}
	for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
		i++
	}
	if i >= len(format) {
		return incomplete()
	}
	c, size := utf8.DecodeRuneInString(format[i:])
	typeAt := i
	i += size
	arg, err := p.nextArg()
	if err != nil {
		return 0, err
	}
	if width > 0 {
		if err := checkSize(int64(len(p.out))+width, p.limit); err != nil {
			return 0, err
		}
	}
	if prec > 0 {
		if err := checkSize(int64(len(p.out))+prec, p.limit); err != nil {
			return 0, err
		}
	}
	switch c {
	case 's', 'r', 'a':
		var s string
		switch c {
		case 's':
			s, err = arg.Str()
		case 'r':
			s, err = arg.Repr()
		default:
			s, err = arg.ASCII()
		}
		if err != nil {
			return 0, err
		}
		if prec >= 0 {
			s = truncRunes(s, int(prec))
		}
		p.padText(s, flags, width)
	case 'c':
		s, err := percentChar(arg)
		if err != nil {
			return 0, err
		}
		p.padText(s, flags, width)
	case 'd', 'i', 'u', 'o', 'x', 'X':
		index := c == 'o' || c == 'x' || c == 'X'
		v, b, ok, err := arg.Int(index)
		if err != nil {
			return 0, err
		}
		if !ok {
			if index {
				return 0, typeError("%%%c format: an integer is required, not %s", c, arg.TypeName())
			}
			return 0, typeError("%%%c format: a real number is required, not %s", c, arg.TypeName())
		}
		neg, digits, err := p.intDigits(v, b, byte(c))
		if err != nil {
			return 0, err
		}
		if prec > int64(len(digits)) {
			digits = strings.Repeat("0", int(prec)-len(digits)) + digits
		}
		prefix := ""
		if flags&fAlt != 0 {
			switch c {
			case 'o':
				prefix = "0o"
			case 'x':
				prefix = "0x"
			case 'X':
				prefix = "0X"
			}
		}
		p.padNumber(neg, prefix, digits, flags, width)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		f, ok, err := arg.Float()
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, typeError("must be real number, not %s", arg.TypeName())
		}
		if prec < 0 {
			prec = 6
		}
		mode := byte(c) | 0x20
		body := appendFloatAbs(nil, f, mode, int(prec), flags&fAlt != 0, false)
		if c < 'a' {
			for k, ch := range body {
				if ch >= 'a' && ch <= 'z' {
					body[k] = ch - 'a' + 'A'
				}
			}
		}
		p.padNumber(math.Signbit(f) && !math.IsNaN(f), "", string(body), flags, width)
	default:
		ch := byte('?')
		if c >= 32 && c <= 126 {
			ch = byte(c)
		}
		return 0, valueError("unsupported format character '%c' (0x%x) at index %d", ch, c, utf8.RuneCountInString(format[:typeAt]))
	}
	return i, nil
}

func percentChar(arg Arg) (string, error) {
	if s, ok := arg.Text(); ok {
		if utf8.RuneCountInString(s) != 1 {
			return "", typeError("%%c requires int or char")
		}
		return s, nil
	}
	v, b, ok, err := arg.Int(true)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", typeError("%%c requires int or char")
	}
	if b != nil || v < 0 || v > utf8.MaxRune {
		return "", overflowError("%%c arg not in range(0x110000)")
	}
	return string(rune(v)), nil
}

func (p *percentState) intDigits(v int64, b *big.Int, c byte) (bool, string, error) {
	base := 10
	switch c {
	case 'o':
		base = 8
	case 'x', 'X':
		base = 16
	}
	var s string
	neg := false
	if b == nil {
		u := uint64(v)
		if v < 0 {
			neg, u = true, -u
		}
		s = strconv.FormatUint(u, base)
	} else {
		neg = b.Sign() < 0
		if base == 10 {
			if err := checkDigits(b, p.maxDigits); err != nil {
				return false, "", err
			}
		}
		if err := checkSize(int64(len(p.out))+int64(b.BitLen()/3), p.limit); err != nil {
			return false, "", err
		}
		s = new(big.Int).Abs(b).Text(base)
		if base == 10 && p.maxDigits > 0 && len(s) > p.maxDigits {
			return false, "", limitError(p.maxDigits)
		}
	}
	if c == 'X' {
		s = strings.ToUpper(s)
	}
	return neg, s, nil
}

// padText writes s in width code points, right-aligned unless '-'.
func (p *percentState) padText(s string, flags int, width int64) {
	n := int64(utf8.RuneCountInString(s))
	if flags&fLeft != 0 {
		p.out = append(p.out, s...)
	}
	for ; n < width; n++ {
		p.out = append(p.out, ' ')
	}
	if flags&fLeft == 0 {
		p.out = append(p.out, s...)
	}
}

// padNumber writes a number: sign, prefix and digits, padded to width
// with spaces (on the right with '-') or zeros after the prefix ('0').
func (p *percentState) padNumber(neg bool, prefix, digits string, flags int, width int64) {
	sign := ""
	switch {
	case neg:
		sign = "-"
	case flags&fSign != 0:
		sign = "+"
	case flags&fBlank != 0:
		sign = " "
	}
	n := int64(len(sign) + len(prefix) + len(digits))
	switch {
	case flags&fLeft != 0:
		p.out = append(p.out, sign...)
		p.out = append(p.out, prefix...)
		p.out = append(p.out, digits...)
		for ; n < width; n++ {
			p.out = append(p.out, ' ')
		}
	case flags&fZero != 0:
		p.out = append(p.out, sign...)
		p.out = append(p.out, prefix...)
		for ; n < width; n++ {
			p.out = append(p.out, '0')
		}
		p.out = append(p.out, digits...)
	default:
		for ; n < width; n++ {
			p.out = append(p.out, ' ')
		}
		p.out = append(p.out, sign...)
		p.out = append(p.out, prefix...)
		p.out = append(p.out, digits...)
	}
}
