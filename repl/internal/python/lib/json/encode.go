package json

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// encoder renders Python values as JSON text, as CPython 3.12's json
// encoder does (the C encoder when indent is None, the pure-Python one
// otherwise: they differ in no output this encoder produces).
type encoder struct {
	t         *python.Thread
	b         strings.Builder
	skipKeys  bool
	ascii     bool
	circular  bool
	allowNaN  bool
	sortKeys  bool
	hasIndent bool
	indent    string
	itemSep   string
	keySep    string
	// def is the default hook (nil: raise TypeError).
	def python.Object
	// indentObj, itemSepObj and keySepObj are the options run checks.
	indentObj, itemSepObj, keySepObj python.Object
	// markers holds the containers being encoded, for the circular
	// reference check.
	markers  []python.Object
	depth    int
	maxDepth int
	level    int
	steps    int
}

// checkSize keeps the text under the interpreter's value bound and counts
// steps.
func (e *encoder) checkSize() error {
	e.steps++
	if e.steps&1023 == 0 {
		if err := e.t.Tick(1); err != nil {
			return err
		}
	}
	if m := e.t.MaxValue(); m > 0 && int64(e.b.Len()) > m {
		return e.t.CheckSize(int64(e.b.Len()))
	}
	return nil
}

func (e *encoder) newline() error {
	if !e.hasIndent {
		return nil
	}
	if m := e.t.MaxValue(); m > 0 && int64(e.b.Len())+int64(len(e.indent))*int64(e.level)+1 > m {
		return e.t.CheckSize(int64(e.b.Len()) + int64(len(e.indent))*int64(e.level) + 1)
	}
	e.b.WriteByte('\n')
	for i := 0; i < e.level; i++ {
		e.b.WriteString(e.indent)
	}
	return nil
}

// mark records a container being encoded; it fails on a cycle.
func (e *encoder) mark(x python.Object) error {
	if e.circular {
		for _, m := range e.markers {
			if python.Identical(m, x) {
				return python.Errorf(python.ValueErrorType, "Circular reference detected")
			}
		}
		e.markers = append(e.markers, x)
	}
	return nil
}

func (e *encoder) unmark() {
	if e.circular {
		e.markers = e.markers[:len(e.markers)-1]
	}
}

func (e *encoder) enter() error {
	e.depth++
	if e.depth > e.maxDepth {
		msg := "maximum recursion depth exceeded while encoding a JSON object"
		if e.hasIndent {
			msg = "maximum recursion depth exceeded"
		}
		return python.Errorf(python.RecursionErrorType, "%s", msg)
	}
	return nil
}

// floatText is the JSON text of a float.
func (e *encoder) floatText(f float64) (string, error) {
	switch {
	case math.IsNaN(f), math.IsInf(f, 0):
		if !e.allowNaN {
			return "", python.Errorf(python.ValueErrorType, "Out of range float values are not JSON compliant: %s", python.FloatRepr(f))
		}
		switch {
		case math.IsNaN(f):
			return "NaN", nil
		case f > 0:
			return "Infinity", nil
		}
		return "-Infinity", nil
	}
	return python.FloatRepr(f), nil
}

