package syntax

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// nfkc normalizes an identifier as CPython does for non-ASCII ones.
func nfkc(s string) string { return norm.NFKC.String(s) }

var (
	namesOnce sync.Once
	namesMap  map[string]rune
)

// buildNames builds the reverse of runenames.Name, once, on first use.
func buildNames() {
	namesMap = make(map[string]rune, 40000)
	for r := rune(0); r < 0xF0000; r++ {
		switch r {
		case 0xD800:
			r = 0xE000 // surrogates
		case 0x40000:
			r = 0xE0000 // planes 4 to 13 have no characters
		}
		n := runenames.Name(r)
		if n == "" || n[0] == '<' {
			continue
		}
		if _, dup := namesMap[n]; !dup {
			namesMap[n] = r
		}
	}
}

// lookupName finds the character a \N{name} escape names, as CPython's
// unicodedata.lookup without named sequences: names and aliases, ignoring
// ASCII case, and the algorithmic names of CJK unified ideographs and
// Hangul syllables, in upper case only.
func lookupName(name string) (rune, bool) {
	if name == "" || len(name) > 256 {
		return 0, false
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return 0, false
		}
	}
	if strings.HasPrefix(name, "HANGUL SYLLABLE ") {
		return hangulLookup(name)
	}
	if rest, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok {
		if (len(rest) == 4 || len(rest) == 5) && isUpperHex(rest) {
			v, err := strconv.ParseUint(rest, 16, 32)
			if err == nil && isUnifiedIdeograph(rune(v)) {
				return rune(v), true
			}
		}
		return 0, false
	}
	up := strings.ToUpper(name)
	i := sort.Search(len(nameAliases), func(i int) bool { return nameAliases[i].name >= up })
	if i < len(nameAliases) && nameAliases[i].name == up {
		return nameAliases[i].r, true
	}
	namesOnce.Do(buildNames)
	r, ok := namesMap[up]
	return r, ok
}

func isUpperHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isUnifiedIdeograph reports the CJK unified ideographs of Unicode 15.0
// (whose names CPython computes).
func isUnifiedIdeograph(r rune) bool {
	return r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x4E00 && r <= 0x9FFF ||
		r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B739 ||
		r >= 0x2B740 && r <= 0x2B81D ||
		r >= 0x2B820 && r <= 0x2CEA1 ||
		r >= 0x2CEB0 && r <= 0x2EBE0 ||
		r >= 0x30000 && r <= 0x3134A ||
		r >= 0x31350 && r <= 0x323AF
}

// Hangul syllable names (Unicode's algorithm, chapter 3.12).
var (
	jamoL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

func hangulLookup(up string) (rune, bool) {
	rest, ok := strings.CutPrefix(up, "HANGUL SYLLABLE ")
	if !ok {
		return 0, false
	}
	// Longest match for each part, as CPython does.
	match := func(s string, table []string) (int, int) {
		best, bestLen := -1, -1
		for i, j := range table {
			if len(j) > bestLen && strings.HasPrefix(s, j) {
				best, bestLen = i, len(j)
			}
		}
		return best, bestLen
	}
	l, n := match(rest, jamoL)
	if l < 0 {
		return 0, false
	}
	rest = rest[n:]
	v, n := match(rest, jamoV)
	if v < 0 {
		return 0, false
	}
	rest = rest[n:]
	t, n := match(rest, jamoT)
	if t < 0 || n != len(rest) {
		return 0, false
	}
	return rune(0xAC00 + (l*21+v)*28 + t), true
}
