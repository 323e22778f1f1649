package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxParseDepth bounds the parser's recursion; the tree's own depth is
// bounded by the checks (see maxTreeDepth), as CPython's compiler bounds
// it.
const maxParseDepth = 5000

// Parse parses a whole cell (a module) of Python 3.12 source, as
// CPython's compile(src, name, "exec") does. Its error, if any, is an
// *Error: the SyntaxError, IndentationError or TabError CPython raises for
// the same source before running it, including its compiler's checks
// ('return' outside function, nonlocal without a binding, duplicate
// arguments, ...), with CPython's message and location. Sources nested
// too deeply are refused as CPython refuses them: an *Error of Type
// "MemoryError" (the parser's stack) or "RecursionError" (the compiler's),
// though the depths where each starts differ somewhat from CPython's.
func Parse(src string) (*Module, error) {
	s, err := prepare(src)
	if err != nil {
		return nil, err
	}
	p := newParser(s)
	var mod *Module
	if err := p.parse(func() { mod = p.file() }); err != nil {
		return nil, err
	}
	if err := check(s, mod); err != nil {
		return nil, err
	}
	mod.Warnings = p.warnings
	return mod, nil
}

// Warning is a SyntaxWarning CPython's compiler prints (to stderr, as
// "<file>:Line: SyntaxWarning: Msg") without failing: an invalid escape
// sequence in a literal.
type Warning struct {
	Line int
	Msg  string
}

// warnAt records a warning for token t (once, though the parser may look
// at the token again).
func (p *parser) warnAt(t *token, msg string) {
	if msg == "" || p.warned[t.start] {
		return
	}
	if p.warned == nil {
		p.warned = map[int32]bool{}
	}
	p.warned[t.start] = true
	p.warnings = append(p.warnings, Warning{Line: int(t.line), Msg: msg})
}

// ParseExpr parses an expression as compile(src, name, "eval") does:
// expressions separated by commas (a tuple then), followed only by
// newlines. (The builtin eval() first strips the leading spaces and tabs
// of a source string; ParseExpr does not.)
func ParseExpr(src string) (Expr, error) {
	s, err := prepare(src)
	if err != nil {
		return nil, err
	}
	p := newParser(s)
	var e Expr
	if err := p.parse(func() { e = p.evalInput() }); err != nil {
		return nil, err
	}
	if err := checkExpr(s, e); err != nil {
		return nil, err
	}
	return e, nil
}

// prepare checks and normalizes source as CPython's compile() of a str
// does: no null bytes; CRLF and CR become LF; a final newline is added.
// A leading byte order mark is dropped (as CPython does for source read
// as bytes).
func prepare(src string) (*source, error) {
	if strings.IndexByte(src, 0) >= 0 {
		return nil, &Error{Type: "SyntaxError", Msg: "source code string cannot contain null bytes"}
	}
	src = strings.TrimPrefix(src, "\ufeff")
	if !utf8.ValidString(src) {
		line := 1
		for i := 0; i < len(src); {
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, &Error{Type: "SyntaxError", Msg: fmt.Sprintf("(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %d: invalid utf-8", src[i], i), Line: line}
			}
			if r == '\n' {
				line++
			}
			i += size
		}
	}
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r\n", "\n")
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	if src != "" && src[len(src)-1] != '\n' {
		src += "\n"
	}
	return newSource(src), nil
}

// parser is a recursive-descent parser over the tokens of a source.
type parser struct {
	*source
	sc    *scanner
	toks  []token
	p     int // the next token
	fill  int // tokens looked at: CPython's p->fill
	depth int

	// fstringDepth counts the f-string replacement fields being parsed.
	fstringDepth int

	// warnings are the SyntaxWarnings met, once per token.
	warnings []Warning
	warned   map[int32]bool

	// second is CPython's second pass: after a failure the parser runs
	// again with its error rules, which raise the specific errors; a
	// failure there is reported at the last token the first pass reached
	// (fill1).
	second bool
	fill1  int

	// invalid says CPython's error rules run: in the second pass, but not
	// inside expression_without_invalid.
	invalid bool

	// noOverride is a generic "unexpected indent" or "unexpected
	// unindent", which CPython reports without looking for tokenizer
	// errors further on.
	noOverride *Error

	slabs slabs

	// legacyDone marks the tokens after which the second pass looked for
	// a Python 2 print statement (CPython memoizes this).
	legacyDone    map[int]bool
	legacyNesting int
}

