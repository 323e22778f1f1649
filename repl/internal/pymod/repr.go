package pymod

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"go.starlark.net/starlark"
)

// Exc is an exception value (bound by `except ... as e`, returned by
// ValueError("...")): str() is the message, repr() is Type('message').
type Exc struct {
	Typ string
	Msg string
}

var _ starlark.HasAttrs = (*Exc)(nil)

func (e *Exc) String() string        { return e.Msg }
func (e *Exc) Type() string          { return e.Typ }
func (e *Exc) Freeze()               {}
func (e *Exc) Truth() starlark.Bool  { return true }
func (e *Exc) Hash() (uint32, error) { return starlark.String(e.Typ + e.Msg).Hash() }
func (e *Exc) AttrNames() []string   { return []string{"args", "message"} }
func (e *Exc) Attr(name string) (starlark.Value, error) {
	switch name {
	case "args":
		if e.Msg == "" {
			return starlark.Tuple{}, nil
		}
		return starlark.Tuple{starlark.String(e.Msg)}, nil
	case "message":
		return starlark.String(e.Msg), nil
	}
	return nil, nil
}

const maxReprDepth = 50

// Str is Python's str(v): strings unquoted, everything else as Python's repr.
func Str(v starlark.Value) string {
	switch v := v.(type) {
	case starlark.String:
		return string(v)
	case *Exc:
		return v.Msg
	}
	var b strings.Builder
	writeRepr(&b, v, 0)
	return b.String()
}

// Repr is Python's repr(v): 'single-quoted' strings, [1, 'a'], {'k': 1}, (1,), {1, 2}.
func Repr(v starlark.Value) string {
	var b strings.Builder
	writeRepr(&b, v, 0)
	return b.String()
}

// ReprN is Repr that stops rendering soon after n bytes (for previews).
func ReprN(v starlark.Value, n int) string {
	var b strings.Builder
	writeReprMax(&b, v, 0, n)
	return b.String()
}

// StrChecked is Str for a value the program keeps (str(), repr(), format
// fields): a rendering over the cell's value bound is a MemoryError instead
// of the silently cut text Str returns past 16 MiB.
func StrChecked(thread *starlark.Thread, v starlark.Value) (string, error) {
	switch v := v.(type) {
	case starlark.String:
		return string(v), nil
	case *Exc:
		return v.Msg, nil
	}
	return ReprChecked(thread, v)
}

// ReprChecked is Repr bounded by the cell's value bound (see StrChecked).
func ReprChecked(thread *starlark.Thread, v starlark.Value) (string, error) {
	lim := Limit(thread)
	var b strings.Builder
	writeReprMax(&b, v, 0, int(min(lim, math.MaxInt32)))
	if int64(b.Len()) > lim {
		return "", CheckSize(thread, "the text of this value", int64(b.Len()))
	}
	return b.String(), nil
}

