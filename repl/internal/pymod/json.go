package pymod

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// JSON is the `json` module: dumps (indent, sort_keys, ensure_ascii,
// separators, default) and loads, with Python's output format.
var JSON = &starlarkstruct.Module{
	Name: "json",
	Members: starlark.StringDict{
		"dumps":           starlark.NewBuiltin("json.dumps", jsonDumps),
		"loads":           starlark.NewBuiltin("json.loads", jsonLoads),
		"JSONDecodeError": starlark.String("json.JSONDecodeError"),
	},
}

type encoder struct {
	thread    *starlark.Thread
	b         bytes.Buffer
	indent    string
	hasIndent bool
	itemSep   string
	keySep    string
	sortKeys  bool
	ascii     bool
	def       starlark.Callable
	limit     int64
	depth     int
}

func jsonDumps(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var obj, indent, separators, def starlark.Value = nil, starlark.None, starlark.None, starlark.None
	sortKeys, ascii := false, true
	var skipkeys, allowNaN, checkCircular, cls starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "obj", &obj, "skipkeys?", &skipkeys, "ensure_ascii?", &ascii,
		"check_circular?", &checkCircular, "allow_nan?", &allowNaN, "cls?", &cls, "indent?", &indent,
		"separators?", &separators, "default?", &def, "sort_keys?", &sortKeys); err != nil {
		return nil, err
	}
	e := &encoder{thread: thread, sortKeys: sortKeys, ascii: ascii, limit: Limit(thread), itemSep: ", ", keySep: ": "}
	switch ind := indent.(type) {
	case starlark.NoneType:
	case starlark.Int:
		n, ok := ind.Int64()
		if !ok || n > 1<<16 {
			return nil, Errorf("ValueError", "json.dumps: indent %s is too large", ind.String())
		}
		e.hasIndent, e.indent, e.itemSep = true, strings.Repeat(" ", int(max(n, 0))), ","
	case starlark.String:
		if len(ind) > 1<<16 {
			return nil, Errorf("ValueError", "json.dumps: indent is too large")
		}
		e.hasIndent, e.indent, e.itemSep = true, string(ind), ","
	default:
		return nil, Errorf("TypeError", "json.dumps: indent must be an int or a str, not %s", TypeName(indent))
	}
	if separators != starlark.None {
		t, ok := separators.(starlark.Indexable)
		if !ok || t.Len() != 2 {
			return nil, Errorf("TypeError", "json.dumps: separators must be a (item, key) pair")
		}
		is, ok1 := t.Index(0).(starlark.String)
		ks, ok2 := t.Index(1).(starlark.String)
		if !ok1 || !ok2 {
			return nil, Errorf("TypeError", "json.dumps: separators must be strings")
		}
		e.itemSep, e.keySep = string(is), string(ks)
	}
	if def != starlark.None {
		c, ok := def.(starlark.Callable)
		if !ok {
			return nil, Errorf("TypeError", "json.dumps: default must be callable")
		}
		e.def = c
	}
	if err := e.encode(obj); err != nil {
		return nil, err
	}
	return starlark.String(e.b.String()), nil
}

func (e *encoder) newline() error {
	if !e.hasIndent {
		return nil
	}
	e.b.WriteByte('\n')
	for i := 0; i < e.depth; i++ {
		e.b.WriteString(e.indent)
		if int64(e.b.Len()) > e.limit {
			return CheckSize(e.thread, "json.dumps's result", int64(e.b.Len()))
		}
	}
	return nil
}

