package sre

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unsafe"
)

// DefaultMaxStack is the backtracking stack bound, in bytes, used when
// Limits.MaxStack is zero.
const DefaultMaxStack = 256 << 20

// Limits bounds one matching operation.
type Limits struct {
	// MaxSteps bounds the matcher's work: instructions executed and
	// characters examined, summed over the whole operation. Zero means no
	// bound.
	MaxSteps int64
	// MaxStack bounds the backtracking stack in bytes. Zero means
	// DefaultMaxStack.
	MaxStack int
	// MaxResult bounds what Sub, Split and FindAll build: the bytes of
	// text produced plus one per list item. Zero means no bound.
	MaxResult int64
}

// Text is the subject of a match: a str (UTF-8) or bytes value.
type Text struct{ s string }

// Str returns the Text of s.
func Str(s string) Text { return Text{s} }

// Bytes returns the Text of b without copying it; b must not change
// while the Text is in use.
func Bytes(b []byte) Text {
	if len(b) == 0 {
		return Text{}
	}
	return Text{unsafe.String(unsafe.SliceData(b), len(b))}
}

// Len returns the length of t in bytes.
func (t Text) Len() int { return len(t.s) }

// Slice returns the bytes of t from start to end as a string, sharing
// memory with t.
func (t Text) Slice(start, end int) string { return t.s[start:end] }

// GroupName is a named group and its number.
type GroupName struct {
	Name  string
	Index int
}

// Pattern is a compiled regular expression. It is safe for concurrent use.
type Pattern struct {
	pattern   string
	isBytes   bool
	flags     Flag
	groups    int
	names     []GroupName
	nameIndex map[string]int
	prog      *program
	warnings  []Warning
	machines  sync.Pool
}

// Compile compiles a str pattern with the given flags, as re.compile.
func Compile(pattern string, flags Flag) (*Pattern, error) {
	return compile(pattern, false, flags)
}

// CompileBytes compiles a bytes pattern with the given flags.
func CompileBytes(pattern []byte, flags Flag) (*Pattern, error) {
	return compile(string(pattern), true, flags)
}

func compile(pattern string, isBytes bool, flags Flag) (*Pattern, error) {
	initTables()
	r, err := parse(pattern, isBytes, flags)
	if err != nil {
		return nil, err
	}
	allFlags := r.flags | flags
	prog, err := compileProgram(r, isBytes, allFlags)
	if err != nil {
		return nil, withWarnings(err, r.warnings)
	}
	p := &Pattern{
		pattern:   pattern,
		isBytes:   isBytes,
		flags:     allFlags,
		groups:    r.groups - 1,
		nameIndex: r.groupNames,
		prog:      prog,
		warnings:  r.warnings,
	}
	if flags&TEMPLATE != 0 {
		p.warnings = append([]Warning{{Category: "DeprecationWarning", Msg: "The re.TEMPLATE/re.T flag is deprecated as it is an undocumented flag without an obvious purpose. Don't use it."}}, p.warnings...)
	}
	for _, name := range r.groupOrder {
		p.names = append(p.names, GroupName{name, r.groupNames[name]})
	}
	return p, nil
}

// String returns the source of the pattern (Pattern.pattern).
func (p *Pattern) String() string { return p.pattern }

// IsBytes reports whether p is a bytes pattern.
func (p *Pattern) IsBytes() bool { return p.isBytes }

// Flags returns the flags as CPython reports them (Pattern.flags), for
// example UNICODE for a plain str pattern.
func (p *Pattern) Flags() Flag { return p.flags }

// Groups returns the number of capturing groups (Pattern.groups).
func (p *Pattern) Groups() int { return p.groups }

// GroupIndex returns the named groups in definition order
// (Pattern.groupindex).
func (p *Pattern) GroupIndex() []GroupName { return p.names }

// GroupNumber returns the number of the named group.
func (p *Pattern) GroupNumber(name string) (int, bool) {
	n, ok := p.nameIndex[name]
	return n, ok
}

