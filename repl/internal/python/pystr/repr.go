package pystr

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Repr returns repr(s) as Python: in single quotes, or double quotes when s
// holds a single quote and no double quote; backslash, the quote, \t \n
// \r escaped, other code points that str.isprintable rejects as \xhh,
// \uhhhh or \Uhhhhhhhh.
func Repr(s string) string { return quote(s, false) }

// ASCII returns ascii(s) as Python: Repr with every non-ASCII code point
// escaped.
func ASCII(s string) string { return quote(s, true) }

func quote(s string, asciiOnly bool) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c >= 0x7f || c == q || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return string(q) + s + string(q)
	}
	b := make([]byte, 0, len(s)+2)
	b = append(b, q)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == q || c == '\\':
				b = append(b, '\\', c)
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < ' ' || c == 0x7f:
				b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !asciiOnly && hasFlag(r, fPrintable) {
			b = appendRune(b, r)
		} else {
			b = appendEscape(b, r)
		}
		i += size
	}
	b = append(b, q)
	return bytesString(b)
}

// appendEscape appends r as \xhh, \uhhhh or \Uhhhhhhhh.
func appendEscape(b []byte, r rune) []byte {
	switch {
	case r <= 0xff:
		return append(b, '\\', 'x', hexDigits[r>>4], hexDigits[r&15])
	case r <= 0xffff:
		return append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
	}
	b = append(b, '\\', 'U')
	for sh := 28; sh >= 0; sh -= 4 {
		b = append(b, hexDigits[r>>sh&15])
	}
	return b
}
