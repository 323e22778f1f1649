package collections

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// baseDict returns the dict a dict subclass instance holds.
func baseDict(x obj) *python.Dict {
	d, _ := python.Unwrap(x).(*python.Dict)
	return d
}

// classGetItem is __class_getitem__: cls[X] is a generic alias.
var classGetItem = member{name: "__class_getitem__", kind: classMember, fn: func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("__class_getitem__", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	return python.NewGenericAlias(args[0], args[1]), nil
}}

// userDefines reports whether a class of c's MRO before stop (a class of
// this package) that is not built in defines name.
func userDefines(c, stop *python.Type, name string) bool {
	for _, b := range c.MRO() {
		if b == stop || b.IsBuiltin() {
			return false
		}
		if _, ok := b.Dict().GetStr(name); ok {
			return true
		}
	}
	return false
}

// reflectedDictEq works around the interpreter comparing a dict subclass
// instance whose __eq__ returned NotImplemented with a plain dict by
// identity: CPython falls back to dict.__eq__ (reflected). handled is
// false when other is not a dict the fallback applies to.
func reflectedDictEq(t *python.Thread, self, other obj, ne bool) (obj, bool, error) {
	od, ok := python.Unwrap(other).(*python.Dict)
	if !ok {
		return nil, false, nil
	}
	for _, b := range other.Type().MRO() {
		if b.IsBuiltin() {
			break
		}
		if _, ok := b.Dict().GetStr("__eq__"); ok {
			return nil, false, nil
		}
	}
	eq, err := python.Equal(t, baseDict(self), od)
	if err != nil {
		return nil, true, err
	}
	return python.MakeBool(eq != ne), true, nil
}

// reprGuard tracks the objects whose repr is being computed, as CPython's
// Py_ReprEnter does.
type reprGuard map[obj]bool

func (g reprGuard) enter(x obj) bool {
	if g[x] {
		return false
	}
	g[x] = true
	return true
}

func (g reprGuard) leave(x obj) { delete(g, x) }
