// Package dataclasses is code mode's dataclasses module: the @dataclass
// decorator and its helpers, as CPython 3.12 has them. The methods the
// decorator adds (__init__, __repr__, __eq__, the orderings, __hash__,
// __setattr__ and __delattr__ of frozen classes) are Go functions that
// behave as the code CPython generates.
package dataclasses

import (
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes the dataclasses module importable. The first call makes
// the module's types: until then FieldType, InitVarType and
// FrozenInstanceErrorType are nil.
func Register() {
	python.Setup()
	python.RegisterModule("dataclasses", load)
	// setup runs after RegisterModule, which makes sure the interpreter
	// core is set up.
	setupOnce.Do(setup)
}

// FrozenInstanceErrorType is dataclasses.FrozenInstanceError, raised on
// assignment to a field of a frozen dataclass.
var FrozenInstanceErrorType *python.Type

var setupOnce sync.Once

// setup makes the module's types and markers. It runs on the first
// Register, not at package initialisation, so that importing the package
// touches nothing of the interpreter.
func setup() {
	FrozenInstanceErrorType = python.NewBuiltinType("FrozenInstanceError", "dataclasses", python.AttributeErrorType, nil)
	setupMarkers()
	setupField()
	setupInitVar()
	paramsType = python.NewBuiltinType("_DataclassParams", "dataclasses", nil, nil)
}

// state is the module's per-interpreter state.
type state struct {
	in *python.Interp
	// reprRunning holds the objects whose generated __repr__ is running
	// (a recursive reference renders as "...").
	reprRunning map[obj]bool
}

func load(in *python.Interp) (*python.Module, error) {
	st := &state{in: in, reprRunning: map[obj]bool{}}
	m := python.NewModule("dataclasses")
	m.Func("dataclass", st.dataclass)
	m.Func("field", field)
	m.Func("fields", fieldsFunc)
	m.Func("asdict", st.asdict)
	m.Func("astuple", st.astuple)
	m.Func("replace", replace)
	m.Func("is_dataclass", isDataclass)
	m.Func("make_dataclass", st.makeDataclass)
	m.Set("Field", FieldType)
	m.Set("InitVar", InitVarType)
	m.Set("MISSING", missing)
	m.Set("KW_ONLY", kwOnlyMarker)
	m.Set("FrozenInstanceError", FrozenInstanceErrorType)
	m.Set("__all__", strTuple("dataclass", "field", "Field", "FrozenInstanceError", "InitVar", "KW_ONLY", "MISSING",
		"fields", "asdict", "astuple", "make_dataclass", "replace", "is_dataclass"))
	return m, nil
}

func strTuple(names ...string) *python.Tuple {
	out := make([]obj, len(names))
	for i, n := range names {
		out[i] = python.NewStr(n)
	}
	return python.NewTuple(out)
}

var decoratorParams = []string{"cls", "/", "*", "init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots", "weakref_slot"}

// parseParams reads the decorator's keyword arguments (a[0] is cls).
func parseParams(t *python.Thread, a []obj) (*params, error) {
	defs := [10]obj{python.True, python.True, python.True, python.False, python.False, python.False, python.True, python.False, python.False, python.False}
	p := &params{}
	var truth [10]bool
	for i := range p.raw {
		v := a[i+1]
		if v == nil {
			v = defs[i]
		}
		p.raw[i] = v
		b, err := python.TruthE(t, v)
		if err != nil {
			return nil, err
		}
		truth[i] = b
	}
	p.init, p.repr, p.eq, p.order, p.unsafeHash = truth[0], truth[1], truth[2], truth[3], truth[4]
	p.frozen, p.matchArgs, p.kwOnly, p.slots, p.weakrefSlot = truth[5], truth[6], truth[7], truth[8], truth[9]
	return p, nil
}

// dataclass implements @dataclass and @dataclass(...).
func (st *state) dataclass(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	for _, kw := range kwargs {
		if kw.Name == "cls" {
			return nil, python.Errorf(python.TypeErrorType, "dataclass() got some positional-only arguments passed as keyword arguments: 'cls'")
		}
	}
	a, err := (&python.Signature{Name: "dataclass", Pos: []string{"cls"}, Required: 0, KwOnly: decoratorParams[3:]}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	p, err := parseParams(t, a)
	if err != nil {
		return nil, err
	}
	if a[0] == nil || a[0] == python.None {
		return python.NewBuiltin("wrap", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "dataclass.<locals>.wrap() got an unexpected keyword argument '%s'", kwargs[0].Name)
			}
			if len(args) != 1 {
				if len(args) == 0 {
					return nil, python.Errorf(python.TypeErrorType, "dataclass.<locals>.wrap() missing 1 required positional argument: 'cls'")
				}
				return nil, python.Errorf(python.TypeErrorType, "dataclass.<locals>.wrap() takes 1 positional argument but %d were given", len(args))
			}
			return st.process(t, args[0], p)
		}), nil
	}
	return st.process(t, a[0], p)
}

