// Package traceback is code mode's traceback module: format_exc,
// print_exc, format_exception, format_exception_only, print_exception and
// format_tb with CPython 3.12's layout ("Traceback (most recent call
// last):", one "  File ..., line N, in name" line per frame the exception
// passed through, chained exceptions with their separating sentences,
// notes, SyntaxError's caret), from the frames the interpreter records
// (python.Exception.Traceback). Source lines are not shown: code mode's
// cells are compiled from strings, for which CPython shows none either.
// format_stack and print_stack need the running frames, which the
// interpreter does not expose yet (they are used as soon as the thread has
// a Stack method, and refused until then); extract_stack, the traceback
// object functions and TracebackException are refused.
package traceback

import (
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes traceback importable.
func Register() {
	python.Setup()
	python.RegisterModule("traceback", load)
}

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("traceback")
	m.Func("format_exc", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("format_exc", []string{"limit", "chain"}, 0, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		lines, err := formatHandled(t, v["limit"], v["chain"])
		if err != nil {
			return nil, err
		}
		return python.NewStr(strings.Join(lines, "")), nil
	})
	m.Func("print_exc", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("print_exc", []string{"limit", "file", "chain"}, 0, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		lines, err := formatHandled(t, v["limit"], v["chain"])
		if err != nil {
			return nil, err
		}
		return python.None, write(t, v["file"], lines)
	})
	m.Func("format_exception", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		lines, err := formatExceptionArgs(t, "format_exception", args, kwargs, false)
		if err != nil {
			return nil, err
		}
		return strList(lines), nil
	})
	m.Func("print_exception", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		var file python.Object
		var rest []python.Kwarg
		for _, kw := range kwargs {
			if kw.Name == "file" {
				file = kw.Value
			} else {
				rest = append(rest, kw)
			}
		}
		lines, err := formatExceptionArgs(t, "print_exception", args, rest, false)
		if err != nil {
			return nil, err
		}
		return python.None, write(t, file, lines)
	})
	m.Func("format_exception_only", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) == 0 || len(args) > 2 {
			return nil, python.Errorf(python.TypeErrorType, "format_exception_only() takes from 1 to 2 positional arguments but %d were given", len(args))
		}
		exc := args[0]
		if len(args) == 2 {
			exc = args[1]
		}
		if exc == python.None || exc == nil {
			typ := args[0]
			if typ == python.None || len(args) == 2 {
				return strList([]string{"NoneType: None\n"}), nil
			}
			c, ok := typ.(*python.Type)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "'%s' object has no attribute '__qualname__'", python.TypeName(typ))
			}
			return strList([]string{typeName(c) + "\n"}), nil
		}
		e, ok := exc.(*python.Exception)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "format_exception_only() argument must be an exception")
		}
		lines, err := exceptionOnly(t, e)
		if err != nil {
			return nil, err
		}
		return strList(lines), nil
	})
	m.Func("format_tb", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("format_tb", []string{"tb", "limit"}, 1, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		if v["tb"] == python.None {
			return python.NewList(nil), nil
		}
		return nil, python.NotSupported("traceback objects", "pass the exception itself to traceback.format_exception")
	})
	m.Func("format_stack", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		lines, err := stackLines(t, "format_stack", args, kwargs)
		if err != nil {
			return nil, err
		}
		return strList(lines), nil
	})
	m.Func("print_stack", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		var file python.Object
		var rest []python.Kwarg
		for _, kw := range kwargs {
			if kw.Name == "file" {
				file = kw.Value
			} else {
				rest = append(rest, kw)
			}
		}
		lines, err := stackLines(t, "print_stack", args, rest)
		if err != nil {
			return nil, err
		}
		return python.None, write(t, file, lines)
	})
	for _, n := range []string{"extract_stack", "walk_stack", "extract_tb", "walk_tb", "print_tb", "print_last", "format_list", "print_list", "clear_frames", "TracebackException", "StackSummary", "FrameSummary"} {
		n := n
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return nil, python.NotSupported("traceback."+n, "use traceback.format_exc() or format_exception(e)")
		})
	}
	return m, nil
}

// stackLines formats the running frames (format_stack, print_stack),
// once the interpreter exposes them (a Stack method on the thread).
func stackLines(t *python.Thread, name string, args []python.Object, kwargs []python.Kwarg) ([]string, error) {
	v, err := pyArgs(name, []string{"f", "limit"}, 0, nil, args, kwargs)
	if err != nil {
		return nil, err
	}
	if f := v["f"]; f != nil && f != python.None {
		return nil, python.NotSupported("frame objects", "call traceback."+name+"() without a frame")
	}
	s, ok := any(t).(interface{ Stack() []python.TraceEntry })
	if !ok {
		return nil, python.NotSupported("traceback."+name, "the running frames are not available; use traceback.format_exc() in an except block")
	}
	entries := s.Stack()
	if l := v["limit"]; l != nil && l != python.None {
		n, err := python.ArgInt(t, name, l)
		if err != nil {
			return nil, err
		}
		switch {
		case n >= 0 && int(n) < len(entries):
			entries = entries[len(entries)-int(n):]
		case n < 0 && int(-n) < len(entries):
			entries = entries[:-n]
		}
	}
	var out []string
	for _, en := range entries {
		out = append(out, "  File \""+en.File+"\", line "+strconv.Itoa(en.Line)+", in "+en.Name+"\n")
	}
	return out, nil
}

