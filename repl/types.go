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
	return nil, nil
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
