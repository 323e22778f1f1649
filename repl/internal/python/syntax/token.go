package syntax

import (
	"fmt"
	"unicode/utf8"
)

// tokKind is a token's kind: CPython's token types, with each operator
// and keyword its own kind so the parser can switch on them.
type tokKind uint8

const (
	tEnd     tokKind = iota // ENDMARKER
	tError                  // the tokenizer stopped on an error here
	tNewline                // NEWLINE
	tIndent
	tDedent
	tName
	tNumber
	tString
	tFStart  // FSTRING_START: prefix and opening quotes
	tFMiddle // FSTRING_MIDDLE: literal text of an f-string
	tFEnd    // FSTRING_END: closing quotes

	tLpar
	tRpar
	tLsqb
	tRsqb
	tLbrace
	tRbrace
	tColon
	tComma
	tSemi
	tPlus
	tMinus
	tStar
	tSlash
	tVbar
	tAmper
	tLess
	tGreater
	tEqual
	tDot
	tPercent
	tEqEqual
	tNotEqual
	tLessEqual
	tGreaterEqual
	tTilde
	tCircumflex
	tLeftShift
	tRightShift
	tDoubleStar
	tPlusEqual
	tMinEqual
	tStarEqual
	tSlashEqual
	tPercentEqual
	tAmperEqual
	tVbarEqual
	tCircumflexEqual
	tLeftShiftEqual
	tRightShiftEqual
	tDoubleStarEqual
	tDoubleSlash
	tDoubleSlashEqual
	tAt
	tAtEqual
	tRarrow
	tEllipsis
	tColonEqual
	tExclamation
	tLtGt // "<>", which only Barry as FLUFL may use: never valid

	// Keywords (hard keywords of Python 3.12).
	kFalse
	kNone
	kTrue
	kAnd
	kAs
	kAssert
	kAsync
	kAwait
	kBreak
	kClass
	kContinue
	kDef
	kDel
	kElif
	kElse
	kExcept
	kFinally
	kFor
	kFrom
	kGlobal
	kIf
	kImport
	kIn
	kIs
	kLambda
	kNonlocal
	kNot
	kOr
	kPass
	kRaise
	kReturn
	kTry
	kWhile
	kWith
	kYield
)

// token is one token: its kind and where it lies. Lines are 1-based;
// columns are 0-based byte offsets in their line, as CPython's.
type token struct {
	kind            tokKind
	level           uint8 // open brackets where the token starts
	start, end      int32 // byte offsets in the source
	line, col       int32
	endLine, endCol int32
}

// keywordKind is the kind of a NAME token: a keyword's own kind, or
// tName.
func keywordKind(s string) tokKind {
	if len(s) < 2 || len(s) > 8 || s[0] < 'F' || s[0] > 'y' {
		return tName
	}
	switch s {
	case "False":
		return kFalse
	case "None":
		return kNone
	case "True":
		return kTrue
	case "and":
		return kAnd
	case "as":
		return kAs
	case "assert":
		return kAssert
	case "async":
		return kAsync
	case "await":
		return kAwait
	case "break":
		return kBreak
	case "class":
		return kClass
	case "continue":
		return kContinue
	case "def":
		return kDef
	case "del":
		return kDel
	case "elif":
		return kElif
	case "else":
		return kElse
	case "except":
		return kExcept
	case "finally":
		return kFinally
	case "for":
		return kFor
	case "from":
		return kFrom
	case "global":
		return kGlobal
	case "if":
		return kIf
	case "import":
		return kImport
	case "in":
		return kIn
	case "is":
		return kIs
	case "lambda":
		return kLambda
	case "nonlocal":
		return kNonlocal
	case "not":
		return kNot
	case "or":
		return kOr
	case "pass":
		return kPass
	case "raise":
		return kRaise
	case "return":
		return kReturn
	case "try":
		return kTry
	case "while":
		return kWhile
	case "with":
		return kWith
	case "yield":
		return kYield
	}
	return tName
}

// tokErrKind says how a tokenizer error takes part in error reporting.
type tokErrKind uint8

const (
	// errRaised: the tokenizer raised a SyntaxError itself (CPython's
	// syntaxerror()); it wins over a parser error found earlier.
	errRaised tokErrKind = iota
	// errEOF: end of input inside brackets or after a backslash.
	errEOF
	// errDedent: an unindent to no outer level.
	errDedent
	// errTab: inconsistent tabs and spaces.
	errTab
	// errTooDeep: too many indentation levels.
	errTooDeep
	// errLineCont: a character after a line continuation backslash.
	errLineCont
)

