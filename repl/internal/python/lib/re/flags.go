package re

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// flagDefs are RegexFlag's members in definition order, which is the
// order CPython lists them in (iteration, names of combinations).
var flagDefs = []struct {
	name, short string
	v           int64
}{
	{"ASCII", "A", 256}, {"IGNORECASE", "I", 2}, {"LOCALE", "L", 4}, {"UNICODE", "U", 32},
	{"MULTILINE", "M", 8}, {"DOTALL", "S", 16}, {"VERBOSE", "X", 64}, {"TEMPLATE", "T", 1},
	{"DEBUG", "", 128},
}

// flagMask holds every member's bit (CPython's _flag_mask_ and
// _all_bits_ of RegexFlag).
const flagMask = 511

// maxFlagValues bounds how many distinct pseudo-members (combinations)
// an interpreter keeps, so that `is` holds between equal flags as in
// CPython without an unbounded table.
const maxFlagValues = 4096

// flagState is RegexFlag for one interpreter: an IntFlag class with
// boundary KEEP, as re's (a subclass of int whose members print as
// re.IGNORECASE and combine with |, & and ^).
type flagState struct {
	cls     *python.Type
	values  map[int64]*python.Instance
	members []*python.Instance // in definition order
}

// flagValue returns the int value of a RegexFlag or of an int-like
// object, as a big.Int; ok is false for other objects.
func flagValue(x python.Object) (*big.Int, bool) {
	v, ok := python.IntValue(x)
	if !ok {
		return nil, false
	}
	return python.ToBig(v), true
}

// normalize maps a value to the member value CPython's Flag._missing_
// gives it under boundary KEEP: negative values become their bits within
// the flag's width (or the value's).
func normalize(v *big.Int) (int64, error) {
	all := big.NewInt(flagMask)
	if v.Sign() < 0 {
		w := new(big.Int)
		if v.Cmp(big.NewInt(-flagMask-1)) < 0 {
			w.Lsh(big.NewInt(1), uint(v.BitLen()))
			if w.Cmp(big.NewInt(flagMask+1)) < 0 {
				w.SetInt64(flagMask + 1)
			}
		} else {
			w.Add(all, big.NewInt(1))
		}
		v = new(big.Int).Add(w, v)
	}
	if !v.IsInt64() {
		return 0, python.NotSupported("RegexFlag values beyond 64 bits", "use the flags re defines")
	}
	return v.Int64(), nil
}

// get returns the member or pseudo-member of value v (normalized).
func (fs *flagState) get(v int64) *python.Instance {
	if m, ok := fs.values[v]; ok {
		return m
	}
	m := python.NewInstance(fs.cls, python.MakeInt(v))
	if len(fs.values) < maxFlagValues {
		fs.values[v] = m
	}
	return m
}

// flagOf returns the value of a RegexFlag instance.
func flagOf(x python.Object) int64 {
	v, _ := python.AsInt64(python.Unwrap(x))
	return v
}

// flagName is the member's _name_: "IGNORECASE|MULTILINE", with unknown
// bits in hex; ok is false for a value with no known bit (name None).
func flagName(v int64) (string, bool) {
	if v == 0 {
		return "NOFLAG", true
	}
	if v&flagMask == 0 {
		return "", false
	}
	var names []string
	for _, d := range flagDefs {
		if v&d.v != 0 {
			names = append(names, d.name)
		}
	}
	if unknown := v &^ flagMask; unknown != 0 {
		names = append(names, fmt.Sprintf("0x%x", unknown))
	}
	return strings.Join(names, "|"), true
}

// flagRepr is repr() and str() of a RegexFlag (re's global_flag_repr).
func flagRepr(v int64) string {
	name, ok := flagName(v)
	if !ok {
		return fmt.Sprintf("re.RegexFlag(%d)", v)
	}
	parts := strings.Split(name, "|")
	for i, p := range parts {
		if p[0] < '0' || p[0] > '9' {
			parts[i] = "re." + p
		}
	}
	return strings.Join(parts, "|")
}

