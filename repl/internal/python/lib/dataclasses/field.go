package dataclasses

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// fieldKind is a Field's _field_type: a real field, a ClassVar or an
// InitVar pseudo-field.
type fieldKind uint8

const (
	kindUnset fieldKind = iota
	kindField
	kindClassVar
	kindInitVar
)

var kindNames = [...]string{"None", "_FIELD", "_FIELD_CLASSVAR", "_FIELD_INITVAR"}

// sentinel is one of the module's marker objects (MISSING, KW_ONLY, the
// default-factory marker, the _FIELD markers).
type sentinel struct {
	typ  *python.Type
	repr string // "" renders <dataclasses.NAME object at 0x...>
	id   uint64
}

func (s *sentinel) Type() *python.Type { return s.typ }

// PyRepr renders the sentinel as CPython does.
func (s *sentinel) PyRepr(*python.Thread) (string, error) {
	if s.repr != "" {
		return s.repr, nil
	}
	return fmt.Sprintf("<dataclasses.%s object at %s>", s.typ.Name(), fakeAddr(s.id)), nil
}

var addrCounter atomic.Uint64

// fakeAddr renders a deterministic stand-in for an object's address (the
// value differs from CPython's, which varies from run to run anyway).
func fakeAddr(id uint64) string { return fmt.Sprintf("0x7f%010x", 0x5d0000+id*16) }

func newSentinel(typeName, repr string) *sentinel {
	t := python.NewBuiltinType(typeName, "dataclasses", nil, nil)
	return &sentinel{typ: t, repr: repr, id: addrCounter.Add(1)}
}

// The module's markers. They hold no state, so one set serves every
// interpreter. setupMarkers makes them.
var (
	missing        *sentinel
	kwOnlyMarker   *sentinel
	hasFactory     *sentinel
	fieldTypeClass *python.Type
)

// setupMarkers makes the module's markers and the _FIELD objects.
func setupMarkers() {
	missing = newSentinel("_MISSING_TYPE", "")
	kwOnlyMarker = newSentinel("_KW_ONLY_TYPE", "")
	hasFactory = newSentinel("_HAS_DEFAULT_FACTORY_CLASS", "<factory>")
	fieldTypeClass = python.NewBuiltinType("_FIELD_BASE", "dataclasses", nil, nil)
	for _, s := range []*sentinel{missing, kwOnlyMarker, hasFactory} {
		s.typ.SetFinal()
	}
	fieldKindObjects = [...]obj{
		kindUnset:    python.None,
		kindField:    &sentinel{typ: fieldTypeClass, repr: "_FIELD"},
		kindClassVar: &sentinel{typ: fieldTypeClass, repr: "_FIELD_CLASSVAR"},
		kindInitVar:  &sentinel{typ: fieldTypeClass, repr: "_FIELD_INITVAR"},
	}
}

// Field is a dataclasses.Field: one field of a dataclass, as field()
// returns it and fields() lists it.
type Field struct {
	name, typ                 obj
	dflt, factory             obj
	init, repr, hash, compare obj
	metadata                  obj
	kwOnly                    obj
	kind                      fieldKind
	id                        uint64
}

// FieldType is dataclasses.Field (nil until Register).
var FieldType *python.Type

// setupField makes FieldType.
func setupField() { FieldType = python.NewBuiltinType("Field", "dataclasses", nil, fieldNew) }

// Type returns dataclasses.Field.
func (*Field) Type() *python.Type { return FieldType }

var fieldAttrs = []string{"name", "type", "default", "default_factory", "repr", "hash", "init", "compare", "metadata", "kw_only", "_field_type"}

func (f *Field) slot(name string) *obj {
	switch name {
	case "name":
		return &f.name
	case "type":
		return &f.typ
	case "default":
		return &f.dflt
	case "default_factory":
		return &f.factory
	case "repr":
		return &f.repr
	case "hash":
		return &f.hash
	case "init":
		return &f.init
	case "compare":
		return &f.compare
	case "metadata":
		return &f.metadata
	case "kw_only":
		return &f.kwOnly
	}
	return nil
}

// PyGetAttr reads a field attribute.
func (f *Field) PyGetAttr(t *python.Thread, name string) (obj, error) {
	if name == "_field_type" {
		if f.kind == kindUnset {
			return python.None, nil
		}
		return fieldKindObjects[f.kind], nil
	}
	if p := f.slot(name); p != nil {
		if *p == nil {
			return nil, python.Errorf(python.AttributeErrorType, "'Field' object has no attribute '%s'", name)
		}
		return *p, nil
	}
	return nil, nil
}

// PySetAttr sets a field attribute (Field has __slots__).
func (f *Field) PySetAttr(t *python.Thread, name string, v obj) error {
	if p := f.slot(name); p != nil {
		*p = v
		return nil
	}
	if name == "_field_type" {
		for k, o := range fieldKindObjects {
			if o == v {
				f.kind = fieldKind(k)
				return nil
			}
		}
		return python.NotSupported("setting Field._field_type to another object", "")
	}
	return python.Errorf(python.AttributeErrorType, "'Field' object has no attribute '%s'", name)
}

// fieldKindObjects are the _FIELD markers of Field._field_type, by kind
// (set by setupMarkers).
var fieldKindObjects [kindInitVar + 1]obj

