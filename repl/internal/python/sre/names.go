package sre

import (
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

// The Hangul syllable names, after the Unicode standard's algorithm.
var (
	hangulL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	hangulV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	hangulT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

type namedRune struct {
	name string
	r    rune
}

var (
	nameTableOnce sync.Once
	nameTable     []namedRune // sorted by name
)

func buildNameTable() {
	for r := rune(0); r <= 0x10ffff; r++ {
		n := runenames.Name(r)
		if n == "" || n[0] == '<' {
			continue
		}
		nameTable = append(nameTable, namedRune{n, r})
	}
	sort.Slice(nameTable, func(i, j int) bool { return nameTable[i].name < nameTable[j].name })
}

// namesAvailable reports whether x/text's name tables are of the Unicode
// version CPython 3.12 uses; with other tables \N{...} is refused.
func namesAvailable() bool { return runenames.UnicodeVersion == unicodeVersion }

// hangulPart finds the longest entry of column that prefixes s.
func hangulPart(s string, column []string) (n, idx int) {
	n, idx = -1, -1
	for i, part := range column {
		if len(part) <= n {
			continue
		}
		if strings.HasPrefix(s, part) {
			n, idx = len(part), i
		}
	}
	if n < 0 {
		n = 0
	}
	return n, idx
}

// lookupName resolves a character name as unicodedata.lookup does,
// reporting false where CPython's re reports "undefined character name".
func lookupName(name string) (rune, bool) {
	if strings.HasPrefix(name, "HANGUL SYLLABLE ") {
		rest := name[16:]
		n, l := hangulPart(rest, hangulL)
		rest = rest[n:]
		n, v := hangulPart(rest, hangulV)
		rest = rest[n:]
		n, t := hangulPart(rest, hangulT)
		rest = rest[n:]
		if l >= 0 && v >= 0 && t >= 0 && rest == "" {
			return rune(0xac00 + (l*21+v)*28 + t), true
		}
		return 0, false
	}
	if strings.HasPrefix(name, "CJK UNIFIED IDEOGRAPH-") {
		hex := name[22:]
		if len(hex) != 4 && len(hex) != 5 {
			return 0, false
		}
		var v rune
		for i := 0; i < len(hex); i++ {
			c := hex[i]
			switch {
			case c >= '0' && c <= '9':
				v = v*16 + rune(c-'0')
			case c >= 'A' && c <= 'F':
				v = v*16 + rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return v, inRanges(cjkUnifiedRanges, v)
	}
	upper := []byte(name)
	for i, c := range upper {
		if c >= 'a' && c <= 'z' {
			upper[i] = c - 'a' + 'A'
		}
	}
	key := string(upper)
	if r, ok := nameAliases()[key]; ok {
		return r, true
	}
	nameTableOnce.Do(buildNameTable)
	i := sort.Search(len(nameTable), func(i int) bool { return nameTable[i].name >= key })
	if i < len(nameTable) && nameTable[i].name == key {
		return nameTable[i].r, true
	}
	return 0, false
}
