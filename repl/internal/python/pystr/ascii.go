package pystr

import (
	"unicode/utf8"
	"unsafe"
)

// bytesString returns the string of b without copying it. b must not be
// modified afterwards: callers pass the buffer they built and drop it (as
// strings.Builder does).
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// IsASCII reports whether s holds only ASCII (bytes below 0x80), as
// Python's str.isascii. It reads 8 bytes at a time.
func IsASCII(s string) bool {
	i := 0
	for ; i+32 <= len(s); i += 32 {
		if (load64(s, i)|load64(s, i+8)|load64(s, i+16)|load64(s, i+24))&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if load64(s, i)&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// load64 reads 8 bytes of s from i, little-endian (the compiler makes it
// one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Len returns the length of s in code points, as Python's len. It reads
// s; Index.Len does not.
func Len(s string) int {
	if IsASCII(s) {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// appendRune appends the UTF-8 of r; an invalid r is appended as U+FFFD.
func appendRune(b []byte, r rune) []byte {
	if uint32(r) < utf8.RuneSelf {
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, r)
}

// runeAt returns the i-th code point of s (U+FFFD past its end).
func runeAt(s string, i int) rune {
	for _, r := range s {
		if i == 0 {
			return r
		}
		i--
	}
	return utf8.RuneError
}

// valid reports whether s is valid UTF-8.
func valid(s string) bool { return utf8.ValidString(s) }

// clean reports whether byte-wise search for needle in any string gives
// the code-point answer: needle must be valid UTF-8 without U+FFFD, since
// an invalid byte of the text is a U+FFFD code point.
func clean(needle string) bool {
	if IsASCII(needle) {
		return true
	}
	return utf8.ValidString(needle) && !containsRuneError(needle)
}

func containsRuneError(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xEF && s[i+1] == 0xBF && s[i+2] == 0xBD {
			return true
		}
	}
	return false
}

// sanitize returns s with each code point that an invalid byte stands for
// written as U+FFFD; code-point offsets are unchanged.
func sanitize(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/2)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return bytesString(b)
}

// firstRune returns the first code point of s and its size in bytes;
// (-1, 0) for "".
func firstRune(s string) (rune, int) {
	if s == "" {
		return -1, 0
	}
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}
