package sre

import (
	"context"
	"strings"
	"unicode/utf8"
)

// How a parent frame resumes when its child frame returns (sre's jump
// kinds).
const (
	rNone uint8 = iota
	rBranch
	rRepeatOne
	rMinRepeatOne
	rRepeat
	rMaxUntil1
	rMaxUntil2
	rMaxUntil3
	rMinUntil1
	rMinUntil2
	rMinUntil3
	rPoss1
	rPoss2
	rAtomic
	rAssert
	rAssertNot
)

// frame is one activation of the matcher: sre's match context.
type frame struct {
	pc        int32
	resume    uint8 // set on a child: how its parent resumes
	toplevel  bool
	lastmark  int32
	lastindex int32
	rep       int32
	ptr       int
	count     int
	aux       int
}

const frameBytes = 48

// repCtx is an active general repeat (sre's SRE_REPEAT).
type repCtx struct {
	count   int
	pc      int
	prev    int
	lastPtr int
}

// machine holds the state of one matching operation (sre's SRE_STATE).
type machine struct {
	prog     *program
	insts    []inst
	s        string
	byteMode bool
	end      int // endpos
	start    int // where the current attempt began
	ptr      int // sre's state->ptr
	// mustAdvance forbids an empty match at start; matchAll requires the
	// match to reach end (fullmatch).
	mustAdvance bool
	matchAll    bool

	marks     []int
	lastmark  int
	lastindex int
	repeat    int
	reps      []repCtx
	frames    []frame
	data      []int

	done      <-chan struct{}
	ctx       context.Context
	steps     int64
	maxSteps  int64
	nextCheck int64
	maxStack  int

	subMatch Match // the match Sub passes to its Replacer, reused
}

const checkEvery = 4096

// check is called every checkEvery steps: it reports a spent budget or an
// ended context.
func (m *machine) check() error {
	if m.maxSteps > 0 && m.steps > m.maxSteps {
		return ErrStepLimit
	}
	if m.done != nil {
		select {
		case <-m.done:
			return m.ctx.Err()
		default:
		}
	}
	m.nextCheck = m.steps + checkEvery
	return nil
}

// addSteps charges n steps.
func (m *machine) addSteps(n int) error {
	m.steps += int64(n)
	if m.steps >= m.nextCheck {
		return m.check()
	}
	return nil
}

func (m *machine) stackFull() bool {
	return (len(m.frames)*frameBytes + len(m.data)*8 + len(m.reps)*32) > m.maxStack
}

// char decodes the character at p (p < end).
func (m *machine) char(p int) (rune, int) {
	b := m.s[p]
	if b < utf8.RuneSelf || m.byteMode {
		return rune(b), 1
	}
	return utf8.DecodeRuneInString(m.s[p:m.end])
}

// prevChar decodes the character before p (p > 0).
func (m *machine) prevChar(p int) (rune, int) {
	b := m.s[p-1]
	if b < utf8.RuneSelf || m.byteMode {
		return rune(b), 1
	}
	return utf8.DecodeLastRuneInString(m.s[:p])
}

// back steps n characters back from p, reporting false when the string's
// beginning comes first.
func (m *machine) back(p, n int) (int, bool) {
	if m.byteMode {
		if p < n {
			return 0, false
		}
		return p - n, true
	}
	for ; n > 0; n-- {
		if p <= 0 {
			return 0, false
		}
		_, w := m.prevChar(p)
		p -= w
	}
	return p, true
}

func (m *machine) wordClass(c rune, code int) bool {
	if code == atUniBoundary || code == atUniNonBoundary {
		return isUniWord(c)
	}
	return isASCIIWord(c)
}

// at is sre's position test.
func (m *machine) at(ptr, code int) bool {
	switch code {
	case atBeginning, atBeginningString:
		return ptr == 0
	case atBeginningLine:
		return ptr == 0 || m.s[ptr-1] == '\n'
	case atEnd:
		return ptr+1 == m.end && m.s[ptr] == '\n' || ptr == m.end
	case atEndLine:
		return ptr == m.end || ptr < len(m.s) && m.s[ptr] == '\n'
	case atEndString:
		return ptr == m.end
	case atBoundary, atNonBoundary, atLocBoundary, atLocNonBoundary, atUniBoundary, atUniNonBoundary:
		if m.end == 0 {
			return false
		}
		that := false
		if ptr > 0 {
			c, _ := m.prevChar(ptr)
			that = m.wordClass(c, code)
		}
		this := false
		if ptr < m.end {
			c, _ := m.char(ptr)
			this = m.wordClass(c, code)
		}
		if code == atBoundary || code == atLocBoundary || code == atUniBoundary {
			return this != that
		}
		return this == that
	}
	return false
}

