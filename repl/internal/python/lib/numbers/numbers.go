// Package numbers is code mode's numbers module: the abstract base
// classes Number, Complex, Real, Rational and Integral of the numeric
// tower, as CPython 3.12 has them. isinstance and issubclass answer for
// the built-in numeric types, fractions.Fraction, subclasses and the
// classes register() adds; a subclass can be instantiated once it
// implements the abstract methods, and inherits the ABCs' mixin methods
// (__sub__, real, conjugate, __divmod__, __float__, __index__, ...).
//
// The classes' metaclass is type, not abc.ABCMeta.
package numbers

import (
	"context"
	"sort"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/fractions"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// Register makes numbers importable. The module's checks know
// fractions.Fraction, so Register sets that type up too (without making
// fractions importable).
func Register() {
	python.Setup()
	python.RegisterModule("numbers", load)
	fractions.Setup()
}

// The levels of the tower, Number the widest.
const (
	levelNumber = iota
	levelComplex
	levelReal
	levelRational
	levelIntegral
)

var names = [...]string{"Number", "Complex", "Real", "Rational", "Integral"}

// abstractMethods are each ABC's __abstractmethods__ (CPython 3.12).
var abstractMethods = [...][]string{
	levelNumber: nil,
	levelComplex: {"__abs__", "__add__", "__complex__", "__eq__", "__mul__", "__neg__", "__pos__", "__pow__", "__radd__",
		"__rmul__", "__rpow__", "__rtruediv__", "__truediv__", "conjugate", "imag", "real"},
	levelReal: {"__abs__", "__add__", "__ceil__", "__eq__", "__float__", "__floor__", "__floordiv__", "__le__", "__lt__",
		"__mod__", "__mul__", "__neg__", "__pos__", "__pow__", "__radd__", "__rfloordiv__", "__rmod__", "__rmul__", "__round__",
		"__rpow__", "__rtruediv__", "__truediv__", "__trunc__"},
	levelRational: {"__abs__", "__add__", "__ceil__", "__eq__", "__floor__", "__floordiv__", "__le__", "__lt__", "__mod__",
		"__mul__", "__neg__", "__pos__", "__pow__", "__radd__", "__rfloordiv__", "__rmod__", "__rmul__", "__round__", "__rpow__",
		"__rtruediv__", "__truediv__", "__trunc__", "denominator", "numerator"},
	levelIntegral: {"__abs__", "__add__", "__and__", "__ceil__", "__eq__", "__floor__", "__floordiv__", "__int__",
		"__invert__", "__le__", "__lshift__", "__lt__", "__mod__", "__mul__", "__neg__", "__or__", "__pos__", "__pow__",
		"__radd__", "__rand__", "__rfloordiv__", "__rlshift__", "__rmod__", "__rmul__", "__ror__", "__round__", "__rpow__",
		"__rrshift__", "__rshift__", "__rtruediv__", "__rxor__", "__truediv__", "__trunc__", "__xor__"},
}

// state is one interpreter's numbers module.
type state struct {
	abcs     [5]*python.Type
	registry map[*python.Type][]*python.Type
}

func (st *state) level(c *python.Type) int {
	for i, a := range st.abcs {
		if a == c {
			return i
		}
	}
	return -1
}

func load(in *python.Interp) (*python.Module, error) {
	t := python.NewThread(context.Background(), in, 1<<20, func(string) {})
	st := &state{registry: map[*python.Type][]*python.Type{}}
	hooks := &python.TypeHooks{
		InstanceCheck: func(t *python.Thread, cls *python.Type, x obj) (bool, error) {
			return st.subclassCheck(cls, x.Type()), nil
		},
		SubclassCheck: func(t *python.Thread, cls, c *python.Type) (bool, error) {
			return st.subclassCheck(cls, c), nil
		},
		Call: st.instantiate,
	}
	m := python.NewModule("numbers")
	var base *python.Type
	for lvl, name := range names {
		ns := python.NewDict(16)
		ns.SetStr("__module__", python.NewStr("numbers"))
		ns.SetStr("__qualname__", python.NewStr(name))
		ns.SetStr("__doc__", python.NewStr(docs[lvl]))
		ns.SetStr("__slots__", python.NewTuple(nil))
		if lvl <= levelComplex {
			ns.SetStr("__hash__", python.None)
		}
		var bases []*python.Type
		if base != nil {
			bases = []*python.Type{base}
		}
		c, err := python.NewClass(t, nil, name, bases, ns)
		if err != nil {
			return nil, err
		}
		c.Hooks = hooks
		st.abcs[lvl] = c
		st.addMixins(c, lvl)
		c.SetAttr("register", python.NewClassMethodOf(python.NewBuiltin("register", st.register)))
		m.Set(name, c)
		base = c
	}
	m.Set("__all__", python.NewList([]obj{python.NewStr("Number"), python.NewStr("Complex"), python.NewStr("Real"), python.NewStr("Rational"), python.NewStr("Integral")}))
	return m, nil
}

var docs = [...]string{
	"All numbers inherit from this class.\n\n    If you just want to check if an argument x is a number, without\n    caring what kind, use isinstance(x, Number).\n    ",
	"Complex defines the operations that work on the builtin complex type.\n\n    In short, those are: a conversion to complex, .real, .imag, +, -,\n    *, /, **, abs(), .conjugate, ==, and !=.\n\n    If it is given heterogeneous arguments, and doesn't have special\n    knowledge about them, it should fall back to the builtin complex\n    type as described below.\n    ",
	"To Complex, Real adds the operations that work on real numbers.\n\n    In short, those are: a conversion to float, trunc(), divmod,\n    %, <, <=, >, and >=.\n\n    Real also provides defaults for the derived operations.\n    ",
	".numerator and .denominator should be in lowest terms.",
	"Integral adds methods that work on integral numbers.\n\n    In short, these are conversion to int, pow with modulus, and the\n    bit-string operations.\n    ",
}

// builtinLevel is the level of the tower a class's instances are at by
// being (a subclass of) a built-in numeric type or Fraction, or -1.
func builtinLevel(c *python.Type) int {
	switch {
	case c.IsSubtype(python.IntType):
		return levelIntegral
	case c.IsSubtype(fractions.FractionType):
		return levelRational
	case c.IsSubtype(python.FloatType):
		return levelReal
	case c.IsSubtype(python.ComplexType):
		return levelComplex
	}
	return -1
}

// subclassCheck is issubclass(c, cls) for cls an ABC or a subclass of one.
func (st *state) subclassCheck(cls, c *python.Type) bool {
	return st.check(cls, c, 0)
}

func (st *state) check(cls, c *python.Type, depth int) bool {
	if c.IsSubtype(cls) {
		return true
	}
	if depth > 50 {
		return false
	}
	if lvl := st.level(cls); lvl >= 0 {
		if bl := builtinLevel(c); bl >= lvl {
			return true
		}
	}
	// The classes registered with cls or with a subclass of it.
	for owner, regs := range st.registry {
		if !owner.IsSubtype(cls) {
			continue
		}
		for _, r := range regs {
			if c.IsSubtype(r) || st.level(r) >= 0 && st.check(r, c, depth+1) {
				return true
			}
		}
	}
	return false
}

// register is ABC.register(subclass): a virtual subclass.
func (st *state) register(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(args) != 2 || len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "ABCMeta.register() takes 2 positional arguments but %d were given", len(args)+len(kwargs))
	}
	cls, ok := args[0].(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "register() needs a class")
	}
	sub, ok := args[1].(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "Can only register classes")
	}
	if st.check(cls, sub, 0) {
		return sub, nil
	}
	if st.check(sub, cls, 0) {
		return nil, python.Errorf(python.RuntimeErrorType, "Refusing to create an inheritance cycle")
	}
	st.registry[cls] = append(st.registry[cls], sub)
	return sub, nil
}

