package pymod

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
)

// spec is a parsed format specification: [[fill]align][sign][#][0][width][,|_][.precision][type].
type spec struct {
	fill     rune
	align    byte
	sign     byte
	alt      bool
	zero     bool
	width    int
	grouping byte
	prec     int // -1 when absent
	typ      byte
}

func parseSpec(s string) (spec, error) {
	sp := spec{fill: ' ', prec: -1}
	bad := func() (spec, error) { return spec{}, Errorf("ValueError", "Invalid format specifier %q", s) }
	i := 0
	if r, n := utf8.DecodeRuneInString(s); n > 0 && n < len(s) && strings.IndexByte("<>^=", s[n]) >= 0 {
		sp.fill, sp.align, i = r, s[n], n+1
	} else if len(s) > 0 && strings.IndexByte("<>^=", s[0]) >= 0 {
		sp.align, i = s[0], 1
	}
	if i < len(s) && strings.IndexByte("+- ", s[i]) >= 0 {
		sp.sign = s[i]
		i++
	}
	if i < len(s) && s[i] == '#' {
		sp.alt = true
		i++
	}
	if i < len(s) && s[i] == '0' {
		sp.zero = true
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > i {
		w, err := strconv.Atoi(s[i:j])
		if err != nil || w > 1<<30 {
			return bad()
		}
		sp.width = w
		i = j
	}
	if i < len(s) && (s[i] == ',' || s[i] == '_') {
		sp.grouping = s[i]
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		j = i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return bad()
		}
		p, err := strconv.Atoi(s[i:j])
		if err != nil || p > 1000 {
			return bad()
		}
		sp.prec = p
		i = j
	}
	if i < len(s) {
		sp.typ = s[i]
		i++
	}
	if i != len(s) {
		return bad()
	}
	return sp, nil
}

// FormatValue is Python's format(v, spec).
func FormatValue(thread *starlark.Thread, v starlark.Value, specStr string) (string, error) {
	if specStr == "" {
		return StrChecked(thread, v)
	}
	sp, err := parseSpec(specStr)
	if err != nil {
		return "", err
	}
	if err := CheckSize(thread, "a format width", int64(sp.width)); err != nil {
		return "", err
	}
	var body string
	numeric := false
	switch x := v.(type) {
	case starlark.Bool:
		// bool.__format__ is int's for a non-empty spec: f"{True:>6}" is "     1"
		n := 0
		if x {
			n = 1
		}
		return FormatValue(thread, starlark.MakeInt(n), specStr)
	case starlark.Int:
		numeric = true
		body, err = formatInt(x, sp)
	case starlark.Float:
		numeric = true
		body, err = formatFloat(float64(x), sp)
	case starlark.String:
		if sp.typ != 0 && sp.typ != 's' {
			return "", Errorf("ValueError", "Unknown format code '%c' for object of type 'str'", sp.typ)
		}
		body = string(x)
		if sp.prec >= 0 && utf8.RuneCountInString(body) > sp.prec {
			body = string([]rune(body)[:sp.prec])
		}
	default:
		if sp.typ != 0 && sp.typ != 's' {
			return "", Errorf("TypeError", "unsupported format string passed to %s.__format__", TypeName(v))
		}
		body, err = StrChecked(thread, v)
	}
	if err != nil {
		return "", err
	}
	return pad(body, sp, numeric), nil
}

func pad(body string, sp spec, numeric bool) string {
	n := utf8.RuneCountInString(body)
	if n >= sp.width {
		return body
	}
	fill, align := sp.fill, sp.align
	if sp.zero && align == 0 && numeric {
		fill, align = '0', '='
	}
	if align == 0 {
		align = '<'
		if numeric {
			align = '>'
		}
	}
	padding := sp.width - n
	f := string(fill)
	switch align {
	case '>':
		return strings.Repeat(f, padding) + body
	case '^':
		l := padding / 2
		return strings.Repeat(f, l) + body + strings.Repeat(f, padding-l)
	case '=':
		sign := ""
		if len(body) > 0 && strings.IndexByte("+- ", body[0]) >= 0 {
			sign, body = body[:1], body[1:]
		}
		prefix := ""
		if len(body) > 1 && body[0] == '0' && strings.IndexByte("xXobB", body[1]) >= 0 {
			prefix, body = body[:2], body[2:]
		}
		return sign + prefix + strings.Repeat(f, padding) + body
	}
	return body + strings.Repeat(f, padding)
}

