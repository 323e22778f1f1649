package python

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// builtinsTemplate is the builtins module's namespace, built once (by
// the first newBuiltins: a package-level sync.OnceValue(builtinFuncs)
// would link every builtin into programs that never make an
// interpreter): its values (types, singletons, functions capturing
// nothing of an interpreter) are immutable, so every interpreter's
// namespace starts as a copy of its entries sharing its str index.
var (
	builtinsOnce     sync.Once
	builtinsTemplate *Dict
)

// newBuiltins returns an interpreter's builtins namespace: the template's
// entries and index, shared until the namespace rebinds, adds or removes
// a name (Dict.own). Each interpreter may rebind or delete
// its builtins (import builtins; builtins.len = ...) without touching
// another's.
func newBuiltins() *Dict {
	builtinsOnce.Do(func() { builtinsTemplate = builtinFuncs() })
	tpl := builtinsTemplate
	return &Dict{entries: tpl.entries, live: tpl.live, strs: tpl.strs, shared: true}
}

// builtinFuncs returns the builtins module's namespace.
func builtinFuncs() *Dict {
	d := NewDict(128)
	// These read their argument slice only during the call and keep no
	// part of it (max and min iterate a tuple over it that nothing else
	// sees), so a call site may pass the thread's argument stack.
	borrowing := map[string]bool{"len": true, "max": true, "min": true, "abs": true, "isinstance": true}
	fn := func(name string, f BuiltinFunc) {
		b := NewBuiltin(name, f)
		b.module, b.borrows = "builtins", borrowing[name]
		d.SetStr(name, b)
	}
	for _, c := range []*Type{ObjectType, TypeType, IntType, BoolType, FloatType, ComplexType, StrType,
		BytesType, ByteArrayType, ListType, TupleType, DictType, SetType, FrozenSetType, RangeType,
		SliceType, PropertyType, StaticMethodType, ClassMethodType, SuperType, MapType, FilterType,
		ZipType, EnumerateType, ReversedType} {
		d.SetStr(c.name, c)
	}
	for _, c := range builtinExceptions() {
		d.SetStr(c.name, c)
	}
	d.SetStr("EnvironmentError", OSErrorType)
	d.SetStr("IOError", OSErrorType)
	d.SetStr("None", None)
	d.SetStr("Ellipsis", Ellipsis)
	d.SetStr("NotImplemented", NotImplemented)
	d.SetStr("True", True)
	d.SetStr("False", False)
	fn("print", builtinPrint)
	fn("len", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("len", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		n, err := Len(t, args[0])
		return MakeInt(int64(n)), err
	})
	fn("repr", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("repr", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		s, err := Repr(t, args[0])
		return NewStr(s), err
	})
	fn("ascii", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("ascii", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		s, err := Repr(t, args[0])
		return NewStr(asciiEscape(s)), err
	})
	fn("abs", builtinAbs)
	fn("all", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("all", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		res := true
		err := Iterate(t, args[0], func(x Object) error {
			b, err := TruthE(t, x)
			if err != nil {
				return err
			}
			if !b {
				res = false
				return ErrStop
			}
			return t.tick()
		})
		return MakeBool(res), err
	})
	fn("any", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("any", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		res := false
		err := Iterate(t, args[0], func(x Object) error {
			b, err := TruthE(t, x)
			if err != nil {
				return err
			}
			if b {
				res = true
				return ErrStop
			}
			return t.tick()
		})
		return MakeBool(res), err
	})
	fn("bin", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return intBase(t, "bin", args, kwargs, 2)
	})
	fn("oct", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return intBase(t, "oct", args, kwargs, 8)
	})
	fn("hex", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return intBase(t, "hex", args, kwargs, 16)
	})
	fn("callable", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("callable", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		return MakeBool(Callable(args[0])), nil
	})
	fn("chr", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("chr", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		n, ok, err := indexValue(t, args[0])
		if err != nil {
			return nil, Errorf(OverflowErrorType, "Python int too large to convert to C int")
		}
		if !ok {
			return nil, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(args[0]))
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, Errorf(OverflowErrorType, "Python int too large to convert to C int")
		}
		if n < 0 || n > 0x10ffff {
			return nil, Errorf(ValueErrorType, "chr() arg not in range(0x110000)")
		}
		if n >= 0xd800 && n <= 0xdfff {
			return nil, NotSupported("lone surrogate code points (chr(0xd800)..chr(0xdfff))", "code mode strings hold valid Unicode scalar values")
		}
		if n < 128 {
			return asciiChars[n], nil
		}
		return &Str{s: string(rune(n)), meta: strMeta(1, 2)}, nil
	})
	fn("ord", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("ord", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		switch v := args[0].(type) {
		case *Str:
			if v.Len() != 1 {
				return nil, Errorf(TypeErrorType, "ord() expected a character, but string of length %d found", v.Len())
			}
			for _, r := range v.s {
				return MakeInt(int64(r)), nil
			}
		case *Bytes:
			if len(v.b) != 1 {
				return nil, Errorf(TypeErrorType, "ord() expected a character, but string of length %d found", len(v.b))
			}
			return MakeInt(int64(v.b[0])), nil
		}
		return nil, Errorf(TypeErrorType, "ord() expected string of length 1, but %s found", typeName(args[0]))
	})
	fn("dir", builtinDir)
	fn("divmod", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("divmod", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		return divmod(t, args[0], args[1])
	})
	fn("format", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("format", args, kwargs, 1, 2); err != nil {
			return nil, err
		}
		spec := ""
		if len(args) == 2 {
			s, ok := args[1].(*Str)
			if !ok {
				return nil, Errorf(TypeErrorType, "format() argument 2 must be str, not %s", typeName(args[1]))
			}
			spec = s.s
		}
		s, err := Format(t, args[0], spec)
		return NewStr(s), err
	})
	fn("getattr", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("getattr", args, kwargs, 2, 3); err != nil {
			return nil, err
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "attribute name must be string, not '%s'", typeName(args[1]))
		}
		v, err := GetAttr(t, args[0], name.s)
		if err != nil && len(args) == 3 && IsInstance(err, AttributeErrorType) {
			return args[2], nil
		}
		return v, err
	})
	fn("setattr", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("setattr", args, kwargs, 3, 3); err != nil {
			return nil, err
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "attribute name must be string, not '%s'", typeName(args[1]))
		}
		return None, SetAttr(t, args[0], name.s, args[2])
	})
	fn("delattr", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("delattr", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "attribute name must be string, not '%s'", typeName(args[1]))
		}
		return None, DelAttr(t, args[0], name.s)
	})
	fn("hasattr", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("hasattr", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		name, ok := args[1].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "hasattr(): attribute name must be string")
		}
		b, err := HasAttr(t, args[0], name.s)
		return MakeBool(b), err
	})
	fn("hash", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("hash", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		h, err := Hash(t, args[0])
		return MakeInt(h), err
	})
	fn("id", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("id", args, kwargs, 1, 1); err != nil {
			return nil, err
		}
		return MakeInt(objectID(t, args[0])), nil
	})
	fn("isinstance", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("isinstance", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		b, err := isInstanceOf(t, args[0], args[1], 0)
		return MakeBool(b), err
	})
	fn("issubclass", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("issubclass", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		c, ok := args[0].(*Type)
		if !ok {
			return nil, Errorf(TypeErrorType, "issubclass() arg 1 must be a class")
		}
		b, err := isSubclassOf(t, c, args[1], 0)
		return MakeBool(b), err
	})
	fn("iter", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("iter", args, kwargs, 1, 2); err != nil {
			return nil, err
		}
		if len(args) == 2 {
			if !Callable(args[0]) {
				return nil, Errorf(TypeErrorType, "iter(object, sentinel): object must be callable")
			}
			return &callIter{fn: args[0], sentinel: args[1]}, nil
		}
		return Iter(t, args[0])
	})
	fn("next", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("next", args, kwargs, 1, 2); err != nil {
			return nil, err
		}
		if !isIterator(args[0]) {
			return nil, Errorf(TypeErrorType, "'%s' object is not an iterator", typeName(args[0]))
		}
		if g, ok := args[0].(*Generator); ok {
			v, done, err := g.core.send(t, None, nil)
			if err != nil {
				return nil, err
			}
			if done {
				if len(args) == 2 {
					return args[1], nil
				}
				e := NewException(StopIterationType)
				if v != None {
					e = NewException(StopIterationType, v)
					e.value = v
				}
				return nil, e
			}
			return v, nil
		}
		v, err := Next(t, args[0])
		if err != nil {
			return nil, err
		}
		if v == nil {
			if len(args) == 2 {
				return args[1], nil
			}
			return nil, NewException(StopIterationType)
		}
		return v, nil
	})
	fn("max", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return minMax(t, "max", args, kwargs, true)
	})
	fn("min", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return minMax(t, "min", args, kwargs, false)
	})
	fn("pow", builtinPow)
	fn("round", builtinRound)
	fn("sorted", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if len(args) != 1 {
			return nil, Errorf(TypeErrorType, "sorted expected 1 argument, got %d", len(args))
		}
		items, err := ToSlice(t, args[0])
		if err != nil {
			return nil, err
		}
		if _, ok := args[0].(*Tuple); ok {
			items = append([]Object(nil), items...)
		}
		l := NewList(items)
		if err := listSort(t, l, kwargs); err != nil {
			return nil, err
		}
		return l, nil
	})
	fn("sum", builtinSum)
	fn("vars", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("vars", args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return localsOf(t), nil
		}
		v, err := getAttr(t, args[0], "__dict__")
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, Errorf(TypeErrorType, "vars() argument must have __dict__ attribute")
		}
		return v, nil
	})
	fn("globals", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("globals", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		if t.frame != nil {
			return t.frame.globals, nil
		}
		return t.interp.globals, nil
	})
	fn("locals", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("locals", args, kwargs, 0, 0); err != nil {
			return nil, err
		}
		return localsOf(t), nil
	})
	fn("__import__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if len(args) < 1 {
			return nil, Errorf(TypeErrorType, "__import__() missing required argument 'name' (pos 1)")
		}
		name, ok := args[0].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "__import__() argument 1 must be str, not %s", typeName(args[0]))
		}
		return t.interp.importModule(t, name.s)
	})
	fn("exec", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return execEval(t, "exec", args, kwargs)
	})
	fn("eval", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return execEval(t, "eval", args, kwargs)
	})
	unsupported := func(name, hint string) {
		fn(name, func(*Thread, []Object, []Kwarg) (Object, error) {
			return nil, NotSupported(name+"()", hint)
		})
	}
	unsupported("open", "code mode has no file system: the data is in `context` (slice it, search it, or use re on it)")
	unsupported("input", "nobody types input here: use the context or llm_query()")
	unsupported("breakpoint", "there is no debugger: print what you want to inspect")
	unsupported("help", "print the object's __doc__ or dir() instead")
	unsupported("compile", "use exec() or eval() on the source string")
	unsupported("memoryview", "slice the bytes directly")
	unsupported("aiter", "code mode runs synchronously")
	unsupported("anext", "code mode runs synchronously")
	for _, name := range []string{"exit", "quit"} {
		fn(name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			return nil, NewException(SystemExitType, args...)
		})
	}
	return d
}