// tokError is the error the tokenizer stopped on.
type tokError struct {
	kind tokErrKind
	err  *Error // errRaised: the error itself
	// Where the tokenizer stood: its line, the byte offset of that line's
	// start and its current offset.
	line, lineStart, cur int
	inFString            bool   // the error lies inside an f-string
	reported             *Error // the error once the parser reported it
	level                int    // open brackets
	// The innermost open bracket, for "'(' was never closed".
	parenCh             byte
	parenLine, parenCol int
}

type paren struct {
	ch   byte
	line int32
	col  int32 // byte column
}

// fmode is the state of one f-string being read (CPython's tokenizer
// mode).
type fmode struct {
	quote       byte
	quoteSize   int
	raw         bool
	regular     bool // reading an expression (not literal text)
	depth       int  // curly_bracket_depth
	exprStart   int  // curly_bracket_expr_start_depth
	start       int  // offset of the f-string's first byte
	startLine   int
	startLineAt int // offset of the start line
}

const (
	maxIndent       = 100
	maxParenLevel   = 200
	maxFStringLevel = 150
	maxExprNesting  = 3
	tabSize         = 8
)

const eof = -1

// scanner turns source into tokens, as CPython 3.12's tokenizer does.
type scanner struct {
	*source
	pos       int // next byte to read (CPython's cur)
	line      int // line of the last byte read (CPython's lineno)
	lineStart int // offset of that line
	lineEnd   int // offset just past that line's newline

	toks      []token
	indstack  []int
	altstack  []int
	pendin    int
	atbol     bool
	parens    []paren
	modes     []fmode
	err       *tokError
	firstLine int  // for string tokens: line they began on
	again     bool // nextRegular1 skipped a line: read on
}

// scan tokenizes all of src (already normalized: it ends with a newline
// unless empty, with no CR and no BOM) into s.toks, which ends with a
// tEnd or a tError token.
func scan(src *source) *scanner {
	s := &scanner{source: src, line: 0, atbol: true}
	s.indstack = append(make([]int, 0, 16), 0)
	s.altstack = append(make([]int, 0, 16), 0)
	n := len(src.src)/3 + 16
	if n > 1<<14 {
		n = 1 << 14 // a huge literal should not cost a huge token slice
	}
	s.toks = make([]token, 0, n)
	for {
		t := s.next()
		s.toks = append(s.toks, t)
		if t.kind == tEnd || t.kind == tError {
			break
		}
	}
	return s
}

func (s *scanner) nextc() int {
	if s.pos >= s.lineEnd {
		if s.pos >= len(s.src) {
			return eof
		}
		s.line++
		s.lineStart = s.pos
		s.lineEnd = len(s.src)
		for i := s.pos; i < len(s.src); i++ {
			if s.src[i] == '\n' {
				s.lineEnd = i + 1
				break
			}
		}
	}
	c := s.src[s.pos]
	s.pos++
	return int(c)
}

func (s *scanner) backup(c int) {
	if c != eof {
		s.pos--
	}
}

// colOf is the byte column of offset off in line.
func (s *scanner) colOf(line, off int) int32 {
	if line < 1 || line > len(s.lineStarts) {
		return 0
	}
	return int32(off - int(s.lineStarts[line-1]))
}

// lineOf finds the line holding offset off, searching back from line.
func (s *scanner) lineOf(off int) int {
	l := s.line
	if l < 1 {
		l = 1
	}
	for l > 1 && int(s.lineStarts[l-1]) > off {
		l--
	}
	for l < len(s.lineStarts) && int(s.lineStarts[l]) <= off {
		l++
	}
	return l
}

func (s *scanner) make(k tokKind, start, end int) token {
	// Most tokens lie on the line being read.
	sl, el := s.line, s.line
	if start < s.lineStart || s.line < 1 {
		sl = s.lineOf(start)
	}
	if end < s.lineStart || s.line < 1 {
		el = s.lineOf(end)
	}
	lv := len(s.parens)
	if lv > 255 {
		lv = 255
	}
	return token{kind: k, level: uint8(lv), start: int32(start), end: int32(end),
		line: int32(sl), col: s.colOf(sl, start),
		endLine: int32(el), endCol: s.colOf(el, end)}
}

