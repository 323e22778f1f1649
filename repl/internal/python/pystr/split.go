package pystr

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// asciiSpace marks the ASCII code points for which str.isspace is true:
// \t \n \v \f \r, \x1c-\x1f and the space.
var asciiSpace = [utf8.RuneSelf]bool{
	'\t': true, '\n': true, '\v': true, '\f': true, '\r': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true, ' ': true,
}

// isSpace reports whether r is whitespace as Python's str.isspace: of
// bidirectional class WS, B or S, or of category Zs.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && asciiSpace[r]
	}
	return hasFlag(r, fSpace)
}

// spaceAt returns whether the code point at byte i of s is whitespace, and
// its size.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiSpace[c], 1
	}
	return spaceAtSlow(s, i)
}

func spaceAtSlow(s string, i int) (bool, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	return hasFlag(r, fSpace), size
}

// spaceBefore returns whether the code point that ends at byte i of s is
// whitespace, and its size.
func spaceBefore(s string, i int) (bool, int) {
	c := s[i-1]
	if c < utf8.RuneSelf {
		return asciiSpace[c], 1
	}
	r, size := utf8.DecodeLastRuneInString(s[:i])
	return hasFlag(r, fSpace), size
}

// Split returns the words of s separated by sep, as Python's
// str.split(sep, maxsplit): at most maxsplit splits (no limit when
// maxsplit < 0); ValueError "empty separator" for an empty sep. Use
// SplitWhitespace for sep=None.
func Split(s, sep string, maxsplit int) ([]string, error) {
	if sep == "" {
		return nil, valueError("empty separator")
	}
	if !clean(sep) {
		s, sep = sanitize(s), sanitize(sep)
	}
	n := -1
	if maxsplit >= 0 && maxsplit < maxInt {
		n = maxsplit + 1
	}
	return strings.SplitN(s, sep, n), nil
}

// SplitAppend appends to dst the words Split returns, so that a caller
// that copies them elsewhere can reuse dst.
func SplitAppend(dst []string, s, sep string, maxsplit int) ([]string, error) {
	if sep == "" {
		return dst, valueError("empty separator")
	}
	if !clean(sep) {
		s, sep = sanitize(s), sanitize(sep)
	}
	if len(s) >= 1024 {
		// Many parts, likely: count them to grow dst once.
		n := strings.Count(s, sep) + 1
		if maxsplit >= 0 && maxsplit < n {
			n = maxsplit + 1
		}
		dst = slices.Grow(dst, n)
	}
	for ; maxsplit != 0; maxsplit-- {
		i := strings.Index(s, sep)
		if i < 0 {
			break
		}
		dst = append(dst, s[:i])
		s = s[i+len(sep):]
	}
	return append(dst, s), nil
}

// RSplit is Split splitting from the end, as Python's str.rsplit(sep,
// maxsplit).
func RSplit(s, sep string, maxsplit int) ([]string, error) {
	if maxsplit < 0 {
		return Split(s, sep, maxsplit)
	}
	if sep == "" {
		return nil, valueError("empty separator")
	}
	if !clean(sep) {
		s, sep = sanitize(s), sanitize(sep)
	}
	var parts []string
	i := len(s)
	for ; maxsplit > 0; maxsplit-- {
		j := strings.LastIndex(s[:i], sep)
		if j < 0 {
			break
		}
		parts = append(parts, s[j+len(sep):i])
		i = j
	}
	parts = append(parts, s[:i])
	reverse(parts)
	return parts, nil
}

func reverse(v []string) {
	for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
		v[i], v[j] = v[j], v[i]
	}
}

// SplitWhitespace returns the words of s separated by runs of whitespace,
// as Python's str.split(None, maxsplit): whitespace is what str.isspace
// accepts; leading and trailing whitespace give no empty words; after
// maxsplit splits (maxsplit >= 0), the rest of s less its leading
// whitespace is the last word.
func SplitWhitespace(s string, maxsplit int) []string {
	// Count the words, then fill a slice of that size.
	n := 0
	for i, m := 0, maxsplit; ; m-- {
		j, k := nextWord(s, i, m == 0)
		if j == k {
			break
		}
		n++
		i = k
		if m == 0 {
			break
		}
	}
	return SplitWhitespaceAppend(make([]string, 0, n), s, maxsplit)
}

// SplitWhitespaceAppend appends to dst the words SplitWhitespace returns,
// so that a caller that copies them elsewhere can reuse dst.
func SplitWhitespaceAppend(dst []string, s string, maxsplit int) []string {
	for i, m := 0, maxsplit; ; m-- {
		j, k := nextWord(s, i, m == 0)
		if j == k {
			break
		}
		dst = append(dst, s[j:k])
		i = k
		if m == 0 {
			break
		}
	}
	return dst
}

