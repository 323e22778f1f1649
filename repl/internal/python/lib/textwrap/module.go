package textwrap

import (
	"errors"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// The module wrapper: code mode's textwrap module over the kernel above.
//
// TextWrapper is a class implemented in Go whose instances are plain
// instances holding CPython's attributes (width, initial_indent, ...), so
// that they may be changed after construction (w.width = 40) and the class
// subclassed; wrap and fill read the attributes at each call, as CPython's
// methods do. Overriding the private methods of CPython's TextWrapper
// (_split, _wrap_chunks, ...) in a subclass has no effect here.

type obj = python.Object

// Register makes textwrap importable.
func Register() {
	python.Setup()
	python.RegisterModule("textwrap", load)
}

// initSig is TextWrapper.__init__'s signature: every option but self has
// a default.
var initSig = &python.Signature{Name: "TextWrapper.__init__", Pos: []string{"self", "width", "initial_indent",
	"subsequent_indent", "expand_tabs", "replace_whitespace", "fix_sentence_endings",
	"break_long_words", "drop_whitespace", "break_on_hyphens", "tabsize"}, Required: 1,
	KwOnly: []string{"max_lines", "placeholder"}}

// defaults returns the default value of each option.
func defaults() map[string]obj {
	return map[string]obj{
		"width": python.MakeInt(70), "initial_indent": python.NewStr(""), "subsequent_indent": python.NewStr(""),
		"expand_tabs": python.True, "replace_whitespace": python.True, "fix_sentence_endings": python.False,
		"break_long_words": python.True, "drop_whitespace": python.True, "break_on_hyphens": python.True,
		"tabsize": python.MakeInt(8), "max_lines": python.None, "placeholder": python.NewStr(" [...]"),
	}
}

type module struct {
	wrapperType *python.Type
}

func load(in *python.Interp) (*python.Module, error) {
	md := &module{}
	md.wrapperType = md.newWrapperType()
	m := python.NewModule("textwrap")
	m.Set("TextWrapper", md.wrapperType)
	m.Func("wrap", md.wrap)
	m.Func("fill", md.fill)
	m.Func("shorten", md.shorten)
	m.Func("dedent", dedent)
	m.Func("indent", indent)
	all := []obj{}
	for _, n := range []string{"TextWrapper", "wrap", "fill", "dedent", "indent", "shorten"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}

func (md *module) newWrapperType() *python.Type {
	var c *python.Type
	c = python.NewBuiltinType("TextWrapper", "textwrap", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		self := python.NewInstance(cls, nil)
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := wrapperInit(t, self, args, kwargs); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, wrapperInit(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("wrap", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, _, _, err := (&python.Signature{Name: "TextWrapper.wrap", Pos: []string{"self", "text"}, Required: 2}).Bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		w, err := readWrapper(t, args[0])
		if err != nil {
			return nil, err
		}
		return wrapText(t, w, a[1])
	})
	c.AddMethod("fill", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, _, _, err := (&python.Signature{Name: "TextWrapper.fill", Pos: []string{"self", "text"}, Required: 2}).Bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		w, err := readWrapper(t, args[0])
		if err != nil {
			return nil, err
		}
		return fillText(t, w, a[1])
	})
	return c
}

// isInherited reports whether cls's attribute name is the one given (not
// overridden by a subclass).
func isInherited(cls *python.Type, name string, own obj) bool {
	v, ok := cls.Lookup(name)
	return ok && v == own
}

// wrapperInit is TextWrapper.__init__: it sets every option as an
// instance attribute.
func wrapperInit(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	a, _, _, err := initSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return err
	}
	def := defaults()
	for i, name := range append(initSig.Pos[1:], initSig.KwOnly...) {
		v := a[i+1]
		if v == nil {
			v = def[name]
		}
		if err := python.SetAttr(t, self, name, v); err != nil {
			return err
		}
	}
	return nil
}

// readWrapper reads a TextWrapper's attributes into the kernel's options.
func readWrapper(t *python.Thread, self obj) (*Wrapper, error) {
	w := NewWrapper()
	get := func(name string) (obj, error) { return python.GetAttr(t, self, name) }
	var err error
	if w.Width, err = intOption(t, self, "width"); err != nil {
		return nil, err
	}
	if w.TabSize, err = intOption(t, self, "tabsize"); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{{"initial_indent", &w.InitialIndent}, {"subsequent_indent", &w.SubsequentIndent}, {"placeholder", &w.Placeholder}} {
		v, err := get(s.name)
		if err != nil {
			return nil, err
		}
		str, ok, err := goStr(t, v)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.NotSupported("a TextWrapper "+s.name+" that is not a str ("+python.TypeName(v)+")", "use a str")
		}
		*s.dst = str
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"expand_tabs", &w.ExpandTabs}, {"replace_whitespace", &w.ReplaceWhitespace},
		{"fix_sentence_endings", &w.FixSentenceEndings}, {"break_long_words", &w.BreakLongWords},
		{"drop_whitespace", &w.DropWhitespace}, {"break_on_hyphens", &w.BreakOnHyphens}} {
		v, err := get(b.name)
		if err != nil {
			return nil, err
		}
		if *b.dst, err = python.TruthE(t, v); err != nil {
			return nil, err
		}
		if b.name == "break_on_hyphens" && *b.dst && v != python.True {
			// CPython picks its splitting pattern by `is True`.
			w.SimpleSplit = true
		}
	}
	ml, err := get("max_lines")
	if err != nil {
		return nil, err
	}
	if ml != python.None {
		n, err := intOption(t, self, "max_lines")
		if err != nil {
			return nil, err
		}
		w.MaxLines, w.HasMaxLines = n, true
	}
	return &w, nil
}

