package sre

import (
	"sort"
	"sync"
)

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// casePair maps one code point to another.
type casePair struct{ from, to rune }

// inRanges reports whether c lies in one of the sorted, disjoint ranges rs.
func inRanges(rs []runeRange, c rune) bool {
	i := sort.Search(len(rs), func(i int) bool { return rs[i].hi >= c })
	return i < len(rs) && rs[i].lo <= c
}

// mapPair looks c up in the sorted table ps, returning c when absent.
func mapPair(ps []casePair, c rune) rune {
	i := sort.Search(len(ps), func(i int) bool { return ps[i].from >= c })
	if i < len(ps) && ps[i].from == c {
		return ps[i].to
	}
	return c
}

// Character property bits for code points below 256, str-pattern meaning.
const (
	propWord   = 1 << iota // \w: isalnum() or '_'
	propDigit              // \d: isdecimal()
	propSpace              // \s: isspace()
	propAWord              // ASCII \w
	propADigit             // ASCII \d
	propASpace             // ASCII \s (space, \t \n \v \f \r)
)

var (
	latin1Props [256]uint8
	latin1Lower [256]rune
	latin1Upper [256]rune
	// nonASCIILowerToASCII lists the code points at or above 128 whose sre
	// lower case is ASCII (U+0130 and U+212A).
	nonASCIILowerToASCII []rune
	// lowerPreimage maps a lower-cased code point to the other code points
	// whose lower case it is.
	lowerPreimage map[rune][]rune
)

// tablesOnce builds the tables above on first use: compile runs it, so
// every matching path (which needs a compiled Pattern) finds them built,
// and a process that links this package but never compiles a pattern
// pays nothing at start-up.
var tablesOnce sync.Once

func initTables() { tablesOnce.Do(buildTables) }

func buildTables() {
	for c := rune(0); c < 256; c++ {
		var p uint8
		if inRanges(wordRanges, c) {
			p |= propWord
		}
		if inRanges(digitRanges, c) {
			p |= propDigit
		}
		if inRanges(spaceRanges, c) {
			p |= propSpace
		}
		if c < 128 {
			if c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				p |= propAWord
			}
			if c >= '0' && c <= '9' {
				p |= propADigit
			}
			if c == ' ' || c >= '\t' && c <= '\r' {
				p |= propASpace
			}
		}
		latin1Props[c] = p
		latin1Lower[c] = mapPair(lowerPairs, c)
		latin1Upper[c] = mapPair(upperPairs, c)
	}
	lowerPreimage = make(map[rune][]rune)
	for _, p := range lowerPairs {
		lowerPreimage[p.to] = append(lowerPreimage[p.to], p.from)
		if p.from >= 128 && p.to < 128 {
			nonASCIILowerToASCII = append(nonASCIILowerToASCII, p.from)
		}
	}
}

// uniLower is sre's unicode_tolower.
func uniLower(c rune) rune {
	if c >= 0 && c < 256 {
		return latin1Lower[c]
	}
	return mapPair(lowerPairs, c)
}

// uniUpper is sre's upper-case mapping (the first code point of str.upper()).
func uniUpper(c rune) rune {
	if c >= 0 && c < 256 {
		return latin1Upper[c]
	}
	return mapPair(upperPairs, c)
}

// uniIsCased is sre's unicode_iscased.
func uniIsCased(c rune) bool { return c != uniLower(c) || c != uniUpper(c) }

// asciiLower is sre's ascii_tolower (also the C locale's tolower).
func asciiLower(c rune) rune {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// asciiUpper is the C locale's toupper.
func asciiUpper(c rune) rune {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// asciiIsCased is sre's ascii_iscased.
func asciiIsCased(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isUniWord(c rune) bool {
	if c >= 0 && c < 256 {
		return latin1Props[c]&propWord != 0
	}
	return inRanges(wordRanges, c)
}

func isUniDigit(c rune) bool {
	if c >= 0 && c < 256 {
		return latin1Props[c]&propDigit != 0
	}
	return inRanges(digitRanges, c)
}

func isUniSpace(c rune) bool {
	if c >= 0 && c < 256 {
		return latin1Props[c]&propSpace != 0
	}
	return inRanges(spaceRanges, c)
}

func isASCIIWord(c rune) bool  { return c >= 0 && c < 128 && latin1Props[c]&propAWord != 0 }
func isASCIIDigit(c rune) bool { return c >= '0' && c <= '9' }
func isASCIISpace(c rune) bool { return c >= 0 && c < 128 && latin1Props[c]&propASpace != 0 }

// isXIDStart reports whether c may start a Python identifier.
func isXIDStart(c rune) bool { return inRanges(xidStartRanges, c) }

// isXIDContinue reports whether c may continue a Python identifier.
func isXIDContinue(c rune) bool { return inRanges(xidContinueRanges, c) }

// isIdentifier is str.isidentifier.
func isIdentifier(s []rune) bool {
	if len(s) == 0 || !isXIDStart(s[0]) {
		return false
	}
	for _, c := range s[1:] {
		if !isXIDContinue(c) {
			return false
		}
	}
	return true
}

// isPrintable is str.isprintable for one code point.
func isPrintable(c rune) bool { return inRanges(printableRanges, c) }
