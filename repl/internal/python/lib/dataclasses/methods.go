package dataclasses

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// generated holds what the methods a dataclass gets are made from.
type generated struct {
	st  *state
	p   *params
	cls *python.Type
	// initFields are the fields and InitVars in definition order (what
	// __init__ assigns); stdFields and kwFields its positional-or-keyword
	// and keyword-only parameters; fields the real fields.
	initFields, stdFields, kwFields, fields []*Field
}

// setNew is _set_new_attribute: it sets name unless the class defines it,
// and reports whether it did define it.
func (g *generated) setNew(name string, v obj) bool {
	if _, ok := g.cls.Dict().GetStr(name); ok {
		return true
	}
	g.cls.SetAttr(name, v)
	return false
}

func (g *generated) method(name string, fn python.BuiltinFunc) *python.Builtin {
	return python.NewMethod(g.cls, name, fn)
}

// install adds the methods to g.cls.
func (g *generated) install(t *python.Thread, explicitHash bool) error {
	p, cls := g.p, g.cls
	if p.init {
		_, hasPost := cls.Lookup("__post_init__")
		g.setNew("__init__", g.method("__init__", g.initFn(hasPost)))
	}
	if p.repr {
		var flds []*Field
		for _, f := range g.fields {
			ok, err := truth(t, f.repr)
			if err != nil {
				return err
			}
			if ok {
				flds = append(flds, f)
			}
		}
		g.setNew("__repr__", g.method("__repr__", g.reprFn(flds)))
	}
	var cmpFields []*Field
	for _, f := range g.fields {
		ok, err := truth(t, f.compare)
		if err != nil {
			return err
		}
		if ok {
			cmpFields = append(cmpFields, f)
		}
	}
	if p.eq {
		g.setNew("__eq__", g.method("__eq__", g.cmpFn("__eq__", python.CmpEq, cmpFields)))
	}
	if p.order {
		for _, o := range []struct {
			name string
			op   python.CmpOp
		}{{"__lt__", python.CmpLt}, {"__le__", python.CmpLe}, {"__gt__", python.CmpGt}, {"__ge__", python.CmpGe}} {
			if g.setNew(o.name, g.method(o.name, g.cmpFn(o.name, o.op, cmpFields))) {
				return python.Errorf(python.TypeErrorType, "Cannot overwrite attribute %s in class %s. Consider using functools.total_ordering", o.name, cls.Name())
			}
		}
	}
	if p.frozen {
		names := map[string]bool{}
		for _, f := range g.fields {
			names[python.StrValue(f.name)] = true
		}
		if g.setNew("__setattr__", g.method("__setattr__", g.frozenSetattr(names))) {
			return python.Errorf(python.TypeErrorType, "Cannot overwrite attribute __setattr__ in class %s", cls.Name())
		}
		if g.setNew("__delattr__", g.method("__delattr__", g.frozenDelattr(names))) {
			return python.Errorf(python.TypeErrorType, "Cannot overwrite attribute __delattr__ in class %s", cls.Name())
		}
	}
	switch {
	case p.unsafeHash && explicitHash:
		return python.Errorf(python.TypeErrorType, "Cannot overwrite attribute __hash__ in class %s", cls.Name())
	case p.unsafeHash, p.eq && p.frozen && !explicitHash:
		var flds []*Field
		for _, f := range g.fields {
			use := f.hash
			if use == python.None {
				use = f.compare
			}
			ok, err := truth(t, use)
			if err != nil {
				return err
			}
			if ok {
				flds = append(flds, f)
			}
		}
		cls.SetAttr("__hash__", g.method("__hash__", g.hashFn(flds)))
	case p.eq && !p.frozen && !explicitHash:
		cls.SetAttr("__hash__", python.None)
	}
	if doc, ok := cls.Dict().GetStr("__doc__"); !ok || !python.Truth(t, doc) {
		sig, err := g.signature(t)
		if err != nil {
			return err
		}
		cls.SetAttr("__doc__", python.NewStr(cls.Name()+sig))
	}
	if p.matchArgs {
		names := make([]obj, len(g.stdFields))
		for i, f := range g.stdFields {
			names[i] = f.name
		}
		g.setNew("__match_args__", python.NewTuple(names))
	}
	return nil
}