func newParser(s *source) *parser {
	sc := scan(s)
	return &parser{source: s, sc: sc, toks: sc.toks}
}

// parse runs the parsing function f as CPython does: a first pass; on a
// failure, a second pass with the error rules; then the tokenizer's
// errors take precedence.
func (p *parser) parse(f func()) error {
	b := p.run(f)
	if b == nil {
		return nil
	}
	if b.generic && !p.fromTokenizer(b.err) {
		p.fill1 = p.fill
		p.second, p.invalid = true, true
		p.p, p.depth, p.fstringDepth = 0, 0, 0
		if b2 := p.run(f); b2 != nil {
			b = b2
		}
	}
	return p.withText(p.finalError(b.err))
}

// withText gives a parser error CPython's SyntaxError.text for source
// compiled from a string. The tokenizer's own errors have their line
// without its newline. Errors the parser raises at a known location have
// the tokenizer's current line buffer, newline included, when the
// tokenizer has not read past the error's line, and the line without its
// newline (from the source string) when it has.
func (p *parser) withText(e *Error) *Error {
	te := p.sc.err
	if e == nil || e.Line <= 0 || te != nil && te.kind == errRaised && (te.err == e || p.fromTokenizer(e)) {
		return e
	}
	if line := p.tokenizerLine(); line <= e.Line {
		e.Text = p.bufferText(line)
	}
	return e
}

// bufferText is CPython's tokenizer buffer when it is on line: the line
// with its newline, preceded by the lines the buffer still holds, those
// a backslash continues and those of a token that spans lines.
func (p *parser) bufferText(line int) string {
	// One backward pass: tokens come in order, so their end lines do not
	// decrease.
	start := line
	for i := p.lastFetched(); ; start-- {
		for ; i >= 0 && int(p.toks[i].endLine) >= start; i-- {
			start = min(start, int(p.toks[i].line))
		}
		if start <= 1 || !strings.HasSuffix(p.lineText(start-1), "\\") {
			break
		}
	}
	if start < 1 || line > len(p.lineStarts) {
		return p.lineText(line) + "\n"
	}
	from := int(p.lineStarts[start-1])
	to := len(p.src)
	if line < len(p.lineStarts) {
		to = int(p.lineStarts[line])
	}
	return p.src[from:to]
}

// tokenizerLine is the line CPython's tokenizer is on after the tokens
// the parser fetched.
func (p *parser) tokenizerLine() int {
	return int(p.toks[p.lastFetched()].endLine)
}

// run calls f, returning the bailout that ended it, if any.
func (p *parser) run(f func()) (b *bailout) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		bo, ok := r.(bailout)
		if !ok {
			panic(r)
		}
		b = &bo
	}()
	f()
	return nil
}

// finalError applies CPython's rule that, after a parser error, the rest
// of the source is tokenized and a tokenizer error found there replaces
// the parser's.
func (p *parser) finalError(e *Error) *Error {
	te := p.sc.err
	if te == nil || p.fromTokenizer(e) || e == p.noOverride {
		return e
	}
	switch te.kind {
	case errRaised:
		if !te.inFString {
			return te.err
		}
	case errEOF:
		if te.level > 0 && !te.inFString {
			last := p.toks[p.lastFetched()]
			if int(last.line) > te.parenLine {
				return p.unclosedParen(te)
			}
		}
	}
	return e
}

func (p *parser) fromTokenizer(e *Error) bool {
	return p.sc.err != nil && p.sc.err.reported == e
}

func (p *parser) lastFetched() int {
	i := p.fill - 1
	if i < 0 {
		i = 0
	}
	if i >= len(p.toks) {
		i = len(p.toks) - 1
	}
	return i
}

func (p *parser) unclosedParen(te *tokError) *Error {
	return p.errKnown("SyntaxError", fmt.Sprintf("'%c' was never closed", te.parenCh), te.parenLine, te.parenCol, te.parenLine, -1)
}

// tokenizerError raises the error of the tokenizer, reached by the parser.
func (p *parser) tokenizerError() {
	te := p.sc.err
	var e *Error
	switch te.kind {
	case errRaised:
		e = te.err
	case errEOF:
		if te.level > 0 {
			e = p.unclosedParen(te)
		} else {
			e = p.errLast("SyntaxError", "unexpected EOF while parsing")
		}
	case errDedent:
		e = p.errLast("IndentationError", "unindent does not match any outer indentation level")
	case errTab:
		e = p.errKnown("TabError", "inconsistent use of tabs and spaces in indentation", te.line, 0, te.line, -1)
	case errTooDeep:
		e = p.errKnown("IndentationError", "too many levels of indentation", te.line, 0, te.line, -1)
	case errLineCont:
		e = p.errKnown("SyntaxError", "unexpected character after line continuation character", te.line, te.cur-te.lineStart-1, te.line, -1)
	}
	te.reported = e
	panic(bailout{err: e})
}

