package json

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// decoder parses JSON text as CPython 3.12's scanner (the C one) does: the
// same grammar (NaN, Infinity and -Infinity included), the same hooks, and
// the same errors at the same positions. It works on the UTF-8 bytes and
// converts a byte offset to code points only to report an error. Every
// branch consumes input or fails, so it ends on any text; nesting is
// bounded by maxDepth.
type decoder struct {
	t *python.Thread
	s string
	// doc is the str being decoded, for JSONDecodeError.doc.
	doc python.Object
	// errCls is the class of the errors raised.
	errCls *python.Type

	objectHook, pairsHook          python.Object
	parseFloat, parseInt, parseCon python.Object
	strict                         bool
	depth, maxDepth                int
	steps                          int
	// memo shares the str objects of repeated keys.
	memo map[string]*python.Str
}

// errNoValue is the scanner's StopIteration: no value starts at pos.
type errNoValue struct{ pos int }

func (e *errNoValue) Error() string { return "no JSON value" }

// fail returns JSONDecodeError(msg, doc, pos) for the byte offset at.
func (d *decoder) fail(msg string, at int) error {
	return newDecodeError(d.t, d.errCls, msg, d.doc, d.s, at)
}

// cpos converts a byte offset of d.s to code points.
func cpos(s string, at int) int {
	if at > len(s) {
		at = len(s)
	}
	return utf8.RuneCountInString(s[:at])
}

func (d *decoder) tick() error {
	d.steps++
	if d.steps&1023 == 0 {
		return d.t.Tick(1)
	}
	return nil
}

func (d *decoder) space(i int) int {
	for i < len(d.s) {
		switch d.s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value scans one value at byte offset i: it returns the value and the
// offset after it, or an *errNoValue when nothing starts there.
func (d *decoder) value(i int) (python.Object, int, error) {
	if err := d.tick(); err != nil {
		return nil, 0, err
	}
	if i >= len(d.s) {
		return nil, 0, &errNoValue{i}
	}
	switch c := d.s[i]; c {
	case '"':
		s, end, err := d.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		return python.NewStr(s), end, nil
	case '{':
		return d.object(i + 1)
	case '[':
		return d.array(i + 1)
	case 'n':
		if strings.HasPrefix(d.s[i:], "null") {
			return python.None, i + 4, nil
		}
	case 't':
		if strings.HasPrefix(d.s[i:], "true") {
			return python.True, i + 4, nil
		}
	case 'f':
		if strings.HasPrefix(d.s[i:], "false") {
			return python.False, i + 5, nil
		}
	case 'N':
		if strings.HasPrefix(d.s[i:], "NaN") {
			v, err := d.constant("NaN", math.NaN())
			return v, i + 3, err
		}
	case 'I':
		if strings.HasPrefix(d.s[i:], "Infinity") {
			v, err := d.constant("Infinity", math.Inf(1))
			return v, i + 8, err
		}
	case '-':
		if strings.HasPrefix(d.s[i:], "-Infinity") {
			v, err := d.constant("-Infinity", math.Inf(-1))
			return v, i + 9, err
		}
	}
	return d.number(i)
}

func (d *decoder) constant(name string, f float64) (python.Object, error) {
	if d.parseCon == nil {
		return python.Float(f), nil
	}
	return python.Call(d.t, d.parseCon, []python.Object{python.NewStr(name)}, nil)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? at i.
func (d *decoder) number(start int) (python.Object, int, error) {
	s := d.s
	i := start
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	case i < len(s) && s[i] == '0':
		i++
	default:
		return nil, 0, &errNoValue{start}
	}
	isFloat := false
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i += 2
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		isFloat = true
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
			isFloat = true
		}
	}
	lit := s[start:i]
	if isFloat {
		if d.parseFloat != nil {
			v, err := python.Call(d.t, d.parseFloat, []python.Object{python.NewStr(lit)}, nil)
			return v, i, err
		}
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, 0, &errNoValue{start}
		}
		return python.Float(f), i, nil
	}
	if d.parseInt != nil {
		v, err := python.Call(d.t, d.parseInt, []python.Object{python.NewStr(lit)}, nil)
		return v, i, err
	}
	if len(lit) < 18 {
		n, _ := strconv.ParseInt(lit, 10, 64)
		return python.MakeInt(n), i, nil
	}
	v, err := python.Call(d.t, python.IntType, []python.Object{python.NewStr(lit)}, nil)
	return v, i, err
}

func (d *decoder) enter(what string) error {
	d.depth++
	if d.depth > d.maxDepth {
		return python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded while decoding a JSON %s from a unicode string", what)
	}
	return nil
}

// object scans the members of an object whose '{' is before i.
func (d *decoder) object(i int) (python.Object, int, error) {
	if err := d.enter("object"); err != nil {
		return nil, 0, err
	}
	defer func() { d.depth-- }()
	var pairs []python.Object
	var dict *python.Dict
	if d.pairsHook == nil {
		dict = python.NewDict(4)
	}
	i = d.space(i)
	if i < len(d.s) && d.s[i] == '}' {
		return d.finishObject(dict, pairs, i+1)
	}
	for {
		if i >= len(d.s) || d.s[i] != '"' {
			return nil, 0, d.fail("Expecting property name enclosed in double quotes", i)
		}
		ks, end, err := d.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		key := d.memo[ks]
		if key == nil {
			key = python.NewStr(ks)
			if len(d.memo) < 1<<16 {
				d.memo[ks] = key
			}
		}
		i = d.space(end)
		if i >= len(d.s) || d.s[i] != ':' {
			return nil, 0, d.fail("Expecting ':' delimiter", i)
		}
		i = d.space(i + 1)
		v, end, err := d.value(i)
		if err != nil {
			var nv *errNoValue
			if errors.As(err, &nv) {
				return nil, 0, d.fail("Expecting value", nv.pos)
			}
			return nil, 0, err
		}
		if dict != nil {
			if err := dict.Set(d.t, key, v); err != nil {
				return nil, 0, err
			}
		} else {
			pairs = append(pairs, python.NewTuple([]python.Object{key, v}))
			if len(pairs)&1023 == 0 {
				if err := d.t.CheckSize(int64(len(pairs)) * 64); err != nil {
					return nil, 0, err
				}
			}
		}
		i = d.space(end)
		if i < len(d.s) && d.s[i] == '}' {
			return d.finishObject(dict, pairs, i+1)
		}
		if i >= len(d.s) || d.s[i] != ',' {
			return nil, 0, d.fail("Expecting ',' delimiter", i)
		}
		i = d.space(i + 1)
	}
}