// markPush saves marks 0..lastmark on the data stack.
func (m *machine) markPush(lastmark int) {
	if lastmark >= 0 {
		m.data = append(m.data, m.marks[:lastmark+1]...)
	}
}

func (m *machine) markPop(lastmark int) {
	if lastmark >= 0 {
		n := len(m.data) - (lastmark + 1)
		copy(m.marks, m.data[n:])
		m.data = m.data[:n]
	}
}

func (m *machine) markPopKeep(lastmark int) {
	if lastmark >= 0 {
		copy(m.marks, m.data[len(m.data)-(lastmark+1):])
	}
}

func (m *machine) markDiscard(lastmark int) {
	if lastmark >= 0 {
		m.data = m.data[:len(m.data)-(lastmark+1)]
	}
}

// count matches t repeatedly from ptr, at most max times, as sre's count.
// It returns the number n of characters matched, the position after them,
// and the position after the first min of them (meaningful when n >= min).
// When max is maxRepeat, n may stop counting at min.
func (m *machine) count(t *charTest, ptr, maxN, minN int) (n, end, minPtr int, err error) {
	s := m.s
	lim := m.end
	unbounded := maxN == maxRepeat
	if unbounded {
		maxN = int(^uint(0) >> 1)
	}
	p := ptr
	minPtr = -1
	if minN == 0 {
		minPtr = p
	}
	if m.byteMode || t.kind == tkLit && t.c < 0x80 {
		// One byte per character (or an ASCII literal: one byte per match).
		if m.byteMode {
			if rem := lim - p; maxN > rem {
				maxN = max(rem, 0)
			}
		}
		stop := p + maxN
		if stop > lim || stop < p {
			stop = lim
		}
		switch t.kind {
		case tkLit:
			c := byte(t.c)
			if t.c > 0xff {
				stop = p
			}
			for p < stop && s[p] == c {
				p++
			}
		case tkAnyAll:
			p = max(stop, p)
		default:
			for p < stop && t.match(rune(s[p])) {
				p++
			}
		}
		n = p - ptr
		if n >= minN {
			minPtr = ptr + minN
		}
		return n, p, minPtr, m.addSteps(n)
	}
	if (t.kind == tkAny || t.kind == tkAnyAll) && unbounded && p <= lim {
		// An unbounded run of "." ends at the next newline (or the end);
		// callers of an unbounded count need the count only up to min.
		end = lim
		if t.kind == tkAny {
			if i := strings.IndexByte(s[p:lim], '\n'); i >= 0 {
				end = p + i
			}
		}
		for n < minN && p < end {
			_, w := utf8.DecodeRuneInString(s[p:end])
			p += w
			n++
		}
		if n == minN {
			minPtr = p
		}
		return n, end, minPtr, m.addSteps(end - ptr)
	}
	for n < maxN && p < lim {
		b := s[p]
		var c rune
		w := 1
		if b < utf8.RuneSelf {
			c = rune(b)
		} else {
			c, w = utf8.DecodeRuneInString(s[p:lim])
		}
		if !t.match(c) {
			break
		}
		p += w
		n++
		if n == minN {
			minPtr = p
		}
	}
	return n, p, minPtr, m.addSteps(n)
}

// tailFails reports that the code at pc fails at once at ptr, so that a
// child frame started there would return failure. It runs the leading
// MARK instructions as the child would (their effects are the child's, and
// the caller then restores as after the child's failure, or starts the
// child, which sets the same marks again); it looks through zero-width
// position tests, which change nothing. When the first consuming
// instruction is not a plain character test it reports false.
func (m *machine) tailFails(pc, ptr int) bool {
	for {
		in := &m.insts[pc]
		switch in.op {
		case opMark:
			m.setMark(in.arg, ptr)
		case opAt:
			if !m.at(ptr, in.arg) {
				return true
			}
		case opByte:
			return ptr >= m.end || m.s[ptr] != byte(in.arg)
		case opChar:
			if ptr >= m.end {
				return true
			}
			c, _ := m.char(ptr)
			return !in.test.match(c)
		default:
			return false
		}
		pc++
	}
}