// nextWord returns the bounds of the next word of s from byte i, after
// whitespace; empty at the end. With rest set, the word runs to the end
// of s.
func nextWord(s string, i int, rest bool) (int, int) {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				break
			}
			i++
			continue
		}
		sp, size := spaceAtSlow(s, i)
		if !sp {
			break
		}
		i += size
	}
	j := i
	if rest {
		return j, len(s)
	}
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] {
				break
			}
			i++
			continue
		}
		sp, size := spaceAtSlow(s, i)
		if sp {
			break
		}
		i += size
	}
	return j, i
}

// RSplitWhitespace is SplitWhitespace splitting from the end, as Python's
// str.rsplit(None, maxsplit).
func RSplitWhitespace(s string, maxsplit int) []string {
	var parts []string
	i := len(s)
	for ; maxsplit != 0; maxsplit-- {
		for i > 0 {
			sp, size := spaceBefore(s, i)
			if !sp {
				break
			}
			i -= size
		}
		if i == 0 {
			break
		}
		j := i
		for i > 0 {
			sp, size := spaceBefore(s, i)
			if sp {
				break
			}
			i -= size
		}
		parts = append(parts, s[i:j])
	}
	if i > 0 {
		for i > 0 {
			sp, size := spaceBefore(s, i)
			if !sp {
				break
			}
			i -= size
		}
		if i > 0 {
			parts = append(parts, s[:i])
		}
	}
	if parts == nil {
		parts = []string{}
	}
	reverse(parts)
	return parts
}

// lineBreakAt returns the size of the line boundary at byte i of s, or 0:
// \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029, as Python's
// str.splitlines.
func lineBreakAt(s string, i int) int {
	switch c := s[i]; c {
	case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e:
		return 1
	case '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xC2:
		if i+1 < len(s) && s[i+1] == 0x85 {
			return 2
		}
	case 0xE2:
		if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

// SplitLines returns the lines of s, as Python's str.splitlines(keepends).
func SplitLines(s string, keepends bool) []string {
	return SplitLinesAppend([]string{}, s, keepends)
}

// SplitLinesAppend appends to dst the lines SplitLines returns, so that a
// caller that copies them elsewhere can reuse dst.
func SplitLinesAppend(parts []string, s string, keepends bool) []string {
	start := 0
	for i := 0; i < len(s); {
		n := lineBreakAt(s, i)
		if n == 0 {
			i++
			continue
		}
		if keepends {
			parts = append(parts, s[start:i+n])
		} else {
			parts = append(parts, s[start:i])
		}
		i += n
		start = i
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

// Strip returns s without leading and trailing whitespace, as Python's
// str.strip().
func Strip(s string) string { return RStrip(LStrip(s)) }

// LStrip returns s without leading whitespace, as Python's str.lstrip().
func LStrip(s string) string {
	i := 0
	for i < len(s) {
		sp, size := spaceAt(s, i)
		if !sp {
			break
		}
		i += size
	}
	return s[i:]
}

// RStrip returns s without trailing whitespace, as Python's str.rstrip().
func RStrip(s string) string {
	i := len(s)
	for i > 0 {
		sp, size := spaceBefore(s, i)
		if !sp {
			break
		}
		i -= size
	}
	return s[:i]
}

// runeSet is a set of code points: a bitmap for ASCII, a sorted slice for
// the rest.
type runeSet struct {
	ascii [2]uint64
	other []rune
}

// makeRuneSet returns the set of the code points of chars, by value: for
// ASCII chars it allocates nothing.
func makeRuneSet(chars string) runeSet {
	var set runeSet
	for _, r := range chars {
		if r < utf8.RuneSelf {
			set.ascii[r>>6] |= 1 << (r & 63)
		} else {
			set.other = append(set.other, r)
		}
	}
	if len(set.other) > 1 {
		sort.Slice(set.other, func(i, j int) bool { return set.other[i] < set.other[j] })
	}
	return set
}

func (set *runeSet) has(r rune) bool {
	if r < utf8.RuneSelf {
		return set.ascii[r>>6]&(1<<(r&63)) != 0
	}
	o := set.other
	i := sort.Search(len(o), func(i int) bool { return o[i] >= r })
	return i < len(o) && o[i] == r
}

// StripChars returns s without the leading and trailing code points that
// chars holds, as Python's str.strip(chars).
func StripChars(s, chars string) string {
	if chars == "" {
		return s
	}
	set := makeRuneSet(chars)
	return rstripSet(lstripSet(s, &set), &set)
}

// LStripChars returns s without the leading code points that chars holds,
// as Python's str.lstrip(chars).
func LStripChars(s, chars string) string {
	if chars == "" {
		return s
	}
	set := makeRuneSet(chars)
	return lstripSet(s, &set)
}

func lstripSet(s string, set *runeSet) string {
	i := 0
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if !set.has(r) {
			break
		}
		i += size
	}
	return s[i:]
}

// RStripChars returns s without the trailing code points that chars holds,
// as Python's str.rstrip(chars).
func RStripChars(s, chars string) string {
	if chars == "" {
		return s
	}
	set := makeRuneSet(chars)
	return rstripSet(s, &set)
}

func rstripSet(s string, set *runeSet) string {
	i := len(s)
	for i > 0 {
		r, size := rune(s[i-1]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeLastRuneInString(s[:i])
		}
		if !set.has(r) {
			break
		}
		i -= size
	}
	return s[:i]
}

// RemovePrefix returns s without prefix if it begins with it, as Python's
// str.removeprefix.
func RemovePrefix(s, prefix string) string {
	if clean(prefix) { // bytes match exactly where code points do
		if strings.HasPrefix(s, prefix) {
			return s[len(prefix):]
		}
		return s
	}
	x := scanIndex(s)
	n := Len(prefix)
	if n <= x.n && sameText(x.Substr(0, n), prefix) {
		return x.Substr(n, x.n)
	}
	return s
}

// RemoveSuffix returns s without suffix if it ends with it, as Python's
// str.removesuffix.
func RemoveSuffix(s, suffix string) string {
	if suffix == "" {
		return s
	}
	if clean(suffix) { // bytes match exactly where code points do
		if strings.HasSuffix(s, suffix) {
			return s[:len(s)-len(suffix)]
		}
		return s
	}
	x := scanIndex(s)
	n := Len(suffix)
	if n <= x.n && sameText(x.Substr(x.n-n, x.n), suffix) {
		return x.Substr(0, x.n-n)
	}
	return s
}

// ExpandTabs returns s with each tab replaced by spaces up to the next
// column that is a multiple of tabsize (tabs removed when tabsize <= 0),
// columns counting code points from the last \n or \r, as Python's
// str.expandtabs. It returns a *LimitError when the result would exceed
// limit bytes.
func ExpandTabs(s string, tabsize, limit int) (string, error) {
	if strings.IndexByte(s, '\t') < 0 {
		return s, nil
	}
	// First the size of the result.
	need, col := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		switch {
		case c == '\t':
			if tabsize > 0 {
				inc := tabsize - col%tabsize
				col = addSize(col, inc)
				need = addSize(need, inc)
			}
		case c == '\n' || c == '\r':
			col = 0
			need = addSize(need, 1)
		default:
			if c >= utf8.RuneSelf {
				var r rune
				r, size = utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && size == 1 {
					need = addSize(need, 2) // written as U+FFFD
				}
			}
			col = addSize(col, 1)
			need = addSize(need, size)
		}
		if col < 0 || need < 0 {
			return "", checkLimit("expandtabs", -1, limit)
		}
		i += size
	}
	if err := checkLimit("expandtabs", need, limit); err != nil {
		return "", err
	}
	b := make([]byte, 0, need)
	col = 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\t':
			if tabsize > 0 {
				inc := tabsize - col%tabsize
				col += inc
				for ; inc > 0; inc-- {
					b = append(b, ' ')
				}
			}
			i++
		case c == '\n' || c == '\r':
			col = 0
			b = append(b, c)
			i++
		case c < utf8.RuneSelf:
			col++
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			b = appendRune(b, r)
			col++
			i += size
		}
	}
	return bytesString(b), nil
}

