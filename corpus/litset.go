package corpus

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-go/rlm/corpus/internal/find"
	"github.com/rlm-go/rlm/corpus/internal/teddy"
)

// A regex without one required literal often still has a required literal
// set: every match contains one of a few literals (`(model|window) [a-z]+e `
// holds "model " or "window "). Search then finds the lines holding one of
// them, copies those lines into a buffer and runs the engine on the buffer
// alone. The regex cannot consume a newline (see lineOnly), so on a buffer
// of whole lines, each ending in '\n', it matches exactly where it matches
// each line on its own: the result is the same as over the whole window,
// for a fraction of the engine's work.

// maxLitSet bounds the literals of a set (each is one finder stream).
const maxLitSet = 8

// maxClassLits bounds the characters of a class expanded into literals.
const maxClassLits = 4

// litSet is a set of literals without a newline. With fold the literals
// are lower-case ASCII, matched ignoring ASCII case.
type litSet struct {
	lits []string
	fold bool
	// prefix: every match starts with one of the literals, and no
	// assertion looks before it (see prefixLitSet).
	prefix bool
}

// requiredLitSet returns a set of literals one of which every match of the
// regular expression contains, or ok false. A literal ignoring case
// becomes the literals of its runes' case folds (see foldVariants), so
// that (?i)k also finds U+212A KELVIN SIGN.
func requiredLitSet(pattern string) (litSet, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return litSet{}, false
	}
	s, ok := required(re)
	if !ok || len(s.lits) == 0 {
		return litSet{}, false
	}
	return s, true
}

// required returns a set one of which every match of re contains.
func required(re *syntax.Regexp) (litSet, bool) {
	if s, ok := exact(re); ok && !slices.Contains(s.lits, "") {
		return s, true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var u litSet
		for _, sub := range re.Sub {
			s, ok := required(sub)
			if !ok {
				return litSet{}, false
			}
			if u, ok = union(u, s); !ok {
				return litSet{}, false
			}
		}
		return u, true
	case syntax.OpConcat:
		// Any sub's set will do, and so does the product of a run of
		// consecutive subs that each match one of a few strings.
		var best litSet
		found := false
		consider := func(s litSet) {
			if len(s.lits) > 0 && !slices.Contains(s.lits, "") && (!found || better(s, best)) {
				best, found = s, true
			}
		}
		for i, sub := range re.Sub {
			if s, ok := required(sub); ok {
				consider(s)
			}
			p := litSet{lits: []string{""}}
			for _, next := range re.Sub[i:] {
				s, ok := exact(next)
				if ok {
					p, ok = product(p, s)
				}
				if !ok {
					break
				}
				consider(p)
			}
		}
		return best, found
	}
	return litSet{}, false
}

// prefixLitSet returns a set of literals one of which every match of the
// regular expression starts with, no assertion looking at the text
// before it (so a match is found as well in the text from the literal
// on), or ok false.
func prefixLitSet(pattern string) (litSet, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return litSet{}, false
	}
	s, ok := leading(re)
	if !ok || len(s.lits) == 0 || slices.Contains(s.lits, "") {
		return litSet{}, false
	}
	s.prefix = true
	return s, true
}

// leading returns a set one of which every match of re starts with.
func leading(re *syntax.Regexp) (litSet, bool) {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass:
		return exactOf(re, true)
	case syntax.OpCapture, syntax.OpPlus:
		return leading(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return leading(re.Sub[0])
		}
	case syntax.OpAlternate:
		var u litSet
		for _, sub := range re.Sub {
			s, ok := leading(sub)
			if ok && !slices.Contains(s.lits, "") {
				u, ok = union(u, s)
			}
			if !ok || slices.Contains(s.lits, "") {
				return litSet{}, false
			}
		}
		return u, true
	case syntax.OpConcat:
		p, ok := exactOf(re.Sub[0], true)
		if !ok {
			return leading(re.Sub[0])
		}
		if slices.Contains(p.lits, "") {
			return litSet{}, false
		}
		for _, next := range re.Sub[1:] { // longer literals while they stay few
			s, ok := exact(next)
			if ok {
				s, ok = product(p, s)
			}
			if !ok {
				break
			}
			p = s
		}
		return p, true
	}
	return litSet{}, false
}

// better reports whether set a is likely more selective than b: its
// shortest literal is longer, or as long with fewer literals.
func better(a, b litSet) bool {
	la, lb := minLen(a.lits), minLen(b.lits)
	if la != lb {
		return la > lb
	}
	return len(a.lits) < len(b.lits)
}

func minLen(lits []string) int {
	n := -1
	for _, l := range lits {
		if n < 0 || len(l) < n {
			n = len(l)
		}
	}
	return n
}

// exact returns the strings re matches when they are few (a zero-width
// assertion matches ""), or ok false.
func exact(re *syntax.Regexp) (litSet, bool) { return exactOf(re, false) }