func builtinPrint(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	sep, end := " ", "\n"
	var file Object
	for _, kw := range kwargs {
		switch kw.Name {
		case "sep", "end":
			v := kw.Value
			s := ""
			if v != None {
				sv, ok := v.(*Str)
				if !ok {
					return nil, Errorf(TypeErrorType, "%s must be None or a string, not %s", kw.Name, typeName(v))
				}
				s = sv.s
			} else if kw.Name == "sep" {
				s = " "
			} else {
				s = "\n"
			}
			if kw.Name == "sep" {
				sep = s
			} else {
				end = s
			}
		case "file":
			if kw.Value != None {
				file = kw.Value
			}
		case "flush":
		default:
			return nil, Errorf(TypeErrorType, "'%s' is an invalid keyword argument for print()", kw.Name)
		}
	}
	if file == nil {
		// print writes to sys.stdout, which code may have replaced.
		if m, ok := t.interp.modules["sys"].(*Module); ok {
			if v, ok := m.dict.GetStr("stdout"); ok {
				if v == None {
					return None, nil // CPython prints nothing
				}
				file = v
			}
		}
	}
	// Each item, separator and the end are written one after the other,
	// as CPython does: what precedes an item whose str() fails is out.
	var write func(s string) error
	var b strings.Builder
	switch w := file.(type) {
	case nil:
		write = func(s string) error { b.WriteString(s); return nil }
		defer func() { t.Print(b.String()) }()
	case interface {
		WriteString(t *Thread, s string) error
	}:
		write = func(s string) error { return w.WriteString(t, s) }
	default:
		write = func(s string) error {
			_, err := callAttrName(t, file, "write", NewStr(s))
			return err
		}
	}
	for i, a := range args {
		if i > 0 {
			if err := write(sep); err != nil {
				return nil, err
			}
		}
		s, err := StrOf(t, a)
		if err != nil {
			return nil, err
		}
		if err := write(s); err != nil {
			return nil, err
		}
	}
	if err := write(end); err != nil {
		return nil, err
	}
	return None, nil
}

