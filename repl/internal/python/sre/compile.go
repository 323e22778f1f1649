package sre

import (
	"strings"
	"unicode/utf8"
)

// opcode is an instruction of the matching program. The program follows
// the shape of sre's compiled code so that the matcher can reproduce its
// backtracking, capture and zero-width rules exactly.
type opcode uint8

const (
	opFailure        opcode = iota
	opSuccess               // end of pattern or of a sub-pattern run apart
	opByte                  // one byte equal to arg (ASCII, or any in byte mode)
	opChar                  // one character accepted by test
	opAt                    // zero-width position test arg
	opMark                  // set mark arg
	opJump                  // continue at next
	opBranch                // try alts in order
	opRepeatOne             // greedy repeat of one-character test; tail at next
	opMinRepeatOne          // lazy repeat of one-character test
	opPossRepeatOne         // possessive repeat of one-character test
	opRepeat                // general repeat: body at pc+1, until at next
	opMaxUntil              // end of a greedy general repeat body
	opMinUntil              // end of a lazy general repeat body
	opPossRepeat            // possessive general repeat: body at pc+1, tail at next
	opAtomic                // atomic group: body at pc+1, tail at next
	opAssert                // look-around: body at pc+1 (arg characters back), tail at next
	opAssertNot             // negative look-around
	opGroupref              // back reference to group arg (0-based); fold in c
	opGrouprefExists        // conditional: yes at pc+1, no at next
)

// Back-reference comparison modes.
const (
	refExact = iota
	refIgnore
	refUniIgnore
	refLocIgnore
)

// inst is one program instruction.
type inst struct {
	op   opcode
	fold uint8 // opGroupref comparison mode
	arg  int
	min  int
	max  int
	next int
	alts []int
	test *charTest // opChar and the one-character repeats
}

// program is a compiled pattern.
type program struct {
	insts   []inst
	nmarks  int // 2 * number of groups
	isBytes bool
	scan    scanInfo
}

type compiler struct {
	prog    []inst
	p       *parser
	isBytes bool
}

func (c *compiler) emit(in inst) int {
	c.prog = append(c.prog, in)
	return len(c.prog) - 1
}

// combineFlags is sre_compile._combine_flags.
func combineFlags(flags, add, del Flag) Flag {
	if add&typeFlags != 0 {
		flags &^= typeFlags
	}
	return (flags | add) &^ del
}

// isSimple is sre_compile._simple.
func isSimple(s *seq) bool {
	if len(s.nodes) != 1 {
		return false
	}
	n := s.nodes[0]
	if n.kind == nSubpattern {
		return n.group == 0 && isSimple(n.body)
	}
	switch n.kind {
	case nLiteral, nNotLiteral, nAny, nIn:
		return true
	}
	return false
}

// simpleTest compiles the one-character item of a simple repeat.
func (c *compiler) simpleTest(s *seq, flags Flag) *charTest {
	n := s.nodes[0]
	if n.kind == nSubpattern {
		return c.simpleTest(n.body, combineFlags(flags, n.addFlags, n.delFlags))
	}
	return c.charNode(n, flags)
}

// charNode builds the test for a one-character node.
func (c *compiler) charNode(n *node, flags Flag) *charTest {
	t := &charTest{}
	switch n.kind {
	case nAny:
		t.kind = tkAny
		if flags&DOTALL != 0 {
			t.kind = tkAnyAll
		}
	case nLiteral, nNotLiteral:
		*t = literalTest(n.c, n.kind == nNotLiteral, flags)
	case nIn:
		set, hascased := buildSet(n.set, flags)
		t.set = set
		switch {
		case flags&IGNORECASE != 0 && flags&LOCALE != 0:
			t.kind = tkSetLocIgnore
		case !hascased:
			t.kind = tkSet
		case foldOf(flags) == foldASCII:
			t.kind = tkSetIgnore
		default:
			t.kind = tkSetUniIgnore
		}
	}
	t.init()
	return t
}

