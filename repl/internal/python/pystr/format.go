package pystr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormatItem is one step of a format string: literal text, then perhaps a
// replacement field, as one tuple of Python's _string.formatter_parser.
type FormatItem struct {
	// Literal is the text before the field, with "{{" and "}}" read as
	// "{" and "}".
	Literal string
	// HasField reports whether a replacement field follows Literal.
	HasField bool
	// FieldName is the field's name as written ("0", "a.b[c]", "").
	FieldName string
	// Conversion is the character after '!', or 0 for none; it is not
	// checked (see CheckConversion).
	Conversion rune
	// Spec is the format spec as written, nested fields unexpanded.
	Spec string
}

// FormatParser reads a format string item by item, as CPython's
// MarkupIterator: str.format evaluates each field before the next is
// parsed, so a later syntax error does not hide an earlier field's error.
type FormatParser struct {
	s   string
	pos int
	err error
}

// NewFormatParser returns a parser of format string s.
func NewFormatParser(s string) *FormatParser { return &FormatParser{s: s} }

// Next returns the next item, ok false at the end of the string or after
// an error: ValueError "Single '{' encountered in format string", "Single
// '}' encountered in format string", "expected '}' before end of string",
// "unexpected '{' in field name", "end of string while looking for
// conversion specifier", "expected ':' after conversion specifier" or
// "unmatched '{' in format spec".
func (p *FormatParser) Next() (item FormatItem, ok bool, err error) {
	if p.err != nil || p.pos >= len(p.s) {
		return FormatItem{}, false, p.err
	}
	item, err = p.next()
	if err != nil {
		p.err = err
		return FormatItem{}, false, err
	}
	return item, true, nil
}

func (p *FormatParser) next() (FormatItem, error) {
	var item FormatItem
	s := p.s
	start := p.pos
	i := start
	for i < len(s) && s[i] != '{' && s[i] != '}' {
		i++
	}
	if i == len(s) {
		item.Literal = s[start:]
		p.pos = i
		return item, nil
	}
	brace := s[i]
	if i+1 < len(s) && s[i+1] == brace {
		// An escaped brace ends the literal.
		item.Literal = s[start : i+1]
		p.pos = i + 2
		return item, nil
	}
	if brace == '}' {
		return item, valueError("Single '}' encountered in format string")
	}
	if i+1 == len(s) {
		return item, valueError("Single '{' encountered in format string")
	}
	item.Literal = s[start:i]
	item.HasField = true
	// The field name: up to '}', ':' or '!', brackets skipped whole.
	nameStart := i + 1
	j := nameStart
	var c byte
	for j < len(s) {
		c = s[j]
		j++
		if c == '{' {
			return item, valueError("unexpected '{' in field name")
		}
		if c == '[' {
			for j < len(s) && s[j] != ']' {
				j++
			}
			continue
		}
		if c == '}' || c == ':' || c == '!' {
			break
		}
	}
	if c != '}' && c != ':' && c != '!' {
		return item, valueError("expected '}' before end of string")
	}
	item.FieldName = s[nameStart : j-1]
	if c == '}' {
		p.pos = j
		return item, nil
	}
	if c == '!' {
		if j >= len(s) {
			return item, valueError("end of string while looking for conversion specifier")
		}
		r, size := decodeAt(s, j)
		item.Conversion = r
		j += size
		if j < len(s) {
			c = s[j]
			j++
			if c == '}' {
				p.pos = j
				return item, nil
			}
			if c != ':' {
				return item, valueError("expected ':' after conversion specifier")
			}
		}
	}
	// The format spec, up to the '}' that balances the field's '{'.
	specStart := j
	depth := 1
	for j < len(s) {
		c = s[j]
		j++
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				item.Spec = s[specStart : j-1]
				p.pos = j
				return item, nil
			}
		}
	}
	return item, valueError("unmatched '{' in format spec")
}

// CheckConversion returns ValueError "Unknown conversion specifier X" unless
// c is 'r', 's' or 'a'.
func CheckConversion(c rune) error {
	switch c {
	case 'r', 's', 'a':
		return nil
	}
	if c > 32 && c < 127 {
		return valueError("Unknown conversion specifier " + string(c))
	}
	return valueError("Unknown conversion specifier \\x" + strconv.FormatInt(int64(c), 16))
}

// FieldKey is the first part of a field name, or the key of an [key]
// accessor: an int when the text is all decimal digits (of any script, as
// Python), else a string.
type FieldKey struct {
	IsInt bool
	Int   int
	Str   string
}

// parseKey reads s as a FieldKey; ValueError "Too many decimal digits in
// format string" for an int past the range of int.
func parseKey(s string) (FieldKey, error) {
	if s == "" {
		return FieldKey{Str: s}, nil
	}
	v := 0
	for _, r := range s {
		var d int
		if '0' <= r && r <= '9' {
			d = int(r - '0')
		} else if r >= utf8.RuneSelf && hasFlag(r, fDecimal) {
			d = int(info(r).digit)
		} else {
			return FieldKey{Str: s}, nil
		}
		if v > (maxInt-d)/10 {
			return FieldKey{}, valueError("Too many decimal digits in format string")
		}
		v = v*10 + d
	}
	return FieldKey{IsInt: true, Int: v}, nil
}

// Accessor is one step after a field name's first part: ".name" (Attr
// set, Key.Str the name) or "[key]".
type Accessor struct {
	Attr bool
	Key  FieldKey
}

// FieldName splits a replacement field's name, as Python's
// _string.formatter_field_name_split: the first part, then accessors one
// at a time, errors found as they are reached.
type FieldName struct {
	// First is the first part; Auto is set when it is empty, for
	// automatic numbering.
	First FieldKey
	Auto  bool
	rest  string
}

