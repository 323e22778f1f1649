// Package typing is code mode's typing module, for what annotations and
// runtime code use: the special forms (Any, Union, Optional, Literal,
// Final, ClassVar, Annotated, NoReturn, Self, ...), the aliases of the
// collections (List, Dict, Tuple, Callable, Iterable, ...) with CPython's
// reprs (typing.Optional[int], typing.List[str]), equality, __origin__ and
// __args__, get_origin and get_args, TypeVar, Generic and Protocol as base
// classes, NamedTuple and TypedDict (class syntax and functional), cast,
// overload, final, NewType, get_type_hints and TYPE_CHECKING.
//
// Known gaps (the interpreter core has no hook for them): issubclass()
// against an alias, a user generic class's __parameters__ and argument
// count, and class keywords of TypedDict (total=False).
package typing

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// Register makes typing importable.
func Register() {
	python.Setup()
	python.RegisterModule("typing", load)
}

var (
	typesOnce sync.Once

	formType, specialAliasType, genericAliasType, unionAliasType         *python.Type
	callableAliasType, literalAliasType, annotatedAliasType, typeVarType *python.Type
	forwardRefType, newTypeType                                          *python.Type
	genericType, protocolType, annotatedType                             *python.Type
	ntBase, tdBase                                                       *python.Type

	unionForm, optionalForm, literalForm *form
)

// nextID gives Go-implemented objects an identity for hash().
var nextID atomic.Int64

func newID() int64 { return nextID.Add(1) << 4 }

// form is a special form: typing.Any, Union, Optional, Literal, ...
type form struct {
	name    string
	plainOK bool // valid unsubscripted as a type argument
	// getitem subscripts the form; nil: not subscriptable.
	getitem func(t *python.Thread, f *form, key python.Object) (python.Object, error)
	id      int64
}

// Type returns typing._SpecialForm.
func (f *form) Type() *python.Type { return formType }

// PyRepr renders typing.Name.
func (f *form) PyRepr(*python.Thread) (string, error) { return "typing." + f.name, nil }

// PyHash hashes by identity.
func (f *form) PyHash(*python.Thread) (int64, error) {
	if f.id == 0 {
		f.id = newID()
	}
	return f.id, nil
}

// PyGetItem subscripts the form.
func (f *form) PyGetItem(t *python.Thread, key python.Object) (python.Object, error) {
	if f.getitem == nil {
		if f.name == "Any" {
			return nil, python.Errorf(python.TypeErrorType, "type 'Any' is not subscriptable")
		}
		return nil, python.Errorf(python.TypeErrorType, "typing.%s is not subscriptable", f.name)
	}
	return f.getitem(t, f, key)
}

// PyCall refuses to instantiate a form.
func (f *form) PyCall(*python.Thread, []python.Object, []python.Kwarg) (python.Object, error) {
	if f.name == "Any" {
		return nil, python.Errorf(python.TypeErrorType, "Any cannot be instantiated")
	}
	return nil, python.Errorf(python.TypeErrorType, "Cannot instantiate typing.%s", f.name)
}

// InstanceCheck refuses isinstance() with a form.
func (f *form) InstanceCheck(*python.Thread, python.Object) (bool, error) {
	return false, python.Errorf(python.TypeErrorType, "typing.%s cannot be used with isinstance()", f.name)
}

// MroEntries refuses a form as a base class.
func (f *form) MroEntries(*python.Thread) ([]*python.Type, error) {
	return nil, python.Errorf(python.TypeErrorType, "Cannot subclass typing.%s", f.name)
}

// PyBinary is form | x (a Union).
func (f *form) PyBinary(t *python.Thread, op syntax.Operator, other python.Object, reflected bool) (python.Object, error) {
	return unionOp(t, f, op, other, reflected)
}

// PyGetAttr gives __name__ and _name.
func (f *form) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	switch name {
	case "__name__", "_name":
		return python.NewStr(f.name), nil
	case "__module__":
		return python.NewStr("typing"), nil
	}
	return nil, nil
}

