package sre

import (
	"strings"
	"unicode/utf8"
)

// Anchors a pattern may begin with.
const (
	anchorNone  = iota
	anchorStart // \A, or ^ without MULTILINE: only the string's start
	anchorLine  // ^ with MULTILINE: the start or after a newline
)

// scanInfo tells the search loop where matches can begin. Skipping a
// position it rules out never changes a result: such a position cannot
// start a match, and sre's state is reset between start positions.
type scanInfo struct {
	anchor    int
	prefix    string // every match begins with this text
	useFirst  bool   // every match is non-empty and begins with a byte in first
	first     [256]bool
	firstByte int // the only byte in first, or -1
	// leadRepeat is the pc of an unbounded one-character repeat that every
	// match begins with, when no back reference or group condition can make
	// what follows it depend on where it began; -1 otherwise. An attempt at
	// p that fails then proves that every start within the run of
	// characters the repeat accepts from p fails too: such a start tries
	// the rest of the pattern at a subset of the positions p tried it at.
	leadRepeat int
}

type byteSet [4]uint64

func (b *byteSet) add(c int)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c int) bool { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) union(o byteSet) {
	b[0], b[1], b[2], b[3] = b[0]|o[0], b[1]|o[1], b[2]|o[2], b[3]|o[3]
}
func (b *byteSet) highAll() bool { return b[2] == ^uint64(0) && b[3] == ^uint64(0) }
func (b *byteSet) highAny() bool { return b[2] != 0 || b[3] != 0 }
func (b *byteSet) count() (n int) {
	return popcount(b[0]) + popcount(b[1]) + popcount(b[2]) + popcount(b[3])
}
func popcount(x uint64) (n int) {
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

type firstResult struct {
	set   byteSet
	empty bool // a match may end (or be empty) without consuming
	ok    bool
}

type analyzer struct {
	prog *program
	memo map[[2]int]firstResult
}

const maxAnalyzeDepth = 500

// first computes the bytes that can begin what the program matches from
// pc; reaching opSuccess continues at succ (or ends the match when succ is
// negative).
func (a *analyzer) first(pc, succ, depth int) firstResult {
	if depth > maxAnalyzeDepth {
		return firstResult{}
	}
	key := [2]int{pc, succ}
	if r, ok := a.memo[key]; ok {
		return r
	}
	r := a.first1(pc, succ, depth+1)
	a.memo[key] = r
	return r
}

func (a *analyzer) union(x, y firstResult) firstResult {
	if !x.ok || !y.ok {
		return firstResult{}
	}
	x.set.union(y.set)
	x.empty = x.empty || y.empty
	return x
}

func (a *analyzer) testSet(t *charTest) byteSet {
	var tbl [256]bool
	t.firstBytes(a.prog.isBytes, &tbl)
	var b byteSet
	for c, ok := range tbl {
		if ok {
			b.add(c)
		}
	}
	return b
}

func (a *analyzer) first1(pc, succ, depth int) firstResult {
	in := &a.prog.insts[pc]
	switch in.op {
	case opMark, opAt:
		return a.first(pc+1, succ, depth)
	case opByte:
		var b byteSet
		b.add(in.arg)
		return firstResult{set: b, ok: true}
	case opChar:
		return firstResult{set: a.testSet(in.test), ok: true}
	case opJump:
		return a.first(in.next, succ, depth)
	case opSuccess:
		if succ >= 0 {
			return a.first(succ, -1, depth)
		}
		return firstResult{empty: true, ok: true}
	case opFailure:
		return firstResult{ok: true}
	case opBranch:
		r := firstResult{ok: true}
		for _, alt := range in.alts {
			r = a.union(r, a.first(alt, succ, depth))
		}
		return r
	case opRepeatOne, opMinRepeatOne, opPossRepeatOne:
		r := firstResult{set: a.testSet(in.test), ok: true}
		if in.min == 0 {
			r = a.union(r, a.first(in.next, succ, depth))
		}
		return r
	case opRepeat:
		r := a.first(pc+1, succ, depth)
		if in.min == 0 {
			r = a.union(r, a.first(in.next+1, succ, depth))
		}
		return r
	case opMaxUntil, opMinUntil:
		return a.first(pc+1, succ, depth)
	case opPossRepeat:
		r := a.first(pc+1, in.next, depth)
		if in.min == 0 {
			r = a.union(r, a.first(in.next, succ, depth))
		}
		return r
	case opAtomic:
		return a.first(pc+1, in.next, depth)
	case opAssert, opAssertNot:
		return a.first(in.next, succ, depth)
	case opGrouprefExists:
		return a.union(a.first(pc+1, succ, depth), a.first(in.next, succ, depth))
	}
	return firstResult{}
}

// analyze derives the scan information of a program.
func analyze(prog *program) scanInfo {
	info := scanInfo{firstByte: -1, leadRepeat: -1}
	pc := 0
	for pc < len(prog.insts) && prog.insts[pc].op == opMark {
		pc++
	}
	switch in := &prog.insts[pc]; in.op {
	case opRepeatOne, opMinRepeatOne, opPossRepeatOne:
		if in.max == maxRepeat {
			info.leadRepeat = pc
			for i := range prog.insts {
				if op := prog.insts[i].op; op == opGroupref || op == opGrouprefExists {
					info.leadRepeat = -1
				}
			}
		}
	}
	if in := &prog.insts[pc]; in.op == opAt {
		switch in.arg {
		case atBeginning, atBeginningString:
			info.anchor = anchorStart
		case atBeginningLine:
			info.anchor = anchorLine
		}
	}
	if info.anchor != anchorNone {
		return info
	}
	if p := literalPrefix(prog); len(p) >= 2 {
		info.prefix = p
		return info
	}
	a := &analyzer{prog: prog, memo: map[[2]int]firstResult{}}
	r := a.first(0, -1, 0)
	if !r.ok || r.empty {
		return info
	}
	if !prog.isBytes && r.set.highAny() && !r.set.highAll() {
		// A partial set of high bytes could land inside a character only if
		// it held continuation bytes; lead bytes are always boundaries.
		for c := 0x80; c < 0xc0; c++ {
			if r.set.has(c) {
				r.set[2], r.set[3] = ^uint64(0), ^uint64(0)
				break
			}
		}
	}
	if r.set.count() == 256 {
		return info
	}
	info.useFirst = true
	for c := 0; c < 256; c++ {
		info.first[c] = r.set.has(c)
	}
	if r.set.count() == 1 {
		for c := 0; c < 256; c++ {
			if info.first[c] {
				info.firstByte = c
			}
		}
	}
	return info
}

// scanChunk bounds how far the search loop scans before checking the
// context.
const scanChunk = 1 << 20

// nextCandidate returns the first position at or after p (and at most end)
// where a match may begin, or -1.
func (m *machine) nextCandidate(p int) (int, error) {
	sc := &m.prog.scan
	s := m.s
	switch {
	case sc.anchor == anchorLine:
		if p == 0 || s[p-1] == '\n' {
			return p, nil
		}
		for p < m.end {
			hi := min(m.end, p+scanChunk)
			if i := strings.IndexByte(s[p:hi], '\n'); i >= 0 {
				return p + i + 1, nil
			}
			p = hi
			if err := m.addSteps(scanChunk / 64); err != nil {
				return -1, err
			}
		}
		return -1, nil
	case sc.prefix != "":
		for p < m.end {
			hi := min(m.end, p+scanChunk+len(sc.prefix)-1)
			if i := strings.Index(s[p:hi], sc.prefix); i >= 0 {
				return p + i, nil
			}
			if hi == m.end {
				break
			}
			p = hi - len(sc.prefix) + 1
			if err := m.addSteps(scanChunk / 64); err != nil {
				return -1, err
			}
		}
		return -1, nil
	case sc.useFirst:
		for p < m.end {
			hi := min(m.end, p+scanChunk)
			if sc.firstByte >= 0 {
				if i := strings.IndexByte(s[p:hi], byte(sc.firstByte)); i >= 0 {
					return p + i, nil
				}
			} else {
				tbl := &sc.first
				for i := p; i < hi; i++ {
					if tbl[s[i]] {
						return i, nil
					}
				}
			}
			p = hi
			if err := m.addSteps(scanChunk / 64); err != nil {
				return -1, err
			}
		}
		return -1, nil
	}
	return p, nil
}

// reset prepares the machine for a match attempt (sre's state_reset).
func (m *machine) reset() {
	m.lastmark = -1
	m.lastindex = -1
	m.repeat = -1
	m.reps = m.reps[:0]
}

// matchAt tries the pattern anchored at pos (sre's SRE(match)).
func (m *machine) matchAt(pos int) (bool, error) {
	m.reset()
	m.start, m.ptr = pos, pos
	return m.run(0, true)
}

// search finds the leftmost match beginning at or after pos (sre's
// SRE(search)). m.mustAdvance applies to a match beginning at pos.
func (m *machine) search(pos int) (bool, error) {
	if pos > m.end {
		return false, nil
	}
	mustAdvance := m.mustAdvance
	defer func() { m.mustAdvance = mustAdvance }()
	anchored := m.prog.scan.anchor == anchorStart
	p := pos
	for {
		q, err := m.nextCandidate(p)
		if err != nil {
			return false, err
		}
		if q < 0 {
			return false, nil
		}
		p = q
		m.mustAdvance = mustAdvance && p == pos
		m.reset()
		m.start, m.ptr = p, p
		ok, err := m.run(0, true)
		if err != nil || ok {
			return ok, err
		}
		if p >= m.end || anchored {
			return false, nil
		}
		if lr := m.prog.scan.leadRepeat; lr >= 0 {
			// Skip the starts within the run the lead repeat takes from p.
			_, runEnd, _, err := m.count(m.insts[lr].test, p, maxRepeat, 0)
			if err != nil {
				return false, err
			}
			if runEnd >= m.end {
				return false, nil
			}
			p = runEnd
		}
		if m.byteMode || m.s[p] < utf8.RuneSelf {
			p++
		} else {
			_, w := utf8.DecodeRuneInString(m.s[p:m.end])
			p += w
		}
	}
}