// ParseFieldName returns the parts of field name name; ValueError "Too
// many decimal digits in format string" for its first part.
func ParseFieldName(name string) (*FieldName, error) {
	i := strings.IndexAny(name, ".[")
	if i < 0 {
		i = len(name)
	}
	first, err := parseKey(name[:i])
	if err != nil {
		return nil, err
	}
	return &FieldName{First: first, Auto: i == 0, rest: name[i:]}, nil
}

// Next returns the next accessor, ok false at the end or after an error:
// ValueError "Empty attribute in format string", "Missing ']' in format
// string", "Only '.' or '[' may follow ']' in format field specifier",
// "Too many decimal digits in format string".
func (f *FieldName) Next() (acc Accessor, ok bool, err error) {
	if f.rest == "" {
		return Accessor{}, false, nil
	}
	s := f.rest
	switch s[0] {
	case '.':
		s = s[1:]
		i := strings.IndexAny(s, ".[")
		if i < 0 {
			i = len(s)
		}
		if i == 0 {
			f.rest = ""
			return Accessor{}, false, valueError("Empty attribute in format string")
		}
		f.rest = s[i:]
		return Accessor{Attr: true, Key: FieldKey{Str: s[:i]}}, true, nil
	case '[':
		s = s[1:]
		i := strings.IndexByte(s, ']')
		if i < 0 {
			f.rest = ""
			return Accessor{}, false, valueError("Missing ']' in format string")
		}
		if i == 0 {
			f.rest = ""
			return Accessor{}, false, valueError("Empty attribute in format string")
		}
		key, err := parseKey(s[:i])
		if err != nil {
			f.rest = ""
			return Accessor{}, false, err
		}
		// Anything but '.' or '[' after ']' is an error when the next
		// accessor is asked for.
		f.rest = s[i+1:]
		return Accessor{Key: key}, true, nil
	}
	f.rest = ""
	return Accessor{}, false, valueError("Only '.' or '[' may follow ']' in format field specifier")
}

// AutoNumber is the state of automatic field numbering of one str.format
// call, shared by the nested format specs.
type AutoNumber struct {
	state int // 0 unknown, 1 automatic, 2 manual
	next  int
}

// Resolve returns the key of field name f's first part: the next number
// for an empty one. It returns ValueError "cannot switch from manual field
// specification to automatic field numbering" or the reverse when a format
// string mixes them.
func (a *AutoNumber) Resolve(f *FieldName) (FieldKey, error) {
	if f.Auto {
		if a.state == 2 {
			return FieldKey{}, valueError("cannot switch from manual field specification to automatic field numbering")
		}
		a.state = 1
		k := FieldKey{IsInt: true, Int: a.next}
		a.next++
		return k, nil
	}
	if f.First.IsInt {
		if a.state == 1 {
			return FieldKey{}, valueError("cannot switch from automatic field numbering to manual field specification")
		}
		a.state = 2
	}
	return f.First, nil
}

// FormatHandler evaluates the fields of a format string for Format; V is
// the interpreter's value type.
type FormatHandler[V any] interface {
	// Arg returns the argument key names: a positional one for an int
	// key, a keyword one for a string key.
	Arg(key FieldKey) (V, error)
	// GetAttr returns getattr(v, name).
	GetAttr(v V, name string) (V, error)
	// GetItem returns v[key].
	GetItem(v V, key FieldKey) (V, error)
	// Convert returns repr(v), str(v) or ascii(v) for conv 'r', 's' or
	// 'a'.
	Convert(v V, conv rune) (V, error)
	// FormatValue returns format(v, spec).
	FormatValue(v V, spec string) (string, error)
}

// Format runs Python's str.format over format string s, h evaluating the
// fields: literal text and fields in order, each field's value found,
// converted, its spec expanded (nested fields, two levels at most: "Max
// string recursion exceeded") and formatted before the next item is
// parsed. The result may not exceed limit bytes (a *LimitError).
func Format[V any](s string, h FormatHandler[V], limit int) (string, error) {
	b := NewBuilder(limit)
	var auto AutoNumber
	if err := buildFormat(b, s, h, 2, &auto); err != nil {
		return "", err
	}
	return b.String(), nil
}

func buildFormat[V any](b *Builder, s string, h FormatHandler[V], depth int, auto *AutoNumber) error {
	if depth <= 0 {
		return valueError("Max string recursion exceeded")
	}
	p := NewFormatParser(s)
	for {
		item, ok, err := p.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := b.WriteString(item.Literal); err != nil {
			return err
		}
		if !item.HasField {
			continue
		}
		f, err := ParseFieldName(item.FieldName)
		if err != nil {
			return err
		}
		key, err := auto.Resolve(f)
		if err != nil {
			return err
		}
		v, err := h.Arg(key)
		if err != nil {
			return err
		}
		for {
			acc, ok, err := f.Next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if acc.Attr {
				v, err = h.GetAttr(v, acc.Key.Str)
			} else {
				v, err = h.GetItem(v, acc.Key)
			}
			if err != nil {
				return err
			}
		}
		if item.Conversion != 0 {
			if err := CheckConversion(item.Conversion); err != nil {
				return err
			}
			if v, err = h.Convert(v, item.Conversion); err != nil {
				return err
			}
		}
		spec := item.Spec
		if strings.IndexByte(spec, '{') >= 0 {
			sb := NewBuilder(b.limit)
			if err := buildFormat(sb, spec, h, depth-1, auto); err != nil {
				return err
			}
			spec = sb.String()
		}
		out, err := h.FormatValue(v, spec)
		if err != nil {
			return err
		}
		if err := b.WriteString(out); err != nil {
			return err
		}
	}
}