// Builder builds a string of at most a given number of bytes, for
// str.join and the like: a write that would pass the limit fails with a
// *LimitError and leaves the builder as it was.
type Builder struct {
	b     strings.Builder
	limit int
}

// NewBuilder returns a Builder of at most limit bytes.
func NewBuilder(limit int) *Builder { return &Builder{limit: limit} }

// Grow reserves room for n more bytes, within the limit.
func (b *Builder) Grow(n int) error {
	if err := checkLimit("join", addSize(b.b.Len(), n), b.limit); err != nil {
		return err
	}
	b.b.Grow(n)
	return nil
}

// WriteString appends s.
func (b *Builder) WriteString(s string) error {
	if err := checkLimit("join", addSize(b.b.Len(), len(s)), b.limit); err != nil {
		return err
	}
	b.b.WriteString(s)
	return nil
}

// WriteRune appends the code point r (U+FFFD if r is not valid).
func (b *Builder) WriteRune(r rune) error {
	n := utf8.RuneLen(r)
	if n < 0 {
		n = 3
	}
	if err := checkLimit("join", addSize(b.b.Len(), n), b.limit); err != nil {
		return err
	}
	b.b.WriteRune(r)
	return nil
}

// Len returns the number of bytes written.
func (b *Builder) Len() int { return b.b.Len() }

// String returns the string built.
func (b *Builder) String() string { return b.b.String() }

// Join returns the parts joined with sep between them, as Python's
// str.join over strings; a *LimitError when the result would exceed limit
// bytes.
func Join(sep string, parts []string, limit int) (string, error) {
	switch len(parts) {
	case 0:
		return "", nil
	case 1:
		return parts[0], nil
	}
	need := mulSize(len(sep), len(parts)-1)
	for _, p := range parts {
		need = addSize(need, len(p))
	}
	if err := checkLimit("join", need, limit); err != nil {
		return "", err
	}
	return strings.Join(parts, sep), nil
}