// callAttrName calls obj.name(args...).
func callAttrName(t *Thread, obj Object, name string, args ...Object) (Object, error) {
	m, self, err := lookupMethod(t, obj, name)
	if err != nil {
		return nil, err
	}
	if self != nil {
		return Call(t, m, prepend(self, args), nil)
	}
	return Call(t, m, args, nil)
}

// CallMethod calls obj.name(args...) (library use).
func CallMethod(t *Thread, obj Object, name string, args []Object, kwargs []Kwarg) (Object, error) {
	m, self, err := lookupMethod(t, obj, name)
	if err != nil {
		return nil, err
	}
	if self != nil {
		return Call(t, m, prepend(self, args), kwargs)
	}
	return Call(t, m, args, kwargs)
}

func asciiEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

func builtinAbs(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("abs", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case Int:
		if v < 0 {
			return intNeg(v), nil
		}
		return v, nil
	case *BigInt:
		return MakeBigInt(new(big.Int).Abs(v.v)), nil
	case Bool:
		if v {
			return Int(1), nil
		}
		return Int(0), nil
	case Float:
		return Float(math.Abs(float64(v))), nil
	case Complex:
		return Float(math.Hypot(real(v), imag(v))), nil
	case *Instance:
		if m := v.cls.userMethod("__abs__"); m != nil {
			return callMethod(t, m, v, nil, nil)
		}
		if v.base != nil {
			return builtinAbs(t, []Object{v.base}, nil)
		}
	}
	if a, ok := args[0].(interface {
		PyAbs(t *Thread) (Object, error)
	}); ok {
		return a.PyAbs(t)
	}
	return nil, Errorf(TypeErrorType, "bad operand type for abs(): '%s'", typeName(args[0]))
}