// errorTok records a raised tokenizer error located at the current
// position (CPython's syntaxerror(): the offset counts the characters
// before cur).
func (s *scanner) syntaxError(format string, args ...any) token {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	off := s.pos
	if off < s.lineStart {
		off = s.lineStart
	}
	col := utf8.RuneCountInString(s.src[s.lineStart:off])
	return s.raise(msg, s.line, col, s.line, col)
}

// raise records a raised error with 1-based character offsets given.
func (s *scanner) raise(msg string, line, col, endLine, endCol int) token {
	e := &Error{Type: "SyntaxError", Msg: msg, Line: line, Col: col, EndLine: endLine, EndCol: endCol, Text: s.lineText(line)}
	return s.fail(errRaised, e)
}

func (s *scanner) fail(kind tokErrKind, e *Error) token {
	te := &tokError{kind: kind, err: e, line: s.line, lineStart: s.lineStart, cur: s.pos,
		inFString: len(s.modes) > 0, level: len(s.parens)}
	if n := len(s.parens); n > 0 {
		p := s.parens[n-1]
		te.parenCh, te.parenLine, te.parenCol = p.ch, int(p.line), int(p.col)
	}
	s.err = te
	line := s.line
	if line < 1 {
		line = 1
	}
	return token{kind: tError, start: int32(s.pos), end: int32(s.pos), line: int32(line), col: int32(s.pos - s.lineStart), endLine: int32(line), endCol: -1}
}

func isPotentialIdentStart(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 128
}

func isPotentialIdentChar(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 128
}

func isDigit(c int) bool  { return c >= '0' && c <= '9' }
func isXDigit(c int) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (s *scanner) next() token {
	if n := len(s.modes); n > 0 && !s.modes[n-1].regular {
		return s.nextFString(&s.modes[n-1])
	}
	return s.nextRegular()
}

func (s *scanner) nextRegular() token {
	for {
		t := s.nextRegular1()
		if !s.again {
			return t
		}
		s.again = false
	}
}