// restoreAfterChild undoes what a failed child may have changed, as the
// parent f does after a child's failure: its saved marks when inside a
// repeat, and lastmark and lastindex.
func (m *machine) restoreAfterChild(f *frame) {
	if m.repeat >= 0 {
		m.markPopKeep(int(f.lastmark))
	}
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
}

// setMark is sre's MARK.
func (m *machine) setMark(i, ptr int) {
	if i&1 == 1 {
		m.lastindex = i/2 + 1
	}
	if i > m.lastmark {
		for j := m.lastmark + 1; j < i; j++ {
			m.marks[j] = -1
		}
		m.lastmark = i
	}
	m.marks[i] = ptr
}

// groupEqual compares the text of group marks [p, e) with the input at ptr.
func (m *machine) groupref(in *inst, ptr int) (int, bool) {
	gr := 2 * in.arg
	if gr >= m.lastmark {
		return 0, false
	}
	p, e := m.marks[gr], m.marks[gr+1]
	if p < 0 || e < 0 || e < p {
		return 0, false
	}
	for p < e {
		if ptr >= m.end {
			return 0, false
		}
		c1, w1 := m.char(ptr)
		var c2 rune
		w2 := 1
		if b := m.s[p]; b < utf8.RuneSelf || m.byteMode {
			c2 = rune(b)
		} else {
			c2, w2 = utf8.DecodeRuneInString(m.s[p:e])
		}
		switch in.fold {
		case refExact:
		case refIgnore:
			c1, c2 = asciiLower(c1), asciiLower(c2)
		case refUniIgnore:
			c1, c2 = uniLower(c1), uniLower(c2)
		case refLocIgnore:
			c1, c2 = locLower(c1), locLower(c2)
		}
		if c1 != c2 {
			return 0, false
		}
		ptr += w1
		p += w2
	}
	return ptr, true
}