func strList(lines []string) *python.List {
	out := make([]python.Object, len(lines))
	for i, l := range lines {
		out[i] = python.NewStr(l)
	}
	return python.NewList(out)
}

// pyArgs binds the arguments of a function CPython defines in Python.
func pyArgs(name string, params []string, required int, kwOnly []string, args []python.Object, kwargs []python.Kwarg) (map[string]python.Object, error) {
	if len(args) > len(params) {
		return nil, python.Errorf(python.TypeErrorType, "%s() takes from %d to %d positional arguments but %d were given", name, required, len(params), len(args))
	}
	vals := map[string]python.Object{}
	for i, a := range args {
		vals[params[i]] = a
	}
	for _, kw := range kwargs {
		known := false
		for _, p := range append(append([]string{}, params...), kwOnly...) {
			if p == kw.Name {
				known = true
			}
		}
		if !known {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if vals[kw.Name] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		vals[kw.Name] = kw.Value
	}
	for _, p := range params[:required] {
		if vals[p] == nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: '%s'", name, p)
		}
	}
	return vals, nil
}

// formatExceptionArgs handles format_exception(exc, /, value=_sentinel,
// tb=_sentinel, limit=None, chain=True) and its three-argument form.
func formatExceptionArgs(t *python.Thread, name string, args []python.Object, kwargs []python.Kwarg, _ bool) ([]string, error) {
	v, err := pyArgs(name, []string{"exc", "value", "tb", "limit", "chain"}, 1, nil, args, kwargs)
	if err != nil {
		return nil, err
	}
	exc := v["exc"]
	if value, ok := v["value"]; ok && value != nil {
		exc = value
	}
	if exc == python.None {
		return []string{"NoneType: None\n"}, nil
	}
	e, ok := exc.(*python.Exception)
	if !ok {
		if c, ok := exc.(*python.Type); ok && c.IsSubtype(python.BaseExceptionType) {
			return []string{typeName(c) + "\n"}, nil
		}
		return nil, python.Errorf(python.TypeErrorType, "Exception expected for value, %s found", python.TypeName(exc))
	}
	return format(t, e, v["limit"], v["chain"])
}

// formatHandled formats the exception being handled (format_exc).
func formatHandled(t *python.Thread, limit, chain python.Object) ([]string, error) {
	e := t.Handled()
	if e == nil {
		return []string{"NoneType: None\n"}, nil
	}
	return format(t, e, limit, chain)
}

// write writes lines to file (sys.stderr when None).
func write(t *python.Thread, file python.Object, lines []string) error {
	text := strings.Join(lines, "")
	if file == nil || file == python.None {
		m, err := t.Interp().Import(t, "sys")
		if err != nil {
			t.PrintErr(text)
			return nil
		}
		if file, err = python.GetAttr(t, m, "stderr"); err != nil {
			return err
		}
	}
	_, err := python.CallMethod(t, file, "write", []python.Object{python.NewStr(text)}, nil)
	return err
}

func typeName(c *python.Type) string {
	mod := c.Module()
	if mod == "" || mod == "builtins" || mod == "__main__" {
		return c.Qualname()
	}
	return mod + "." + c.Qualname()
}

// format formats an exception and, with chain, its causes and contexts.
func format(t *python.Thread, e *python.Exception, limit, chain python.Object) ([]string, error) {
	doChain := true
	if chain != nil {
		b, err := python.TruthE(t, chain)
		if err != nil {
			return nil, err
		}
		doChain = b
	}
	limited, lim := false, 0
	if limit != nil && limit != python.None {
		n, err := python.ArgInt(t, "format", limit)
		if err != nil {
			return nil, err
		}
		limited, lim = true, int(n)
	}
	var out []string
	seen := map[*python.Exception]bool{}
	var walk func(e *python.Exception) error
	walk = func(e *python.Exception) error {
		seen[e] = true
		if doChain {
			if c := e.Cause(); c != nil && !seen[c] {
				if err := walk(c); err != nil {
					return err
				}
				out = append(out, "\nThe above exception was the direct cause of the following exception:\n\n")
			} else if ctx := e.Context(); ctx != nil && !seen[ctx] && !suppressed(t, e) {
				if err := walk(ctx); err != nil {
					return err
				}
				out = append(out, "\nDuring handling of the above exception, another exception occurred:\n\n")
			}
		}
		var entries []python.TraceEntry
		for _, en := range e.Traceback() {
			if en.File == "" && en.Name == "" {
				continue // a SyntaxError's position
			}
			entries = append(entries, en)
		}
		// limit keeps the first limit entries; a negative one the last
		// -limit.
		if limited {
			switch {
			case lim >= 0 && len(entries) > lim:
				entries = entries[:lim]
			case lim < 0 && -lim < len(entries):
				entries = entries[len(entries)+lim:]
			}
		}
		if len(entries) > 0 {
			out = append(out, "Traceback (most recent call last):\n")
			for _, en := range entries {
				out = append(out, "  File \""+en.File+"\", line "+strconv.Itoa(en.Line)+", in "+en.Name+"\n")
			}
		}
		only, err := exceptionOnly(t, e)
		if err != nil {
			return err
		}
		out = append(out, only...)
		return nil
	}
	if err := walk(e); err != nil {
		return nil, err
	}
	return out, nil
}

