package python

import (
	"strings"
	"unsafe"
)

// The algorithms of bytes and bytearray over Go strings holding the bytes.
// Character classes are ASCII only, as CPython's bytes methods use them
// (Py_ISSPACE, Py_ISLOWER, ...): whitespace is " \t\n\v\f\r".

// bview views a byte slice as a string without copying. The caller must not
// keep the string (nor a substring of it) past the next change of b.
func bview(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func bIsSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func bIsLower(c byte) bool { return c >= 'a' && c <= 'z' }
func bIsUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func bIsAlpha(c byte) bool { return bIsLower(c) || bIsUpper(c) }
func bIsDigit(c byte) bool { return c >= '0' && c <= '9' }
func bIsAlnum(c byte) bool { return bIsAlpha(c) || bIsDigit(c) }

func bToUpper(c byte) byte {
	if bIsLower(c) {
		return c - 32
	}
	return c
}

func bToLower(c byte) byte {
	if bIsUpper(c) {
		return c + 32
	}
	return c
}

// bytesMap returns s with f applied to each byte.
func bytesMap(s string, f func(byte) byte) string {
	out := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = f(s[i])
	}
	return string(out)
}

func bytesUpper(s string) string { return bytesMap(s, bToUpper) }
func bytesLower(s string) string { return bytesMap(s, bToLower) }

func bytesSwapCase(s string) string {
	return bytesMap(s, func(c byte) byte {
		if bIsLower(c) {
			return c - 32
		}
		if bIsUpper(c) {
			return c + 32
		}
		return c
	})
}

// bytesTitle upper-cases a letter that follows no cased letter and
// lower-cases one that follows one.
func bytesTitle(s string) string {
	out := make([]byte, len(s))
	prevCased := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case bIsLower(c):
			if !prevCased {
				c -= 32
			}
			prevCased = true
		case bIsUpper(c):
			if prevCased {
				c += 32
			}
			prevCased = true
		default:
			prevCased = false
		}
		out[i] = c
	}
	return string(out)
}

func bytesCapitalize(s string) string {
	out := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		if i == 0 {
			out[i] = bToUpper(s[i])
		} else {
			out[i] = bToLower(s[i])
		}
	}
	return string(out)
}

// bytesAll reports whether s is not empty and every byte satisfies f.
func bytesAll(s string, f func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}

func bytesIsLower(s string) bool {
	cased := false
	for i := 0; i < len(s); i++ {
		if bIsUpper(s[i]) {
			return false
		}
		cased = cased || bIsLower(s[i])
	}
	return cased
}

func bytesIsUpper(s string) bool {
	cased := false
	for i := 0; i < len(s); i++ {
		if bIsLower(s[i]) {
			return false
		}
		cased = cased || bIsUpper(s[i])
	}
	return cased
}

// bytesIsTitle reports whether every run of letters starts with an upper
// case letter followed only by lower case ones, with at least one letter.
func bytesIsTitle(s string) bool {
	cased, prevCased := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case bIsUpper(c):
			if prevCased {
				return false
			}
			prevCased, cased = true, true
		case bIsLower(c):
			if !prevCased {
				return false
			}
			prevCased, cased = true, true
		default:
			prevCased = false
		}
	}
	return cased
}

func bytesIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// span is an optional start or end argument of a search (nil: None),
// already clamped to the int64 range.
type span struct {
	v   int64
	set bool
}

// adjust normalizes start and end for a sequence of length n as CPython's
// ADJUST_INDICES does: end is clamped to [0, n]; start to [0, ...) but may
// exceed n (then nothing matches).
func adjust(start, end span, n int) (int, int) {
	s, e := int64(0), int64(n)
	if end.set {
		e = end.v
		if e > int64(n) {
			e = int64(n)
		} else if e < 0 {
			e += int64(n)
			if e < 0 {
				e = 0
			}
		}
	}
	if start.set {
		s = start.v
		if s < 0 {
			s += int64(n)
			if s < 0 {
				s = 0
			}
		}
	}
	if s > int64(n)+1 {
		s = int64(n) + 1
	}
	return int(s), int(e)
}

// bytesFind returns the lowest (or, right, highest) index of sub in
// s[start:end], or -1.
func bytesFind(s, sub string, start, end span, right bool) int {
	a, b := adjust(start, end, len(s))
	if b-a < len(sub) {
		return -1
	}
	var i int
	if right {
		i = strings.LastIndex(s[a:b], sub)
	} else {
		i = strings.Index(s[a:b], sub)
	}
	if i < 0 {
		return -1
	}
	return a + i
}