// nextRegular1 reads one token; again reports a blank line or a newline
// inside brackets was skipped and the caller should read on.
func (s *scanner) nextRegular1() token {
	blankline := false
	var c int
	if s.atbol {
		s.atbol = false
		col, altcol, contCol := 0, 0, 0
		for {
			c = s.nextc()
			if c == ' ' {
				col++
				altcol++
			} else if c == '\t' {
				col = (col/tabSize + 1) * tabSize
				altcol = altcol + 1
			} else if c == '\f' {
				col, altcol = 0, 0
			} else if c == '\\' {
				if contCol == 0 {
					contCol = col
				}
				if t, ok := s.continuation(); !ok {
					return t
				}
			} else {
				break
			}
		}
		s.backup(c)
		if c == '#' || c == '\n' {
			blankline = true
		}
		if !blankline && len(s.parens) == 0 {
			if contCol != 0 {
				col, altcol = contCol, contCol
			}
			top := len(s.indstack) - 1
			switch {
			case col == s.indstack[top]:
				if altcol != s.altstack[top] {
					return s.indentError()
				}
			case col > s.indstack[top]:
				if top+1 >= maxIndent {
					s.pos = s.lineEnd
					return s.fail(errTooDeep, nil)
				}
				if altcol <= s.altstack[top] {
					return s.indentError()
				}
				s.pendin++
				s.indstack = append(s.indstack, col)
				s.altstack = append(s.altstack, altcol)
			default:
				for top > 0 && col < s.indstack[top] {
					s.pendin--
					top--
				}
				s.indstack = s.indstack[:top+1]
				s.altstack = s.altstack[:top+1]
				if col != s.indstack[top] {
					s.pos = s.lineEnd
					return s.fail(errDedent, nil)
				}
				if altcol != s.altstack[top] {
					return s.indentError()
				}
			}
		}
	}
	if s.pendin != 0 {
		k := tIndent
		if s.pendin < 0 {
			s.pendin++
			k = tDedent
		} else {
			s.pendin--
		}
		line := s.line
		if line < 1 {
			line = 1
		}
		return token{kind: k, start: int32(s.pos), end: int32(s.pos), line: int32(line), col: int32(s.pos - s.lineStart), endLine: int32(line), endCol: -1}
	}

again:
	for {
		c = s.nextc()
		if c != ' ' && c != '\t' && c != '\f' {
			break
		}
	}
	start := s.pos - 1
	if c == eof {
		start = s.pos
	}

	if c == '#' {
		// The comment is skipped; a NEWLINE after it starts at the '#'.
		for c != eof && c != '\n' {
			c = s.nextc()
		}
	}

	if c == eof {
		if len(s.parens) > 0 {
			return s.fail(errEOF, nil)
		}
		line := s.line
		return token{kind: tEnd, start: int32(s.pos), end: int32(s.pos), line: int32(line), col: int32(s.pos - s.lineStart), endLine: int32(line), endCol: -1}
	}

	if isPotentialIdentStart(c) {
		sawB, sawR, sawU, sawF := false, false, false, false
		for {
			switch {
			case !(sawB || sawU || sawF) && (c == 'b' || c == 'B'):
				sawB = true
			case !(sawB || sawU || sawR || sawF) && (c == 'u' || c == 'U'):
				sawU = true
			case !(sawR || sawU) && (c == 'r' || c == 'R'):
				sawR = true
			case !(sawF || sawB || sawU) && (c == 'f' || c == 'F'):
				sawF = true
			default:
				goto ident
			}
			c = s.nextc()
			if c == '"' || c == '\'' {
				if sawF {
					return s.fstringStart(start, c, sawR)
				}
				return s.stringLit(start, c)
			}
		}
	ident:
		nonASCII := false
		for isPotentialIdentChar(c) {
			if c >= 128 {
				nonASCII = true
			}
			c = s.nextc()
		}
		s.backup(c)
		if nonASCII {
			if t, ok := s.verifyIdentifier(start); !ok {
				return t
			}
		}
		t := s.make(tName, start, s.pos)
		if !nonASCII {
			t.kind = keywordKind(s.src[start:s.pos])
		}
		return t
	}

	if c == '\n' {
		s.atbol = true
		if blankline || len(s.parens) > 0 {
			s.again = true
			return token{}
		}
		t := s.make(tNewline, start, s.pos-1)
		t.endLine = int32(s.line)
		t.endCol = int32(s.pos - s.lineStart)
		return t
	}

	if c == '.' {
		c = s.nextc()
		if isDigit(c) {
			return s.number(start, c, true)
		} else if c == '.' {
			c = s.nextc()
			if c == '.' {
				return s.make(tEllipsis, start, s.pos)
			}
			s.backup(c)
			s.backup('.')
		} else {
			s.backup(c)
		}
		return s.make(tDot, start, s.pos)
	}

	if isDigit(c) {
		return s.number(start, c, false)
	}

	if c == '\'' || c == '"' {
		return s.stringLit(start, c)
	}

	if c == '\\' {
		if t, ok := s.continuation(); !ok {
			return t
		}
		goto again
	}

	// Punctuation that ends an f-string's expression.
	if n := len(s.modes); n > 0 && (c == ':' || c == '}' || c == '!' || c == '{') {
		m := &s.modes[n-1]
		if m.exprStart >= 0 {
			cursor := m.depth
			if c != '{' {
				cursor--
			}
			if c == ':' && cursor == m.exprStart {
				m.regular = false
				return s.make(tColon, start, s.pos)
			}
		}
	}

	// Two- and three-character operators.
	{
		c2 := s.nextc()
		if k := twoChars(c, c2); k != tError {
			c3 := s.nextc()
			if k3 := threeChars(c, c2, c3); k3 != tError {
				return s.make(k3, start, s.pos)
			}
			s.backup(c3)
			return s.make(k, start, s.pos)
		}
		s.backup(c2)
	}

	switch c {
	case '(', '[', '{':
		if len(s.parens) >= maxParenLevel {
			return s.syntaxError("too many nested parentheses")
		}
		s.parens = append(s.parens, paren{ch: byte(c), line: int32(s.line), col: int32(start - s.lineStart)})
		if n := len(s.modes); n > 0 {
			s.modes[n-1].depth++
		}
	case ')', ']', '}':
		if n := len(s.modes); n > 0 && s.modes[n-1].depth == 0 && c == '}' {
			return s.syntaxError("f-string: single '}' is not allowed")
		}
		if len(s.parens) == 0 {
			return s.syntaxError("unmatched '%c'", rune(c))
		}
		op := s.parens[len(s.parens)-1]
		s.parens = s.parens[:len(s.parens)-1]
		if !(op.ch == '(' && c == ')' || op.ch == '[' && c == ']' || op.ch == '{' && c == '}') {
			if n := len(s.modes); n > 0 && op.ch == '{' {
				m := &s.modes[n-1]
				if m.depth-1 == m.exprStart {
					return s.syntaxError("f-string: unmatched '%c'", rune(c))
				}
			}
			if int(op.line) != s.line {
				return s.syntaxError("closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", rune(c), rune(op.ch), op.line)
			}
			return s.syntaxError("closing parenthesis '%c' does not match opening parenthesis '%c'", rune(c), rune(op.ch))
		}
		if n := len(s.modes); n > 0 {
			m := &s.modes[n-1]
			m.depth--
			if c == '}' && m.depth == m.exprStart {
				m.exprStart--
				m.regular = false
			}
		}
	}
	if k := oneChar(c); k != tError {
		return s.make(k, start, s.pos)
	}
	// Anything else is an error token: CPython's parser then reports
	// "invalid syntax" at it.
	if c >= 128 {
		// Not reached: non-ASCII bytes start identifiers.
		return s.syntaxError("invalid character")
	}
	return s.make(tLtGt, start, s.pos)
}

