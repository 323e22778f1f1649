package syntax

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a SyntaxError (or its subclasses IndentationError and TabError)
// found in source before it runs, located as CPython 3.12 locates it.
type Error struct {
	Type string // "SyntaxError", "IndentationError" or "TabError"
	Msg  string
	// Line is the 1-based line of the error, 0 if it has none (as for
	// null bytes in the source).
	Line int
	// Col is CPython's SyntaxError.offset: the 1-based column counted in
	// characters (code points), 0 if none.
	Col int
	// EndLine and EndCol are CPython's end_lineno and end_offset, with
	// the same conventions; EndCol may be 0 or -1 where CPython gives
	// those.
	EndLine, EndCol int
	// Text is CPython's SyntaxError.text for source compiled from a
	// string: the line the error is on, with its newline for most parser
	// errors (see withText), without it for the tokenizer's.
	Text string
	// NoText reports an error of CPython's compiler or symbol table
	// ('return' outside function, ...), whose text is None for source
	// compiled from a string.
	NoText bool
	// NoDetails reports an error of CPython's symbol table or future
	// checks, whose args hold only the message (no location tuple).
	NoDetails bool
}

// Error returns "Type: Msg (line L, column C)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Type)
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Line > 0 {
		b.WriteString(" (line ")
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(", column ")
			b.WriteString(strconv.Itoa(e.Col))
		}
		b.WriteString(")")
	}
	return b.String()
}

// bailout is what the parser panics with to unwind to Parse; it carries
// the error.
type bailout struct {
	err     *Error
	generic bool // CPython's generic "invalid syntax": a failure to backtrack from
}

// source is the text being read, with an index of its lines.
type source struct {
	src        string
	lineStarts []int32 // byte offset of each line's start; lineStarts[0] is line 1
}

func newSource(src string) *source {
	s := &source{src: src}
	n := strings.Count(src, "\n")
	s.lineStarts = make([]int32, 0, n+2)
	s.lineStarts = append(s.lineStarts, 0)
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			s.lineStarts = append(s.lineStarts, int32(i+1))
		}
	}
	return s
}

// lineText is line n's text without its newline ("" past the end).
func (s *source) lineText(n int) string {
	if n < 1 || n > len(s.lineStarts) {
		return ""
	}
	start := int(s.lineStarts[n-1])
	if start >= len(s.src) {
		return ""
	}
	end := strings.IndexByte(s.src[start:], '\n')
	if end < 0 {
		return s.src[start:]
	}
	return s.src[start : start+end]
}

// lineWithNewline is line n's text with its newline, if it has one.
func (s *source) lineWithNewline(n int) string {
	if n < 1 || n > len(s.lineStarts) {
		return ""
	}
	start := int(s.lineStarts[n-1])
	end := len(s.src)
	if n < len(s.lineStarts) {
		end = int(s.lineStarts[n])
	}
	return s.src[start:end]
}

// charOffset converts a 1-based byte offset in line n to CPython's
// 1-based character offset: the number of characters in the first off
// bytes of the line (a character cut short counts as one), and one more
// past the line's end.
func (s *source) charOffset(n, off int) int {
	text := s.lineWithNewline(n)
	if off <= 0 {
		return off
	}
	extra := 0
	if off > len(text) {
		off = len(text)
		extra = 1
	}
	count := 0
	for i := 0; i < off; {
		_, size := utf8.DecodeRuneInString(text[i:])
		count++
		i += size
	}
	return count + extra
}

// errKnown makes an error at 0-based byte columns, as CPython's
// RAISE_ERROR_KNOWN_LOCATION does: both columns become 1-based character
// offsets counted on the start line's text; an end column of -1 gives 0.
func (s *source) errKnown(typ, msg string, line, col, endLine, endCol int) *Error {
	e := &Error{Type: typ, Msg: msg, Line: line, EndLine: endLine, Text: s.lineText(line)}
	e.Col = s.charOffset(line, col+1)
	e.EndCol = endCol + 1
	if e.EndCol > 0 {
		e.EndCol = s.charOffset(line, e.EndCol)
	}
	return e
}
