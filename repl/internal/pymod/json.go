package pymod

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
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
			k string
			v starlark.Value
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
			list = append(list, kv{k, it[1]})
		}
		if e.sortKeys {
			sort.SliceStable(list, func(i, j int) bool { return list[i].k < list[j].k })
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
			case r < 0x20:
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

// DecodeJSON parses one JSON value (ints stay ints, objects keep key order).
func DecodeJSON(text string) (starlark.Value, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, jsonErr(dec, err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, Errorf("json.JSONDecodeError", "Extra data: char %d", dec.InputOffset())
	}
	return v, nil
}

func jsonErr(dec *json.Decoder, err error) error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return Errorf("json.JSONDecodeError", "%s (char %d)", strings.TrimPrefix(err.Error(), "json: "), dec.InputOffset())
}

func decodeValue(dec *json.Decoder, depth int) (starlark.Value, error) {
	if depth > 500 {
		return nil, Errorf("json.JSONDecodeError", "JSON nests too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		if err.Error() == "EOF" {
			return nil, Errorf("json.JSONDecodeError", "Expecting value: char %d", dec.InputOffset())
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(t), nil
	case string:
		return starlark.String(t), nil
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return starlark.MakeInt64(i), nil
			}
			if bi, ok := new(big.Int).SetString(s, 10); ok {
				return starlark.MakeBigInt(bi), nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return starlark.Float(math.Inf(1)), nil
		}
		return starlark.Float(f), nil
	case json.Delim:
		switch t {
		case '[':
			var list []starlark.Value
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return starlark.NewList(list), nil
		case '{':
			d := starlark.NewDict(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, Errorf("json.JSONDecodeError", "Expecting property name (char %d)", dec.InputOffset())
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				_ = d.SetKey(starlark.String(k), v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return d, nil
		}
	}
	return nil, Errorf("json.JSONDecodeError", "unexpected %v", tok)
}
