// Package warnings is code mode's warnings module: warn with CPython 3.12's
// filters (the module attribute filters, default, error, ignore, always,
// module and once actions, the once-per-location registry in the caller's
// __warningregistry__), simplefilter, filterwarnings, resetwarnings,
// catch_warnings (record=True included), formatwarning and showwarning
// (which a program may replace), writing CPython's format to sys.stderr.
//
// The location shown is the caller's line; its file is the frame's file
// when the interpreter exposes its frames (a Stack method on the thread),
// else "<cell>", the file name code mode's cells have in CPython's
// recordings. Only stacklevel=1 is exact without frames: a higher level
// shows the caller's own line.
package warnings

import (
	"regexp"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes warnings importable.
func Register() {
	python.Setup()
	python.RegisterModule("warnings", load)
}

var (
	typesOnce   sync.Once
	catchType   *python.Type
	warnMsgType *python.Type
	origShow    *python.Builtin
	origFormat  *python.Builtin
)

// state is one interpreter's warnings module.
type state struct {
	m       *python.Module
	version int64
}

func load(in *python.Interp) (*python.Module, error) {
	typesOnce.Do(initTypes)
	m := python.NewModule("warnings")
	st := &state{m: m}
	filt := func(action string, cat *python.Type, module python.Object) python.Object {
		if cat == nil {
			cat = python.DeprecationWarningType
		}
		return python.NewTuple([]python.Object{python.NewStr(action), python.None, cat, module, python.MakeInt(0)})
	}
	var filters []python.Object
	filters = append(filters, filt("default", python.DeprecationWarningType, python.NewStr("__main__")), filt("ignore", python.DeprecationWarningType, python.None))
	for _, n := range []string{"PendingDeprecationWarning", "ImportWarning", "ResourceWarning"} {
		if c := python.ExceptionClass(n); c != nil {
			filters = append(filters, filt("ignore", c, python.None))
		}
	}
	m.Set("filters", python.NewList(filters))
	m.Set("defaultaction", python.NewStr("default"))
	m.Set("onceregistry", python.NewDict(4))
	m.Set("showwarning", origShow)
	m.Set("formatwarning", origFormat)
	m.Set("catch_warnings", catchType)
	m.Set("WarningMessage", warnMsgType)
	m.Func("warn", st.warn)
	m.Func("warn_explicit", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.NotSupported("warnings.warn_explicit", "use warnings.warn")
	})
	m.Func("simplefilter", st.simplefilter)
	m.Func("filterwarnings", st.filterwarnings)
	m.Func("resetwarnings", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "resetwarnings() takes 0 positional arguments but %d were given", len(args))
		}
		l, err := st.filterList(t)
		if err != nil {
			return nil, err
		}
		if _, err := python.CallMethod(t, l, "clear", nil, nil); err != nil {
			return nil, err
		}
		st.version++
		return python.None, nil
	})
	m.Set("_state", stateObj{st})
	return m, nil
}

// stateObj carries the module's Go state for catch_warnings.
type stateObj struct{ st *state }

func (stateObj) Type() *python.Type { return python.ObjectType }

func stateOf(t *python.Thread, m python.Object) (*state, error) {
	v, err := python.GetAttr(t, m, "_state")
	if err != nil {
		return nil, err
	}
	s, ok := v.(stateObj)
	if !ok {
		return nil, python.Errorf(python.RuntimeErrorType, "warnings state lost")
	}
	return s.st, nil
}

func (st *state) filterList(t *python.Thread) (python.Object, error) {
	return python.GetAttr(t, st.m, "filters")
}

