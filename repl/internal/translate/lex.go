package translate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// kind is the lexical class of a token.
type kind int

const (
	kName kind = iota
	kNumber
	kString
	kOp
	kNewline // end of a logical line
	kEOF
)

// token is one Python token. off/end index the source; the gap before a token
// (whitespace, comments, line continuations) is src[prev.end:off].
type token struct {
	kind kind
	text string // source text
	off  int
	end  int
	line int // 1-based line of off

	// Output edits (empty out means "text" unless drop is set).
	out     string
	hasOut  bool
	pre     string
	post    string
	skipGap bool // do not emit the gap before this token (gap has no newline)

	str *strLit // for kString
}

func (t *token) setOut(s string) { t.out, t.hasOut = s, true }

// rendered returns the token's output text without the gap.
func (t *token) rendered() string {
	s := t.text
	if t.hasOut {
		s = t.out
	}
	return t.pre + s + t.post
}

// strLit describes a string literal token.
type strLit struct {
	prefix    string // lower-cased prefix letters
	quote     string // ', ", ''' or """
	body      string // text between the quotes
	bodyOff   int    // offset of body in the source
	raw, f, b bool
}

// Error is a translation failure: source that is not valid Python-style code
// or uses a construct code mode does not support. Line and Col are 1-based
// positions in the original source (0 when unknown).
type Error struct {
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// lexer tokenizes Python source.
type lexer struct {
	src  string
	pos  int
	line int
	toks []*token
}

func isIdentStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

var ops3 = []string{"**=", "//=", ">>=", "<<=", "..."}
var ops2 = []string{"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", ":=",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="}

// lex tokenizes src. Each logical line ends with a kNewline token; the last
// token is kEOF.
func lex(src string) ([]*token, error) {
	lx := &lexer{src: src, line: 1}
	depth := 0
	lineHasTok := false
	var brackets []*token
	for {
		// skip whitespace, comments and continuations
		for lx.pos < len(src) {
			c := src[lx.pos]
			if c == ' ' || c == '\t' || c == '\f' || c == '\r' {
				lx.pos++
			} else if c == '#' {
				for lx.pos < len(src) && src[lx.pos] != '\n' {
					lx.pos++
				}
			} else if c == '\\' && lx.pos+1 < len(src) && src[lx.pos+1] == '\n' {
				lx.pos += 2
				lx.line++
			} else if c == '\\' && lx.pos+2 < len(src) && src[lx.pos+1] == '\r' && src[lx.pos+2] == '\n' {
				lx.pos += 3
				lx.line++
			} else if c == '\n' {
				if depth == 0 && lineHasTok {
					lx.toks = append(lx.toks, &token{kind: kNewline, text: "\n", off: lx.pos, end: lx.pos + 1, line: lx.line})
					lineHasTok = false
				}
				lx.pos++
				lx.line++
			} else {
				break
			}
		}
		if lx.pos >= len(src) {
			if depth > 0 {
				b := brackets[len(brackets)-1]
				return nil, &Error{Line: b.line, Msg: fmt.Sprintf("'%s' was never closed", b.text)}
			}
			if lineHasTok {
				lx.toks = append(lx.toks, &token{kind: kNewline, text: "", off: lx.pos, end: lx.pos, line: lx.line})
			}
			lx.toks = append(lx.toks, &token{kind: kEOF, off: lx.pos, end: lx.pos, line: lx.line})
			return lx.toks, nil
		}
		lineHasTok = true
		start, startLine := lx.pos, lx.line
		r, size := utf8.DecodeRuneInString(src[lx.pos:])
		switch {
		case isIdentStart(r):
			p := lx.pos
			for p < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[p:])
				if !isIdentPart(r2) {
					break
				}
				p += s2
			}
			word := src[lx.pos:p]
			if p < len(src) && (src[p] == '\'' || src[p] == '"') && isStrPrefix(word) {
				lx.pos = p
				st, err := lx.scanString(strings.ToLower(word), start)
				if err != nil {
					return nil, err
				}
				lx.toks = append(lx.toks, st)
				continue
			}
			lx.pos = p
			lx.toks = append(lx.toks, &token{kind: kName, text: word, off: start, end: p, line: startLine})
		case r == '\'' || r == '"':
			st, err := lx.scanString("", start)
			if err != nil {
				return nil, err
			}
			lx.toks = append(lx.toks, st)
		case r >= '0' && r <= '9' || r == '.' && lx.pos+1 < len(src) && src[lx.pos+1] >= '0' && src[lx.pos+1] <= '9':
			p := lx.pos
			for p < len(src) {
				c := src[p]
				if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' {
					p++
				} else if (c == '+' || c == '-') && (src[p-1] == 'e' || src[p-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[lx.pos:p]), "0x") {
					p++
				} else {
					break
				}
			}
			lx.pos = p
			lx.toks = append(lx.toks, &token{kind: kNumber, text: src[start:p], off: start, end: p, line: startLine})
		default:
			op := ""
			for _, o := range ops3 {
				if strings.HasPrefix(src[lx.pos:], o) {
					op = o
					break
				}
			}
			if op == "" {
				for _, o := range ops2 {
					if strings.HasPrefix(src[lx.pos:], o) {
						op = o
						break
					}
				}
			}
			if op == "" {
				if !strings.ContainsRune("()[]{},:;.+-*/%&|^~<>=@!", r) {
					return nil, &Error{Line: startLine, Msg: fmt.Sprintf("invalid character %q", r)}
				}
				op = src[lx.pos : lx.pos+size]
			}
			lx.pos += len(op)
			t := &token{kind: kOp, text: op, off: start, end: lx.pos, line: startLine}
			switch op {
			case "(", "[", "{":
				depth++
				brackets = append(brackets, t)
			case ")", "]", "}":
				if depth == 0 {
					return nil, &Error{Line: startLine, Msg: fmt.Sprintf("unmatched '%s'", op)}
				}
				depth--
				brackets = brackets[:len(brackets)-1]
			}
			lx.toks = append(lx.toks, t)
		}
	}
}

func isStrPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "f", "b", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// scanString scans a string literal whose quote starts at lx.pos.
func (lx *lexer) scanString(prefix string, start int) (*token, error) {
	src := lx.src
	startLine := lx.line
	q := src[lx.pos : lx.pos+1]
	if strings.HasPrefix(src[lx.pos:], q+q+q) {
		q = q + q + q
	}
	raw := strings.Contains(prefix, "r")
	isF := strings.Contains(prefix, "f")
	lx.pos += len(q)
	bodyOff := lx.pos
	end, err := lx.scanStringBody(q, raw, isF)
	if err != nil {
		return nil, err
	}
	t := &token{kind: kString, text: src[start:lx.pos], off: start, end: lx.pos, line: startLine}
	t.str = &strLit{prefix: prefix, quote: q, body: src[bodyOff:end], bodyOff: bodyOff, raw: raw, f: isF, b: strings.Contains(prefix, "b")}
	return t, nil
}

// scanStringBody advances past the closing quote q and returns the offset
// where the body ends. For f-strings, replacement fields are skipped with
// their nested strings and brackets (Python 3.12 rules: quotes may nest).
func (lx *lexer) scanStringBody(q string, raw, isF bool) (int, error) {
	src := lx.src
	triple := len(q) == 3
	startLine := lx.line
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == '\\':
			if lx.pos+1 < len(src) && src[lx.pos+1] == '\n' {
				lx.line++
			}
			lx.pos += 2
		case c == '\n':
			if !triple {
				return 0, &Error{Line: startLine, Msg: "unterminated string literal"}
			}
			lx.line++
			lx.pos++
		case strings.HasPrefix(src[lx.pos:], q):
			end := lx.pos
			lx.pos += len(q)
			return end, nil
		case isF && c == '{':
			if lx.pos+1 < len(src) && src[lx.pos+1] == '{' {
				lx.pos += 2
				continue
			}
			lx.pos++
			if err := lx.skipField(); err != nil {
				return 0, err
			}
		default:
			lx.pos++
		}
	}
	return 0, &Error{Line: startLine, Msg: "unterminated string literal"}
}

// skipField skips an f-string replacement field after its '{' up to and
// including the matching '}'.
func (lx *lexer) skipField() error {
	src := lx.src
	depth := 0
	startLine := lx.line
	inSpec := false
	for lx.pos < len(src) {
		c := src[lx.pos]
		if inSpec {
			// format spec: literal text with nested fields
			switch c {
			case '{':
				lx.pos++
				if err := lx.skipField(); err != nil {
					return err
				}
			case '}':
				lx.pos++
				return nil
			case '\n':
				lx.line++
				lx.pos++
			default:
				lx.pos++
			}
			continue
		}
		switch {
		case c == '\'' || c == '"':
			save := lx.pos
			lx.pos = save
			if _, err := lx.scanString("", save); err != nil {
				return err
			}
		case isIdentStart(rune(c)) && lx.pos+1 < len(src) && (src[lx.pos+1] == '\'' || src[lx.pos+1] == '"') && isStrPrefix(src[lx.pos:lx.pos+1]) && (lx.pos == 0 || !isIdentPart(rune(src[lx.pos-1]))):
			p := lx.pos + 1
			start := lx.pos
			lx.pos = p
			if _, err := lx.scanString(strings.ToLower(src[start:p]), start); err != nil {
				return err
			}
		case lx.pos+2 < len(src) && isStrPrefix(src[lx.pos:lx.pos+2]) && (src[lx.pos+2] == '\'' || src[lx.pos+2] == '"') && (lx.pos == 0 || !isIdentPart(rune(src[lx.pos-1]))):
			start := lx.pos
			lx.pos += 2
			if _, err := lx.scanString(strings.ToLower(src[start:start+2]), start); err != nil {
				return err
			}
		case c == '(' || c == '[' || c == '{':
			depth++
			lx.pos++
		case c == ')' || c == ']':
			depth--
			lx.pos++
		case c == '}':
			if depth == 0 {
				lx.pos++
				return nil
			}
			depth--
			lx.pos++
		case c == ':' && depth == 0:
			inSpec = true
			lx.pos++
		case c == '!' && depth == 0 && !strings.HasPrefix(src[lx.pos:], "!="):
			lx.pos++
		case c == '\n':
			lx.line++
			lx.pos++
		case c == '#':
			return &Error{Line: lx.line, Msg: "f-string expression part cannot include '#'"}
		default:
			lx.pos++
		}
	}
	return &Error{Line: startLine, Msg: "f-string: expecting '}'"}
}
