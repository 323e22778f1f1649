package sre

import (
	"strconv"
	"strings"
	"unicode"
)

// Flag is a set of regular-expression flags with CPython's re values.
type Flag int

// The flags of Python's re module, with their CPython values.
const (
	TEMPLATE   Flag = 1
	IGNORECASE Flag = 2
	LOCALE     Flag = 4
	MULTILINE  Flag = 8
	DOTALL     Flag = 16
	UNICODE    Flag = 32
	VERBOSE    Flag = 64
	DEBUG      Flag = 128
	ASCII      Flag = 256
)

const (
	typeFlags   = ASCII | LOCALE | UNICODE
	globalFlags = DEBUG | TEMPLATE

	// maxRepeat is sre's MAXREPEAT: the largest repeat count plus one, and
	// the "no upper bound" marker.
	maxRepeat = 1<<32 - 1
	// maxGroups is sre's MAXGROUPS on 64-bit builds.
	maxGroups = 1<<30 - 1
	// maxCode is sre's MAXCODE (4-byte code words).
	maxCode = 1<<32 - 1
	// widthCap stands for any width at or beyond CPython's MAXWIDTH (2**64);
	// widths saturate there, which keeps every comparison CPython makes.
	widthCap = 1 << 62
	// maxNesting bounds the parser's recursion (two levels per group, one
	// per conditional) where CPython's recursive parser, called from the top
	// level of a script, raises RecursionError: it accepts 495 nested
	// groups and no more.
	maxNesting = 992
)

// flagLetter maps an inline flag letter to its flag (0: not a flag letter).
func flagLetter(c rune) Flag {
	switch c {
	case 'i':
		return IGNORECASE
	case 'L':
		return LOCALE
	case 'm':
		return MULTILINE
	case 's':
		return DOTALL
	case 'x':
		return VERBOSE
	case 'a':
		return ASCII
	case 't':
		return TEMPLATE
	case 'u':
		return UNICODE
	}
	return 0
}

// AST node kinds, after sre_parse's opcodes.
type nodeKind uint8

const (
	nLiteral nodeKind = iota
	nNotLiteral
	nAny
	nIn
	nAt
	nBranch
	nSubpattern
	nAtomic
	nMaxRepeat
	nMinRepeat
	nPossRepeat
	nGroupref
	nGrouprefExists
	nAssert
	nAssertNot
)

// Zero-width position codes (sre's AT_* codes).
const (
	atBeginning = iota
	atBeginningLine
	atBeginningString
	atBoundary
	atNonBoundary
	atEnd
	atEndLine
	atEndString
	atLocBoundary
	atLocNonBoundary
	atUniBoundary
	atUniNonBoundary
)

// Character categories (sre's CATEGORY_* codes).
const (
	catDigit = iota
	catNotDigit
	catSpace
	catNotSpace
	catWord
	catNotWord
	catLocWord
	catLocNotWord
	catUniDigit
	catUniNotDigit
	catUniSpace
	catUniNotSpace
	catUniWord
	catUniNotWord
)

// Set item kinds inside [...].
type setKind uint8

const (
	sLiteral setKind = iota
	sRange
	sCategory
	sNegate
)

type setItem struct {
	kind   setKind
	lo, hi rune // literal: lo; range: lo..hi; category: lo
}

// node is one item of a parsed pattern, as sre_parse's (op, av) pairs.
type node struct {
	kind     nodeKind
	c        rune      // literal, at code, referenced group, or condition group
	set      []setItem // nIn
	min, max int64     // repeats
	body     *seq      // repeat item, group body, atomic/assert body, "yes" branch
	no       *seq      // "no" branch of a conditional, or nil
	alts     []*seq    // nBranch
	group    int       // nSubpattern: group number, 0 when not capturing
	addFlags Flag      // nSubpattern
	delFlags Flag      // nSubpattern
	dir      int       // nAssert, nAssertNot: 1 ahead, -1 behind
}

// seq is a sequence of nodes (sre_parse's SubPattern).
type seq struct {
	nodes    []*node
	widthSet bool
	lo, hi   uint64
}

// sameValue reports whether two nodes compare equal as sre_parse's tuples
// do: value equality for plain items, identity for anything holding a
// SubPattern.
func sameValue(a, b *node) bool {
	if a == b {
		return true
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case nLiteral, nNotLiteral, nAt, nGroupref:
		return a.c == b.c
	case nAny:
		return true
	case nIn:
		if len(a.set) != len(b.set) {
			return false
		}
		for i := range a.set {
			if a.set[i] != b.set[i] {
				return false
			}
		}
		return true
	}
	return false
}

