package pymod

import (
	"strings"

	"go.starlark.net/starlark"
)

// Percent is Python's printf-style formatting, format % values: flags
// (-+ 0#), width, precision, (name) keys and the types s r a d i u f F e E g
// G x X o c %. Widths and precisions are size-checked.
func Percent(thread *starlark.Thread, format string, values starlark.Value) (string, error) {
	var args starlark.Tuple
	var mapping starlark.Mapping
	switch v := values.(type) {
	case starlark.Tuple:
		args = v
	case *starlark.Dict, *Counter, *DefaultDict:
		mapping = v.(starlark.Mapping)
		args = starlark.Tuple{v}
	default:
		args = starlark.Tuple{v}
	}
	lim := Limit(thread)
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(format) {
			return "", Errorf("ValueError", "incomplete format")
		}
		var arg starlark.Value
		if format[i] == '(' {
			end := strings.IndexByte(format[i:], ')')
			if end < 0 || mapping == nil {
				return "", Errorf("TypeError", "format requires a mapping")
			}
			key := format[i+1 : i+end]
			v, found, err := mapping.Get(starlark.String(key))
			if err != nil || !found {
				return "", Errorf("KeyError", "'%s'", key)
			}
			arg = v
			i += end + 1
		}
		// flags, width, precision: reuse the format-spec machinery
		sp := spec{fill: ' ', prec: -1}
		for ; i < len(format) && strings.IndexByte("-+ 0#", format[i]) >= 0; i++ {
			switch format[i] {
			case '-':
				sp.align = '<'
			case '+', ' ':
				sp.sign = format[i]
			case '0':
				sp.zero = true
			case '#':
				sp.alt = true
			}
		}
		j := i
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		if j > i {
			n := 0
			for _, d := range format[i:j] {
				n = n*10 + int(d-'0')
				if int64(n) > lim {
					return "", CheckSize(thread, "a % format width", int64(n))
				}
			}
			sp.width = n
			i = j
		}
		if i < len(format) && format[i] == '.' {
			i++
			j = i
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			n := 0
			for _, d := range format[i:j] {
				n = n*10 + int(d-'0')
				if n > 1000 {
					return "", Errorf("ValueError", "precision too big")
				}
			}
			sp.prec = n
			i = j
		}
		if i >= len(format) {
			return "", Errorf("ValueError", "incomplete format")
		}
		typ := format[i]
		if typ == '%' {
			b.WriteByte('%')
			continue
		}
		if arg == nil {
			if next >= len(args) {
				return "", Errorf("TypeError", "not enough arguments for format string")
			}
			arg = args[next]
			next++
		}
		if sp.align == '<' {
			sp.zero = false
		}
		var s string
		var err error
		switch typ {
		case 's', 'r', 'a':
			if typ != 's' {
				s, err = ReprChecked(thread, arg)
			} else {
				s, err = StrChecked(thread, arg)
			}
			if err != nil {
				return "", err
			}
			if sp.prec >= 0 && len([]rune(s)) > sp.prec {
				s = string([]rune(s)[:sp.prec])
			}
			s = pad(s, spec{fill: ' ', align: map[bool]byte{true: '<', false: '>'}[sp.align == '<'], width: sp.width}, false)
		case 'd', 'i', 'u', 'f', 'F', 'e', 'E', 'g', 'G', 'x', 'X', 'o', 'c':
			t := typ
			if t == 'i' || t == 'u' {
				t = 'd'
			}
			sp.typ = t
			switch a := arg.(type) {
			case starlark.Float:
				if t == 'd' || t == 'x' || t == 'X' || t == 'o' {
					iv, _ := starlark.NumberToInt(a)
					arg = iv
				}
			case starlark.Int, starlark.Bool:
			default:
				return "", Errorf("TypeError", "%%%c format: a real number is required, not %s", typ, TypeName(arg))
			}
			if b, ok := arg.(starlark.Bool); ok {
				arg = starlark.MakeInt(map[bool]int{true: 1, false: 0}[bool(b)])
			}
			switch a := arg.(type) {
			case starlark.Int:
				if t == 'c' {
					n, _ := a.Int64()
					s = string(rune(n))
				} else {
					s, err = formatInt(a, sp)
				}
			case starlark.Float:
				s, err = formatFloat(float64(a), sp)
			}
			if err != nil {
				return "", err
			}
			s = pad(s, sp, true)
		default:
			return "", Errorf("ValueError", "unsupported format character '%c'", typ)
		}
		b.WriteString(s)
		if int64(b.Len()) > lim {
			return "", CheckSize(thread, "the % format's result", int64(b.Len()))
		}
	}
	if mapping == nil && next < len(args) {
		return "", Errorf("TypeError", "not all arguments converted during string formatting")
	}
	return b.String(), nil
}