func (s *scanner) indentError() token {
	s.pos = s.lineEnd
	return s.fail(errTab, nil)
}

// continuation reads what follows a backslash: it must be a newline.
func (s *scanner) continuation() (token, bool) {
	c := s.nextc()
	if c != '\n' {
		return s.fail(errLineCont, nil), false
	}
	c = s.nextc()
	if c == eof {
		s.pos = len(s.src)
		return s.fail(errEOF, nil), false
	}
	s.backup(c)
	return token{}, true
}

func oneChar(c int) tokKind {
	switch c {
	case '%':
		return tPercent
	case '&':
		return tAmper
	case '(':
		return tLpar
	case ')':
		return tRpar
	case '*':
		return tStar
	case '+':
		return tPlus
	case ',':
		return tComma
	case '-':
		return tMinus
	case '.':
		return tDot
	case '/':
		return tSlash
	case ':':
		return tColon
	case ';':
		return tSemi
	case '<':
		return tLess
	case '=':
		return tEqual
	case '>':
		return tGreater
	case '@':
		return tAt
	case '[':
		return tLsqb
	case ']':
		return tRsqb
	case '^':
		return tCircumflex
	case '{':
		return tLbrace
	case '|':
		return tVbar
	case '}':
		return tRbrace
	case '~':
		return tTilde
	case '!':
		return tExclamation
	}
	return tError
}

func twoChars(c1, c2 int) tokKind {
	switch c1 {
	case '!':
		if c2 == '=' {
			return tNotEqual
		}
	case '%':
		if c2 == '=' {
			return tPercentEqual
		}
	case '&':
		if c2 == '=' {
			return tAmperEqual
		}
	case '*':
		switch c2 {
		case '*':
			return tDoubleStar
		case '=':
			return tStarEqual
		}
	case '+':
		if c2 == '=' {
			return tPlusEqual
		}
	case '-':
		switch c2 {
		case '=':
			return tMinEqual
		case '>':
			return tRarrow
		}
	case '/':
		switch c2 {
		case '/':
			return tDoubleSlash
		case '=':
			return tSlashEqual
		}
	case ':':
		if c2 == '=' {
			return tColonEqual
		}
	case '<':
		switch c2 {
		case '<':
			return tLeftShift
		case '=':
			return tLessEqual
		case '>':
			return tLtGt
		}
	case '=':
		if c2 == '=' {
			return tEqEqual
		}
	case '>':
		switch c2 {
		case '=':
			return tGreaterEqual
		case '>':
			return tRightShift
		}
	case '@':
		if c2 == '=' {
			return tAtEqual
		}
	case '^':
		if c2 == '=' {
			return tCircumflexEqual
		}
	case '|':
		if c2 == '=' {
			return tVbarEqual
		}
	}
	return tError
}

func threeChars(c1, c2, c3 int) tokKind {
	if c3 != '=' {
		return tError
	}
	switch {
	case c1 == '*' && c2 == '*':
		return tDoubleStarEqual
	case c1 == '/' && c2 == '/':
		return tDoubleSlashEqual
	case c1 == '<' && c2 == '<':
		return tLeftShiftEqual
	case c1 == '>' && c2 == '>':
		return tRightShiftEqual
	}
	return tError
}