func suppressed(t *python.Thread, e *python.Exception) bool {
	v, err := python.GetAttr(t, e, "__suppress_context__")
	return err == nil && v == python.True
}

// exceptionOnly is format_exception_only: "Type: message", a
// SyntaxError's location and caret, and the notes.
func exceptionOnly(t *python.Thread, e *python.Exception) ([]string, error) {
	name := e.TypeName()
	msg, err := python.StrOf(t, e)
	if err != nil {
		msg = "<exception str() failed>"
	}
	var out []string
	if e.Class().IsSubtype(python.SyntaxErrorType) {
		lines, err := syntaxLines(t, e)
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
		if m, err := python.GetAttr(t, e, "msg"); err == nil && m != python.None {
			if msg, err = python.StrOf(t, m); err != nil {
				return nil, err
			}
		}
	}
	if msg == "" {
		out = append(out, name+"\n")
	} else {
		out = append(out, name+": "+msg+"\n")
	}
	if notes, ok := e.Dict().GetStr("__notes__"); ok {
		items, err := python.ToSlice(t, notes)
		if err == nil {
			for _, n := range items {
				s, err := python.StrOf(t, n)
				if err != nil {
					s = "<note str() failed>"
				}
				out = append(out, s+"\n")
			}
		} else {
			r, _ := python.Repr(t, notes)
			out = append(out, r+"\n")
		}
	}
	return out, nil
}

// syntaxLines renders a SyntaxError's file, line, text and caret.
func syntaxLines(t *python.Thread, e *python.Exception) ([]string, error) {
	// SyntaxError(msg, (filename, lineno, offset, text[, end_lineno,
	// end_offset])) sets the attributes from its details.
	var details []python.Object
	if a := e.Args(); len(a) == 2 {
		if tu, ok := a[1].(*python.Tuple); ok && len(tu.Items()) >= 4 {
			details = tu.Items()
		}
	}
	names := []string{"filename", "lineno", "offset", "text", "end_lineno", "end_offset"}
	get := func(n string) python.Object {
		v, err := python.GetAttr(t, e, n)
		if err == nil && v != python.None {
			return v
		}
		for i, dn := range names {
			if dn == n && i < len(details) {
				return details[i]
			}
		}
		return python.None
	}
	filename, lineno, offset, text := get("filename"), get("lineno"), get("offset"), get("text")
	var out []string
	fn := "<string>"
	if filename != python.None {
		fn, _ = python.StrOf(t, filename)
	}
	if lineno != python.None {
		ln, _ := python.StrOf(t, lineno)
		out = append(out, "  File \""+fn+"\", line "+ln+"\n")
	}
	if text != python.None {
		s, err := python.StrOf(t, text)
		if err != nil {
			return nil, err
		}
		s = strings.TrimRight(s, "\n")
		stripped := strings.TrimLeft(s, " \n\f")
		lead := len(s) - len(stripped)
		out = append(out, "    "+stripped+"\n")
		if off, ok := python.AsInt64(offset); ok {
			end, ok := python.AsInt64(get("end_offset"))
			if !ok || end == 0 {
				end = off
			}
			if off == end || end == -1 {
				end = off + 1
			}
			col := int(off) - 1 - lead
			endCol := int(end) - 1 - lead
			if col >= 0 {
				runes := []rune(stripped)
				var pad strings.Builder
				for i := 0; i < col && i < len(runes); i++ {
					if r := runes[i]; r == ' ' || r == '\t' || r == '\f' || r == '\v' || r == '\r' || r == '\n' {
						pad.WriteRune(r)
					} else {
						pad.WriteByte(' ')
					}
				}
				out = append(out, "    "+pad.String()+strings.Repeat("^", max(endCol-col, 0))+"\n")
			}
		}
	}
	return out, nil
}