func signed(neg bool, digits string, sp spec) string {
	switch {
	case neg:
		return "-" + digits
	case sp.sign == '+':
		return "+" + digits
	case sp.sign == ' ':
		return " " + digits
	}
	return digits
}

func group(digits string, sep byte, every int) string {
	if sep == 0 || len(digits) <= every {
		return digits
	}
	var b strings.Builder
	first := len(digits) % every
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += every {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[i : i+every])
	}
	return b.String()
}

func formatInt(x starlark.Int, sp spec) (string, error) {
	bi := x.BigInt()
	neg := bi.Sign() < 0
	abs := new(big.Int).Abs(bi)
	var digits, prefix string
	switch sp.typ {
	case 0, 'd', 'n':
		digits = group(abs.String(), sp.grouping, 3)
	case 'x':
		digits, prefix = abs.Text(16), "0x"
	case 'X':
		digits, prefix = strings.ToUpper(abs.Text(16)), "0X"
	case 'o':
		digits, prefix = abs.Text(8), "0o"
	case 'b':
		digits, prefix = abs.Text(2), "0b"
	case 'c':
		return string(rune(bi.Int64())), nil
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, _ := new(big.Float).SetInt(bi).Float64()
		return formatFloat(f, sp)
	default:
		return "", Errorf("ValueError", "Unknown format code '%c' for object of type 'int'", sp.typ)
	}
	if sp.typ != 0 && sp.typ != 'd' && sp.typ != 'n' {
		digits = group(digits, sp.grouping, 4)
		if sp.alt {
			digits = prefix + digits
		}
	}
	return signed(neg, digits, sp), nil
}

func formatFloat(f float64, sp spec) (string, error) {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	prec := sp.prec
	var digits string
	switch sp.typ {
	case 'f', 'F':
		if prec < 0 {
			prec = 6
		}
		digits = strconv.FormatFloat(a, 'f', prec, 64)
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		digits = strconv.FormatFloat(a, 'e', prec, 64)
		if sp.typ == 'E' {
			digits = strings.ToUpper(digits)
		}
	case '%':
		if prec < 0 {
			prec = 6
		}
		digits = strconv.FormatFloat(a*100, 'f', prec, 64) + "%"
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		if prec == 0 {
			prec = 1
		}
		digits = strconv.FormatFloat(a, 'g', prec, 64)
		if sp.typ == 'G' {
			digits = strings.ToUpper(digits)
		}
	case 0:
		if prec < 0 {
			digits = FloatRepr(a)
		} else {
			digits = generalNoType(a, max(prec, 1))
		}
	case 'n':
		if prec < 0 {
			digits = FloatRepr(a)
		} else {
			digits = strconv.FormatFloat(a, 'g', max(prec, 1), 64)
		}
	default:
		return "", Errorf("ValueError", "Unknown format code '%c' for object of type 'float'", sp.typ)
	}
	if math.IsInf(a, 0) {
		digits = "inf"
	} else if math.IsNaN(a) {
		digits = "nan"
	}
	if sp.grouping != 0 {
		intPart, rest := digits, ""
		if i := strings.IndexAny(digits, ".e%"); i >= 0 {
			intPart, rest = digits[:i], digits[i:]
		}
		digits = group(intPart, sp.grouping, 3) + rest
	}
	return signed(neg, digits, sp), nil
}

// generalNoType is Python's format(a, ".p") (a precision and no type, a >= 0):
// like 'g', but fixed-point results keep a digit after the point ("1.0") and
// the exponent form starts one digit earlier (12.0 with ".2" is "1.2e+01").
func generalNoType(a float64, p int) string {
	es := strconv.FormatFloat(a, 'e', p-1, 64)
	i := strings.IndexByte(es, 'e')
	if i < 0 {
		return es // inf, nan: the caller spells them
	}
	exp, _ := strconv.Atoi(es[i+1:])
	if exp < -4 || exp >= p-1 {
		mant := es[:i]
		if strings.IndexByte(mant, '.') >= 0 {
			mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		}
		return mant + es[i:]
	}
	s := strconv.FormatFloat(a, 'g', p, 64)
	if strings.IndexByte(s, '.') < 0 {
		s += ".0"
	}
	return s
}

