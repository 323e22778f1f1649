package python

import (
	"fmt"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// constant converts a literal's value to an object.
func constant(v any) Object {
	switch x := v.(type) {
	case syntax.NoneType:
		return None
	case syntax.EllipsisType:
		return Ellipsis
	case bool:
		return MakeBool(x)
	case int64:
		return MakeInt(x)
	case *big.Int:
		return MakeBigInt(x)
	case float64:
		return Float(x)
	case complex128:
		return Complex(x)
	case string:
		return NewStr(x)
	case syntax.Bytes:
		return NewBytes(string(x))
	}
	return None
}

func (u *unit) exprs(list []syntax.Expr) ([]evalFn, error) {
	out := make([]evalFn, len(list))
	for i, e := range list {
		var err error
		if out[i], err = u.expr(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (u *unit) expr(e syntax.Expr) (evalFn, error) {
	switch n := e.(type) {
	case *syntax.Constant:
		if str, ok := n.Value.(string); ok && hasSurrogate(str) {
			return nil, NotSupported("lone surrogate code points in string literals ('\\ud800')", "code mode strings hold valid Unicode scalar values")
		}
		v := constant(n.Value)
		return func(*Frame) (Object, error) { return v, nil }, nil
	case *syntax.Name:
		return u.load(n.ID), nil
	case *syntax.Attribute:
		obj, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		name := n.Attr
		return func(f *Frame) (Object, error) {
			o, err := obj(f)
			if err != nil {
				return nil, err
			}
			return GetAttr(f.t, o, name)
		}, nil
	case *syntax.Subscript:
		if fn, ok, err := u.splitItem(n); ok || err != nil {
			return fn, err
		}
		obj, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		if sl, ok := n.Slice.(*syntax.Slice); ok && sl.Step == nil {
			return u.subscriptSlice(obj, sl)
		}
		key, err := u.expr(n.Slice)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			o, err := obj(f)
			if err != nil {
				return nil, err
			}
			k, err := key(f)
			if err != nil {
				return nil, err
			}
			return GetItem(f.t, o, k)
		}, nil
	case *syntax.Slice:
		lo, hi, err := u.bounds(n)
		if err != nil {
			return nil, err
		}
		st, err := u.optional(n.Step)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			s := new(Slice)
			var err error
			if s.Start, err = evalOptional(f, lo); err != nil {
				return nil, err
			}
			if s.Stop, err = evalOptional(f, hi); err != nil {
				return nil, err
			}
			if s.Step, err = evalOptional(f, st); err != nil {
				return nil, err
			}
			return s, nil
		}, nil
	case *syntax.BinOp:
		l, err := u.expr(n.Left)
		if err != nil {
			return nil, err
		}
		r, err := u.expr(n.Right)
		if err != nil {
			return nil, err
		}
		op := n.Op
		return func(f *Frame) (Object, error) {
			a, err := l(f)
			if err != nil {
				return nil, err
			}
			b, err := r(f)
			if err != nil {
				return nil, err
			}
			return Binary(f.t, op, a, b)
		}, nil
	case *syntax.UnaryOp:
		x, err := u.expr(n.Operand)
		if err != nil {
			return nil, err
		}
		op := n.Op
		return func(f *Frame) (Object, error) {
			v, err := x(f)
			if err != nil {
				return nil, err
			}
			return Unary(f.t, op, v)
		}, nil
	case *syntax.BoolOp:
		vals, err := u.exprs(n.Values)
		if err != nil {
			return nil, err
		}
		and := n.Op == syntax.And
		return func(f *Frame) (Object, error) {
			var v Object
			for i, ev := range vals {
				var err error
				if v, err = ev(f); err != nil {
					return nil, err
				}
				if i == len(vals)-1 {
					break
				}
				b, err := TruthE(f.t, v)
				if err != nil {
					return nil, err
				}
				if b != and {
					return v, nil
				}
			}
			return v, nil
		}, nil
	case *syntax.Compare:
		return u.compare(n)
	case *syntax.IfExp:
		test, err := u.cond(n.Test)
		if err != nil {
			return nil, err
		}
		body, err := u.expr(n.Body)
		if err != nil {
			return nil, err
		}
		orelse, err := u.expr(n.Orelse)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			b, err := test(f)
			if err != nil {
				return nil, err
			}
			if b {
				return body(f)
			}
			return orelse(f)
		}, nil
	case *syntax.Call:
		return u.call(n)
	case *syntax.List:
		items, err := u.starredList(n.Elts)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			xs, err := items(f)
			if err != nil {
				return nil, err
			}
			return NewList(xs), nil
		}, nil
	case *syntax.Tuple:
		items, err := u.starredList(n.Elts)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			xs, err := items(f)
			if err != nil {
				return nil, err
			}
			return NewTuple(xs), nil
		}, nil
	case *syntax.Set:
		items, err := u.starredList(n.Elts)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			xs, err := items(f)
			if err != nil {
				return nil, err
			}
			s := NewSet(false)
			for _, x := range xs {
				if err := s.Add(f.t, x); err != nil {
					return nil, err
				}
			}
			return s, nil
		}, nil
	case *syntax.Dict:
		return u.dictDisplay(n)
	case *syntax.ListComp:
		return u.comprehension(n, n.Generators, compList, n.Elt, nil)
	case *syntax.SetComp:
		return u.comprehension(n, n.Generators, compSet, n.Elt, nil)
	case *syntax.DictComp:
		return u.comprehension(n, n.Generators, compDict, n.Key, n.Value)
	case *syntax.GeneratorExp:
		return u.comprehension(n, n.Generators, compGen, n.Elt, nil)
	case *syntax.Lambda:
		return u.lambda(n)
	case *syntax.NamedExpr:
		val, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		st := u.storeName(n.Target.ID)
		return func(f *Frame) (Object, error) {
			v, err := val(f)
			if err != nil {
				return nil, err
			}
			return v, st(f, v)
		}, nil
	case *syntax.JoinedStr:
		return u.fstring(n)
	case *syntax.FormattedValue:
		return u.formatted(n)
	case *syntax.Yield:
		var val evalFn
		if n.Value != nil {
			var err error
			if val, err = u.expr(n.Value); err != nil {
				return nil, err
			}
		}
		return func(f *Frame) (Object, error) {
			v := None
			if val != nil {
				var err error
				if v, err = val(f); err != nil {
					return nil, err
				}
			}
			return f.gen.yield(f.t, v)
		}, nil
	case *syntax.YieldFrom:
		val, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (Object, error) {
			v, err := val(f)
			if err != nil {
				return nil, err
			}
			return f.gen.yieldFrom(f.t, v)
		}, nil
	case *syntax.Await:
		return nil, NotSupported("await", "code mode runs synchronously; call the function directly")
	case *syntax.Starred:
		return nil, &syntax.Error{Type: "SyntaxError", Msg: "can't use starred expression here", Line: n.Line, Col: n.Col + 1}
	}
	return nil, NotSupported("this expression", "")
}

