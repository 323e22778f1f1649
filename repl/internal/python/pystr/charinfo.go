package pystr

import "unicode/utf8"

// charInfo is the record of the character database for one code point.
// The field order is that of the records written by gen_tables.go.
type charInfo struct {
	cat, bidi, eaw, ccc uint8
	flags               uint16
	digit               uint8 // 0-9, or 0xFF for none
	// Full case mappings: a delta to add to the code point, or, with
	// caseSpecial set, an index in specialCase.
	lower, upper, title, fold int32
}

// Flag bits of charInfo, in the order of gen_tables.go's flagNames.
const (
	fAlpha = 1 << iota
	fDecimal
	fDigit
	fNumeric
	fSpace
	fPrintable
	fLinebreak
	fXIDStart // str.isidentifier of one character: XID_Start or '_'
	fXIDContinue
	fLowercase // the Lowercase property
	fUppercase // the Uppercase property
	fCased
	fCaseIgnorable
	fMirrored
)

const caseSpecial = 1 << 30

// info returns the record of r; code points outside the Unicode range
// read as U+10FFFF, a noncharacter.
func info(r rune) *charInfo {
	if uint32(r) > 0x10FFFF {
		r = 0x10FFFF
	}
	const mask1 = 1<<recordShift1 - 1
	const mask2 = 1<<recordShift2 - 1
	k := int(recordIndex1[r>>recordShift1])<<recordShift1 | int(r)&mask1
	return &records[recordIndex3[int(recordIndex2[k>>recordShift2])<<recordShift2|k&mask2]]
}

func hasFlag(r rune, f uint16) bool { return info(r).flags&f != 0 }

// appendMapped appends the mapping m of the code point r read from src
// (its UTF-8, or an invalid byte): src itself when m leaves r unchanged.
func appendMapped(b []byte, src string, r rune, m int32) []byte {
	if m == 0 && (r != utf8.RuneError || len(src) > 1) {
		return append(b, src...)
	}
	return appendCase(b, r, m)
}

// appendCase appends the mapping m of r (a field of its charInfo).
func appendCase(b []byte, r rune, m int32) []byte {
	if m >= caseSpecial {
		return append(b, specialCase[m&^caseSpecial]...)
	}
	return appendRune(b, r+m)
}