func intBase(t *Thread, fn string, args []Object, kwargs []Kwarg, base int) (Object, error) {
	if err := nargs(fn, args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	v, ok := intValue(args[0])
	if !ok {
		if o, isInst := args[0].(*Instance); isInst {
			if m := o.cls.userMethod("__index__"); m != nil {
				r, err := callMethod(t, m, o, nil, nil)
				if err != nil {
					return nil, err
				}
				return intBase(t, fn, []Object{r}, nil, base)
			}
		}
		return nil, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(args[0]))
	}
	return NewStr(FormatIntBase(toBig(v), base)), nil
}

// FormatIntBase renders an int with a 0b/0o/0x prefix.
func FormatIntBase(v *big.Int, base int) string {
	prefix := map[int]string{2: "0b", 8: "0o", 16: "0x"}[base]
	if v.Sign() < 0 {
		return "-" + prefix + new(big.Int).Neg(v).Text(base)
	}
	return prefix + v.Text(base)
}

func divmod(t *Thread, a, b Object) (Object, error) {
	if x, ok := intValue(a); ok {
		if y, ok := intValue(b); ok {
			q, r, err := intFloorDivMod(t, x, y, true, true, "divmod")
			if err != nil {
				return nil, err
			}
			return NewTuple([]Object{q, r}), nil
		}
	}
	x, okx, err := floatValue(a)
	if err != nil {
		return nil, err
	}
	y, oky, err := floatValue(b)
	if err != nil {
		return nil, err
	}
	if okx && oky && (isFloat(a) || isFloat(b)) {
		q, r, err := floatFloorDivMod(x, y, "divmod")
		if err != nil {
			return nil, err
		}
		return NewTuple([]Object{Float(q), Float(r)}), nil
	}
	if d, ok := a.(Divmoder); ok {
		r, err := d.PyDivmod(t, b, false)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	if d, ok := b.(Divmoder); ok {
		r, err := d.PyDivmod(t, a, true)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	// __divmod__ and __rdivmod__ of classes and Go types, the reflected
	// one first for a subclass of the left operand's type.
	ta, tb := a.Type(), b.Type()
	lm := ta.userMethodOrBuiltin("__divmod__")
	var rm Object
	if ta != tb {
		rm = tb.userMethodOrBuiltin("__rdivmod__")
	}
	if rm != nil && tb.IsSubtype(ta) {
		r, err := callMethod(t, rm, b, []Object{a}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
		rm = nil
	}
	if lm != nil {
		r, err := callMethod(t, lm, a, []Object{b}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	if rm != nil {
		r, err := callMethod(t, rm, b, []Object{a}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	return nil, Errorf(TypeErrorType, "unsupported operand type(s) for divmod(): '%s' and '%s'", typeName(a), typeName(b))
}

func minMax(t *Thread, fn string, args []Object, kwargs []Kwarg, isMax bool) (Object, error) {
	var key, def Object
	for _, kw := range kwargs {
		switch kw.Name {
		case "key":
			if kw.Value != None {
				key = kw.Value
			}
		case "default":
			def = kw.Value
		default:
			return nil, Errorf(TypeErrorType, "'%s' is an invalid keyword argument for %s()", kw.Name, fn)
		}
	}
	var seq Object
	switch len(args) {
	case 0:
		return nil, Errorf(TypeErrorType, "%s expected at least 1 argument, got 0", fn)
	case 1:
		seq = args[0]
	default:
		if def != nil {
			return nil, Errorf(TypeErrorType, "Cannot specify a default for %s() with multiple positional arguments", fn)
		}
		seq = NewTuple(args)
	}
	var best, bestKey Object
	n := 0
	err := Iterate(t, seq, func(x Object) error {
		n++
		if n&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return err
			}
		}
		k := x
		if key != nil {
			var err error
			if k, err = Call(t, key, []Object{x}, nil); err != nil {
				return err
			}
		}
		if best == nil {
			best, bestKey = x, k
			return nil
		}
		// CPython compares the item with the best so far: item > best
		// for max, item < best for min.
		op := CmpLt
		if isMax {
			op = CmpGt
		}
		r, err := Compare(t, op, k, bestKey)
		if err != nil {
			return err
		}
		better, err := TruthE(t, r)
		if err != nil {
			return err
		}
		if better {
			best, bestKey = x, k
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if best == nil {
		if def != nil {
			return def, nil
		}
		return nil, Errorf(ValueErrorType, "%s() iterable argument is empty", fn)
	}
	return best, nil
}

func builtinPow(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("pow", args, kwargs, 2, "base", "exp", "mod")
	if err != nil {
		return nil, err
	}
	if a[2] == nil || a[2] == None {
		return Binary(t, syntax.Pow, a[0], a[1])
	}
	// Three-argument pow: the base's __pow__(exp, mod) (a class's
	// __rpow__ is not used for it).
	if o, ok := a[0].(*Instance); ok {
		if m := o.cls.userMethod("__pow__"); m != nil {
			r, err := callMethod(t, m, o, []Object{a[1], a[2]}, nil)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
	}
	x, ok1 := intValue(a[0])
	y, ok2 := intValue(a[1])
	m, ok3 := intValue(a[2])
	if !ok1 || !ok2 || !ok3 {
		number := func(v Object) bool {
			switch unwrap(v).(type) {
			case Int, *BigInt, Bool, Float, Complex:
				return true
			}
			return false
		}
		if number(a[0]) && number(a[1]) && number(a[2]) {
			return nil, Errorf(TypeErrorType, "pow() 3rd argument not allowed unless all arguments are integers")
		}
		return nil, Errorf(TypeErrorType, "unsupported operand type(s) for ** or pow(): '%s', '%s', '%s'", typeName(a[0]), typeName(a[1]), typeName(a[2]))
	}
	r, err := pyfmt.IntPowMod(t.ctx, toBig(x), toBig(y), toBig(m))
	if err != nil {
		return nil, t.kernelErr(err)
	}
	return MakeBigInt(r), nil
}

func builtinRound(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("round", args, kwargs, 1, "number", "ndigits")
	if err != nil {
		return nil, err
	}
	x := a[0]
	nd := a[1]
	if nd == None {
		nd = nil
	}
	switch v := x.(type) {
	case Float:
		if nd == nil {
			return floatToIntRound(float64(v))
		}
		n, err := argInt(t, "round", nd)
		if err != nil {
			return nil, err
		}
		return Float(RoundFloat(float64(v), int(max(min(n, 400), -400)))), nil
	case Int, *BigInt, Bool:
		iv, _ := intValue(v)
		if nd == nil {
			return iv, nil
		}
		n, err := argInt(t, "round", nd)
		if err != nil {
			return nil, err
		}
		return roundInt(iv, n), nil
	case *Instance:
		if m := v.cls.userMethod("__round__"); m != nil {
			if nd == nil {
				return callMethod(t, m, v, nil, nil)
			}
			return callMethod(t, m, v, []Object{nd}, nil)
		}
		if v.base != nil {
			return builtinRound(t, []Object{v.base, nilToNone(nd)}, nil)
		}
	}
	if r, ok := x.(interface {
		PyRound(t *Thread, nd Object) (Object, error)
	}); ok {
		return r.PyRound(t, nd)
	}
	return nil, Errorf(TypeErrorType, "type %s doesn't define __round__ method", typeName(x))
}

func nilToNone(x Object) Object {
	if x == nil {
		return None
	}
	return x
}

func floatToIntRound(f float64) (Object, error) {
	small, b, err := pyfmt.RoundFloat(f)
	if err != nil {
		return nil, fromKernel(err)
	}
	if b != nil {
		return MakeBigInt(b), nil
	}
	return MakeInt(small), nil
}

// RoundFloat is round(x, n), correctly rounded as CPython does.
var RoundFloat = func(x float64, n int) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
		return x
	}
	if n >= 0 {
		s := fmt.Sprintf("%.*f", n, x)
		var r float64
		fmt.Sscan(s, &r)
		return r
	}
	m := math.Pow(10, float64(-n))
	return math.RoundToEven(x/m) * m
}

func roundInt(v Object, n int64) Object {
	if n >= 0 {
		return v
	}
	return MakeBigInt(pyfmt.RoundInt(toBig(v), big.NewInt(n)))
}

func builtinSum(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("sum", args, kwargs, 1, "iterable", "/", "start")
	if err != nil {
		return nil, err
	}
	var result Object = Int(0)
	if a[1] != nil {
		result = a[1]
		switch result.(type) {
		case *Str:
			return nil, Errorf(TypeErrorType, "sum() can't sum strings [use ''.join(seq) instead]")
		case *Bytes:
			return nil, Errorf(TypeErrorType, "sum() can't sum bytes [use b''.join(seq) instead]")
		case *ByteArray:
			return nil, Errorf(TypeErrorType, "sum() can't sum bytearray [use b''.join(seq) instead]")
		}
	}
	it, err := Iter(t, a[0])
	if err != nil {
		return nil, err
	}
	next := func() (Object, error) {
		if err := t.tick(); err != nil {
			return nil, err
		}
		return Next(t, it)
	}
	// Integers: exact, in int64 while it fits.
	if iv, ok := result.(Int); ok {
		acc := int64(iv)
		for {
			x, err := next()
			if err != nil {
				return nil, err
			}
			if x == nil {
				return MakeInt(acc), nil
			}
			if b, ok := AsInt64(x); ok && (isIntExact(x) || isBool(x)) {
				if s := acc + b; (s > acc) == (b > 0) {
					acc = s
					continue
				}
			}
			result, err = Binary(t, syntax.Add, MakeInt(acc), x)
			if err != nil {
				return nil, err
			}
			break
		}
	}
	// Floats: Neumaier's compensated summation (CPython 3.12).
	if fv, ok := result.(Float); ok {
		f := float64(fv)
		c := 0.0
		for {
			x, err := next()
			if err != nil {
				return nil, err
			}
			if x == nil {
				if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
					f += c
				}
				return Float(f), nil
			}
			if xf, ok := x.(Float); ok {
				y := float64(xf)
				s := f + y
				if math.Abs(f) >= math.Abs(y) {
					c += (f - s) + y
				} else {
					c += (y - s) + f
				}
				f = s
				continue
			}
			if xi, ok := x.(Int); ok {
				f += float64(xi)
				continue
			}
			if xb, ok := x.(Bool); ok {
				if xb {
					f += 1
				}
				continue
			}
			if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
				f += c
			}
			result, err = Binary(t, syntax.Add, Float(f), x)
			if err != nil {
				return nil, err
			}
			break
		}
	}
	for {
		x, err := next()
		if err != nil {
			return nil, err
		}
		if x == nil {
			return result, nil
		}
		if result, err = Binary(t, syntax.Add, result, x); err != nil {
			return nil, err
		}
	}
}

func isIntExact(x Object) bool {
	_, ok := x.(Int)
	return ok
}

func isBool(x Object) bool {
	_, ok := x.(Bool)
	return ok
}

// isInstanceOf implements isinstance(x, cls).
func isInstanceOf(t *Thread, x, cls Object, depth int) (bool, error) {
	if depth > 100 {
		return false, Errorf(RecursionErrorType, "maximum recursion depth exceeded in __instancecheck__")
	}
	switch c := cls.(type) {
	case *Type:
		if c.Hooks != nil && c.Hooks.InstanceCheck != nil {
			return c.Hooks.InstanceCheck(t, c, x)
		}
		if x.Type().IsSubtype(c) {
			return true, nil
		}
		// Then x.__class__, when a class's __getattribute__ or own
		// __class__ may make it differ from type(x) (proxies).
		if o, ok := x.(*Instance); ok && !o.cls.builtin && (o.cls.userMethod("__getattribute__") != nil || o.cls.userMethod("__class__") != nil) {
			v, err := getAttr(t, x, "__class__")
			if err != nil {
				if IsInstance(err, AttributeErrorType) {
					return false, nil
				}
				return false, err
			}
			if ct, ok := v.(*Type); ok && ct != o.cls {
				return ct.IsSubtype(c), nil
			}
		}
		return false, nil
	case *Tuple:
		for _, it := range c.items {
			ok, err := isInstanceOf(t, x, it, depth+1)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case *UnionType:
		for _, it := range c.args {
			ok, err := isInstanceOf(t, x, it, depth+1)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	if ic, ok := cls.(interface {
		InstanceCheck(t *Thread, x Object) (bool, error)
	}); ok {
		return ic.InstanceCheck(t, x)
	}
	return false, Errorf(TypeErrorType, "isinstance() arg 2 must be a type, a tuple of types, or a union")
}

func isSubclassOf(t *Thread, c *Type, cls Object, depth int) (bool, error) {
	if depth > 100 {
		return false, Errorf(RecursionErrorType, "maximum recursion depth exceeded in __subclasscheck__")
	}
	switch b := cls.(type) {
	case *Type:
		if b.Hooks != nil && b.Hooks.SubclassCheck != nil {
			return b.Hooks.SubclassCheck(t, b, c)
		}
		return c.IsSubtype(b), nil
	case *Tuple:
		for _, it := range b.items {
			ok, err := isSubclassOf(t, c, it, depth+1)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case *UnionType:
		for _, it := range b.args {
			ok, err := isSubclassOf(t, c, it, depth+1)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	return false, Errorf(TypeErrorType, "issubclass() arg 2 must be a class, a tuple of classes, or a union")
}

func builtinDir(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("dir", args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var names []string
	add := func(d *Dict) {
		if d == nil {
			return
		}
		d.Items(func(k, _ Object) bool {
			if s, ok := k.(*Str); ok && !seen[s.s] {
				seen[s.s] = true
				names = append(names, s.s)
			}
			return true
		})
	}
	if len(args) == 0 {
		d := localsOf(t)
		add(d)
	} else {
		x := args[0]
		if o, ok := x.(*Instance); ok {
			if m := o.cls.userMethod("__dir__"); m != nil {
				r, err := callMethod(t, m, o, nil, nil)
				if err != nil {
					return nil, err
				}
				items, err := ToSlice(t, r)
				if err != nil {
					return nil, err
				}
				l := NewList(append([]Object(nil), items...))
				return l, listSort(t, l, nil)
			}
		}
		switch v := x.(type) {
		case *Module:
			add(v.dict)
		case *Type:
			for _, c := range v.mro {
				add(c.dict)
			}
		default:
			add(instanceDict(x))
			for _, c := range x.Type().mro {
				add(c.dict)
			}
		}
		if _, isMod := x.(*Module); !isMod {
			for _, n := range []string{"__class__", "__doc__"} {
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	slices.Sort(names)
	out := make([]Object, len(names))
	for i, n := range names {
		out[i] = NewStr(n)
	}
	return NewList(out), nil
}

// localsOf returns locals(): the globals at module level, a class body's
// namespace, or a function's locals dict (see frameLocals).
func localsOf(t *Thread) *Dict {
	f := t.frame
	if f == nil {
		return t.interp.globals
	}
	return frameLocals(f)
}

// frameLocals returns a frame's locals: its namespace (module, class body,
// exec with a locals mapping), or for a function the dict CPython 3.12
// keeps per frame: each call refreshes it with the variables' values
// (names bound elsewhere, as by exec, stay). A list, set or dict
// comprehension's variables are the enclosing frame's (PEP 709).
func frameLocals(f *Frame) *Dict {
	if f.locals != nil {
		return f.locals
	}
	if f.code == nil || f.code.Name == "<module>" {
		return f.globals
	}
	if f.inlined && f.back != nil {
		d := frameLocals(f.back).Copy()
		f.refreshLocals(d)
		return d
	}
	if f.snap == nil {
		f.snap = NewDict(len(f.fast) + len(f.cells))
	}
	f.refreshLocals(f.snap)
	return f.snap
}

// refreshLocals stores the frame's variables into d (removing unbound ones).
func (f *Frame) refreshLocals(d *Dict) {
	set := func(n string, v Object) {
		if v != nil {
			d.SetStr(n, v)
		} else if _, ok := d.GetStr(n); ok {
			_, _, _ = d.Delete(nil, NewStr(n))
		}
	}
	for i, n := range f.code.fastNames {
		if i < len(f.fast) && (!f.inlined || n != ".0") {
			set(n, f.fast[i])
		}
	}
	for i, n := range f.code.cellNames {
		if i < len(f.cells) && f.cells[i] != nil {
			set(n, f.cells[i].v)
		}
	}
}

func execEval(t *Thread, fn string, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs(fn, args, kwargs, 1, "source", "globals", "locals")
	if err != nil {
		return nil, err
	}
	src, ok := a[0].(*Str)
	if !ok {
		return nil, Errorf(TypeErrorType, "%s() arg 1 must be a string, bytes or code object", fn)
	}
	globals := t.interp.globals
	if t.frame != nil {
		globals = t.frame.globals
	}
	var locals *Dict
	if a[1] != nil && a[1] != None {
		g, ok := a[1].(*Dict)
		if !ok {
			return nil, Errorf(TypeErrorType, "%s() globals must be a dict, not %s", fn, typeName(a[1]))
		}
		globals = g
		locals = g
	} else {
		// No globals: the caller's globals and locals (a function's
		// locals dict: what the code binds stays out of its variables).
		locals = localsOf(t)
	}
	if a[2] != nil && a[2] != None {
		l, ok := a[2].(*Dict)
		if !ok {
			if !isMapping(a[2]) {
				return nil, Errorf(TypeErrorType, "locals must be a mapping")
			}
			return nil, NotSupported(fn+"() with a locals mapping that is not a dict", "pass a dict")
		}
		locals = l
	}
	if fn == "eval" {
		e, err := syntax.ParseExpr(strings.TrimLeft(src.s, " \t"))
		if err != nil {
			return nil, syntaxException(err, "<string>")
		}
		mod := &syntax.Module{Body: []syntax.Stmt{&syntax.Return{Value: e}}}
		return t.interp.runCode(t, mod, "<string>", globals, locals, true)
	}
	mod, err := syntax.Parse(src.s)
	if err != nil {
		return nil, syntaxException(err, "<string>")
	}
	_, err = t.interp.runCode(t, mod, "<string>", globals, locals, false)
	if err != nil {
		return nil, err
	}
	return None, nil
}

// objectID is id(x): objects with an identity (mutable ones, tuples, strs
// longer than one character, big ints, bytes) are numbered in the order
// they are first asked; values compared by value in `is` (small ints,
// floats, None, one-character strs) get an id from their hash, in a
// separate range.
func objectID(t *Thread, x Object) int64 {
	if s, ok := x.(*Str); !ok || len(s.s) > 1 {
		if h, ok := x.(hasIdentity); ok {
			return int64(0x7f0000000000 + h.ident()*16)
		}
	}
	h, err := Hash(t, x)
	if err != nil {
		return int64(0x7f0000000000 + newID()*16)
	}
	// A 36-bit mix of the hash: equal values share an id, as `is` says.
	m := uint64(h) * 0x9E3779B97F4A7C15
	return int64(0x7e0000000000 + (m>>28)&(1<<36-1)*16)
}