// exactOf is exact; with noAssert a zero-width assertion anywhere in re
// makes it fail.
func exactOf(re *syntax.Regexp, noAssert bool) (litSet, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return litSet{lits: []string{""}}, true
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litSet{lits: []string{""}}, !noAssert
	case syntax.OpLiteral:
		// U+FFFD also matches an invalid byte (Go reads it as U+FFFD),
		// whose text does not hold its bytes.
		if slices.Contains(re.Rune, '\n') || slices.Contains(re.Rune, utf8.RuneError) {
			return litSet{}, false
		}
		if re.Flags&syntax.FoldCase == 0 {
			return litSet{lits: []string{string(re.Rune)}}, true
		}
		return foldVariants(re.Rune)
	case syntax.OpCharClass:
		var lits []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= maxClassLits || len(lits)+int(hi-lo)+1 > maxClassLits || lo <= '\n' && '\n' <= hi ||
				lo <= utf8.RuneError && utf8.RuneError <= hi {
				return litSet{}, false
			}
			for r := lo; r <= hi; r++ {
				lits = append(lits, string(r))
			}
		}
		return litSet{lits: lits}, len(lits) > 0
	case syntax.OpCapture:
		return exactOf(re.Sub[0], noAssert)
	case syntax.OpQuest:
		s, ok := exactOf(re.Sub[0], noAssert)
		if !ok {
			return litSet{}, false
		}
		return union(s, litSet{lits: []string{""}})
	case syntax.OpConcat:
		p := litSet{lits: []string{""}}
		for _, sub := range re.Sub {
			s, ok := exactOf(sub, noAssert)
			if ok {
				p, ok = product(p, s)
			}
			if !ok {
				return litSet{}, false
			}
		}
		return p, true
	case syntax.OpAlternate:
		var u litSet
		for _, sub := range re.Sub {
			s, ok := exactOf(sub, noAssert)
			if ok {
				u, ok = union(u, s)
			}
			if !ok {
				return litSet{}, false
			}
		}
		return u, true
	}
	return litSet{}, false
}

// foldVariants returns the literals a case-insensitive literal of runes
// rs matches, as a set matched ignoring ASCII case: per rune, its case
// fold orbit (unicode.SimpleFold, what Go regexp matches) with the ASCII
// members as one lower-case letter and each other member spelt out (so
// (?i)kelvin gives "kelvin" and "\u212aelvin", KELVIN SIGN); ok is false
// past maxLitSet literals.
func foldVariants(rs []rune) (litSet, bool) {
	p := litSet{lits: []string{""}, fold: true}
	for _, r := range rs {
		var alts []string
		ascii := false
		f := r
		for {
			if f < utf8.RuneSelf {
				if !ascii {
					alts = append(alts, lowerASCII(string(f)))
					ascii = true
				}
			} else {
				alts = append(alts, string(f))
			}
			if f = unicode.SimpleFold(f); f == r {
				break
			}
		}
		var ok bool
		if p, ok = product(p, litSet{lits: alts, fold: true}); !ok {
			return litSet{}, false
		}
	}
	return p, true
}

// folded returns s matched ignoring ASCII case: its literals lower-cased,
// which needs them to be ASCII (ASCII case folding leaves other bytes as
// they are, but a case-sensitive non-ASCII literal must not be folded).
func folded(s litSet) (litSet, bool) {
	if s.fold {
		return s, true
	}
	out := litSet{fold: true}
	for _, l := range s.lits {
		for i := 0; i < len(l); i++ {
			if l[i] >= utf8.RuneSelf {
				return litSet{}, false
			}
		}
		out.lits = append(out.lits, lowerASCII(l))
	}
	out.lits = dedupe(out.lits)
	return out, true
}

// align makes a and b both folded when either is.
func align(a, b litSet) (litSet, litSet, bool) {
	if a.fold == b.fold {
		return a, b, true
	}
	fa, oka := folded(a)
	fb, okb := folded(b)
	return fa, fb, oka && okb
}

// union returns the literals of a and b, at most maxLitSet.
func union(a, b litSet) (litSet, bool) {
	if a.lits == nil {
		return b, true
	}
	a, b, ok := align(a, b)
	if !ok {
		return litSet{}, false
	}
	u := litSet{lits: dedupe(append(slices.Clone(a.lits), b.lits...)), fold: a.fold}
	return u, len(u.lits) <= maxLitSet
}

// product returns the concatenations of a literal of a and one of b, at
// most maxLitSet.
func product(a, b litSet) (litSet, bool) {
	if len(a.lits)*len(b.lits) > maxLitSet {
		return litSet{}, false
	}
	a, b, ok := align(a, b)
	if !ok {
		return litSet{}, false
	}
	p := litSet{fold: a.fold}
	for _, x := range a.lits {
		for _, y := range b.lits {
			p.lits = append(p.lits, x+y)
		}
	}
	p.lits = dedupe(p.lits)
	return p, true
}