// newFlagState creates the RegexFlag class of an interpreter.
func newFlagState(in *python.Interp) (*flagState, error) {
	fs := &flagState{values: map[int64]*python.Instance{}}
	t := python.NewThread(context.Background(), in, 1<<20, nil)
	ns := python.NewDict(32)
	ns.SetStr("__module__", python.NewStr("re"))
	ns.SetStr("__qualname__", python.NewStr("RegexFlag"))
	method := func(name string, fn python.BuiltinFunc) {
		ns.SetStr(name, python.NewMethod(nil, name, fn))
	}
	unary := func(name string, f func(t *python.Thread, v int64) (python.Object, error)) {
		method(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if len(args) != 1 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "RegexFlag.%s() takes no arguments (%d given)", name, len(args)-1+len(kwargs))
			}
			return f(t, flagOf(args[0]))
		})
	}
	repr := func(t *python.Thread, v int64) (python.Object, error) { return python.NewStr(flagRepr(v)), nil }
	unary("__repr__", repr)
	unary("__str__", repr)
	unary("__invert__", func(t *python.Thread, v int64) (python.Object, error) {
		n, err := normalize(big.NewInt(^v))
		if err != nil {
			return nil, err
		}
		return fs.get(n), nil
	})
	unary("__len__", func(t *python.Thread, v int64) (python.Object, error) {
		return python.MakeInt(int64(bits.OnesCount64(uint64(v & flagMask)))), nil
	})
	unary("__iter__", func(t *python.Thread, v int64) (python.Object, error) {
		var out []python.Object
		for i, d := range flagDefs {
			if v&d.v != 0 {
				out = append(out, fs.members[i])
			}
		}
		return python.Iter(t, python.NewList(out))
	})
	for _, op := range []struct {
		names []string
		f     func(z, a, b *big.Int) *big.Int
	}{
		{[]string{"__or__", "__ror__"}, (*big.Int).Or},
		{[]string{"__and__", "__rand__"}, (*big.Int).And},
		{[]string{"__xor__", "__rxor__"}, (*big.Int).Xor},
	} {
		op := op
		for _, name := range op.names {
			method(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
				if len(args) != 2 || len(kwargs) > 0 {
					return nil, python.Errorf(python.TypeErrorType, "expected 1 argument, got %d", len(args)-1)
				}
				other, ok := flagValue(args[1])
				if !ok {
					return python.NotImplemented, nil
				}
				n, err := normalize(op.f(new(big.Int), big.NewInt(flagOf(args[0])), other))
				if err != nil {
					return nil, err
				}
				return fs.get(n), nil
			})
		}
	}
	method("__contains__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		if args[1].Type() != fs.cls {
			return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for 'in': '%s' and 'RegexFlag'", python.TypeName(args[1]))
		}
		v, o := flagOf(args[0]), flagOf(args[1])
		return python.MakeBool(v&o == o), nil
	})
	method("__format__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "__format__ expected 1 argument, got %d", len(args)-1)
		}
		spec, ok := args[1].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "__format__() argument must be str, not %s", python.TypeName(args[1]))
		}
		v := flagOf(args[0])
		if spec.String() == "" {
			return python.NewStr(flagRepr(v)), nil
		}
		s, err := python.Format(t, python.MakeInt(v), spec.String())
		if err != nil {
			return nil, err
		}
		return python.NewStr(s), nil
	})
	prop := func(name string, f func(v int64) python.Object) {
		ns.SetStr(name, python.NewProperty(python.NewBuiltin(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return f(flagOf(args[0])), nil
		}), nil))
	}
	name := func(v int64) python.Object {
		if n, ok := flagName(v); ok {
			return python.NewStr(n)
		}
		return python.None
	}
	value := func(v int64) python.Object { return python.MakeInt(v) }
	prop("name", name)
	prop("_name_", name)
	prop("value", value)
	prop("_value_", value)
	cls, err := python.NewClass(t, nil, "RegexFlag", []*python.Type{python.IntType}, ns)
	if err != nil {
		return nil, err
	}
	fs.cls = cls
	members := python.NewDict(32)
	noflag := fs.get(0)
	cls.SetAttr("NOFLAG", noflag)
	members.SetStr("NOFLAG", noflag)
	for _, d := range flagDefs {
		m := fs.get(d.v)
		fs.members = append(fs.members, m)
		cls.SetAttr(d.name, m)
		members.SetStr(d.name, m)
		if d.short != "" {
			cls.SetAttr(d.short, m)
			members.SetStr(d.short, m)
		}
	}
	mp, err := mappingProxy(t, members)
	if err != nil {
		return nil, err
	}
	cls.SetAttr("__members__", mp)
	cls.Hooks = &python.TypeHooks{
		Repr: func(t *python.Thread, cls *python.Type) (string, error) { return "<flag 'RegexFlag'>", nil },
		Iter: func(t *python.Thread, cls *python.Type) (python.Object, error) {
			out := make([]python.Object, len(fs.members))
			for i, m := range fs.members {
				out[i] = m
			}
			return python.Iter(t, python.NewList(out))
		},
		Len: func(t *python.Thread, cls *python.Type) (int, error) { return len(fs.members), nil },
		Contains: func(t *python.Thread, cls *python.Type, x python.Object) (bool, error) {
			if x.Type() == fs.cls {
				return true, nil
			}
			if _, ok := flagValue(x); ok {
				return true, nil
			}
			if f, ok := python.Unwrap(x).(python.Float); ok {
				return float64(f) == float64(int64(f)), nil
			}
			return false, nil
		},
		GetItem: func(t *python.Thread, cls *python.Type, key python.Object) (python.Object, error) {
			if python.IsStr(key) {
				if v, ok := members.GetStr(python.StrValue(python.Unwrap(key))); ok {
					return v, nil
				}
			}
			return nil, python.NewException(python.KeyErrorType, key)
		},
		Call: func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			vals, err := funcArgs("EnumType.__call__", args, kwargs, 0, "value")
			if err != nil {
				return nil, err
			}
			x := vals[0]
			if x.Type() == fs.cls {
				return x, nil
			}
			if v, ok := flagValue(x); ok {
				n, err := normalize(v)
				if err != nil {
					return nil, err
				}
				return fs.get(n), nil
			}
			if f, ok := python.Unwrap(x).(python.Float); ok && float64(f) == float64(int64(f)) {
				n, err := normalize(big.NewInt(int64(f)))
				if err != nil {
					return nil, err
				}
				return fs.get(n), nil
			}
			r, err := python.Repr(t, x)
			if err != nil {
				return nil, err
			}
			return nil, python.Errorf(python.ValueErrorType, "%s is not a valid RegexFlag", r)
		},
	}
	return fs, nil
}
