package sre

import (
	"sort"
	"unicode/utf8"
)

// testKind is the kind of a one-character test.
type testKind uint8

const (
	tkLit             testKind = iota // ch == c
	tkNotLit                          // ch != c
	tkLitIgnore                       // asciiLower(ch) == c
	tkNotLitIgnore                    // asciiLower(ch) != c
	tkLitUniIgnore                    // uniLower(ch) == c
	tkNotLitUniIgnore                 // uniLower(ch) != c
	tkLitLocIgnore                    // ch, or its C-locale lower or upper case, == c
	tkNotLitLocIgnore                 // negation of tkLitLocIgnore
	tkAny                             // ch != '\n'
	tkAnyAll                          // any character
	tkSet                             // set.has(ch)
	tkSetIgnore                       // set.has(asciiLower(ch))
	tkSetUniIgnore                    // set.has(uniLower(ch))
	tkSetLocIgnore                    // set.has(lower) or (upper != lower and set.has(upper))
)

// charTest is a test of one character: sre's LITERAL, NOT_LITERAL, ANY,
// ANY_ALL and IN opcodes and their case-insensitive variants.
type charTest struct {
	kind testKind
	c    rune
	set  *charSet
	// fast holds the test's answer for code points below 256.
	fast [4]uint64
}

func (t *charTest) init() {
	set := func(c rune) {
		if uint32(c) < 256 {
			t.fast[c>>6] |= 1 << (c & 63)
		}
	}
	switch t.kind {
	case tkLit:
		set(t.c)
	case tkNotLit:
		t.fast = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		if uint32(t.c) < 256 {
			t.fast[t.c>>6] &^= 1 << (t.c & 63)
		}
	case tkAnyAll:
		t.fast = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	case tkAny:
		t.fast = [4]uint64{^uint64(0) &^ (1 << '\n'), ^uint64(0), ^uint64(0), ^uint64(0)}
	default:
		for c := rune(0); c < 256; c++ {
			if t.slowMatch(c) {
				set(c)
			}
		}
	}
}

// match reports whether the test accepts ch.
func (t *charTest) match(ch rune) bool {
	if uint32(ch) < 256 {
		return t.fast[ch>>6]&(1<<(ch&63)) != 0
	}
	return t.slowMatch(ch)
}

func (t *charTest) slowMatch(ch rune) bool {
	switch t.kind {
	case tkLit:
		return ch == t.c
	case tkNotLit:
		return ch != t.c
	case tkLitIgnore:
		return asciiLower(ch) == t.c
	case tkNotLitIgnore:
		return asciiLower(ch) != t.c
	case tkLitUniIgnore:
		return uniLower(ch) == t.c
	case tkNotLitUniIgnore:
		return uniLower(ch) != t.c
	case tkLitLocIgnore:
		return locIgnore(t.c, ch)
	case tkNotLitLocIgnore:
		return !locIgnore(t.c, ch)
	case tkAny:
		return ch != '\n'
	case tkAnyAll:
		return true
	case tkSet:
		return t.set.has(ch)
	case tkSetIgnore:
		return t.set.has(asciiLower(ch))
	case tkSetUniIgnore:
		return t.set.has(uniLower(ch))
	case tkSetLocIgnore:
		lo := locLower(ch)
		if t.set.has(lo) {
			return true
		}
		up := locUpper(ch)
		return up != lo && t.set.has(up)
	}
	return false
}

// locLower and locUpper are sre's C-locale case mappings (the C and UTF-8
// locales map only ASCII letters).
func locLower(ch rune) rune {
	if ch < 256 {
		return asciiLower(ch)
	}
	return ch
}

func locUpper(ch rune) rune {
	if ch < 256 {
		return asciiUpper(ch)
	}
	return ch
}

func locIgnore(pattern, ch rune) bool {
	return ch == pattern || locLower(ch) == pattern || locUpper(ch) == pattern
}

// charSet is a compiled character class: a union of members, possibly
// negated, tested on the (possibly case-folded) character.
type charSet struct {
	negate    bool
	lo        [4]uint64   // members below 256
	ranges    []runeRange // members from 256 on, sorted and disjoint
	cats      []uint8     // categories
	uniIgnore []runeRange // sre's RANGE_UNI_IGNORE items
}

