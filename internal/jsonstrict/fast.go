package jsonstrict

import (
	"encoding/json"
	"unicode/utf8"
)

// fastDecoder decodes the common case without the token API of
// encoding/json, which allocates for every token. It accepts only a subset of
// what the strict decoder accepts and yields identical values for it: any
// input it cannot handle exactly (invalid JSON, a duplicate key in strict
// mode, nesting at MaxDepth) makes it give up, and the caller falls back to
// the reference decoder, which then reports the same error as always.
type fastDecoder struct {
	data []byte
	i    int
	// lastWins keeps the last of duplicate keys (encoding/json semantics)
	// instead of giving up.
	lastWins bool
}

// decodeFast parses data as exactly one JSON value. ok is false when the
// reference decoder must decide.
func decodeFast(data []byte, lastWins bool) (v any, ok bool) {
	d := fastDecoder{data: data, lastWins: lastWins}
	v, ok = d.value(0)
	if !ok {
		return nil, false
	}
	d.skipSpace()
	if d.i != len(d.data) {
		return nil, false
	}
	return v, true
}

func (d *fastDecoder) skipSpace() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *fastDecoder) value(depth int) (any, bool) {
	d.skipSpace()
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, false
		}
		return d.object(depth)
	case c == '[':
		if depth >= MaxDepth {
			return nil, false
		}
		return d.array(depth)
	case c == '"':
		s, ok := d.str()
		return s, ok
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *fastDecoder) literal(lit string) bool {
	if len(d.data)-d.i < len(lit) || string(d.data[d.i:d.i+len(lit)]) != lit {
		return false
	}
	d.i += len(lit)
	return true
}

func (d *fastDecoder) object(depth int) (any, bool) {
	d.i++ // '{'
	obj := make(map[string]any)
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return obj, true
	}
	for {
		d.skipSpace()
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, false
		}
		key, ok := d.str()
		if !ok {
			return nil, false
		}
		d.skipSpace()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, false
		}
		d.i++
		if _, dup := obj[key]; dup && !d.lastWins {
			return nil, false
		}
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		obj[key] = v
		d.skipSpace()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			return obj, true
		default:
			return nil, false
		}
	}
}

func (d *fastDecoder) array(depth int) (any, bool) {
	d.i++ // '['
	arr := make([]any, 0)
	d.skipSpace()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return arr, true
	}
	for {
		v, ok := d.value(depth + 1)
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
		d.skipSpace()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return arr, true
		default:
			return nil, false
		}
	}
}

// str decodes the string starting at the opening quote. Strings with
// escapes or non-ASCII bytes are checked here and unquoted by encoding/json
// itself, so replacement of invalid UTF-8 and surrogate handling stay
// exactly those of the reference decoder.
func (d *fastDecoder) str() (string, bool) {
	start := d.i
	d.i++ // '"'
	plain := true
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			raw := d.data[start:d.i]
			if plain {
				return string(raw[1 : len(raw)-1]), true
			}
			if utf8.Valid(raw) && !hasByte(raw, '\\') {
				return string(raw[1 : len(raw)-1]), true
			}
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return "", false
			}
			return s, true
		case c < 0x20:
			return "", false
		case c == '\\':
			plain = false
			if d.i+1 >= len(d.data) {
				return "", false
			}
			switch d.data[d.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i += 2
			case 'u':
				if len(d.data)-d.i < 6 {
					return "", false
				}
				for _, h := range d.data[d.i+2 : d.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return "", false
					}
				}
				d.i += 6
			default:
				return "", false
			}
		case c >= utf8.RuneSelf:
			plain = false
			d.i++
		default:
			d.i++
		}
	}
	return "", false
}

func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// number scans a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *fastDecoder) number() (any, bool) {
	start := d.i
	if d.data[d.i] == '-' {
		d.i++
	}
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if d.digits() == 0 {
			return nil, false
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			return nil, false
		}
	}
	return json.Number(d.data[start:d.i]), true
}

func (d *fastDecoder) digits() int {
	n := 0
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}
