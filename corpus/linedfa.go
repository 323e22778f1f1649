package corpus

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// A lineDFA decides whether a line holds a match of a regular expression,
// running a deterministic automaton over the line's bytes in Go: no call
// into RE2's WebAssembly translation, whose per-call cost dominates when
// the lines to check are short candidates found by a literal prefilter.
//
// It is built (newDFAProg) only where its answer is provably Go regexp's:
//   - no zero-width assertion (^ $ \b \B \A \z): the automaton looks at
//     bytes only;
//   - every character class is finite and small outside ASCII (at most
//     maxDFARunes non-ASCII runes per instruction, none of them U+FFFD):
//     each such rune becomes the exact bytes of its UTF-8 encoding. Go
//     decodes an invalid byte as U+FFFD, which then matches nothing, and
//     a valid encoding's first byte is never inside another valid
//     encoding, so on any bytes, valid UTF-8 or not, the automaton and Go
//     regexp consume the same runes at the same offsets.
//
// Existence is all it answers (a line's count); where a match starts is
// left to Go regexp on the lines that match.
type dfaProg struct {
	// nodes are the NFA's byte-consuming nodes; node i's edges lead to
	// closures (lists of nodes) and may lead to acceptance.
	nodes [][]dfaEdge
	start []int32 // closure of the program's start
	// startAccept: the empty string matches (every line does).
	startAccept bool
}

type dfaEdge struct {
	lo, hi byte
	to     []int32 // closure of the target
	accept bool    // the target's closure reaches Match
}

// maxDFARunes bounds the non-ASCII runes of one class the automaton
// spells out byte by byte ((?i)k and (?i)s bring U+212A and U+017F).
const maxDFARunes = 16

// maxDFAStates bounds the states one lineDFA caches; past it the cache
// starts again.
const maxDFAStates = 2048

// newDFAProg returns the automaton of tree (the rewritten line regex), or
// nil where it would not be exact (see lineDFA).
func newDFAProg(tree *syntax.Regexp) *dfaProg {
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil
	}
	b := dfaBuilder{prog: prog, node: make(map[int]int32)}
	for i := range prog.Inst {
		if prog.Inst[i].Op == syntax.InstEmptyWidth {
			return nil
		}
	}
	start, acc, ok := b.closure(uint32(prog.Start))
	if !ok {
		return nil
	}
	return &dfaProg{nodes: b.nodes, start: start, startAccept: acc}
}

type dfaBuilder struct {
	prog  *syntax.Prog
	nodes [][]dfaEdge
	node  map[int]int32 // prog pc -> its node
	fail  bool
}

// closure returns the nodes reached from pc through instructions that
// consume nothing, and whether Match is reached; ok is false where the
// program holds something the automaton cannot do exactly.
func (b *dfaBuilder) closure(pc uint32) (nodes []int32, accept, ok bool) {
	seen := map[uint32]bool{}
	var walk func(pc uint32)
	walk = func(pc uint32) {
		if seen[pc] || b.fail {
			return
		}
		seen[pc] = true
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			walk(in.Out)
			walk(in.Arg)
		case syntax.InstNop, syntax.InstCapture:
			walk(in.Out)
		case syntax.InstMatch:
			accept = true
		case syntax.InstFail:
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			n, ok := b.runeNode(int(pc))
			if !ok {
				b.fail = true
				return
			}
			nodes = append(nodes, n)
		default:
			b.fail = true
		}
	}
	walk(pc)
	if b.fail {
		return nil, false, false
	}
	slices.Sort(nodes)
	return slices.Compact(nodes), accept, true
}

// runeNode returns the node of the rune instruction at pc, building it
// (and the nodes of the bytes after a multi-byte rune's first) once.
func (b *dfaBuilder) runeNode(pc int) (int32, bool) {
	if n, ok := b.node[pc]; ok {
		return n, true
	}
	in := &b.prog.Inst[pc]
	ascii, other, ok := instRunes(in)
	if !ok {
		return 0, false
	}
	n := int32(len(b.nodes))
	b.nodes = append(b.nodes, nil)
	b.node[pc] = n
	to, acc, ok := b.closure(in.Out)
	if !ok {
		return 0, false
	}
	var edges []dfaEdge
	for i := 0; i+1 < len(ascii); i += 2 {
		edges = append(edges, dfaEdge{lo: byte(ascii[i]), hi: byte(ascii[i+1]), to: to, accept: acc})
	}
	// A multi-byte rune: a chain of nodes, one per byte after the first.
	for _, r := range other {
		var enc [utf8.UTFMax]byte
		k := utf8.EncodeRune(enc[:], r)
		next := dfaEdge{lo: enc[k-1], hi: enc[k-1], to: to, accept: acc}
		for j := k - 2; j >= 0; j-- {
			m := int32(len(b.nodes))
			b.nodes = append(b.nodes, []dfaEdge{next})
			next = dfaEdge{lo: enc[j], hi: enc[j], to: []int32{m}}
		}
		edges = append(edges, next)
	}
	b.nodes[n] = edges
	return n, true
}