func (s *charSet) has(ch rune) bool {
	hit := false
	if uint32(ch) < 256 {
		hit = s.lo[ch>>6]&(1<<(ch&63)) != 0
	} else {
		hit = inRanges(s.ranges, ch)
	}
	if !hit {
		for _, c := range s.cats {
			if category(c, ch) {
				hit = true
				break
			}
		}
	}
	if !hit {
		for _, r := range s.uniIgnore {
			if r.lo <= ch && ch <= r.hi {
				hit = true
				break
			}
			if u := uniUpper(ch); r.lo <= u && u <= r.hi {
				hit = true
				break
			}
		}
	}
	return hit != s.negate
}

// category is sre's category test.
func category(cat uint8, ch rune) bool {
	switch cat {
	case catDigit:
		return isASCIIDigit(ch)
	case catNotDigit:
		return !isASCIIDigit(ch)
	case catSpace:
		return isASCIISpace(ch)
	case catNotSpace:
		return !isASCIISpace(ch)
	case catWord, catLocWord:
		return isASCIIWord(ch)
	case catNotWord, catLocNotWord:
		return !isASCIIWord(ch)
	case catUniDigit:
		return isUniDigit(ch)
	case catUniNotDigit:
		return !isUniDigit(ch)
	case catUniSpace:
		return isUniSpace(ch)
	case catUniNotSpace:
		return !isUniSpace(ch)
	case catUniWord:
		return isUniWord(ch)
	case catUniNotWord:
		return !isUniWord(ch)
	}
	return false
}

// foldMode is how a pattern region compares letters.
type foldMode uint8

const (
	foldNone  foldMode = iota // exact (also LOCALE|IGNORECASE, folded at match time)
	foldASCII                 // IGNORECASE without UNICODE
	foldUni                   // IGNORECASE with UNICODE
)

func foldOf(flags Flag) foldMode {
	if flags&IGNORECASE == 0 || flags&LOCALE != 0 {
		return foldNone
	}
	if flags&UNICODE != 0 {
		return foldUni
	}
	return foldASCII
}

func (f foldMode) lower(c rune) rune {
	if f == foldUni {
		return uniLower(c)
	}
	return asciiLower(c)
}

func (f foldMode) isCased(c rune) bool {
	if f == foldUni {
		return uniIsCased(c)
	}
	return asciiIsCased(c)
}

// mapCategory applies the compile-time category mapping for flags.
func mapCategory(cat rune, flags Flag) uint8 {
	switch {
	case flags&LOCALE != 0:
		switch cat {
		case catWord:
			return catLocWord
		case catNotWord:
			return catLocNotWord
		}
	case flags&UNICODE != 0:
		return uint8(cat) + catUniDigit
	}
	return uint8(cat)
}

// setBuilder collects the members of a set.
type setBuilder struct {
	set    charSet
	ranges []runeRange
}

func (b *setBuilder) add(lo, hi rune) {
	for c := lo; c <= hi && c < 256; c++ {
		b.set.lo[c>>6] |= 1 << (c & 63)
	}
	if hi >= 256 {
		b.ranges = append(b.ranges, runeRange{max(lo, 256), hi})
	}
}

func (b *setBuilder) finish() *charSet {
	rs := b.ranges
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	var out []runeRange
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	b.set.ranges = out
	s := b.set
	return &s
}

// anyCasedIn reports whether [lo, hi] holds a cased code point for fold.
func anyCasedIn(fold foldMode, lo, hi rune) bool {
	if fold == foldASCII {
		return lo <= 'z' && hi >= 'A' && !(lo > 'Z' && hi < 'a')
	}
	for _, ps := range [][]casePair{lowerPairs, upperPairs} {
		i := sort.Search(len(ps), func(i int) bool { return ps[i].from >= lo })
		if i < len(ps) && ps[i].from <= hi {
			return true
		}
	}
	return false
}