// stringLit reads a string or bytes literal whose opening quote q was
// just read; start is the offset of its prefix.
func (s *scanner) stringLit(start, q int) token {
	s.firstLine = s.line
	firstLineStart := s.lineStart
	quoteSize := 1
	endQuote := 0
	c := s.nextc()
	if c == q {
		c = s.nextc()
		if c == q {
			quoteSize = 3
		} else {
			endQuote = 1
		}
	}
	if c != q {
		s.backup(c)
	}
	for endQuote != quoteSize {
		c = s.nextc()
		if c == eof || (quoteSize == 1 && c == '\n') {
			detected := s.line
			s.pos = start + 1
			s.lineStart = firstLineStart
			s.line = s.firstLine
			if n := len(s.modes); n > 0 {
				m := &s.modes[n-1]
				if int(m.quote) == q && m.quoteSize == quoteSize {
					return s.syntaxError("f-string: expecting '}'")
				}
			}
			if quoteSize == 3 {
				return s.syntaxError("unterminated triple-quoted string literal (detected at line %d)", detected)
			}
			return s.syntaxError("unterminated string literal (detected at line %d)", detected)
		}
		if c == q {
			endQuote++
		} else {
			endQuote = 0
			if c == '\\' {
				s.nextc()
			}
		}
	}
	return s.make(tString, start, s.pos)
}

// fstringStart reads an f-string's opening quotes (q was just read).
func (s *scanner) fstringStart(start, q int, raw bool) token {
	s.firstLine = s.line
	quoteSize := 1
	c := s.nextc()
	if c == q {
		c2 := s.nextc()
		if c2 == q {
			quoteSize = 3
		} else {
			s.backup(c2)
			s.backup(c)
		}
	} else {
		s.backup(c)
	}
	if len(s.modes)+1 >= maxFStringLevel {
		return s.syntaxError("too many nested f-strings")
	}
	s.modes = append(s.modes, fmode{quote: byte(q), quoteSize: quoteSize, raw: raw,
		exprStart: -1, start: start, startLine: s.line, startLineAt: s.lineStart})
	return s.make(tFStart, start, s.pos)
}

// nextFString reads literal text of the f-string m: up to an
// expression's '{', the end of a format spec or the closing quotes.
func (s *scanner) nextFString(m *fmode) token {
	start := s.pos
	c := s.nextc()
	if c == '{' {
		c2 := s.nextc()
		s.backup(c2)
		s.backup(c)
		if c2 != '{' {
			m.exprStart++
			if m.exprStart >= maxExprNesting {
				return s.syntaxError("f-string: expressions nested too deeply")
			}
			m.regular = true
			return s.nextRegular()
		}
	} else {
		s.backup(c)
	}
	// The closing quotes?
	n := 0
	for n < m.quoteSize {
		c = s.nextc()
		if c != int(m.quote) {
			s.backup(c)
			break
		}
		n++
	}
	if n == m.quoteSize {
		s.modes = s.modes[:len(s.modes)-1]
		return s.make(tFEnd, start, s.pos)
	}
	for i := 0; i < n; i++ {
		s.pos--
	}
	inSpec := m.exprStart >= 0
	endQuote := 0
	unicodeEscape := false
	for endQuote != m.quoteSize {
		c = s.nextc()
		if c == eof || (m.quoteSize == 1 && c == '\n') {
			if inSpec && c == '\n' {
				s.backup(c)
				m.regular = true
				return s.make(tFMiddle, start, s.pos)
			}
			detected := s.line
			s.pos = m.start + 1
			s.lineStart = m.startLineAt
			s.line = m.startLine
			if m.quoteSize == 3 {
				return s.syntaxError("unterminated triple-quoted f-string literal (detected at line %d)", detected)
			}
			return s.syntaxError("unterminated f-string literal (detected at line %d)", detected)
		}
		if c == int(m.quote) {
			endQuote++
			continue
		}
		endQuote = 0
		switch c {
		case '{':
			peek := s.nextc()
			if peek != '{' || inSpec {
				s.backup(peek)
				s.backup(c)
				m.exprStart++
				if m.exprStart >= maxExprNesting {
					return s.syntaxError("f-string: expressions nested too deeply")
				}
				m.regular = true
				return s.make(tFMiddle, start, s.pos)
			}
			// The second brace is skipped: not in the text, but in the
			// token's extent, as CPython's.
			t := s.make(tFMiddle, start, s.pos)
			t.end--
			return t
		case '}':
			if unicodeEscape {
				unicodeEscape = false
				// CPython ends the literal here and starts a new one.
				return s.make(tFMiddle, start, s.pos)
			}
			peek := s.nextc()
			if peek == '}' && !inSpec {
				t := s.make(tFMiddle, start, s.pos)
				t.end--
				return t
			}
			s.backup(peek)
			s.backup(c)
			m.regular = true
			return s.make(tFMiddle, start, s.pos)
		case '\\':
			peek := s.nextc()
			if peek == '{' || peek == '}' {
				s.backup(peek)
				continue
			}
			if !m.raw && peek == 'N' {
				peek = s.nextc()
				if peek == '{' {
					unicodeEscape = true
				} else {
					s.backup(peek)
				}
			}
		}
	}
	// The closing quotes were reached inside the text: end the text
	// before them.
	for i := 0; i < m.quoteSize; i++ {
		s.pos--
	}
	return s.make(tFMiddle, start, s.pos)
}

