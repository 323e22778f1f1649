package io

import (
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// StringIO is io.StringIO: a text buffer of code points with a position.
type StringIO struct {
	buf    []rune
	pos    int
	closed bool
	// readnl is the newline argument ("" when None or ""); universal
	// says lines end at \r, \n or \r\n; translate says the input's \r\n
	// and \r become \n (newline=None); writenl replaces \n on write.
	readnl    string
	universal bool
	translate bool
	writenl   string
	// seen records the kinds of newline the decoder saw (newline None
	// or ""): bit 0 \r, bit 1 \n, bit 2 \r\n.
	seen uint8
	id   uint64
}

// Type returns io.StringIO.
func (*StringIO) Type() *python.Type { return StringIOType }

func (s *StringIO) isClosed() bool   { return s.closed }
func (s *StringIO) close()           { s.closed = true; s.buf = nil }
func (s *StringIO) closedErr() error { return closedError(false) }

// NewStringIO returns an empty StringIO (newline="\n"), for library
// modules that write text for Python code to read.
func NewStringIO() *StringIO { return &StringIO{readnl: "\n"} }

func newStringIO(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
	s := &StringIO{}
	if err := s.init(t, args, kwargs); err != nil {
		return nil, err
	}
	if cls != StringIOType {
		return python.NewInstance(cls, s), nil
	}
	return s, nil
}

// strArg returns the text of a str (or of a host text such as context).
func strArg(t *python.Thread, x obj) (string, bool, error) {
	if s, ok := x.(*python.Str); ok {
		return s.String(), true, nil
	}
	if python.IsStr(x) {
		v, err := python.StrOf(t, x)
		return v, true, err
	}
	return "", false, nil
}

// init is StringIO.__init__(initial_value=”, newline='\n').
func (s *StringIO) init(t *python.Thread, args []obj, kwargs []kwarg) error {
	a, err := python.UnpackArgs("StringIO", args, kwargs, 0, "initial_value", "newline")
	if err != nil {
		return err
	}
	nl := "\n"
	isNone := false
	if a[1] != nil {
		if a[1] == python.None {
			isNone = true
			nl = ""
		} else {
			v, ok, err := strArg(t, a[1])
			if err != nil {
				return err
			}
			if !ok {
				return python.Errorf(python.TypeErrorType, "newline must be str or None, not %s", python.TypeName(a[1]))
			}
			nl = v
			switch nl {
			case "", "\n", "\r", "\r\n":
			default:
				return python.Errorf(python.ValueErrorType, "illegal newline value: %s", python.StrRepr(nl))
			}
		}
	}
	*s = StringIO{id: s.id, readnl: nl, universal: isNone || nl == "", translate: isNone}
	if nl == "\r" || nl == "\r\n" {
		s.writenl = nl
	}
	if a[0] != nil && a[0] != python.None {
		v, ok, err := strArg(t, a[0])
		if err != nil {
			return err
		}
		if !ok {
			return python.Errorf(python.TypeErrorType, "initial_value must be str or None, not %s", python.TypeName(a[0]))
		}
		if err := s.write(t, v); err != nil {
			return err
		}
		s.pos = 0
	}
	return nil
}

// prepare applies the newline translation of writes.
func (s *StringIO) prepare(text string) string {
	if s.universal {
		// Record the newlines seen, and translate them for newline=None.
		for i := 0; i < len(text); i++ {
			switch text[i] {
			case '\r':
				if i+1 < len(text) && text[i+1] == '\n' {
					s.seen |= 4
					i++
				} else {
					s.seen |= 1
				}
			case '\n':
				s.seen |= 2
			}
		}
		if s.translate && strings.IndexByte(text, '\r') >= 0 {
			text = strings.ReplaceAll(text, "\r\n", "\n")
			text = strings.ReplaceAll(text, "\r", "\n")
		}
	}
	if s.writenl != "" {
		text = strings.ReplaceAll(text, "\n", s.writenl)
	}
	return text
}

// write writes text at the position (padding with NULs after a seek past
// the end).
func (s *StringIO) write(t *python.Thread, text string) error {
	text = s.prepare(text)
	n := utf8.RuneCountInString(text)
	if n == 0 {
		return nil
	}
	end := s.pos + n
	if end > len(s.buf) {
		if err := t.CheckSize(int64(end) * 4); err != nil {
			return err
		}
		if end > cap(s.buf) {
			nb := make([]rune, len(s.buf), max(end, 2*cap(s.buf)))
			copy(nb, s.buf)
			s.buf = nb
		}
		s.buf = s.buf[:end]
		for i := len(s.buf); i < s.pos; i++ {
			s.buf[i] = 0
		}
	}
	i := s.pos
	for _, r := range text {
		s.buf[i] = r
		i++
	}
	s.pos = end
	return nil
}

// WriteString writes s as StringIO.write does (print(file=...) uses it).
func (s *StringIO) WriteString(t *python.Thread, text string) error {
	if s.closed {
		return closedError(false)
	}
	return s.write(t, text)
}

// Value returns the buffer's text (getvalue()).
func (s *StringIO) Value() string { return string(s.buf) }

// Next is the iterator protocol: the next line, nil at the end.
func (s *StringIO) Next(t *python.Thread) (obj, error) {
	if s.closed {
		return nil, closedError(false)
	}
	line := s.readline(-1)
	if line == "" {
		return nil, nil
	}
	return python.NewStr(line), nil
}

// PyRepr renders <_io.StringIO object at 0x...>.
func (s *StringIO) PyRepr(t *python.Thread) (string, error) {
	return "<_io.StringIO object at " + addr(&s.id) + ">", nil
}

// lineEnd returns the index just past the end of the line starting at
// pos, or -1 when the rest has no line ending.
func (s *StringIO) lineEnd(limit int) int {
	b := s.buf
	switch {
	case s.translate || (!s.universal && s.readnl == "\n"):
		for i := s.pos; i < limit; i++ {
			if b[i] == '\n' {
				return i + 1
			}
		}
	case s.universal:
		for i := s.pos; i < limit; i++ {
			switch b[i] {
			case '\n':
				return i + 1
			case '\r':
				if i+1 < limit && b[i+1] == '\n' {
					return i + 2
				}
				if i+1 == limit && limit < len(b) && b[i+1] == '\n' {
					// The size limit cuts the \r\n: the \r ends it here.
					return i + 1
				}
				return i + 1
			}
		}
	default:
		nl := []rune(s.readnl)
		for i := s.pos; i+len(nl) <= limit; i++ {
			match := true
			for k, r := range nl {
				if b[i+k] != r {
					match = false
					break
				}
			}
			if match {
				return i + len(nl)
			}
		}
	}
	return -1
}

func (s *StringIO) readline(size int64) string {
	if s.pos >= len(s.buf) {
		return ""
	}
	limit := len(s.buf)
	if size >= 0 && int64(s.pos)+size < int64(limit) {
		limit = s.pos + int(size)
	}
	end := s.lineEnd(limit)
	if end < 0 {
		end = limit
	}
	line := string(s.buf[s.pos:end])
	s.pos = end
	return line
}

func strSelf(args []obj, name string) (*StringIO, error) {
	s, ok := python.Unwrap(args[0]).(*StringIO)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for '_io.StringIO' objects doesn't apply to a '%s' object", name, python.TypeName(args[0]))
	}
	if s.closed {
		return nil, closedError(false)
	}
	return s, nil
}

