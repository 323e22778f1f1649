package pystr

import "unicode/utf8"

// allFlag reports whether s is not empty and each of its code points has
// one of the flags f; ascii decides for ASCII code points.
func allFlag(s string, f uint16, ascii func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !ascii(c) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if info(r).flags&f == 0 {
			return false
		}
		i += size
	}
	return true
}

func asciiAlpha(c byte) bool   { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func asciiDigit(c byte) bool   { return '0' <= c && c <= '9' }
func asciiAlnum(c byte) bool   { return asciiAlpha(c) || asciiDigit(c) }
func asciiIsSpace(c byte) bool { return asciiSpace[c] }

// IsAlpha reports whether s is not empty and all its code points are
// letters (categories Lu, Ll, Lt, Lm, Lo), as Python's str.isalpha.
func IsAlpha(s string) bool { return allFlag(s, fAlpha, asciiAlpha) }

// IsAlnum reports whether s is not empty and each of its code points is
// alphabetic, decimal, digit or numeric, as Python's str.isalnum.
func IsAlnum(s string) bool {
	return allFlag(s, fAlpha|fDecimal|fDigit|fNumeric, asciiAlnum)
}

// IsDecimal reports whether s is not empty and all its code points are
// decimal characters (category Nd), as Python's str.isdecimal.
func IsDecimal(s string) bool { return allFlag(s, fDecimal, asciiDigit) }

// IsDigit reports whether s is not empty and all its code points have a
// digit value (numeric type Decimal or Digit), as Python's str.isdigit.
func IsDigit(s string) bool { return allFlag(s, fDigit, asciiDigit) }

// IsNumeric reports whether s is not empty and all its code points have a
// numeric value (any numeric type, such as the CJK numeral 一), as
// Python's str.isnumeric.
func IsNumeric(s string) bool { return allFlag(s, fNumeric, asciiDigit) }

// IsSpace reports whether s is not empty and all its code points are
// whitespace (bidirectional class WS, B or S, or category Zs), as Python's
// str.isspace.
func IsSpace(s string) bool { return allFlag(s, fSpace, asciiIsSpace) }

// IsPrintable reports whether all code points of s are printable: none of
// categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs except the space, as
// Python's str.isprintable; true for "".
func IsPrintable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if info(r).flags&fPrintable == 0 {
			return false
		}
		i += size
	}
	return true
}

// IsPrintableRune reports whether r is printable, as str.isprintable.
func IsPrintableRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= ' ' && r != 0x7f
	}
	return hasFlag(r, fPrintable)
}

// caseKind classifies a code point for isupper, islower and istitle.
func caseKind(r rune) (upper, lower, title bool) {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z', 'a' <= r && r <= 'z', false
	}
	ci := info(r)
	return ci.flags&fUppercase != 0, ci.flags&fLowercase != 0, ci.cat == catLt
}

// IsUpper reports whether s has a cased code point and all its cased code
// points are upper case, as Python's str.isupper.
func IsUpper(s string) bool {
	cased := false
	for _, r := range s {
		upper, lower, title := caseKind(r)
		if lower || title {
			return false
		}
		if upper {
			cased = true
		}
	}
	return cased
}

// IsLower reports whether s has a cased code point and all its cased code
// points are lower case, as Python's str.islower.
func IsLower(s string) bool {
	cased := false
	for _, r := range s {
		upper, lower, title := caseKind(r)
		if upper || title {
			return false
		}
		if lower {
			cased = true
		}
	}
	return cased
}

// IsTitle reports whether s is title-cased, as Python's str.istitle:
// upper and title case code points follow only uncased ones, lower case
// ones only cased ones, and there is at least one.
func IsTitle(s string) bool {
	cased, prevCased := false, false
	for _, r := range s {
		upper, lower, title := caseKind(r)
		switch {
		case upper || title:
			if prevCased {
				return false
			}
			prevCased, cased = true, true
		case lower:
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

// IsIdentifier reports whether s is a valid identifier, as Python's
// str.isidentifier: a code point of XID_Start or '_', then code points of
// XID_Continue. (The tokenizer then normalizes identifiers with NFKC; see
// NormalizeIdentifier.)
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			ok := asciiAlpha(c) || c == '_' || i > 0 && asciiDigit(c)
			if !ok {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		f := uint16(fXIDContinue)
		if i == 0 {
			f = fXIDStart
		}
		if info(r).flags&f == 0 {
			return false
		}
		i += size
	}
	return true
}

// NormalizeIdentifier returns the NFKC form of an identifier, as Python's
// parser stores a non-ASCII identifier (PEP 3131): "ﬁ" and "fi" name the
// same variable.
func NormalizeIdentifier(s string) string {
	if IsASCII(s) {
		return s
	}
	t, _ := Normalize("NFKC", s)
	return t
}
