// Package operator is Python's operator module for code mode's
// interpreter: the operators as functions, and itemgetter, attrgetter and
// methodcaller.
package operator

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// Register makes the operator module importable.
func Register() {
	python.Setup()
	python.RegisterModule("operator", load)
}

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

var binaries = []struct {
	name string
	op   syntax.Operator
}{
	{"add", syntax.Add}, {"sub", syntax.Sub}, {"mul", syntax.Mult}, {"matmul", syntax.MatMult},
	{"truediv", syntax.Div}, {"floordiv", syntax.FloorDiv}, {"mod", syntax.Mod}, {"pow", syntax.Pow},
	{"lshift", syntax.LShift}, {"rshift", syntax.RShift}, {"and_", syntax.BitAnd}, {"or_", syntax.BitOr},
	{"xor", syntax.BitXor},
}

var comparisons = []struct {
	name string
	op   python.CmpOp
}{
	{"lt", python.CmpLt}, {"le", python.CmpLe}, {"eq", python.CmpEq}, {"ne", python.CmpNe},
	{"gt", python.CmpGt}, {"ge", python.CmpGe},
}

// dunder returns the __name__ alias CPython gives a function.
func dunder(name string) string {
	switch name {
	case "not_", "and_", "or_":
		name = name[:len(name)-1]
	}
	return "__" + name + "__"
}

// args2 checks a fixed count of positional-only arguments.
func argsN(fn string, args []obj, kwargs []kwarg, n int) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "_operator.%s() takes no keyword arguments", fn)
	}
	if len(args) == n {
		return nil
	}
	if n == 1 {
		return python.Errorf(python.TypeErrorType, "_operator.%s() takes exactly one argument (%d given)", fn, len(args))
	}
	return python.Errorf(python.TypeErrorType, "%s expected %d arguments, got %d", fn, n, len(args))
}

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("operator")
	var all []obj
	def := func(name string, alias bool, fn python.BuiltinFunc) {
		m.Func(name, fn)
		all = append(all, python.NewStr(name))
		if alias {
			v, _ := m.Dict().GetStr(name)
			m.Set(dunder(name), v)
		}
	}
	for _, b := range binaries {
		b := b
		def(b.name, true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if err := argsN(b.name, args, kwargs, 2); err != nil {
				return nil, err
			}
			return python.Binary(t, b.op, args[0], args[1])
		})
		iname := "i" + strings.TrimSuffix(b.name, "_")
		def(iname, true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if err := argsN(iname, args, kwargs, 2); err != nil {
				return nil, err
			}
			return python.Inplace(t, b.op, args[0], args[1])
		})
	}
	for _, c := range comparisons {
		c := c
		def(c.name, true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if err := argsN(c.name, args, kwargs, 2); err != nil {
				return nil, err
			}
			return python.Compare(t, c.op, args[0], args[1])
		})
	}
	unary := func(name string, op syntax.UnaryOperator) {
		def(name, true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if err := argsN(name, args, kwargs, 1); err != nil {
				return nil, err
			}
			return python.Unary(t, op, args[0])
		})
	}
	unary("neg", syntax.USub)
	unary("pos", syntax.UAdd)
	unary("inv", syntax.Invert)
	unary("invert", syntax.Invert)
	def("abs", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("abs", args, kwargs, 1); err != nil {
			return nil, err
		}
		abs, _ := in.Builtins().GetStr("abs")
		return python.Call(t, abs, args, nil)
	})
	def("not_", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("not_", args, kwargs, 1); err != nil {
			return nil, err
		}
		b, err := python.TruthE(t, args[0])
		return python.MakeBool(!b), err
	})
	def("truth", false, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("truth", args, kwargs, 1); err != nil {
			return nil, err
		}
		b, err := python.TruthE(t, args[0])
		return python.MakeBool(b), err
	})
	def("index", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("index", args, kwargs, 1); err != nil {
			return nil, err
		}
		return Index(t, args[0])
	})
	def("is_", false, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("is_", args, kwargs, 2); err != nil {
			return nil, err
		}
		return python.MakeBool(python.Is(args[0], args[1])), nil
	})
	def("is_not", false, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("is_not", args, kwargs, 2); err != nil {
			return nil, err
		}
		return python.MakeBool(!python.Is(args[0], args[1])), nil
	})
	def("contains", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("contains", args, kwargs, 2); err != nil {
			return nil, err
		}
		b, err := python.Contains(t, args[0], args[1])
		return python.MakeBool(b), err
	})
	def("countOf", false, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("countOf", args, kwargs, 2); err != nil {
			return nil, err
		}
		n := int64(0)
		err := python.Iterate(t, args[0], func(x obj) error {
			eq := python.Is(x, args[1])
			if !eq {
				var err error
				if eq, err = python.Equal(t, x, args[1]); err != nil {
					return err
				}
			}
			if eq {
				n++
			}
			return t.Tick(1)
		})
		return python.MakeInt(n), err
	})
	def("indexOf", false, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("indexOf", args, kwargs, 2); err != nil {
			return nil, err
		}
		i, found := int64(0), false
		err := python.Iterate(t, args[0], func(x obj) error {
			eq := python.Is(x, args[1])
			if !eq {
				var err error
				if eq, err = python.Equal(t, x, args[1]); err != nil {
					return err
				}
			}
			if eq {
				found = true
				return python.ErrStop
			}
			i++
			return t.Tick(1)
		})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, python.Errorf(python.ValueErrorType, "sequence.index(x): x not in sequence")
		}
		return python.MakeInt(i), nil
	})
	def("getitem", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("getitem", args, kwargs, 2); err != nil {
			return nil, err
		}
		return python.GetItem(t, args[0], args[1])
	})
	def("setitem", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("setitem", args, kwargs, 3); err != nil {
			return nil, err
		}
		return python.None, python.SetItem(t, args[0], args[1], args[2])
	})
	def("delitem", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("delitem", args, kwargs, 2); err != nil {
			return nil, err
		}
		return python.None, python.DelItem(t, args[0], args[1])
	})
	def("concat", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("concat", args, kwargs, 2); err != nil {
			return nil, err
		}
		if !isSequence(args[0]) {
			return nil, python.Errorf(python.TypeErrorType, "'%s' object can't be concatenated", python.TypeName(args[0]))
		}
		return python.Binary(t, syntax.Add, args[0], args[1])
	})
	def("iconcat", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := argsN("iconcat", args, kwargs, 2); err != nil {
			return nil, err
		}
		if !isSequence(args[0]) {
			return nil, python.Errorf(python.TypeErrorType, "'%s' object can't be concatenated", python.TypeName(args[0]))
		}
		return python.Inplace(t, syntax.Add, args[0], args[1])
	})
	def("length_hint", false, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "_operator.length_hint() takes no keyword arguments")
		}
		if len(args) < 1 || len(args) > 2 {
			if len(args) < 1 {
				return nil, python.Errorf(python.TypeErrorType, "length_hint expected at least 1 argument, got %d", len(args))
			}
			return nil, python.Errorf(python.TypeErrorType, "length_hint expected at most 2 arguments, got %d", len(args))
		}
		var def int64
		if len(args) == 2 {
			n, ok, err := python.IndexValue(t, args[1])
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(args[1]))
			}
			def = n
		}
		return lengthHint(t, args[0], def)
	})
	def("call", true, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "call expected at least 1 argument, got 0")
		}
		return python.Call(t, args[0], args[1:], kwargs)
	})
	types := newGetterTypes()
	m.Set("itemgetter", types.item)
	m.Set("attrgetter", types.attr)
	m.Set("methodcaller", types.method)
	all = append(all, python.NewStr("itemgetter"), python.NewStr("attrgetter"), python.NewStr("methodcaller"))
	sortStrs(all)
	m.Set("__all__", python.NewList(all))
	return m, nil
}

