package dataclasses

import (
	"strings"
	"unicode"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// fieldList is an insertion-ordered map of fields by name.
type fieldList struct {
	names []string
	m     map[string]*Field
}

func (l *fieldList) set(f *Field) {
	n := python.StrValue(f.name)
	if l.m == nil {
		l.m = map[string]*Field{}
	}
	if _, ok := l.m[n]; !ok {
		l.names = append(l.names, n)
	}
	l.m[n] = f
}

func (l *fieldList) all() []*Field {
	out := make([]*Field, len(l.names))
	for i, n := range l.names {
		out[i] = l.m[n]
	}
	return out
}

func truth(t *python.Thread, x obj) (bool, error) { return python.TruthE(t, x) }

// process is _process_class: it turns cls into a dataclass.
func (st *state) process(t *python.Thread, x obj, p *params) (obj, error) {
	cls, ok := x.(*python.Type)
	if !ok {
		if _, err := python.GetAttr(t, x, "__module__"); err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute '__mro__'", python.TypeName(x))
	}
	if err := python.SetAttr(t, cls, "__dataclass_params__", p); err != nil {
		return nil, err
	}
	var fields fieldList
	anyFrozenBase, hasDataclassBases := false, false
	mro := cls.MRO()
	for i := len(mro) - 1; i >= 1; i-- {
		b := mro[i]
		if !isDataclassType(b) {
			continue
		}
		hasDataclassBases = true
		bf, err := classFields(t, b)
		if err != nil {
			return nil, err
		}
		for _, f := range bf {
			fields.set(f)
		}
		if v, ok := b.Lookup("__dataclass_params__"); ok {
			if bp, ok := v.(*params); ok && bp.frozen {
				anyFrozenBase = true
			}
		}
	}

	// The fields this class annotates.
	var annNames []string
	var annTypes []obj
	if v, ok := cls.Dict().GetStr("__annotations__"); ok {
		d, ok := v.(*python.Dict)
		if !ok {
			return nil, python.NotSupported("a class __annotations__ that is not a dict", "")
		}
		var err error
		d.Items(func(k, v obj) bool {
			s, ok := k.(*python.Str)
			if !ok {
				err = python.NotSupported("a non-str annotation name", "")
				return false
			}
			annNames = append(annNames, s.String())
			annTypes = append(annTypes, v)
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	kwOnly := p.kwOnly
	kwOnlySeen := false
	var clsFields []*Field
	for i, name := range annNames {
		typ := annTypes[i]
		isKW, err := st.isMarker(t, cls, typ, kwOnlyMarker, "KW_ONLY")
		if err != nil {
			return nil, err
		}
		if isKW {
			if kwOnlySeen {
				return nil, python.Errorf(python.TypeErrorType, "%s is KW_ONLY, but KW_ONLY has already been specified", python.StrRepr(name))
			}
			kwOnlySeen = true
			kwOnly = true
			continue
		}
		f, err := st.getField(t, cls, name, typ, kwOnly)
		if err != nil {
			return nil, err
		}
		clsFields = append(clsFields, f)
	}
	for _, f := range clsFields {
		fields.set(f)
		name := python.StrValue(f.name)
		if v, err := classAttr(t, cls, name); err != nil {
			return nil, err
		} else if _, isField := v.(*Field); isField {
			if f.dflt == missing {
				if err := python.DelAttr(t, cls, name); err != nil {
					return nil, err
				}
			} else if err := python.SetAttr(t, cls, name, f.dflt); err != nil {
				return nil, err
			}
		}
	}
	// A Field without an annotation is an error.
	annotated := map[string]bool{}
	for _, n := range annNames {
		annotated[n] = true
	}
	var stray error
	cls.Dict().Items(func(k, v obj) bool {
		if _, ok := v.(*Field); ok {
			if n := python.StrValue(k); !annotated[n] {
				stray = python.Errorf(python.TypeErrorType, "%s is a field but has no type annotation", python.StrRepr(n))
				return false
			}
		}
		return true
	})
	if stray != nil {
		return nil, stray
	}
	if hasDataclassBases {
		if anyFrozenBase && !p.frozen {
			return nil, python.Errorf(python.TypeErrorType, "cannot inherit non-frozen dataclass from a frozen one")
		}
		if !anyFrozenBase && p.frozen {
			return nil, python.Errorf(python.TypeErrorType, "cannot inherit frozen dataclass from a non-frozen one")
		}
	}
	fd := python.NewDict(len(fields.names))
	for _, f := range fields.all() {
		fd.SetStr(python.StrValue(f.name), f)
	}
	if err := python.SetAttr(t, cls, "__dataclass_fields__", fd); err != nil {
		return nil, err
	}
	classHash, hasHash := cls.Dict().GetStr("__hash__")
	_, hasEq := cls.Dict().GetStr("__eq__")
	explicitHash := hasHash && !(classHash == python.None && hasEq)
	if p.order && !p.eq {
		return nil, python.Errorf(python.ValueErrorType, "eq must be true if order is true")
	}

	g := &generated{st: st, p: p}
	for _, f := range fields.all() {
		if f.kind == kindField {
			g.fields = append(g.fields, f)
		}
		if f.kind == kindField || f.kind == kindInitVar {
			g.initFields = append(g.initFields, f)
			in, err := truth(t, f.init)
			if err != nil {
				return nil, err
			}
			if !in {
				continue
			}
			kw, err := truth(t, f.kwOnly)
			if err != nil {
				return nil, err
			}
			if kw {
				g.kwFields = append(g.kwFields, f)
			} else {
				g.stdFields = append(g.stdFields, f)
			}
		}
	}
	if p.init {
		seenDefault := false
		for _, f := range g.stdFields {
			if f.dflt != missing || f.factory != missing {
				seenDefault = true
			} else if seenDefault {
				return nil, python.Errorf(python.TypeErrorType, "non-default argument %s follows default argument", python.StrRepr(python.StrValue(f.name)))
			}
		}
	}
	if p.weakrefSlot && !p.slots {
		return nil, python.Errorf(python.TypeErrorType, "weakref_slot is True but slots is False")
	}
	if p.weakrefSlot {
		return nil, python.NotSupported("dataclass(weakref_slot=True)", "code mode has no weak references")
	}
	if p.slots {
		nc, err := addSlots(t, cls, g.fields)
		if err != nil {
			return nil, err
		}
		cls = nc
	}
	g.cls = cls
	if err := g.install(t, explicitHash); err != nil {
		return nil, err
	}
	return cls, nil
}

// classAttr is getattr(cls, name, None): nil when cls has no such
// attribute.
func classAttr(t *python.Thread, cls *python.Type, name string) (obj, error) {
	v, err := python.GetAttr(t, cls, name)
	if err != nil {
		if python.IsInstance(err, python.AttributeErrorType) {
			return nil, nil
		}
		return nil, err
	}
	return v, nil
}

// getField is _get_field: the Field of one annotation of cls.
func (st *state) getField(t *python.Thread, cls *python.Type, name string, typ obj, defaultKwOnly bool) (*Field, error) {
	dflt, err := classAttr(t, cls, name)
	if err != nil {
		return nil, err
	}
	var f *Field
	if fv, ok := dflt.(*Field); ok {
		f = fv
	} else {
		if dflt == nil {
			dflt = missing
		}
		f = newField(dflt, missing, python.True, python.True, python.None, python.True, nil, missing)
		md, err := metadataProxy(t, nil)
		if err != nil {
			return nil, err
		}
		f.metadata = md
	}
	f.name = python.NewStr(name)
	f.typ = typ
	f.kind = kindField
	isCV, err := st.isClassVar(t, cls, typ)
	if err != nil {
		return nil, err
	}
	if isCV {
		f.kind = kindClassVar
	} else {
		isIV := false
		if typ == obj(InitVarType) {
			isIV = true
		} else if _, ok := typ.(*InitVar); ok {
			isIV = true
		} else if isIV, err = st.isMarker(t, cls, typ, InitVarType, "InitVar"); err != nil {
			return nil, err
		}
		if isIV {
			f.kind = kindInitVar
		}
	}
	if f.kind == kindClassVar || f.kind == kindInitVar {
		if f.factory != missing {
			return nil, python.Errorf(python.TypeErrorType, "field %s cannot have a default factory", name)
		}
	}
	if f.kind == kindField || f.kind == kindInitVar {
		if f.kwOnly == missing {
			f.kwOnly = python.MakeBool(defaultKwOnly)
		}
	} else if f.kwOnly != missing {
		return nil, python.Errorf(python.TypeErrorType, "field %s is a ClassVar but specifies kw_only", name)
	}
	if f.kind == kindField && isMutableDefault(f.dflt) {
		r, err := python.Repr(t, f.dflt.Type())
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "mutable default %s for field %s is not allowed: use default_factory", r, name)
	}
	return f, nil
}

// isMutableDefault reports whether type(v).__hash__ is None.
func isMutableDefault(v obj) bool {
	if v == missing {
		return false
	}
	c := v.Type()
	if c.IsSubtype(python.ByteArrayType) {
		return true
	}
	h, ok := c.Lookup("__hash__")
	return ok && h == python.None
}

// moduleGlobals returns the namespace of the module that defines cls,
// when the interpreter has it (the __main__ module's).
func (st *state) moduleGlobals(t *python.Thread, cls *python.Type) *python.Dict {
	mod := cls.Module()
	if v, ok := cls.Dict().GetStr("__module__"); ok {
		mod = python.StrValue(v)
	}
	if mod == "__main__" {
		return st.in.Globals()
	}
	return nil
}

// annotationName parses a string annotation as CPython's
// _MODULE_IDENTIFIER_RE: an optional "module." and an identifier.
func annotationName(s string) (module, name string, ok bool) {
	rs := []rune(s)
	i := 0
	skip := func() {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
	}
	word := func() string {
		j := i
		for i < len(rs) && (rs[i] == '_' || unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]) || unicode.Is(unicode.Mn, rs[i]) || unicode.Is(unicode.Mc, rs[i])) {
			i++
		}
		return string(rs[j:i])
	}
	skip()
	first := word()
	if first == "" {
		return "", "", false
	}
	save := i
	skip()
	if i < len(rs) && rs[i] == '.' {
		i++
		skip()
		if second := word(); second != "" {
			return first, second, true
		}
	}
	i = save
	return "", first, true
}

// resolveString looks a string annotation up as CPython's _is_type does:
// the object it names in the class's module, or nil.
func (st *state) resolveString(t *python.Thread, cls *python.Type, s, moduleName string) (obj, error) {
	mod, name, ok := annotationName(s)
	if !ok {
		return nil, nil
	}
	g := st.moduleGlobals(t, cls)
	if g == nil {
		return nil, nil
	}
	if mod == "" {
		v, _ := g.GetStr(name)
		return v, nil
	}
	m, ok := g.GetStr(mod)
	if !ok {
		return nil, nil
	}
	pm, ok := m.(*python.Module)
	if !ok || pm.Name() != moduleName {
		return nil, nil
	}
	v, _ := pm.Dict().GetStr(name)
	return v, nil
}

// isMarker reports whether an annotation is want (KW_ONLY, InitVar), or a
// string naming it.
func (st *state) isMarker(t *python.Thread, cls *python.Type, typ obj, want obj, _ string) (bool, error) {
	if typ == want {
		return true, nil
	}
	s, ok := typ.(*python.Str)
	if !ok {
		return false, nil
	}
	v, err := st.resolveString(t, cls, s.String(), "dataclasses")
	if err != nil || v == nil {
		return false, err
	}
	if v == want {
		return true, nil
	}
	if want == obj(InitVarType) {
		_, ok := v.(*InitVar)
		return ok, nil
	}
	return false, nil
}

// isClassVar reports whether an annotation is typing.ClassVar or
// ClassVar[...] (or a string naming it).
func (st *state) isClassVar(t *python.Thread, cls *python.Type, typ obj) (bool, error) {
	if s, ok := typ.(*python.Str); ok {
		v, err := st.resolveString(t, cls, s.String(), "typing")
		if err != nil || v == nil {
			return false, err
		}
		typ = v
	}
	if typ.Type().Module() != "typing" {
		if c, ok := typ.(*python.Type); !ok || c.Module() != "typing" {
			return false, nil
		}
	}
	tm, err := st.in.Import(t, "typing")
	if err != nil {
		return false, nil
	}
	cv, err := python.GetAttr(t, tm, "ClassVar")
	if err != nil {
		return false, nil
	}
	if typ == cv {
		return true, nil
	}
	origin, err := python.GetAttr(t, typ, "__origin__")
	if err != nil {
		return false, nil
	}
	return origin == cv, nil
}

// addSlots is _add_slots: a new class like cls whose instances have slots
// for the fields instead of a __dict__.
func addSlots(t *python.Thread, cls *python.Type, fields []*Field) (*python.Type, error) {
	if _, ok := cls.Dict().GetStr("__slots__"); ok {
		return nil, python.Errorf(python.TypeErrorType, "%s already specifies __slots__", cls.Name())
	}
	inherited := map[string]bool{}
	mro := cls.MRO()
	for _, b := range mro[1 : len(mro)-1] {
		sl, ok := b.Dict().GetStr("__slots__")
		if !ok || sl == python.None {
			continue
		}
		if s, ok := sl.(*python.Str); ok {
			inherited[s.String()] = true
			continue
		}
		items, err := python.ToSlice(t, sl)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			inherited[python.StrValue(it)] = true
		}
	}
	ns := cls.Dict().Copy()
	var slots []obj
	for _, f := range fields {
		n := python.StrValue(f.name)
		if !inherited[n] {
			slots = append(slots, f.name)
		}
		_, _, _ = ns.Delete(t, f.name)
	}
	ns.SetStr("__slots__", python.NewTuple(slots))
	ns.SetStr("__qualname__", python.NewStr(cls.Qualname()))
	_, _, _ = ns.Delete(t, python.NewStr("__dict__"))
	_, _, _ = ns.Delete(t, python.NewStr("__weakref__"))
	meta := cls.Type()
	if meta == python.TypeType {
		meta = nil
	}
	return python.NewClass(t, meta, cls.Name(), cls.Bases(), ns)
}

// formatAnnotation renders an annotation as inspect.formatannotation.
func formatAnnotation(t *python.Thread, a obj) (string, error) {
	if c, ok := a.(*python.Type); ok {
		if c.Module() == "typing" {
			r, err := python.Repr(t, a)
			return strings.ReplaceAll(r, "typing.", ""), err
		}
		mod := c.Module()
		if v, ok := c.Dict().GetStr("__module__"); ok && !c.IsBuiltin() {
			mod = python.StrValue(v)
		}
		if mod == "builtins" {
			return c.Qualname(), nil
		}
		return mod + "." + c.Qualname(), nil
	}
	r, err := python.Repr(t, a)
	if err != nil {
		return "", err
	}
	if a.Type().Module() == "typing" {
		r = strings.ReplaceAll(r, "typing.", "")
	}
	return r, nil
}