// Format is Python's str.format: {} {0} {name} {0[key]} {x.attr}, !r !s !a
// conversions, format specs (one level of nested {} in the spec), {{ and }}.
func Format(thread *starlark.Thread, tmpl string, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	var b strings.Builder
	auto := 0
	lim := Limit(thread)
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c == '}' {
			if i+1 < len(tmpl) && tmpl[i+1] == '}' {
				i++
			}
			b.WriteByte('}')
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(tmpl) && tmpl[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		// find the matching }
		depth, j := 1, i+1
		for ; j < len(tmpl) && depth > 0; j++ {
			switch tmpl[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth != 0 {
			return "", Errorf("ValueError", "Single '{' encountered in format string")
		}
		field := tmpl[i+1 : j-1]
		i = j - 1
		name, conv, specStr := field, "", ""
		if k := strings.IndexByte(field, ':'); k >= 0 {
			name, specStr = field[:k], field[k+1:]
		}
		if k := strings.IndexByte(name, '!'); k >= 0 {
			name, conv = name[:k], name[k+1:]
		}
		if strings.Contains(specStr, "{") {
			s, err := Format(thread, specStr, args, kwargs)
			if err != nil {
				return "", err
			}
			specStr = s
		}
		v, err := lookupField(name, &auto, args, kwargs)
		if err != nil {
			return "", err
		}
		switch conv {
		case "":
		case "r", "a":
			s, err := ReprChecked(thread, v)
			if err != nil {
				return "", err
			}
			v = starlark.String(s)
		case "s":
			s, err := StrChecked(thread, v)
			if err != nil {
				return "", err
			}
			v = starlark.String(s)
		default:
			return "", Errorf("ValueError", "Unknown conversion specifier %s", conv)
		}
		s, err := FormatValue(thread, v, specStr)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
		if int64(b.Len()) > lim {
			return "", CheckSize(thread, "str.format's result", int64(b.Len()))
		}
	}
	return b.String(), nil
}

func lookupField(name string, auto *int, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	head, rest := name, ""
	if k := strings.IndexAny(name, ".["); k >= 0 {
		head, rest = name[:k], name[k:]
	}
	var v starlark.Value
	switch {
	case head == "":
		if *auto >= len(args) {
			return nil, Errorf("IndexError", "Replacement index %d out of range for positional args tuple", *auto)
		}
		v = args[*auto]
		*auto++
	case head[0] >= '0' && head[0] <= '9':
		n, err := strconv.Atoi(head)
		if err != nil || n >= len(args) {
			return nil, Errorf("IndexError", "Replacement index %s out of range for positional args tuple", head)
		}
		v = args[n]
	default:
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == head {
				v = kv[1]
			}
		}
		if v == nil {
			return nil, Errorf("KeyError", "'%s'", head)
		}
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			k := strings.IndexAny(rest[1:], ".[")
			attr := rest[1:]
			if k >= 0 {
				attr, rest = rest[1:k+1], rest[k+1:]
			} else {
				rest = ""
			}
			ha, ok := v.(starlark.HasAttrs)
			if !ok {
				return nil, Errorf("AttributeError", "%s has no attribute %q", TypeName(v), attr)
			}
			x, err := ha.Attr(attr)
			if err != nil || x == nil {
				return nil, Errorf("AttributeError", "%s has no attribute %q", TypeName(v), attr)
			}
			v = x
		case '[':
			k := strings.IndexByte(rest, ']')
			if k < 0 {
				return nil, Errorf("ValueError", "Missing ']' in format string")
			}
			key := rest[1:k]
			rest = rest[k+1:]
			var kv starlark.Value = starlark.String(key)
			if n, err := strconv.Atoi(key); err == nil {
				kv = starlark.MakeInt(n)
			}
			switch c := v.(type) {
			case starlark.Mapping:
				x, found, err := c.Get(kv)
				if err != nil || !found {
					return nil, Errorf("KeyError", "%s", kv.String())
				}
				v = x
			case starlark.Indexable:
				n, ok := kv.(starlark.Int)
				i, ok2 := n.Int64()
				if !ok || !ok2 || i < 0 || int(i) >= c.Len() {
					return nil, Errorf("IndexError", "index out of range")
				}
				v = c.Index(int(i))
			default:
				return nil, Errorf("TypeError", "%s is not subscriptable", TypeName(v))
			}
		default:
			return nil, Errorf("ValueError", "bad field name %q", name)
		}
	}
	return v, nil
}