func dedupe(lits []string) []string {
	slices.Sort(lits)
	return slices.Compact(lits)
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// candidates gathers the lines of a window holding a literal of a set.
type candidates struct {
	fs   []*find.Finder // one per literal, shared between searchers
	ted  *teddy.Set     // finds the literals instead of fs, when set
	curs []find.Cursor  // per finder, over the window
	next []int          // per finder: its next occurrence in the window, -1 none
	// lines[i] and ends[i] delimit candidate line i in the window: from
	// its start (or its first literal, with prefix) to just past its
	// '\n' (the window's last line may have none).
	lines, ends []int
	// buf holds the candidate lines, each with its '\n', for the regex
	// engine; line i is buf[starts[i]:].
	buf    []byte
	starts []int
	// prefix: take each line from its first literal on, not from its
	// start (for a set every match starts with; see prefixLitSet).
	prefix bool
}

// newFinders returns a finder per literal of s, its rare bytes chosen by
// their frequency in sample.
func newFinders(s litSet, sample []byte) []*find.Finder {
	fs := make([]*find.Finder, len(s.lits))
	for i, l := range s.lits {
		if s.fold {
			fs[i] = find.NewFold([]byte(l), sample)
		} else {
			fs[i] = find.New([]byte(l), sample)
		}
	}
	return fs
}

// spans fills c.lines and c.ends with the lines of w, a window of whole
// lines, that hold a literal, in order.
func (c *candidates) spans(w []byte) {
	c.lines, c.ends = c.lines[:0], c.ends[:0]
	if c.ted != nil {
		for done := 0; done < len(w); {
			j := c.ted.Index(w[done:])
			if j < 0 {
				return
			}
			c.span(w, done, done+j)
			done = c.ends[len(c.ends)-1]
		}
		return
	}
	c.curs, c.next = c.curs[:0], c.next[:0]
	for _, f := range c.fs {
		c.curs = append(c.curs, f.Cursor(w))
		c.next = append(c.next, c.curs[len(c.curs)-1].Next(0))
	}
	done := 0 // end of the last line taken
	for {
		k := -1
		for i, p := range c.next {
			if p >= 0 && (k < 0 || p < c.next[k]) {
				k = i
			}
		}
		if k < 0 {
			return
		}
		c.span(w, done, c.next[k])
		done = c.ends[len(c.ends)-1]
		for i, p := range c.next {
			if p >= 0 && p < done {
				c.next[i] = c.curs[i].Next(done)
			}
		}
	}
}

// span adds the line of w holding the literal at m, given done, the end
// of the last line taken (a line start at or before m).
func (c *candidates) span(w []byte, done, m int) {
	ls := m
	if !c.prefix {
		ls = done + bytes.LastIndexByte(w[done:m], '\n') + 1
	}
	le := len(w)
	if j := bytes.IndexByte(w[m:], '\n'); j >= 0 {
		le = m + j + 1
	}
	c.lines = append(c.lines, ls)
	c.ends = append(c.ends, le)
}

// gather fills c.buf with the lines of w, a window of whole lines, that
// hold a literal, in order.
func (c *candidates) gather(w []byte) {
	c.spans(w)
	c.buf, c.starts = c.buf[:0], c.starts[:0]
	for i, ls := range c.lines {
		c.starts = append(c.starts, len(c.buf))
		c.buf = append(c.buf, w[ls:c.ends[i]]...)
	}
}

// line returns the index of the candidate line holding buffer offset p
// (a line's end, before its '\n', counts as in it), searching from line i.
func (c *candidates) line(i, p int) int {
	for i+1 < len(c.starts) && c.starts[i+1] <= p {
		i++
	}
	return i
}

// maxCandidateShare is the largest share of the text's sample, in bytes,
// that the candidate lines of a literal set may hold for the set to be
// used with RE2: above it copying lines costs about what the engine
// saves. With the regex's automaton (lineDFA), which checks the lines
// where they are, the set is always used.
const maxCandidateShare = 0.5

// useSet sets up the literal set s for the search when its candidate
// lines hold at most maxCandidateShare of the text's first sampleSize
// bytes (always with dfa or force). The literals are found by the vector
// multi-literal scan (package teddy) where it runs, unless noTeddy, else
// by one finder per literal.
func (sr *searcher) useSet(s litSet, dfa, force, noTeddy bool) {
	sample, err := sr.rd.read(0, sampleSize)
	if err != nil {
		return // the search itself reports it
	}
	var fs []*find.Finder
	var ted *teddy.Set
	if teddy.Vector() && !noTeddy {
		ted, _ = teddy.New(s.lits, s.fold)
	}
	if ted == nil {
		fs = newFinders(s, sample)
	}
	if !force && !dfa {
		if len(sample) < len(sr.data) {
			sample = sample[:bytes.LastIndexByte(sample, '\n')+1]
		}
		c := candidates{fs: fs, ted: ted, prefix: s.prefix}
		c.gather(sample)
		if float64(len(c.buf)) > maxCandidateShare*float64(len(sample)) {
			return
		}
	}
	sr.setFinders, sr.setTeddy, sr.setPrefix = fs, ted, s.prefix
}

// usesSet reports whether the search runs the regex on candidate lines.
func (sr *searcher) usesSet() bool { return sr.setFinders != nil || sr.setTeddy != nil }

// regexCandidates searches the window w of whole lines starting at off
// like regexIn, running the regex on the lines holding a literal of the
// set only, and reports whether the search should go on.
func (sr *searcher) regexCandidates(re *lineRegex, w []byte, off int) bool {
	if sr.cands == nil {
		sr.cands = &candidates{fs: sr.setFinders, ted: sr.setTeddy, prefix: sr.setPrefix}
	}
	c := sr.cands
	if re.dfa != nil {
		return sr.dfaCandidates(re, w, off)
	}
	c.gather(w)
	if len(c.buf) == 0 {
		return true
	}
	lineEnd := func(i int) int { // in w, before the '\n'
		le := c.ends[i]
		if w[le-1] == '\n' {
			le--
		}
		return le
	}
	if locs, ok := re.findAll(c.buf); ok {
		i, next := 0, 0 // the candidate line of the last match, the first not yet matched
		for _, loc := range locs {
			p := loc[0]
			if p == len(c.buf) && c.buf[p-1] == '\n' {
				break // past the last line
			}
			if i = c.line(i, p); i < next {
				continue
			}
			next = i + 1
			if _, goOn := sr.regexHit(w, off, c.lines[i]+p-c.starts[i]); !goOn {
				return false
			}
		}
		return true
	}
	for i, ls := range c.lines {
		loc := re.std.FindIndex(w[ls:lineEnd(i)])
		if loc == nil {
			continue
		}
		if _, goOn := sr.regexHit(w, off, ls+loc[0]); !goOn {
			return false
		}
	}
	return true
}

// nextLit returns the offset of the first literal of the set in w at or
// after from, or -1; from must not decrease between calls over one
// window (c.start begins one).
func (c *candidates) nextLit(w []byte, from int) int {
	if c.ted != nil {
		if j := c.ted.Index(w[from:]); j >= 0 {
			return from + j
		}
		return -1
	}
	k := -1
	for i, p := range c.next {
		if p >= 0 && p < from {
			p = c.curs[i].Next(from)
			c.next[i] = p
		}
		if p >= 0 && (k < 0 || p < k) {
			k = p
		}
	}
	return k
}

// start begins a walk of w with nextLit.
func (c *candidates) start(w []byte) {
	c.curs, c.next = c.curs[:0], c.next[:0]
	for _, f := range c.fs {
		c.curs = append(c.curs, f.Cursor(w))
		c.next = append(c.next, c.curs[len(c.curs)-1].Next(0))
	}
}

// dfaCandidates is regexCandidates with the regex's automaton deciding
// which candidate lines match, where they are (nothing is copied); in
// list mode Go regexp then finds the first match of each matching line.
// When every match starts with a literal of the set (prefix), the
// automaton runs anchored at each literal found and stops as soon as no
// match can start there; otherwise it runs over the line from its start.
func (sr *searcher) dfaCandidates(re *lineRegex, w []byte, off int) bool {
	if sr.dfa == nil {
		sr.dfa = newLineDFA(re.dfa, sr.setPrefix)
	}
	c := sr.cands
	c.start(w)
	le := -1 // end of the line holding the last literal (before its '\n')
	for pos := 0; pos < len(w); {
		m := c.nextLit(w, pos)
		if m < 0 {
			break
		}
		ls := m
		if m > le {
			if !sr.setPrefix {
				ls = pos + bytes.LastIndexByte(w[pos:m], '\n') + 1
			}
			le = len(w)
			if j := bytes.IndexByte(w[m:], '\n'); j >= 0 {
				le = m + j
			}
		}
		if !sr.dfa.match(w[ls:le]) {
			if sr.setPrefix {
				pos = m + 1
			} else {
				pos = le + 1
			}
			continue
		}
		pos = le + 1
		if sr.count {
			sr.n++
			sr.scanned(off + le)
			continue
		}
		loc := re.std.FindIndex(w[ls:le])
		if loc == nil {
			continue // not reached: the automaton is exact
		}
		if _, goOn := sr.regexHit(w, off, ls+loc[0]); !goOn {
			return false
		}
	}
	return true
}
