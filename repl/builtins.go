package repl

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/repl/internal/pymod"
)

type builtinFn = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

// modules importable by name (import X / from X import Y).
var modules = map[string]starlark.Value{
	"re":          pymod.Re,
	"json":        pymod.JSON,
	"math":        pymod.Math,
	"collections": pymod.Collections,
	"string":      pymod.String,
	"time":        pymod.Time,
	"typing":      pymod.Typing,
}

// standard returns the predeclared names of code mode (a fresh dict per interpreter).
func standard() starlark.StringDict {
	d := starlark.StringDict{}
	add := func(name string, fn builtinFn) { d[name] = starlark.NewBuiltin(name, fn) }
	add("print", builtinPrint)
	add("FINAL", builtinFinal)
	add("FINAL_VAR", builtinFinalVar)
	add("SHOW_VARS", builtinShowVars)
	add("sum", builtinSum)
	add("min", minmax(syntax.LT))
	add("max", minmax(syntax.GT))
	add("round", builtinRound)
	add("isinstance", builtinIsinstance)
	add("map", builtinMap)
	add("filter", builtinFilter)
	add("divmod", builtinDivmod)
	add("pow", builtinPow)
	add("callable", builtinCallable)
	add("enumerate", builtinEnumerate)
	add("iter", builtinIter)
	add("next", builtinNext)
	add("format", builtinFormat)
	add("repr", builtinRepr)
	for name, base := range map[string]int{"hex": 16, "oct": 8, "bin": 2} {
		add(name, intToBase(name, base))
	}
	for _, name := range []string{"sorted", "zip", "reversed"} {
		d[name] = sized(name)
	}
	for _, name := range []string{"list", "tuple", "set", "dict"} {
		d[name] = &pyClass{name: name, fn: sized(name)}
	}
	for _, name := range []string{"bool", "bytes"} {
		d[name] = &pyClass{name: name, fn: starlark.Universe[name].(*starlark.Builtin)}
	}
	for _, name := range []string{"int", "float"} {
		d[name] = &pyClass{name: name, fn: numberParser(name)}
	}
	d["str"] = &pyClass{name: "str", fn: starlark.NewBuiltin("str", builtinStr)}
	add("type", builtinType)
	for _, name := range []string{"all", "any"} {
		want := name == "any"
		add(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var x starlark.Value
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
				return nil, err
			}
			stop := errors.New("stop")
			err := pymod.IterateT(thread, x, func(v starlark.Value) error {
				if bool(v.Truth()) == want {
					return stop
				}
				return nil
			})
			if err == stop {
				return starlark.Bool(want), nil
			}
			return starlark.Bool(!want), err
		})
	}
	add("_rlm_bound", builtinBound)
	getattr := starlark.Universe["getattr"].(*starlark.Builtin)
	add("getattr", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		v, err := starlark.Call(thread, getattr, args, kwargs)
		if err != nil || len(args) < 2 {
			return v, err
		}
		if name, ok := args[1].(starlark.String); ok && methods[string(name)] {
			return checkedMethod(args[0], string(name), v), nil
		}
		return v, nil
	})
	for name, m := range modules {
		if name != "typing" {
			d[name] = m
		}
	}
	for _, name := range pymod.ExceptionNames() {
		d[name] = &pyClass{name: name, fn: starlark.NewBuiltin(name, exceptionCtor(name))}
	}
	d["_rlm_unbound"] = unbound
	d["random"] = pymod.NewRandom() // per interpreter: its own deterministic generator
	add("globals", builtinGlobals)
	add("locals", builtinGlobals)
	for name, fn := range helpers() {
		d[name] = starlark.NewBuiltin(name, fn)
	}
	d["_rlm_slice"] = sliceOperand{}
	return d
}

// sized wraps a Starlark builtin that materializes its iterable argument:
// a sized argument over the memory bound is refused before allocating.
func sized(name string) *starlark.Builtin {
	inner := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var n int64
		for _, a := range args {
			switch a := a.(type) {
			case starlark.String:
				n += int64(len(a))
			case starlark.Sequence:
				n += int64(a.Len())
			}
		}
		if err := pymod.CheckSize(thread, name+"(...)", n*pymod.ElemBytes); err != nil {
			return nil, err
		}
		// Python iterates strings by character; Starlark strings are not iterable.
		if len(args) > 0 && name != "str" && name != "dict" {
			args = append(starlark.Tuple(nil), args...)
			for i, a := range args {
				if s, ok := a.(starlark.String); ok {
					args[i] = chars(s)
				} else if a, ok := a.(iterable); ok {
					args[i] = a.list()
				}
			}
		}
		return starlark.Call(thread, inner, args, kwargs)
	})
}