var flagNames = []struct {
	flag Flag
	name string
}{
	{TEMPLATE, "re.TEMPLATE"}, {IGNORECASE, "re.IGNORECASE"}, {LOCALE, "re.LOCALE"},
	{MULTILINE, "re.MULTILINE"}, {DOTALL, "re.DOTALL"}, {UNICODE, "re.UNICODE"},
	{VERBOSE, "re.VERBOSE"}, {DEBUG, "re.DEBUG"}, {ASCII, "re.ASCII"},
}

// FlagsRepr returns the flags part of repr(pattern) ("re.IGNORECASE|re.DOTALL",
// with unknown bits in hex), or "" when repr shows none: repr(p) is then
// "re.compile(%.200r)" of the pattern, else "re.compile(%.200r, FLAGS)".
func (p *Pattern) FlagsRepr() string {
	flags := p.flags
	if !p.isBytes && flags&(LOCALE|UNICODE|ASCII) == UNICODE {
		flags &^= UNICODE
	}
	var parts []string
	for _, f := range flagNames {
		if flags&f.flag != 0 {
			parts = append(parts, f.name)
			flags &^= f.flag
		}
	}
	if flags != 0 {
		parts = append(parts, fmt.Sprintf("0x%x", int(flags)))
	}
	return strings.Join(parts, "|")
}

// Warnings returns the warnings CPython emits while compiling the pattern
// (FutureWarning for possible set operations).
func (p *Pattern) Warnings() []Warning { return p.warnings }

// Match is the result of a successful match. Spans holds, for group g,
// Spans[2g] and Spans[2g+1]: byte offsets, -1 for a group that did not
// take part. Group 0 is the whole match.
type Match struct {
	Spans []int
	// LastIndex is the number of the last group closed, or -1 (None).
	LastIndex int
	// Pos and EndPos are the bounds the search used, after clamping.
	Pos, EndPos int
}

// Span returns the span of group g.
func (m *Match) Span(g int) (start, end int) { return m.Spans[2*g], m.Spans[2*g+1] }

// Group returns the text of group g and whether it took part.
func (m *Match) Group(t Text, g int) (string, bool) {
	s, e := m.Span(g)
	if s < 0 {
		return "", false
	}
	return t.s[s:e], true
}

func (p *Pattern) getMachine(ctx context.Context, t Text, lim Limits) *machine {
	m, _ := p.machines.Get().(*machine)
	if m == nil {
		m = &machine{prog: p.prog, insts: p.prog.insts, byteMode: p.isBytes,
			marks: make([]int, p.prog.nmarks)}
	}
	m.s = t.s
	m.end = len(t.s)
	if ctx == nil {
		ctx = context.Background()
	}
	m.ctx = ctx
	m.done = ctx.Done()
	m.steps = 0
	m.maxSteps = lim.MaxSteps
	m.nextCheck = checkEvery
	if m.maxSteps > 0 && m.maxSteps < m.nextCheck {
		m.nextCheck = m.maxSteps + 1
	}
	m.maxStack = lim.MaxStack
	if m.maxStack <= 0 {
		m.maxStack = DefaultMaxStack
	}
	m.mustAdvance, m.matchAll = false, false
	return m
}

func (p *Pattern) putMachine(m *machine) {
	m.s = ""
	m.ctx, m.done = nil, nil
	if cap(m.frames) > 1<<16 {
		m.frames = nil
	}
	if cap(m.data) > 1<<16 {
		m.data = nil
	}
	p.machines.Put(m)
}

// clamp limits pos and endpos to [0, n] as sre does.
func clamp(pos, endpos, n int) (int, int) {
	pos = min(max(pos, 0), n)
	endpos = min(max(endpos, 0), n)
	return pos, endpos
}