// instRunes returns the runes a rune instruction matches: ASCII ranges
// (pairs lo, hi) and the non-ASCII runes one by one; ok is false when the
// latter are too many or hold U+FFFD.
func instRunes(in *syntax.Inst) (ascii, other []rune, ok bool) {
	var ranges []rune
	switch in.Op {
	case syntax.InstRune1:
		ranges = []rune{in.Rune[0], in.Rune[0]}
	case syntax.InstRune:
		if len(in.Rune) == 1 {
			r0 := in.Rune[0]
			ranges = []rune{r0, r0}
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
					ranges = append(ranges, r, r)
				}
			}
		} else {
			ranges = in.Rune
		}
	default:
		return nil, nil, false
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo < utf8.RuneSelf {
			ascii = append(ascii, lo, min(hi, utf8.RuneSelf-1))
			lo = utf8.RuneSelf
		}
		for r := lo; r <= hi; r++ {
			if len(other) == maxDFARunes || r == utf8.RuneError || !utf8.ValidRune(r) {
				return nil, nil, false
			}
			other = append(other, r)
		}
	}
	return ascii, other, true
}

// lineDFA is a lazily built DFA of a dfaProg, searching for a match
// anywhere in a line (each state includes the program's start) or, when
// anchored, for one starting at the line's first byte. It is not safe for
// concurrent use: each searcher has its own.
type lineDFA struct {
	p        *dfaProg
	anchored bool
	states   map[string]int32
	sets     [][]int32 // per state, its nodes
	accept   []bool
	// trans[s*256+c] is the state after byte c in state s, plus one (0:
	// not computed yet).
	trans []int32
	key   []byte
	buf   []int32
}

func newLineDFA(p *dfaProg, anchored bool) *lineDFA {
	d := &lineDFA{p: p, anchored: anchored}
	d.reset()
	return d
}

func (d *lineDFA) reset() {
	d.states = make(map[string]int32)
	d.sets, d.accept, d.trans = d.sets[:0], d.accept[:0], d.trans[:0]
	if d.anchored {
		d.buf = append(d.buf[:0], d.p.start...) // state 0, the start
		d.add(d.buf, d.p.startAccept)
		d.state(nil, false) // state 1, dead (when the start is not)
		return
	}
	d.state(d.p.start, d.p.startAccept)
}

// state returns the state of the node set s (sorted, unique) with the
// program's start added unless anchored. In an anchored DFA, state 1 is
// the dead state (no node, no match).
func (d *lineDFA) state(s []int32, accept bool) int32 {
	d.buf = append(d.buf[:0], s...)
	if !d.anchored {
		d.buf = append(d.buf, d.p.start...)
	}
	slices.Sort(d.buf)
	return d.add(slices.Compact(d.buf), accept)
}

// add returns the state of the node set set (sorted, unique), adding it
// if new.
func (d *lineDFA) add(set []int32, accept bool) int32 {
	d.key = d.key[:0]
	if accept {
		d.key = append(d.key, 1)
	} else {
		d.key = append(d.key, 0)
	}
	for _, n := range set {
		d.key = binary.LittleEndian.AppendUint32(d.key, uint32(n))
	}
	if id, ok := d.states[string(d.key)]; ok {
		return id
	}
	id := int32(len(d.sets))
	d.states[string(d.key)] = id
	d.sets = append(d.sets, slices.Clone(set))
	d.accept = append(d.accept, accept)
	d.trans = append(d.trans, make([]int32, 256)...)
	return id
}

// step computes the state after byte c in state s.
func (d *lineDFA) step(s int32, c byte) int32 {
	var next []int32
	accept := false
	for _, n := range d.sets[s] {
		for _, e := range d.p.nodes[n] {
			if e.lo <= c && c <= e.hi {
				next = append(next, e.to...)
				accept = accept || e.accept
			}
		}
	}
	slices.Sort(next)
	next = slices.Compact(next)
	full := len(d.sets) >= maxDFAStates
	if full {
		d.reset() // s is gone; the new state does not depend on it
	}
	t := d.state(next, accept)
	if !full {
		d.trans[int(s)*256+int(c)] = t + 1
	}
	return t
}

// match reports whether line (no '\n' needed at its end) holds a match
// (anchored: one starting at its first byte).
func (d *lineDFA) match(line []byte) bool {
	if d.accept[0] {
		return true
	}
	s := int32(0)
	for _, c := range line {
		t := d.trans[int(s)*256+int(c)]
		if t == 0 {
			t = d.step(s, c) + 1
		}
		s = t - 1
		if d.accept[s] {
			return true
		}
		if d.anchored && len(d.sets[s]) == 0 {
			return false // dead
		}
	}
	return false
}
