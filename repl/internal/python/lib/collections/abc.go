package collections

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// abcInfo is the data of a class that takes part in collections.abc's
// isinstance and issubclass checks: every abstract base class, and every
// class derived from one (they may register virtual subclasses too). It
// lives in the class's Extra.
type abcInfo struct {
	// hook lists the methods of the ABC's structural check
	// (__subclasshook__), for the ABC that defines it only.
	hook []string
	// registry holds the virtual subclasses (ABC.register, and the
	// built-in types CPython registers).
	registry []*python.Type
	// subclasses are the classes derived from this one.
	subclasses []*python.Type
}

func infoOf(c *python.Type) *abcInfo {
	i, _ := c.Extra.(*abcInfo)
	return i
}

// maxABCDepth bounds the recursion of subclass checks through registries
// and subclass trees.
const maxABCDepth = 500

// isSubclass is issubclass(c, cls) with the ABC machinery.
func isSubclass(t *python.Thread, c, cls *python.Type, depth int) (bool, error) {
	if infoOf(cls) == nil {
		return c.IsSubtype(cls), nil
	}
	return subclassCheck(t, cls, c, depth)
}

// subclassCheck is ABCMeta.__subclasscheck__(cls, c): the structural hook,
// the MRO, the registry, then the subclasses.
func subclassCheck(t *python.Thread, cls, c *python.Type, depth int) (bool, error) {
	if depth > maxABCDepth {
		return false, python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded in __subclasscheck__")
	}
	info := infoOf(cls)
	if info != nil && info.hook != nil && hasMethods(c, info.hook) {
		return true, nil
	}
	if c.IsSubtype(cls) {
		return true, nil
	}
	if info == nil {
		return false, nil
	}
	for _, r := range info.registry {
		ok, err := isSubclass(t, c, r, depth+1)
		if err != nil || ok {
			return ok, err
		}
	}
	for _, s := range info.subclasses {
		ok, err := isSubclass(t, c, s, depth+1)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// hasMethods is _collections_abc._check_methods: every name is defined by
// a class of c's MRO, and not as None.
func hasMethods(c *python.Type, names []string) bool {
	for _, name := range names {
		if !hasMethod(c, name) {
			return false
		}
	}
	return true
}

func hasMethod(c *python.Type, name string) bool {
	for _, b := range c.MRO() {
		if ms, ok := builtinMethods[b]; ok {
			for _, m := range ms {
				if m == name {
					return true
				}
				if m == "-"+name {
					return false
				}
			}
			return false
		}
		if v, ok := b.Dict().GetStr(name); ok {
			return v != python.None
		}
	}
	return false
}

// abcHooks are the type hooks of every class that takes part in the ABC
// checks.
func abcHooks() *python.TypeHooks {
	h := &python.TypeHooks{}
	h.InstanceCheck = func(t *python.Thread, cls *python.Type, x obj) (bool, error) {
		return subclassCheck(t, cls, x.Type(), 0)
	}
	h.SubclassCheck = func(t *python.Thread, cls *python.Type, c *python.Type) (bool, error) {
		return subclassCheck(t, cls, c, 0)
	}
	h.Created = func(t *python.Thread, cls *python.Type) error {
		if infoOf(cls) == nil {
			cls.Extra = &abcInfo{}
		}
		for _, b := range cls.Bases() {
			if bi := infoOf(b); bi != nil {
				bi.subclasses = append(bi.subclasses, cls)
			}
		}
		return nil
	}
	return h
}

// register implements ABC.register(subclass).
func register(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("register", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	cls := args[0].(*python.Type)
	sub, ok := args[1].(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "Can only register classes")
	}
	if ok, err := isSubclass(t, sub, cls, 0); err != nil || ok {
		return sub, err
	}
	if ok, err := isSubclass(t, cls, sub, 0); err != nil {
		return nil, err
	} else if ok {
		return nil, python.Errorf(python.RuntimeErrorType, "Refusing to create an inheritance cycle")
	}
	info := infoOf(cls)
	if info == nil {
		info = &abcInfo{}
		cls.Extra = info
	}
	info.registry = append(info.registry, sub)
	return sub, nil
}
