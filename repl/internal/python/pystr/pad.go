package pystr

import (
	"strings"
	"unicode/utf8"
)

// pad returns s with left and right copies of fill around it.
func pad(op, s string, left, right int, fill rune, limit int) (string, error) {
	if fill < 0 || fill > utf8.MaxRune || 0xD800 <= fill && fill < 0xE000 {
		fill = utf8.RuneError
	}
	fs := string(fill)
	need := addSize(len(s), mulSize(addSize(left, right), len(fs)))
	if err := checkLimit(op, need, limit); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(need)
	for ; left > 0; left-- {
		b.WriteString(fs)
	}
	b.WriteString(s)
	for ; right > 0; right-- {
		b.WriteString(fs)
	}
	return b.String(), nil
}

// Center returns s centered in a string of width code points, padded with
// fill, as Python's str.center: of a padding of p code points, the left
// gets p/2, plus one when both p and width are odd. It returns a
// *LimitError when the result would exceed limit bytes.
func Center(s string, width int, fill rune, limit int) (string, error) {
	n := Len(s)
	if n >= width {
		return s, nil
	}
	marg := width - n
	left := marg/2 + (marg & width & 1)
	return pad("center", s, left, marg-left, fill, limit)
}

// LJust returns s left-justified in a string of width code points, padded
// with fill, as Python's str.ljust.
func LJust(s string, width int, fill rune, limit int) (string, error) {
	n := Len(s)
	if n >= width {
		return s, nil
	}
	return pad("ljust", s, 0, width-n, fill, limit)
}

// RJust returns s right-justified in a string of width code points, padded
// with fill, as Python's str.rjust.
func RJust(s string, width int, fill rune, limit int) (string, error) {
	n := Len(s)
	if n >= width {
		return s, nil
	}
	return pad("rjust", s, width-n, 0, fill, limit)
}

// ZFill returns s padded on the left with zeros to width code points, a
// leading sign ('+' or '-') kept first, as Python's str.zfill.
func ZFill(s string, width, limit int) (string, error) {
	n := Len(s)
	if n >= width {
		return s, nil
	}
	fill := width - n
	if err := checkLimit("zfill", addSize(len(s), fill), limit); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(s) + fill)
	rest := s
	if s != "" && (s[0] == '+' || s[0] == '-') {
		b.WriteByte(s[0])
		rest = s[1:]
	}
	for ; fill > 0; fill-- {
		b.WriteByte('0')
	}
	b.WriteString(rest)
	return b.String(), nil
}