func (e *encoder) encode(v starlark.Value) error {
	if int64(e.b.Len()) > e.limit {
		return CheckSize(e.thread, "json.dumps's result", int64(e.b.Len()))
	}
	if e.depth > 200 {
		return Errorf("ValueError", "json.dumps: value nests too deeply (circular reference?)")
	}
	switch v := v.(type) {
	case starlark.NoneType:
		e.b.WriteString("null")
	case starlark.Bool:
		if v {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
	case starlark.Int:
		e.b.WriteString(v.String())
	case starlark.Float:
		f := float64(v)
		switch {
		case math.IsNaN(f):
			e.b.WriteString("NaN")
		case math.IsInf(f, 1):
			e.b.WriteString("Infinity")
		case math.IsInf(f, -1):
			e.b.WriteString("-Infinity")
		default:
			e.b.WriteString(FloatRepr(f))
		}
	case starlark.String:
		e.str(string(v))
	case starlark.IterableMapping:
		items := v.Items()
		type kv struct {
			k    string
			orig starlark.Value
			v    starlark.Value
		}
		list := make([]kv, 0, len(items))
		for _, it := range items {
			var k string
			switch key := it[0].(type) {
			case starlark.String:
				k = string(key)
			case starlark.Int:
				k = key.String()
			case starlark.Float:
				k = FloatRepr(float64(key))
			case starlark.Bool:
				k = map[bool]string{true: "true", false: "false"}[bool(key)]
			case starlark.NoneType:
				k = "null"
			default:
				return Errorf("TypeError", "keys must be str, int, float, bool or None, not %s", TypeName(it[0]))
			}
			list = append(list, kv{k, it[0], it[1]})
		}
		if e.sortKeys {
			// Python sorts the keys themselves (9 before 10), not their JSON text.
			var cmpErr error
			sort.SliceStable(list, func(i, j int) bool {
				lt, err := starlark.Compare(syntax.LT, list[i].orig, list[j].orig)
				if err != nil && cmpErr == nil {
					cmpErr = Errorf("TypeError", "'<' not supported between instances of '%s' and '%s'", TypeName(list[i].orig), TypeName(list[j].orig))
				}
				return lt
			})
			if cmpErr != nil {
				return cmpErr
			}
		}
		if len(list) == 0 {
			e.b.WriteString("{}")
			return nil
		}
		e.b.WriteByte('{')
		e.depth++
		for i, it := range list {
			if i > 0 {
				e.b.WriteString(e.itemSep)
			}
			if err := e.newline(); err != nil {
				return err
			}
			e.str(it.k)
			e.b.WriteString(e.keySep)
			if err := e.encode(it.v); err != nil {
				return err
			}
		}
		e.depth--
		if err := e.newline(); err != nil {
			return err
		}
		e.b.WriteByte('}')
	case starlark.Iterable:
		if _, isCallable := v.(starlark.Callable); isCallable {
			return e.fallback(v)
		}
		if _, isSet := v.(*starlark.Set); isSet {
			return e.fallback(v)
		}
		iter := v.Iterate()
		defer iter.Done()
		var x starlark.Value
		n := 0
		e.b.WriteByte('[')
		e.depth++
		for iter.Next(&x) {
			if n > 0 {
				e.b.WriteString(e.itemSep)
			}
			if err := e.newline(); err != nil {
				return err
			}
			if err := e.encode(x); err != nil {
				return err
			}
			n++
		}
		e.depth--
		if n > 0 {
			if err := e.newline(); err != nil {
				return err
			}
		}
		e.b.WriteByte(']')
	default:
		return e.fallback(v)
	}
	return nil
}

func (e *encoder) fallback(v starlark.Value) error {
	if e.def == nil {
		return Errorf("TypeError", "Object of type %s is not JSON serializable", TypeName(v))
	}
	r, err := starlark.Call(e.thread, e.def, starlark.Tuple{v}, nil)
	if err != nil {
		return err
	}
	e.depth++
	defer func() { e.depth-- }()
	return e.encode(r)
}

func (e *encoder) str(s string) {
	e.b.WriteByte('"')
	for _, r := range s {
		switch r {
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
			switch {
			case r < 0x20 || r == 0x7f && e.ascii: // Python escapes DEL too when ensure_ascii
				fmt.Fprintf(&e.b, `\u%04x`, r)
			case r >= utf8.RuneSelf && e.ascii:
				if r > 0xFFFF {
					r -= 0x10000
					fmt.Fprintf(&e.b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
				} else {
					fmt.Fprintf(&e.b, `\u%04x`, r)
				}
			default:
				e.b.WriteRune(r)
			}
		}
	}
	e.b.WriteByte('"')
}

// FloatRepr renders f as Python's repr(float) does.
func FloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	es := strconv.FormatFloat(f, 'e', -1, 64)
	i := strings.IndexByte(es, 'e')
	exp, _ := strconv.Atoi(es[i+1:])
	if exp >= -4 && exp < 16 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsAny(s, ".") {
			s += ".0"
		}
		return s
	}
	mant := es[:i]
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	return fmt.Sprintf("%se%s%02d", mant, sign, exp)
}

func jsonLoads(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s starlark.Value
	if len(args) == 1 {
		s = args[0]
	} else if err := starlark.UnpackArgs(b.Name(), args, kwargs, "s", &s); err != nil {
		return nil, err
	}
	var text string
	switch s := s.(type) {
	case starlark.String:
		text = string(s)
	case starlark.Bytes:
		text = string(s)
	default:
		return nil, Errorf("TypeError", "the JSON object must be str, not %s", TypeName(s))
	}
	if err := CheckSize(thread, "json.loads's result", int64(len(text))*4); err != nil {
		return nil, err
	}
	return DecodeJSON(text)
}

// DecodeJSON parses one JSON value as Python's json.loads does: ints stay
// ints (big when they must), objects keep key order (a repeated key keeps its
// first place and its last value), NaN, Infinity and -Infinity are accepted,
// and errors name the line, column and character offset.
func DecodeJSON(text string) (starlark.Value, error) {
	d := &jsonDecoder{s: text}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i < len(d.s) {
		return nil, d.fail("Extra data", d.i)
	}
	return v, nil
}

// jsonDecoder is a recursive-descent reader over the whole text; every
// branch consumes at least one byte or fails, so it ends on any input.
type jsonDecoder struct {
	s string
	i int
}

func (d *jsonDecoder) fail(msg string, at int) error {
	line := 1 + strings.Count(d.s[:at], "\n")
	col := at + 1
	if nl := strings.LastIndexByte(d.s[:at], '\n'); nl >= 0 {
		col = at - nl
	}
	return Errorf("json.JSONDecodeError", "%s: line %d column %d (char %d)", msg, line, col, at)
}