// buildSet compiles set items as sre_compile._optimize_charset does and
// returns the set and whether it holds cased characters (hascased).
func buildSet(items []setItem, flags Flag) (*charSet, bool) {
	fold := foldOf(flags)
	var b setBuilder
	hascased := false
	addFixes := func(lo rune) {
		if fold == foldUni {
			for _, k := range extraCases()[lo] {
				b.add(k, k)
			}
		}
	}
	for _, it := range items {
		switch it.kind {
		case sNegate:
			b.set.negate = true
		case sCategory:
			b.set.cats = append(b.set.cats, mapCategory(it.lo, flags))
		case sLiteral:
			if fold == foldNone {
				b.add(it.lo, it.lo)
				continue
			}
			lo := fold.lower(it.lo)
			if lo >= 0x10000 {
				// CPython keeps the character itself, unfolded.
				b.add(it.lo, it.lo)
				hascased = true
				continue
			}
			b.add(lo, lo)
			addFixes(lo)
			if !hascased && fold.isCased(it.lo) {
				hascased = true
			}
		case sRange:
			a, z := it.lo, it.hi
			if fold == foldNone {
				b.add(a, z)
				continue
			}
			if bmp := min(z, 0xffff); a <= bmp {
				// Only fixed points of fold are ever looked up, so the range
				// itself may stay; add the case-folded images.
				b.add(a, bmp)
				if fold == foldASCII {
					if l, h := max(a, 'A'), min(bmp, 'Z'); l <= h {
						b.add(l+32, h+32)
					}
				} else {
					i := sort.Search(len(lowerPairs), func(i int) bool { return lowerPairs[i].from >= a })
					for ; i < len(lowerPairs) && lowerPairs[i].from <= bmp; i++ {
						to := lowerPairs[i].to
						b.add(to, to)
					}
					for k, vs := range extraCases() {
						in := a <= k && k <= bmp && uniLower(k) == k
						if !in {
							for _, c := range lowerPreimage[k] {
								if a <= c && c <= bmp {
									in = true
									break
								}
							}
						}
						if in {
							for _, v := range vs {
								b.add(v, v)
							}
						}
					}
				}
			}
			if z >= 0x10000 {
				b.set.uniIgnore = append(b.set.uniIgnore, runeRange{a, z})
				hascased = true
			} else if !hascased {
				hascased = anyCasedIn(fold, a, z)
			}
		}
	}
	return b.finish(), hascased
}

// firstBytes returns the bytes that can begin a character t accepts: for
// byte mode the bytes themselves; for UTF-8 the ASCII bytes accepted, the
// lead bytes of accepted non-ASCII characters, or every byte from 0x80
// when invalid UTF-8 (read as U+FFFD) may be accepted or the answer is
// unclear.
func (t *charTest) firstBytes(byteMode bool, out *[256]bool) {
	if byteMode {
		for c := 0; c < 256; c++ {
			if t.match(rune(c)) {
				out[c] = true
			}
		}
		return
	}
	for c := 0; c < 128; c++ {
		if t.match(rune(c)) {
			out[c] = true
		}
	}
	high := t.highChars()
	if high == nil {
		for c := 0x80; c < 256; c++ {
			out[c] = true
		}
		return
	}
	for _, r := range high {
		if r == utf8.RuneError || !utf8.ValidRune(r) {
			for c := 0x80; c < 256; c++ {
				out[c] = true
			}
			return
		}
		var buf [utf8.UTFMax]byte
		utf8.EncodeRune(buf[:], r)
		out[buf[0]] = true
	}
}

// highChars lists every non-ASCII code point the test may accept, or
// returns nil when that set is large or unknown.
func (t *charTest) highChars() []rune {
	with := func(cs []rune) []rune {
		var out []rune
		for _, c := range cs {
			if c >= 0x80 {
				out = append(out, c)
			}
			for _, p := range lowerPreimage[c] {
				if p >= 0x80 {
					out = append(out, p)
				}
			}
		}
		if out == nil {
			out = []rune{}
		}
		return out
	}
	switch t.kind {
	case tkLit:
		if t.c >= 0x80 {
			return []rune{t.c}
		}
		return []rune{}
	case tkLitIgnore:
		if t.c >= 0x80 {
			return []rune{t.c}
		}
		return []rune{}
	case tkLitUniIgnore:
		return with([]rune{t.c})
	case tkSet, tkSetIgnore, tkSetUniIgnore:
		s := t.set
		if s.negate || len(s.uniIgnore) > 0 {
			return nil
		}
		for _, c := range s.cats {
			switch c {
			case catDigit, catSpace, catWord, catLocWord:
			default:
				return nil
			}
		}
		var members []rune
		for c := rune(0); c < 256; c++ {
			if s.lo[c>>6]&(1<<(c&63)) != 0 {
				members = append(members, c)
			}
		}
		total := 0
		for _, r := range s.ranges {
			total += int(r.hi-r.lo) + 1
			if total > 4096 {
				return nil
			}
			for c := r.lo; c <= r.hi; c++ {
				members = append(members, c)
			}
		}
		if t.kind == tkSetUniIgnore {
			return with(members)
		}
		var out []rune
		for _, c := range members {
			if c >= 0x80 {
				out = append(out, c)
			}
		}
		if out == nil {
			out = []rune{}
		}
		return out
	}
	return nil
}