// single subscripts ClassVar, Final, TypeGuard, ... with one type.
func single(t *python.Thread, f *form, key python.Object) (python.Object, error) {
	arg, err := typeCheck(t, key, "typing."+f.name+" accepts only single type.")
	if err != nil {
		return nil, err
	}
	return &alias{kind: kindForm, name: f.name, form: f, args: []python.Object{arg}}, nil
}

func newForms() map[string]*form {
	forms := map[string]*form{}
	add := func(f *form) { forms[f.name] = f }
	for _, n := range []string{"Any", "NoReturn", "Never", "Self", "LiteralString", "TypeAlias"} {
		add(&form{name: n, plainOK: true})
	}
	for _, n := range []string{"ClassVar", "Final"} {
		add(&form{name: n, plainOK: true, getitem: single})
	}
	for _, n := range []string{"TypeGuard", "Required", "NotRequired", "Unpack"} {
		add(&form{name: n, getitem: single})
	}
	unionForm = &form{name: "Union", getitem: func(t *python.Thread, f *form, key python.Object) (python.Object, error) {
		return makeUnion(t, tupleArgs(key))
	}}
	add(unionForm)
	optionalForm = &form{name: "Optional", getitem: func(t *python.Thread, f *form, key python.Object) (python.Object, error) {
		arg, err := typeCheck(t, key, "typing.Optional requires a single type.")
		if err != nil {
			return nil, err
		}
		return makeUnion(t, []python.Object{arg, python.NoneTypeType})
	}}
	add(optionalForm)
	literalForm = &form{name: "Literal", getitem: func(t *python.Thread, f *form, key python.Object) (python.Object, error) {
		var vals []python.Object
		for _, v := range tupleArgs(key) {
			dup := false
			for _, w := range vals {
				if v.Type() != w.Type() {
					continue
				}
				eq, err := python.Equal(t, v, w)
				if err != nil {
					return nil, err
				}
				if eq {
					dup = true
					break
				}
			}
			if !dup {
				vals = append(vals, v)
			}
		}
		if tu, ok := key.(*python.Tuple); ok && len(tu.Items()) == 0 {
			vals = []python.Object{}
		}
		return &alias{kind: kindLiteral, name: "Literal", args: vals}, nil
	}}
	add(literalForm)
	add(&form{name: "Concatenate", getitem: func(t *python.Thread, f *form, key python.Object) (python.Object, error) {
		return &alias{kind: kindForm, name: "Concatenate", form: f, args: tupleArgs(key)}, nil
	}})
	return forms
}