func (d *jsonDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (starlark.Value, error) {
	if depth > 500 {
		return nil, Errorf("json.JSONDecodeError", "JSON nests too deeply (char %d)", d.i)
	}
	if d.i >= len(d.s) {
		return nil, d.fail("Expecting value", d.i)
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		s, err := d.str()
		return starlark.String(s), err
	case c == '-' || (c >= '0' && c <= '9'):
		if strings.HasPrefix(d.s[d.i:], "-Infinity") {
			d.i += len("-Infinity")
			return starlark.Float(math.Inf(-1)), nil
		}
		return d.number()
	}
	for _, w := range jsonWords {
		if strings.HasPrefix(d.s[d.i:], w.word) {
			d.i += len(w.word)
			return w.v, nil
		}
	}
	return nil, d.fail("Expecting value", d.i)
}

// jsonWords are the bare words json.loads reads, with their values.
var jsonWords = [...]struct {
	word string
	v    starlark.Value
}{{"null", starlark.None}, {"true", starlark.True}, {"false", starlark.False},
	{"NaN", starlark.Float(math.NaN())}, {"Infinity", starlark.Float(math.Inf(1))}}

func (d *jsonDecoder) object(depth int) (starlark.Value, error) {
	dict := starlark.NewDict(4)
	d.i++ // '{'
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return dict, nil
	}
	for {
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.fail("Expecting property name enclosed in double quotes", d.i)
		}
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.fail("Expecting ':' delimiter", d.i)
		}
		d.i++
		d.space()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		_ = dict.SetKey(starlark.String(k), v)
		d.space()
		if d.i < len(d.s) && d.s[d.i] == '}' {
			d.i++
			return dict, nil
		}
		if d.i >= len(d.s) || d.s[d.i] != ',' {
			return nil, d.fail("Expecting ',' delimiter", d.i)
		}
		d.i++
		d.space()
	}
}

func (d *jsonDecoder) array(depth int) (starlark.Value, error) {
	var list []starlark.Value
	d.i++ // '['
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return starlark.NewList(list), nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		d.space()
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return starlark.NewList(list), nil
		}
		if d.i >= len(d.s) || d.s[d.i] != ',' {
			return nil, d.fail("Expecting ',' delimiter", d.i)
		}
		d.i++
		d.space()
	}
}

// number reads Python's JSON number, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?:
// an int without fraction or exponent, a float otherwise (±inf past the
// float range, as Python's float() gives).
func (d *jsonDecoder) number() (starlark.Value, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.s[d.i] == '-' {
		d.i++
	}
	intStart := d.i
	if n := digits(); n == 0 {
		d.i = start
		return nil, d.fail("Expecting value", start)
	} else if n > 1 && d.s[intStart] == '0' {
		d.i = intStart + 1 // "012" reads 0, then the rest is extra data
	}
	isFloat := false
	if d.i+1 < len(d.s) && d.s[d.i] == '.' && d.s[d.i+1] >= '0' && d.s[d.i+1] <= '9' {
		d.i++
		digits()
		isFloat = true
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		save := d.i
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			d.i = save
		} else {
			isFloat = true
		}
	}
	lit := d.s[start:d.i]
	if !isFloat {
		if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return starlark.MakeInt64(i), nil
		}
		bi, _ := new(big.Int).SetString(lit, 10)
		return starlark.MakeBigInt(bi), nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, d.fail("Expecting value", start)
	}
	return starlark.Float(f), nil
}

// str reads a string literal starting at its opening quote. Invalid UTF-8
// and lone surrogates become U+FFFD; control characters are refused, as
// Python's strict mode does.
func (d *jsonDecoder) str() (string, error) {
	start := d.i
	d.i++ // '"'
	var b strings.Builder
	for {
		if d.i >= len(d.s) {
			return "", d.fail("Unterminated string starting at", start)
		}
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String(), nil
		case c < 0x20:
			return "", d.fail("Invalid control character at", d.i)
		case c == '\\':
			if err := d.escape(&b); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			d.i++
		default:
			r, n := utf8.DecodeRuneInString(d.s[d.i:])
			b.WriteRune(r)
			d.i += n
		}
	}
}

func (d *jsonDecoder) escape(b *strings.Builder) error {
	at := d.i
	if d.i+1 >= len(d.s) {
		return d.fail("Unterminated string starting at", at)
	}
	c := d.s[d.i+1]
	d.i += 2
	if simple := jsonEscapes[c]; simple != 0 {
		b.WriteByte(simple)
		return nil
	}
	if c != 'u' {
		return d.fail("Invalid \\escape", at)
	}
	r, ok := d.hex4()
	if !ok {
		return d.fail("Invalid \\uXXXX escape", at+1)
	}
	if utf16.IsSurrogate(r) {
		if r < 0xDC00 && strings.HasPrefix(d.s[d.i:], `\u`) {
			save := d.i
			d.i += 2
			if r2, ok := d.hex4(); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					b.WriteRune(pair)
					return nil
				}
			}
			d.i = save
		}
		r = utf8.RuneError
	}
	b.WriteRune(r)
	return nil
}

var jsonEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (d *jsonDecoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(n), true
}
