package pystr

import (
	"unicode/utf8"
)

// Full case mappings follow CPython 3.12: SpecialCasing's unconditional
// mappings ('ß'.upper() == "SS"), and, of its conditional ones, only the
// final sigma (Σ lowers to ς at the end of a word); casefold uses
// CaseFolding's full foldings.

func hasASCIIUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func hasASCIILower(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			return true
		}
	}
	return false
}

// decodeAt returns the code point at byte i of s and its size.
func decodeAt(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// Lower returns s in lower case, as Python's str.lower.
func Lower(s string) string {
	if IsASCII(s) {
		if !hasASCIIUpper(s) {
			return s
		}
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return bytesString(b)
	}
	b := make([]byte, 0, len(s)+len(s)/8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = appendLower(b, s, i, r, size)
		i += size
	}
	return bytesString(b)
}

// appendLower appends the lower case of r, at byte i of s, with the
// final-sigma rule.
func appendLower(b []byte, s string, i int, r rune, size int) []byte {
	if r == 'Σ' {
		if finalSigma(s, i, size) {
			return append(b, "ς"...)
		}
		return append(b, "σ"...)
	}
	return appendMapped(b, s[i:i+size], r, info(r).lower)
}

// finalSigma reports whether the capital sigma at byte i of s (size bytes)
// ends a word, as CPython: preceded by a cased code point and not followed
// by one, case-ignorable code points skipped.
func finalSigma(s string, i, size int) bool {
	j := i
	found := false
	for j > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		ci := info(r)
		if ci.flags&fCaseIgnorable == 0 {
			found = ci.flags&fCased != 0
			break
		}
		j -= n
	}
	if !found {
		return false
	}
	for j = i + size; j < len(s); {
		r, n := decodeAt(s, j)
		ci := info(r)
		if ci.flags&fCaseIgnorable == 0 {
			return ci.flags&fCased == 0
		}
		j += n
	}
	return true
}

// Upper returns s in upper case, as Python's str.upper.
func Upper(s string) string {
	if IsASCII(s) {
		if !hasASCIILower(s) {
			return s
		}
		b := []byte(s)
		for i, c := range b {
			if 'a' <= c && c <= 'z' {
				b[i] = c - ('a' - 'A')
			}
		}
		return bytesString(b)
	}
	b := make([]byte, 0, len(s)+len(s)/8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = appendMapped(b, s[i:i+size], r, info(r).upper)
		i += size
	}
	return bytesString(b)
}

// Casefold returns s case-folded, as Python's str.casefold.
func Casefold(s string) string {
	if IsASCII(s) {
		return Lower(s)
	}
	b := make([]byte, 0, len(s)+len(s)/8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = appendMapped(b, s[i:i+size], r, info(r).fold)
		i += size
	}
	return bytesString(b)
}

// SwapCase returns s with upper case letters lowered and lower case ones
// raised, as Python's str.swapcase.
func SwapCase(s string) string {
	if IsASCII(s) {
		b := []byte(s)
		for i, c := range b {
			switch {
			case 'a' <= c && c <= 'z':
				b[i] = c - ('a' - 'A')
			case 'A' <= c && c <= 'Z':
				b[i] = c + ('a' - 'A')
			}
		}
		return bytesString(b)
	}
	b := make([]byte, 0, len(s)+len(s)/8)
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z':
				c -= 'a' - 'A'
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		ci := info(r)
		switch {
		case ci.flags&fUppercase != 0:
			b = appendLower(b, s, i, r, size)
		case ci.flags&fLowercase != 0:
			b = appendMapped(b, s[i:i+size], r, ci.upper)
		default:
			b = appendMapped(b, s[i:i+size], r, 0)
		}
		i += size
	}
	return bytesString(b)
}

// Title returns s with each code point that follows an uncased one in
// title case and the others in lower case, as Python's str.title.
func Title(s string) string {
	if IsASCII(s) {
		b := []byte(s)
		prevCased := false
		for i, c := range b {
			lower := 'a' <= c && c <= 'z'
			upper := 'A' <= c && c <= 'Z'
			if prevCased && upper {
				b[i] = c + ('a' - 'A')
			} else if !prevCased && lower {
				b[i] = c - ('a' - 'A')
			}
			prevCased = lower || upper
		}
		return bytesString(b)
	}
	b := make([]byte, 0, len(s)+len(s)/8)
	prevCased := false
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			lower := 'a' <= c && c <= 'z'
			upper := 'A' <= c && c <= 'Z'
			if prevCased && upper {
				c += 'a' - 'A'
			} else if !prevCased && lower {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			prevCased = lower || upper
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		ci := info(r)
		if prevCased {
			b = appendLower(b, s, i, r, size)
		} else {
			b = appendMapped(b, s[i:i+size], r, ci.title)
		}
		prevCased = ci.flags&fCased != 0
		i += size
	}
	return bytesString(b)
}

// Capitalize returns s with its first code point in title case and the
// rest in lower case, as Python 3.12's str.capitalize.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	if IsASCII(s) {
		b := []byte(s)
		for i, c := range b {
			if i == 0 {
				if 'a' <= c && c <= 'z' {
					b[i] = c - ('a' - 'A')
				}
			} else if 'A' <= c && c <= 'Z' {
				b[i] = c + ('a' - 'A')
			}
		}
		return bytesString(b)
	}
	b := make([]byte, 0, len(s)+len(s)/8)
	r, size := decodeAt(s, 0)
	b = appendMapped(b, s[:size], r, info(r).title)
	for i := size; i < len(s); {
		r, size := decodeAt(s, i)
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b = append(b, byte(r))
		} else {
			b = appendLower(b, s, i, r, size)
		}
		i += size
	}
	return bytesString(b)
}
