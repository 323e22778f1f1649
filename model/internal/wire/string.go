package wire

import (
	"encoding/json"
	"unicode/utf8"
)

// jsonPlain marks the ASCII bytes encoding/json writes as they are in a
// string: printable ASCII but the quote, the backslash and the three
// characters it escapes for HTML (<, >, &); DEL (0x7f) is written as it is.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = true
	}
	for _, b := range `"\<>&` {
		t[b] = false
	}
	return t
}()

const hexDigits = "0123456789abcdef"

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainWord reports whether the eight bytes of x are all plain (jsonPlain):
// none has its high bit set, is below 0x20, or equals one of " \ < > &
// (a byte of x^(ones*c) is zero where x holds c; (y-ones)&^y&highs is
// non-zero when y has a zero byte, and (x-ones*0x20)&^x&highs when x has
// a byte below 0x20).
func plainWord(x uint64) bool {
	q, b, l, g, a := x^(ones*'"'), x^(ones*'\\'), x^(ones*'<'), x^(ones*'>'), x^(ones*'&')
	bad := x | (x-ones*0x20)&^x |
		(q-ones)&^q | (b-ones)&^b | (l-ones)&^l | (g-ones)&^g | (a-ones)&^a
	return bad&highs == 0
}

// load64 returns the eight bytes of s at i as a little-endian word (the
// compiler makes it one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// AppendString appends s as a JSON string as json.Marshal writes it:
// the quote, the backslash and \b \f \n \r \t with their short escapes,
// other control characters and <, >, & as \u00XX, each byte of invalid
// UTF-8 as \ufffd, and U+2028 and U+2029 as \u2028 and \u2029.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain bytes at a time: printable ASCII, none of " \ < > &.
		for i+8 <= len(s) && plainWord(load64(s, i)) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendMarshal appends key and encoding/json's encoding of v, for the
// parts of a body the providers' encoders leave to encoding/json.
func AppendMarshal(dst []byte, key string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(append(dst, key...), b...), nil
}