// bytesCount counts the non-overlapping occurrences of sub in s[start:end].
func bytesCount(s, sub string, start, end span) int {
	a, b := adjust(start, end, len(s))
	if b < a {
		return 0
	}
	if sub == "" {
		return b - a + 1
	}
	return strings.Count(s[a:b], sub)
}

// bytesTailMatch reports whether s[start:end] starts (or, suffix, ends)
// with p.
func bytesTailMatch(s, p string, start, end span, suffix bool) bool {
	a, b := adjust(start, end, len(s))
	if suffix {
		if b-a < len(p) || a > len(s) {
			return false
		}
		return s[b-len(p):b] == p
	}
	if a+len(p) > len(s) || b-a < len(p) {
		return false
	}
	return s[a:a+len(p)] == p
}

// bytesStrip strips the bytes of chars (or, when ws, ASCII whitespace)
// from the left and/or right of s.
func bytesStrip(s, chars string, ws, left, right bool) string {
	var set [256]bool
	if ws {
		for _, c := range []byte(" \t\n\v\f\r") {
			set[c] = true
		}
	} else {
		for i := 0; i < len(chars); i++ {
			set[chars[i]] = true
		}
	}
	i, j := 0, len(s)
	if left {
		for i < j && set[s[i]] {
			i++
		}
	}
	if right {
		for j > i && set[s[j-1]] {
			j--
		}
	}
	return s[i:j]
}

// bytesSplitWS splits s at runs of ASCII whitespace, at most maxsplit times
// (negative: no limit), as bytes.split(None, maxsplit).
func bytesSplitWS(s string, maxsplit int) []string {
	var out []string
	i, n := 0, len(s)
	for {
		for i < n && bIsSpace(s[i]) {
			i++
		}
		if i == n {
			return out
		}
		if maxsplit == 0 {
			return append(out, s[i:])
		}
		j := i
		for j < n && !bIsSpace(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		if maxsplit > 0 {
			maxsplit--
		}
		i = j
	}
}

// bytesRSplitWS is bytes.rsplit(None, maxsplit).
func bytesRSplitWS(s string, maxsplit int) []string {
	var out []string
	j := len(s)
	for {
		for j > 0 && bIsSpace(s[j-1]) {
			j--
		}
		if j == 0 {
			break
		}
		if maxsplit == 0 {
			out = append(out, s[:j])
			break
		}
		i := j
		for i > 0 && !bIsSpace(s[i-1]) {
			i--
		}
		out = append(out, s[i:j])
		if maxsplit > 0 {
			maxsplit--
		}
		j = i
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// bytesSplitSep splits s at sep (not empty), at most maxsplit times.
func bytesSplitSep(s, sep string, maxsplit int) []string {
	var out []string
	for maxsplit != 0 {
		i := strings.Index(s, sep)
		if i < 0 {
			break
		}
		out = append(out, s[:i])
		s = s[i+len(sep):]
		if maxsplit > 0 {
			maxsplit--
		}
	}
	return append(out, s)
}

// bytesRSplitSep splits s at sep from the right.
func bytesRSplitSep(s, sep string, maxsplit int) []string {
	var out []string
	for maxsplit != 0 {
		i := strings.LastIndex(s, sep)
		if i < 0 {
			break
		}
		out = append(out, s[i+len(sep):])
		s = s[:i]
		if maxsplit > 0 {
			maxsplit--
		}
	}
	out = append(out, s)
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// bytesSplitLines splits s at \n, \r and \r\n.
func bytesSplitLines(s string, keepends bool) []string {
	var out []string
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		eol := j
		if j < len(s) {
			if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
				j += 2
			} else {
				j++
			}
			if keepends {
				eol = j
			}
		}
		out = append(out, s[i:eol])
		i = j
	}
	return out
}

// bytesExpandTabsSize returns the length of s.expandtabs(tabsize), or -1
// when it passes limit.
func bytesExpandTabsSize(s string, tabsize int, limit int64) int64 {
	var n, col int64
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			if tabsize > 0 {
				inc := int64(tabsize) - col%int64(tabsize)
				col += inc
				n += inc
			}
		case '\n', '\r':
			n++
			col = 0
		default:
			n++
			col++
		}
		if n > limit {
			return -1
		}
	}
	return n
}

// bytesExpandTabs expands tabs to spaces; size is from bytesExpandTabsSize.
func bytesExpandTabs(s string, tabsize int, size int64) string {
	out := make([]byte, 0, size)
	col := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			if tabsize > 0 {
				inc := tabsize - col%tabsize
				col += inc
				for ; inc > 0; inc-- {
					out = append(out, ' ')
				}
			}
		case '\n', '\r':
			out = append(out, c)
			col = 0
		default:
			out = append(out, c)
			col++
		}
	}
	return string(out)
}