// specials lists the aliases of collections: name, origin module and
// class, arity (-1 Tuple, -2 Callable) and whether instances may be made.
var specials = []struct {
	name, module, class string
	n                   int
	inst                bool
}{
	{"List", "", "list", 1, false}, {"Dict", "", "dict", 2, false}, {"Set", "", "set", 1, false},
	{"FrozenSet", "", "frozenset", 1, false}, {"Tuple", "", "tuple", -1, false}, {"Type", "", "type", 1, false},
	{"Callable", "collections.abc", "Callable", -2, true},
	{"DefaultDict", "collections", "defaultdict", 2, true}, {"OrderedDict", "collections", "OrderedDict", 2, true},
	{"Counter", "collections", "Counter", 1, true}, {"ChainMap", "collections", "ChainMap", 2, true},
	{"Deque", "collections", "deque", 1, true},
	{"Iterable", "collections.abc", "Iterable", 1, true}, {"Iterator", "collections.abc", "Iterator", 1, true},
	{"Sequence", "collections.abc", "Sequence", 1, true}, {"MutableSequence", "collections.abc", "MutableSequence", 1, true},
	{"Mapping", "collections.abc", "Mapping", 2, true}, {"MutableMapping", "collections.abc", "MutableMapping", 2, true},
	{"AbstractSet", "collections.abc", "Set", 1, true}, {"MutableSet", "collections.abc", "MutableSet", 1, true},
	{"Collection", "collections.abc", "Collection", 1, true}, {"Container", "collections.abc", "Container", 1, true},
	{"Reversible", "collections.abc", "Reversible", 1, true}, {"Generator", "collections.abc", "Generator", 3, true},
	{"AsyncGenerator", "collections.abc", "AsyncGenerator", 2, true}, {"AsyncIterator", "collections.abc", "AsyncIterator", 1, true},
	{"AsyncIterable", "collections.abc", "AsyncIterable", 1, true}, {"Awaitable", "collections.abc", "Awaitable", 1, true},
	{"Coroutine", "collections.abc", "Coroutine", 3, true}, {"KeysView", "collections.abc", "KeysView", 1, true},
	{"ItemsView", "collections.abc", "ItemsView", 2, true}, {"ValuesView", "collections.abc", "ValuesView", 1, true},
	{"MappingView", "collections.abc", "MappingView", 1, true}, {"Hashable", "collections.abc", "Hashable", 0, true},
	{"Sized", "collections.abc", "Sized", 0, true},
	{"ContextManager", "contextlib", "AbstractContextManager", 1, true},
	{"AsyncContextManager", "contextlib", "AbstractAsyncContextManager", 1, true},
	{"Pattern", "re", "Pattern", 1, true}, {"Match", "re", "Match", 1, true},
}

// builtinOrigins are the built-in classes typing's aliases stand for, by
// name (made by initTypes).
var builtinOrigins map[string]*python.Type

func specialAlias(name, module, class string, n int, inst bool) *alias {
	o := &origin{module: module, name: class}
	if module == "" {
		o.typ = builtinOrigins[class]
	}
	kind := kindGeneric
	switch n {
	case -1:
		kind = kindTuple
	case -2:
		kind = kindCallable
	}
	return &alias{kind: kind, name: name, orig: o, special: true, nparams: n, inst: inst}
}

// subscriptSpecial is typing.List[int] and the like.
func subscriptSpecial(t *python.Thread, a *alias, key python.Object) (python.Object, error) {
	switch a.kind {
	case kindTuple:
		var args []python.Object
		if tu, ok := key.(*python.Tuple); ok && len(tu.Items()) == 0 {
			args = []python.Object{}
		} else {
			for _, x := range tupleArgs(key) {
				if x == python.Ellipsis {
					args = append(args, x)
					continue
				}
				v, err := typeCheck(t, x, "Tuple[t0, t1, ...]: each t must be a type.")
				if err != nil {
					return nil, err
				}
				args = append(args, v)
			}
		}
		return &alias{kind: kindTuple, name: a.name, orig: a.orig, args: args, inst: a.inst}, nil
	case kindCallable:
		tu, ok := key.(*python.Tuple)
		if !ok || len(tu.Items()) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "Callable must be used as Callable[[arg, ...], result].")
		}
		params, result := tu.Items()[0], tu.Items()[1]
		var args []python.Object
		switch p := params.(type) {
		case *python.List:
			for _, x := range p.Items() {
				v, err := typeCheck(t, x, "Callable[[arg, ...], result]: each arg must be a type.")
				if err != nil {
					return nil, err
				}
				args = append(args, v)
			}
		default:
			if params == python.Ellipsis {
				args = []python.Object{python.Ellipsis}
			} else {
				v, err := typeCheck(t, params, "Callable[[arg, ...], result]: each arg must be a type.")
				if err != nil {
					return nil, err
				}
				args = []python.Object{v}
			}
		}
		r, err := typeCheck(t, result, "Callable[args, result]: result must be a type.")
		if err != nil {
			return nil, err
		}
		return &alias{kind: kindCallable, name: a.name, orig: a.orig, args: append(args, r), inst: a.inst}, nil
	}
	vals := tupleArgs(key)
	if a.nparams == 0 {
		return nil, python.Errorf(python.TypeErrorType, "typing.%s is not a generic class", a.name)
	}
	if len(vals) != a.nparams {
		word := "many"
		if len(vals) < a.nparams {
			word = "few"
		}
		return nil, python.Errorf(python.TypeErrorType, "Too %s arguments for typing.%s; actual %d, expected %d", word, a.name, len(vals), a.nparams)
	}
	args := make([]python.Object, len(vals))
	for i, v := range vals {
		r, err := typeCheck(t, v, "Parameters to generic types must be types.")
		if err != nil {
			return nil, err
		}
		args[i] = r
	}
	return &alias{kind: a.kind, name: a.name, orig: a.orig, args: args, inst: a.inst}, nil
}