// PyRepr renders Field(name=...,type=...,...) as CPython does (no spaces
// after the commas).
func (f *Field) PyRepr(t *python.Thread) (string, error) {
	var b strings.Builder
	b.WriteString("Field(")
	for i, n := range fieldAttrs[:10] {
		if i > 0 {
			b.WriteByte(',')
		}
		v := *f.slot(n)
		r := "None"
		if v != nil {
			var err error
			if r, err = python.Repr(t, v); err != nil {
				return "", err
			}
		}
		b.WriteString(n + "=" + r)
	}
	b.WriteString(",_field_type=" + kindNames[f.kind] + ")")
	return b.String(), nil
}

func newField(dflt, factory, init, repr, hash, compare, metadata, kwOnly obj) *Field {
	return &Field{name: python.None, typ: python.None, dflt: dflt, factory: factory, init: init, repr: repr,
		hash: hash, compare: compare, metadata: metadata, kwOnly: kwOnly, id: addrCounter.Add(1)}
}

// fieldNew implements Field(default, default_factory, init, repr, hash,
// compare, metadata, kw_only).
func fieldNew(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "Field.__init__", Pos: []string{"self", "default", "default_factory", "init", "repr", "hash", "compare", "metadata", "kw_only"}, Required: 9}).Values(append([]obj{python.None}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	a = a[1:]
	md, err := metadataProxy(t, a[6])
	if err != nil {
		return nil, err
	}
	return newField(a[0], a[1], a[2], a[3], a[4], a[5], md, a[7]), nil
}

// metadataProxy returns mappingproxy(metadata), or an empty one for None.
func metadataProxy(t *python.Thread, md obj) (obj, error) {
	if d, ok := md.(*python.Dict); ok && d.Class() == python.DictType {
		return python.NewMappingProxy(d), nil
	}
	d := python.NewDict(4)
	if md != nil && md != python.None {
		keys, err := python.CallMethod(t, md, "keys", nil, nil)
		if err != nil {
			return nil, err
		}
		err = python.Iterate(t, keys, func(k obj) error {
			v, err := python.GetItem(t, md, k)
			if err != nil {
				return err
			}
			return d.Set(t, k, v)
		})
		if err != nil {
			return nil, err
		}
	}
	return python.NewMappingProxy(d), nil
}

// field implements dataclasses.field(*, default=MISSING, ...).
func field(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "field", Pos: nil, Required: 0, KwOnly: []string{"default", "default_factory", "init", "repr", "hash", "compare", "metadata", "kw_only"}}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	defs := []obj{missing, missing, python.True, python.True, python.None, python.True, python.None, missing}
	for i := range a {
		if a[i] == nil {
			a[i] = defs[i]
		}
	}
	if a[0] != missing && a[1] != missing {
		return nil, python.Errorf(python.ValueErrorType, "cannot specify both default and default_factory")
	}
	md, err := metadataProxy(t, a[6])
	if err != nil {
		return nil, err
	}
	return newField(a[0], a[1], a[2], a[3], a[4], a[5], md, a[7]), nil
}

// InitVar is dataclasses.InitVar[T]: a pseudo-field passed to __init__ and
// __post_init__ but not stored.
type InitVar struct{ typ obj }

// InitVarType is dataclasses.InitVar (nil until Register).
var InitVarType *python.Type

// setupInitVar makes InitVarType.
func setupInitVar() {
	InitVarType = python.NewBuiltinType("InitVar", "dataclasses", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		a, err := (&python.Signature{Name: "InitVar.__init__", Pos: []string{"self", "type"}, Required: 2}).Values(append([]obj{python.None}, args...), kwargs)
		if err != nil {
			return nil, err
		}
		return &InitVar{typ: a[1]}, nil
	})
	InitVarType.AddClassMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "InitVar.__class_getitem__() takes exactly one argument (%d given)", len(args)-1)
		}
		return &InitVar{typ: args[1]}, nil
	})
	InitVarType.AddGetSet("type", func(t *python.Thread, o obj) (obj, error) { return o.(*InitVar).typ, nil },
		func(t *python.Thread, o, v obj) error { o.(*InitVar).typ = v; return nil })
}

// Type returns dataclasses.InitVar.
func (*InitVar) Type() *python.Type { return InitVarType }

// PyRepr renders dataclasses.InitVar[int].
func (v *InitVar) PyRepr(t *python.Thread) (string, error) {
	if c, ok := v.typ.(*python.Type); ok {
		return "dataclasses.InitVar[" + c.Name() + "]", nil
	}
	r, err := python.Repr(t, v.typ)
	return "dataclasses.InitVar[" + r + "]", err
}

// params is a class's __dataclass_params__: the decorator's arguments as
// given, and their truth values.
type params struct {
	raw                                                                              [10]obj
	init, repr, eq, order, unsafeHash, frozen, matchArgs, kwOnly, slots, weakrefSlot bool
}

// paramsType is _DataclassParams (set by setup).
var paramsType *python.Type

var paramNames = []string{"init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots", "weakref_slot"}

// Type returns _DataclassParams.
func (*params) Type() *python.Type { return paramsType }

// PyGetAttr reads a parameter.
func (p *params) PyGetAttr(_ *python.Thread, name string) (obj, error) {
	for i, n := range paramNames {
		if n == name {
			return p.raw[i], nil
		}
	}
	return nil, nil
}

// PyRepr renders _DataclassParams(init=True,...).
func (p *params) PyRepr(t *python.Thread) (string, error) {
	var b strings.Builder
	b.WriteString("_DataclassParams(")
	for i, v := range p.raw {
		if i > 0 {
			b.WriteByte(',')
		}
		r, err := python.Repr(t, v)
		if err != nil {
			return "", err
		}
		b.WriteString(paramNames[i] + "=" + r)
	}
	b.WriteByte(')')
	return b.String(), nil
}