// encode appends the JSON text of x.
func (e *encoder) encode(x python.Object) error {
	if err := e.checkSize(); err != nil {
		return err
	}
	switch v := x.(type) {
	case python.NoneType:
		e.b.WriteString("null")
		return nil
	case python.Bool:
		if v {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
		return nil
	}
	if python.IsStr(x) {
		return e.str(x)
	}
	u := python.Unwrap(x)
	if iv, ok := python.IntValue(u); ok {
		if _, isBool := u.(python.Bool); !isBool {
			s, err := python.Repr(e.t, iv)
			if err != nil {
				return err
			}
			e.b.WriteString(s)
			return nil
		}
	}
	switch v := u.(type) {
	case python.Float:
		s, err := e.floatText(float64(v))
		if err != nil {
			return err
		}
		e.b.WriteString(s)
		return nil
	case *python.List:
		return e.list(x, v.Items())
	case *python.Tuple:
		return e.list(x, v.Items())
	case *python.Dict:
		return e.dict(x, v)
	}
	return e.fallback(x)
}

func (e *encoder) list(self python.Object, items []python.Object) error {
	if len(items) == 0 {
		e.b.WriteString("[]")
		return nil
	}
	if err := e.mark(self); err != nil {
		return err
	}
	if err := e.enter(); err != nil {
		return err
	}
	e.b.WriteByte('[')
	e.level++
	if err := e.newline(); err != nil {
		return err
	}
	// A list may change while a default hook runs: index it live.
	for i := 0; ; i++ {
		items := itemsOf(self)
		if i >= len(items) {
			break
		}
		if i > 0 {
			e.b.WriteString(e.itemSep)
			if err := e.newline(); err != nil {
				return err
			}
		}
		if err := e.encode(items[i]); err != nil {
			return err
		}
	}
	e.level--
	if err := e.newline(); err != nil {
		return err
	}
	e.b.WriteByte(']')
	e.depth--
	e.unmark()
	return nil
}

func itemsOf(x python.Object) []python.Object {
	switch v := python.Unwrap(x).(type) {
	case *python.List:
		return v.Items()
	case *python.Tuple:
		return v.Items()
	}
	return nil
}

// keyText converts a dict key as the encoder does; skip reports a key
// skipkeys drops.
func (e *encoder) keyText(k python.Object) (text string, isStr bool, skip bool, err error) {
	if python.IsStr(k) {
		s, err := strOf(e.t, k)
		return s, true, false, err
	}
	u := python.Unwrap(k)
	switch v := u.(type) {
	case python.Float:
		s, err := e.floatText(float64(v))
		return s, false, false, err
	case python.Bool:
		if v {
			return "true", false, false, nil
		}
		return "false", false, false, nil
	case python.NoneType:
		return "null", false, false, nil
	}
	if iv, ok := python.IntValue(u); ok {
		s, err := python.Repr(e.t, iv)
		return s, false, false, err
	}
	if e.skipKeys {
		return "", false, true, nil
	}
	return "", false, false, python.Errorf(python.TypeErrorType, "keys must be str, int, float, bool or None, not %s", className(k))
}

func (e *encoder) dict(self python.Object, d *python.Dict) error {
	if d.Len() == 0 {
		e.b.WriteString("{}")
		return nil
	}
	if err := e.mark(self); err != nil {
		return err
	}
	if err := e.enter(); err != nil {
		return err
	}
	var keys, values []python.Object
	if e.sortKeys {
		pairs := make([]python.Object, 0, d.Len())
		d.Items(func(k, v python.Object) bool {
			pairs = append(pairs, python.NewTuple([]python.Object{k, v}))
			return true
		})
		l := python.NewList(pairs)
		if _, err := python.CallMethod(e.t, l, "sort", nil, nil); err != nil {
			return err
		}
		for _, p := range l.Items() {
			kv := p.(*python.Tuple).Items()
			keys = append(keys, kv[0])
			values = append(values, kv[1])
		}
	} else {
		d.Items(func(k, v python.Object) bool {
			keys = append(keys, k)
			values = append(values, v)
			return true
		})
	}
	e.b.WriteByte('{')
	e.level++
	if err := e.newline(); err != nil {
		return err
	}
	first := true
	for i, k := range keys {
		text, isStr, skip, err := e.keyText(k)
		if err != nil {
			return err
		}
		if skip {
			continue
		}
		if !first {
			e.b.WriteString(e.itemSep)
			if err := e.newline(); err != nil {
				return err
			}
		}
		first = false
		if isStr {
			e.quote(text)
		} else {
			e.b.WriteByte('"')
			e.b.WriteString(text)
			e.b.WriteByte('"')
		}
		e.b.WriteString(e.keySep)
		if err := e.encode(values[i]); err != nil {
			return err
		}
	}
	e.level--
	if err := e.newline(); err != nil {
		return err
	}
	e.b.WriteByte('}')
	e.depth--
	e.unmark()
	return nil
}

// fallback encodes what the default hook makes of x.
func (e *encoder) fallback(x python.Object) error {
	if e.def == nil {
		return notSerializable(x)
	}
	if err := e.mark(x); err != nil {
		return err
	}
	if err := e.enter(); err != nil {
		return err
	}
	r, err := python.Call(e.t, e.def, []python.Object{x}, nil)
	if err != nil {
		return err
	}
	if err := e.encode(r); err != nil {
		return err
	}
	e.depth--
	e.unmark()
	return nil
}

func notSerializable(x python.Object) error {
	return python.Errorf(python.TypeErrorType, "Object of type %s is not JSON serializable", className(x))
}

// className is type(x).__name__: a Go type named module.name (as
// CPython's C types are) is name.
func className(x python.Object) string {
	n := x.Type().Name()
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		return n[i+1:]
	}
	return n
}

// strOf returns the text of a str object (a context included).
func strOf(t *python.Thread, x python.Object) (string, error) {
	if s, ok := x.(*python.Str); ok {
		return s.String(), nil
	}
	var out string
	ok, err := python.ViewText(t, x, "text", func(v *python.TextView) error {
		if err := t.CheckSize(int64(len(v.Bytes))); err != nil {
			return err
		}
		out = string(v.Bytes)
		return nil
	})
	if err != nil {
		return "", err
	}
	if !ok {
		return "", python.Errorf(python.TypeErrorType, "expected str, got %s", python.TypeName(x))
	}
	return out, nil
}

func (e *encoder) str(x python.Object) error {
	s, err := strOf(e.t, x)
	if err != nil {
		return err
	}
	e.quote(s)
	return nil
}

const hexDigits = "0123456789abcdef"

func (e *encoder) u4(r rune) {
	e.b.WriteString(`\u`)
	e.b.WriteByte(hexDigits[r>>12&0xf])
	e.b.WriteByte(hexDigits[r>>8&0xf])
	e.b.WriteByte(hexDigits[r>>4&0xf])
	e.b.WriteByte(hexDigits[r&0xf])
}

// quote appends s as a JSON string: with ensure_ascii every code point
// outside ' '..'~' is escaped (above U+FFFF as a surrogate pair), without
// it only quotes, backslashes and control characters.
func (e *encoder) quote(s string) {
	e.b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		if c >= 0x80 && !e.ascii {
			i++
			continue
		}
		e.b.WriteString(s[start:i])
		switch c {
		case '"':
			e.b.WriteString(`\"`)
		case '\\':
			e.b.WriteString(`\\`)
		case '\n':
			e.b.WriteString(`\n`)
		case '\r':
			e.b.WriteString(`\r`)
		case '\t':
			e.b.WriteString(`\t`)
		case '\b':
			e.b.WriteString(`\b`)
		case '\f':
			e.b.WriteString(`\f`)
		default:
			if c < 0x80 {
				if c == 0x7f && !e.ascii {
					e.b.WriteByte(c)
				} else {
					e.u4(rune(c))
				}
				break
			}
			r, w := utf8.DecodeRuneInString(s[i:])
			i += w - 1
			if r > 0xffff {
				r -= 0x10000
				e.u4(0xd800 + r>>10)
				e.u4(0xdc00 + r&0x3ff)
			} else {
				e.u4(r)
			}
		}
		i++
		start = i
	}
	e.b.WriteString(s[start:])
	e.b.WriteByte('"')
}
