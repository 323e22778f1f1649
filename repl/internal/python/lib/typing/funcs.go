package typing

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// TypedDict: `class M(TypedDict)` makes M a subclass of a hidden dict
// subclass whose hooks record the keys when the class is created and make
// M(...) a plain dict, as CPython does.

func initTypedDict() {
	tdBase = python.NewBuiltinType("TypedDict", "typing", python.DictType, nil)
	tdBase.Hooks = &python.TypeHooks{
		Keywords: tdKeywords,
		Created:  tdCreated,
		Call: func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return python.Call(t, python.DictType, args, kwargs)
		},
		InstanceCheck: func(t *python.Thread, cls *python.Type, x python.Object) (bool, error) {
			return false, python.Errorf(python.TypeErrorType, "TypedDict does not support instance and class checks")
		},
		SubclassCheck: func(t *python.Thread, cls, c *python.Type) (bool, error) {
			return false, python.Errorf(python.TypeErrorType, "TypedDict does not support instance and class checks")
		},
	}
}

// tdKeywords takes the class keyword total= (class P(TypedDict,
// total=False)), as _TypedDictMeta.__new__ does; others go on to
// __init_subclass__.
func tdKeywords(t *python.Thread, cls *python.Type, kwargs []python.Kwarg) ([]python.Kwarg, error) {
	var rest []python.Kwarg
	for _, kw := range kwargs {
		if kw.Name == "total" {
			cls.SetAttr("__total__", kw.Value)
			continue
		}
		rest = append(rest, kw)
	}
	return rest, nil
}

// tdCreated merges the annotations of the class and its TypedDict bases
// and records the required and optional keys.
func tdCreated(t *python.Thread, cls *python.Type) error {
	d := cls.Dict()
	own := python.NewDict(4)
	if v, ok := d.GetStr("__annotations__"); ok {
		if ad, ok := v.(*python.Dict); ok {
			own = ad
		}
	}
	total := true
	if v, ok := d.GetStr("__total__"); ok {
		b, err := python.TruthE(t, v)
		if err != nil {
			return err
		}
		total = b
	}
	all := python.NewDict(own.Len())
	req, opt := python.NewSet(true), python.NewSet(true)
	bases := cls.MRO()
	for i := len(bases) - 1; i >= 1; i-- {
		b := bases[i]
		if b.IsBuiltin() {
			continue
		}
		if v, ok := b.Dict().GetStr("__annotations__"); ok {
			if ad, ok := v.(*python.Dict); ok {
				var err error
				ad.Items(func(k, val python.Object) bool {
					err = all.Set(t, k, val)
					return err == nil
				})
				if err != nil {
					return err
				}
			}
		}
		for _, n := range []string{"__required_keys__", "__optional_keys__"} {
			if v, ok := b.Dict().GetStr(n); ok {
				dst := req
				if n == "__optional_keys__" {
					dst = opt
				}
				if err := dst.Update(t, v); err != nil {
					return err
				}
			}
		}
	}
	var err error
	own.Items(func(k, val python.Object) bool {
		if err = all.Set(t, k, val); err != nil {
			return false
		}
		if total {
			err = req.Add(t, k)
		} else {
			err = opt.Add(t, k)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	d.SetStr("__annotations__", all)
	d.SetStr("__required_keys__", req)
	d.SetStr("__optional_keys__", opt)
	d.SetStr("__total__", python.MakeBool(total))
	return nil
}

// typedDictCall is TypedDict(typename, fields=None, /, *, total=True).
func typedDictCall(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) < 1 {
		return nil, python.Errorf(python.TypeErrorType, "TypedDict() missing 1 required positional argument: 'typename'")
	}
	if len(args) > 2 {
		return nil, python.Errorf(python.TypeErrorType, "TypedDict() takes from 1 to 2 positional arguments but %d were given", len(args))
	}
	name, ok := args[0].(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "type.__new__() argument 1 must be str, not %s", python.TypeName(args[0]))
	}
	anns := python.NewDict(4)
	if len(args) == 2 && args[1] != python.None {
		fd, ok := args[1].(*python.Dict)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "TypedDict fields must be a dict")
		}
		var err error
		fd.Items(func(k, v python.Object) bool {
			var tp python.Object
			if tp, err = typeCheck(t, v, "TypedDict('Name', {f0: t0, f1: t1, ...}); each t must be a type"); err != nil {
				return false
			}
			err = anns.Set(t, k, tp)
			return err == nil
		})
		if err != nil {
			return nil, err
		}
	}
	total := python.True
	for _, kw := range kwargs {
		if kw.Name != "total" {
			return nil, python.Errorf(python.TypeErrorType, "TypedDict() got an unexpected keyword argument '%s'", kw.Name)
		}
		b, err := python.TruthE(t, kw.Value)
		if err != nil {
			return nil, err
		}
		total = python.MakeBool(b)
	}
	ns := python.NewDict(4)
	ns.SetStr("__annotations__", anns)
	ns.SetStr("__module__", callerModule(t))
	ns.SetStr("__total__", total)
	return python.NewClass(t, nil, name.String(), []*python.Type{tdBase}, ns)
}