// newMatch builds the Match of a successful attempt (sre's
// pattern_new_match).
// The Match is the caller's: a pattern of up to three groups has its
// spans in the same allocation, sized to them.
func (m *machine) newMatch(groups, pos, endpos int) (*Match, error) {
	var match *Match
	switch groups {
	case 0:
		b := new(matchBuf[[2]int])
		b.Spans, match = b.buf[:], &b.Match
	case 1:
		b := new(matchBuf[[4]int])
		b.Spans, match = b.buf[:], &b.Match
	case 2:
		b := new(matchBuf[[6]int])
		b.Spans, match = b.buf[:], &b.Match
	case 3:
		b := new(matchBuf[[8]int])
		b.Spans, match = b.buf[:], &b.Match
	default:
		match = &Match{Spans: make([]int, 2*(groups+1))}
	}
	if err := m.fillSpans(match.Spans, groups); err != nil {
		return nil, err
	}
	match.LastIndex, match.Pos, match.EndPos = m.lastindex, pos, endpos
	return match, nil
}

// matchBuf is a Match with room for its spans (B, an array of ints).
type matchBuf[B any] struct {
	Match
	buf B
}

func (m *machine) fillSpans(spans []int, groups int) error {
	spans[0], spans[1] = m.start, m.ptr
	for g, j := 0, 0; g < groups; g, j = g+1, j+2 {
		if j+1 <= m.lastmark && m.marks[j] >= 0 && m.marks[j+1] >= 0 {
			if m.marks[j] > m.marks[j+1] {
				return &PyError{Type: "SystemError", Msg: "The span of capturing group is wrong, please report a bug for the re module."}
			}
			spans[j+2], spans[j+3] = m.marks[j], m.marks[j+1]
		} else {
			spans[j+2], spans[j+3] = -1, -1
		}
	}
	return nil
}

func (p *Pattern) exec(ctx context.Context, t Text, pos, endpos int, lim Limits, mode int) (*Match, error) {
	pos, endpos = clamp(pos, endpos, len(t.s))
	m := p.getMachine(ctx, t, lim)
	defer p.putMachine(m)
	m.end = endpos
	var ok bool
	var err error
	switch mode {
	case modeSearch:
		ok, err = m.search(pos)
	case modeFull:
		m.matchAll = true
		ok, err = m.matchAt(pos)
	default:
		ok, err = m.matchAt(pos)
	}
	if err != nil || !ok {
		return nil, err
	}
	return m.newMatch(p.groups, pos, endpos)
}

const (
	modeMatch = iota
	modeSearch
	modeFull
)

// Match tries the pattern at pos (re.Pattern.match), within [pos,
// endpos). It returns nil and no error when there is no match.
func (p *Pattern) Match(ctx context.Context, t Text, pos, endpos int, lim Limits) (*Match, error) {
	return p.exec(ctx, t, pos, endpos, lim, modeMatch)
}

// Search finds the leftmost match at or after pos (re.Pattern.search).
func (p *Pattern) Search(ctx context.Context, t Text, pos, endpos int, lim Limits) (*Match, error) {
	return p.exec(ctx, t, pos, endpos, lim, modeSearch)
}

// FullMatch tries to match the whole of [pos, endpos)
// (re.Pattern.fullmatch).
func (p *Pattern) FullMatch(ctx context.Context, t Text, pos, endpos int, lim Limits) (*Match, error) {
	return p.exec(ctx, t, pos, endpos, lim, modeFull)
}

// Scanner iterates over successive matches, as the scanner object behind
// re.Pattern.finditer (Search) and re.Scanner (Match). Its Limits apply to
// all its calls together.
type Scanner struct {
	p           *Pattern
	t           Text
	lim         Limits
	pos, endpos int
	start       int // -1 once exhausted
	mustAdvance bool
	steps       int64
}

// Scanner returns a Scanner over t from pos to endpos.
func (p *Pattern) Scanner(t Text, pos, endpos int, lim Limits) *Scanner {
	pos, endpos = clamp(pos, endpos, len(t.s))
	return &Scanner{p: p, t: t, lim: lim, pos: pos, endpos: endpos, start: pos}
}