func (d *decoder) finishObject(dict *python.Dict, pairs []python.Object, end int) (python.Object, int, error) {
	if d.pairsHook != nil {
		v, err := python.Call(d.t, d.pairsHook, []python.Object{python.NewList(pairs)}, nil)
		return v, end, err
	}
	if d.objectHook != nil {
		v, err := python.Call(d.t, d.objectHook, []python.Object{dict}, nil)
		return v, end, err
	}
	return dict, end, nil
}

// array scans the items of an array whose '[' is before i.
func (d *decoder) array(i int) (python.Object, int, error) {
	if err := d.enter("array"); err != nil {
		return nil, 0, err
	}
	defer func() { d.depth-- }()
	var items []python.Object
	i = d.space(i)
	if i < len(d.s) && d.s[i] == ']' {
		return python.NewList(items), i + 1, nil
	}
	for {
		v, end, err := d.value(i)
		if err != nil {
			var nv *errNoValue
			if errors.As(err, &nv) {
				return nil, 0, d.fail("Expecting value", nv.pos)
			}
			return nil, 0, err
		}
		items = append(items, v)
		if len(items)&1023 == 0 {
			if err := d.t.CheckSize(int64(len(items)) * 16); err != nil {
				return nil, 0, err
			}
		}
		i = d.space(end)
		if i < len(d.s) && d.s[i] == ']' {
			return python.NewList(items), i + 1, nil
		}
		if i >= len(d.s) || d.s[i] != ',' {
			return nil, 0, d.fail("Expecting ',' delimiter", i)
		}
		i = d.space(i + 1)
	}
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// hex4 reads four hex digits at i (-1 if they are not).
func (d *decoder) hex4(i int) rune {
	var r rune
	for k := 0; k < 4; k++ {
		h := hexVal(d.s[i+k])
		if h < 0 {
			return -1
		}
		r = r<<4 | h
	}
	return r
}

// str scans a string whose opening quote is before i; it returns the text
// and the offset after the closing quote.
func (d *decoder) str(i int) (string, int, error) {
	begin := i - 1
	// Fast path: no escapes.
	j := i
	for j < len(d.s) {
		c := d.s[j]
		if c == '"' {
			return d.s[i:j], j + 1, nil
		}
		if c == '\\' || c < 0x20 && d.strict {
			break
		}
		j++
	}
	var b strings.Builder
	lone := ""
	b.WriteString(d.s[i:j])
	i = j
	for {
		if i >= len(d.s) {
			return "", 0, d.fail("Unterminated string starting at", begin)
		}
		c := d.s[i]
		switch {
		case c == '"':
			if lone != "" {
				return "", 0, python.NotSupported("a lone surrogate (\\u"+lone+") in JSON text", "code mode's strings cannot hold lone surrogates")
			}
			return b.String(), i + 1, nil
		case c < 0x20 && d.strict:
			return "", 0, d.fail("Invalid control character at", i)
		case c != '\\':
			// Copy the run up to the next special byte.
			j := i + 1
			for j < len(d.s) && d.s[j] != '"' && d.s[j] != '\\' && (d.s[j] >= 0x20 || !d.strict) {
				j++
			}
			b.WriteString(d.s[i:j])
			i = j
			continue
		}
		// An escape: i is at the backslash.
		if i+1 >= len(d.s) {
			return "", 0, d.fail("Unterminated string starting at", begin)
		}
		e := d.s[i+1]
		if e != 'u' {
			var r byte
			switch e {
			case '"', '\\', '/':
				r = e
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			default:
				return "", 0, d.fail("Invalid \\escape", i)
			}
			b.WriteByte(r)
			i += 2
			continue
		}
		u := i + 1 // the 'u'
		if u+5 >= len(d.s) {
			return "", 0, d.fail("Invalid \\uXXXX escape", u)
		}
		r := d.hex4(u + 1)
		if r < 0 {
			return "", 0, d.fail("Invalid \\uXXXX escape", u)
		}
		next := u + 5
		if r >= 0xd800 && r <= 0xdbff && next+6 < len(d.s) && d.s[next] == '\\' && d.s[next+1] == 'u' {
			r2 := d.hex4(next + 2)
			if r2 < 0 {
				return "", 0, d.fail("Invalid \\uXXXX escape", next+1)
			}
			if r2 >= 0xdc00 && r2 <= 0xdfff {
				r = 0x10000 + (r-0xd800)<<10 + (r2 - 0xdc00)
				next += 6
			}
		}
		if r >= 0xd800 && r <= 0xdfff {
			// CPython decodes a lone surrogate; a str here cannot hold
			// one. Refuse once the string has scanned without error.
			if lone == "" {
				lone = strings.ToLower(d.s[u+1 : u+5])
			}
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i = next
		if b.Len()&0xffff == 0 {
			if err := d.t.Tick(1); err != nil {
				return "", 0, err
			}
		}
	}
}