func stringIOMethods() {
	c := StringIOType
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, ok := python.Unwrap(args[0]).(*StringIO)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor '__init__' requires a '_io.StringIO' object but received a '%s'", python.TypeName(args[0]))
		}
		return python.None, s.init(t, args[1:], kwargs)
	})
	c.AddMethod("getvalue", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if _, err := python.UnpackArgs("getvalue", args[1:], kwargs, 0); err != nil {
			return nil, err
		}
		s, err := strSelf(args, "getvalue")
		if err != nil {
			return nil, err
		}
		if err := t.CheckSize(int64(len(s.buf)) * 2); err != nil {
			return nil, err
		}
		return python.NewStr(string(s.buf)), nil
	})
	c.AddMethod("write", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("write", args[1:], kwargs, 1, "s", "/")
		if err != nil {
			return nil, err
		}
		s, err := strSelf(args, "write")
		if err != nil {
			return nil, err
		}
		text, ok, err := strArg(t, a[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "string argument expected, got '%s'", python.TypeName(a[0]))
		}
		return python.MakeInt(int64(utf8.RuneCountInString(text))), s.write(t, text)
	})
	c.AddMethod("read", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("read", args[1:], kwargs, 0, "size", "/")
		if err != nil {
			return nil, err
		}
		s, err := strSelf(args, "read")
		if err != nil {
			return nil, err
		}
		size, err := sizeArg(t, a[0])
		if err != nil {
			return nil, err
		}
		if s.pos >= len(s.buf) {
			return python.NewStr(""), nil
		}
		end := len(s.buf)
		if size >= 0 && int64(s.pos)+size < int64(end) {
			end = s.pos + int(size)
		}
		out := string(s.buf[s.pos:end])
		s.pos = end
		return python.NewStr(out), nil
	})
	c.AddMethod("readline", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("readline", args[1:], kwargs, 0, "size", "/")
		if err != nil {
			return nil, err
		}
		s, err := strSelf(args, "readline")
		if err != nil {
			return nil, err
		}
		size, err := sizeArg(t, a[0])
		if err != nil {
			return nil, err
		}
		return python.NewStr(s.readline(size)), nil
	})
	c.AddMethod("tell", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if _, err := python.UnpackArgs("tell", args[1:], kwargs, 0); err != nil {
			return nil, err
		}
		s, err := strSelf(args, "tell")
		if err != nil {
			return nil, err
		}
		return python.MakeInt(int64(s.pos)), nil
	})
	c.AddMethod("seek", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("seek", args[1:], kwargs, 1, "pos", "whence", "/")
		if err != nil {
			return nil, err
		}
		pos, err := python.ArgInt(t, "seek", a[0])
		if err != nil {
			return nil, err
		}
		whence := int64(0)
		if a[1] != nil {
			if whence, err = python.ArgInt(t, "seek", a[1]); err != nil {
				return nil, err
			}
		}
		if whence != 0 && whence != 1 && whence != 2 {
			return nil, python.Errorf(python.ValueErrorType, "Invalid whence (%d, should be 0, 1 or 2)", whence)
		}
		if whence == 0 && pos < 0 {
			return nil, python.Errorf(python.ValueErrorType, "Negative seek position %d", pos)
		}
		if whence != 0 && pos != 0 {
			// CPython says "cur-relative" for both whences.
			return nil, python.NewException(python.ExceptionClass("OSError"), python.NewStr("Can't do nonzero cur-relative seeks"))
		}
		s, err := strSelf(args, "seek")
		if err != nil {
			return nil, err
		}
		switch whence {
		case 0:
			if pos > 1<<40 {
				return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C ssize_t")
			}
			s.pos = int(pos)
		case 2:
			s.pos = len(s.buf)
		}
		return python.MakeInt(int64(s.pos)), nil
	})
	c.AddMethod("truncate", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs("truncate", args[1:], kwargs, 0, "pos", "/")
		if err != nil {
			return nil, err
		}
		s, err := strSelf(args, "truncate")
		if err != nil {
			return nil, err
		}
		size := int64(s.pos)
		if a[0] != nil && a[0] != python.None {
			n, ok, err := python.IndexValue(t, a[0])
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(a[0]))
			}
			size = n
		}
		if size < 0 {
			return nil, python.Errorf(python.ValueErrorType, "Negative size value %d", size)
		}
		if size < int64(len(s.buf)) {
			s.buf = s.buf[:size]
		}
		return python.MakeInt(size), nil
	})
	c.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := strSelf(args, "__next__")
		if err != nil {
			return nil, err
		}
		line := s.readline(-1)
		if line == "" {
			return nil, python.NewException(python.StopIterationType)
		}
		return python.NewStr(line), nil
	})
	c.AddGetSet("newlines", func(t *python.Thread, o obj) (obj, error) {
		s := o.(*StringIO)
		if s.closed {
			return nil, closedError(false)
		}
		if !s.universal {
			return python.None, nil
		}
		var kinds []obj
		for _, k := range []struct {
			bit uint8
			s   string
		}{{1, "\r"}, {2, "\n"}, {4, "\r\n"}} {
			if s.seen&k.bit != 0 {
				kinds = append(kinds, python.NewStr(k.s))
			}
		}
		switch len(kinds) {
		case 0:
			return python.None, nil
		case 1:
			return kinds[0], nil
		}
		return python.NewTuple(kinds), nil
	}, nil)
	c.AddGetSet("line_buffering", func(t *python.Thread, o obj) (obj, error) {
		if o.(*StringIO).closed {
			return nil, closedError(false)
		}
		return python.False, nil
	}, nil)
	c.AddGetSet("encoding", func(t *python.Thread, o obj) (obj, error) { return python.None, nil }, nil)
	c.AddGetSet("errors", func(t *python.Thread, o obj) (obj, error) { return python.None, nil }, nil)
}
