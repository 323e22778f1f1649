// Package functools is Python's functools module for code mode's
// interpreter: reduce, partial, partialmethod, wraps and update_wrapper,
// lru_cache and cache, cached_property, total_ordering, cmp_to_key,
// singledispatch and singledispatchmethod, as CPython 3.12 has them.
package functools

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/collections"
)

// Register makes the functools module importable.
func Register() {
	python.Setup()
	collections.Register()
	python.RegisterModule("functools", load)
}

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// module is one interpreter's functools.
type module struct {
	mod            *python.Module
	partial        *python.Type
	keyWrapper     *python.Type
	lruBase        *python.Type
	cacheInfo      *python.Type
	cachedProperty *python.Type
	partialMethod  *python.Type
	dispatchBase   *python.Type
	dispatchMethod *python.Type
	dispatchProxy  *python.Type
	updateWrapper  obj
	kwdMark        obj
	reprs          map[obj]bool
}

func strs(names ...string) obj {
	out := make([]obj, len(names))
	for i, n := range names {
		out[i] = python.NewStr(n)
	}
	return python.NewTuple(out)
}

var (
	wrapperAssignments = []string{"__module__", "__name__", "__qualname__", "__doc__", "__annotations__", "__type_params__"}
	wrapperUpdates     = []string{"__dict__"}
)

func load(in *python.Interp) (*python.Module, error) {
	m := &module{mod: python.NewModule("functools"), reprs: map[obj]bool{}}
	m.kwdMark = python.NewInstance(python.ObjectType, nil)
	mod := m.mod
	mod.Set("WRAPPER_ASSIGNMENTS", strs(wrapperAssignments...))
	mod.Set("WRAPPER_UPDATES", strs(wrapperUpdates...))
	mod.Func("reduce", reduce)
	m.makePartial()
	mod.Set("partial", m.partial)
	mod.Func("update_wrapper", m.updateWrapperFunc)
	m.updateWrapper, _ = mod.Dict().GetStr("update_wrapper")
	mod.Func("wraps", m.wraps)
	m.makeLRU()
	mod.Set("_lru_cache_wrapper", m.lruBase)
	mod.Set("_CacheInfo", m.cacheInfo)
	mod.Func("lru_cache", m.lruCache)
	mod.Func("cache", m.cache)
	m.makeCachedProperty()
	mod.Set("cached_property", m.cachedProperty)
	mod.Func("total_ordering", totalOrdering)
	m.makeKeyWrapper()
	mod.Func("cmp_to_key", m.cmpToKey)
	mod.Set("KeyWrapper", m.keyWrapper)
	m.makePartialMethod()
	mod.Set("partialmethod", m.partialMethod)
	m.makeSingleDispatch()
	mod.Func("singledispatch", m.singleDispatch)
	mod.Set("singledispatchmethod", m.dispatchMethod)
	mod.Set("__all__", python.NewList(strs("update_wrapper", "wraps", "WRAPPER_ASSIGNMENTS", "WRAPPER_UPDATES",
		"total_ordering", "cache", "cmp_to_key", "lru_cache", "reduce", "partial", "partialmethod",
		"singledispatch", "singledispatchmethod", "cached_property").(*python.Tuple).Items()))
	return mod, nil
}

// reduce implements functools.reduce(function, iterable[, initial]).
func reduce(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "reduce() takes no keyword arguments")
	}
	if len(args) < 2 {
		return nil, python.Errorf(python.TypeErrorType, "reduce expected at least 2 arguments, got %d", len(args))
	}
	if len(args) > 3 {
		return nil, python.Errorf(python.TypeErrorType, "reduce expected at most 3 arguments, got %d", len(args))
	}
	fn := args[0]
	var result obj
	if len(args) == 3 {
		result = args[2]
	}
	it, err := python.Iter(t, args[1])
	if err != nil {
		if python.IsInstance(err, python.TypeErrorType) {
			return nil, python.Errorf(python.TypeErrorType, "reduce() arg 2 must support iteration")
		}
		return nil, err
	}
	for i := 0; ; i++ {
		v, err := python.Next(t, it)
		if err != nil {
			return nil, err
		}
		if v == nil {
			break
		}
		if result == nil {
			result = v
			continue
		}
		if result, err = python.Call(t, fn, []obj{result, v}, nil); err != nil {
			return nil, err
		}
		if i&255 == 255 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
	}
	if result == nil {
		return nil, python.Errorf(python.TypeErrorType, "reduce() of empty iterable with no initial value")
	}
	return result, nil
}

// builtin returns a function of the builtins module.
func builtin(t *python.Thread, name string) obj {
	v, _ := t.Interp().Builtins().GetStr(name)
	return v
}

// idOf returns id(x).
func idOf(t *python.Thread, x obj) int64 {
	v, err := python.Call(t, builtin(t, "id"), []obj{x}, nil)
	if err != nil {
		return 0
	}
	n, _ := python.AsInt64(v)
	return n
}

// newClass makes a class of module functools written in Go: methods are
// added once the class exists (NewMethod needs it), over placeholders so
// that nothing in the bases is taken for abstract.
func newClass(name string, bases []*python.Type, methods map[string]python.BuiltinFunc, values map[string]obj) *python.Type {
	ns := python.NewDict(len(methods) + 4)
	ns.SetStr("__module__", python.NewStr("functools"))
	ns.SetStr("__qualname__", python.NewStr(name))
	for n := range methods {
		ns.SetStr(n, python.None)
	}
	for n, v := range values {
		ns.SetStr(n, v)
	}
	cls, err := python.NewClass(nil, nil, name, bases, ns)
	if err != nil {
		panic("functools: class " + name + ": " + err.Error())
	}
	for n, fn := range methods {
		cls.SetAttr(n, python.NewMethod(cls, n, fn))
	}
	return cls
}

var classGetItem = func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(args) != 2 {
		return nil, python.Errorf(python.TypeErrorType, "__class_getitem__() takes exactly one argument (%d given)", len(args)-1)
	}
	return python.NewGenericAlias(args[0], args[1]), nil
}
