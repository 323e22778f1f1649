package fingerprint

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// The fast canonicalizer re-encodes the common subset of JSON straight from
// the input bytes, without building a generic value: objects whose keys
// are printable ASCII without escapes, arrays, strings (valid UTF-8, and
// escapes other than of UTF-16 surrogates: each character written as
// appendString writes it), true, false, null and integers already in
// canonical form. Anything else (other keys, surrogate escapes, invalid
// UTF-8, U+2028 and U+2029 unescaped, other numbers, duplicate keys, deep
// nesting, invalid JSON) makes it give up, and canonicalizeJSON takes the
// generic path, so both paths always produce the same bytes
// (FuzzFastCanonical checks it).

// maxFastDepth bounds the nesting the fast path handles.
const maxFastDepth = 256

type fastCanon struct {
	src     []byte
	pos     int
	members [][2]int // scratch: member spans [keyStart, valueEnd) in dst of open objects
	tmp     []byte   // scratch: a finished object's members before reordering
}

var fastPool = sync.Pool{New: func() any { return new(fastCanon) }}

// fastCanonicalize appends the canonical form of src to dst, or reports
// false when src is outside the fast subset.
func fastCanonicalize(dst, src []byte) ([]byte, bool) {
	f := fastPool.Get().(*fastCanon)
	defer func() {
		f.src = nil
		fastPool.Put(f)
	}()
	f.src, f.pos, f.members, f.tmp = src, 0, f.members[:0], f.tmp[:0]
	f.skipSpace()
	out, ok := f.value(dst, 0)
	if !ok {
		return dst, false
	}
	f.skipSpace()
	if f.pos != len(src) {
		return dst, false
	}
	return out, true
}

func (f *fastCanon) skipSpace() {
	for f.pos < len(f.src) {
		switch f.src[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return
		}
	}
}

// value appends the canonical form of the value at f.pos.
func (f *fastCanon) value(dst []byte, depth int) ([]byte, bool) {
	if f.pos >= len(f.src) || depth > maxFastDepth {
		return dst, false
	}
	switch c := f.src[f.pos]; {
	case c == '{':
		return f.object(dst, depth)
	case c == '[':
		f.pos++
		dst = append(dst, '[')
		f.skipSpace()
		if f.pos < len(f.src) && f.src[f.pos] == ']' {
			f.pos++
			return append(dst, ']'), true
		}
		for {
			var ok bool
			if dst, ok = f.value(dst, depth+1); !ok {
				return dst, false
			}
			f.skipSpace()
			if f.pos >= len(f.src) {
				return dst, false
			}
			switch f.src[f.pos] {
			case ',':
				f.pos++
				dst = append(dst, ',')
				f.skipSpace()
			case ']':
				f.pos++
				return append(dst, ']'), true
			default:
				return dst, false
			}
		}
	case c == '"':
		return f.str(dst)
	case c == 't':
		return f.literal(dst, "true")
	case c == 'f':
		return f.literal(dst, "false")
	case c == 'n':
		return f.literal(dst, "null")
	case c == '-' || c >= '0' && c <= '9':
		start := f.pos
		for f.pos < len(f.src) {
			if b := f.src[f.pos]; b == '-' || b >= '0' && b <= '9' {
				f.pos++
				continue
			}
			break
		}
		if f.pos < len(f.src) {
			switch f.src[f.pos] {
			case '.', 'e', 'E', '+':
				return dst, false
			}
		}
		if !isPlainInt(string(f.src[start:f.pos])) {
			return dst, false
		}
		return append(dst, f.src[start:f.pos]...), true
	default:
		return dst, false
	}
}

func (f *fastCanon) literal(dst []byte, lit string) ([]byte, bool) {
	if !strings.HasPrefix(string(f.src[f.pos:]), lit) {
		return dst, false
	}
	f.pos += len(lit)
	return append(dst, lit...), true
}

// plainString advances over a string at f.pos made only of printable ASCII
// other than backslash: such a string is its own canonical form.
func (f *fastCanon) plainString() bool {
	i := f.pos + 1
	for i < len(f.src) {
		c := f.src[i]
		if c == '"' {
			f.pos = i + 1
			return true
		}
		if c < 0x20 || c > 0x7e || c == '\\' {
			return false
		}
		i++
	}
	return false
}