// run matches the program from pc at m.ptr, as sre's SRE(match). It
// reports whether a match was found; on success m.ptr is its end.
func (m *machine) run(pc int, toplevel bool) (bool, error) {
	var (
		insts    = m.insts
		ptr      int
		ret      bool
		in       *inst
		f        *frame
		child    frame
		resume   uint8
		childPC  int
		childTop bool
		err      error
		n        int
		c        rune
		w        int
		r        *repCtx
		rin      *inst
	)
	m.frames = append(m.frames[:0], frame{resume: rNone, toplevel: toplevel, rep: -1})
	m.data = m.data[:0]
	ptr = m.ptr

dispatch:
	for {
		m.steps++
		if m.steps >= m.nextCheck {
			if err = m.check(); err != nil {
				return false, err
			}
		}
		in = &insts[pc]
		switch in.op {
		case opByte:
			if ptr >= m.end || m.s[ptr] != byte(in.arg) {
				goto fail
			}
			ptr++
			pc++
		case opChar:
			if ptr >= m.end {
				goto fail
			}
			c, w = m.char(ptr)
			if !in.test.match(c) {
				goto fail
			}
			ptr += w
			pc++
		case opMark:
			m.setMark(in.arg, ptr)
			pc++
		case opAt:
			if !m.at(ptr, in.arg) {
				goto fail
			}
			pc++
		case opJump:
			pc = in.next
		case opSuccess:
			f = &m.frames[len(m.frames)-1]
			if f.toplevel && (m.matchAll && ptr != m.end || m.mustAdvance && ptr == m.start) {
				goto fail
			}
			m.ptr = ptr
			goto succeed
		case opFailure:
			goto fail
		case opBranch:
			f = &m.frames[len(m.frames)-1]
			f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
			if m.repeat >= 0 {
				m.markPush(m.lastmark)
			}
			f.count = 0
			goto branchTry
		case opRepeatOne:
			if in.min > m.end-ptr {
				goto fail
			}
			m.ptr = ptr
			{
				var end, minPtr int
				n, end, minPtr, err = m.count(in.test, ptr, in.max, in.min)
				if err != nil {
					return false, err
				}
				if n < in.min {
					goto fail
				}
				ptr = end
				f = &m.frames[len(m.frames)-1]
				if insts[in.next].op == opSuccess && ptr == m.end && !(f.toplevel && m.mustAdvance && ptr == m.start) {
					m.ptr = ptr
					goto succeed
				}
				f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
				if m.repeat >= 0 {
					m.markPush(m.lastmark)
				}
				f.aux = minPtr
			}
			goto repeatOneTry
		case opMinRepeatOne:
			if in.min > m.end-ptr {
				goto fail
			}
			m.ptr = ptr
			f = &m.frames[len(m.frames)-1]
			if in.min == 0 {
				f.count = 0
			} else {
				var end int
				n, end, _, err = m.count(in.test, ptr, in.min, in.min)
				if err != nil {
					return false, err
				}
				if n < in.min {
					goto fail
				}
				f = &m.frames[len(m.frames)-1]
				f.count = n
				ptr = end
			}
			if insts[in.next].op == opSuccess && !(f.toplevel && (m.matchAll && ptr != m.end || m.mustAdvance && ptr == m.start)) {
				m.ptr = ptr
				goto succeed
			}
			f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
			if m.repeat >= 0 {
				m.markPush(m.lastmark)
			}
			goto minRepeatOneTry
		case opPossRepeatOne:
			if in.min > m.end-ptr {
				goto fail
			}
			m.ptr = ptr
			{
				var end int
				n, end, _, err = m.count(in.test, ptr, in.max, in.min)
				if err != nil {
					return false, err
				}
				if n < in.min {
					goto fail
				}
				ptr = end
			}
			pc = in.next
			f = &m.frames[len(m.frames)-1]
			if insts[pc].op == opSuccess && ptr == m.end && !(f.toplevel && m.mustAdvance && ptr == m.start) {
				m.ptr = ptr
				goto succeed
			}
		case opRepeat:
			if m.stackFull() {
				return false, ErrStackLimit
			}
			m.reps = append(m.reps, repCtx{count: -1, pc: pc, prev: m.repeat, lastPtr: -1})
			f = &m.frames[len(m.frames)-1]
			f.rep = int32(len(m.reps) - 1)
			m.repeat = len(m.reps) - 1
			m.ptr = ptr
			resume, childPC, childTop = rRepeat, in.next, f.toplevel
			goto call
		case opMaxUntil:
			if m.repeat < 0 {
				return false, &PyError{Type: "RuntimeError", Msg: "internal error in regular expression engine"}
			}
			m.ptr = ptr
			f = &m.frames[len(m.frames)-1]
			r = &m.reps[m.repeat]
			rin = &insts[r.pc]
			f.rep = int32(m.repeat)
			f.count = r.count + 1
			if f.count < rin.min {
				r.count = f.count
				resume, childPC, childTop = rMaxUntil1, r.pc+1, f.toplevel
				goto call
			}
			if (f.count < rin.max || rin.max == maxRepeat) && m.ptr != r.lastPtr {
				r.count = f.count
				f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
				m.markPush(m.lastmark)
				m.data = append(m.data, r.lastPtr)
				r.lastPtr = m.ptr
				resume, childPC, childTop = rMaxUntil2, r.pc+1, f.toplevel
				goto call
			}
			goto maxUntilTail
		case opMinUntil:
			if m.repeat < 0 {
				return false, &PyError{Type: "RuntimeError", Msg: "internal error in regular expression engine"}
			}
			m.ptr = ptr
			f = &m.frames[len(m.frames)-1]
			r = &m.reps[m.repeat]
			rin = &insts[r.pc]
			f.rep = int32(m.repeat)
			f.count = r.count + 1
			if f.count < rin.min {
				r.count = f.count
				resume, childPC, childTop = rMinUntil1, r.pc+1, f.toplevel
				goto call
			}
			m.repeat = r.prev
			f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
			if m.repeat >= 0 {
				m.markPush(m.lastmark)
			}
			resume, childPC, childTop = rMinUntil2, pc+1, f.toplevel
			goto call
		case opPossRepeat:
			m.ptr = ptr
			f = &m.frames[len(m.frames)-1]
			f.count = 0
			goto possMin
		case opAtomic:
			m.ptr = ptr
			resume, childPC, childTop = rAtomic, pc+1, false
			goto call
		case opAssert:
			{
				p, ok := m.back(ptr, in.arg)
				if !ok {
					goto fail
				}
				m.ptr = p
			}
			resume, childPC, childTop = rAssert, pc+1, false
			goto call
		case opAssertNot:
			{
				p, ok := m.back(ptr, in.arg)
				if ok {
					m.ptr = p
					f = &m.frames[len(m.frames)-1]
					f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
					if m.repeat >= 0 {
						m.markPush(m.lastmark)
					}
					resume, childPC, childTop = rAssertNot, pc+1, false
					goto call
				}
			}
			pc = in.next
		case opGroupref:
			{
				p, ok := m.groupref(in, ptr)
				if !ok {
					goto fail
				}
				if err = m.addSteps(p - ptr); err != nil {
					return false, err
				}
				ptr = p
			}
			pc++
		case opGrouprefExists:
			{
				gr := 2 * in.arg
				if gr >= m.lastmark {
					pc = in.next
					continue
				}
				p, e := m.marks[gr], m.marks[gr+1]
				if p < 0 || e < 0 || e < p {
					pc = in.next
					continue
				}
			}
			pc++
		default:
			return false, &PyError{Type: "RuntimeError", Msg: "internal error in regular expression engine"}
		}
	}

call:
	if m.stackFull() {
		return false, ErrStackLimit
	}
	f = &m.frames[len(m.frames)-1]
	f.pc = int32(pc)
	f.ptr = ptr
	m.frames = append(m.frames, frame{resume: resume, toplevel: childTop, rep: -1})
	pc = childPC
	ptr = m.ptr
	goto dispatch

fail:
	ret = false
	goto exit
succeed:
	ret = true
exit:
	child = m.frames[len(m.frames)-1]
	m.frames = m.frames[:len(m.frames)-1]
	if len(m.frames) == 0 {
		return ret, nil
	}
	f = &m.frames[len(m.frames)-1]
	pc, ptr = int(f.pc), f.ptr
	in = &insts[pc]
	switch child.resume {
	case rBranch:
		goto resBranch
	case rRepeatOne:
		goto resRepeatOne
	case rMinRepeatOne:
		goto resMinRepeatOne
	case rRepeat:
		goto resRepeat
	case rMaxUntil1, rMinUntil1:
		goto resUntil1
	case rMaxUntil2:
		goto resMaxUntil2
	case rMaxUntil3:
		goto resMaxUntil3
	case rMinUntil2:
		goto resMinUntil2
	case rMinUntil3:
		goto resMinUntil3
	case rPoss1:
		goto resPoss1
	case rPoss2:
		goto resPoss2
	case rAtomic:
		goto resAtomic
	case rAssert:
		goto resAssert
	case rAssertNot:
		goto resAssertNot
	}
	return false, &PyError{Type: "RuntimeError", Msg: "internal error in regular expression engine"}

branchTry:
	f = &m.frames[len(m.frames)-1]
	for f.count < len(in.alts) {
		childPC = in.alts[f.count]
		f.count++
		if m.tailFails(childPC, ptr) {
			m.restoreAfterChild(f)
			continue
		}
		m.ptr = ptr
		resume, childTop = rBranch, f.toplevel
		goto call
	}
	if m.repeat >= 0 {
		m.markDiscard(int(f.lastmark))
	}
	goto fail

resBranch:
	if ret {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto succeed
	}
	if m.repeat >= 0 {
		m.markPopKeep(int(f.lastmark))
	}
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	goto branchTry

repeatOneTry:
	// ptr is the end of the characters taken; f.aux the lowest end allowed.
	f = &m.frames[len(m.frames)-1]
	for ptr >= f.aux {
		if !m.tailFails(in.next, ptr) {
			m.ptr = ptr
			resume, childPC, childTop = rRepeatOne, in.next, f.toplevel
			goto call
		}
		m.restoreAfterChild(f)
		if ptr == f.aux {
			break
		}
		if m.byteMode {
			ptr--
		} else {
			_, w = m.prevChar(ptr)
			ptr -= w
		}
		m.steps++
		if m.steps >= m.nextCheck {
			if err = m.check(); err != nil {
				return false, err
			}
		}
	}
	if m.repeat >= 0 {
		m.markDiscard(int(f.lastmark))
	}
	goto fail

resRepeatOne:
	if ret {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto succeed
	}
	if m.repeat >= 0 {
		m.markPopKeep(int(f.lastmark))
	}
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	if ptr == f.aux {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto fail
	}
	if m.byteMode {
		ptr--
	} else {
		_, w = m.prevChar(ptr)
		ptr -= w
	}
	goto repeatOneTry

minRepeatOneTry:
	f = &m.frames[len(m.frames)-1]
	for in.max == maxRepeat || f.count <= in.max {
		if !m.tailFails(in.next, ptr) {
			m.ptr = ptr
			resume, childPC, childTop = rMinRepeatOne, in.next, f.toplevel
			goto call
		}
		m.restoreAfterChild(f)
		m.ptr = ptr
		if ptr >= m.end {
			break
		}
		c, w = m.char(ptr)
		if !in.test.match(c) {
			break
		}
		ptr += w
		f.count++
		m.steps++
		if m.steps >= m.nextCheck {
			if err = m.check(); err != nil {
				return false, err
			}
		}
	}
	if m.repeat >= 0 {
		m.markDiscard(int(f.lastmark))
	}
	goto fail

resMinRepeatOne:
	if ret {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto succeed
	}
	if m.repeat >= 0 {
		m.markPopKeep(int(f.lastmark))
	}
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	m.ptr = ptr
	if ptr >= m.end {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto fail
	}
	c, w = m.char(ptr)
	if !in.test.match(c) {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto fail
	}
	ptr += w
	f.count++
	goto minRepeatOneTry

resRepeat:
	m.repeat = m.reps[f.rep].prev
	m.reps = m.reps[:f.rep]
	if ret {
		goto succeed
	}
	goto fail

resUntil1:
	if ret {
		goto succeed
	}
	m.reps[f.rep].count = f.count - 1
	m.ptr = ptr
	goto fail

resMaxUntil2:
	r = &m.reps[f.rep]
	r.lastPtr = m.data[len(m.data)-1]
	m.data = m.data[:len(m.data)-1]
	if ret {
		m.markDiscard(int(f.lastmark))
		goto succeed
	}
	m.markPop(int(f.lastmark))
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	r.count = f.count - 1
	m.ptr = ptr
	goto maxUntilTail

maxUntilTail:
	f = &m.frames[len(m.frames)-1]
	m.repeat = m.reps[f.rep].prev
	resume, childPC, childTop = rMaxUntil3, pc+1, f.toplevel
	goto call

resMaxUntil3:
	m.repeat = int(f.rep)
	if ret {
		goto succeed
	}
	m.ptr = ptr
	goto fail

resMinUntil2:
	{
		tailRepeat := m.repeat
		m.repeat = int(f.rep)
		if ret {
			if tailRepeat >= 0 {
				m.markDiscard(int(f.lastmark))
			}
			goto succeed
		}
		if tailRepeat >= 0 {
			m.markPop(int(f.lastmark))
		}
	}
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	m.ptr = ptr
	r = &m.reps[f.rep]
	rin = &insts[r.pc]
	if f.count >= rin.max && rin.max != maxRepeat || m.ptr == r.lastPtr {
		goto fail
	}
	r.count = f.count
	m.data = append(m.data, r.lastPtr)
	r.lastPtr = m.ptr
	resume, childPC, childTop = rMinUntil3, r.pc+1, f.toplevel
	goto call

resMinUntil3:
	r = &m.reps[f.rep]
	r.lastPtr = m.data[len(m.data)-1]
	m.data = m.data[:len(m.data)-1]
	if ret {
		goto succeed
	}
	r.count = f.count - 1
	m.ptr = ptr
	goto fail

possMin:
	f = &m.frames[len(m.frames)-1]
	if f.count < in.min {
		resume, childPC, childTop = rPoss1, pc+1, false
		goto call
	}
	f.aux = -1
	goto possLoop

resPoss1:
	if ret {
		f.count++
		goto possMin
	}
	m.ptr = ptr
	goto fail

possLoop:
	f = &m.frames[len(m.frames)-1]
	if (f.count < in.max || in.max == maxRepeat) && m.ptr != f.aux {
		f.lastmark, f.lastindex = int32(m.lastmark), int32(m.lastindex)
		m.markPush(m.lastmark)
		f.aux = m.ptr
		ptr = m.ptr
		resume, childPC, childTop = rPoss2, pc+1, false
		goto call
	}
	goto possTail

resPoss2:
	if ret {
		m.markDiscard(int(f.lastmark))
		f.count++
		goto possLoop
	}
	m.markPop(int(f.lastmark))
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	m.ptr = ptr
	goto possTail

possTail:
	pc = in.next
	ptr = m.ptr
	goto dispatch

resAtomic:
	if !ret {
		m.ptr = ptr
		goto fail
	}
	pc = in.next
	ptr = m.ptr
	goto dispatch

resAssert:
	if !ret {
		goto fail
	}
	pc = in.next
	goto dispatch

resAssertNot:
	if ret {
		if m.repeat >= 0 {
			m.markDiscard(int(f.lastmark))
		}
		goto fail
	}
	if m.repeat >= 0 {
		m.markPop(int(f.lastmark))
	}
	m.lastmark, m.lastindex = int(f.lastmark), int(f.lastindex)
	pc = in.next
	goto dispatch
}