// pyArgs binds the arguments of a function CPython defines in Python.
func pyArgs(name string, params []string, required int, kwOnly []string, args []python.Object, kwargs []python.Kwarg) (map[string]python.Object, error) {
	if len(args) > len(params) {
		takes := itoa(len(params))
		if required < len(params) {
			takes = "from " + itoa(required) + " to " + itoa(len(params))
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional arguments but %d were given", name, takes, len(args))
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

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// isAction reports whether s is one of the filter actions.
func isAction(s string) bool {
	switch s {
	case "error", "ignore", "always", "default", "module", "once":
		return true
	}
	return false
}

func checkAction(t *python.Thread, a python.Object) (string, error) {
	s, ok := a.(*python.Str)
	if !ok || !isAction(s.String()) {
		r, _ := python.Repr(t, a)
		return "", python.Errorf(python.AssertionErrorType, "invalid action: %s", r)
	}
	return s.String(), nil
}

func checkCategory(t *python.Thread, c python.Object, what string) (*python.Type, error) {
	ct, ok := c.(*python.Type)
	if !ok || !ct.IsSubtype(python.WarningType) {
		return nil, python.Errorf(python.AssertionErrorType, "%s must be a Warning subclass", what)
	}
	return ct, nil
}

// addFilter inserts or appends a filter, dropping an equal one first.
func (st *state) addFilter(t *python.Thread, item python.Object, appendIt bool) error {
	l, err := st.filterList(t)
	if err != nil {
		return err
	}
	if !appendIt {
		if _, err := python.CallMethod(t, l, "remove", []python.Object{item}, nil); err != nil && !python.IsInstance(err, python.ValueErrorType) {
			return err
		}
		if _, err := python.CallMethod(t, l, "insert", []python.Object{python.MakeInt(0), item}, nil); err != nil {
			return err
		}
	} else {
		in, err := python.Contains(t, l, item)
		if err != nil {
			return err
		}
		if !in {
			if _, err := python.CallMethod(t, l, "append", []python.Object{item}, nil); err != nil {
				return err
			}
		}
	}
	st.version++
	return nil
}

// simplefilter is simplefilter(action, category=Warning, lineno=0,
// append=False).
func (st *state) simplefilter(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("simplefilter", []string{"action", "category", "lineno", "append"}, 1, nil, args, kwargs)
	if err != nil {
		return nil, err
	}
	action, err := checkAction(t, v["action"])
	if err != nil {
		return nil, err
	}
	var cat python.Object = python.WarningType
	if v["category"] != nil {
		cat = v["category"]
	}
	var lineno python.Object = python.MakeInt(0)
	if v["lineno"] != nil {
		lineno = v["lineno"]
		if n, ok := python.AsInt64(lineno); !ok || n < 0 {
			return nil, python.Errorf(python.AssertionErrorType, "lineno must be an int >= 0")
		}
	}
	app := false
	if v["append"] != nil {
		if app, err = python.TruthE(t, v["append"]); err != nil {
			return nil, err
		}
	}
	item := python.NewTuple([]python.Object{python.NewStr(action), python.None, cat, python.None, lineno})
	return python.None, st.addFilter(t, item, app)
}

// compile converts a Python regular expression to Go's, anchored at the
// start (re.match); ok false when RE2 cannot take it.
func compile(pattern string, ignoreCase bool) (*regexp.Regexp, bool) {
	p := "^(?:" + pattern + ")"
	if ignoreCase {
		p = "(?i)" + p
	}
	re, err := regexp.Compile(p)
	return re, err == nil
}

// filterwarnings is filterwarnings(action, message="", category=Warning,
// module="", lineno=0, append=False).
func (st *state) filterwarnings(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("filterwarnings", []string{"action", "message", "category", "module", "lineno", "append"}, 1, nil, args, kwargs)
	if err != nil {
		return nil, err
	}
	action, err := checkAction(t, v["action"])
	if err != nil {
		return nil, err
	}
	msg, mod := "", ""
	if x := v["message"]; x != nil {
		s, ok := x.(*python.Str)
		if !ok {
			return nil, python.Errorf(python.AssertionErrorType, "message must be a string")
		}
		msg = s.String()
	}
	var cat python.Object = python.WarningType
	if v["category"] != nil {
		if _, err := checkCategory(t, v["category"], "category"); err != nil {
			return nil, err
		}
		cat = v["category"]
	}
	if x := v["module"]; x != nil {
		s, ok := x.(*python.Str)
		if !ok {
			return nil, python.Errorf(python.AssertionErrorType, "module must be a string")
		}
		mod = s.String()
	}
	var lineno python.Object = python.MakeInt(0)
	if v["lineno"] != nil {
		lineno = v["lineno"]
		if n, ok := python.AsInt64(lineno); !ok || n < 0 {
			return nil, python.Errorf(python.AssertionErrorType, "lineno must be an int >= 0")
		}
	}
	app := false
	if v["append"] != nil {
		if app, err = python.TruthE(t, v["append"]); err != nil {
			return nil, err
		}
	}
	var msgObj, modObj python.Object = python.None, python.None
	if msg != "" {
		if msgObj, err = compilePattern(t, msg, true); err != nil {
			return nil, err
		}
	}
	if mod != "" {
		if modObj, err = compilePattern(t, mod, false); err != nil {
			return nil, err
		}
	}
	item := python.NewTuple([]python.Object{python.NewStr(action), msgObj, cat, modObj, lineno})
	return python.None, st.addFilter(t, item, app)
}

// compilePattern is re.compile(pattern[, re.I]) when the re module is
// there, else the pattern itself (matched with Go's regexp, which must
// accept it).
func compilePattern(t *python.Thread, pattern string, ignoreCase bool) (python.Object, error) {
	if re, err := t.Interp().Import(t, "re"); err == nil {
		args := []python.Object{python.NewStr(pattern)}
		if ignoreCase {
			flag, err := python.GetAttr(t, re, "IGNORECASE")
			if err != nil {
				return nil, err
			}
			args = append(args, flag)
		}
		return python.CallMethod(t, re, "compile", args, nil)
	}
	if _, ok := compile(pattern, ignoreCase); !ok {
		return nil, python.NotSupported("this pattern in warnings.filterwarnings", "use a simpler regular expression")
	}
	return python.NewStr(pattern), nil
}

// matches reports pattern.match(s) for a compiled pattern or a pattern
// string.
func matches(t *python.Thread, pattern python.Object, s string, ignoreCase bool) (bool, error) {
	if ps, ok := pattern.(*python.Str); ok {
		re, ok := compile(ps.String(), ignoreCase)
		return ok && re.MatchString(s), nil
	}
	r, err := python.CallMethod(t, pattern, "match", []python.Object{python.NewStr(s)}, nil)
	if err != nil {
		return false, err
	}
	return python.TruthE(t, r)
}

// location is where a warning points.
type location struct {
	file   string
	line   int
	module string
}

// caller finds the frame at stacklevel.
func caller(t *python.Thread, level int) location {
	loc := location{file: "<cell>", module: "__main__"}
	if g := t.Globals(); g != nil {
		if v, ok := g.GetStr("__name__"); ok {
			loc.module = python.StrValue(v)
		}
	}
	if s, ok := any(t).(interface{ Stack() []python.TraceEntry }); ok {
		st := s.Stack()
		// innermost last
		if level < 1 {
			level = 1
		}
		if i := len(st) - level; i >= 0 {
			loc.file, loc.line = st[i].File, st[i].Line
			return loc
		}
		loc.file, loc.line, loc.module = "sys", 1, "sys"
		return loc
	}
	_, loc.line = t.FrameCode()
	return loc
}

// warn is warn(message, category=None, stacklevel=1, source=None, *,
// skip_file_prefixes=()).
func (st *state) warn(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("warn", []string{"message", "category", "stacklevel", "source"}, 1, []string{"skip_file_prefixes"}, args, kwargs)
	if err != nil {
		return nil, err
	}
	message := v["message"]
	var cat *python.Type
	if e, ok := message.(*python.Exception); ok && e.Class().IsSubtype(python.WarningType) {
		cat = e.Class()
	} else {
		c := v["category"]
		if c == nil || c == python.None {
			cat = python.UserWarningType
		} else if ct, ok := c.(*python.Type); ok && ct.IsSubtype(python.WarningType) {
			cat = ct
		} else {
			return nil, python.Errorf(python.TypeErrorType, "category must be a Warning subclass, not '%s'", python.TypeName(c))
		}
	}
	level := 1
	if v["stacklevel"] != nil {
		n, err := python.ArgInt(t, "warn", v["stacklevel"])
		if err != nil {
			return nil, err
		}
		level = int(n)
	}
	loc := caller(t, level)
	return python.None, st.emit(t, message, cat, loc)
}

// emit applies the filters to a warning and shows, raises or records it.
func (st *state) emit(t *python.Thread, message python.Object, cat *python.Type, loc location) error {
	var text string
	msgObj := message
	if e, ok := message.(*python.Exception); ok && e.Class().IsSubtype(python.WarningType) {
		s, err := python.StrOf(t, e)
		if err != nil {
			return err
		}
		text = s
	} else {
		s, err := python.StrOf(t, message)
		if err != nil {
			return err
		}
		text = s
		r, err := python.Call(t, cat, []python.Object{message}, nil)
		if err != nil {
			return err
		}
		msgObj = r
	}
	// The registry of the caller's module.
	g := t.Globals()
	reg, _ := g.GetStr("__warningregistry__")
	regd, ok := reg.(*python.Dict)
	if !ok {
		regd = python.NewDict(4)
		g.SetStr("__warningregistry__", regd)
	}
	if v, ok := regd.GetStr("version"); !ok || !python.Identical(v, python.MakeInt(st.version)) {
		if n, _ := python.AsInt64(v); !ok || n != st.version {
			regd.Clear()
			regd.SetStr("version", python.MakeInt(st.version))
		}
	}
	key := python.NewTuple([]python.Object{python.NewStr(text), cat, python.MakeInt(int64(loc.line))})
	if seen, ok, err := regd.Get(t, key); err != nil {
		return err
	} else if ok && seen == python.True {
		return nil
	}
	action, err := st.action(t, text, cat, loc)
	if err != nil {
		return err
	}
	switch action {
	case "error":
		if e, ok := msgObj.(*python.Exception); ok {
			return e
		}
		return python.Errorf(python.TypeErrorType, "exceptions must derive from BaseException")
	case "ignore":
		return nil
	case "once":
		if err := regd.Set(t, key, python.True); err != nil {
			return err
		}
		once, err := python.GetAttr(t, st.m, "onceregistry")
		if err != nil {
			return err
		}
		okey := python.NewTuple([]python.Object{python.NewStr(text), cat})
		if seen, err := python.Contains(t, once, okey); err != nil || seen {
			return err
		}
		if err := python.SetItem(t, once, okey, python.True); err != nil {
			return err
		}
	case "always":
	case "module":
		if err := regd.Set(t, key, python.True); err != nil {
			return err
		}
		akey := python.NewTuple([]python.Object{python.NewStr(text), cat, python.MakeInt(0)})
		if seen, ok, err := regd.Get(t, akey); err != nil || ok && seen == python.True {
			return err
		}
		if err := regd.Set(t, akey, python.True); err != nil {
			return err
		}
	case "default":
		if err := regd.Set(t, key, python.True); err != nil {
			return err
		}
	default:
		return python.Errorf(python.RuntimeErrorType, "Unrecognized action (%s) in warnings.filters:\n %s", python.StrRepr(action), python.StrRepr(action))
	}
	show, err := python.GetAttr(t, st.m, "showwarning")
	if err != nil {
		return err
	}
	_, err = python.Call(t, show, []python.Object{msgObj, cat, python.NewStr(loc.file), python.MakeInt(int64(loc.line))}, nil)
	return err
}

// action returns the action of the first filter matching the warning, or
// defaultaction.
func (st *state) action(t *python.Thread, text string, cat *python.Type, loc location) (string, error) {
	l, err := st.filterList(t)
	if err != nil {
		return "", err
	}
	items, err := python.ToSlice(t, l)
	if err != nil {
		return "", err
	}
	for _, it := range items {
		f, ok := it.(*python.Tuple)
		if !ok || len(f.Items()) != 5 {
			continue
		}
		p := f.Items()
		c, ok := p[2].(*python.Type)
		if !ok || !cat.IsSubtype(c) {
			continue
		}
		if p[1] != python.None {
			ok, err := matches(t, p[1], text, true)
			if err != nil {
				return "", err
			}
			if !ok {
				continue
			}
		}
		if p[3] != python.None {
			ok, err := matches(t, p[3], loc.module, false)
			if err != nil {
				return "", err
			}
			if !ok {
				continue
			}
		}
		if n, _ := python.AsInt64(p[4]); n != 0 && n != int64(loc.line) {
			continue
		}
		return python.StrValue(p[0]), nil
	}
	d, err := python.GetAttr(t, st.m, "defaultaction")
	if err != nil {
		return "", err
	}
	return python.StrValue(d), nil
}

// formatText is formatwarning's text.
func formatText(t *python.Thread, message, category, filename, lineno, line python.Object) (string, error) {
	name := python.TypeName(category)
	if c, ok := category.(*python.Type); ok {
		name = c.Name()
	}
	msg, err := python.StrOf(t, message)
	if err != nil {
		return "", err
	}
	fn, err := python.StrOf(t, filename)
	if err != nil {
		return "", err
	}
	ln, err := python.StrOf(t, lineno)
	if err != nil {
		return "", err
	}
	s := fn + ":" + ln + ": " + name + ": " + msg + "\n"
	if line != nil && line != python.None {
		l, err := python.StrOf(t, line)
		if err != nil {
			return "", err
		}
		if l = strings.TrimSpace(l); l != "" {
			s += "  " + l + "\n"
		}
	}
	return s, nil
}

// stderrWrite writes to sys.stderr.
func stderrWrite(t *python.Thread, s string) error {
	m, err := t.Interp().Import(t, "sys")
	if err != nil {
		t.PrintErr(s)
		return nil
	}
	f, err := python.GetAttr(t, m, "stderr")
	if err != nil {
		return err
	}
	if f == python.None {
		return nil
	}
	_, err = python.CallMethod(t, f, "write", []python.Object{python.NewStr(s)}, nil)
	return err
}

func initTypes() {
	origFormat = python.NewBuiltin("formatwarning", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("formatwarning", []string{"message", "category", "filename", "lineno", "line"}, 4, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		s, err := formatText(t, v["message"], v["category"], v["filename"], v["lineno"], v["line"])
		return python.NewStr(s), err
	})
	origShow = python.NewBuiltin("showwarning", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("showwarning", []string{"message", "category", "filename", "lineno", "file", "line"}, 4, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		m, err := t.Interp().Import(t, "warnings")
		if err != nil {
			return nil, err
		}
		format, err := python.GetAttr(t, m, "formatwarning")
		if err != nil {
			return nil, err
		}
		var line python.Object = python.None
		if v["line"] != nil {
			line = v["line"]
		}
		s, err := python.Call(t, format, []python.Object{v["message"], v["category"], v["filename"], v["lineno"], line}, nil)
		if err != nil {
			return nil, err
		}
		text, err := python.StrOf(t, s)
		if err != nil {
			return nil, err
		}
		if f := v["file"]; f != nil && f != python.None {
			_, err := python.CallMethod(t, f, "write", []python.Object{python.NewStr(text)}, nil)
			return python.None, err
		}
		return python.None, stderrWrite(t, text)
	})
	initCatch()
}

// catcher is catch_warnings(*, record=False, module=None, action=None,
// category=Warning, lineno=0, append=False).
type catcher struct {
	record       bool
	module       python.Object
	action       python.Object
	category     python.Object
	lineno       python.Object
	appendIt     python.Object
	entered      bool
	savedFilters python.Object
	savedShow    python.Object
}

// Type returns warnings.catch_warnings.
func (c *catcher) Type() *python.Type { return catchType }

// PyRepr renders catch_warnings(record=True).
func (c *catcher) PyRepr(t *python.Thread) (string, error) {
	if c.record {
		return "catch_warnings(record=True)", nil
	}
	return "catch_warnings()", nil
}

func (c *catcher) mod(t *python.Thread) (python.Object, *state, error) {
	m := c.module
	if m == nil || m == python.None {
		var err error
		if m, err = t.Interp().Import(t, "warnings"); err != nil {
			return nil, nil, err
		}
	}
	st, err := stateOf(t, m)
	return m, st, err
}

// Enter saves the filters and showwarning, applies the action and starts
// recording.
func (c *catcher) Enter(t *python.Thread) (python.Object, error) {
	if c.entered {
		r, _ := c.PyRepr(t)
		return nil, python.Errorf(python.RuntimeErrorType, "Cannot enter %s twice", r)
	}
	c.entered = true
	m, st, err := c.mod(t)
	if err != nil {
		return nil, err
	}
	if c.savedFilters, err = python.GetAttr(t, m, "filters"); err != nil {
		return nil, err
	}
	cp, err := python.ToSlice(t, c.savedFilters)
	if err != nil {
		return nil, err
	}
	if err := python.SetAttr(t, m, "filters", python.NewList(append([]python.Object(nil), cp...))); err != nil {
		return nil, err
	}
	if c.savedShow, err = python.GetAttr(t, m, "showwarning"); err != nil {
		return nil, err
	}
	st.version++
	if c.action != nil && c.action != python.None {
		kw := []python.Kwarg{}
		if c.category != nil {
			kw = append(kw, python.Kwarg{Name: "category", Value: c.category})
		}
		if c.lineno != nil {
			kw = append(kw, python.Kwarg{Name: "lineno", Value: c.lineno})
		}
		if c.appendIt != nil {
			kw = append(kw, python.Kwarg{Name: "append", Value: c.appendIt})
		}
		if _, err := st.simplefilter(t, []python.Object{c.action}, kw); err != nil {
			return nil, err
		}
	}
	if !c.record {
		return python.None, nil
	}
	log := python.NewList(nil)
	rec := python.NewBuiltin("_record", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("showwarning", []string{"message", "category", "filename", "lineno", "file", "line"}, 4, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		w := &warningMessage{}
		for i, n := range warnFields {
			if x := v[n]; x != nil {
				w.vals[i] = x
			} else {
				w.vals[i] = python.None
			}
		}
		log.Append(w)
		return python.None, nil
	})
	if err := python.SetAttr(t, m, "showwarning", rec); err != nil {
		return nil, err
	}
	return log, nil
}

// Exit restores the filters and showwarning.
func (c *catcher) Exit(t *python.Thread, exc *python.Exception) (bool, error) {
	if !c.entered {
		r, _ := c.PyRepr(t)
		return false, python.Errorf(python.RuntimeErrorType, "Cannot exit %s without entering first", r)
	}
	m, st, err := c.mod(t)
	if err != nil {
		return false, err
	}
	if err := python.SetAttr(t, m, "filters", c.savedFilters); err != nil {
		return false, err
	}
	if err := python.SetAttr(t, m, "showwarning", c.savedShow); err != nil {
		return false, err
	}
	st.version++
	return false, nil
}

var warnFields = []string{"message", "category", "filename", "lineno", "file", "line", "source"}

// warningMessage is warnings.WarningMessage.
type warningMessage struct {
	vals [7]python.Object
}

// Type returns warnings.WarningMessage.
func (w *warningMessage) Type() *python.Type { return warnMsgType }

// PyGetAttr gives the fields.
func (w *warningMessage) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	for i, n := range warnFields {
		if n == name {
			return w.vals[i], nil
		}
	}
	if name == "_category_name" {
		if c, ok := w.vals[1].(*python.Type); ok {
			return python.NewStr(c.Name()), nil
		}
		return python.None, nil
	}
	return nil, nil
}

// PyStr renders {message : ..., category : ..., ...}.
func (w *warningMessage) PyStr(t *python.Thread) (string, error) {
	msg, err := python.Repr(t, w.vals[0])
	if err != nil {
		return "", err
	}
	cat := "None"
	if c, ok := w.vals[1].(*python.Type); ok {
		cat = python.StrRepr(c.Name())
	}
	fn, err := python.Repr(t, w.vals[2])
	if err != nil {
		return "", err
	}
	ln, err := python.Repr(t, w.vals[3])
	if err != nil {
		return "", err
	}
	line, err := python.Repr(t, w.vals[5])
	if err != nil {
		return "", err
	}
	return "{message : " + msg + ", category : " + cat + ", filename : " + fn + ", lineno : " + ln + ", line : " + line + "}", nil
}

func initCatch() {
	catchType = python.NewBuiltinType("catch_warnings", "warnings", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "catch_warnings.__init__() takes 1 positional argument but %d were given", len(args)+1)
		}
		c := &catcher{}
		for _, kw := range kwargs {
			switch kw.Name {
			case "record":
				b, err := python.TruthE(t, kw.Value)
				if err != nil {
					return nil, err
				}
				c.record = b
			case "module":
				c.module = kw.Value
			case "action":
				c.action = kw.Value
			case "category":
				c.category = kw.Value
			case "lineno":
				c.lineno = kw.Value
			case "append":
				c.appendIt = kw.Value
			default:
				return nil, python.Errorf(python.TypeErrorType, "catch_warnings.__init__() got an unexpected keyword argument '%s'", kw.Name)
			}
		}
		return c, nil
	})
	catchType.AddMethod("__enter__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return args[0].(*catcher).Enter(t)
	})
	catchType.AddMethod("__exit__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		_, err := args[0].(*catcher).Exit(t, nil)
		return python.None, err
	})
	warnMsgType = python.NewBuiltinType("WarningMessage", "warnings", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := pyArgs("WarningMessage.__init__", warnFields, 4, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		w := &warningMessage{}
		for i, n := range warnFields {
			if x := v[n]; x != nil {
				w.vals[i] = x
			} else {
				w.vals[i] = python.None
			}
		}
		return w, nil
	})
}