func sortStrs(xs []obj) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && python.StrValue(xs[j]) < python.StrValue(xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// isSequence reports whether x supports sequence concatenation (what
// CPython's PySequence_Concat requires of its first operand).
func isSequence(x obj) bool {
	switch python.Unwrap(x).(type) {
	case *python.Str, *python.List, *python.Tuple, *python.Bytes, *python.ByteArray:
		return true
	case *python.Dict, *python.Set:
		return false
	}
	if _, ok := x.Type().Lookup("__getitem__"); ok {
		return true
	}
	return false
}

// Index implements operator.index(x): x as an int, by __index__.
func Index(t *python.Thread, x obj) (obj, error) {
	if v, ok := python.IntValue(x); ok {
		if b, isBool := v.(python.Bool); isBool {
			if b {
				return python.MakeInt(1), nil
			}
			return python.MakeInt(0), nil
		}
		return v, nil
	}
	if m, ok := x.Type().Lookup("__index__"); ok && m != python.None {
		r, err := python.CallMethod(t, x, "__index__", nil, nil)
		if err != nil {
			return nil, err
		}
		v, ok := python.IntValue(r)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "__index__ returned non-int (type %s)", python.TypeName(r))
		}
		return v, nil
	}
	return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
}

// lengthHint implements operator.length_hint.
func lengthHint(t *python.Thread, x obj, def int64) (obj, error) {
	if hasLen(x) {
		n, err := python.Len(t, x)
		if err == nil {
			return python.MakeInt(int64(n)), nil
		}
		if !python.IsInstance(err, python.TypeErrorType) {
			return nil, err
		}
	}
	if _, ok := x.Type().Lookup("__length_hint__"); ok {
		r, err := python.CallMethod(t, x, "__length_hint__", nil, nil)
		if err != nil {
			if python.IsInstance(err, python.TypeErrorType) {
				return python.MakeInt(def), nil
			}
			return nil, err
		}
		if r == python.NotImplemented {
			return python.MakeInt(def), nil
		}
		n, ok := python.AsInt64(r)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "__length_hint__ must be an integer, not %s", python.TypeName(r))
		}
		if n < 0 {
			return nil, python.Errorf(python.ValueErrorType, "__length_hint__() should return >= 0")
		}
		return python.MakeInt(n), nil
	}
	switch x.Type() {
	case python.ListIterType, python.TupleIterType, python.StrIterType, python.RangeIterType,
		python.DictKeyIterType, python.DictValueIterType, python.DictItemIterType, python.SetIterType,
		python.BytesIterType, python.SeqIterType, python.ReversedType, python.EnumerateType:
		return nil, python.NotSupported("operator.length_hint() of a built-in iterator", "count the items with len(list(it)) or keep the sequence's len()")
	}
	return python.MakeInt(def), nil
}

// hasLen reports whether len(x) may work.
func hasLen(x obj) bool {
	switch python.Unwrap(x).(type) {
	case *python.Str, *python.List, *python.Tuple, *python.Dict, *python.Set, *python.Bytes, *python.ByteArray, *python.Range:
		return true
	}
	if _, ok := x.(interface {
		PyLen(t *python.Thread) (int, error)
	}); ok {
		return true
	}
	_, ok := x.Type().Lookup("__len__")
	return ok
}
