package typing

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// Generic and Protocol are classes implemented in Go: Generic[T] is an
// alias whose base entry is Generic, a subclass's Stack[int] an alias of
// the subclass; Protocol's subclasses that list Protocol among their bases
// are protocols, which cannot be instantiated and support isinstance()
// only when @runtime_checkable (a structural check of their members).

func initGeneric() {
	genericType = python.NewBuiltinType("Generic", "typing", nil, nil)
	genericType.AddClassMethod("__class_getitem__", classGetItem)
	protocolType = python.NewBuiltinType("Protocol", "typing", genericType, nil)
	protocolType.Hooks = &python.TypeHooks{
		Created:       protocolCreated,
		Call:          protocolCall,
		InstanceCheck: protocolInstanceCheck,
	}
	protocolType.SetAttr("_is_protocol", python.True)
	annotatedType = python.NewBuiltinType("Annotated", "typing", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.Errorf(python.TypeErrorType, "Type Annotated cannot be instantiated.")
	})
	annotatedType.AddClassMethod("__class_getitem__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "__class_getitem__ takes exactly one argument")
		}
		vals := tupleArgs(args[1])
		if len(vals) < 2 {
			return nil, python.Errorf(python.TypeErrorType, "Annotated[...] should be used with at least two arguments (a type and an annotation).")
		}
		o, err := typeCheck(t, vals[0], "Annotated[t, ...]: t must be a type.")
		if err != nil {
			return nil, err
		}
		meta := append([]python.Object(nil), vals[1:]...)
		if inner, ok := o.(*alias); ok && inner.kind == kindAnnotated {
			o = inner.args[0]
			meta = append(append([]python.Object(nil), inner.meta...), meta...)
		}
		return &alias{kind: kindAnnotated, name: "Annotated", args: []python.Object{o}, meta: meta, orig: &origin{typ: annotatedType}, inst: true}, nil
	})
}

// classGetItem is Generic.__class_getitem__: Generic[T], Protocol[T], or
// a generic subclass's Stack[int].
func classGetItem(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 2 || len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "__class_getitem__ takes exactly one argument")
	}
	cls, _ := args[0].(*python.Type)
	vals := tupleArgs(args[1])
	if cls == genericType || cls == protocolType {
		if len(vals) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "Parameter list to %s[...] cannot be empty", cls.Name())
		}
		for _, v := range vals {
			if _, ok := v.(*typeVar); !ok {
				return nil, python.Errorf(python.TypeErrorType, "Parameters to %s[...] must all be type variables or parameter specification variables.", cls.Name())
			}
		}
		return &alias{kind: kindGeneric, name: cls.Name(), orig: &origin{typ: cls}, args: vals, inst: true}, nil
	}
	checked := make([]python.Object, len(vals))
	for i, v := range vals {
		r, err := typeCheck(t, v, "Parameters to generic types must be types.")
		if err != nil {
			return nil, err
		}
		checked[i] = r
	}
	return &alias{kind: kindGeneric, orig: &origin{typ: cls}, args: checked, inst: true}, nil
}

// userAttr finds name on the Python classes of cls's MRO.
func userAttr(cls *python.Type, name string) (python.Object, bool) {
	for _, c := range cls.MRO() {
		if c.IsBuiltin() {
			return nil, false
		}
		if v, ok := c.Dict().GetStr(name); ok {
			return v, true
		}
	}
	return nil, false
}

// instantiate does what calling a class does, for classes whose Hooks.Call
// only checks first: __new__ (the class's or object's), then __init__.
func instantiate(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	var obj python.Object
	var err error
	if _, ok := userAttr(cls, "__new__"); ok {
		nw, err := python.GetAttr(t, cls, "__new__")
		if err != nil {
			return nil, err
		}
		obj, err = python.Call(t, nw, append([]python.Object{cls}, args...), kwargs)
		if err != nil {
			return nil, err
		}
	} else {
		nw, err := python.GetAttr(t, cls.Solid(), "__new__")
		if err != nil {
			return nil, err
		}
		if obj, err = python.Call(t, nw, []python.Object{cls}, nil); err != nil {
			return nil, err
		}
	}
	if !obj.Type().IsSubtype(cls) {
		return obj, nil
	}
	if _, ok := userAttr(cls, "__init__"); !ok {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() takes no arguments", cls.Name())
		}
		return obj, nil
	}
	r, err := python.CallMethod(t, obj, "__init__", args, kwargs)
	if err != nil {
		return nil, err
	}
	if r != python.None {
		return nil, python.Errorf(python.TypeErrorType, "__init__() should return None, not '%s'", python.TypeName(r))
	}
	return obj, nil
}

func isProtocol(cls *python.Type) bool {
	v, ok := cls.Dict().GetStr("_is_protocol")
	return ok && v == python.True
}

// protocolCreated marks a class listing Protocol among its bases as a
// protocol.
func protocolCreated(t *python.Thread, cls *python.Type) error {
	if _, ok := cls.Dict().GetStr("_is_protocol"); ok {
		return nil
	}
	is := false
	for _, b := range cls.Bases() {
		if b == protocolType {
			is = true
		}
	}
	cls.SetAttr("_is_protocol", python.MakeBool(is))
	return nil
}

func protocolCall(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if isProtocol(cls) {
		return nil, python.Errorf(python.TypeErrorType, "Protocols cannot be instantiated")
	}
	return instantiate(t, cls, args, kwargs)
}

// protocolMembers lists the attributes a runtime protocol requires.
func protocolMembers(cls *python.Type) []string {
	skip := map[string]bool{"__module__": true, "__qualname__": true, "__doc__": true, "__dict__": true,
		"__weakref__": true, "_is_protocol": true, "_is_runtime_protocol": true, "__init__": true,
		"__annotations__": true, "__abstractmethods__": true, "__parameters__": true, "__orig_bases__": true,
		"__slots__": true, "__subclasshook__": true, "__class_getitem__": true, "__init_subclass__": true,
		"__protocol_attrs__": true, "__non_callable_proto_members__": true, "__match_args__": true}
	seen := map[string]bool{}
	var out []string
	for _, c := range cls.MRO() {
		if c.IsBuiltin() || !isProtocol(c) {
			continue
		}
		add := func(n string) {
			if !skip[n] && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
		for _, k := range c.Dict().Keys() {
			add(python.StrValue(k))
		}
		if anns, ok := c.Dict().GetStr("__annotations__"); ok {
			if d, ok := anns.(*python.Dict); ok {
				for _, k := range d.Keys() {
					add(python.StrValue(k))
				}
			}
		}
	}
	return out
}

func protocolInstanceCheck(t *python.Thread, cls *python.Type, x python.Object) (bool, error) {
	if !isProtocol(cls) {
		return x.Type().IsSubtype(cls), nil
	}
	if v, ok := cls.Dict().GetStr("_is_runtime_protocol"); !ok || v != python.True {
		return false, python.Errorf(python.TypeErrorType, "Instance and class checks can only be used with @runtime_checkable protocols")
	}
	if x.Type().IsSubtype(cls) {
		return true, nil
	}
	for _, n := range protocolMembers(cls) {
		ok, err := python.HasAttr(t, x, n)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// runtimeCheckable is @runtime_checkable.
func runtimeCheckable(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "runtime_checkable() takes 1 positional argument but %d were given", len(args))
	}
	cls, ok := args[0].(*python.Type)
	if !ok || !isProtocol(cls) {
		r, err := python.Repr(t, args[0])
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "@runtime_checkable can be only applied to protocol classes, got %s", r)
	}
	cls.SetAttr("_is_runtime_protocol", python.True)
	return cls, nil
}