// forwardRef is typing.ForwardRef('Name'), what a str annotation argument
// becomes.
type forwardRef struct {
	arg string
}

func newForwardRef(s string) *forwardRef { return &forwardRef{arg: s} }

// Type returns typing.ForwardRef.
func (f *forwardRef) Type() *python.Type { return forwardRefType }

// PyRepr renders ForwardRef('Name').
func (f *forwardRef) PyRepr(t *python.Thread) (string, error) {
	return "ForwardRef(" + python.StrRepr(f.arg) + ")", nil
}

// PyHash hashes the name.
func (f *forwardRef) PyHash(t *python.Thread) (int64, error) {
	return python.Hash(t, python.NewStr("ForwardRef:"+f.arg))
}

// PyCompare compares the names.
func (f *forwardRef) PyCompare(t *python.Thread, op python.CmpOp, other python.Object) (python.Object, error) {
	o, ok := other.(*forwardRef)
	if !ok || op != python.CmpEq && op != python.CmpNe {
		return python.NotImplemented, nil
	}
	return python.MakeBool((f.arg == o.arg) == (op == python.CmpEq)), nil
}

// PyGetAttr gives __forward_arg__.
func (f *forwardRef) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	if name == "__forward_arg__" {
		return python.NewStr(f.arg), nil
	}
	return nil, nil
}

// PyBinary is ref | x.
func (f *forwardRef) PyBinary(t *python.Thread, op syntax.Operator, other python.Object, reflected bool) (python.Object, error) {
	return unionOp(t, f, op, other, reflected)
}

// fn is a Go function with a Python function's type name (NamedTuple and
// TypedDict are functions in CPython) that may be a base class.
type fn struct {
	name  string
	call  python.BuiltinFunc
	bases func(t *python.Thread) ([]*python.Type, error)
	id    int64
}

// Type returns function.
func (f *fn) Type() *python.Type { return python.FunctionType }

// PyCall calls it.
func (f *fn) PyCall(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	return f.call(t, args, kwargs)
}

// MroEntries is its use as a base class.
func (f *fn) MroEntries(t *python.Thread) ([]*python.Type, error) {
	if f.bases == nil {
		return nil, python.Errorf(python.TypeErrorType, "bases must be types")
	}
	return f.bases(t)
}

// PyHash hashes by identity.
func (f *fn) PyHash(*python.Thread) (int64, error) {
	if f.id == 0 {
		f.id = newID()
	}
	return f.id, nil
}

// PyRepr renders <function NamedTuple at 0x...>.
func (f *fn) PyRepr(t *python.Thread) (string, error) {
	h, _ := f.PyHash(t)
	return fmt.Sprintf("<function %s at 0x7f%010x>", f.name, h), nil
}

// PyGetAttr gives __name__.
func (f *fn) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	switch name {
	case "__name__", "__qualname__":
		return python.NewStr(f.name), nil
	case "__module__":
		return python.NewStr("typing"), nil
	}
	return nil, nil
}