// argCountError is CPython's message for a call with too many positional
// arguments.
func (g *generated) tooMany(qual string, given, kwGiven int) error {
	npos := len(g.stdFields) + 1
	ndef := 0
	for _, f := range g.stdFields {
		if f.dflt != missing || f.factory != missing {
			ndef++
		}
	}
	var sig string
	plural := "s"
	if ndef > 0 {
		sig = "from " + itoa(npos-ndef) + " to " + itoa(npos)
	} else {
		sig = itoa(npos)
		if npos == 1 {
			plural = ""
		}
	}
	kwSig := ""
	if kwGiven > 0 {
		s := "s"
		if given == 1 {
			s = ""
		}
		k := "s"
		if kwGiven == 1 {
			k = ""
		}
		kwSig = " positional argument" + s + " (and " + itoa(kwGiven) + " keyword-only argument" + k + ")"
	}
	was := "were"
	if given == 1 && kwGiven == 0 {
		was = "was"
	}
	return python.Errorf(python.TypeErrorType, "%s() takes %s positional argument%s but %d%s %s given", qual, sig, plural, given, kwSig, was)
}

func itoa(n int) string {
	r, _ := python.Repr(nil, python.MakeInt(int64(n)))
	return r
}

func missingArgs(qual, kind string, names []string) error {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	var list string
	switch len(q) {
	case 1:
		list = q[0]
	case 2:
		list = q[0] + " and " + q[1]
	default:
		list = strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
	}
	word := "argument"
	if len(q) > 1 {
		word = "arguments"
	}
	return python.Errorf(python.TypeErrorType, "%s() missing %d required %s %s: %s", qual, len(q), kind, word, list)
}

// initFn is the generated __init__: it binds its arguments as a Python
// function with the fields as parameters would, assigns the fields and
// calls __post_init__ with the InitVars.
func (g *generated) initFn(hasPost bool) python.BuiltinFunc {
	qual := g.cls.Qualname() + ".__init__"
	params := append(append([]*Field(nil), g.stdFields...), g.kwFields...)
	index := map[string]int{}
	for i, f := range params {
		index[python.StrValue(f.name)] = i
	}
	nstd := len(g.stdFields)
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		self := args[0]
		pos := args[1:]
		vals := make([]obj, len(params))
		copy(vals, pos[:min(len(pos), nstd)])
		for _, kw := range kwargs {
			i, ok := index[kw.Name]
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", qual, kw.Name)
			}
			if vals[i] != nil {
				return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", qual, kw.Name)
			}
			vals[i] = kw.Value
		}
		if len(pos) > nstd {
			kwGiven := 0
			for i := nstd; i < len(params); i++ {
				if vals[i] != nil {
					kwGiven++
				}
			}
			return nil, g.tooMany(qual, len(args), kwGiven)
		}
		var miss []string
		for i, f := range params[:nstd] {
			if vals[i] == nil && f.dflt == missing && f.factory == missing {
				miss = append(miss, python.StrValue(f.name))
			}
		}
		if len(miss) > 0 {
			return nil, missingArgs(qual, "positional", miss)
		}
		for i, f := range params[nstd:] {
			if vals[nstd+i] == nil && f.dflt == missing && f.factory == missing {
				miss = append(miss, python.StrValue(f.name))
			}
		}
		if len(miss) > 0 {
			return nil, missingArgs(qual, "keyword-only", miss)
		}
		var initVars []obj
		for _, f := range g.initFields {
			name := python.StrValue(f.name)
			var v obj
			if i, ok := index[name]; ok {
				v = vals[i]
				if v == nil {
					if f.factory != missing {
						var err error
						if v, err = python.Call(t, f.factory, nil, nil); err != nil {
							return nil, err
						}
					} else {
						v = f.dflt
					}
				}
			} else if f.factory != missing {
				var err error
				if v, err = python.Call(t, f.factory, nil, nil); err != nil {
					return nil, err
				}
			} else if g.p.slots && f.dflt != missing {
				v = f.dflt
			}
			if f.kind == kindInitVar {
				if _, ok := index[name]; ok {
					initVars = append(initVars, v)
				}
				continue
			}
			if v == nil {
				continue
			}
			if err := g.assign(t, self, name, v); err != nil {
				return nil, err
			}
		}
		if hasPost {
			if _, err := python.CallMethod(t, self, "__post_init__", initVars, nil); err != nil {
				return nil, err
			}
		}
		return python.None, nil
	}
}

// assign sets self.name = v in __init__ (object.__setattr__ for a frozen
// class).
func (g *generated) assign(t *python.Thread, self obj, name string, v obj) error {
	if g.p.frozen {
		return objectSetattr(t, self, name, v)
	}
	return python.SetAttr(t, self, name, v)
}

