package fingerprint

import (
	"bytes"
	"slices"
	"strings"
	"sync"
)

// The fast canonicalizer re-encodes the common subset of JSON straight from
// the input bytes, without building a generic value: objects, arrays,
// strings of printable ASCII without escapes, true, false, null and
// integers already in canonical form. Anything else (escapes, other bytes
// in strings, other numbers, duplicate keys, deep nesting, invalid JSON)
// makes it give up, and canonicalizeJSON takes the generic path, so both
// paths always produce the same bytes (FuzzFastCanonical checks it).

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
		start := f.pos
		if !f.plainString() {
			return dst, false
		}
		return append(dst, f.src[start:f.pos]...), true
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