// literalTest follows sre_compile's handling of LITERAL and NOT_LITERAL.
func literalTest(ch rune, not bool, flags Flag) charTest {
	pick := func(yes, no testKind) testKind {
		if not {
			return no
		}
		return yes
	}
	fold := foldOf(flags)
	switch {
	case flags&IGNORECASE == 0:
		return charTest{kind: pick(tkLit, tkNotLit), c: ch}
	case flags&LOCALE != 0:
		return charTest{kind: pick(tkLitLocIgnore, tkNotLitLocIgnore), c: ch}
	case !fold.isCased(ch):
		return charTest{kind: pick(tkLit, tkNotLit), c: ch}
	}
	lo := fold.lower(ch)
	if fold == foldASCII {
		return charTest{kind: pick(tkLitIgnore, tkNotLitIgnore), c: lo}
	}
	fixes, ok := extraCases()[lo]
	if !ok {
		return charTest{kind: pick(tkLitUniIgnore, tkNotLitUniIgnore), c: lo}
	}
	var b setBuilder
	b.add(lo, lo)
	for _, k := range fixes {
		b.add(k, k)
	}
	set := b.finish()
	set.negate = not
	return charTest{kind: tkSetUniIgnore, set: set}
}

// compileSeq is sre_compile._compile.
func (c *compiler) compileSeq(s *seq, flags Flag) error {
	for _, n := range s.nodes {
		if err := c.compileNode(n, flags); err != nil {
			return err
		}
	}
	return nil
}

func repeatName(k nodeKind) string {
	switch k {
	case nMaxRepeat:
		return "MAX_REPEAT"
	case nMinRepeat:
		return "MIN_REPEAT"
	case nPossRepeat:
		return "POSSESSIVE_REPEAT"
	}
	return ""
}

