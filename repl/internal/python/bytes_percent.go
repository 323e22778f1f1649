package python

import (
	"math"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// bytes % values: printf-style formatting of a bytes or bytearray format,
// as CPython 3.12's. The numeric conversions (d i u o x X e E f F g G) make
// ASCII text, formatted by pyfmt from the converted number; the others
// (s b r a c) work on bytes here, widths and precisions counting bytes.

// bytesFormat returns format % values, a bytearray when ba.
func bytesFormat(t *Thread, format string, values Object, ba bool) (Object, error) {
	f := bytesFormatter{t: t}
	tuple := values
	if o, ok := values.(*Instance); ok {
		if tu, ok := o.base.(*Tuple); ok {
			tuple = tu
		}
	}
	if tu, ok := tuple.(*Tuple); ok {
		f.args = tu.items
	} else {
		f.args = []Object{values}
		switch unwrap(values).(type) {
		case *Str, *hostStr, *Bytes, *ByteArray:
		default:
			if _, err := getAttr(t, values, "__getitem__"); err == nil {
				if has, _ := HasAttr(t, values, "__getitem__"); has || isMapping(values) {
					f.mapping = values
				}
			}
		}
	}
	out, err := f.run(format)
	if err != nil {
		return nil, err
	}
	if ba {
		return newByteArray(out), nil
	}
	return NewBytes(string(out)), nil
}

type bytesFormatter struct {
	t       *Thread
	args    []Object
	next    int
	mapping Object // the values, when used as a mapping
	out     []byte
}

func (f *bytesFormatter) nextArg() (Object, error) {
	if f.next >= len(f.args) {
		return nil, Errorf(TypeErrorType, "not enough arguments for format string")
	}
	a := f.args[f.next]
	f.next++
	return a, nil
}

// starArg is a '*' width or precision.
func (f *bytesFormatter) starArg(prec bool) (int64, error) {
	a, err := f.nextArg()
	if err != nil {
		return 0, err
	}
	v, k, _ := bIndex(f.t, a)
	switch unwrap(a).(type) {
	case Int, Bool, *BigInt:
	default:
		return 0, Errorf(TypeErrorType, "* wants int")
	}
	if prec {
		if k == bigInt || v > math.MaxInt32 || v < math.MinInt32 {
			return 0, Errorf(OverflowErrorType, "Python int too large to convert to C int")
		}
	} else if k == bigInt {
		return 0, Errorf(OverflowErrorType, "Python int too large to convert to C ssize_t")
	}
	return v, nil
}

func (f *bytesFormatter) run(format string) ([]byte, error) {
	i := 0
	for i < len(format) {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			f.out = append(f.out, format[i:]...)
			break
		}
		f.out = append(f.out, format[i:i+j]...)
		i += j + 1
		if i < len(format) && format[i] == '%' {
			f.out = append(f.out, '%')
			i++
			continue
		}
		var err error
		if i, err = f.conversion(format, i); err != nil {
			return nil, err
		}
		if err := f.t.grow(int64(len(f.out))); err != nil {
			return nil, err
		}
	}
	if f.mapping == nil && f.next < len(f.args) {
		return nil, Errorf(TypeErrorType, "not all arguments converted during bytes formatting")
	}
	return f.out, nil
}

// conversion formats the conversion starting at format[i] (after '%') and
// returns the index after it.
func (f *bytesFormatter) conversion(format string, i int) (int, error) {
	if i < len(format) && format[i] == '(' {
		if f.mapping == nil {
			return 0, Errorf(TypeErrorType, "format requires a mapping")
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
			return 0, Errorf(ValueErrorType, "incomplete format key")
		}
		v, err := GetItem(f.t, f.mapping, NewBytes(format[i+1:j-1]))
		if err != nil {
			return 0, err
		}
		f.args, f.next = []Object{v}, 0
		i = j
	}
	var flags []byte
	left, zero := false, false
flagLoop:
	for ; i < len(format); i++ {
		switch c := format[i]; c {
		case '-', '+', ' ', '#', '0':
			flags = append(flags, c)
			left = left || c == '-'
			zero = zero || c == '0'
		default:
			break flagLoop
		}
	}
	width, prec := int64(-1), int64(-1)
	if i < len(format) && format[i] == '*' {
		w, err := f.starArg(false)
		if err != nil {
			return 0, err
		}
		if w < 0 {
			flags = append(flags, '-')
			left = true
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
				return 0, Errorf(ValueErrorType, "width too big")
			}
			width = width*10 + d
		}
	}
	if i < len(format) && format[i] == '.' {
		i++
		prec = 0
		if i < len(format) && format[i] == '*' {
			v, err := f.starArg(true)
			if err != nil {
				return 0, err
			}
			prec = max(v, 0)
			i++
		} else {
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				d := int64(format[i] - '0')
				if prec > (math.MaxInt32-d)/10 {
					return 0, Errorf(ValueErrorType, "precision too big")
				}
				prec = prec*10 + d
			}
		}
	}
	for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
		i++
	}
	if i >= len(format) {
		return 0, Errorf(ValueErrorType, "incomplete format")
	}
	c := format[i]
	if c == 'i' {
		c = 'd' // as CPython, which names %i "%d" in its messages
	}
	at := i
	i++
	arg, err := f.nextArg()
	if err != nil {
		return 0, err
	}
	if width > 0 {
		if err := f.t.grow(int64(len(f.out)) + width); err != nil {
			return 0, err
		}
	}
	switch c {
	case 's', 'b', 'r', 'a':
		var s string
		if c == 's' || c == 'b' {
			if s, err = bytesOfFormatArg(f.t, arg); err != nil {
				return 0, err
			}
		} else {
			r, err := Repr(f.t, arg)
			if err != nil {
				return 0, err
			}
			s = asciiEscape(r)
		}
		if prec >= 0 && int64(len(s)) > prec {
			s = s[:prec]
		}
		f.pad(s, left, width)
	case 'c':
		b, err := byteOfFormatArg(f.t, arg)
		if err != nil {
			return 0, err
		}
		f.pad(string([]byte{b}), left, width)
	case 'd', 'i', 'u', 'o', 'x', 'X':
		index := c == 'o' || c == 'x' || c == 'X'
		v, b, ok, err := percentArg{f.t, arg}.Int(index)
		if err != nil {
			return 0, err
		}
		if !ok {
			if index {
				return 0, Errorf(TypeErrorType, "%%%c format: an integer is required, not %s", c, typeName(arg))
			}
			return 0, Errorf(TypeErrorType, "%%%c format: a real number is required, not %s", c, typeName(arg))
		}
		var n Object = MakeInt(v)
		if b != nil {
			n = MakeBigInt(b)
		}
		if err := f.number(flags, width, prec, c, n); err != nil {
			return 0, err
		}
	case 'e', 'E', 'f', 'F', 'g', 'G':
		x, ok, err := percentArg{f.t, arg}.Float()
		if err != nil {
			return 0, err
		}
		if !ok {
			if o, isInst := arg.(*Instance); isInst && o.cls.userMethod("__index__") != nil {
				r, err := toFloat(f.t, o)
				if err != nil {
					return 0, err
				}
				x, ok = float64(r.(Float)), true
			}
		}
		if !ok {
			return 0, Errorf(TypeErrorType, "float argument required, not %s", typeName(arg))
		}
		if err := f.number(flags, width, prec, c, Float(x)); err != nil {
			return 0, err
		}
	default:
		if c >= 0x80 {
			// CPython formats the message with the byte as a signed char.
			return 0, Errorf(OverflowErrorType, "character argument not in range(0x110000)")
		}
		return 0, Errorf(ValueErrorType, "unsupported format character '%c' (0x%x) at index %d", c, c, at)
	}
	return i, nil
}

