package string

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Template is string.Template: instances are plain instances with a
// template attribute, so that subclasses work as in CPython; the class
// attributes delimiter, idpattern and braceidpattern are read from the
// instance's class. A subclass that changes idpattern, braceidpattern,
// flags or pattern (a regular expression) is refused.

func initTemplate() {
	c := python.NewBuiltinType("Template", "string", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := python.NewInstance(cls, nil)
		if v, _ := cls.Lookup("__init__"); v == templateInit() {
			if err := initTemplateInst(t, inst, args, kwargs); err != nil {
				return nil, err
			}
		}
		return inst, nil
	})
	templateType = c
	c.SetAttr("delimiter", python.NewStr("$"))
	c.SetAttr("idpattern", python.NewStr(idPattern))
	c.SetAttr("braceidpattern", python.None)
	c.AddMethod("__init__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.None, initTemplateInst(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("substitute", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return substitute(t, "substitute", args, kwargs, false)
	})
	c.AddMethod("safe_substitute", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return substitute(t, "safe_substitute", args, kwargs, true)
	})
	c.AddMethod("get_identifiers", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Template.get_identifiers", pos: []string{"self"}, required: 1}
		if _, err := sig.bind(args, kwargs); err != nil {
			return nil, err
		}
		sc, err := newScan(t, args[0])
		if err != nil {
			return nil, err
		}
		var ids []python.Object
		seen := map[string]bool{}
		for sc.next() {
			if sc.kind == phNamed || sc.kind == phBraced {
				if !seen[sc.name] {
					seen[sc.name] = true
					ids = append(ids, python.NewStr(sc.name))
				}
			}
		}
		return python.NewList(ids), nil
	})
	c.AddMethod("is_valid", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Template.is_valid", pos: []string{"self"}, required: 1}
		if _, err := sig.bind(args, kwargs); err != nil {
			return nil, err
		}
		sc, err := newScan(t, args[0])
		if err != nil {
			return nil, err
		}
		for sc.next() {
			if sc.kind == phInvalid {
				return python.False, nil
			}
		}
		return python.True, nil
	})
}

func templateInit() python.Object {
	v, _ := templateType.Dict().GetStr("__init__")
	return v
}

func initTemplateInst(t *python.Thread, self python.Object, args []python.Object, kwargs []python.Kwarg) error {
	sig := &signature{name: "Template.__init__", pos: []string{"self", "template"}, required: 2}
	vals, err := sig.bind(append([]python.Object{self}, args...), kwargs)
	if err != nil {
		return err
	}
	return python.SetAttr(t, self, "template", vals["template"])
}

type phKind int

const (
	phEscaped phKind = iota + 1
	phNamed
	phBraced
	phInvalid
)

// scan finds the placeholders of a template in order, as the default
// pattern of string.Template does.
type scan struct {
	s, delim string
	pos      int
	// the current placeholder: kind, name, [start, end) of the whole
	// match, and where the invalid group starts
	kind       phKind
	name       string
	start, end int
}

func newScan(t *python.Thread, self python.Object) (*scan, error) {
	tmpl, err := python.GetAttr(t, self, "template")
	if err != nil {
		return nil, err
	}
	s, ok, err := strOf(t, tmpl)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "expected string or bytes-like object, got '%s'", python.TypeName(tmpl))
	}
	d, err := python.GetAttr(t, self, "delimiter")
	if err != nil {
		return nil, err
	}
	delim, ok, err := strOf(t, d)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "first argument must be string or compiled pattern")
	}
	if delim == "" {
		return nil, python.NotSupported("a string.Template with an empty delimiter", "")
	}
	if err := checkPattern(t, self); err != nil {
		return nil, err
	}
	return &scan{s: s, delim: delim}, nil
}

// checkPattern refuses a subclass whose placeholder pattern is not the
// default one.
func checkPattern(t *python.Thread, self python.Object) error {
	idp, err := python.GetAttr(t, self, "idpattern")
	if err != nil {
		return err
	}
	bp, err := python.GetAttr(t, self, "braceidpattern")
	if err != nil {
		return err
	}
	custom := python.StrValue(idp) != idPattern || bp != python.None
	for _, c := range self.Type().MRO() {
		if c == templateType {
			break
		}
		if _, ok := c.Dict().GetStr("pattern"); ok {
			custom = true
		}
		if _, ok := c.Dict().GetStr("flags"); ok {
			custom = true
		}
	}
	if custom {
		return python.NotSupported("a string.Template subclass with its own pattern, idpattern, braceidpattern or flags", "a subclass may change the delimiter only")
	}
	return nil
}

func isIDStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIDChar(c byte) bool { return isIDStart(c) || c >= '0' && c <= '9' }

// ident returns the length of the identifier at s[i:] (0 if none).
func ident(s string, i int) int {
	if i >= len(s) || !isIDStart(s[i]) {
		return 0
	}
	j := i + 1
	for j < len(s) && isIDChar(s[j]) {
		j++
	}
	return j - i
}

// next finds the next placeholder at or after pos.
func (sc *scan) next() bool {
	k := strings.Index(sc.s[sc.pos:], sc.delim)
	if k < 0 {
		return false
	}
	i := sc.pos + k
	j := i + len(sc.delim)
	sc.start = i
	switch {
	case strings.HasPrefix(sc.s[j:], sc.delim):
		sc.kind, sc.end = phEscaped, j+len(sc.delim)
	case ident(sc.s, j) > 0:
		n := ident(sc.s, j)
		sc.kind, sc.name, sc.end = phNamed, sc.s[j:j+n], j+n
	case j < len(sc.s) && sc.s[j] == '{' && ident(sc.s, j+1) > 0 && j+1+ident(sc.s, j+1) < len(sc.s) && sc.s[j+1+ident(sc.s, j+1)] == '}':
		n := ident(sc.s, j+1)
		sc.kind, sc.name, sc.end = phBraced, sc.s[j+1:j+1+n], j+n+2
	default:
		sc.kind, sc.end = phInvalid, j
	}
	sc.pos = sc.end
	return true
}

// substitute is Template.substitute and safe_substitute(self, mapping={},
// /, **kws).
func substitute(t *python.Thread, name string, args []python.Object, kwargs []python.Kwarg, safe bool) (python.Object, error) {
	if len(args) > 2 {
		return nil, tooMany("Template."+name, 2, 1, len(args))
	}
	if len(args) == 0 {
		return nil, missingArgs("Template."+name, []string{"'self'"})
	}
	self := args[0]
	var mapping python.Object
	if len(args) == 2 {
		mapping = args[1]
	}
	kws := python.NewDict(len(kwargs))
	for _, kw := range kwargs {
		kws.SetStr(kw.Name, kw.Value)
	}
	lookup := func(key string) (python.Object, error) {
		k := python.NewStr(key)
		if mapping == nil {
			return python.GetItem(t, kws, k)
		}
		if len(kwargs) > 0 {
			if v, ok := kws.GetStr(key); ok {
				return v, nil
			}
		}
		return python.GetItem(t, mapping, k)
	}
	sc, err := newScan(t, self)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	last := 0
	for n := 0; sc.next(); n++ {
		if n&1023 == 1023 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
		b.WriteString(sc.s[last:sc.start])
		last = sc.end
		switch sc.kind {
		case phEscaped:
			b.WriteString(sc.delim)
		case phNamed, phBraced:
			v, err := lookup(sc.name)
			if err != nil {
				if safe && python.IsInstance(err, python.KeyErrorType) {
					b.WriteString(sc.s[sc.start:sc.end])
					continue
				}
				return nil, err
			}
			s, err := python.StrOf(t, v)
			if err != nil {
				return nil, err
			}
			b.WriteString(s)
		case phInvalid:
			if safe {
				b.WriteString(sc.s[sc.start:sc.end])
				continue
			}
			return nil, invalidPlaceholder(t, sc.s, sc.end)
		}
		if err := t.CheckSize(int64(b.Len())); err != nil {
			return nil, err
		}
	}
	if last < len(sc.s) {
		b.WriteString(sc.s[last:])
	}
	return python.NewStr(b.String()), nil
}

// invalidPlaceholder is the ValueError for an invalid placeholder whose
// group starts at byte offset at: its line and column as CPython counts
// them (lines split as str.splitlines splits them).
func invalidPlaceholder(t *python.Thread, s string, at int) error {
	prefix := python.NewStr(s[:at])
	i := prefix.Len()
	lines, err := python.CallMethod(t, prefix, "splitlines", []python.Object{python.True}, nil)
	if err != nil {
		return err
	}
	items, err := python.ToSlice(t, lines)
	if err != nil {
		return err
	}
	lineno, colno := 1, 1
	if len(items) > 0 {
		before := 0
		for _, l := range items[:len(items)-1] {
			before += l.(*python.Str).Len()
		}
		colno = i - before
		lineno = len(items)
	}
	return python.Errorf(python.ValueErrorType, "Invalid placeholder in string: line %d, col %d", lineno, colno)
}