// numberParser is Starlark's int or float, reading a string argument with
// the surrounding whitespace Python allows (int(" 12\n") is 12).
func numberParser(name string) *starlark.Builtin {
	inner := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 {
			if s, ok := args[0].(starlark.String); ok && name == "int" && len(s) > 100_000 {
				return nil, pymod.Errorf("ValueError", "Exceeds the limit (100000 digits) for integer string conversion")
			}
			if s, ok := args[0].(starlark.String); ok {
				if t := strings.TrimSpace(string(s)); len(t) != len(s) && t != "" {
					args = append(starlark.Tuple{starlark.String(t)}, args[1:]...)
				}
			}
		}
		return starlark.Call(thread, inner, args, kwargs)
	})
}

// iterable is implemented by the lazy iterators of map/filter/iter.
type iterable interface{ list() *starlark.List }

func chars(s starlark.String) *starlark.List {
	out := make([]starlark.Value, 0, len(s))
	for _, r := range string(s) {
		out = append(out, starlark.String(string(r)))
	}
	return starlark.NewList(out)
}

// cellGlobals returns the globals as the running cell sees them now: the
// persistent ones overlaid with those the cell has bound so far.
func cellGlobals(thread *starlark.Thread) starlark.StringDict {
	c := cellOf(thread)
	out := starlark.StringDict{}
	if c != nil {
		for k, v := range c.it.globals {
			out[k] = v
		}
	}
	if n := thread.CallStackDepth(); n > 0 {
		if fn, ok := thread.DebugFrame(n - 1).Callable().(*starlark.Function); ok {
			for k, v := range fn.Globals() {
				out[k] = v
			}
		}
	}
	return out
}

func builtinPrint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep, end := " ", "\n"
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		switch k {
		case "sep", "end":
			s, ok := kv[1].(starlark.String)
			if !ok && kv[1] != starlark.None {
				return nil, pymod.Errorf("TypeError", "%s must be None or a string, not %s", k, pyType(kv[1]))
			}
			if ok {
				if k == "sep" {
					sep = string(s)
				} else {
					end = string(s)
				}
			}
		case "file", "flush":
		default:
			return nil, pymod.Errorf("TypeError", "'%s' is an invalid keyword argument for print()", k)
		}
	}
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(pymod.Str(a))
		if sb.Len() > 1<<20 {
			// keep going cheaply: the output bound cuts it anyway
			if c := cellOf(thread); c != nil {
				c.write(sb.String())
				sb.Reset()
			}
		}
	}
	sb.WriteString(end)
	if c := cellOf(thread); c != nil {
		c.write(sb.String())
	}
	return starlark.None, nil
}

func finish(thread *starlark.Thread, v starlark.Value) error {
	c := cellOf(thread)
	if c == nil {
		return pymod.Errorf("RuntimeError", "no running cell")
	}
	g, err := ToGo(v)
	if err != nil {
		g = pymod.Str(v)
	}
	c.final = &Final{Value: g}
	return errFinish
}

func builtinFinal(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("FINAL", args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	return nil, finish(thread, v)
}

func builtinFinalVar(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("FINAL_VAR", args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	name, ok := v.(starlark.String)
	if !ok {
		// FINAL_VAR(x) with the value itself: accept it as FINAL(x).
		return nil, finish(thread, v)
	}
	key := strings.TrimSpace(strings.Trim(string(name), `"'`))
	if val, found := cellGlobals(thread)[key]; found && val != nil {
		return nil, finish(thread, val)
	}
	return nil, pymod.Errorf("NameError", "FINAL_VAR: no variable named %q; assign it first, or call FINAL(value)", key)
}

func builtinShowVars(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := cellOf(thread)
	if c == nil {
		return starlark.None, nil
	}
	g := cellGlobals(thread)
	var sb strings.Builder
	n := 0
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if c.it.predecl[k] || strings.HasPrefix(k, "_") || g[k] == nil {
			continue
		}
		fmt.Fprintf(&sb, "%s: %s = %s\n", k, pyType(g[k]), preview(g[k], 80))
		n++
	}
	if n == 0 {
		sb.WriteString("(no variables yet)\n")
	}
	c.write(sb.String())
	return starlark.None, nil
}

// intToBase is hex, oct or bin: '0x1f', '-0o7', '0b101'.
func intToBase(name string, base int) builtinFn {
	prefix := map[int]string{16: "0x", 8: "0o", 2: "0b"}[base]
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		i, ok := boolInt(x).(starlark.Int)
		if !ok {
			return nil, pymod.Errorf("TypeError", "'%s' object cannot be interpreted as an integer", pyType(x))
		}
		bi := i.BigInt()
		if err := pymod.CheckSize(thread, name+"()'s result", int64(bi.BitLen())); err != nil {
			return nil, err
		}
		digits := bi.Text(base)
		if bi.Sign() < 0 {
			return starlark.String("-" + prefix + digits[1:]), nil
		}
		return starlark.String(prefix + digits), nil
	}
}

