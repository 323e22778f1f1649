package collections

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// member is one attribute of a class written in Go as CPython writes it
// in Python: a method (the receiver is args[0]), a class method (the class
// is args[0]), a static method, a property (get, and set when not nil) or
// a plain value.
type member struct {
	name  string
	kind  memberKind
	fn    python.BuiltinFunc
	set   python.BuiltinFunc
	value obj
}

type memberKind uint8

const (
	methodMember memberKind = iota
	classMember
	staticMember
	propertyMember
	valueMember
	abstractMember // an abstract method whose default body is fn
)

func method(name string, fn python.BuiltinFunc) member {
	return member{name: name, kind: methodMember, fn: fn}
}

func classMethod(name string, fn python.BuiltinFunc) member {
	return member{name: name, kind: classMember, fn: fn}
}

func property(name string, get, set python.BuiltinFunc) member {
	return member{name: name, kind: propertyMember, fn: get, set: set}
}

func value(name string, v obj) member { return member{name: name, kind: valueMember, value: v} }

func abstract(name string, fn python.BuiltinFunc) member {
	return member{name: name, kind: abstractMember, fn: fn}
}

// newClass makes a class as a class statement of module would, with the
// given bases and members. Members are Go functions; the class itself is
// an ordinary (not built-in) class, so that the interpreter dispatches
// operators and special methods to them and user subclasses override them
// as in CPython.
func newClass(name, module string, bases []*python.Type, members ...member) *python.Type {
	ns := python.NewDict(len(members) + 4)
	ns.SetStr("__module__", python.NewStr(module))
	ns.SetStr("__qualname__", python.NewStr(name))
	for _, m := range members {
		switch m.kind {
		case valueMember:
			ns.SetStr(m.name, m.value)
		case abstractMember:
			ns.SetStr(m.name, abstractPlaceholder(m.name, m.fn))
		default:
			// A placeholder for now: the real method needs the class.
			ns.SetStr(m.name, python.None)
		}
	}
	var meta *python.Type
	if module == "collections.abc" {
		meta = python.ABCMetaType
	}
	cls, err := python.NewClass(nil, meta, name, bases, ns)
	if err != nil {
		panic(fmt.Sprintf("collections: class %s: %v", name, err))
	}
	for _, m := range members {
		switch m.kind {
		case methodMember:
			cls.SetAttr(m.name, python.NewMethod(cls, m.name, m.fn))
		case classMember:
			cls.SetAttr(m.name, python.NewClassMethod(cls, m.name, m.fn))
		case staticMember:
			cls.SetAttr(m.name, python.NewStaticMethod(python.NewBuiltin(m.name, m.fn)))
		case propertyMember:
			var set obj = python.None
			if m.set != nil {
				set = python.NewBuiltin(m.name, m.set)
			}
			cls.SetAttr(m.name, python.NewProperty(python.NewBuiltin(m.name, m.fn), set))
		}
	}
	return cls
}

// abstractPlaceholder is an abstract method: reading it off an instance
// gives a method running CPython's default body.
func abstractPlaceholder(name string, body python.BuiltinFunc) obj {
	impl := python.NewBuiltin(name, body)
	p := python.NewProperty(python.NewBuiltin(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.NewMethodObject(impl, args[0]), nil
	}), python.None)
	python.SetAbstract(p)
	return p
}

// self returns a method's receiver, checking the argument count: want is
// the number of arguments after self (-1: any).
func argsOf(fn string, args []obj, kwargs []kwarg, min, max int) ([]obj, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", fn, kwargs[0].Name)
	}
	n := len(args) - 1
	if n < min || (max >= 0 && n > max) {
		return nil, countError(fn, n, min, max)
	}
	return args, nil
}

// countError renders CPython's message for a Python method called with
// the wrong number of positional arguments (n excludes self).
func countError(fn string, n, min, max int) error {
	if n < min {
		return python.Errorf(python.TypeErrorType, "%s() missing %d required positional argument%s", fn, min-n, plural(min-n))
	}
	takes := fmt.Sprint(max + 1)
	if min != max {
		takes = fmt.Sprintf("from %d to %d", min+1, max+1)
	}
	word := "arguments"
	if max == 0 {
		word = "argument"
	}
	return python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d were given", fn, takes, word, n+1)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// typeName is type(x).__name__.
func typeName(x obj) string { return python.TypeName(x) }

// getItem, setItem... are the protocol calls, short.
func getItem(t *python.Thread, c, k obj) (obj, error) { return python.GetItem(t, c, k) }

func truth(t *python.Thread, x obj) (bool, error) { return python.TruthE(t, x) }

// compareTrue returns bool(a op b).
func compareTrue(t *python.Thread, op python.CmpOp, a, b obj) (bool, error) {
	r, err := python.Compare(t, op, a, b)
	if err != nil {
		return false, err
	}
	return truth(t, r)
}

// eqOrIs is `a is b or a == b`.
func eqOrIs(t *python.Thread, a, b obj) (bool, error) {
	if python.Is(a, b) {
		return true, nil
	}
	return python.Equal(t, a, b)
}

// callMethod calls x.name(*args).
func callMethod(t *python.Thread, x obj, name string, args ...obj) (obj, error) {
	return python.CallMethod(t, x, name, args, nil)
}

// builtin returns a function of the builtins module.
func builtin(t *python.Thread, name string) obj {
	v, _ := t.Interp().Builtins().GetStr(name)
	return v
}

// isKeyError reports whether err is a KeyError.
func isKeyError(err error) bool { return python.IsInstance(err, python.KeyErrorType) }

// idOf returns id(x), for reprs that show addresses.
func idOf(t *python.Thread, x obj) int64 {
	v, err := python.Call(t, builtin(t, "id"), []obj{x}, nil)
	if err != nil {
		return 0
	}
	n, _ := python.AsInt64(v)
	return n
}