// number formats the number n with pyfmt's % formatting.
func (f *bytesFormatter) number(flags []byte, width, prec int64, c byte, n Object) error {
	spec := make([]byte, 0, 32)
	spec = append(spec, '%')
	spec = append(spec, flags...)
	if width >= 0 {
		spec = strconv.AppendInt(spec, width, 10)
	}
	if prec >= 0 {
		spec = append(spec, '.')
		spec = strconv.AppendInt(spec, prec, 10)
	}
	spec = append(spec, c)
	limit := limitOf(f.t) - len(f.out)
	if limit <= 0 {
		limit = 1
	}
	s, err := pyfmt.Percent(string(spec), pyfmt.Operand{Args: []Arg{percentArg{f.t, n}}}, maxIntDigits, limit)
	if err != nil {
		if _, isKernel := err.(*pyfmt.Error); isKernel {
			return fromKernel(err)
		}
		return err
	}
	f.out = append(f.out, s...)
	return nil
}

// pad writes s in width bytes, right-aligned unless left.
func (f *bytesFormatter) pad(s string, left bool, width int64) {
	if left {
		f.out = append(f.out, s...)
	}
	for n := int64(len(s)); n < width; n++ {
		f.out = append(f.out, ' ')
	}
	if !left {
		f.out = append(f.out, s...)
	}
}

// bytesOfFormatArg is the value of %s and %b: a bytes-like object or the
// result of __bytes__.
func bytesOfFormatArg(t *Thread, x Object) (string, error) {
	if b, ok := bytesLike(x); ok {
		return b, nil
	}
	if m := bytesMethod(x); m != nil {
		r, err := callMethod(t, m, x, nil, nil)
		if err != nil {
			return "", err
		}
		switch v := unwrap(r).(type) {
		case *Bytes:
			return v.b, nil
		}
		return "", Errorf(TypeErrorType, "__bytes__ returned non-bytes (type %s)", typeName(r))
	}
	if isMemoryView(x) {
		return "", NotSupported("memoryview()", "slice the bytes directly")
	}
	return "", Errorf(TypeErrorType, "%%b requires a bytes-like object, or an object that implements __bytes__, not '%s'", typeName(x))
}

// byteOfFormatArg is the value of %c: a bytes or bytearray of length 1, or
// an int in range(256).
func byteOfFormatArg(t *Thread, x Object) (byte, error) {
	switch v := unwrap(x).(type) {
	case *Bytes:
		if len(v.b) == 1 {
			return v.b[0], nil
		}
		return 0, Errorf(TypeErrorType, "%%c requires an integer in range(256) or a single byte")
	case *ByteArray:
		if len(v.b) == 1 {
			return v.b[0], nil
		}
		return 0, Errorf(TypeErrorType, "%%c requires an integer in range(256) or a single byte")
	}
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		if IsInstance(err, TypeErrorType) {
			return 0, Errorf(TypeErrorType, "%%c requires an integer in range(256) or a single byte")
		}
		return 0, err
	case k == notInt:
		return 0, Errorf(TypeErrorType, "%%c requires an integer in range(256) or a single byte")
	case k == bigInt || v < 0 || v > 255:
		return 0, Errorf(OverflowErrorType, "%%c arg not in range(256)")
	}
	return byte(v), nil
}