// abstractLeft returns the abstract methods a class has not implemented:
// those of the ABCs in its MRO whose first definition is the ABC's own
// abstract one.
func (st *state) abstractLeft(cls *python.Type) []string {
	seen := map[string]bool{}
	var left []string
	mro := cls.MRO()
	for _, c := range mro {
		lvl := st.level(c)
		if lvl < 0 {
			continue
		}
		for _, name := range abstractMethods[lvl] {
			if seen[name] {
				continue
			}
			seen[name] = true
			abstract := true
			for _, d := range mro {
				if l := st.level(d); l >= 0 && containsStr(abstractMethods[l], name) {
					if _, ok := d.Dict().GetStr(name); !ok {
						break // the ABC's abstract declaration comes first
					}
				}
				if _, ok := d.Dict().GetStr(name); ok {
					abstract = false
					break
				}
				if d.IsBuiltin() && builtinLevel(d) >= 0 {
					// The core's numeric types define their operators
					// without listing each in their dict; CPython's have
					// them all.
					abstract = false
					break
				}
			}
			if abstract {
				left = append(left, name)
			}
		}
	}
	sort.Strings(left)
	return left
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// instantiate is cls(...) for the ABCs and their subclasses: refused while
// abstract methods are left, otherwise as type.__call__ does.
func (st *state) instantiate(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
	if left := st.abstractLeft(cls); len(left) > 0 {
		q := make([]string, len(left))
		for i, n := range left {
			q[i] = "'" + n + "'"
		}
		word := "method"
		if len(q) > 1 {
			word = "methods"
		}
		return nil, python.Errorf(python.TypeErrorType, "Can't instantiate abstract class %s without an implementation for abstract %s %s", cls.Name(), word, strings.Join(q, ", "))
	}
	newFn, newOwner := lookupOwner(cls, "__new__")
	initFn, initOwner := lookupOwner(cls, "__init__")
	var x obj
	var err error
	if newOwner != nil && !newOwner.IsBuiltin() {
		x, err = python.Call(t, python.FunctionOf(newFn), append([]obj{cls}, args...), kwargs)
	} else {
		if (len(args) > 0 || len(kwargs) > 0) && (initOwner == nil || initOwner == python.ObjectType) && !hasBuiltinBase(cls) {
			return nil, python.Errorf(python.TypeErrorType, "%s() takes no arguments", cls.Name())
		}
		var nw obj
		if nw, err = python.GetAttr(t, cls.Solid(), "__new__"); err == nil {
			x, err = python.Call(t, nw, append([]obj{cls}, args...), kwargs)
		}
	}
	if err != nil {
		return nil, err
	}
	if !x.Type().IsSubtype(cls) || initOwner == nil || initOwner == python.ObjectType || initOwner.IsBuiltin() {
		return x, nil
	}
	r, err := python.Call(t, python.NewMethodObject(initFn, x), args, kwargs)
	if err != nil {
		return nil, err
	}
	if r != python.None {
		return nil, python.Errorf(python.TypeErrorType, "__init__() should return None, not '%s'", python.TypeName(r))
	}
	return x, nil
}

func hasBuiltinBase(c *python.Type) bool {
	for _, b := range c.MRO() {
		if b.IsBuiltin() && b != python.ObjectType {
			return true
		}
	}
	return false
}

func lookupOwner(c *python.Type, name string) (obj, *python.Type) {
	for _, m := range c.MRO() {
		if v, ok := m.Dict().GetStr(name); ok {
			return v, m
		}
	}
	return nil, nil
}

// addMixins adds the concrete methods an ABC defines in terms of its
// abstract ones.
func (st *state) addMixins(c *python.Type, lvl int) {
	method := func(name string, nargs int, fn func(t *python.Thread, self obj, args []obj) (obj, error)) {
		c.SetAttr(name, python.NewMethod(c, name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) != nargs+1 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "%s.%s() takes %d positional argument%s but %d were given", names[lvl], name, nargs+1, plural(nargs+1), len(args))
			}
			return fn(t, args[0], args[1:])
		}))
	}
	property := func(name string, fn func(t *python.Thread, self obj) (obj, error)) {
		c.SetAttr(name, python.NewProperty(python.NewBuiltin(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return fn(t, args[0])
		}), python.None))
	}
	unary := func(op syntax.UnaryOperator) func(t *python.Thread, self obj) (obj, error) {
		return func(t *python.Thread, self obj) (obj, error) { return python.Unary(t, op, self) }
	}
	builtin := func(t *python.Thread, name string, args ...obj) (obj, error) {
		f, ok := t.Interp().Builtins().GetStr(name)
		if !ok {
			return nil, python.NotSupported(name, "")
		}
		return python.Call(t, f, args, nil)
	}
	switch lvl {
	case levelComplex:
		method("__bool__", 0, func(t *python.Thread, self obj, _ []obj) (obj, error) {
			r, err := python.Compare(t, python.CmpNe, self, python.MakeInt(0))
			if err != nil {
				return nil, err
			}
			b, err := python.TruthE(t, r)
			return python.MakeBool(b), err
		})
		method("__sub__", 1, func(t *python.Thread, self obj, a []obj) (obj, error) {
			neg, err := python.Unary(t, syntax.USub, a[0])
			if err != nil {
				return nil, err
			}
			return python.Binary(t, syntax.Add, self, neg)
		})
		method("__rsub__", 1, func(t *python.Thread, self obj, a []obj) (obj, error) {
			neg, err := python.Unary(t, syntax.USub, self)
			if err != nil {
				return nil, err
			}
			return python.Binary(t, syntax.Add, neg, a[0])
		})
	case levelReal:
		method("__complex__", 0, func(t *python.Thread, self obj, _ []obj) (obj, error) {
			f, err := python.Call(t, python.FloatType, []obj{self}, nil)
			if err != nil {
				return nil, err
			}
			return python.Call(t, python.ComplexType, []obj{f}, nil)
		})
		property("real", unary(syntax.UAdd))
		property("imag", func(*python.Thread, obj) (obj, error) { return python.MakeInt(0), nil })
		method("conjugate", 0, func(t *python.Thread, self obj, _ []obj) (obj, error) { return python.Unary(t, syntax.UAdd, self) })
		method("__divmod__", 1, func(t *python.Thread, self obj, a []obj) (obj, error) {
			q, err := python.Binary(t, syntax.FloorDiv, self, a[0])
			if err != nil {
				return nil, err
			}
			r, err := python.Binary(t, syntax.Mod, self, a[0])
			if err != nil {
				return nil, err
			}
			return python.NewTuple([]obj{q, r}), nil
		})
		method("__rdivmod__", 1, func(t *python.Thread, self obj, a []obj) (obj, error) {
			q, err := python.Binary(t, syntax.FloorDiv, a[0], self)
			if err != nil {
				return nil, err
			}
			r, err := python.Binary(t, syntax.Mod, a[0], self)
			if err != nil {
				return nil, err
			}
			return python.NewTuple([]obj{q, r}), nil
		})
	case levelRational:
		method("__float__", 0, func(t *python.Thread, self obj, _ []obj) (obj, error) {
			n, err := python.GetAttr(t, self, "numerator")
			if err != nil {
				return nil, err
			}
			d, err := python.GetAttr(t, self, "denominator")
			if err != nil {
				return nil, err
			}
			if n, err = builtin(t, "int", n); err != nil {
				return nil, err
			}
			if d, err = builtin(t, "int", d); err != nil {
				return nil, err
			}
			return python.Binary(t, syntax.Div, n, d)
		})
	case levelIntegral:
		method("__index__", 0, func(t *python.Thread, self obj, _ []obj) (obj, error) { return builtin(t, "int", self) })
		method("__float__", 0, func(t *python.Thread, self obj, _ []obj) (obj, error) {
			i, err := builtin(t, "int", self)
			if err != nil {
				return nil, err
			}
			return python.Call(t, python.FloatType, []obj{i}, nil)
		})
		property("numerator", unary(syntax.UAdd))
		property("denominator", func(*python.Thread, obj) (obj, error) { return python.MakeInt(1), nil })
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
