package pystr

import (
	"strings"
	"unicode/utf8"
)

// adjust normalizes start and end as CPython's ADJUST_INDICES for a
// string of n code points.
func adjust(start, end Opt, n int) (int, int) {
	st, en := 0, n
	if start.ok {
		st = start.v
		if st < 0 {
			st += n
			if st < 0 {
				st = 0
			}
		}
	}
	if end.ok {
		en = end.v
		if en > n {
			en = n
		} else if en < 0 {
			en += n
			if en < 0 {
				en = 0
			}
		}
	}
	return st, en
}

// window returns the part of the string between code points st and en
// (st <= en <= n) and the byte offset of its start.
func (x *Index) window(st, en int) (string, int) {
	bs, be := x.ByteRange(st, en)
	return x.s[bs:be], bs
}

// Find returns the lowest index of sub in s[start:end], or -1, as
// Python's str.find.
func (x *Index) Find(sub string, start, end Opt) int {
	st, en := adjust(start, end, x.n)
	subN := Len(sub)
	if en-st < subN {
		return -1
	}
	if subN == 0 {
		return st
	}
	w, bs := x.window(st, en)
	if !clean(sub) {
		if i := findSlow(w, sub, false); i >= 0 {
			return st + i
		}
		return -1
	}
	i := strings.Index(w, sub)
	if i < 0 {
		return -1
	}
	return x.cpOffsetIn(st, bs, i, w)
}

// cpOffsetIn returns the code-point offset of byte i of the window w, which
// begins at code point st, byte bs.
func (x *Index) cpOffsetIn(st, bs, i int, w string) int {
	if x.ascii {
		return st + i
	}
	if x.scan {
		return st + countForward(w, 0, i)
	}
	return x.CodePointOffset(bs + i)
}

// RFind returns the highest index of sub in s[start:end], or -1, as
// Python's str.rfind.
func (x *Index) RFind(sub string, start, end Opt) int {
	st, en := adjust(start, end, x.n)
	subN := Len(sub)
	if en-st < subN {
		return -1
	}
	if subN == 0 {
		return en
	}
	w, bs := x.window(st, en)
	if !clean(sub) {
		if i := findSlow(w, sub, true); i >= 0 {
			return st + i
		}
		return -1
	}
	i := strings.LastIndex(w, sub)
	if i < 0 {
		return -1
	}
	if x.scan {
		// Count from the nearer end of the window.
		return en - countForward(w, i, len(w))
	}
	return x.cpOffsetIn(st, bs, i, w)
}

var errNotFound = valueError("substring not found")

// IndexOf returns Find's result, or ValueError "substring not found", as
// Python's str.index.
func (x *Index) IndexOf(sub string, start, end Opt) (int, error) {
	if i := x.Find(sub, start, end); i >= 0 {
		return i, nil
	}
	return 0, errNotFound
}

// RIndexOf returns RFind's result, or ValueError "substring not found", as
// Python's str.rindex.
func (x *Index) RIndexOf(sub string, start, end Opt) (int, error) {
	if i := x.RFind(sub, start, end); i >= 0 {
		return i, nil
	}
	return 0, errNotFound
}

// Count returns the number of non-overlapping occurrences of sub in
// s[start:end], as Python's str.count.
func (x *Index) Count(sub string, start, end Opt) int {
	st, en := adjust(start, end, x.n)
	subN := Len(sub)
	if en-st < subN {
		return 0
	}
	if subN == 0 {
		return en - st + 1
	}
	w, _ := x.window(st, en)
	if !clean(sub) {
		return strings.Count(sanitize(w), sanitize(sub))
	}
	return strings.Count(w, sub)
}

// StartsWith reports whether s[start:end] begins with prefix, as Python's
// str.startswith with one prefix.
func (x *Index) StartsWith(prefix string, start, end Opt) bool {
	return x.tailMatch(prefix, start, end, false)
}

// EndsWith reports whether s[start:end] ends with suffix, as Python's
// str.endswith with one suffix.
func (x *Index) EndsWith(suffix string, start, end Opt) bool {
	return x.tailMatch(suffix, start, end, true)
}

func (x *Index) tailMatch(sub string, start, end Opt, suffix bool) bool {
	st, en := adjust(start, end, x.n)
	subN := Len(sub)
	if en-subN < st {
		return false
	}
	if subN == 0 {
		return true
	}
	var w string
	if suffix {
		w, _ = x.window(en-subN, en)
	} else {
		w, _ = x.window(st, st+subN)
	}
	return sameText(w, sub)
}

// sameText reports whether a and b are the same code points.
func sameText(a, b string) bool {
	if a == b {
		return true
	}
	if valid(a) && valid(b) {
		return false
	}
	return sanitize(a) == sanitize(b)
}

// findSlow finds sub in w, code point by code point, for a sub that is
// not valid UTF-8 or holds U+FFFD; it returns a code-point offset.
func findSlow(w, sub string, last bool) int {
	w, sub = sanitize(w), sanitize(sub)
	var i int
	if last {
		i = strings.LastIndex(w, sub)
	} else {
		i = strings.Index(w, sub)
	}
	if i < 0 {
		return -1
	}
	return utf8.RuneCountInString(w[:i])
}