// QuoteString quotes s the way Python's repr does.
func QuoteString(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			h := strconv.FormatInt(int64(r), 16)
			if len(h) < 2 {
				b.WriteByte('0')
			}
			b.WriteString(h)
		case r == unicode.ReplacementChar || !unicode.IsPrint(r) && r > 0x7f:
			b.WriteString(strconv.QuoteRuneToASCII(r)[1 : len(strconv.QuoteRuneToASCII(r))-1])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

func writeRepr(b *strings.Builder, v starlark.Value, depth int) {
	writeReprMax(b, v, depth, 1<<24)
}

func writeReprMax(b *strings.Builder, v starlark.Value, depth, maxLen int) {
	if depth > maxReprDepth {
		b.WriteString("...")
		return
	}
	if b.Len() > maxLen {
		return // a bounded rendering: the output limits cut it anyway
	}
	switch v := v.(type) {
	case starlark.String:
		b.WriteString(QuoteString(string(v)))
	case starlark.Float:
		b.WriteString(FloatRepr(float64(v)))
	case *Exc:
		b.WriteString(v.Typ + "(" + QuoteString(v.Msg) + ")")
	case *starlark.List:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeReprMax(b, v.Index(i), depth+1, maxLen)
		}
		b.WriteByte(']')
	case starlark.Tuple:
		b.WriteByte('(')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeReprMax(b, x, depth+1, maxLen)
		}
		if len(v) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *starlark.Dict:
		writeItems(b, v.Items(), depth, maxLen)
	case *Counter:
		if v.d.Len() == 0 {
			b.WriteString("Counter()")
			return
		}
		b.WriteString("Counter(")
		writeItems(b, v.sortedItems(), depth, maxLen)
		b.WriteByte(')')
	case *DefaultDict:
		b.WriteString("defaultdict(")
		b.WriteString(v.factoryRepr())
		b.WriteString(", ")
		writeItems(b, v.d.Items(), depth, maxLen)
		b.WriteByte(')')
	case *Deque:
		b.WriteString("deque(")
		writeReprMax(b, starlark.NewList(v.elems), depth+1, maxLen)
		b.WriteString(v.maxlenRepr())
		b.WriteByte(')')
	case *starlark.Set:
		if v.Len() == 0 {
			b.WriteString("set()")
			return
		}
		b.WriteByte('{')
		iter := v.Iterate()
		defer iter.Done()
		var x starlark.Value
		for i := 0; iter.Next(&x); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeReprMax(b, x, depth+1, maxLen)
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.String())
	}
}

func writeItems(b *strings.Builder, items []starlark.Tuple, depth, maxLen int) {
	b.WriteByte('{')
	for i, kv := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len() > maxLen {
			return
		}
		writeReprMax(b, kv[0], depth+1, maxLen)
		b.WriteString(": ")
		writeReprMax(b, kv[1], depth+1, maxLen)
	}
	b.WriteByte('}')
}

// excParents is the exception hierarchy code mode knows (child -> parent).
var excParents = map[string]string{
	"Exception": "BaseException", "ArithmeticError": "Exception", "ZeroDivisionError": "ArithmeticError",
	"OverflowError": "ArithmeticError", "LookupError": "Exception", "KeyError": "LookupError",
	"IndexError": "LookupError", "ValueError": "Exception", "JSONDecodeError": "ValueError",
	"UnicodeError": "ValueError", "TypeError": "Exception", "NameError": "Exception",
	"AttributeError": "Exception", "RuntimeError": "Exception", "NotImplementedError": "RuntimeError",
	"RecursionError": "RuntimeError", "ImportError": "Exception", "ModuleNotFoundError": "ImportError",
	"AssertionError": "Exception", "StopIteration": "Exception", "error": "Exception",
	"MemoryError": "Exception", "TimeoutError": "Exception", "SyntaxError": "Exception",
	"KeyboardInterrupt": "BaseException", "SystemExit": "BaseException",
}

// ExceptionNames lists the exception types code mode predeclares, sorted.
func ExceptionNames() []string {
	var out []string
	for k := range excParents {
		if k != "error" && k != "JSONDecodeError" {
			out = append(out, k)
		}
	}
	out = append(out, "BaseException")
	sort.Strings(out)
	return out
}

// BaseType drops a dotted prefix: "json.JSONDecodeError" -> "JSONDecodeError", "re.error" -> "error".
func BaseType(t string) string {
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// IsSubtype reports whether exception type t is want or derives from it.
func IsSubtype(t, want string) bool {
	t, want = BaseType(t), BaseType(want)
	for i := 0; t != "" && i < 10; i++ {
		if t == want {
			return true
		}
		p, ok := excParents[t]
		if !ok {
			// unknown types derive from Exception
			p = map[bool]string{true: "", false: "Exception"}[t == "Exception" || t == "BaseException"]
			if t == "Exception" {
				p = "BaseException"
			}
		}
		t = p
	}
	return false
}