// SetText replaces the subject with t, which must hold the same bytes as
// the text the Scanner was made with: a caller that may read its subject
// only inside a callback (a host's view of a text) resumes the scan with
// the view of a later callback.
func (sc *Scanner) SetText(t Text) { sc.t = t }

// Search returns the next match, or nil when there are no more.
func (sc *Scanner) Search(ctx context.Context) (*Match, error) { return sc.next(ctx, true) }

// Match returns the next match that begins exactly where the previous one
// ended, or nil.
func (sc *Scanner) Match(ctx context.Context) (*Match, error) { return sc.next(ctx, false) }

func (sc *Scanner) next(ctx context.Context, search bool) (*Match, error) {
	if sc.start < 0 {
		return nil, nil
	}
	lim := sc.lim
	if lim.MaxSteps > 0 {
		lim.MaxSteps -= sc.steps
		if lim.MaxSteps <= 0 {
			return nil, ErrStepLimit
		}
	}
	m := sc.p.getMachine(ctx, sc.t, lim)
	defer sc.p.putMachine(m)
	m.end = sc.endpos
	m.mustAdvance = sc.mustAdvance
	var ok bool
	var err error
	if search {
		ok, err = m.search(sc.start)
	} else {
		m.reset()
		m.start, m.ptr = sc.start, sc.start
		ok, err = m.run(0, true)
	}
	sc.steps += m.steps
	if err != nil {
		return nil, err
	}
	if !ok {
		sc.start = -1
		return nil, nil
	}
	match, err := m.newMatch(sc.p.groups, sc.pos, sc.endpos)
	if err != nil {
		return nil, err
	}
	sc.mustAdvance = m.ptr == m.start
	sc.start = m.ptr
	return match, nil
}

// resultBudget tracks Limits.MaxResult.
type resultBudget struct {
	max, used int64
}

func (b *resultBudget) add(n int) error {
	if b.max <= 0 {
		return nil
	}
	b.used += int64(n)
	if b.used > b.max {
		return ErrResultTooLarge
	}
	return nil
}

// FindAll calls yield for each successive non-overlapping match in [pos,
// endpos), as re.Pattern.findall and finditer see them. The Match passed
// to yield is reused: it is valid only during the call. An error from
// yield stops the iteration and is returned. Limits.MaxResult counts what
// findall's list holds: the whole match, the only group, or every group
// (unset groups counting as empty), plus one per item.
func (p *Pattern) FindAll(ctx context.Context, t Text, pos, endpos int, lim Limits, yield func(*Match) error) error {
	pos, endpos = clamp(pos, endpos, len(t.s))
	m := p.getMachine(ctx, t, lim)
	defer p.putMachine(m)
	m.end = endpos
	budget := resultBudget{max: lim.MaxResult}
	match := &Match{Spans: make([]int, 2*(p.groups+1)), Pos: pos, EndPos: endpos}
	start := pos
	for start <= endpos {
		ok, err := m.search(start)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := m.fillSpans(match.Spans, p.groups); err != nil {
			return err
		}
		match.LastIndex = m.lastindex
		size := 1
		switch p.groups {
		case 0:
			size += match.Spans[1] - match.Spans[0]
		default:
			for g := 1; g <= p.groups; g++ {
				if s, e := match.Span(g); s >= 0 {
					size += e - s
				}
				if p.groups == 1 {
					break
				}
			}
		}
		if err := budget.add(size); err != nil {
			return err
		}
		if err := yield(match); err != nil {
			return err
		}
		m.mustAdvance = m.ptr == m.start
		start = m.ptr
	}
	return nil
}