// Find returns the lowest index of sub in s[start:end], or -1, as Python's
// str.find. Without an Index it takes time linear in s.
func Find(s, sub string, start, end Opt) int {
	if !start.ok && !end.ok {
		if !clean(sub) {
			return findSlow(s, sub, false)
		}
		i := strings.Index(s, sub)
		if i <= 0 {
			return i
		}
		return Len(s[:i])
	}
	x := scanIndex(s)
	return x.Find(sub, start, end)
}

// RFind returns the highest index of sub in s[start:end], or -1, as
// Python's str.rfind. Without an Index it takes time linear in s.
func RFind(s, sub string, start, end Opt) int {
	if !start.ok && !end.ok {
		if !clean(sub) {
			return findSlow(s, sub, true)
		}
		i := strings.LastIndex(s, sub)
		if i <= 0 {
			return i
		}
		return Len(s[:i])
	}
	x := scanIndex(s)
	return x.RFind(sub, start, end)
}

// IndexOf returns Find's result, or ValueError "substring not found", as
// Python's str.index.
func IndexOf(s, sub string, start, end Opt) (int, error) {
	if i := Find(s, sub, start, end); i >= 0 {
		return i, nil
	}
	return 0, errNotFound
}

// RIndexOf returns RFind's result, or ValueError "substring not found", as
// Python's str.rindex.
func RIndexOf(s, sub string, start, end Opt) (int, error) {
	if i := RFind(s, sub, start, end); i >= 0 {
		return i, nil
	}
	return 0, errNotFound
}

// Count returns the number of non-overlapping occurrences of sub in
// s[start:end], as Python's str.count.
func Count(s, sub string, start, end Opt) int {
	if !start.ok && !end.ok && sub != "" {
		if !clean(sub) {
			return strings.Count(sanitize(s), sanitize(sub))
		}
		return strings.Count(s, sub)
	}
	x := scanIndex(s)
	return x.Count(sub, start, end)
}

// StartsWith reports whether s[start:end] begins with prefix, as Python's
// str.startswith with one prefix (the caller tries each of a tuple).
func StartsWith(s, prefix string, start, end Opt) bool {
	if !start.ok && !end.ok && clean(prefix) {
		// A clean prefix matches bytes exactly where it matches code
		// points; an invalid one ("\xc4" of "\u0130") must not match a
		// piece of a character.
		return strings.HasPrefix(s, prefix)
	}
	x := scanIndex(s)
	return x.StartsWith(prefix, start, end)
}

// EndsWith reports whether s[start:end] ends with suffix, as Python's
// str.endswith with one suffix.
func EndsWith(s, suffix string, start, end Opt) bool {
	if !start.ok && !end.ok && clean(suffix) {
		// A clean suffix matches bytes exactly where it matches code
		// points; an invalid one ("\xc4" of "\u0130") must not match a
		// piece of a character.
		return strings.HasSuffix(s, suffix)
	}
	x := scanIndex(s)
	return x.EndsWith(suffix, start, end)
}

// Contains reports whether sub occurs in s, as Python's "sub in s".
func Contains(s, sub string) bool {
	if clean(sub) {
		return strings.Contains(s, sub)
	}
	return strings.Contains(sanitize(s), sanitize(sub))
}

// Replace returns s with the first count non-overlapping occurrences of
// old replaced by new (all of them when count < 0), as Python's
// str.replace; an empty old matches before each code point and at the end.
// It returns a *LimitError, allocating nothing, when the result would
// exceed limit bytes.
func Replace(s, old, new string, count, limit int) (string, error) {
	if count == 0 {
		return s, nil
	}
	if !clean(old) || old == "" && !valid(s) {
		// strings.Replace inserts at each code point as Go decodes s,
		// as here, but the invalid bytes must become U+FFFD.
		s, old = sanitize(s), sanitize(old)
	}
	var m int
	if old == "" {
		m = Len(s) + 1
	} else {
		m = strings.Count(s, old)
	}
	if count >= 0 && m > count {
		m = count
	}
	if m == 0 {
		return s, nil
	}
	need := addSize(len(s)-m*len(old), mulSize(m, len(new)))
	if err := checkLimit("replace", need, limit); err != nil {
		return "", err
	}
	return strings.Replace(s, old, new, m), nil
}

// Partition splits s at the first occurrence of sep, as Python's
// str.partition: (before, sep, after), or (s, "", "") when sep does not
// occur; ValueError "empty separator" for an empty sep.
func Partition(s, sep string) (string, string, string, error) {
	if sep == "" {
		return "", "", "", valueError("empty separator")
	}
	if !clean(sep) {
		s, sep = sanitize(s), sanitize(sep)
	}
	before, after, found := strings.Cut(s, sep)
	if !found {
		return s, "", "", nil
	}
	return before, sep, after, nil
}

// RPartition splits s at the last occurrence of sep, as Python's
// str.rpartition: (before, sep, after), or ("", "", s) when sep does not
// occur; ValueError "empty separator" for an empty sep.
func RPartition(s, sep string) (string, string, string, error) {
	if sep == "" {
		return "", "", "", valueError("empty separator")
	}
	if !clean(sep) {
		s, sep = sanitize(s), sanitize(sep)
	}
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return "", "", s, nil
	}
	return s[:i], sep, s[i+len(sep):], nil
}