// at returns token i, fetching it: reaching the tokenizer's error
// raises it.
func (p *parser) at(i int) *token {
	if i < p.fill {
		// Fetched before (and so not the tokenizer's error).
		return &p.toks[i]
	}
	return p.fetch(i)
}

// fetch fetches token i, raising the tokenizer's error if it is there.
func (p *parser) fetch(i int) *token {
	if i >= len(p.toks) {
		i = len(p.toks) - 1
	}
	if i >= p.fill {
		p.fill = i + 1
	}
	t := &p.toks[i]
	if t.kind == tError {
		p.tokenizerError()
	}
	return t
}

func (p *parser) tok() *token            { return p.at(p.p) }
func (p *parser) kind() tokKind          { return p.at(p.p).kind }
func (p *parser) peek(n int) *token      { return p.at(p.p + n) }
func (p *parser) peekKind(n int) tokKind { return p.at(p.p + n).kind }

// prev is the last token consumed, not counting NEWLINE, INDENT and
// DEDENT (CPython's _PyPegen_get_last_nonnwhitespace_token).
func (p *parser) prev() *token {
	i := p.p - 1
	for i > 0 {
		switch p.toks[i].kind {
		case tNewline, tIndent, tDedent:
			i--
			continue
		}
		break
	}
	return &p.toks[i]
}

func (p *parser) next() *token {
	t := p.at(p.p)
	p.p++
	return t
}

func (p *parser) accept(k tokKind) bool {
	if p.kind() == k {
		p.p++
		return true
	}
	return false
}

// expect consumes a token of kind k or fails with CPython's generic
// error.
func (p *parser) expect(k tokKind) *token {
	if p.kind() != k {
		p.fail()
	}
	return p.next()
}

// expectForced is CPython's &&token: its absence is "expected 'x'" at the
// token found.
func (p *parser) expectForced(k tokKind, what string) *token {
	t := p.tok()
	if t.kind != k {
		p.actAt(t, "expected '"+what+"'")
	}
	p.p++
	return t
}

// isName reports whether the next token is the (soft keyword) name s.
func (p *parser) isName(t *token, s string) bool {
	return t.kind == tName && int(t.end-t.start) == len(s) && p.src[t.start:t.end] == s
}

func (p *parser) text(t *token) string { return p.src[t.start:t.end] }

// name returns the identifier of a NAME token, NFKC-normalized as CPython
// does for non-ASCII identifiers.
func (p *parser) name(t *token) string {
	s := p.src[t.start:t.end]
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return nfkc(s)
		}
	}
	return s
}

// Errors.

func (p *parser) errKnown(typ, msg string, line, col, endLine, endCol int) *Error {
	return p.source.errKnown(typ, msg, line, col, endLine, endCol)
}

// errLast is an error at the last token fetched (CPython's
// RAISE_SYNTAX_ERROR without a location).
func (p *parser) errLast(typ, msg string) *Error {
	t := &p.toks[p.lastFetched()]
	return p.errTokenPlain(typ, msg, t)
}

func (p *parser) errTokenPlain(typ, msg string, t *token) *Error {
	line := int(t.line)
	if t.endCol == -1 {
		// A token without a position (INDENT, DEDENT, ENDMARKER, an
		// error): CPython takes the tokenizer's current column, as is.
		e := &Error{Type: typ, Msg: msg, Line: line, EndLine: int(t.endLine), EndCol: -1, Text: p.lineText(line)}
		e.Col = p.charOffset(line, int(t.col))
		return e
	}
	return p.errKnown(typ, msg, line, int(t.col), int(t.endLine), int(t.endCol))
}

func (p *parser) raise(e *Error) { panic(bailout{err: e}) }

// The raise helpers below are for CPython's error rules, which only its
// second pass runs: in the first pass they fail as a plain mismatch. The
// act* helpers raise in either pass (errors of CPython's grammar actions
// and forced tokens).

// raiseLast raises a SyntaxError at the last token fetched.
func (p *parser) raiseLast(msg string) {
	p.firstPassFails()
	p.actLast(msg)
}

func (p *parser) actLast(msg string) { p.raise(p.errLast("SyntaxError", msg)) }