func (c *compiler) compileNode(n *node, flags Flag) error {
	switch n.kind {
	case nLiteral, nNotLiteral, nAny, nIn:
		if n.kind == nLiteral && flags&IGNORECASE == 0 && (n.c < 0x80 || c.isBytes && n.c < 0x100) {
			c.emit(inst{op: opByte, arg: int(n.c)})
			return nil
		}
		t := c.charNode(n, flags)
		if t.kind == tkLit && (t.c < 0x80 || c.isBytes && t.c < 0x100) {
			c.emit(inst{op: opByte, arg: int(t.c)})
		} else {
			c.emit(inst{op: opChar, test: t})
		}
	case nMaxRepeat, nMinRepeat, nPossRepeat:
		if flags&TEMPLATE != 0 {
			return &Error{Msg: "internal: unsupported template operator " + repeatName(n.kind)}
		}
		if isSimple(n.body) {
			op := map[nodeKind]opcode{nMaxRepeat: opRepeatOne, nMinRepeat: opMinRepeatOne, nPossRepeat: opPossRepeatOne}[n.kind]
			pc := c.emit(inst{op: op, min: int(n.min), max: int(n.max), test: c.simpleTest(n.body, flags)})
			c.prog[pc].next = len(c.prog)
			return nil
		}
		if n.kind == nPossRepeat {
			pc := c.emit(inst{op: opPossRepeat, min: int(n.min), max: int(n.max)})
			if err := c.compileSeq(n.body, flags); err != nil {
				return err
			}
			c.emit(inst{op: opSuccess})
			c.prog[pc].next = len(c.prog)
			return nil
		}
		pc := c.emit(inst{op: opRepeat, min: int(n.min), max: int(n.max)})
		if err := c.compileSeq(n.body, flags); err != nil {
			return err
		}
		c.prog[pc].next = len(c.prog)
		if n.kind == nMaxRepeat {
			c.emit(inst{op: opMaxUntil})
		} else {
			c.emit(inst{op: opMinUntil})
		}
	case nSubpattern:
		if n.group != 0 {
			c.emit(inst{op: opMark, arg: (n.group - 1) * 2})
		}
		if err := c.compileSeq(n.body, combineFlags(flags, n.addFlags, n.delFlags)); err != nil {
			return err
		}
		if n.group != 0 {
			c.emit(inst{op: opMark, arg: (n.group-1)*2 + 1})
		}
	case nAtomic:
		pc := c.emit(inst{op: opAtomic})
		if err := c.compileSeq(n.body, flags); err != nil {
			return err
		}
		c.emit(inst{op: opSuccess})
		c.prog[pc].next = len(c.prog)
	case nAssert, nAssertNot:
		op := opAssert
		if n.kind == nAssertNot {
			op = opAssertNot
		}
		back := 0
		if n.dir < 0 {
			lo, hi := n.body.width(c.p)
			if lo > maxCode {
				return &Error{Msg: "looks too much behind"}
			}
			if lo != hi {
				return &Error{Msg: "look-behind requires fixed-width pattern"}
			}
			back = int(lo)
		}
		pc := c.emit(inst{op: op, arg: back})
		if err := c.compileSeq(n.body, flags); err != nil {
			return err
		}
		c.emit(inst{op: opSuccess})
		c.prog[pc].next = len(c.prog)
	case nAt:
		code := int(n.c)
		if flags&MULTILINE != 0 {
			switch code {
			case atBeginning:
				code = atBeginningLine
			case atEnd:
				code = atEndLine
			}
		}
		if flags&LOCALE != 0 {
			switch code {
			case atBoundary:
				code = atLocBoundary
			case atNonBoundary:
				code = atLocNonBoundary
			}
		} else if flags&UNICODE != 0 {
			switch code {
			case atBoundary:
				code = atUniBoundary
			case atNonBoundary:
				code = atUniNonBoundary
			}
		}
		c.emit(inst{op: opAt, arg: code})
	case nBranch:
		pc := c.emit(inst{op: opBranch})
		var jumps []int
		for _, alt := range n.alts {
			c.prog[pc].alts = append(c.prog[pc].alts, len(c.prog))
			if err := c.compileSeq(alt, flags); err != nil {
				return err
			}
			jumps = append(jumps, c.emit(inst{op: opJump}))
		}
		for _, j := range jumps {
			c.prog[j].next = len(c.prog)
		}
	case nGroupref:
		fold := refExact
		switch {
		case flags&IGNORECASE == 0:
		case flags&LOCALE != 0:
			fold = refLocIgnore
		case flags&UNICODE == 0:
			fold = refIgnore
		default:
			fold = refUniIgnore
		}
		c.emit(inst{op: opGroupref, arg: int(n.c) - 1, fold: uint8(fold)})
	case nGrouprefExists:
		pc := c.emit(inst{op: opGrouprefExists, arg: int(n.c) - 1})
		if err := c.compileSeq(n.body, flags); err != nil {
			return err
		}
		if n.no != nil {
			j := c.emit(inst{op: opJump})
			c.prog[pc].next = len(c.prog)
			if err := c.compileSeq(n.no, flags); err != nil {
				return err
			}
			c.prog[j].next = len(c.prog)
		} else {
			c.prog[pc].next = len(c.prog)
		}
	}
	return nil
}

// compileProgram compiles a parsed pattern.
func compileProgram(r *parseResult, isBytes bool, flags Flag) (*program, error) {
	c := &compiler{p: r.p, isBytes: isBytes}
	if err := c.compileSeq(r.seq, flags); err != nil {
		return nil, err
	}
	c.emit(inst{op: opSuccess})
	prog := &program{insts: c.prog, nmarks: 2 * (r.groups - 1), isBytes: isBytes}
	prog.scan = analyze(prog)
	return prog, nil
}

// literalPrefix returns the exact text every match begins with.
func literalPrefix(prog *program) string {
	var b strings.Builder
loop:
	for pc := 0; pc < len(prog.insts); pc++ {
		in := &prog.insts[pc]
		switch {
		case in.op == opMark:
		case in.op == opByte:
			b.WriteByte(byte(in.arg))
		case in.op == opChar && in.test.kind == tkLit && !prog.isBytes &&
			in.test.c != utf8.RuneError && utf8.ValidRune(in.test.c):
			b.WriteRune(in.test.c)
		default:
			break loop
		}
	}
	return b.String()
}