// intOption reads an int attribute of a TextWrapper.
func intOption(t *python.Thread, self obj, name string) (int, error) {
	v, err := python.GetAttr(t, self, name)
	if err != nil {
		return 0, err
	}
	if _, ok := v.(python.Float); ok {
		return 0, python.NotSupported("a float TextWrapper "+name, "use an int")
	}
	n, ok, err := python.IndexValue(t, v)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, python.NotSupported("a TextWrapper "+name+" of type "+python.TypeName(v), "use an int")
	}
	const limit = 1 << 40
	if n > limit || n < -limit {
		return 0, python.NotSupported("a TextWrapper "+name+" this large", "use a smaller value")
	}
	return int(n), nil
}

// textArg returns the text argument of wrap and fill, raising what CPython
// raises for a value that is not a str (its first method call on it).
func textArg(t *python.Thread, w *Wrapper, x obj) (string, error) {
	s, ok, err := goStr(t, x)
	if err != nil {
		return "", err
	}
	if !ok {
		method := "expandtabs"
		if !w.ExpandTabs {
			method = "translate"
			if !w.ReplaceWhitespace {
				return "", python.Errorf(python.TypeErrorType, "expected string or bytes-like object, got '%s'", python.TypeName(x))
			}
		}
		return "", python.Errorf(python.AttributeErrorType, "'%s' object has no attribute '%s'", python.TypeName(x), method)
	}
	return s, nil
}

func wrapText(t *python.Thread, w *Wrapper, text obj) (obj, error) {
	s, err := textArg(t, w, text)
	if err != nil {
		return nil, err
	}
	if err := t.CheckSize(int64(len(s)) * 4); err != nil {
		return nil, err
	}
	lines, err := w.Wrap(s)
	if err != nil {
		return nil, kernelErr(err)
	}
	out := make([]obj, len(lines))
	for i, l := range lines {
		out[i] = python.NewStr(l)
	}
	return python.NewList(out), nil
}

func fillText(t *python.Thread, w *Wrapper, text obj) (obj, error) {
	s, err := textArg(t, w, text)
	if err != nil {
		return nil, err
	}
	if err := t.CheckSize(int64(len(s)) * 4); err != nil {
		return nil, err
	}
	r, err := w.Fill(s)
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.NewStr(r), nil
}

// newWrapper is TextWrapper(width=width, **kwargs) for the module
// functions.
func (md *module) newWrapper(t *python.Thread, width obj, kwargs []python.Kwarg) (obj, error) {
	kw := append([]python.Kwarg{{Name: "width", Value: width}}, kwargs...)
	return python.Call(t, md.wrapperType, nil, kw)
}

// wrap is textwrap.wrap(text, width=70, **kwargs).
func (md *module) wrap(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	text, width, rest, err := textWidthArgs("wrap", args, kwargs, false)
	if err != nil {
		return nil, err
	}
	self, err := md.newWrapper(t, width, rest)
	if err != nil {
		return nil, err
	}
	w, err := readWrapper(t, self)
	if err != nil {
		return nil, err
	}
	return wrapText(t, w, text)
}

