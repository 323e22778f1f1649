package corpus

import "unicode/utf8"

// snapBack returns the offset of the first byte of the UTF-8 character
// containing data[off]. Offsets at or past the end, offsets already on a
// character start, and offsets inside invalid sequences are unchanged.
func snapBack(data []byte, off int) int {
	if off <= 0 {
		return 0
	}
	if off >= len(data) {
		return len(data)
	}
	for j := off; j >= 0 && j > off-utf8.UTFMax; j-- {
		if utf8.RuneStart(data[j]) {
			_, size := utf8.DecodeRune(data[j:min(len(data), j+utf8.UTFMax)])
			if j+size > off {
				return j
			}
			return off
		}
	}
	return off
}

// snapForward returns off if it is on a character start, else the offset
// just past the character containing data[off].
func snapForward(data []byte, off int) int {
	j := snapBack(data, off)
	if j == off {
		return off
	}
	_, size := utf8.DecodeRune(data[j:min(len(data), j+utf8.UTFMax)])
	return j + size
}

// cutText returns the longest prefix of b of at most max bytes that does not
// end inside a UTF-8 character.
func cutText(b []byte, max int) []byte {
	if len(b) <= max {
		return b
	}
	return b[:snapBack(b, max)]
}
