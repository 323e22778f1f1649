// Package collections is Python's collections and collections.abc modules
// for code mode's interpreter: Counter, defaultdict, OrderedDict, deque,
// namedtuple, ChainMap, UserDict, UserList, UserString and the abstract
// base classes, each as CPython 3.12 has them.
//
// The dict subclasses (Counter, OrderedDict, defaultdict) are classes
// whose instances hold a dict, as a class statement deriving from dict
// makes them, with their methods written in Go; so are the classes
// CPython writes in Python (ChainMap, the User classes, the abstract base
// classes). deque is a built-in type.
package collections

import (
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/heapq"
	"github.com/rlm-go/rlm/repl/internal/python/lib/itertools"
	"github.com/rlm-go/rlm/repl/internal/python/lib/operator"
)

// Register makes collections and collections.abc importable (and the
// modules their methods use: itertools, heapq, operator).
func Register() {
	python.Setup()
	itertools.Register()
	heapq.Register()
	operator.Register()
	python.RegisterPackage("collections", load)
	python.RegisterModule("collections.abc", loadABC)
	// setup runs after RegisterModule, which makes sure the interpreter
	// core is set up.
	setupOnce.Do(setup)
}

var setupOnce sync.Once

// setup makes the package's interpreter values: nothing of the
// interpreter is touched before Register, so that importing the package
// costs nothing.
func setup() {
	zero = python.MakeInt(0)
	one = python.MakeInt(1)
	dictGet, _ = python.DictType.Lookup("get")
	dictSetItem, _ = python.DictType.Lookup("__setitem__")
	builtinMethods = makeBuiltinMethods()
}

// loadABC returns the collections.abc module the interpreter's collections
// module made.
func loadABC(in *python.Interp) (*python.Module, error) {
	m, err := in.Import(nil, "collections")
	if err != nil {
		return nil, err
	}
	v, err := python.GetAttr(nil, m, "_collections_abc")
	if err != nil {
		return nil, err
	}
	return v.(*python.Module), nil
}

func load(in *python.Interp) (*python.Module, error) {
	st := &state{gen: newGeneratorType(), reprs: reprGuard{}, itemGetter1: newItemGetter1()}
	st.makeABCs()
	abcMod := python.NewModule("collections.abc")
	var abcAll []obj
	for _, n := range st.abcList {
		abcMod.Set(n, st.abc[n])
		abcAll = append(abcAll, python.NewStr(n))
	}
	abcMod.Set("__all__", python.NewList(abcAll))
	st.abcMod = abcMod

	m := python.NewModule("collections")
	m.Set("_collections_abc", abcMod)
	st.makeCounter()
	st.makeOrderedDict()
	st.makeDefaultDict()
	st.makeDeque()
	st.makeChainMap()
	st.makeUserDict()
	st.makeUserList()
	st.makeUserString()
	m.Set("Counter", st.counter)
	m.Set("OrderedDict", st.orderedDict)
	m.Set("defaultdict", st.defaultDict)
	m.Set("deque", st.deque)
	m.Set("ChainMap", st.chainMap)
	m.Set("UserDict", st.userDict)
	m.Set("UserList", st.userList)
	m.Set("UserString", st.userString)
	m.Func("namedtuple", namedtupleFunc)
	var all []obj
	for _, n := range []string{"ChainMap", "Counter", "OrderedDict", "UserDict", "UserList", "UserString", "defaultdict", "deque", "namedtuple"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}