// Split calls yield for each item of re.Pattern.split's result in order:
// the text between matches and, after each, the span of every group
// (-1, -1 for a group that did not take part). A maxsplit of 0 means no
// limit; a negative one, as in CPython, makes no split at all.
func (p *Pattern) Split(ctx context.Context, t Text, maxsplit int, lim Limits, yield func(start, end int) error) error {
	m := p.getMachine(ctx, t, lim)
	defer p.putMachine(m)
	budget := resultBudget{max: lim.MaxResult}
	emit := func(s, e int) error {
		n := 1
		if s >= 0 {
			n += e - s
		}
		if err := budget.add(n); err != nil {
			return err
		}
		return yield(s, e)
	}
	last, start, n := 0, 0, 0
	spans := make([]int, 2*(p.groups+1))
	for maxsplit == 0 || n < maxsplit {
		ok, err := m.search(start)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := m.fillSpans(spans, p.groups); err != nil {
			return err
		}
		if err := emit(last, m.start); err != nil {
			return err
		}
		for g := 1; g <= p.groups; g++ {
			if err := emit(spans[2*g], spans[2*g+1]); err != nil {
				return err
			}
		}
		n++
		m.mustAdvance = m.ptr == m.start
		last, start = m.ptr, m.ptr
	}
	return emit(last, len(t.s))
}

// Replacer produces the replacement text for a match in Sub.
type Replacer interface {
	// Replace appends the replacement for match m of t to dst.
	Replace(dst []byte, t Text, m *Match) ([]byte, error)
}

// ReplacerFunc adapts a function (a Python callable repl) to Replacer.
type ReplacerFunc func(dst []byte, t Text, m *Match) ([]byte, error)

// Replace calls f.
func (f ReplacerFunc) Replace(dst []byte, t Text, m *Match) ([]byte, error) { return f(dst, t, m) }

// Sub appends to dst the text of t with the first count non-overlapping
// matches replaced (all when count is 0; none when it is negative, as in
// CPython), as re.Pattern.subn, and returns the result and the number of
// replacements. The Match passed to repl is reused: it is valid only
// during the call.
func (p *Pattern) Sub(ctx context.Context, dst []byte, t Text, repl Replacer, count int, lim Limits) ([]byte, int, error) {
	m := p.getMachine(ctx, t, lim)
	defer p.putMachine(m)
	base := len(dst)
	// The machine keeps the Match passed to repl (valid only during the
	// call): a pooled machine's Sub allocates none.
	match := &m.subMatch
	if len(match.Spans) != 2*(p.groups+1) {
		match.Spans = make([]int, 2*(p.groups+1))
	}
	match.Pos, match.EndPos, match.LastIndex = 0, len(t.s), 0
	check := func() error {
		if lim.MaxResult > 0 && int64(len(dst)-base) > lim.MaxResult {
			return ErrResultTooLarge
		}
		return nil
	}
	i, start, n := 0, 0, 0
	for count == 0 || n < count {
		ok, err := m.search(start)
		if err != nil {
			return dst, n, err
		}
		if !ok {
			break
		}
		if err := m.fillSpans(match.Spans, p.groups); err != nil {
			return dst, n, err
		}
		match.LastIndex = m.lastindex
		b, e := m.start, m.ptr
		if i < b {
			dst = append(dst, t.s[i:b]...)
		}
		dst, err = repl.Replace(dst, t, match)
		if err != nil {
			return dst, n, err
		}
		if err := check(); err != nil {
			return dst, n, err
		}
		i = e
		n++
		m.mustAdvance = e == b
		start = e
	}
	if i < len(t.s) {
		dst = append(dst, t.s[i:]...)
	}
	return dst, n, check()
}

// escapeChars are the characters re.escape escapes.
var escapeChars = func() (t [128]bool) {
	for _, c := range "()[]{}?*+-|^$\\.&~# \t\n\r\v\f" {
		t[c] = true
	}
	return t
}()

// Escape escapes s as re.escape does; it serves str (UTF-8) and bytes
// alike, since only ASCII characters are escaped.
func Escape(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < 128 && escapeChars[s[i]] {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+n)
	for i := 0; i < len(s); i++ {
		if s[i] < 128 && escapeChars[s[i]] {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}