// builtinSum is Python 3.12's sum: bools count as ints, and floats are
// added with Neumaier's compensated summation (sum([0.1] * 10) == 1.0).
func builtinSum(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var start starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs("sum", args, kwargs, "iterable", &it, "start?", &start); err != nil {
		return nil, err
	}
	acc := boolInt(start)
	// floating: acc is the float f + c, summed with compensation
	floating := false
	var f, c float64
	if x, ok := acc.(starlark.Float); ok {
		floating, f = true, float64(x)
	}
	flush := func() {
		if floating {
			if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
				f += c
			}
			acc, floating, c = starlark.Float(f), false, 0
		}
	}
	err := pymod.IterateT(thread, it, func(x starlark.Value) error {
		x = boolInt(x)
		if floating {
			switch x := x.(type) {
			case starlark.Float:
				y := float64(x)
				t := f + y
				if math.Abs(f) >= math.Abs(y) {
					c += (f - t) + y
				} else {
					c += (y - t) + f
				}
				f = t
				return nil
			case starlark.Int:
				if v, ok := x.Int64(); ok {
					f += float64(v)
					return nil
				}
			}
			flush()
		}
		var err error
		acc, err = starlark.Binary(syntax.PLUS, acc, x)
		if err != nil {
			return pymod.Errorf("TypeError", "sum: %v", err)
		}
		if y, ok := acc.(starlark.Float); ok {
			floating, f, c = true, float64(y), 0
		}
		return nil
	})
	flush()
	return acc, err
}