// objectSetattr is object.__setattr__(self, name, v): it bypasses a
// class's __setattr__.
func objectSetattr(t *python.Thread, self obj, name string, v obj) error {
	if o, ok := self.(*python.Instance); ok {
		o.Attrs().SetStr(name, v)
		return nil
	}
	return python.SetAttr(t, self, name, v)
}

// reprFn is the generated __repr__.
func (g *generated) reprFn(flds []*Field) python.BuiltinFunc {
	st := g.st
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s.__repr__() takes 1 positional argument but %d were given", g.cls.Qualname(), len(args))
		}
		self := args[0]
		if st.reprRunning[self] {
			return python.NewStr("..."), nil
		}
		st.reprRunning[self] = true
		defer delete(st.reprRunning, self)
		var b strings.Builder
		b.WriteString(self.Type().Qualname())
		b.WriteByte('(')
		for i, f := range flds {
			if i > 0 {
				b.WriteString(", ")
			}
			name := python.StrValue(f.name)
			v, err := python.GetAttr(t, self, name)
			if err != nil {
				return nil, err
			}
			r, err := python.Repr(t, v)
			if err != nil {
				return nil, err
			}
			b.WriteString(name)
			b.WriteByte('=')
			b.WriteString(r)
			if err := t.CheckSize(int64(b.Len())); err != nil {
				return nil, err
			}
		}
		b.WriteByte(')')
		return python.NewStr(b.String()), nil
	}
}

// fieldTuple returns (x.f1, x.f2, ...).
func fieldTuple(t *python.Thread, x obj, flds []*Field) (obj, error) {
	items := make([]obj, len(flds))
	for i, f := range flds {
		v, err := python.GetAttr(t, x, python.StrValue(f.name))
		if err != nil {
			return nil, err
		}
		items[i] = v
	}
	return python.NewTuple(items), nil
}

// cmpFn is a generated comparison: the tuples of the compared fields of
// two instances of the same class, compared.
func (g *generated) cmpFn(name string, op python.CmpOp, flds []*Field) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s.%s() takes 2 positional arguments but %d were given", g.cls.Qualname(), name, len(args))
		}
		self, other := args[0], args[1]
		if other.Type() != self.Type() {
			return python.NotImplemented, nil
		}
		a, err := fieldTuple(t, self, flds)
		if err != nil {
			return nil, err
		}
		b, err := fieldTuple(t, other, flds)
		if err != nil {
			return nil, err
		}
		return python.Compare(t, op, a, b)
	}
}

// hashFn is the generated __hash__: hash of the tuple of fields.
func (g *generated) hashFn(flds []*Field) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s.__hash__() takes 1 positional argument but %d were given", g.cls.Qualname(), len(args))
		}
		tup, err := fieldTuple(t, args[0], flds)
		if err != nil {
			return nil, err
		}
		h, err := python.Hash(t, tup)
		if err != nil {
			return nil, err
		}
		return python.MakeInt(h), nil
	}
}

// nextAttrMethod returns the __setattr__ (or __delattr__) that
// super(cls, self) would find: a method of a class after cls in self's
// MRO, or nil for object's.
func nextAttrMethod(self obj, cls *python.Type, name string) obj {
	mro := self.Type().MRO()
	after := false
	for _, c := range mro {
		if after {
			if c.IsBuiltin() {
				return nil
			}
			if v, ok := c.Dict().GetStr(name); ok {
				return v
			}
		}
		if c == cls {
			after = true
		}
	}
	return nil
}

func (g *generated) frozenSetattr(names map[string]bool) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 3 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s.__setattr__() takes 3 positional arguments but %d were given", g.cls.Qualname(), len(args))
		}
		self, v := args[0], args[2]
		name, ok := args[1].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "attribute name must be string, not '%s'", python.TypeName(args[1]))
		}
		if self.Type() == g.cls || names[name.String()] {
			r, err := python.Repr(t, name)
			if err != nil {
				return nil, err
			}
			return nil, python.NewException(FrozenInstanceErrorType, python.NewStr("cannot assign to field "+r))
		}
		if m := nextAttrMethod(self, g.cls, "__setattr__"); m != nil {
			return python.Call(t, m, []obj{self, name, v}, nil)
		}
		return python.None, objectSetattr(t, self, name.String(), v)
	}
}