// classFields returns the fields (pseudo-fields included) recorded on a
// dataclass, or nil.
func classFields(t *python.Thread, cls *python.Type) ([]*Field, error) {
	v, ok := cls.Lookup("__dataclass_fields__")
	if !ok {
		return nil, nil
	}
	d, ok := v.(*python.Dict)
	if !ok {
		return nil, python.NotSupported("a __dataclass_fields__ that is not a dict", "")
	}
	out := make([]*Field, 0, d.Len())
	var err error
	d.Items(func(_, v obj) bool {
		f, ok := v.(*Field)
		if !ok {
			err = python.NotSupported("a __dataclass_fields__ entry that is not a Field", "")
			return false
		}
		out = append(out, f)
		return true
	})
	return out, err
}

func isDataclassType(cls *python.Type) bool {
	_, ok := cls.Lookup("__dataclass_fields__")
	return ok
}

// fieldsFunc implements dataclasses.fields(class_or_instance).
func fieldsFunc(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "fields", Pos: []string{"class_or_instance"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	x := a[0]
	var fs []*Field
	if c, ok := x.(*python.Type); ok && isDataclassType(c) {
		fs, err = classFields(t, c)
	} else if isDataclassInstance(x) {
		fs, err = classFields(t, x.Type())
	} else {
		return nil, python.Errorf(python.TypeErrorType, "must be called with a dataclass type or instance")
	}
	if err != nil {
		return nil, err
	}
	out := make([]obj, 0, len(fs))
	for _, f := range fs {
		if f.kind == kindField {
			out = append(out, f)
		}
	}
	return python.NewTuple(out), nil
}

// isDataclassInstance reports whether x's class is a dataclass.
func isDataclassInstance(x obj) bool { return isDataclassType(x.Type()) }

// isDataclass implements dataclasses.is_dataclass(obj).
func isDataclass(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "is_dataclass", Pos: []string{"obj"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	cls, ok := a[0].(*python.Type)
	if !ok {
		cls = a[0].Type()
	}
	return python.MakeBool(isDataclassType(cls)), nil
}

// replace implements dataclasses.replace(obj, /, **changes).
func replace(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(args) != 1 {
		if len(args) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "replace() missing 1 required positional argument: 'obj'")
		}
		return nil, python.Errorf(python.TypeErrorType, "replace() takes 1 positional argument but %d were given", len(args))
	}
	x := args[0]
	if !isDataclassInstance(x) {
		return nil, python.Errorf(python.TypeErrorType, "replace() should be called on dataclass instances")
	}
	fs, err := classFields(t, x.Type())
	if err != nil {
		return nil, err
	}
	changes := append([]kwarg(nil), kwargs...)
	has := func(name string) bool {
		for _, k := range changes {
			if k.Name == name {
				return true
			}
		}
		return false
	}
	for _, f := range fs {
		if f.kind == kindClassVar {
			continue
		}
		name := python.StrValue(f.name)
		init, err := python.TruthE(t, f.init)
		if err != nil {
			return nil, err
		}
		if !init {
			if has(name) {
				return nil, python.Errorf(python.ValueErrorType, "field %s is declared with init=False, it cannot be specified with replace()", name)
			}
			continue
		}
		if !has(name) {
			if f.kind == kindInitVar && f.dflt == missing {
				return nil, python.Errorf(python.ValueErrorType, "InitVar %s must be specified with replace()", python.StrRepr(name))
			}
			v, err := python.GetAttr(t, x, name)
			if err != nil {
				return nil, err
			}
			changes = append(changes, kwarg{Name: name, Value: v})
		}
	}
	return python.Call(t, x.Type(), nil, changes)
}