// starredList compiles a list of expressions in which *x unpacks.
func (u *unit) starredList(elts []syntax.Expr) (func(*Frame) ([]Object, error), error) {
	fn, err := u.starredItems(elts)
	if err != nil {
		return nil, err
	}
	return func(f *Frame) ([]Object, error) {
		items, err := fn(f)
		if e, ok := err.(*starNotIterable); ok {
			return nil, Errorf(TypeErrorType, "Value after * must be an iterable, not %s", typeName(e.v))
		}
		return items, err
	}, nil
}

// starNotIterable is the error of starredItems for a *x that is not
// iterable: a display and a call word it differently.
type starNotIterable struct{ v Object }

func (e *starNotIterable) Error() string { return "value after * is not iterable" }

// starredItems is starredList with a *x that is not iterable reported as
// a *starNotIterable.
func (u *unit) starredItems(elts []syntax.Expr) (func(*Frame) ([]Object, error), error) {
	fns := make([]evalFn, len(elts))
	stars := make([]bool, len(elts))
	anyStar := false
	for i, e := range elts {
		var err error
		if s, ok := e.(*syntax.Starred); ok {
			stars[i], anyStar = true, true
			fns[i], err = u.expr(s.Value)
		} else {
			fns[i], err = u.expr(e)
		}
		if err != nil {
			return nil, err
		}
	}
	if !anyStar {
		return func(f *Frame) ([]Object, error) {
			out := make([]Object, len(fns))
			for i, fn := range fns {
				v, err := fn(f)
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
			return out, nil
		}, nil
	}
	return func(f *Frame) ([]Object, error) {
		out := make([]Object, 0, len(fns))
		for i, fn := range fns {
			v, err := fn(f)
			if err != nil {
				return nil, err
			}
			if !stars[i] {
				out = append(out, v)
				continue
			}
			items, err := ToSlice(f.t, v)
			if err != nil {
				if !isIterable(v) {
					return nil, &starNotIterable{v}
				}
				return nil, err
			}
			out = append(out, items...)
		}
		return out, nil
	}, nil
}

func (u *unit) dictDisplay(n *syntax.Dict) (evalFn, error) {
	keys := make([]evalFn, len(n.Keys))
	vals := make([]evalFn, len(n.Values))
	for i := range n.Keys {
		var err error
		if n.Keys[i] != nil {
			if keys[i], err = u.expr(n.Keys[i]); err != nil {
				return nil, err
			}
		}
		if vals[i], err = u.expr(n.Values[i]); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (Object, error) {
		d := newDisplayDict(len(keys))
		for i := range keys {
			if keys[i] == nil {
				m, err := vals[i](f)
				if err != nil {
					return nil, err
				}
				if err := mergeMapping(f.t, d, m, false, ""); err != nil {
					return nil, err
				}
				continue
			}
			k, err := keys[i](f)
			if err != nil {
				return nil, err
			}
			v, err := vals[i](f)
			if err != nil {
				return nil, err
			}
			if err := d.Set(f.t, k, v); err != nil {
				return nil, err
			}
		}
		return d, nil
	}, nil
}

// mergeMapping adds a mapping's items to d (** in displays and calls).
func mergeMapping(t *Thread, d *Dict, m Object, strict bool, fname string) error {
	add := func(k, v Object) error {
		if strict {
			ks, ok := k.(*Str)
			if !ok {
				return Errorf(TypeErrorType, "keywords must be strings")
			}
			if _, dup := d.GetStr(ks.s); dup {
				return Errorf(TypeErrorType, "%s got multiple values for keyword argument '%s'", fname, ks.s)
			}
		}
		return d.Set(t, k, v)
	}
	if md, ok := unwrap(m).(*Dict); ok {
		var err error
		md.Items(func(k, v Object) bool { err = add(k, v); return err == nil })
		return err
	}
	keysFn, err := getAttr(t, m, "keys")
	if err != nil {
		return err
	}
	if keysFn == nil {
		return Errorf(TypeErrorType, "'%s' object is not a mapping", typeName(m))
	}
	ks, err := Call(t, keysFn, nil, nil)
	if err != nil {
		return err
	}
	return Iterate(t, ks, func(k Object) error {
		v, err := GetItem(t, m, k)
		if err != nil {
			return err
		}
		return add(k, v)
	})
}

func (u *unit) compare(n *syntax.Compare) (evalFn, error) {
	u.checkIsLiteral(n)
	left, err := u.expr(n.Left)
	if err != nil {
		return nil, err
	}
	rights, err := u.exprs(n.Comparators)
	if err != nil {
		return nil, err
	}
	ops := n.Ops
	if len(ops) == 1 {
		op, right := ops[0], rights[0]
		return func(f *Frame) (Object, error) {
			a, err := left(f)
			if err != nil {
				return nil, err
			}
			b, err := right(f)
			if err != nil {
				return nil, err
			}
			return compareOp(f.t, op, a, b)
		}, nil
	}
	return func(f *Frame) (Object, error) {
		a, err := left(f)
		if err != nil {
			return nil, err
		}
		var r Object
		for i, op := range ops {
			b, err := rights[i](f)
			if err != nil {
				return nil, err
			}
			if r, err = compareOp(f.t, op, a, b); err != nil {
				return nil, err
			}
			if i < len(ops)-1 {
				ok, err := TruthE(f.t, r)
				if err != nil {
					return nil, err
				}
				if !ok {
					return r, nil
				}
			}
			a = b
		}
		return r, nil
	}, nil
}

func compareOp(t *Thread, op syntax.CmpOp, a, b Object) (Object, error) {
	switch op {
	case syntax.Eq:
		if x, ok := a.(Int); ok {
			if y, ok := b.(Int); ok {
				return MakeBool(x == y), nil
			}
		}
		if x, ok := a.(*Str); ok {
			if y, ok := b.(*Str); ok {
				return MakeBool(x.s == y.s), nil
			}
		}
		return Compare(t, CmpEq, a, b)
	case syntax.NotEq:
		return Compare(t, CmpNe, a, b)
	case syntax.Lt:
		if x, ok := a.(Int); ok {
			if y, ok := b.(Int); ok {
				return MakeBool(x < y), nil
			}
		}
		return Compare(t, CmpLt, a, b)
	case syntax.LtE:
		return Compare(t, CmpLe, a, b)
	case syntax.Gt:
		if x, ok := a.(Int); ok {
			if y, ok := b.(Int); ok {
				return MakeBool(x > y), nil
			}
		}
		return Compare(t, CmpGt, a, b)
	case syntax.GtE:
		return Compare(t, CmpGe, a, b)
	case syntax.Is:
		return MakeBool(identical(a, b)), nil
	case syntax.IsNot:
		return MakeBool(!identical(a, b)), nil
	case syntax.In:
		r, err := Contains(t, b, a)
		return MakeBool(r), err
	case syntax.NotIn:
		r, err := Contains(t, b, a)
		return MakeBool(!r), err
	}
	return nil, Errorf(SystemErrorType, "bad comparison")
}

// call compiles a call expression.
func (u *unit) call(n *syntax.Call) (evalFn, error) {
	simple := true
	for _, a := range n.Args {
		if _, ok := a.(*syntax.Starred); ok {
			simple = false
		}
	}
	for _, k := range n.Keywords {
		if k.Arg == "" {
			simple = false
		}
	}
	var args func(*Frame, int) ([]Object, error)
	var argFns []evalFn // simple arguments, few enough for callPlain (plain)
	plain := false
	if simple {
		fns, err := u.exprs(n.Args)
		if err != nil {
			return nil, err
		}
		if len(fns) <= maxPlainArgs && len(n.Keywords) == 0 {
			argFns, plain = fns, true
		}
		args = func(f *Frame, lead int) ([]Object, error) {
			out := make([]Object, lead+len(fns))
			for i, fn := range fns {
				v, err := fn(f)
				if err != nil {
					return nil, err
				}
				out[lead+i] = v
			}
			return out, nil
		}
	} else {
		items, err := u.starredItems(n.Args)
		if err != nil {
			return nil, err
		}
		args = func(f *Frame, lead int) ([]Object, error) {
			xs, err := items(f)
			if err != nil {
				return nil, err
			}
			if lead == 0 {
				return xs, nil
			}
			out := make([]Object, lead+len(xs))
			copy(out[lead:], xs)
			return out, nil
		}
	}
	kwNames := make([]string, len(n.Keywords))
	kwFns := make([]evalFn, len(n.Keywords))
	for i, k := range n.Keywords {
		kwNames[i] = k.Arg
		var err error
		if kwFns[i], err = u.expr(k.Value); err != nil {
			return nil, err
		}
	}
	kwargs := func(f *Frame, fname func() string) ([]Kwarg, error) {
		if len(kwFns) == 0 {
			return nil, nil
		}
		out := make([]Kwarg, 0, len(kwFns))
		var seen *Dict
		for i, fn := range kwFns {
			v, err := fn(f)
			if err != nil {
				return nil, err
			}
			if kwNames[i] != "" {
				out = append(out, Kwarg{kwNames[i], v})
				continue
			}
			if seen == nil {
				seen = NewDict(len(out))
				for _, kw := range out {
					seen.SetStr(kw.Name, None)
				}
			}
			d := NewDict(4)
			if _, isMap := unwrap(v).(*Dict); !isMap {
				if ok, _ := HasAttr(f.t, v, "keys"); !ok {
					return nil, Errorf(TypeErrorType, "%s argument after ** must be a mapping, not %s", fname(), typeName(v))
				}
			}
			if err := mergeMapping(f.t, d, v, true, fname()); err != nil {
				return nil, err
			}
			var derr error
			d.Items(func(k, val Object) bool {
				ks := k.(*Str).s
				if _, dup := seen.GetStr(ks); dup {
					derr = Errorf(TypeErrorType, "%s got multiple values for keyword argument '%s'", fname(), ks)
					return false
				}
				seen.SetStr(ks, None)
				out = append(out, Kwarg{ks, val})
				return true
			})
			if derr != nil {
				return nil, derr
			}
		}
		return out, nil
	}
	// obj.method(...): call without making a bound method.
	if attr, ok := n.Func.(*syntax.Attribute); ok {
		obj, err := u.expr(attr.Value)
		if err != nil {
			return nil, err
		}
		name := attr.Attr
		var site methodSite
		return func(f *Frame) (Object, error) {
			o, err := obj(f)
			if err != nil {
				return nil, err
			}
			t := f.t
			m, self := site.lookup(o)
			if m == nil {
				if m, self, err = lookupMethod(t, o, name); err != nil {
					return nil, err
				}
				site.remember(o, m, self)
			}
			if plain && site.kind != 0 && self != nil && m == Object(site.m) {
				return site.m.callPlain(f, self, argFns)
			}
			if b, ok := m.(*Builtin); plain && ok && b.borrows && b.self == nil && (self != nil || !b.method) {
				// A borrowing method of the object (self) or function of a
				// module: what fn.call and Call would do, without the slice.
				return b.callPlain(f, self, argFns)
			}
			lead := 0
			if self != nil {
				lead = 1
			}
			as, err := args(f, lead)
			if err != nil {
				return nil, starCallError(t, m, err)
			}
			kw, err := kwargs(f, func() string { return functionStr(t, m) })
			if err != nil {
				return nil, err
			}
			if self != nil {
				as[0] = self
			}
			return callLooked(t, m, self, as, kw)
		}, nil
	}
	fn, err := u.expr(n.Func)
	if err != nil {
		return nil, err
	}
	return func(f *Frame) (Object, error) {
		callee, err := fn(f)
		if err != nil {
			return nil, err
		}
		if plain {
			switch c := callee.(type) {
			case *Builtin:
				if c.borrows && c.self == nil && !c.method {
					return c.callPlain(f, nil, argFns)
				}
			case *Type:
				if c == IntType || c == StrType {
					return callTypePlain(f, c, argFns)
				}
			}
		}
		as, err := args(f, 0)
		if err != nil {
			return nil, starCallError(f.t, callee, err)
		}
		kw, err := kwargs(f, func() string { return functionStr(f.t, callee) })
		if err != nil {
			return nil, err
		}
		return Call(f.t, callee, as, kw)
	}, nil
}

// callLooked calls m as lookupMethod found it on an object: when self is
// not nil, as begins with it and a built-in or Python method is called
// without making a bound method (callMethod takes self apart from args).
func callLooked(t *Thread, m, self Object, as []Object, kw []Kwarg) (Object, error) {
	if self != nil {
		switch fn := m.(type) {
		case *Builtin:
			return fn.call(t, as, kw)
		case *Function:
			return fn.call(t, nil, as, kw)
		}
	}
	return Call(t, m, as, kw)
}

// starCallError words a call's *x that is not iterable.
func starCallError(t *Thread, callee Object, err error) error {
	if e, ok := err.(*starNotIterable); ok {
		return Errorf(TypeErrorType, "%s argument after * must be an iterable, not %s", functionStr(t, callee), typeName(e.v))
	}
	return err
}

// functionStr names a callable in the messages of argument unpacking, as
// CPython's _PyObject_FunctionStr: "module.qualname()" ("__main__.f()",
// "len()", "list.append()"), or str() of an object without a
// __qualname__.
func functionStr(t *Thread, x Object) string {
	q, err := getAttr(t, x, "__qualname__")
	qs, ok := q.(*Str)
	if err != nil || !ok {
		s, err := StrOf(t, x)
		if err != nil {
			return typeName(x) + " object"
		}
		return s
	}
	m, err := getAttr(t, x, "__module__")
	if ms, ok := m.(*Str); ok && err == nil && ms.s != "builtins" {
		return ms.s + "." + qs.s + "()"
	}
	return qs.s + "()"
}

// callableName names a callable in messages: "f()".
func callableName(x Object) string {
	switch v := x.(type) {
	case *Function:
		return v.qualname + "()"
	case *Builtin:
		return v.name + "()"
	case *Method:
		return callableName(v.fn)
	case *Type:
		return v.name + "()"
	}
	return typeName(x) + " object"
}

// maxPlainArgs is the most arguments callPlain passes.
const maxPlainArgs = 3

// callPlain calls a built-in method of a plain str, list or dict (or a
// borrowing builtin: Builtin.borrows) with the arguments args evaluates,
// after self unless it is nil, passing them in the thread's argument
// stack rather than a slice allocated for the call. The methods of those
// types read their arguments during the call and never keep the slice
// (they keep values, not the slice), so its room is reused once the call
// returns (callOnStack).
func (b *Builtin) callPlain(f *Frame, self Object, args []evalFn) (Object, error) {
	return callOnStack(f, self, args, func(t *Thread, vals []Object) (Object, error) { return b.fn(t, vals, nil) })
}

// callTypePlain calls int or str (whose constructors read their
// arguments during the call and keep none of the slice) as callPlain
// calls a borrowing builtin: the arguments in the thread's argument
// stack, not a slice allocated for the call.
func callTypePlain(f *Frame, c *Type, args []evalFn) (Object, error) {
	return callOnStack(f, nil, args, func(t *Thread, vals []Object) (Object, error) { return callType(t, c, vals, nil) })
}

// callOnStack evaluates args (at most maxPlainArgs), pushes self (unless
// nil) and their values on the thread's argument stack, calls call with
// them, and pops them. The arguments are evaluated before the room is
// taken, so that a call among them (or a generator resumed by one)
// pushes and pops its own room above, never inside, this one.
func callOnStack(f *Frame, self Object, args []evalFn, call func(t *Thread, vals []Object) (Object, error)) (Object, error) {
	var vals [maxPlainArgs]Object
	for i, fn := range args {
		v, err := fn(f)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	t := f.t
	mark := len(t.args)
	if self != nil {
		t.args = append(t.args, self)
	}
	t.args = append(t.args, vals[:len(args)]...)
	end := len(t.args)
	r, err := call(t, t.args[mark:end:end])
	if len(t.args) >= end {
		clear(t.args[mark:end])
	}
	t.args = t.args[:mark]
	return r, err
}

// methodSite caches, at one obj.method(...) call site, the method last
// found on a plain str, list or dict: the built-in types' dicts never
// change once set up (their attributes cannot be set or deleted), so the
// method found for such an object holds for every object of the same Go
// type and class.
type methodSite struct {
	kind uint8 // 0 none, 1 *Str, 2 *List, 3 *Dict without a class
	m    *Builtin
}

func plainKind(o Object) uint8 {
	switch v := o.(type) {
	case *Str:
		return 1
	case *List:
		return 2
	case *Dict:
		if v.cls == nil {
			return 3
		}
	}
	return 0
}

func (s *methodSite) lookup(o Object) (Object, Object) {
	if s.kind != 0 && plainKind(o) == s.kind {
		return s.m, o
	}
	return nil, nil
}

func (s *methodSite) remember(o Object, m, self Object) {
	b, ok := m.(*Builtin)
	if !ok || self != o || !b.method || b.self != nil {
		return
	}
	if k := plainKind(o); k != 0 {
		*s = methodSite{kind: k, m: b}
	}
}

// lookupMethod finds obj.name for a call. When the attribute is a plain
// method of obj's class it returns the unbound function and obj as self,
// sparing the bound method; otherwise the attribute itself and nil.
func lookupMethod(t *Thread, obj Object, name string) (Object, Object, error) {
	switch o := obj.(type) {
	case *Module, *Type, *Super, *hostStr:
		v, err := GetAttr(t, obj, name)
		return v, nil, err
	case *Instance:
		if o.cls.userMethod("__getattribute__") != nil {
			v, err := GetAttr(t, obj, name)
			return v, nil, err
		}
		if o.dict != nil {
			if v, ok := o.dict.GetStr(name); ok {
				if attr, owner := o.cls.lookupOwner(name); owner == nil || !isDataDescriptor(attr) || !hasGet(attr) {
					return v, nil, nil
				}
			}
		}
	case *Exception:
		if !o.cls.builtin && o.cls.userMethod("__getattribute__") != nil {
			v, err := GetAttr(t, obj, name)
			return v, nil, err
		}
		if o.dict != nil {
			if v, ok := o.dict.GetStr(name); ok {
				return v, nil, nil
			}
		}
	}
	attr, owner := obj.Type().lookupOwner(name)
	if owner != nil {
		switch a := attr.(type) {
		case *Builtin:
			if a.method && a.self == nil {
				return a, obj, nil
			}
		case *Function:
			return a, obj, nil
		}
	}
	v, err := GetAttr(t, obj, name)
	return v, nil, err
}

func (u *unit) fstring(n *syntax.JoinedStr) (evalFn, error) {
	parts, err := u.exprs(n.Values)
	if err != nil {
		return nil, err
	}
	return func(f *Frame) (Object, error) {
		var total int
		strs := make([]string, len(parts))
		for i, p := range parts {
			v, err := p(f)
			if err != nil {
				return nil, err
			}
			s, ok := v.(*Str)
			if !ok {
				return nil, Errorf(SystemErrorType, "f-string part is not a str")
			}
			strs[i] = s.s
			total += len(s.s)
		}
		if err := f.t.grow(int64(total)); err != nil {
			return nil, err
		}
		b := make([]byte, 0, total)
		for _, s := range strs {
			b = append(b, s...)
		}
		return NewStr(string(b)), nil
	}, nil
}

func (u *unit) formatted(n *syntax.FormattedValue) (evalFn, error) {
	val, err := u.expr(n.Value)
	if err != nil {
		return nil, err
	}
	var spec evalFn
	if n.FormatSpec != nil {
		if spec, err = u.fstring(n.FormatSpec); err != nil {
			return nil, err
		}
	}
	conv := n.Conversion
	return func(f *Frame) (Object, error) {
		v, err := val(f)
		if err != nil {
			return nil, err
		}
		switch conv {
		case 's':
			s, err := StrOf(f.t, v)
			if err != nil {
				return nil, err
			}
			v = NewStr(s)
		case 'r':
			s, err := Repr(f.t, v)
			if err != nil {
				return nil, err
			}
			v = NewStr(s)
		case 'a':
			s, err := Repr(f.t, v)
			if err != nil {
				return nil, err
			}
			v = NewStr(asciiEscape(s))
		}
		sp := ""
		if spec != nil {
			s, err := spec(f)
			if err != nil {
				return nil, err
			}
			sp = s.(*Str).s
		}
		if sp == "" {
			if s, ok := v.(*Str); ok {
				return s, nil
			}
			if i, ok := v.(Int); ok {
				return NewStr(itoa(int(i))), nil
			}
		}
		s, err := Format(f.t, v, sp)
		if err != nil {
			return nil, err
		}
		return NewStr(s), nil
	}, nil
}

// hasSurrogate reports whether s holds a surrogate code point as the parser
// stores one: WTF-8, bytes ED A0..BF xx.
func hasSurrogate(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			return true
		}
	}
	return false
}

// checkIsLiteral gives CPython's SyntaxWarning for `x is "literal"`
// (once per comparison chain, at its first such operator).
func (u *unit) checkIsLiteral(n *syntax.Compare) {
	left := n.Left
	for i, op := range n.Ops {
		right := n.Comparators[i]
		if op == syntax.Is || op == syntax.IsNot {
			lit, ok := literalType(left)
			if !ok {
				lit, ok = literalType(right)
			}
			if ok {
				word, instead := "is", "=="
				if op == syntax.IsNot {
					word, instead = "is not", "!="
				}
				u.c.warnings = append(u.c.warnings, syntax.Warning{Line: n.Line,
					Msg: fmt.Sprintf("\"%s\" with '%s' literal. Did you mean \"%s\"?", word, lit, instead)})
				return
			}
		}
		left = right
	}
}

// literalType names the type of a literal CPython's compiler sees as
// a constant (after folding -1 and (1, 2)), other than None, True, False
// and Ellipsis.
func literalType(e syntax.Expr) (string, bool) {
	switch x := e.(type) {
	case *syntax.Constant:
		switch x.Value.(type) {
		case string:
			return "str", true
		case syntax.Bytes:
			return "bytes", true
		case int64, *big.Int:
			return "int", true
		case float64:
			return "float", true
		case complex128:
			return "complex", true
		}
	case *syntax.UnaryOp:
		if t, ok := literalType(x.Operand); ok && t != "str" && t != "bytes" && t != "tuple" {
			return t, true
		}
	case *syntax.Tuple:
		for _, el := range x.Elts {
			if _, ok := el.(*syntax.Constant); ok {
				continue
			}
			if _, ok := literalType(el); !ok {
				return "", false
			}
		}
		return "tuple", true
	}
	return "", false
}

// subscriptSlice compiles obj[lo:hi] (no step): the value, then the
// bounds, are evaluated as for any subscript, but a str or a list is
// sliced without building a slice object (getSlice).
func (u *unit) subscriptSlice(obj evalFn, n *syntax.Slice) (evalFn, error) {
	lo, hi, err := u.bounds(n)
	if err != nil {
		return nil, err
	}
	return func(f *Frame) (Object, error) {
		o, err := obj(f)
		if err != nil {
			return nil, err
		}
		start, err := evalOptional(f, lo)
		if err != nil {
			return nil, err
		}
		stop, err := evalOptional(f, hi)
		if err != nil {
			return nil, err
		}
		return getSlice(f.t, o, start, stop)
	}, nil
}

// bounds compiles a slice's lower and upper bounds, nil for one left out.
func (u *unit) bounds(n *syntax.Slice) (lo, hi evalFn, err error) {
	if lo, err = u.optional(n.Lower); err != nil {
		return nil, nil, err
	}
	if hi, err = u.optional(n.Upper); err != nil {
		return nil, nil, err
	}
	return lo, hi, nil
}

// optional compiles e, or gives nil for an expression left out.
func (u *unit) optional(e syntax.Expr) (evalFn, error) {
	if e == nil {
		return nil, nil
	}
	return u.expr(e)
}

// evalOptional is the value of fn, or None for an expression left out.
func evalOptional(f *Frame, fn evalFn) (Object, error) {
	if fn == nil {
		return None, nil
	}
	return fn(f)
}

// intLiteral returns the value of an int literal, or of minus one.
func intLiteral(e syntax.Expr) (int64, bool) {
	neg := false
	if u, ok := e.(*syntax.UnaryOp); ok && u.Op == syntax.USub {
		e, neg = u.Operand, true
	}
	c, ok := e.(*syntax.Constant)
	if !ok {
		return 0, false
	}
	v, ok := c.Value.(int64)
	if !ok || v < -1<<62 || v > 1<<62 {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// splitItem compiles x.split(...)[k] and x.rsplit(...)[k], k an int
// literal, with at most two positional arguments (line.split()[2],
// l.split("msg=", 1)[1]): for an exact str x (whose split is str.split:
// the type's dict never changes) the part is cut without building the
// list (strSplitItem); any other x gets the method call and the
// subscript as written, in the same order (the method is looked up
// before the arguments are evaluated).
func (u *unit) splitItem(n *syntax.Subscript) (evalFn, bool, error) {
	call, ok := n.Value.(*syntax.Call)
	if !ok || len(call.Keywords) > 0 || len(call.Args) > 2 {
		return nil, false, nil
	}
	attr, ok := call.Func.(*syntax.Attribute)
	if !ok || attr.Attr != "split" && attr.Attr != "rsplit" {
		return nil, false, nil
	}
	for _, a := range call.Args {
		if _, ok := a.(*syntax.Starred); ok {
			return nil, false, nil
		}
	}
	k, ok := intLiteral(n.Slice)
	if !ok {
		return nil, false, nil
	}
	obj, err := u.expr(attr.Value)
	if err != nil {
		return nil, true, err
	}
	argFns, err := u.exprs(call.Args)
	if err != nil {
		return nil, true, err
	}
	name, right := attr.Attr, attr.Attr == "rsplit"
	key := MakeInt(k)
	return func(f *Frame) (Object, error) {
		o, err := obj(f)
		if err != nil {
			return nil, err
		}
		t := f.t
		if s, ok := o.(*Str); ok {
			var vals [3]Object
			vals[0] = s
			for i, fn := range argFns {
				if vals[i+1], err = fn(f); err != nil {
					return nil, err
				}
			}
			return strSplitItem(t, vals[:len(argFns)+1], right, k)
		}
		m, self, err := lookupMethod(t, o, name)
		if err != nil {
			return nil, err
		}
		as := make([]Object, 0, len(argFns)+1)
		if self != nil {
			as = append(as, self)
		}
		for _, fn := range argFns {
			v, err := fn(f)
			if err != nil {
				return nil, err
			}
			as = append(as, v)
		}
		r, err := callLooked(t, m, self, as, nil)
		if err != nil {
			return nil, err
		}
		return GetItem(t, r, key)
	}, true, nil
}
