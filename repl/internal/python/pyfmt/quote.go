package pyfmt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// quote is Python's repr of a str (quotes chosen as Python chooses them,
// escapes for what str.isprintable rejects), cut after maxRunes code points
// when maxRunes > 0, as CPython's %.200R does. Python's printable set is
// Go's unicode.IsPrint (both: letters, marks, numbers, punctuation, symbols
// and the ASCII space, Unicode 15.0.0).
func quote(s string, maxRunes int) string {
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
		case r < 0x20 || r == 0x7f || r >= 0x80 && !unicode.IsPrint(r):
			writeEscape(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	out := b.String()
	if maxRunes > 0 && utf8.RuneCountInString(out) > maxRunes {
		n := 0
		for i := range out {
			if n == maxRunes {
				return out[:i]
			}
			n++
		}
	}
	return out
}

// quoteBytes is Python's repr of a bytes value, cut after maxRunes bytes
// when maxRunes > 0.
func quoteBytes(s string, maxRunes int) string {
	out := BytesRepr(s, false)
	if maxRunes > 0 && len(out) > maxRunes {
		out = out[:maxRunes]
	}
	return out
}

// BytesRepr is Python's repr of bytes, b'...': quoted with ' unless the
// bytes hold ' and no ". With bytearray, every ' is escaped even inside
// double quotes, as CPython's bytearray repr does (the caller wraps it in
// bytearray(...)).
func BytesRepr(s string, bytearray bool) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 3)
	b.WriteString("b")
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\' || bytearray && c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			writeEscape(&b, rune(c))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

const hexDigits = "0123456789abcdef"

func writeEscape(b *strings.Builder, r rune) {
	switch {
	case r < 0x100:
		b.WriteString(`\x`)
		b.WriteByte(hexDigits[r>>4])
		b.WriteByte(hexDigits[r&15])
	case r < 0x10000:
		b.WriteString(`\u`)
		for sh := 12; sh >= 0; sh -= 4 {
			b.WriteByte(hexDigits[r>>sh&15])
		}
	default:
		b.WriteString(`\U`)
		for sh := 28; sh >= 0; sh -= 4 {
			b.WriteByte(hexDigits[r>>sh&15])
		}
	}
}

// isPySpace reports whether r is whitespace for Python's str.isspace.
func isPySpace(r rune) bool {
	switch {
	case r <= 0x7f:
		return r == ' ' || r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x1f
	case r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// decimalValue is the value of a Unicode decimal digit (category Nd), or -1.
// Unicode assigns every run of Nd characters in blocks of ten, zero first.
func decimalValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10
}

// toASCIINumber is what CPython parses when int() or float() is given a
// str: ASCII characters as they are, non-ASCII whitespace as a space,
// non-ASCII decimal digits as their ASCII digit, and anything else as '?'
// (which no number accepts). It returns s itself when s is ASCII.
func toASCIINumber(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s))
	copy(b, s)
	for _, r := range s[i:] {
		switch {
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		case isPySpace(r):
			b = append(b, ' ')
		default:
			d := decimalValue(r)
			if d < 0 {
				return string(append(b, '?'))
			}
			b = append(b, byte('0'+d))
		}
	}
	return string(b)
}

// isASCIISpace is C's isspace in the C locale, which CPython's number
// parsers skip around a number.
func isASCIISpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}