// str appends the canonical form of the string at f.pos: what
// encoding/json writes without HTML escaping for the text the string
// decodes to (appendString). Printable ASCII and valid UTF-8 are copied;
// an escape is written as that text's character is: "\/" and "\u003c"
// become "/" and "<", "\u000a" becomes "\n", "\u2028" stays. It gives up
// on surrogate escapes, invalid UTF-8, a raw U+2028 or U+2029 (written
// escaped) and what is not JSON.
func (f *fastCanon) str(dst []byte) ([]byte, bool) {
	src := f.src
	dst = append(dst, '"')
	for i := f.pos + 1; i < len(src); {
		start := i
		for i < len(src) {
			if c := src[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				break
			}
			i++
		}
		dst = append(dst, src[start:i]...)
		if i >= len(src) {
			return dst, false
		}
		switch c := src[i]; {
		case c == '"':
			f.pos = i + 1
			return append(dst, '"'), true
		case c == '\\':
			if i+1 >= len(src) {
				return dst, false
			}
			switch e := src[i+1]; e {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				dst = append(dst, '\\', e)
				i += 2
			case '/':
				dst = append(dst, '/')
				i += 2
			case 'u':
				r, ok := hex4(src[i+2:])
				if !ok || utf16.IsSurrogate(r) {
					return dst, false
				}
				dst = appendRune(dst, r)
				i += 6
			default:
				return dst, false
			}
		case c < 0x20:
			return dst, false
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return dst, false
			}
			dst = append(dst, src[i:i+size]...)
			i += size
		}
	}
	return dst, false
}

// hex4 decodes the four hexadecimal digits b begins with.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendRune appends r, not a surrogate, as encoding/json writes it in a
// string without HTML escaping.
func appendRune(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	switch r {
	case '"', '\\':
		return append(dst, '\\', byte(r))
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\u2028', '\u2029':
		return append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
	}
	if r < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
	}
	return utf8.AppendRune(dst, r)
}

// object appends the canonical form of the object at f.pos: members sorted
// by key (plain keys compare as their bytes), each value canonical.
func (f *fastCanon) object(dst []byte, depth int) ([]byte, bool) {
	f.pos++
	f.skipSpace()
	if f.pos < len(f.src) && f.src[f.pos] == '}' {
		f.pos++
		return append(dst, '{', '}'), true
	}
	// Each member is canonicalized into dst past the current end first;
	// then the spans are sorted and copied back in key order.
	base := len(dst)
	mark := len(f.members)
	for {
		if f.pos >= len(f.src) || f.src[f.pos] != '"' {
			return dst, false
		}
		keyStart := f.pos
		if !f.plainString() {
			return dst, false
		}
		start := len(dst)
		dst = append(dst, f.src[keyStart:f.pos]...)
		f.skipSpace()
		if f.pos >= len(f.src) || f.src[f.pos] != ':' {
			return dst, false
		}
		f.pos++
		dst = append(dst, ':')
		f.skipSpace()
		var ok bool
		if dst, ok = f.value(dst, depth+1); !ok {
			return dst, false
		}
		f.members = append(f.members, [2]int{start, len(dst)})
		f.skipSpace()
		if f.pos >= len(f.src) {
			return dst, false
		}
		if f.src[f.pos] == '}' {
			f.pos++
			break
		}
		if f.src[f.pos] != ',' {
			return dst, false
		}
		f.pos++
		f.skipSpace()
	}
	spans := f.members[mark:]
	defer func() { f.members = f.members[:mark] }()
	key := func(s [2]int) []byte {
		b := dst[s[0]+1 : s[1]]
		end := 0
		for b[end] != '"' {
			end++
		}
		return b[:end]
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return bytes.Compare(key(a), key(b)) })
	for i := 1; i < len(spans); i++ {
		if bytes.Equal(key(spans[i-1]), key(spans[i])) {
			return dst, false // duplicate key: the generic path keeps the last
		}
	}
	f.tmp = append(f.tmp[:0], dst[base:]...)
	out := append(dst[:base], '{')
	for i, s := range spans {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, f.tmp[s[0]-base:s[1]-base]...)
	}
	return append(out, '}'), true
}