// keywords are Python's keywords (keyword.kwlist).
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

var makeParams = []string{"cls_name", "fields", "*", "bases", "namespace", "init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots", "weakref_slot", "module"}

// makeDataclass implements dataclasses.make_dataclass.
func (st *state) makeDataclass(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "make_dataclass", Pos: makeParams[:2], Required: 2, KwOnly: makeParams[3:]}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	ns := python.NewDict(8)
	if a[3] != nil && a[3] != python.None {
		if err := python.DictUpdate(t, ns, []obj{a[3]}, nil); err != nil {
			return nil, err
		}
	}
	anns := python.NewDict(8)
	seen := map[string]bool{}
	err = python.Iterate(t, a[1], func(item obj) error {
		var name, tp obj
		if s, ok := item.(*python.Str); ok {
			name, tp = s, python.NewStr("typing.Any")
		} else {
			parts, err := python.ToSlice(t, item)
			if err != nil {
				if python.IsInstance(err, python.TypeErrorType) {
					return python.Errorf(python.TypeErrorType, "object of type '%s' has no len()", python.TypeName(item))
				}
				return err
			}
			switch len(parts) {
			case 2:
				name, tp = parts[0], parts[1]
			case 3:
				name, tp = parts[0], parts[1]
				if err := ns.Set(t, name, parts[2]); err != nil {
					return err
				}
			default:
				r, err := python.Repr(t, item)
				if err != nil {
					return err
				}
				return python.Errorf(python.TypeErrorType, "Invalid field: %s", r)
			}
		}
		s, isStr := name.(*python.Str)
		ident := false
		if isStr {
			v, err := python.CallMethod(t, s, "isidentifier", nil, nil)
			if err != nil {
				return err
			}
			ident = v == python.True
		}
		r, err := python.Repr(t, name)
		if err != nil {
			return err
		}
		if !ident {
			return python.Errorf(python.TypeErrorType, "Field names must be valid identifiers: %s", r)
		}
		if keywords[s.String()] {
			return python.Errorf(python.TypeErrorType, "Field names must not be keywords: %s", r)
		}
		if seen[s.String()] {
			return python.Errorf(python.TypeErrorType, "Field name duplicated: %s", r)
		}
		seen[s.String()] = true
		return anns.Set(t, name, tp)
	})
	if err != nil {
		return nil, err
	}
	// The namespace's own entries come first, then the defaults: the
	// namespace was copied above, defaults were set while reading fields.
	ns.SetStr("__annotations__", anns)
	name, ok := a[0].(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "type.__new__() argument 1 must be str, not %s", python.TypeName(a[0]))
	}
	var bases []*python.Type
	if a[2] != nil {
		items, err := python.ToSlice(t, a[2])
		if err != nil {
			return nil, err
		}
		for _, b := range items {
			bt, ok := b.(*python.Type)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "bases must be types")
			}
			bases = append(bases, bt)
		}
	}
	var meta *python.Type
	for _, b := range bases {
		if m := b.Type(); m != python.TypeType && (meta == nil || m.IsSubtype(meta)) {
			meta = m
		}
	}
	module := python.NewStr("__main__")
	if v, ok := t.Globals().GetStr("__name__"); ok {
		if s, ok := v.(*python.Str); ok {
			module = s
		}
	}
	if a[14] != nil && a[14] != python.None {
		module = nil
	}
	ns.SetStr("__module__", python.NewStr("__main__"))
	cls, err := python.NewClass(t, meta, name.String(), bases, ns)
	if err != nil {
		return nil, err
	}
	if module == nil {
		mv, ok := a[14].(*python.Str)
		if !ok {
			return nil, python.NotSupported("make_dataclass(module=...) with a module name that is not a str", "")
		}
		module = mv
	}
	cls.SetAttr("__module__", module)
	cls.SetModule(module.String())
	dargs := append([]obj{cls}, a[4:14]...)
	p, err := parseParams(t, dargs)
	if err != nil {
		return nil, err
	}
	return st.process(t, cls, p)
}