func initTypes() {
	typesOnce.Do(func() {
		builtinOrigins = map[string]*python.Type{}
		for _, c := range []*python.Type{python.ListType, python.DictType, python.SetType, python.FrozenSetType, python.TupleType, python.TypeType} {
			builtinOrigins[c.Name()] = c
		}
		formType = python.NewBuiltinType("_SpecialForm", "typing", nil, nil)
		specialAliasType = python.NewBuiltinType("_SpecialGenericAlias", "typing", nil, nil)
		genericAliasType = python.NewBuiltinType("_GenericAlias", "typing", nil, nil)
		unionAliasType = python.NewBuiltinType("_UnionGenericAlias", "typing", genericAliasType, nil)
		callableAliasType = python.NewBuiltinType("_CallableGenericAlias", "typing", genericAliasType, nil)
		literalAliasType = python.NewBuiltinType("_LiteralGenericAlias", "typing", genericAliasType, nil)
		annotatedAliasType = python.NewBuiltinType("_AnnotatedAlias", "typing", genericAliasType, nil)
		forwardRefType = python.NewBuiltinType("ForwardRef", "typing", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			v, err := python.UnpackArgs("ForwardRef", args, kwargs, 1, "arg", "is_argument", "module", "*", "is_class")
			if err != nil {
				return nil, err
			}
			s, ok := v[0].(*python.Str)
			if !ok {
				r, _ := python.Repr(t, v[0])
				return nil, python.Errorf(python.TypeErrorType, "Forward reference must be a string -- got %s", r)
			}
			return newForwardRef(s.String()), nil
		})
		for _, c := range []*python.Type{formType, specialAliasType, genericAliasType, unionAliasType, callableAliasType, literalAliasType, annotatedAliasType, forwardRefType} {
			c.SetFinal()
		}
		initTypeVar()
		initGeneric()
		initNamedTuple()
		initTypedDict()
		newTypeType = python.NewBuiltinType("NewType", "typing", nil, newNewType)
	})
}

func load(in *python.Interp) (*python.Module, error) {
	initTypes()
	m := python.NewModule("typing")
	forms := newForms()
	for n, f := range forms {
		m.Set(n, f)
	}
	for _, s := range specials {
		m.Set(s.name, specialAlias(s.name, s.module, s.class, s.n, s.inst))
	}
	m.Set("Text", python.StrType)
	m.Set("AnyStr", &typeVar{name: "AnyStr", bound: python.None, constraints: []python.Object{python.BytesType, python.StrType}})
	m.Set("TYPE_CHECKING", python.False)
	m.Set("TypeVar", typeVarType)
	m.Set("ParamSpec", paramSpecType)
	m.Set("Generic", genericType)
	m.Set("Protocol", protocolType)
	m.Set("Annotated", annotatedType)
	m.Set("ForwardRef", forwardRefType)
	m.Set("NewType", newTypeType)
	m.Set("NamedTuple", &fn{name: "NamedTuple", call: namedTupleCall, bases: func(*python.Thread) ([]*python.Type, error) {
		return []*python.Type{ntBase}, nil
	}})
	m.Set("TypedDict", &fn{name: "TypedDict", call: typedDictCall, bases: func(*python.Thread) ([]*python.Type, error) {
		return []*python.Type{tdBase}, nil
	}})
	funcs := map[string]python.BuiltinFunc{
		"cast":                cast,
		"overload":            overload,
		"final":               marker("__final__"),
		"override":            marker("__override__"),
		"no_type_check":       marker("__no_type_check__"),
		"runtime_checkable":   runtimeCheckable,
		"get_origin":          getOrigin,
		"get_args":            getArgs,
		"get_type_hints":      getTypeHints,
		"assert_never":        assertNever,
		"assert_type":         assertType,
		"reveal_type":         revealType,
		"is_typeddict":        isTypedDict,
		"dataclass_transform": dataclassTransform,
	}
	for n, f := range funcs {
		m.Func(n, f)
	}
	return m, nil
}