// number reads a numeric literal whose first character c was read (or,
// with afterDot, whose '.' and first fraction digit were read).
func (s *scanner) number(start, c int, afterDot bool) token {
	if afterDot {
		goto fraction
	}
	if c == '0' {
		c = s.nextc()
		switch c {
		case 'x', 'X':
			c = s.nextc()
			for {
				if c == '_' {
					c = s.nextc()
				}
				if !isXDigit(c) {
					s.backup(c)
					return s.syntaxError("invalid hexadecimal literal")
				}
				for {
					c = s.nextc()
					if !isXDigit(c) {
						break
					}
				}
				if c != '_' {
					break
				}
			}
			if t, ok := s.verifyEnd(c, "hexadecimal"); !ok {
				return t
			}
		case 'o', 'O':
			c = s.nextc()
			for {
				if c == '_' {
					c = s.nextc()
				}
				if c < '0' || c >= '8' {
					if isDigit(c) {
						return s.syntaxError("invalid digit '%c' in octal literal", rune(c))
					}
					s.backup(c)
					return s.syntaxError("invalid octal literal")
				}
				for {
					c = s.nextc()
					if !('0' <= c && c < '8') {
						break
					}
				}
				if c != '_' {
					break
				}
			}
			if isDigit(c) {
				return s.syntaxError("invalid digit '%c' in octal literal", rune(c))
			}
			if t, ok := s.verifyEnd(c, "octal"); !ok {
				return t
			}
		case 'b', 'B':
			c = s.nextc()
			for {
				if c == '_' {
					c = s.nextc()
				}
				if c != '0' && c != '1' {
					if isDigit(c) {
						return s.syntaxError("invalid digit '%c' in binary literal", rune(c))
					}
					s.backup(c)
					return s.syntaxError("invalid binary literal")
				}
				for {
					c = s.nextc()
					if c != '0' && c != '1' {
						break
					}
				}
				if c != '_' {
					break
				}
			}
			if isDigit(c) {
				return s.syntaxError("invalid digit '%c' in binary literal", rune(c))
			}
			if t, ok := s.verifyEnd(c, "binary"); !ok {
				return t
			}
		default:
			nonzero := false
			for {
				if c == '_' {
					c = s.nextc()
					if !isDigit(c) {
						s.backup(c)
						return s.syntaxError("invalid decimal literal")
					}
				}
				if c != '0' {
					break
				}
				c = s.nextc()
			}
			zerosEnd := s.pos
			if isDigit(c) {
				nonzero = true
				var ok bool
				if c, ok = s.decimalTail(); !ok {
					return s.toks0()
				}
			}
			if c == '.' {
				c = s.nextc()
				goto fraction
			} else if c == 'e' || c == 'E' {
				goto exponent
			} else if c == 'j' || c == 'J' {
				goto imaginary
			} else if nonzero {
				s.backup(c)
				e := &Error{Type: "SyntaxError", Msg: "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
					Line: s.line, Col: start + 1 - s.lineStart, EndLine: s.line, EndCol: zerosEnd - s.lineStart, Text: s.lineText(s.line)}
				return s.fail(errRaised, e)
			}
			if t, ok := s.verifyEnd(c, "decimal"); !ok {
				return t
			}
		}
		s.backup(c)
		return s.make(tNumber, start, s.pos)
	}
	{
		var ok bool
		if c, ok = s.decimalTail(); !ok {
			return s.toks0()
		}
		if c == '.' {
			c = s.nextc()
			goto fraction
		}
		goto afterFraction
	}
fraction:
	if isDigit(c) {
		var ok bool
		if c, ok = s.decimalTail(); !ok {
			return s.toks0()
		}
	}
afterFraction:
	if c == 'e' || c == 'E' {
		goto exponent
	}
	if c == 'j' || c == 'J' {
		goto imaginary
	}
	if t, ok := s.verifyEnd(c, "decimal"); !ok {
		return t
	}
	s.backup(c)
	return s.make(tNumber, start, s.pos)
exponent:
	{
		e := c
		c = s.nextc()
		if c == '+' || c == '-' {
			c = s.nextc()
			if !isDigit(c) {
				s.backup(c)
				return s.syntaxError("invalid decimal literal")
			}
		} else if !isDigit(c) {
			s.backup(c)
			if t, ok := s.verifyEnd(e, "decimal"); !ok {
				return t
			}
			s.backup(e)
			return s.make(tNumber, start, s.pos)
		}
		var ok bool
		if c, ok = s.decimalTail(); !ok {
			return s.toks0()
		}
		if c == 'j' || c == 'J' {
			goto imaginary
		}
		if t, ok := s.verifyEnd(c, "decimal"); !ok {
			return t
		}
		s.backup(c)
		return s.make(tNumber, start, s.pos)
	}
imaginary:
	c = s.nextc()
	if t, ok := s.verifyEnd(c, "imaginary"); !ok {
		return t
	}
	s.backup(c)
	return s.make(tNumber, start, s.pos)
}