func (g *generated) frozenDelattr(names map[string]bool) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s.__delattr__() takes 2 positional arguments but %d were given", g.cls.Qualname(), len(args))
		}
		self := args[0]
		name, ok := args[1].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "attribute name must be string, not '%s'", python.TypeName(args[1]))
		}
		if self.Type() == g.cls || names[name.String()] {
			r, err := python.Repr(t, name)
			if err != nil {
				return nil, err
			}
			return nil, python.NewException(FrozenInstanceErrorType, python.NewStr("cannot delete field "+r))
		}
		if m := nextAttrMethod(self, g.cls, "__delattr__"); m != nil {
			return python.Call(t, m, []obj{self, name}, nil)
		}
		if o, ok := self.(*python.Instance); ok {
			if _, found, err := o.Attrs().Delete(t, name); err != nil || found {
				return python.None, err
			}
		}
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute '%s'", python.TypeName(self), name.String())
	}
}

// signature renders the class's signature as inspect.signature does, for
// the __doc__ of a class without a docstring.
func (g *generated) signature(t *python.Thread) (string, error) {
	if !g.p.init {
		return g.inheritedSignature(t)
	}
	var parts []string
	param := func(f *Field) error {
		ann, err := formatAnnotation(t, f.typ)
		if err != nil {
			return err
		}
		s := python.StrValue(f.name) + ": " + ann
		switch {
		case f.dflt != missing:
			r, err := python.Repr(t, f.dflt)
			if err != nil {
				return err
			}
			s += " = " + r
		case f.factory != missing:
			s += " = <factory>"
		}
		parts = append(parts, s)
		return nil
	}
	for _, f := range g.stdFields {
		if err := param(f); err != nil {
			return "", err
		}
	}
	if len(g.kwFields) > 0 {
		parts = append(parts, "*")
		for _, f := range g.kwFields {
			if err := param(f); err != nil {
				return "", err
			}
		}
	}
	return "(" + strings.Join(parts, ", ") + ")", nil
}

// inheritedSignature is the signature of the __init__ a dataclass with
// init=False inherits.
func (g *generated) inheritedSignature(t *python.Thread) (string, error) {
	v, ok := g.cls.Lookup("__init__")
	if !ok {
		return "()", nil
	}
	fn, ok := v.(*python.Function)
	if !ok {
		return "()", nil
	}
	code := fn.Code()
	anns := map[string]obj{}
	if a, err := python.GetAttr(t, fn, "__annotations__"); err == nil {
		if d, ok := a.(*python.Dict); ok {
			d.Items(func(k, v obj) bool { anns[python.StrValue(k)] = v; return true })
		}
	}
	var kwd *python.Dict
	if a, err := python.GetAttr(t, fn, "__kwdefaults__"); err == nil {
		kwd, _ = a.(*python.Dict)
	}
	one := func(prefix, name string, dflt obj) (string, error) {
		s := prefix + name
		if a, ok := anns[name]; ok {
			r, err := formatAnnotation(t, a)
			if err != nil {
				return "", err
			}
			s += ": " + r
			if dflt != nil {
				r, err := python.Repr(t, dflt)
				if err != nil {
					return "", err
				}
				s += " = " + r
			}
		} else if dflt != nil {
			r, err := python.Repr(t, dflt)
			if err != nil {
				return "", err
			}
			s += "=" + r
		}
		return s, nil
	}
	var parts []string
	defs := fn.Defaults()
	first := len(code.ArgNames) - len(defs)
	for i, n := range code.ArgNames {
		if i == 0 {
			continue
		}
		var d obj
		if i >= first {
			d = defs[i-first]
		}
		s, err := one("", n, d)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
		if i == code.PosOnly-1 {
			parts = append(parts, "/")
		}
	}
	if code.Vararg != "" {
		s, err := one("*", code.Vararg, nil)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	} else if len(code.KwOnly) > 0 {
		parts = append(parts, "*")
	}
	for _, n := range code.KwOnly {
		var d obj
		if kwd != nil {
			d, _ = kwd.GetStr(n)
		}
		s, err := one("", n, d)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	if code.Kwarg != "" {
		s, err := one("**", code.Kwarg, nil)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	r := "(" + strings.Join(parts, ", ") + ")"
	if a, ok := anns["return"]; ok && a != python.None {
		ra, err := formatAnnotation(t, a)
		if err != nil {
			return "", err
		}
		r += " -> " + ra
	}
	return r, nil
}