func (p *parser) raiseIndent(msg string) {
	p.firstPassFails()
	p.raise(p.errLast("IndentationError", msg))
}

// raiseAt raises a SyntaxError at token t.
func (p *parser) raiseAt(t *token, msg string) {
	p.firstPassFails()
	p.actAt(t, msg)
}

func (p *parser) actAt(t *token, msg string) {
	p.raise(p.errKnown("SyntaxError", msg, int(t.line), int(t.col), int(t.endLine), int(t.endCol)))
}

// raiseNode raises a SyntaxError spanning node n.
func (p *parser) raiseNode(n Node, msg string) {
	p.firstPassFails()
	p.actNode(n, msg)
}

func (p *parser) actNode(n Node, msg string) {
	pos := n.Position()
	p.raise(p.errKnown("SyntaxError", msg, pos.Line, pos.Col, pos.EndLine, pos.EndCol))
}

// raiseRange raises a SyntaxError from the start of a to the end of b.
func (p *parser) raiseRange(a, b Pos, msg string) {
	p.firstPassFails()
	p.actRange(a, b, msg)
}

func (p *parser) actRange(a, b Pos, msg string) {
	p.raise(p.errKnown("SyntaxError", msg, a.Line, a.Col, b.EndLine, b.EndCol))
}

// firstPassFails turns an error rule's error into a mismatch in the
// first pass.
func (p *parser) firstPassFails() {
	if !p.invalid {
		p.fail()
	}
}

// raiseFrom raises a SyntaxError from the start of a to the last token
// fetched (CPython's RAISE_SYNTAX_ERROR_STARTING_FROM).
func (p *parser) raiseFrom(a Pos, msg string) {
	p.firstPassFails()
	p.actFrom(a, msg)
}

func (p *parser) actFrom(a Pos, msg string) {
	t := &p.toks[p.lastFetched()]
	endLine, endCol := int(t.endLine), int(t.endCol)
	if endCol == -1 {
		endLine, endCol = int(t.line), int(t.col)
	}
	e := &Error{Type: "SyntaxError", Msg: msg, Line: a.Line, EndLine: endLine, Text: p.lineText(a.Line)}
	e.Col = p.charOffset(a.Line, a.Col+1)
	e.EndCol = endCol
	if endCol > 0 {
		e.EndCol = p.charOffset(a.Line, endCol)
	}
	p.raise(e)
}

// fail raises CPython's generic error at the furthest token the first
// pass reached.
func (p *parser) fail() {
	i := p.lastFetched()
	if p.second && p.fill1 > 0 {
		i = p.fill1 - 1
	}
	t := &p.toks[i]
	var e *Error
	switch t.kind {
	case tIndent:
		e = p.errTokenPlain("IndentationError", "unexpected indent", t)
		p.noOverride = e
	case tDedent:
		e = p.errTokenPlain("IndentationError", "unexpected unindent", t)
		p.noOverride = e
	default:
		e = p.errTokenPlain("SyntaxError", "invalid syntax", t)
	}
	panic(bailout{err: e, generic: true})
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxParseDepth {
		p.raise(&Error{Type: "MemoryError", Msg: "Parser stack overflowed - Python source too complex to parse"})
	}
}

func (p *parser) leave() { p.depth-- }

// Positions.

func tokPos(t *token) Pos {
	return Pos{Line: int(t.line), Col: int(t.col), EndLine: int(t.endLine), EndCol: int(t.endCol)}
}

// span is the position from the start of token t to the end of the last
// token consumed.
func (p *parser) span(t *token) Pos {
	e := p.prev()
	return Pos{Line: int(t.line), Col: int(t.col), EndLine: int(e.endLine), EndCol: int(e.endCol)}
}

func joinPos(a, b Pos) Pos {
	return Pos{Line: a.Line, Col: a.Col, EndLine: b.EndLine, EndCol: b.EndCol}
}

// slab hands out T's from blocks, so that the many small nodes of a tree
// cost few allocations.
type slab[T any] struct{ buf []T }

func (s *slab[T]) new() *T {
	if len(s.buf) == 0 {
		s.buf = make([]T, 32)
	}
	t := &s.buf[0]
	s.buf = s.buf[1:]
	return t
}

// slabs are the slabs of the commonest nodes.
type slabs struct {
	name     slab[Name]
	constant slab[Constant]
	attr     slab[Attribute]
	call     slab[Call]
	binop    slab[BinOp]
	exprStmt slab[ExprStmt]
}
