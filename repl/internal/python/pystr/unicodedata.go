package pystr

import (
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// UnidataVersion is the version of the Unicode database, as Python's
// unicodedata.unidata_version.
const UnidataVersion = unidataVersion

// Category returns the general category of r, as unicodedata.category
// ("Lu", "Nd", ..., "Cn" for unassigned code points).
func Category(r rune) string { return categoryNames[info(r).cat] }

// Bidirectional returns the bidirectional class of r, as
// unicodedata.bidirectional ("" for unassigned code points).
func Bidirectional(r rune) string { return bidiNames[info(r).bidi] }

// EastAsianWidth returns the East Asian width of r, as
// unicodedata.east_asian_width ("F", "H", "W", "Na", "A" or "N").
func EastAsianWidth(r rune) string { return eastAsianWidthNames[info(r).eaw] }

// Combining returns the canonical combining class of r, as
// unicodedata.combining.
func Combining(r rune) int { return int(info(r).ccc) }

// Mirrored returns 1 if r is mirrored in bidirectional text, else 0, as
// unicodedata.mirrored.
func Mirrored(r rune) int {
	if hasFlag(r, fMirrored) {
		return 1
	}
	return 0
}

// Decimal returns the decimal value of r, as unicodedata.decimal without
// a default: ValueError "not a decimal" when it has none.
func Decimal(r rune) (int, error) {
	ci := info(r)
	if ci.flags&fDecimal == 0 {
		return 0, valueError("not a decimal")
	}
	return int(ci.digit), nil
}

// Digit returns the digit value of r, as unicodedata.digit without a
// default: ValueError "not a digit" when it has none.
func Digit(r rune) (int, error) {
	ci := info(r)
	if ci.flags&fDigit == 0 {
		return 0, valueError("not a digit")
	}
	return int(ci.digit), nil
}

// Numeric returns the numeric value of r, as unicodedata.numeric without
// a default: ValueError "not a numeric character" when it has none.
func Numeric(r rune) (float64, error) {
	ci := info(r)
	if ci.flags&fNumeric == 0 {
		return 0, valueError("not a numeric character")
	}
	if ci.flags&fDigit != 0 {
		return float64(ci.digit), nil
	}
	lo, hi := 0, len(numericCodePoints)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rune(numericCodePoints[m]) < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(numericCodePoints) && rune(numericCodePoints[lo]) == r {
		return numericValues[lo], nil
	}
	return 0, valueError("not a numeric character")
}

// Hangul syllable composition, from the Unicode standard (chapter 3.12).
const (
	hangulBase   = 0xAC00
	hangulLCount = 19
	hangulVCount = 21
	hangulTCount = 28
	hangulNCount = hangulVCount * hangulTCount
	hangulCount  = hangulLCount * hangulNCount
)

// The short names of the Hangul jamo (Jamo.txt), leading, vowel and
// trailing.
var (
	jamoL = [hangulLCount]string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = [hangulVCount]string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = [hangulTCount]string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

const (
	hangulPrefix = "HANGUL SYLLABLE "
	cjkPrefix    = "CJK UNIFIED IDEOGRAPH-"
)

func isCJKUnified(r rune) bool {
	for i := 0; i < len(cjkUnified); i += 2 {
		if rune(cjkUnified[i]) <= r && r <= rune(cjkUnified[i+1]) {
			return true
		}
	}
	return false
}

// Name returns the name of r, as unicodedata.name without a default:
// ValueError "no such name" when it has none.
func Name(r rune) (string, error) {
	if r >= hangulBase && r < hangulBase+hangulCount {
		i := int(r - hangulBase)
		return hangulPrefix + jamoL[i/hangulNCount] + jamoV[i%hangulNCount/hangulTCount] + jamoT[i%hangulTCount], nil
	}
	if isCJKUnified(r) {
		return cjkPrefix + strings.ToUpper(strconv.FormatInt(int64(r), 16)), nil
	}
	if uint32(r) <= 0x10FFFF {
		if n := runenames.Name(r); n != "" && n[0] != '<' {
			return n, nil
		}
	}
	return "", valueError("no such name")
}

// nameAlias is a name alias (NameAliases.txt) that lookup accepts.
type nameAlias struct {
	name string
	r    rune
}

// namedSequence is a named sequence (NamedSequences.txt).
type namedSequence struct {
	name string
	s    string
}

var (
	nameMapOnce sync.Once
	nameMapVal  map[string]lookupResult
)

// nameMap returns the map of the names, aliases and named sequences, in
// upper case, to their text, built on the first lookup (in about 0.1 s: it
// reads the name of every assigned code point). It is built here, not at
// package level, so that programs that never look names up do not link
// the name tables.
func nameMap() map[string]lookupResult {
	nameMapOnce.Do(buildNameMap)
	return nameMapVal
}

func buildNameMap() {
	m := make(map[string]lookupResult, 40000)
	for r := rune(0); r <= 0x10FFFF; r++ {
		switch categoryNames[info(r).cat] {
		case "Cn", "Co", "Cs":
			continue
		}
		if r >= hangulBase && r < hangulBase+hangulCount || isCJKUnified(r) {
			continue
		}
		if n := runenames.Name(r); n != "" && n[0] != '<' {
			m[n] = lookupResult{s: string(r)}
		}
	}
	for _, a := range nameAliases {
		m[a.name] = lookupResult{s: string(a.r)}
	}
	for _, a := range namedSequences {
		m[a.name] = lookupResult{s: a.s, seq: true}
	}
	nameMapVal = m
}

type lookupResult struct {
	s   string
	seq bool
}

// Lookup returns the character (or named sequence) of a name, alias or
// named sequence, as unicodedata.lookup: KeyError "undefined character
// name 'NAME'" or "name too long". Names are matched without regard to
// ASCII case, except the algorithmic ones (Hangul syllables and CJK
// unified ideographs), which must be upper case as Python requires.
func Lookup(name string) (string, error) {
	return lookup(name, true)
}

// LookupCodePoint returns the code point of a name or alias, as the
// \N{name} escape of a string literal, which does not accept named
// sequences: KeyError as Lookup when there is none.
func LookupCodePoint(name string) (rune, error) {
	s, err := lookup(name, false)
	if err != nil {
		return 0, err
	}
	r, _ := firstRune(s)
	return r, nil
}

func lookup(name string, seqs bool) (string, error) {
	if len([]rune(name)) > 256 {
		return "", &Error{"KeyError", "name too long"}
	}
	if r, ok := lookupAlgorithmic(name); ok {
		return string(r), nil
	}
	if IsASCII(name) {
		if res, ok := nameMap()[strings.ToUpper(name)]; ok && (seqs || !res.seq) {
			return res.s, nil
		}
	}
	return "", &Error{"KeyError", "undefined character name '" + name + "'"}
}

func lookupAlgorithmic(name string) (rune, bool) {
	if rest, ok := strings.CutPrefix(name, hangulPrefix); ok {
		l, n := longestJamo(rest, jamoL[:])
		if l < 0 {
			return 0, false
		}
		rest = rest[n:]
		v, n := longestJamo(rest, jamoV[:])
		if v < 0 {
			return 0, false
		}
		rest = rest[n:]
		t, n := longestJamo(rest, jamoT[:])
		if t < 0 || n != len(rest) {
			return 0, false
		}
		return rune(hangulBase + l*hangulNCount + v*hangulTCount + t), true
	}
	if rest, ok := strings.CutPrefix(name, cjkPrefix); ok {
		if len(rest) != 4 && len(rest) != 5 {
			return 0, false
		}
		v := 0
		for i := 0; i < len(rest); i++ {
			c := rest[i]
			switch {
			case '0' <= c && c <= '9':
				v = v*16 + int(c-'0')
			case 'A' <= c && c <= 'F':
				v = v*16 + int(c-'A'+10)
			default:
				return 0, false
			}
		}
		if isCJKUnified(rune(v)) {
			return rune(v), true
		}
	}
	return 0, false
}

// longestJamo returns the index of the longest name of names that s begins
// with, and its length; -1 when none does.
func longestJamo(s string, names []string) (int, int) {
	best, bestLen := -1, -1
	for i, n := range names {
		if len(n) > bestLen && strings.HasPrefix(s, n) {
			best, bestLen = i, len(n)
		}
	}
	return best, bestLen
}

func normForm(form string) (norm.Form, error) {
	switch form {
	case "NFC":
		return norm.NFC, nil
	case "NFD":
		return norm.NFD, nil
	case "NFKC":
		return norm.NFKC, nil
	case "NFKD":
		return norm.NFKD, nil
	}
	return 0, valueError("invalid normalization form")
}

// Normalize returns the normal form form ("NFC", "NFD", "NFKC" or "NFKD")
// of s, as unicodedata.normalize: ValueError "invalid normalization form"
// for another form (but "" is returned for "" whatever the form, as
// Python).
func Normalize(form, s string) (string, error) {
	if s == "" {
		return s, nil // Python checks no form for ""
	}
	f, err := normForm(form)
	if err != nil {
		return "", err
	}
	if IsASCII(s) {
		return s, nil
	}
	return f.String(sanitize(s)), nil
}

// IsNormalized reports whether s is in normal form form, as
// unicodedata.is_normalized.
func IsNormalized(form, s string) (bool, error) {
	if s == "" {
		return true, nil // Python checks no form for ""
	}
	f, err := normForm(form)
	if err != nil {
		return false, err
	}
	if IsASCII(s) {
		return true, nil
	}
	return f.IsNormalString(sanitize(s)), nil
}