func isTypedDict(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 1 {
		return nil, python.Errorf(python.TypeErrorType, "is_typeddict() takes 1 positional argument but %d were given", len(args))
	}
	c, ok := args[0].(*python.Type)
	return python.MakeBool(ok && c != tdBase && c.IsSubtype(tdBase)), nil
}

func cast(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("cast", []string{"typ", "val"}, 2, args, kwargs)
	if err != nil {
		return nil, err
	}
	return v[1], nil
}

// pyArgs binds the arguments of a function CPython defines in Python.
func pyArgs(name string, params []string, required int, args []python.Object, kwargs []python.Kwarg) ([]python.Object, error) {
	if len(args) > len(params) {
		takes := itoa(len(params))
		if required < len(params) {
			takes = "from " + itoa(required) + " to " + itoa(len(params))
		}
		word := "arguments"
		if len(params) == 1 && required == 1 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", name, takes, word, len(args), was)
	}
	out := make([]python.Object, len(params))
	copy(out, args)
	for _, kw := range kwargs {
		i := index(params, kw.Name)
		if i < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if out[i] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		out[i] = kw.Value
	}
	var missing []string
	for i := 0; i < required; i++ {
		if out[i] == nil {
			missing = append(missing, "'"+params[i]+"'")
		}
	}
	if len(missing) > 0 {
		return nil, missingArgs(name, missing)
	}
	return out, nil
}

const overloadMsg = "You should not call an overloaded function. A series of @overload-decorated functions outside a stub module should always be followed by an implementation that is not @overload-ed."

// overload is @overload: the decorated function is replaced by one that
// refuses to be called; the final, undecorated definition replaces it.
func overload(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if _, err := pyArgs("overload", []string{"func"}, 1, args, kwargs); err != nil {
		return nil, err
	}
	return python.NewBuiltin("_overload_dummy", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.Errorf(python.NotImplementedErrorType, "%s", overloadMsg)
	}), nil
}

// marker returns a decorator that sets attr = True on its argument (when
// it can) and returns it: final, override, no_type_check.
func marker(attr string) python.BuiltinFunc {
	return func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "decorator takes 1 positional argument but %d were given", len(args))
		}
		x := args[0]
		switch x.(type) {
		case *python.Function, *python.Type, *python.Instance:
			if c, ok := x.(*python.Type); ok && c.IsBuiltin() {
				return x, nil
			}
			if err := python.SetAttr(t, x, attr, python.True); err != nil && !python.IsInstance(err, python.AttributeErrorType) && !python.IsInstance(err, python.TypeErrorType) {
				return nil, err
			}
		}
		return x, nil
	}
}

func dataclassTransform(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "dataclass_transform() takes 0 positional arguments but %d were given", len(args))
	}
	return python.NewBuiltin("decorator", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 {
			return nil, python.Errorf(python.TypeErrorType, "decorator() takes 1 positional argument but %d were given", len(args))
		}
		return args[0], nil
	}), nil
}