// fill is textwrap.fill(text, width=70, **kwargs).
func (md *module) fill(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	text, width, rest, err := textWidthArgs("fill", args, kwargs, false)
	if err != nil {
		return nil, err
	}
	self, err := md.newWrapper(t, width, rest)
	if err != nil {
		return nil, err
	}
	w, err := readWrapper(t, self)
	if err != nil {
		return nil, err
	}
	return fillText(t, w, text)
}

// shorten is textwrap.shorten(text, width, **kwargs).
func (md *module) shorten(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	text, width, rest, err := textWidthArgs("shorten", args, kwargs, true)
	if err != nil {
		return nil, err
	}
	for _, kw := range rest {
		if kw.Name == "max_lines" {
			return nil, python.Errorf(python.TypeErrorType, "textwrap.TextWrapper() got multiple values for keyword argument 'max_lines'")
		}
	}
	self, err := md.newWrapper(t, width, append(rest, python.Kwarg{Name: "max_lines", Value: python.MakeInt(1)}))
	if err != nil {
		return nil, err
	}
	w, err := readWrapper(t, self)
	if err != nil {
		return nil, err
	}
	s, ok, err := goStr(t, text)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute 'strip'", python.TypeName(text))
	}
	if err := t.CheckSize(int64(len(s)) * 4); err != nil {
		return nil, err
	}
	r, err := Shorten(s, *w)
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.NewStr(r), nil
}

// textWidthArgs binds (text, width=70, **kwargs) of a Python function:
// width is required when widthRequired.
func textWidthArgs(fn string, args []obj, kwargs []python.Kwarg, widthRequired bool) (text, width obj, rest []python.Kwarg, err error) {
	s := &python.Signature{Name: fn, Pos: []string{"text", "width"}, Required: 1, Varkw: true}
	if widthRequired {
		s.Required = 2
	}
	a, _, rest, err := s.Bind(args, kwargs)
	if err != nil {
		return nil, nil, nil, err
	}
	if a[1] == nil {
		a[1] = python.MakeInt(70)
	}
	return a[0], a[1], rest, nil
}

// dedent is textwrap.dedent(text).
func dedent(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "dedent", Pos: []string{"text"}, Required: 1}).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	s, ok, err := goStr(t, a[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "expected string or bytes-like object, got '%s'", python.TypeName(a[0]))
	}
	return python.NewStr(Dedent(s)), nil
}

// indent is textwrap.indent(text, prefix, predicate=None).
func indent(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "indent", Pos: []string{"text", "prefix", "predicate"}, Required: 2}).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	s, ok, err := goStr(t, a[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute 'splitlines'", python.TypeName(a[0]))
	}
	prefix, ok, err := goStr(t, a[1])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.NotSupported("textwrap.indent with a prefix of type "+python.TypeName(a[1]), "use a str")
	}
	var pred func(string) (bool, error)
	if p := a[2]; p != nil && p != python.None {
		n := 0
		pred = func(line string) (bool, error) {
			n++
			if n&1023 == 0 {
				if err := t.Tick(1); err != nil {
					return false, err
				}
			}
			r, err := python.Call(t, p, []obj{python.NewStr(line)}, nil)
			if err != nil {
				return false, err
			}
			return python.TruthE(t, r)
		}
	}
	if err := t.CheckSize(int64(len(s)) + int64(len(prefix))*int64(len(s)+1)); err != nil {
		return nil, err
	}
	r, err := Indent(s, prefix, pred)
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.NewStr(r), nil
}

// goStr returns the text of a str object (a str subclass instance gives
// its str value).
func goStr(t *python.Thread, x obj) (string, bool, error) {
	if !python.IsStr(x) {
		return "", false, nil
	}
	s, err := python.StrOf(t, python.Unwrap(x))
	return s, true, err
}

// kernelErr converts a kernel error into the Python exception it names.
func kernelErr(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Type {
	case "ValueError":
		return python.Errorf(python.ValueErrorType, "%s", e.Msg)
	case "LimitError":
		return python.NotSupported("this textwrap call ("+e.Msg+")", "wrap shorter texts or use a larger width")
	}
	return python.Errorf(python.ValueErrorType, "%s", e.Msg)
}