func minmax(op syntax.Token) builtinFn {
	name := map[syntax.Token]string{syntax.LT: "min", syntax.GT: "max"}[op]
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var key, def starlark.Value
		for _, kv := range kwargs {
			k, _ := starlark.AsString(kv[0])
			switch k {
			case "key":
				if kv[1] != starlark.None {
					key = kv[1]
				}
			case "default":
				def = kv[1]
			default:
				return nil, pymod.Errorf("TypeError", "%s() got an unexpected keyword argument '%s'", name, k)
			}
		}
		var items starlark.Value
		switch len(args) {
		case 0:
			return nil, pymod.Errorf("TypeError", "%s expected at least 1 argument, got 0", name)
		case 1:
			items = args[0]
		default:
			items = args
		}
		var best, bestKey starlark.Value
		err := pymod.IterateT(thread, items, func(x starlark.Value) error {
			k := x
			if key != nil {
				var err error
				if k, err = starlark.Call(thread, key, starlark.Tuple{x}, nil); err != nil {
					return err
				}
			}
			if best == nil {
				best, bestKey = x, k
				return nil
			}
			better, err := starlark.Compare(op, k, bestKey)
			if err != nil {
				return pymod.Errorf("TypeError", "%s: %v", name, err)
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
			return nil, pymod.Errorf("ValueError", "%s() arg is an empty sequence", name)
		}
		return best, nil
	}
}

func builtinRound(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, nd starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs("round", args, kwargs, "number", &x, "ndigits?", &nd); err != nil {
		return nil, err
	}
	if i, ok := x.(starlark.Int); ok {
		return roundInt(i, nd)
	}
	f, ok := starlark.AsFloat(x)
	if !ok {
		return nil, pymod.Errorf("TypeError", "type %s doesn't define __round__ method", pyType(x))
	}
	if nd == starlark.None {
		return pymod.FloatToInt(math.RoundToEven(f))
	}
	n, err := starlark.AsInt32(nd)
	if err != nil {
		return nil, pymod.Errorf("TypeError", "round: ndigits must be an int")
	}
	if n > 300 || n < -300 {
		return starlark.Float(f), nil
	}
	if n < 0 {
		p := math.Pow(10, float64(-n))
		return starlark.Float(math.RoundToEven(f/p) * p), nil
	}
	// Correctly rounded, like CPython: round the exact binary value in decimal.
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', int(n), 64), 64)
	if err != nil {
		return starlark.Float(f), nil
	}
	return starlark.Float(r), nil
}

// roundInt is Python's round(int, ndigits): unchanged unless ndigits is
// negative, then rounded to a multiple of 10**-ndigits, ties to even.
func roundInt(i starlark.Int, nd starlark.Value) (starlark.Value, error) {
	if nd == starlark.None {
		return i, nil
	}
	n, err := starlark.AsInt32(nd)
	if err != nil {
		return nil, pymod.Errorf("TypeError", "round: ndigits must be an int")
	}
	if n >= 0 {
		return i, nil
	}
	x := i.BigInt()
	if -int64(n) > int64(len(new(big.Int).Abs(x).String())) {
		return starlark.MakeInt(0), nil // 10**-n is past twice |x|: rounds to 0
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil)
	q, r := new(big.Int).DivMod(x, p, new(big.Int)) // floor quotient, 0 <= r < p
	switch c := new(big.Int).Lsh(r, 1).Cmp(p); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return starlark.MakeBigInt(q.Mul(q, p)), nil
}

// typeNames maps the type objects code mode offers to Starlark type names.
func typeNames(v starlark.Value) ([]string, bool) {
	switch v := v.(type) {
	case *pyClass, *starlark.Builtin:
		name := v.(starlark.Callable).Name()
		switch name {
		case "str":
			return []string{"string"}, true
		case "int":
			return []string{"int", "bool"}, true
		case "float":
			return []string{"float"}, true
		case "bool":
			return []string{"bool"}, true
		case "list":
			return []string{"list"}, true
		case "dict":
			return []string{"dict", "Counter", "defaultdict"}, true
		case "tuple":
			return []string{"tuple"}, true
		case "set":
			return []string{"set"}, true
		case "bytes":
			return []string{"bytes"}, true
		case "Counter":
			return []string{"Counter"}, true
		case "defaultdict":
			return []string{"defaultdict"}, true
		case "deque":
			return []string{"deque"}, true
		}
		if isExceptionName(name) {
			return []string{name}, true
		}
		if _, ok := v.(*pyClass); ok {
			return []string{name}, true
		}
	case starlark.Tuple:
		var out []string
		for _, e := range v {
			n, ok := typeNames(e)
			if !ok {
				return nil, false
			}
			out = append(out, n...)
		}
		return out, true
	case starlark.String:
		if isExceptionName(string(v)) {
			return []string{string(v)}, true
		}
		// type(x) in Starlark is a string; isinstance(x, type(y)) works too.
		return []string{string(v)}, true
	case starlark.NoneType:
		return []string{"NoneType"}, true
	}
	return nil, false
}

func builtinIsinstance(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, t starlark.Value
	if err := starlark.UnpackPositionalArgs("isinstance", args, kwargs, 2, &x, &t); err != nil {
		return nil, err
	}
	names, ok := typeNames(t)
	if !ok {
		return nil, pymod.Errorf("TypeError", "isinstance() arg 2 must be a type or tuple of types, not %s", pyType(t))
	}
	tn := x.Type()
	for _, n := range names {
		if n == tn {
			return starlark.True, nil
		}
		if e, ok := x.(*pymod.Exc); ok && pymod.IsSubtype(e.Typ, n) {
			return starlark.True, nil
		}
	}
	return starlark.False, nil
}

func builtinCallable(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("callable", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	_, ok := x.(starlark.Callable)
	return starlark.Bool(ok), nil
}

// map and filter are eager (they return lists): Starlark has no generators.
func builtinMap(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 || len(kwargs) > 0 {
		return nil, pymod.Errorf("TypeError", "map() must have at least two arguments")
	}
	fn := args[0]
	var lists [][]starlark.Value
	for _, a := range args[1:] {
		var l []starlark.Value
		if err := pymod.Iterate(a, func(x starlark.Value) error { l = append(l, x); return nil }); err != nil {
			return nil, err
		}
		lists = append(lists, l)
	}
	n := len(lists[0])
	for _, l := range lists {
		n = min(n, len(l))
	}
	out := make([]starlark.Value, 0, n)
	for i := 0; i < n; i++ {
		call := make(starlark.Tuple, len(lists))
		for j := range lists {
			call[j] = lists[j][i]
		}
		v, err := starlark.Call(thread, fn, call, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return starlark.NewList(out), nil
}

func builtinFilter(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn, it starlark.Value
	if err := starlark.UnpackPositionalArgs("filter", args, kwargs, 2, &fn, &it); err != nil {
		return nil, err
	}
	var out []starlark.Value
	err := pymod.Iterate(it, func(x starlark.Value) error {
		keep := x.Truth()
		if fn != starlark.None {
			v, err := starlark.Call(thread, fn, starlark.Tuple{x}, nil)
			if err != nil {
				return err
			}
			keep = v.Truth()
		}
		if keep {
			out = append(out, x)
		}
		return nil
	})
	return starlark.NewList(out), err
}

func builtinDivmod(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs("divmod", args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	q, err := starlark.Binary(syntax.SLASHSLASH, x, y)
	if err != nil {
		return nil, err
	}
	r, err := starlark.Binary(syntax.PERCENT, x, y)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{q, r}, nil
}

func builtinPow(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	var m starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("pow", args, kwargs, 2, &x, &y, &m); err != nil {
		return nil, err
	}
	return power(thread, x, y, m)
}

// power is Python's x ** y (and pow(x, y, m)) with a size check on big ints.
func power(thread *starlark.Thread, x, y, m starlark.Value) (starlark.Value, error) {
	xi, xok := x.(starlark.Int)
	yi, yok := y.(starlark.Int)
	if xok && yok {
		if yi.Sign() < 0 {
			xf, _ := starlark.AsFloat(x)
			yf, _ := starlark.AsFloat(y)
			if math.IsInf(xf, 0) {
				return nil, pymod.Errorf("OverflowError", "int too large to convert to float")
			}
			return pymod.FloatPow(xf, yf)
		}
		bx, by := xi.BigInt(), yi.BigInt()
		if m != starlark.None {
			mi, ok := m.(starlark.Int)
			if !ok || mi.Sign() == 0 {
				return nil, pymod.Errorf("ValueError", "pow() 3rd argument must be a nonzero int")
			}
			if mb := mi.BigInt().BitLen(); by.BitLen() > 64 && float64(by.BitLen())*float64(mb)*float64(mb) > 1<<36 {
				return nil, pymod.Errorf("ValueError", "pow() with a %d-bit exponent and a %d-bit modulus is too costly", by.BitLen(), mb)
			}
			return starlark.MakeBigInt(new(big.Int).Exp(bx, by, mi.BigInt())), nil
		}
		// result bits ≈ y * bits(x)
		bits := float64(bx.BitLen()) * float64(by.Int64())
		if by.BitLen() > 62 || bits/8 > float64(pymod.Limit(thread)) || bits > 1<<24 {
			if bx.BitLen() > 1 || bx.Sign() < 0 {
				return nil, memoryError("an integer power", int64(math.Min(bits/8, math.MaxInt64/2)), pymod.Limit(thread))
			}
		}
		return starlark.MakeBigInt(new(big.Int).Exp(bx, by, nil)), nil
	}
	xf, ok1 := starlark.AsFloat(x)
	yf, ok2 := starlark.AsFloat(y)
	if !ok1 || !ok2 {
		return nil, pymod.Errorf("TypeError", "unsupported operand type(s) for ** or pow(): '%s' and '%s'", pyType(x), pyType(y))
	}
	if _, big := x.(starlark.Int); big && math.IsInf(xf, 0) {
		return nil, pymod.Errorf("OverflowError", "int too large to convert to float")
	}
	if _, big := y.(starlark.Int); big && math.IsInf(yf, 0) {
		return nil, pymod.Errorf("OverflowError", "int too large to convert to float")
	}
	return pymod.FloatPow(xf, yf)
}

func builtinEnumerate(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	start := 0
	if err := starlark.UnpackArgs("enumerate", args, kwargs, "iterable", &it, "start?", &start); err != nil {
		return nil, err
	}
	if s, ok := it.(starlark.Sequence); ok {
		if err := pymod.CheckSize(thread, "enumerate(...)", int64(s.Len())*3*pymod.ElemBytes); err != nil {
			return nil, err
		}
	}
	var out []starlark.Value
	i := start
	err := pymod.Iterate(it, func(x starlark.Value) error {
		out = append(out, starlark.Tuple{starlark.MakeInt(i), x})
		i++
		return nil
	})
	return starlark.NewList(out), err
}

// iterator is the value of iter(x): a cursor over a snapshot of x's elements.
type iterator struct {
	elems []starlark.Value
	pos   int
}

func (it *iterator) String() string       { return "<iterator>" }
func (it *iterator) Type() string         { return "iterator" }
func (it *iterator) Freeze()              {}
func (it *iterator) Truth() starlark.Bool { return true }
func (it *iterator) Hash() (uint32, error) {
	return 0, pymod.Errorf("TypeError", "unhashable type: 'iterator'")
}
func (it *iterator) Iterate() starlark.Iterator {
	rest := it.elems[it.pos:]
	it.pos = len(it.elems)
	return starlark.NewList(rest).Iterate()
}
func (it *iterator) list() *starlark.List {
	rest := it.elems[it.pos:]
	it.pos = len(it.elems)
	return starlark.NewList(rest)
}

func builtinIter(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("iter", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	if it, ok := x.(*iterator); ok {
		return it, nil
	}
	var elems []starlark.Value
	if err := pymod.Iterate(x, func(v starlark.Value) error { elems = append(elems, v); return nil }); err != nil {
		return nil, err
	}
	return &iterator{elems: elems}, nil
}

func builtinNext(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, def starlark.Value
	if err := starlark.UnpackPositionalArgs("next", args, kwargs, 1, &x, &def); err != nil {
		return nil, err
	}
	it, ok := x.(*iterator)
	if !ok {
		// next(<list>) over a comprehension (a translated generator): its first element.
		if s, isSeq := x.(starlark.Indexable); isSeq {
			if s.Len() > 0 {
				return s.Index(0), nil
			}
			if def != nil {
				return def, nil
			}
			return nil, pymod.Errorf("StopIteration", "")
		}
		if itb, isIter := x.(starlark.Iterable); isIter {
			iter := itb.Iterate()
			defer iter.Done()
			var first starlark.Value
			if iter.Next(&first) {
				return first, nil
			}
			if def != nil {
				return def, nil
			}
			return nil, pymod.Errorf("StopIteration", "")
		}
		return nil, pymod.Errorf("TypeError", "'%s' object is not an iterator", pyType(x))
	}
	if it.pos >= len(it.elems) {
		if def != nil {
			return def, nil
		}
		return nil, pymod.Errorf("StopIteration", "")
	}
	v := it.elems[it.pos]
	it.pos++
	return v, nil
}

func builtinFormat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	spec := ""
	if err := starlark.UnpackPositionalArgs("format", args, kwargs, 1, &v, &spec); err != nil {
		return nil, err
	}
	s, err := pymod.FormatValue(thread, v, spec)
	return starlark.String(s), err
}

func builtinStr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 && len(kwargs) == 0 {
		return starlark.String(""), nil
	}
	if len(args) == 1 && len(kwargs) == 0 {
		s, err := pymod.StrChecked(thread, args[0])
		return starlark.String(s), err
	}
	return starlark.Call(thread, starlark.Universe["str"], args, kwargs)
}

func builtinRepr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("repr", args, kwargs, 1, &v); err != nil {
		return nil, err
	}
	s, err := pymod.ReprChecked(thread, v)
	return starlark.String(s), err
}

// builtinGlobals is globals() (and locals()): a snapshot dict of the names
// the cell can see, without the standard predeclared ones.
func builtinGlobals(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	g := cellGlobals(thread)
	keys := make([]string, 0, len(g))
	for k, v := range g {
		if v != nil && !standardNames()[k] && !strings.HasPrefix(k, "_rlm_") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	d := starlark.NewDict(len(keys))
	for _, k := range keys {
		_ = d.SetKey(starlark.String(k), g[k])
	}
	return d, nil
}

// builtinBound is _rlm_bound(x, name), x.name read as a value for a name
// of the checked methods (rewrite.go): the attribute, or, when it is a
// built-in method of x (str.join, list.copy, ...), one that goes through
// the checked method helper, as x.name(...) does.
func builtinBound(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	recv, name := args[0], string(args[1].(starlark.String))
	v, err := getMethod(recv, name)
	if err != nil {
		return nil, err
	}
	return checkedMethod(recv, name, v), nil
}

// checkedMethod returns v, the attribute name of recv, or when v is a
// built-in method bound to recv, the same method through the checked
// helper: a data attribute or a user function named like a method is
// left as it is.
func checkedMethod(recv starlark.Value, name string, v starlark.Value) starlark.Value {
	if m, ok := v.(*starlark.Builtin); !ok || m.Receiver() != recv {
		return v
	}
	shim := methodShim(name)
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, a starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return shim(thread, b, append(starlark.Tuple{recv}, a...), kw)
	}).BindReceiver(recv)
}