func satAdd(a, b uint64) uint64 {
	if a >= widthCap || b >= widthCap || a+b >= widthCap {
		return widthCap
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= widthCap || b >= widthCap || a > widthCap/b {
		return widthCap
	}
	return a * b
}

// width computes sre_parse's SubPattern.getwidth (saturated at widthCap).
func (s *seq) width(p *parser) (uint64, uint64) {
	if s.widthSet {
		return s.lo, s.hi
	}
	var lo, hi uint64
	for _, n := range s.nodes {
		switch n.kind {
		case nBranch:
			var i uint64 = widthCap
			var j uint64
			for _, a := range n.alts {
				l, h := a.width(p)
				i = min(i, l)
				j = max(j, h)
			}
			lo, hi = satAdd(lo, i), satAdd(hi, j)
		case nAtomic, nSubpattern:
			i, j := n.body.width(p)
			lo, hi = satAdd(lo, i), satAdd(hi, j)
		case nMaxRepeat, nMinRepeat, nPossRepeat:
			i, j := n.body.width(p)
			lo = satAdd(lo, satMul(i, uint64(n.min)))
			if n.max == maxRepeat && j != 0 {
				hi = widthCap
			} else {
				hi = satAdd(hi, satMul(j, uint64(n.max)))
			}
		case nAny, nIn, nLiteral, nNotLiteral:
			lo, hi = satAdd(lo, 1), satAdd(hi, 1)
		case nGroupref:
			w := p.groupWidths[n.c]
			lo, hi = satAdd(lo, w[0]), satAdd(hi, w[1])
		case nGrouprefExists:
			i, j := n.body.width(p)
			if n.no != nil {
				l, h := n.no.width(p)
				i = min(i, l)
				j = max(j, h)
			} else {
				i = 0
			}
			lo, hi = satAdd(lo, i), satAdd(hi, j)
		}
	}
	s.lo, s.hi, s.widthSet = lo, hi, true
	return lo, hi
}

// Warning is a warning CPython emits while compiling a pattern or template.
type Warning struct {
	Category string // "FutureWarning" or "DeprecationWarning"
	Msg      string
}

// token is one pattern token: a character, or a backslash and a character.
type token struct {
	c   rune
	esc bool
	eof bool
}

func (t token) is(c rune) bool { return !t.eof && !t.esc && t.c == c }

func (t token) len() int {
	if t.esc {
		return 2
	}
	return 1
}

func (t token) text() []rune {
	if t.esc {
		return []rune{'\\', t.c}
	}
	return []rune{t.c}
}

// tokenizer follows sre_parse's Tokenizer.
type tokenizer struct {
	src     []rune
	pattern string
	isText  bool
	index   int
	next    token
	err     *Error
}

func newTokenizer(pattern string, isBytes bool) *tokenizer {
	t := &tokenizer{pattern: pattern, isText: !isBytes}
	if isBytes {
		t.src = make([]rune, len(pattern))
		for i := 0; i < len(pattern); i++ {
			t.src[i] = rune(pattern[i])
		}
	} else {
		t.src = []rune(pattern)
	}
	t.advance()
	return t
}

// errorAt builds an error at the current position minus offset; a pending
// tokenizer error (raised first in CPython) wins.
func (t *tokenizer) errorAt(msg string, offset int) *Error {
	if t.err != nil {
		return t.err
	}
	if !t.isText {
		msg = backslashReplace(msg)
	}
	return newError(msg, t.pattern, t.src, !t.isText, t.tell()-offset)
}

func (t *tokenizer) advance() {
	if t.err != nil {
		return
	}
	i := t.index
	if i >= len(t.src) {
		t.next = token{eof: true}
		return
	}
	c := t.src[i]
	if c == '\\' {
		if i+1 >= len(t.src) {
			t.err = newError("bad escape (end of pattern)", t.pattern, t.src, !t.isText, len(t.src)-1)
			return
		}
		t.next = token{c: t.src[i+1], esc: true}
		t.index = i + 2
		return
	}
	t.next = token{c: c}
	t.index = i + 1
}

func (t *tokenizer) match(c rune) bool {
	if t.next.is(c) {
		t.advance()
		return true
	}
	return false
}

func (t *tokenizer) get() token {
	this := t.next
	t.advance()
	return this
}

func (t *tokenizer) tell() int {
	if t.next.eof {
		return t.index
	}
	return t.index - t.next.len()
}

func (t *tokenizer) seek(i int) {
	t.index = i
	t.advance()
}

// getWhile takes up to n single-character tokens from set.
func (t *tokenizer) getWhile(n int, set func(rune) bool) []rune {
	var out []rune
	for range n {
		if t.err != nil || t.next.eof || t.next.esc || !set(t.next.c) {
			break
		}
		out = append(out, t.next.c)
		t.advance()
	}
	return out
}

// getUntil reads tokens up to terminator, as Tokenizer.getuntil.
func (t *tokenizer) getUntil(term rune, name string) ([]rune, *Error) {
	var result []rune
	for {
		c := t.next
		t.advance()
		if t.err != nil {
			return nil, t.err
		}
		if c.eof {
			if len(result) == 0 {
				return nil, t.errorAt("missing "+name, 0)
			}
			return nil, t.errorAt("missing "+string(term)+", unterminated name", len(result))
		}
		if c.is(term) {
			if len(result) == 0 {
				return nil, t.errorAt("missing "+name, 1)
			}
			break
		}
		result = append(result, c.text()...)
	}
	return result, nil
}

func isASCIIRunes(s []rune) bool {
	for _, c := range s {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// isDecimalASCII reports str.isdecimal() and str.isascii() together.
func isDecimalASCII(s []rune) bool {
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (t *tokenizer) checkGroupName(name []rune, offset int) *Error {
	if !t.isText && !isASCIIRunes(name) {
		return t.errorAt("bad character in group name "+pyASCII(name), len(name)+offset)
	}
	if !isIdentifier(name) {
		return t.errorAt("bad character in group name "+pyRepr(name), len(name)+offset)
	}
	return nil
}

// decimalText returns the decimal value of ASCII digits as Python prints
// int(s), and the value capped at limit.
func decimalText(s []rune, limit int64) (string, int64) {
	i := 0
	for i < len(s)-1 && s[i] == '0' {
		i++
	}
	text := string(s[i:])
	var v int64
	for _, c := range s[i:] {
		if v > limit {
			break
		}
		v = v*10 + int64(c-'0')
	}
	return text, min(v, limit+1)
}

type grouprefPos struct{ group, pos int }

// parser holds sre_parse's State.
type parser struct {
	tok              *tokenizer
	flags            Flag
	groupNames       map[string]int
	groupOrder       []string
	groupWidths      [][2]uint64
	groupClosed      []bool
	lookbehindGroups int // -1 for None
	grouprefPos      []grouprefPos
	warnings         []Warning
	depth            int
}

func (p *parser) groups() int { return len(p.groupWidths) }

func (p *parser) checkGroup(gid int) bool { return gid < p.groups() && p.groupClosed[gid] }

func (p *parser) checkLookbehindGroup(gid int) *Error {
	if p.lookbehindGroups >= 0 {
		if !p.checkGroup(gid) {
			return p.tok.errorAt("cannot refer to an open group", 0)
		}
		if gid >= p.lookbehindGroups {
			return p.tok.errorAt("cannot refer to group defined in the same lookbehind subpattern", 0)
		}
	}
	return nil
}

func (p *parser) warn(category, msg string) {
	p.warnings = append(p.warnings, Warning{Category: category, Msg: msg})
}

var errRecursion = &PyError{Type: "RecursionError", Msg: "maximum recursion depth exceeded"}

// parseResult is a parsed pattern.
type parseResult struct {
	seq        *seq
	flags      Flag
	groups     int // including group 0
	groupNames map[string]int
	groupOrder []string
	warnings   []Warning
	p          *parser
}

// parse parses a pattern as sre_parse.parse does.
func parse(pattern string, isBytes bool, flags Flag) (res *parseResult, err error) {
	tok := newTokenizer(pattern, isBytes)
	if tok.err != nil {
		return nil, tok.err
	}
	var p *parser
	defer func() {
		if err != nil {
			err = withWarnings(err, p.warnings)
		}
	}()
	p = &parser{
		tok:              tok,
		flags:            flags,
		groupNames:       map[string]int{},
		groupWidths:      [][2]uint64{{0, 0}},
		groupClosed:      []bool{false},
		lookbehindGroups: -1,
	}
	s, err := p.parseSub(flags&VERBOSE != 0, 0)
	if err != nil {
		return nil, err
	}
	fixed, err := fixFlags(isBytes, p.flags)
	if err != nil {
		return nil, err
	}
	p.flags = fixed
	if !tok.next.eof {
		return nil, tok.errorAt("unbalanced parenthesis", 0)
	}
	for _, g := range p.grouprefPos {
		if g.group >= p.groups() {
			return nil, newError("invalid group reference "+strconv.Itoa(g.group), pattern, tok.src, isBytes, g.pos)
		}
	}
	if flags&DEBUG != 0 {
		return nil, &UnsupportedError{What: "the re.DEBUG flag (printing the parsed pattern)"}
	}
	return &parseResult{seq: s, flags: p.flags, groups: p.groups(), groupNames: p.groupNames,
		groupOrder: p.groupOrder, warnings: p.warnings, p: p}, nil
}

// fixFlags is sre_parse.fix_flags.
func fixFlags(isBytes bool, flags Flag) (Flag, error) {
	if !isBytes {
		if flags&LOCALE != 0 {
			return 0, &PyError{Type: "ValueError", Msg: "cannot use LOCALE flag with a str pattern"}
		}
		if flags&ASCII == 0 {
			flags |= UNICODE
		} else if flags&UNICODE != 0 {
			return 0, &PyError{Type: "ValueError", Msg: "ASCII and UNICODE flags are incompatible"}
		}
	} else {
		if flags&UNICODE != 0 {
			return 0, &PyError{Type: "ValueError", Msg: "cannot use UNICODE flag with a bytes pattern"}
		}
		if flags&LOCALE != 0 && flags&ASCII != 0 {
			return 0, &PyError{Type: "ValueError", Msg: "ASCII and LOCALE flags are incompatible"}
		}
	}
	return flags, nil
}

// parseSub parses an alternation (sre_parse._parse_sub).
func (p *parser) parseSub(verbose bool, nested int) (*seq, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, errRecursion
	}
	var items []*seq
	for {
		item, err := p.parseSeq(verbose, nested+1, nested == 0 && len(items) == 0)
		if err != nil {
			return nil, err
		}
		items = append(items, item)
		if !p.tok.match('|') {
			break
		}
		if p.tok.err != nil {
			return nil, p.tok.err
		}
		if nested == 0 {
			verbose = p.flags&VERBOSE != 0
		}
	}
	if len(items) == 1 {
		return items[0], nil
	}
	out := &seq{}
	// Move a prefix common to every alternative out of the branch.
	for {
		var prefix *node
		common := true
		for _, it := range items {
			if len(it.nodes) == 0 {
				common = false
				break
			}
			if prefix == nil {
				prefix = it.nodes[0]
			} else if !sameValue(it.nodes[0], prefix) {
				common = false
				break
			}
		}
		if !common {
			break
		}
		for _, it := range items {
			it.nodes = it.nodes[1:]
		}
		out.nodes = append(out.nodes, prefix)
	}
	// A branch of single characters and sets becomes one set.
	var set []setItem
	allChars := true
	for _, it := range items {
		if len(it.nodes) != 1 {
			allChars = false
			break
		}
		n := it.nodes[0]
		if n.kind == nLiteral {
			set = append(set, setItem{kind: sLiteral, lo: n.c})
		} else if n.kind == nIn && n.set[0].kind != sNegate {
			set = append(set, n.set...)
		} else {
			allChars = false
			break
		}
	}
	if allChars {
		out.nodes = append(out.nodes, &node{kind: nIn, set: uniqSet(set)})
		return out, nil
	}
	out.nodes = append(out.nodes, &node{kind: nBranch, alts: items})
	return out, nil
}

func uniqSet(set []setItem) []setItem {
	seen := make(map[setItem]bool, len(set))
	out := set[:0:0]
	for _, it := range set {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

const specialChars = ".\\[{()*+?^$|"

func isOctDigit(c rune) bool { return c >= '0' && c <= '7' }
func isDigit(c rune) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c rune) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
func isASCIILetter(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isVerboseSpace(c rune) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// parseSeq parses a sequence (sre_parse._parse).
func (p *parser) parseSeq(verbose bool, nested int, first bool) (*seq, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, errRecursion
	}
	t := p.tok
	sub := &seq{}
	for {
		if t.err != nil {
			return nil, t.err
		}
		this := t.next
		if this.eof {
			break
		}
		if this.is('|') || this.is(')') {
			break
		}
		t.advance()
		if t.err != nil {
			return nil, t.err
		}
		if verbose && !this.esc {
			if isVerboseSpace(this.c) {
				continue
			}
			if this.c == '#' {
				for {
					c := t.get()
					if t.err != nil {
						return nil, t.err
					}
					if c.eof || c.is('\n') {
						break
					}
				}
				continue
			}
		}
		switch {
		case this.esc:
			n, err := p.parseEscape(this)
			if err != nil {
				return nil, err
			}
			sub.nodes = append(sub.nodes, n)
		case !strings.ContainsRune(specialChars, this.c):
			sub.nodes = append(sub.nodes, &node{kind: nLiteral, c: this.c})
		case this.c == '[':
			n, err := p.parseClass(nested)
			if err != nil {
				return nil, err
			}
			sub.nodes = append(sub.nodes, n)
		case this.c == '*' || this.c == '+' || this.c == '?' || this.c == '{':
			if err := p.parseRepeat(sub, this); err != nil {
				return nil, err
			}
		case this.c == '.':
			sub.nodes = append(sub.nodes, &node{kind: nAny})
		case this.c == '(':
			if err := p.parseGroup(sub, &verbose, nested, first); err != nil {
				return nil, err
			}
		case this.c == '^':
			sub.nodes = append(sub.nodes, &node{kind: nAt, c: atBeginning})
		case this.c == '$':
			sub.nodes = append(sub.nodes, &node{kind: nAt, c: atEnd})
		}
	}
	// Unpack non-capturing groups without flags.
	var out []*node
	for _, n := range sub.nodes {
		if n.kind == nSubpattern && n.group == 0 && n.addFlags == 0 && n.delFlags == 0 {
			out = append(out, n.body.nodes...)
		} else {
			out = append(out, n)
		}
	}
	sub.nodes = out
	return sub, nil
}

// parseRepeat handles a repeat character after an item.
func (p *parser) parseRepeat(sub *seq, this token) error {
	t := p.tok
	here := t.tell()
	var lo, hi int64
	switch this.c {
	case '?':
		lo, hi = 0, 1
	case '*':
		lo, hi = 0, maxRepeat
	case '+':
		lo, hi = 1, maxRepeat
	case '{':
		if t.next.is('}') {
			sub.nodes = append(sub.nodes, &node{kind: nLiteral, c: '{'})
			return nil
		}
		lo, hi = 0, maxRepeat
		var loText, hiText []rune
		for !t.next.eof && !t.next.esc && isDigit(t.next.c) {
			loText = append(loText, t.get().c)
			if t.err != nil {
				return t.err
			}
		}
		if t.match(',') {
			for !t.next.eof && !t.next.esc && isDigit(t.next.c) {
				hiText = append(hiText, t.get().c)
				if t.err != nil {
					return t.err
				}
			}
		} else {
			hiText = loText
		}
		if t.err != nil {
			return t.err
		}
		if !t.match('}') {
			if t.err != nil {
				return t.err
			}
			sub.nodes = append(sub.nodes, &node{kind: nLiteral, c: '{'})
			t.seek(here)
			if t.err != nil {
				return t.err
			}
			return nil
		}
		if t.err != nil {
			return t.err
		}
		if len(loText) > 0 {
			_, v := decimalText(loText, maxRepeat)
			if v >= maxRepeat {
				return &PyError{Type: "OverflowError", Msg: "the repetition number is too large"}
			}
			lo = v
		}
		if len(hiText) > 0 {
			_, v := decimalText(hiText, maxRepeat)
			if v >= maxRepeat {
				return &PyError{Type: "OverflowError", Msg: "the repetition number is too large"}
			}
			hi = v
			if hi < lo {
				return t.errorAt("min repeat greater than max repeat", t.tell()-here)
			}
		}
	}
	var last *node
	if len(sub.nodes) > 0 {
		last = sub.nodes[len(sub.nodes)-1]
	}
	if last == nil || last.kind == nAt {
		return t.errorAt("nothing to repeat", t.tell()-here+this.len())
	}
	if last.kind == nMaxRepeat || last.kind == nMinRepeat || last.kind == nPossRepeat {
		return t.errorAt("multiple repeat", t.tell()-here+this.len())
	}
	item := &seq{nodes: []*node{last}}
	if last.kind == nSubpattern && last.group == 0 && last.addFlags == 0 && last.delFlags == 0 {
		item = last.body
	}
	kind := nMaxRepeat
	if t.match('?') {
		kind = nMinRepeat
	} else if t.err == nil && t.match('+') {
		kind = nPossRepeat
	}
	if t.err != nil {
		return t.err
	}
	sub.nodes[len(sub.nodes)-1] = &node{kind: kind, min: lo, max: hi, body: item}
	return nil
}

// parseGroup handles everything that starts with "(".
func (p *parser) parseGroup(sub *seq, verbose *bool, nested int, first bool) error {
	t := p.tok
	start := t.tell() - 1
	capture := true
	atomic := false
	var name []rune
	hasName := false
	var addFlags, delFlags Flag
	if t.match('?') {
		char := t.get()
		if t.err != nil {
			return t.err
		}
		if char.eof {
			return t.errorAt("unexpected end of pattern", 0)
		}
		switch {
		case char.is('P'):
			if t.match('<') {
				n, err := t.getUntil('>', "group name")
				if err != nil {
					return err
				}
				if err := t.checkGroupName(n, 1); err != nil {
					return err
				}
				name, hasName = n, true
			} else if t.err == nil && t.match('=') {
				n, err := t.getUntil(')', "group name")
				if err != nil {
					return err
				}
				if err := t.checkGroupName(n, 1); err != nil {
					return err
				}
				gid, ok := p.groupNames[string(n)]
				if !ok {
					return t.errorAt("unknown group name "+pyRepr(n), len(n)+1)
				}
				if !p.checkGroup(gid) {
					return t.errorAt("cannot refer to an open group", len(n)+1)
				}
				if err := p.checkLookbehindGroup(gid); err != nil {
					return err
				}
				sub.nodes = append(sub.nodes, &node{kind: nGroupref, c: rune(gid)})
				return nil
			} else {
				if t.err != nil {
					return t.err
				}
				c := t.get()
				if t.err != nil {
					return t.err
				}
				if c.eof {
					return t.errorAt("unexpected end of pattern", 0)
				}
				return t.errorAt("unknown extension ?P"+string(c.text()), c.len()+2)
			}
		case char.is(':'):
			capture = false
		case char.is('#'):
			for {
				if t.next.eof {
					return t.errorAt("missing ), unterminated comment", t.tell()-start)
				}
				c := t.get()
				if t.err != nil {
					return t.err
				}
				if c.is(')') {
					break
				}
			}
			return nil
		case char.is('=') || char.is('!') || char.is('<'):
			dir := 1
			lookbehindGroups := 0
			if char.is('<') {
				char = t.get()
				if t.err != nil {
					return t.err
				}
				if char.eof {
					return t.errorAt("unexpected end of pattern", 0)
				}
				if !char.is('=') && !char.is('!') {
					return t.errorAt("unknown extension ?<"+string(char.text()), char.len()+2)
				}
				dir = -1
				lookbehindGroups = p.lookbehindGroups
				if lookbehindGroups < 0 {
					p.lookbehindGroups = p.groups()
				}
			}
			body, err := p.parseSub(*verbose, nested+1)
			if err != nil {
				return err
			}
			if dir < 0 && lookbehindGroups < 0 {
				p.lookbehindGroups = -1
			}
			if !t.match(')') {
				if t.err != nil {
					return t.err
				}
				return t.errorAt("missing ), unterminated subpattern", t.tell()-start)
			}
			if t.err != nil {
				return t.err
			}
			kind := nAssert
			if char.is('!') {
				kind = nAssertNot
			}
			sub.nodes = append(sub.nodes, &node{kind: kind, dir: dir, body: body})
			return nil
		case char.is('('):
			return p.parseConditional(sub, *verbose, nested, start)
		case char.is('>'):
			capture = false
			atomic = true
		case char.is('-') || (!char.esc && flagLetter(char.c) != 0):
			add, del, global, err := p.parseFlags(char)
			if err != nil {
				return err
			}
			if global {
				if !first || len(sub.nodes) > 0 {
					return t.errorAt("global flags not at the start of the expression", t.tell()-start)
				}
				*verbose = p.flags&VERBOSE != 0
				return nil
			}
			addFlags, delFlags = add, del
			capture = false
		default:
			return t.errorAt("unknown extension ?"+string(char.text()), char.len()+1)
		}
	}
	if t.err != nil {
		return t.err
	}
	group := 0
	if capture {
		gid := p.groups()
		if gid >= maxGroups {
			return t.errorAt("too many groups", len(name)+1)
		}
		if hasName {
			if ogid, ok := p.groupNames[string(name)]; ok {
				return t.errorAt("redefinition of group name "+pyRepr(name)+" as group "+
					strconv.Itoa(gid)+"; was group "+strconv.Itoa(ogid), len(name)+1)
			}
			p.groupNames[string(name)] = gid
			p.groupOrder = append(p.groupOrder, string(name))
		}
		p.groupWidths = append(p.groupWidths, [2]uint64{})
		p.groupClosed = append(p.groupClosed, false)
		group = gid
	}
	subVerbose := (*verbose || addFlags&VERBOSE != 0) && delFlags&VERBOSE == 0
	body, err := p.parseSub(subVerbose, nested+1)
	if err != nil {
		return err
	}
	if !t.match(')') {
		if t.err != nil {
			return t.err
		}
		return t.errorAt("missing ), unterminated subpattern", t.tell()-start)
	}
	if t.err != nil {
		return t.err
	}
	if group != 0 {
		lo, hi := body.width(p)
		p.groupWidths[group] = [2]uint64{lo, hi}
		p.groupClosed[group] = true
	}
	if atomic {
		sub.nodes = append(sub.nodes, &node{kind: nAtomic, body: body})
	} else {
		sub.nodes = append(sub.nodes, &node{kind: nSubpattern, group: group, addFlags: addFlags,
			delFlags: delFlags, body: body})
	}
	return nil
}

func (p *parser) parseConditional(sub *seq, verbose bool, nested, start int) error {
	t := p.tok
	condName, nameErr := t.getUntil(')', "group name")
	if nameErr != nil {
		return nameErr
	}
	var condGroup int
	if !isDecimalASCII(condName) {
		if err := t.checkGroupName(condName, 1); err != nil {
			return err
		}
		gid, ok := p.groupNames[string(condName)]
		if !ok {
			return t.errorAt("unknown group name "+pyRepr(condName), len(condName)+1)
		}
		condGroup = gid
	} else {
		text, v := decimalText(condName, maxGroups)
		if v == 0 {
			return t.errorAt("bad group number", len(condName)+1)
		}
		if v >= maxGroups {
			return t.errorAt("invalid group reference "+text, len(condName)+1)
		}
		condGroup = int(v)
		seen := false
		for _, g := range p.grouprefPos {
			if g.group == condGroup {
				seen = true
				break
			}
		}
		if !seen {
			p.grouprefPos = append(p.grouprefPos, grouprefPos{condGroup, t.tell() - len(condName) - 1})
		}
	}
	if err := p.checkLookbehindGroup(condGroup); err != nil {
		return err
	}
	yes, err := p.parseSeq(verbose, nested+1, false)
	if err != nil {
		return err
	}
	var no *seq
	if t.match('|') {
		if t.err != nil {
			return t.err
		}
		no, err = p.parseSeq(verbose, nested+1, false)
		if err != nil {
			return err
		}
		if t.next.is('|') {
			return t.errorAt("conditional backref with more than two branches", 0)
		}
	}
	if t.err != nil {
		return t.err
	}
	if !t.match(')') {
		if t.err != nil {
			return t.err
		}
		return t.errorAt("missing ), unterminated subpattern", t.tell()-start)
	}
	if t.err != nil {
		return t.err
	}
	sub.nodes = append(sub.nodes, &node{kind: nGrouprefExists, c: rune(condGroup), body: yes, no: no})
	return nil
}

func isAlphaToken(c token) bool { return !c.esc && !c.eof && unicode.IsLetter(c.c) }

func isFlagToken(c token) bool { return !c.esc && !c.eof && flagLetter(c.c) != 0 }

// parseFlags is sre_parse._parse_flags; global reports "(?flags)".
func (p *parser) parseFlags(char token) (add, del Flag, global bool, err error) {
	t := p.tok
	if !char.is('-') {
		for {
			flag := flagLetter(char.c)
			if t.isText {
				if char.c == 'L' {
					return 0, 0, false, t.errorAt("bad inline flags: cannot use 'L' flag with a str pattern", 0)
				}
			} else if char.c == 'u' {
				return 0, 0, false, t.errorAt("bad inline flags: cannot use 'u' flag with a bytes pattern", 0)
			}
			add |= flag
			if flag&typeFlags != 0 && add&typeFlags != flag {
				return 0, 0, false, t.errorAt("bad inline flags: flags 'a', 'u' and 'L' are incompatible", 0)
			}
			char = t.get()
			if t.err != nil {
				return 0, 0, false, t.err
			}
			if char.eof {
				return 0, 0, false, t.errorAt("missing -, : or )", 0)
			}
			if char.is(')') || char.is('-') || char.is(':') {
				break
			}
			if !isFlagToken(char) {
				msg := "missing -, : or )"
				if isAlphaToken(char) {
					msg = "unknown flag"
				}
				return 0, 0, false, t.errorAt(msg, char.len())
			}
		}
	}
	if char.is(')') {
		p.flags |= add
		return 0, 0, true, nil
	}
	if add&globalFlags != 0 {
		return 0, 0, false, t.errorAt("bad inline flags: cannot turn on global flag", 1)
	}
	if char.is('-') {
		char = t.get()
		if t.err != nil {
			return 0, 0, false, t.err
		}
		if char.eof {
			return 0, 0, false, t.errorAt("missing flag", 0)
		}
		if !isFlagToken(char) {
			msg := "missing flag"
			if isAlphaToken(char) {
				msg = "unknown flag"
			}
			return 0, 0, false, t.errorAt(msg, char.len())
		}
		for {
			flag := flagLetter(char.c)
			if flag&typeFlags != 0 {
				return 0, 0, false, t.errorAt("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", 0)
			}
			del |= flag
			char = t.get()
			if t.err != nil {
				return 0, 0, false, t.err
			}
			if char.eof {
				return 0, 0, false, t.errorAt("missing :", 0)
			}
			if char.is(':') {
				break
			}
			if !isFlagToken(char) {
				msg := "missing :"
				if isAlphaToken(char) {
					msg = "unknown flag"
				}
				return 0, 0, false, t.errorAt(msg, char.len())
			}
		}
	}
	if del&globalFlags != 0 {
		return 0, 0, false, t.errorAt("bad inline flags: cannot turn off global flag", 1)
	}
	if add&del != 0 {
		return 0, 0, false, t.errorAt("bad inline flags: flag turned on and off", 1)
	}
	return add, del, false, nil
}

// parseClass parses a character class after "[".
func (p *parser) parseClass(nested int) (*node, error) {
	t := p.tok
	here := t.tell() - 1
	var set []setItem
	if t.next.is('[') {
		p.warn("FutureWarning", "Possible nested set at position "+strconv.Itoa(t.tell()))
	}
	negate := t.match('^')
	if t.err != nil {
		return nil, t.err
	}
	for {
		this := t.get()
		if t.err != nil {
			return nil, t.err
		}
		if this.eof {
			return nil, t.errorAt("unterminated character set", t.tell()-here)
		}
		if this.is(']') && len(set) > 0 {
			break
		}
		var code1 setItem
		var code1IsSet bool
		if this.esc {
			c, isSet, err := p.classEscape(this)
			if err != nil {
				return nil, err
			}
			code1, code1IsSet = c, isSet
		} else {
			if len(set) > 0 && strings.ContainsRune("-&~|", this.c) && t.next.is(this.c) {
				what := map[rune]string{'-': "difference", '&': "intersection", '~': "symmetric difference", '|': "union"}[this.c]
				p.warn("FutureWarning", "Possible set "+what+" at position "+strconv.Itoa(t.tell()-1))
			}
			code1 = setItem{kind: sLiteral, lo: this.c}
		}
		if t.match('-') {
			if t.err != nil {
				return nil, t.err
			}
			that := t.get()
			if t.err != nil {
				return nil, t.err
			}
			if that.eof {
				return nil, t.errorAt("unterminated character set", t.tell()-here)
			}
			if that.is(']') {
				set = append(set, code1, setItem{kind: sLiteral, lo: '-'})
				break
			}
			var code2 setItem
			code2IsSet := false
			if that.esc {
				c, isSet, err := p.classEscape(that)
				if err != nil {
					return nil, err
				}
				code2, code2IsSet = c, isSet
			} else {
				if that.is('-') {
					p.warn("FutureWarning", "Possible set difference at position "+strconv.Itoa(t.tell()-2))
				}
				code2 = setItem{kind: sLiteral, lo: that.c}
			}
			if code1IsSet || code2IsSet || code2.lo < code1.lo {
				msg := "bad character range " + string(this.text()) + "-" + string(that.text())
				return nil, t.errorAt(msg, this.len()+1+that.len())
			}
			set = append(set, setItem{kind: sRange, lo: code1.lo, hi: code2.lo})
		} else {
			if t.err != nil {
				return nil, t.err
			}
			set = append(set, code1)
		}
	}
	set = uniqSet(set)
	if len(set) == 1 && set[0].kind == sLiteral {
		if negate {
			return &node{kind: nNotLiteral, c: set[0].lo}, nil
		}
		return &node{kind: nLiteral, c: set[0].lo}, nil
	}
	if negate {
		set = append([]setItem{{kind: sNegate}}, set...)
	}
	return &node{kind: nIn, set: set}, nil
}

// classEscape is sre_parse._class_escape. isSet reports a category.
func (p *parser) classEscape(esc token) (setItem, bool, error) {
	t := p.tok
	c := esc.c
	switch c {
	case 'a':
		return setItem{kind: sLiteral, lo: '\a'}, false, nil
	case 'b':
		return setItem{kind: sLiteral, lo: '\b'}, false, nil
	case 'f':
		return setItem{kind: sLiteral, lo: '\f'}, false, nil
	case 'n':
		return setItem{kind: sLiteral, lo: '\n'}, false, nil
	case 'r':
		return setItem{kind: sLiteral, lo: '\r'}, false, nil
	case 't':
		return setItem{kind: sLiteral, lo: '\t'}, false, nil
	case 'v':
		return setItem{kind: sLiteral, lo: '\v'}, false, nil
	case '\\':
		return setItem{kind: sLiteral, lo: '\\'}, false, nil
	case 'd':
		return setItem{kind: sCategory, lo: catDigit}, true, nil
	case 'D':
		return setItem{kind: sCategory, lo: catNotDigit}, true, nil
	case 's':
		return setItem{kind: sCategory, lo: catSpace}, true, nil
	case 'S':
		return setItem{kind: sCategory, lo: catNotSpace}, true, nil
	case 'w':
		return setItem{kind: sCategory, lo: catWord}, true, nil
	case 'W':
		return setItem{kind: sCategory, lo: catNotWord}, true, nil
	}
	v, ok, err := p.commonEscape(esc)
	if err != nil {
		return setItem{}, false, err
	}
	if ok {
		return setItem{kind: sLiteral, lo: v}, false, nil
	}
	if isOctDigit(c) {
		digits := append([]rune{c}, t.getWhile(2, isOctDigit)...)
		if t.err != nil {
			return setItem{}, false, t.err
		}
		v := octal(digits)
		if v > 0o377 {
			return setItem{}, false, t.errorAt("octal escape value \\"+string(digits)+" outside of range 0-0o377", len(digits)+1)
		}
		return setItem{kind: sLiteral, lo: v}, false, nil
	}
	if isDigit(c) {
		return setItem{}, false, t.errorAt("bad escape "+string(esc.text()), 2)
	}
	if isASCIILetter(c) {
		return setItem{}, false, t.errorAt("bad escape "+string(esc.text()), 2)
	}
	return setItem{kind: sLiteral, lo: c}, false, nil
}

func octal(digits []rune) rune {
	var v rune
	for _, d := range digits {
		v = v*8 + d - '0'
	}
	return v
}

func hexValue(digits []rune) int64 {
	var v int64
	for _, d := range digits {
		switch {
		case d >= '0' && d <= '9':
			v = v*16 + int64(d-'0')
		case d >= 'a' && d <= 'f':
			v = v*16 + int64(d-'a'+10)
		default:
			v = v*16 + int64(d-'A'+10)
		}
	}
	return v
}

// commonEscape handles \x, \u, \U and \N, shared by both escape forms.
func (p *parser) commonEscape(esc token) (rune, bool, error) {
	t := p.tok
	c := esc.c
	switch {
	case c == 'x':
		digits := t.getWhile(2, isHexDigit)
		if t.err != nil {
			return 0, false, t.err
		}
		if len(digits) != 2 {
			s := `\x` + string(digits)
			return 0, false, t.errorAt("incomplete escape "+s, len(digits)+2)
		}
		return rune(hexValue(digits)), true, nil
	case c == 'u' && t.isText:
		digits := t.getWhile(4, isHexDigit)
		if t.err != nil {
			return 0, false, t.err
		}
		if len(digits) != 4 {
			s := `\u` + string(digits)
			return 0, false, t.errorAt("incomplete escape "+s, len(digits)+2)
		}
		return rune(hexValue(digits)), true, nil
	case c == 'U' && t.isText:
		digits := t.getWhile(8, isHexDigit)
		if t.err != nil {
			return 0, false, t.err
		}
		s := `\U` + string(digits)
		if len(digits) != 8 {
			return 0, false, t.errorAt("incomplete escape "+s, len(digits)+2)
		}
		v := hexValue(digits)
		if v > unicode.MaxRune {
			return 0, false, t.errorAt("bad escape "+s, len(digits)+2)
		}
		return rune(v), true, nil
	case c == 'N' && t.isText:
		if !t.match('{') {
			if t.err != nil {
				return 0, false, t.err
			}
			return 0, false, t.errorAt("missing {", 0)
		}
		if t.err != nil {
			return 0, false, t.err
		}
		name, err := t.getUntil('}', "character name")
		if err != nil {
			return 0, false, err
		}
		if !namesAvailable() {
			return 0, false, &UnsupportedError{What: `\N{...} escapes: golang.org/x/text's character names are not of Unicode ` + unicodeVersion}
		}
		v, ok := lookupName(string(name))
		if !ok {
			return 0, false, t.errorAt("undefined character name "+pyRepr(name), len(name)+4)
		}
		return v, true, nil
	}
	return 0, false, nil
}

// parseEscape is sre_parse._escape (outside classes).
func (p *parser) parseEscape(esc token) (*node, error) {
	t := p.tok
	c := esc.c
	switch c {
	case 'A':
		return &node{kind: nAt, c: atBeginningString}, nil
	case 'b':
		return &node{kind: nAt, c: atBoundary}, nil
	case 'B':
		return &node{kind: nAt, c: atNonBoundary}, nil
	case 'Z':
		return &node{kind: nAt, c: atEndString}, nil
	case 'd', 'D', 's', 'S', 'w', 'W':
		cat := map[rune]rune{'d': catDigit, 'D': catNotDigit, 's': catSpace, 'S': catNotSpace,
			'w': catWord, 'W': catNotWord}[c]
		return &node{kind: nIn, set: []setItem{{kind: sCategory, lo: cat}}}, nil
	case 'a':
		return &node{kind: nLiteral, c: '\a'}, nil
	case 'f':
		return &node{kind: nLiteral, c: '\f'}, nil
	case 'n':
		return &node{kind: nLiteral, c: '\n'}, nil
	case 'r':
		return &node{kind: nLiteral, c: '\r'}, nil
	case 't':
		return &node{kind: nLiteral, c: '\t'}, nil
	case 'v':
		return &node{kind: nLiteral, c: '\v'}, nil
	case '\\':
		return &node{kind: nLiteral, c: '\\'}, nil
	}
	v, ok, err := p.commonEscape(esc)
	if err != nil {
		return nil, err
	}
	if ok {
		return &node{kind: nLiteral, c: v}, nil
	}
	if c == '0' {
		digits := append([]rune{c}, t.getWhile(2, isOctDigit)...)
		if t.err != nil {
			return nil, t.err
		}
		return &node{kind: nLiteral, c: octal(digits)}, nil
	}
	if isDigit(c) {
		digits := []rune{c}
		if !t.next.eof && !t.next.esc && isDigit(t.next.c) {
			digits = append(digits, t.get().c)
			if t.err != nil {
				return nil, t.err
			}
			if isOctDigit(digits[0]) && isOctDigit(digits[1]) && !t.next.eof && !t.next.esc && isOctDigit(t.next.c) {
				digits = append(digits, t.get().c)
				if t.err != nil {
					return nil, t.err
				}
				v := octal(digits)
				if v > 0o377 {
					return nil, t.errorAt("octal escape value \\"+string(digits)+" outside of range 0-0o377", len(digits)+1)
				}
				return &node{kind: nLiteral, c: v}, nil
			}
		}
		group := 0
		for _, d := range digits {
			group = group*10 + int(d-'0')
		}
		if group < p.groups() {
			if !p.checkGroup(group) {
				return nil, t.errorAt("cannot refer to an open group", len(digits)+1)
			}
			if err := p.checkLookbehindGroup(group); err != nil {
				return nil, err
			}
			return &node{kind: nGroupref, c: rune(group)}, nil
		}
		return nil, t.errorAt("invalid group reference "+strconv.Itoa(group), len(digits))
	}
	if isASCIILetter(c) {
		return nil, t.errorAt("bad escape "+string(esc.text()), 2)
	}
	return &node{kind: nLiteral, c: c}, nil
}
