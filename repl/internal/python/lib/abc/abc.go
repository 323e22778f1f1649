// Package abc is code mode's abc module: ABC and ABCMeta, abstractmethod
// (and the old abstractproperty, abstractclassmethod and
// abstractstaticmethod), register and __subclasshook__ for isinstance and
// issubclass, get_cache_token and update_abstractmethods. Instantiating a
// class with abstract methods raises CPython 3.12's TypeError (the
// interpreter checks the abstract methods python.SetAbstract marks).
//
// A class made with metaclass=ABCMeta but no ABC base consults its
// registry only once register() has been called on it, and its
// __subclasshook__ not at all: the interpreter gives metaclasses no hook
// for isinstance.
package abc

import (
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes abc importable.
func Register() {
	python.Setup()
	python.RegisterModule("abc", load)
	python.RegisterModule("_abc", load)
}

var (
	typesOnce sync.Once
	metaType  *python.Type
	abcType   *python.Type
	hooks     *python.TypeHooks
	token     atomic.Int64
)

// The classes register() adds to a class are kept in its dict, under
// _abc_registry (a list).
const registryKey = "_abc_registry"

func registryOf(cls *python.Type) []*python.Type {
	v, ok := cls.Dict().GetStr(registryKey)
	if !ok {
		return nil
	}
	l, ok := v.(*python.List)
	if !ok {
		return nil
	}
	var out []*python.Type
	for _, x := range l.Items() {
		if c, ok := x.(*python.Type); ok {
			out = append(out, c)
		}
	}
	return out
}

func initTypes() {
	metaType = python.ABCMetaType
	metaType.AddMethod("register", register)
	metaType.AddMethod("_abc_registry_clear", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if c, ok := args[0].(*python.Type); ok {
			c.SetAttr(registryKey, python.NewList(nil))
		}
		return python.None, nil
	})
	hooks = &python.TypeHooks{
		InstanceCheck: func(t *python.Thread, cls *python.Type, x python.Object) (bool, error) {
			return subclassCheck(t, cls, x.Type(), 0)
		},
		SubclassCheck: func(t *python.Thread, cls, c *python.Type) (bool, error) {
			return subclassCheck(t, cls, c, 0)
		},
	}
	abcType = python.NewBuiltinType("ABC", "abc", nil, nil)
	abcType.SetMeta(metaType)
	abcType.SetAttr("__slots__", python.NewTuple(nil))
	abcType.Hooks = hooks
}

// register is ABCMeta.register(cls, subclass).
func register(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 2 || len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "register() takes 2 positional arguments but %d were given", len(args))
	}
	cls, ok := args[0].(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "register() needs a class")
	}
	sub, ok := args[1].(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "Can only register classes")
	}
	if sub.IsSubtype(cls) {
		return sub, nil
	}
	if cls.IsSubtype(sub) {
		return nil, python.Errorf(python.RuntimeErrorType, "Refusing to create an inheritance cycle")
	}
	l, ok := cls.Dict().GetStr(registryKey)
	lst, isList := l.(*python.List)
	if !ok || !isList {
		lst = python.NewList(nil)
		cls.SetAttr(registryKey, lst)
	}
	lst.Append(sub)
	if cls.Hooks == nil {
		cls.Hooks = hooks
	}
	token.Add(1)
	return sub, nil
}

// subclassCheck is ABCMeta.__subclasscheck__: a real subclass, then
// __subclasshook__, then the registries of cls and its ABC bases.
func subclassCheck(t *python.Thread, cls, c *python.Type, depth int) (bool, error) {
	if depth > 50 {
		return false, python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded in __subclasscheck__")
	}
	if c.IsSubtype(cls) {
		return true, nil
	}
	if hook, ok := userAttr(cls, "__subclasshook__"); ok && hook != nil {
		fn, err := python.GetAttr(t, cls, "__subclasshook__")
		if err != nil {
			return false, err
		}
		r, err := python.Call(t, fn, []python.Object{c}, nil)
		if err != nil {
			return false, err
		}
		if r != python.NotImplemented {
			b, ok := r.(python.Bool)
			if !ok {
				return false, python.Errorf(python.AssertionErrorType, "__subclasshook__ must return either False, True, or NotImplemented")
			}
			return bool(b), nil
		}
	}
	{
		for _, reg := range registryOf(cls) {
			if c.IsSubtype(reg) {
				return true, nil
			}
			if reg.Hooks == hooks {
				ok, err := subclassCheck(t, reg, c, depth+1)
				if err != nil || ok {
					return ok, err
				}
			}
		}
	}
	return false, nil
}

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

func load(in *python.Interp) (*python.Module, error) {
	typesOnce.Do(initTypes)
	m := python.NewModule("abc")
	m.Set("ABCMeta", metaType)
	m.Set("ABC", abcType)
	m.Func("abstractmethod", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		f, err := oneArg("abstractmethod", "funcobj", args, kwargs)
		if err != nil {
			return nil, err
		}
		python.SetAbstract(f)
		if err := python.SetAttr(t, f, "__isabstractmethod__", python.True); err != nil && !python.IsInstance(err, python.AttributeErrorType) && !python.IsInstance(err, python.TypeErrorType) {
			return nil, err
		}
		return f, nil
	})
	m.Func("abstractproperty", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) == 0 || len(args) > 4 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "abstractproperty() takes from 1 to 4 positional arguments")
		}
		var fset python.Object = python.None
		if len(args) > 1 {
			fset = args[1]
		}
		p := python.NewProperty(args[0], fset)
		python.SetAbstract(p)
		return p, nil
	})
	m.Func("abstractclassmethod", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		f, err := oneArg("abstractclassmethod", "callable", args, kwargs)
		if err != nil {
			return nil, err
		}
		python.SetAbstract(f)
		return python.NewClassMethodOf(f), nil
	})
	m.Func("abstractstaticmethod", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		f, err := oneArg("abstractstaticmethod", "callable", args, kwargs)
		if err != nil {
			return nil, err
		}
		python.SetAbstract(f)
		return python.NewStaticMethod(f), nil
	})
	m.Func("get_cache_token", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "get_cache_token() takes no arguments (%d given)", len(args)+len(kwargs))
		}
		return python.MakeInt(token.Load()), nil
	})
	m.Func("update_abstractmethods", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		c, err := oneArg("update_abstractmethods", "cls", args, kwargs)
		if err != nil {
			return nil, err
		}
		return c, nil
	})
	return m, nil
}

func oneArg(fn, name string, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(kwargs) == 1 && len(args) == 0 && kwargs[0].Name == name {
		return kwargs[0].Value, nil
	}
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", fn, kwargs[0].Name)
	}
	if len(args) != 1 {
		if len(args) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: '%s'", fn, name)
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes 1 positional argument but %d were given", fn, len(args))
	}
	return args[0], nil
}