// getOrigin is get_origin(tp).
func getOrigin(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("get_origin", []string{"tp"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	switch tp := v[0].(type) {
	case *alias:
		if tp.kind == kindAnnotated {
			return annotatedType, nil
		}
		return tp.PyGetAttr(t, "__origin__")
	case *python.Type:
		if tp == genericType {
			return genericType, nil
		}
	case *python.UnionType:
		return python.UnionTypeType, nil
	}
	if python.TypeName(v[0]) == "types.GenericAlias" || v[0].Type() == python.GenericAliasType {
		return python.GetAttr(t, v[0], "__origin__")
	}
	return python.None, nil
}

// getArgs is get_args(tp).
func getArgs(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("get_args", []string{"tp"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	switch tp := v[0].(type) {
	case *alias:
		if tp.special {
			return python.NewTuple(nil), nil
		}
		if tp.kind == kindAnnotated {
			return python.NewTuple(append([]python.Object{tp.args[0]}, tp.meta...)), nil
		}
		if tp.kind == kindCallable && !(len(tp.args) == 2 && tp.args[0] == python.Ellipsis) {
			params := append([]python.Object(nil), tp.args[:len(tp.args)-1]...)
			return python.NewTuple([]python.Object{python.NewList(params), tp.args[len(tp.args)-1]}), nil
		}
		return python.NewTuple(append([]python.Object(nil), tp.args...)), nil
	case *python.UnionType:
		return python.GetAttr(t, tp, "__args__")
	}
	if v[0].Type() == python.GenericAliasType {
		return python.GetAttr(t, v[0], "__args__")
	}
	return python.NewTuple(nil), nil
}

// getTypeHints is get_type_hints(obj, globalns=None, localns=None,
// include_extras=False): the annotations of obj (of a class's MRO, bases
// first), None as NoneType, strings evaluated in obj's globals, Annotated
// stripped unless include_extras.
func getTypeHints(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("get_type_hints", []string{"obj", "globalns", "localns", "include_extras"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	obj := v[0]
	extras := false
	if v[3] != nil {
		if extras, err = python.TruthE(t, v[3]); err != nil {
			return nil, err
		}
	}
	globalns := v[1]
	if globalns == python.None {
		globalns = nil
	}
	hints := python.NewDict(4)
	addFrom := func(anns python.Object, globals python.Object) error {
		d, ok := anns.(*python.Dict)
		if !ok {
			return nil
		}
		var err error
		d.Items(func(k, val python.Object) bool {
			if val == python.None {
				val = python.NoneTypeType
			} else if s, ok := val.(*python.Str); ok {
				if val, err = evalHint(t, s, globals); err != nil {
					return false
				}
			} else if f, ok := val.(*forwardRef); ok {
				if val, err = evalHint(t, python.NewStr(f.arg), globals); err != nil {
					return false
				}
			}
			if !extras {
				val = stripAnnotated(val)
			}
			err = hints.Set(t, k, val)
			return err == nil
		})
		return err
	}
	if cls, ok := obj.(*python.Type); ok {
		mro := cls.MRO()
		for i := len(mro) - 1; i >= 0; i-- {
			anns, ok := mro[i].Dict().GetStr("__annotations__")
			if !ok {
				continue
			}
			g := globalns
			if g == nil {
				g = t.Globals()
			}
			if err := addFrom(anns, g); err != nil {
				return nil, err
			}
		}
		return hints, nil
	}
	anns, err := python.GetAttr(t, obj, "__annotations__")
	if err != nil {
		if python.IsInstance(err, python.AttributeErrorType) {
			r, _ := python.Repr(t, obj)
			return nil, python.Errorf(python.TypeErrorType, "%s is not a module, class, method, or function.", r)
		}
		return nil, err
	}
	g := globalns
	if g == nil {
		if gv, err := python.GetAttr(t, obj, "__globals__"); err == nil {
			g = gv
		} else if m, ok := obj.(*python.Module); ok {
			g = m.Dict()
		} else {
			g = t.Globals()
		}
	}
	if err := addFrom(anns, g); err != nil {
		return nil, err
	}
	return hints, nil
}

func evalHint(t *python.Thread, s *python.Str, globals python.Object) (python.Object, error) {
	eval, _ := t.Interp().Builtins().GetStr("eval")
	r, err := python.Call(t, eval, []python.Object{s, globals}, nil)
	if err != nil {
		return nil, err
	}
	if r == python.None {
		return python.NoneTypeType, nil
	}
	return r, nil
}

func stripAnnotated(x python.Object) python.Object {
	if a, ok := x.(*alias); ok && !a.special {
		if a.kind == kindAnnotated {
			return stripAnnotated(a.args[0])
		}
		changed := false
		args := make([]python.Object, len(a.args))
		for i, arg := range a.args {
			args[i] = stripAnnotated(arg)
			if args[i] != arg {
				changed = true
			}
		}
		if changed {
			c := *a
			c.args = args
			return &c
		}
	}
	return x
}

func assertNever(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("assert_never", []string{"arg"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	r, err := python.Repr(t, v[0])
	if err != nil {
		return nil, err
	}
	if len(r) > 100 {
		r = r[:100] + "..."
	}
	return nil, python.Errorf(python.AssertionErrorType, "Expected code to be unreachable, but got: %s", r)
}

func assertType(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("assert_type", []string{"val", "typ"}, 2, args, kwargs)
	if err != nil {
		return nil, err
	}
	return v[0], nil
}

func revealType(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("reveal_type", []string{"obj"}, 1, args, kwargs)
	if err != nil {
		return nil, err
	}
	t.PrintErr("Runtime type is " + python.StrRepr(python.TypeName(v[0])) + "\n")
	return v[0], nil
}

// newType is NewType(name, tp): a callable returning its argument.
type newType struct {
	name   string
	super  python.Object
	module python.Object
	id     int64
}

// Type returns typing.NewType.
func (n *newType) Type() *python.Type { return newTypeType }

func newNewType(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	v, err := pyArgs("NewType.__init__", []string{"name", "tp"}, 2, args, kwargs)
	if err != nil {
		return nil, err
	}
	return &newType{name: python.StrValue(v[0]), super: v[1], module: callerModule(t)}, nil
}

// PyCall returns the argument.
func (n *newType) PyCall(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "NewType.__call__() takes 2 positional arguments but %d were given", len(args)+1)
	}
	return args[0], nil
}

// PyRepr renders module.Name.
func (n *newType) PyRepr(t *python.Thread) (string, error) {
	return python.StrValue(n.module) + "." + n.name, nil
}

// PyGetAttr gives __name__, __qualname__, __supertype__ and __module__.
func (n *newType) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	switch name {
	case "__name__", "__qualname__":
		return python.NewStr(n.name), nil
	case "__supertype__":
		return n.super, nil
	case "__module__":
		return n.module, nil
	}
	return nil, nil
}

// PyHash hashes by identity.
func (n *newType) PyHash(*python.Thread) (int64, error) {
	if n.id == 0 {
		n.id = newID()
	}
	return n.id, nil
}

// PyBinary is N | x.
func (n *newType) PyBinary(t *python.Thread, op syntaxOp, other python.Object, reflected bool) (python.Object, error) {
	return unionOp(t, n, op, other, reflected)
}

type syntaxOp = syntax.Operator
