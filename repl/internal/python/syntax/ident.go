package syntax

import "unicode"

// Python identifiers are Unicode XID_Start XID_Continue*. Go's unicode
// package has the categories and properties these derive from (Unicode
// Standard Annex #31); the few characters whose NFKC form is not an
// identifier are then taken out (the X in XID).

func isIDStart(r rune) bool {
	if unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space) {
		return false
	}
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl) ||
		unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	if isIDStart(r) {
		return true
	}
	if unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space) {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc) ||
		unicode.Is(unicode.Other_ID_Continue, r)
}

// notXID reports the characters of ID_Start/ID_Continue that are not in
// XID_Start/XID_Continue (startOnly: excluded from XID_Start only).
func notXID(r rune) (all, startOnly bool) {
	switch {
	case r == 0x037A, r == 0x309B, r == 0x309C,
		r >= 0xFC5E && r <= 0xFC63, r == 0xFDFA, r == 0xFDFB,
		r >= 0xFE70 && r <= 0xFE7E && r%2 == 0:
		return true, true
	case r == 0x0E33, r == 0x0EB3, r == 0xFF9E, r == 0xFF9F:
		return false, true
	}
	return false, false
}

func isXIDStart(r rune) bool {
	if r < 128 {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	if _, startOnly := notXID(r); startOnly {
		return false
	}
	return isIDStart(r)
}

func isXIDContinue(r rune) bool {
	if r < 128 {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	if all, _ := notXID(r); all {
		return false
	}
	return isIDContinue(r)
}

// isPrintable is Python's str.isprintable for one character.
func isPrintable(r rune) bool { return unicode.IsPrint(r) }
