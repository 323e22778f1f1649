package repl

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/repl/internal/pymod"
)

// pyClass is a Python type object: the value of str, int, list, ... and of
// type(x). It is callable when it has a constructor, has __name__, prints as
// <class 'int'>, and compares by name, so type(x) == str and
// type(x).__name__ work.
type pyClass struct {
	name string
	fn   starlark.Callable // nil: not constructible from code mode
}

var (
	_ starlark.Callable   = (*pyClass)(nil)
	_ starlark.HasAttrs   = (*pyClass)(nil)
	_ starlark.Comparable = (*pyClass)(nil)
)

func (c *pyClass) String() string        { return "<class '" + c.name + "'>" }
func (c *pyClass) Type() string          { return "type" }
func (c *pyClass) Freeze()               {}
func (c *pyClass) Truth() starlark.Bool  { return true }
func (c *pyClass) Hash() (uint32, error) { return starlark.String(c.name).Hash() }
func (c *pyClass) Name() string          { return c.name }
func (c *pyClass) AttrNames() []string   { return []string{"__name__"} }
func (c *pyClass) Attr(name string) (starlark.Value, error) {
	if name == "__name__" {
		return starlark.String(c.name), nil
	}
	return c.unboundMethod(name), nil
}

// classZero holds a value of each built-in class whose methods can be read
// off the class (str.upper, dict.get): the unbound method's receiver must
// be of that class.
var classZero = map[string]func() starlark.Value{
	"str":   func() starlark.Value { return starlark.String("") },
	"list":  func() starlark.Value { return starlark.NewList(nil) },
	"dict":  func() starlark.Value { return starlark.NewDict(0) },
	"set":   func() starlark.Value { return starlark.NewSet(0) },
	"tuple": func() starlark.Value { return starlark.Tuple{} },
	"bytes": func() starlark.Value { return starlark.Bytes("") },
}

// unboundMethod is CLASS.NAME for a built-in class: a function whose first
// argument is the receiver (map(str.strip, xs), key=str.lower), or
// dict.fromkeys. nil when the class has no such method.
func (c *pyClass) unboundMethod(name string) starlark.Value {
	zero, ok := classZero[c.name]
	if !ok {
		return nil
	}
	if c.name == "dict" && name == "fromkeys" {
		return starlark.NewBuiltin("dict.fromkeys", dictFromKeys)
	}
	if !methods[name] {
		if ha, ok := zero().(starlark.HasAttrs); !ok {
			return nil
		} else if m, err := ha.Attr(name); err != nil || m == nil {
			return nil
		}
	}
	shim := methodShim(name)
	cls := c.name
	return starlark.NewBuiltin(cls+"."+name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pymod.Errorf("TypeError", "unbound method %s.%s() needs an argument", cls, name)
		}
		if got := pyType(args[0]); got != cls {
			return nil, pymod.Errorf("TypeError", "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name, cls, got)
		}
		return shim(thread, b, args, kwargs)
	})
}

// dictFromKeys is dict.fromkeys(iterable, value=None).
func dictFromKeys(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var v starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &it, &v); err != nil {
		return nil, err
	}
	d := starlark.NewDict(0)
	err := pymod.Iterate(it, func(k starlark.Value) error {
		if err := pymod.CheckSize(thread, "dict.fromkeys's result", int64(d.Len()+1)*pymod.ElemBytes); err != nil {
			return err
		}
		return d.SetKey(k, v)
	})
	return d, err
}

func (c *pyClass) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*pyClass)
	switch op {
	case syntax.EQL:
		return c.name == o.name, nil
	case syntax.NEQ:
		return c.name != o.name, nil
	}
	return false, pymod.Errorf("TypeError", "'%s' not supported between instances of 'type' and 'type'", op)
}

func (c *pyClass) CallInternal(thread *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if c.fn == nil {
		return nil, pymod.Errorf("TypeError", "cannot create '%s' instances", c.name)
	}
	return starlark.Call(thread, c.fn, args, kwargs)
}

// pyTypeNames maps Starlark type names to Python class names.
var pyTypeNames = map[string]string{
	"string": "str", "int": "int", "float": "float", "bool": "bool", "list": "list",
	"dict": "dict", "tuple": "tuple", "set": "set", "bytes": "bytes", "NoneType": "NoneType",
	"function": "function", "builtin_function_or_method": "builtin_function_or_method",
}

// builtinType is type(x): the class object of x (the same value as the
// predeclared str, int, ... for the built-in types).
func builtinType(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("type", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	name := x.Type()
	if n, ok := pyTypeNames[name]; ok {
		name = n
	}
	if _, ok := x.(*starlark.Builtin); ok {
		name = "builtin_function_or_method"
	}
	if c := cellOf(thread); c != nil {
		if cls, ok := c.it.globals[name].(*pyClass); ok {
			return cls, nil
		}
	}
	if name == "type" {
		return &pyClass{name: "type"}, nil
	}
	return &pyClass{name: name}, nil
}