// bytesPad returns s with left and right copies of fill around it.
func bytesPad(s string, left, right int, fill byte) string {
	out := make([]byte, left+len(s)+right)
	for i := 0; i < left; i++ {
		out[i] = fill
	}
	copy(out[left:], s)
	for i := left + len(s); i < len(out); i++ {
		out[i] = fill
	}
	return string(out)
}

// bytesCenterLeft returns the left padding of center: CPython puts the
// odd byte on the left when width is odd.
func bytesCenterLeft(pad, width int) int {
	return pad/2 + (pad & width & 1)
}

// bytesZFill pads s on the left with zeros to width, after a sign.
func bytesZFill(s string, width int) string {
	if len(s) >= width {
		return s
	}
	fill := width - len(s)
	out := []byte(bytesPad(s, fill, 0, '0'))
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		out[0] = s[0]
		out[fill] = '0'
	}
	return string(out)
}

// bytesReplaceSize returns the length of s.replace(old, new, count) and
// the number of replacements (count negative: all).
func bytesReplaceSize(s, old, new string, count int) (int64, int) {
	if count < 0 {
		count = len(s) + 1
	}
	var n int
	if old == "" {
		n = min(count, len(s)+1)
	} else {
		n = min(count, strings.Count(s, old))
	}
	return int64(len(s)) + int64(n)*(int64(len(new))-int64(len(old))), n
}

// bytesReplace replaces the first n occurrences of old by new (n from
// bytesReplaceSize).
func bytesReplace(s, old, new string, n int, size int64) string {
	if n == 0 {
		return s
	}
	out := make([]byte, 0, size)
	if old == "" {
		for i := 0; i < n; i++ {
			out = append(out, new...)
			if i < len(s) {
				out = append(out, s[i])
			}
		}
		if n <= len(s) {
			out = append(out, s[n:]...)
		}
		return string(out)
	}
	for i := 0; i < n; i++ {
		j := strings.Index(s, old)
		out = append(out, s[:j]...)
		out = append(out, new...)
		s = s[j+len(old):]
	}
	out = append(out, s...)
	return string(out)
}

const hexDigits = "0123456789abcdef"

// bytesHex returns the hexadecimal of s with sep between groups of per
// bytes (counted from the right when per > 0, from the left when per < 0;
// no separator when sep is 0 or per is 0).
func bytesHex(s string, sep byte, per int) string {
	if sep == 0 || per == 0 || len(s) == 0 {
		out := make([]byte, 2*len(s))
		for i := 0; i < len(s); i++ {
			out[2*i] = hexDigits[s[i]>>4]
			out[2*i+1] = hexDigits[s[i]&15]
		}
		return string(out)
	}
	group := per
	if group < 0 {
		group = -group
	}
	if group > len(s) {
		group = len(s)
	}
	nsep := (len(s) - 1) / group
	out := make([]byte, 0, 2*len(s)+nsep)
	for i := 0; i < len(s); i++ {
		if i > 0 {
			var boundary bool
			if per > 0 {
				boundary = (len(s)-i)%group == 0
			} else {
				boundary = i%group == 0
			}
			if boundary {
				out = append(out, sep)
			}
		}
		out = append(out, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return string(out)
}

func hexNibble(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// bytesFromHex decodes pairs of hexadecimal digits separated by optional
// ASCII whitespace. On failure it returns the position (in code points)
// that CPython reports: that of the first non-ASCII character if there is
// one, else that of the first bad digit.
func bytesFromHex(s string) (string, int, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return "", cpCount(s[:i]), false
		}
	}
	out := make([]byte, 0, len(s)/2)
	i := 0
	for {
		for i < len(s) && bIsSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return string(out), 0, true
		}
		hi := hexNibble(s[i])
		if hi < 0 {
			return "", i, false
		}
		if i+1 >= len(s) {
			return "", i + 1, false
		}
		lo := hexNibble(s[i+1])
		if lo < 0 {
			return "", i + 1, false
		}
		out = append(out, byte(hi<<4|lo))
		i += 2
	}
}

// cpCount counts the code points of UTF-8 text.
func cpCount(s string) int {
	n := 0
	for range s {
		n++
	}
	return n
}

// bytesTranslate maps each byte through table (nil: identity) and drops
// those in del.
func bytesTranslate(s string, table string, del string) string {
	var drop [256]bool
	for i := 0; i < len(del); i++ {
		drop[del[i]] = true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if drop[c] {
			continue
		}
		if table != "" {
			c = table[c]
		}
		out = append(out, c)
	}
	return string(out)
}