// toks0 returns the error token recorded by a helper that failed.
func (s *scanner) toks0() token {
	line := s.line
	if line < 1 {
		line = 1
	}
	return token{kind: tError, start: int32(s.pos), end: int32(s.pos), line: int32(line), endLine: int32(line), endCol: -1}
}

// decimalTail reads digits with single underscores between them; it
// returns the first character after them.
func (s *scanner) decimalTail() (int, bool) {
	var c int
	for {
		for {
			c = s.nextc()
			if !isDigit(c) {
				break
			}
		}
		if c != '_' {
			return c, true
		}
		c = s.nextc()
		if !isDigit(c) {
			s.backup(c)
			s.syntaxError("invalid decimal literal")
			return 0, false
		}
	}
}

// verifyEnd checks what follows a number (c was read after it): a
// letter or digit there is an error, except the start of a keyword that
// may follow a number in valid code (CPython only warns then).
func (s *scanner) verifyEnd(c int, kind string) (token, bool) {
	r := false
	rest := func(w string) bool {
		return len(s.src)-s.pos >= len(w) && s.src[s.pos:s.pos+len(w)] == w
	}
	switch c {
	case 'a':
		r = rest("nd")
	case 'e':
		r = rest("lse")
	case 'f':
		r = rest("or")
	case 'i':
		r = s.pos < len(s.src) && (s.src[s.pos] == 'f' || s.src[s.pos] == 'n' || s.src[s.pos] == 's')
	case 'o':
		r = rest("r")
	case 'n':
		r = rest("ot")
	}
	if r {
		return token{}, true
	}
	if c < 128 && c != eof && isPotentialIdentChar(c) {
		s.backup(c)
		return s.syntaxError("invalid %s literal", kind), false
	}
	return token{}, true
}

// verifyIdentifier checks a non-ASCII identifier from start to s.pos.
func (s *scanner) verifyIdentifier(start int) (token, bool) {
	id := s.src[start:s.pos]
	first := true
	for i, r := range id {
		ok := false
		if r == utf8.RuneError {
			ok = false
		} else if first {
			ok = isXIDStart(r) || r == '_'
		} else {
			ok = isXIDContinue(r)
		}
		first = false
		if !ok {
			// CPython points just past the bad character.
			s.pos = start + i + utf8.RuneLen(r)
			if r == utf8.RuneError {
				s.pos = start + i + 1
			}
			if isPrintable(r) {
				return s.syntaxError("invalid character '%c' (U+%04X)", r, r), false
			}
			return s.syntaxError("invalid non-printable character U+%04X", r), false
		}
	}
	return token{}, true
}
