// Package types is code mode's types module: SimpleNamespace (repr,
// equality, attribute access, subclasses), MappingProxyType (a read-only
// view of any mapping, the type of a class's __dict__) and the
// interpreter's built-in types under their types names (FunctionType,
// MethodType, GeneratorType, ModuleType, NoneType, GenericAlias,
// UnionType, ...). Names of types code mode does not have (CodeType,
// FrameType, TracebackType, the coroutine types) and the class-building
// helpers are refused.
package types

import (
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes types importable.
func Register() {
	python.Setup()
	python.RegisterModule("types", load)
}

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("types")
	ns, err := newNamespaceClass()
	if err != nil {
		return nil, err
	}
	m.Set("SimpleNamespace", ns)
	m.Set("MappingProxyType", python.MappingProxyType)
	for name, c := range map[string]*python.Type{
		"FunctionType": python.FunctionType, "LambdaType": python.FunctionType,
		"BuiltinFunctionType": python.BuiltinFunctionType, "BuiltinMethodType": python.BuiltinFunctionType,
		"MethodType": python.MethodType, "ModuleType": python.ModuleType, "GeneratorType": python.GeneratorType,
		"NoneType": python.NoneTypeType, "NotImplementedType": python.NotImplementedTypeType,
		"EllipsisType": python.EllipsisTypeType, "GenericAlias": python.GenericAliasType, "UnionType": python.UnionTypeType,
		"CellType": python.CellType, "MethodDescriptorType": python.MethodDescriptorType, "GetSetDescriptorType": python.GetSetType,
	} {
		m.Set(name, c)
	}
	m.SetGetattr(func(t *python.Thread, name string) (python.Object, error) {
		if hint, ok := refused[name]; ok {
			return nil, python.NotSupported("types."+name, hint)
		}
		return nil, nil
	})
	return m, nil
}

var refused = map[string]string{
	"CodeType":                  "code objects are not available in code mode",
	"FrameType":                 "frames are not objects in code mode",
	"TracebackType":             "traceback objects are not available; use the traceback module",
	"CoroutineType":             "code mode runs no asynchronous code",
	"AsyncGeneratorType":        "code mode runs no asynchronous code",
	"coroutine":                 "code mode runs no asynchronous code",
	"MethodWrapperType":         "slot wrappers are not objects in code mode",
	"WrapperDescriptorType":     "slot wrappers are not objects in code mode",
	"ClassMethodDescriptorType": "built-in class method descriptors are not objects in code mode",
	"MemberDescriptorType":      "member descriptors are not objects in code mode",
	"DynamicClassAttribute":     "use property",
	"new_class":                 "write a class statement, or call type(name, bases, namespace)",
	"prepare_class":             "write a class statement",
	"resolve_bases":             "write a class statement",
	"get_original_bases":        "the original bases are not recorded in code mode",
}

// newNamespaceClass makes SimpleNamespace for one interpreter: a class as
// a class statement makes it, so that equality and the rest follow the
// protocols of Python classes.
func newNamespaceClass() (*python.Type, error) {
	d := python.NewDict(8)
	d.SetStr("__module__", python.NewStr("types"))
	cls, err := python.NewClass(nil, nil, "SimpleNamespace", nil, d)
	if err != nil {
		return nil, err
	}
	cls.SetAttr("__init__", python.NewMethod(cls, "__init__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) > 1 {
			return nil, python.Errorf(python.TypeErrorType, "no positional arguments expected")
		}
		inst := args[0].(*python.Instance)
		for _, kw := range kwargs {
			inst.Attrs().SetStr(kw.Name, kw.Value)
		}
		return python.None, nil
	}))
	cls.SetAttr("__repr__", python.NewMethod(cls, "__repr__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := args[0].(*python.Instance)
		name := "namespace"
		if inst.Type() != cls {
			name = inst.Type().Name()
		}
		if !enterRepr(t, inst) {
			return python.NewStr(name + "(...)"), nil
		}
		defer leaveRepr(t, inst)
		var b strings.Builder
		b.WriteString(name)
		b.WriteByte('(')
		first := true
		var err error
		inst.Attrs().Items(func(k, v python.Object) bool {
			ks, ok := k.(*python.Str)
			if !ok {
				return true
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			b.WriteString(ks.String())
			b.WriteByte('=')
			var r string
			if r, err = python.Repr(t, v); err != nil {
				return false
			}
			b.WriteString(r)
			return true
		})
		if err != nil {
			return nil, err
		}
		b.WriteByte(')')
		return python.NewStr(b.String()), nil
	}))
	cls.SetAttr("__eq__", python.NewMethod(cls, "__eq__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		a := args[0].(*python.Instance)
		b, ok := args[1].(*python.Instance)
		if !ok || !b.Type().IsSubtype(cls) {
			return python.NotImplemented, nil
		}
		eq, err := python.Equal(t, a.Attrs(), b.Attrs())
		return python.MakeBool(eq), err
	}))
	cls.SetAttr("__hash__", python.NewMethod(cls, "__hash__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.Errorf(python.TypeErrorType, "unhashable type: 'types.SimpleNamespace'")
	}))
	cls.SetAttr("__getattr__", python.NewMethod(cls, "__getattr__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		name := "types.SimpleNamespace"
		if args[0].Type() != cls {
			name = args[0].Type().Name()
		}
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute '%s'", name, python.StrValue(args[1]))
	}))
	cls.SetAttr("__reduce__", python.NewMethod(cls, "__reduce__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := args[0].(*python.Instance)
		return python.NewTuple([]python.Object{inst.Type(), python.NewTuple(nil), inst.Attrs().Copy()}), nil
	}))
	return cls, nil
}

// The reprs under way, per thread, for "namespace(...)" on a cycle.
var (
	reprMu     sync.Mutex
	reprActive map[*python.Thread][]python.Object // made on first use
)

func enterRepr(t *python.Thread, x python.Object) bool {
	reprMu.Lock()
	defer reprMu.Unlock()
	for _, y := range reprActive[t] {
		if y == x {
			return false
		}
	}
	if reprActive == nil {
		reprActive = map[*python.Thread][]python.Object{}
	}
	reprActive[t] = append(reprActive[t], x)
	return true
}

func leaveRepr(t *python.Thread, x python.Object) {
	reprMu.Lock()
	defer reprMu.Unlock()
	s := reprActive[t]
	if len(s) > 0 {
		s = s[:len(s)-1]
	}
	if len(s) == 0 {
		delete(reprActive, t)
	} else {
		reprActive[t] = s
	}
}
