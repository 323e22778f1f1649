package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

func (u *unit) stmt(s syntax.Stmt) (execFn, error) {
	switch n := s.(type) {
	case *syntax.ExprStmt:
		e, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		if u.s.kind == scopeModule && u.c.file != "" && isInteractive(u) {
			// Cells do not echo values (exec, not the interactive prompt).
		}
		return func(f *Frame) (ctrl, error) {
			_, err := e(f)
			return ctrlNone, err
		}, nil
	case *syntax.Assign:
		return u.assign(n)
	case *syntax.AugAssign:
		return u.augAssign(n)
	case *syntax.AnnAssign:
		return u.annAssign(n)
	case *syntax.If:
		return u.ifStmt(n)
	case *syntax.For:
		return u.forStmt(n)
	case *syntax.While:
		return u.whileStmt(n)
	case *syntax.Pass:
		return nil, nil
	case *syntax.Break:
		return func(*Frame) (ctrl, error) { return ctrlBreak, nil }, nil
	case *syntax.Continue:
		return func(*Frame) (ctrl, error) { return ctrlContinue, nil }, nil
	case *syntax.Return:
		if n.Value == nil {
			return func(f *Frame) (ctrl, error) { f.ret = None; return ctrlReturn, nil }, nil
		}
		e, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (ctrl, error) {
			v, err := e(f)
			if err != nil {
				return 0, err
			}
			f.ret = v
			return ctrlReturn, nil
		}, nil
	case *syntax.FunctionDef:
		return u.functionDef(n)
	case *syntax.ClassDef:
		return u.classDef(n)
	case *syntax.Delete:
		return u.deleteStmt(n)
	case *syntax.Try:
		return u.tryStmt(n)
	case *syntax.Raise:
		return u.raiseStmt(n)
	case *syntax.Assert:
		return u.assertStmt(n)
	case *syntax.With:
		return u.withStmt(n)
	case *syntax.Import:
		return u.importStmt(n)
	case *syntax.ImportFrom:
		return u.importFrom(n)
	case *syntax.Global, *syntax.Nonlocal:
		return nil, nil
	case *syntax.Match:
		return u.matchStmt(n)
	case *syntax.TypeAlias:
		return nil, NotSupported("the type statement (type aliases)", "assign the type to a name instead")
	}
	return nil, NotSupported("this statement", "")
}

func isInteractive(*unit) bool { return false }

func (u *unit) assign(n *syntax.Assign) (execFn, error) {
	val, err := u.expr(n.Value)
	if err != nil {
		return nil, err
	}
	if len(n.Targets) == 1 {
		if nm, ok := n.Targets[0].(*syntax.Name); ok {
			r := u.ref(nm.ID)
			if r.kind == varFast {
				i := r.index
				return func(f *Frame) (ctrl, error) {
					v, err := val(f)
					if err != nil {
						return 0, err
					}
					f.fast[i] = v
					return ctrlNone, nil
				}, nil
			}
		}
		st, err := u.store(n.Targets[0])
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (ctrl, error) {
			v, err := val(f)
			if err != nil {
				return 0, err
			}
			return ctrlNone, st(f, v)
		}, nil
	}
	stores := make([]func(*Frame, Object) error, len(n.Targets))
	for i, t := range n.Targets {
		if stores[i], err = u.store(t); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (ctrl, error) {
		v, err := val(f)
		if err != nil {
			return 0, err
		}
		for _, st := range stores {
			if err := st(f, v); err != nil {
				return 0, err
			}
		}
		return ctrlNone, nil
	}, nil
}

// store compiles an assignment target.
func (u *unit) store(t syntax.Expr) (func(*Frame, Object) error, error) {
	switch n := t.(type) {
	case *syntax.Name:
		return u.storeName(n.ID), nil
	case *syntax.Attribute:
		obj, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		name := n.Attr
		return func(f *Frame, v Object) error {
			o, err := obj(f)
			if err != nil {
				return err
			}
			return SetAttr(f.t, o, name, v)
		}, nil
	case *syntax.Subscript:
		obj, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		key, err := u.expr(n.Slice)
		if err != nil {
			return nil, err
		}
		return func(f *Frame, v Object) error {
			o, err := obj(f)
			if err != nil {
				return err
			}
			k, err := key(f)
			if err != nil {
				return err
			}
			return SetItem(f.t, o, k, v)
		}, nil
	case *syntax.Tuple:
		return u.unpack(n.Elts)
	case *syntax.List:
		return u.unpack(n.Elts)
	case *syntax.Starred:
		return nil, &syntax.Error{Type: "SyntaxError", Msg: "starred assignment target must be in a list or tuple", Line: n.Line, Col: n.Col + 1}
	}
	return nil, &syntax.Error{Type: "SyntaxError", Msg: "cannot assign to expression", Line: t.Position().Line, Col: t.Position().Col + 1}
}

// pairStores is the two stores of a target of exactly two plain names
// ("k, v" or "[k, v]"): a loop over a pairIterator fills them from the
// item's two values without the item's tuple, which unpacking would drop
// at once (the stores run in the same order). Nil for any other target.
type pairStores *[2]func(*Frame, Object) error

func (u *unit) pairTarget(t syntax.Expr) pairStores {
	var elts []syntax.Expr
	switch n := t.(type) {
	case *syntax.Tuple:
		elts = n.Elts
	case *syntax.List:
		elts = n.Elts
	}
	if len(elts) != 2 {
		return nil
	}
	a, ok1 := elts[0].(*syntax.Name)
	b, ok2 := elts[1].(*syntax.Name)
	if !ok1 || !ok2 {
		return nil
	}
	return &[2]func(*Frame, Object) error{u.storeName(a.ID), u.storeName(b.ID)}
}

// storePair stores a pair's values into a pairTarget's names.
func storePair(f *Frame, ps pairStores, a, b Object) error {
	if err := ps[0](f, a); err != nil {
		return err
	}
	return ps[1](f, b)
}

func (u *unit) unpack(elts []syntax.Expr) (func(*Frame, Object) error, error) {
	star := -1
	stores := make([]func(*Frame, Object) error, len(elts))
	for i, e := range elts {
		var err error
		if s, ok := e.(*syntax.Starred); ok {
			star = i
			stores[i], err = u.store(s.Value)
		} else {
			stores[i], err = u.store(e)
		}
		if err != nil {
			return nil, err
		}
	}
	n := len(elts)
	return func(f *Frame, v Object) error {
		items, err := unpackItems(f.t, v, n, star)
		if err != nil {
			return err
		}
		for i, st := range stores {
			if err := st(f, items[i]); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// unpackItems unpacks v into n targets, one of them starred (star >= 0).
func unpackItems(t *Thread, v Object, n, star int) ([]Object, error) {
	var items []Object
	switch x := v.(type) {
	case *Tuple:
		items = x.items
	case *List:
		items = x.items
	default:
		if star < 0 {
			// Take at most n+1 items, as CPython does, so an endless
			// iterator still reports "too many values".
			it, err := Iter(t, v)
			if err != nil {
				if IsInstance(err, TypeErrorType) {
					return nil, Errorf(TypeErrorType, "cannot unpack non-iterable %s object", typeName(v))
				}
				return nil, err
			}
			for len(items) <= n {
				x, err := Next(t, it)
				if err != nil {
					return nil, err
				}
				if x == nil {
					break
				}
				items = append(items, x)
			}
		} else {
			var err error
			items, err = ToSlice(t, v)
			if err != nil {
				if IsInstance(err, TypeErrorType) && !isIterable(v) {
					return nil, Errorf(TypeErrorType, "cannot unpack non-iterable %s object", typeName(v))
				}
				return nil, err
			}
		}
	}
	if star < 0 {
		if len(items) > n {
			return nil, Errorf(ValueErrorType, "too many values to unpack (expected %d)", n)
		}
		if len(items) < n {
			return nil, Errorf(ValueErrorType, "not enough values to unpack (expected %d, got %d)", n, len(items))
		}
		return items, nil
	}
	if len(items) < n-1 {
		return nil, Errorf(ValueErrorType, "not enough values to unpack (expected at least %d, got %d)", n-1, len(items))
	}
	out := make([]Object, n)
	copy(out, items[:star])
	rest := len(items) - (n - 1 - star)
	out[star] = NewList(append([]Object(nil), items[star:rest]...))
	copy(out[star+1:], items[rest:])
	return out, nil
}

func (u *unit) augAssign(n *syntax.AugAssign) (execFn, error) {
	val, err := u.expr(n.Value)
	if err != nil {
		return nil, err
	}
	op := n.Op
	switch t := n.Target.(type) {
	case *syntax.Name:
		ld := u.load(t.ID)
		st := u.storeName(t.ID)
		return func(f *Frame) (ctrl, error) {
			a, err := ld(f)
			if err != nil {
				return 0, err
			}
			b, err := val(f)
			if err != nil {
				return 0, err
			}
			r, err := Inplace(f.t, op, a, b)
			if err != nil {
				return 0, err
			}
			return ctrlNone, st(f, r)
		}, nil
	case *syntax.Attribute:
		obj, err := u.expr(t.Value)
		if err != nil {
			return nil, err
		}
		name := t.Attr
		return func(f *Frame) (ctrl, error) {
			o, err := obj(f)
			if err != nil {
				return 0, err
			}
			a, err := GetAttr(f.t, o, name)
			if err != nil {
				return 0, err
			}
			b, err := val(f)
			if err != nil {
				return 0, err
			}
			r, err := Inplace(f.t, op, a, b)
			if err != nil {
				return 0, err
			}
			return ctrlNone, SetAttr(f.t, o, name, r)
		}, nil
	case *syntax.Subscript:
		obj, err := u.expr(t.Value)
		if err != nil {
			return nil, err
		}
		key, err := u.expr(t.Slice)
		if err != nil {
			return nil, err
		}
		return func(f *Frame) (ctrl, error) {
			o, err := obj(f)
			if err != nil {
				return 0, err
			}
			k, err := key(f)
			if err != nil {
				return 0, err
			}
			a, err := GetItem(f.t, o, k)
			if err != nil {
				return 0, err
			}
			b, err := val(f)
			if err != nil {
				return 0, err
			}
			r, err := Inplace(f.t, op, a, b)
			if err != nil {
				return 0, err
			}
			return ctrlNone, SetItem(f.t, o, k, r)
		}, nil
	}
	return nil, &syntax.Error{Type: "SyntaxError", Msg: "'" + "expression" + "' is an illegal expression for augmented assignment"}
}

func (u *unit) annAssign(n *syntax.AnnAssign) (execFn, error) {
	var ann evalFn
	if u.s.kind != scopeFunction {
		var err error
		if ann, err = u.expr(n.Annotation); err != nil {
			return nil, err
		}
	}
	var val evalFn
	var st func(*Frame, Object) error
	if n.Value != nil {
		var err error
		if val, err = u.expr(n.Value); err != nil {
			return nil, err
		}
		if st, err = u.store(n.Target); err != nil {
			return nil, err
		}
	}
	nm, simple := n.Target.(*syntax.Name)
	simple = simple && n.Simple
	kind := u.s.kind
	return func(f *Frame) (ctrl, error) {
		if val != nil {
			v, err := val(f)
			if err != nil {
				return 0, err
			}
			if err := st(f, v); err != nil {
				return 0, err
			}
		}
		if ann != nil {
			a, err := ann(f)
			if err != nil {
				return 0, err
			}
			if simple {
				d := f.globals
				if kind == scopeClass {
					d = f.locals
				}
				anns, ok := d.GetStr("__annotations__")
				ad, isDict := anns.(*Dict)
				if !ok || !isDict {
					ad = NewDict(4)
					d.SetStr("__annotations__", ad)
				}
				ad.SetStr(nm.ID, a)
			}
		}
		return ctrlNone, nil
	}, nil
}

func (u *unit) ifStmt(n *syntax.If) (execFn, error) {
	test, err := u.cond(n.Test)
	if err != nil {
		return nil, err
	}
	body, err := u.block(n.Body)
	if err != nil {
		return nil, err
	}
	if len(n.Orelse) == 0 {
		return func(f *Frame) (ctrl, error) {
			b, err := test(f)
			if err != nil {
				return 0, err
			}
			if b {
				return body(f)
			}
			return ctrlNone, nil
		}, nil
	}
	orelse, err := u.block(n.Orelse)
	if err != nil {
		return nil, err
	}
	return func(f *Frame) (ctrl, error) {
		b, err := test(f)
		if err != nil {
			return 0, err
		}
		if b {
			return body(f)
		}
		return orelse(f)
	}, nil
}

// cond compiles an expression evaluated for its truth.
func (u *unit) cond(e syntax.Expr) (func(*Frame) (bool, error), error) {
	ev, err := u.expr(e)
	if err != nil {
		return nil, err
	}
	return func(f *Frame) (bool, error) {
		v, err := ev(f)
		if err != nil {
			return false, err
		}
		if b, ok := v.(Bool); ok {
			return bool(b), nil
		}
		return TruthE(f.t, v)
	}, nil
}

func (u *unit) forStmt(n *syntax.For) (execFn, error) {
	if n.IsAsync {
		return nil, NotSupported("async for", "use a plain for loop")
	}
	iter, err := u.expr(n.Iter)
	if err != nil {
		return nil, err
	}
	target, err := u.store(n.Target)
	if err != nil {
		return nil, err
	}
	pair := u.pairTarget(n.Target)
	u.loops++
	body, err := u.block(n.Body)
	u.loops--
	if err != nil {
		return nil, err
	}
	var orelse execFn
	if len(n.Orelse) > 0 {
		if orelse, err = u.block(n.Orelse); err != nil {
			return nil, err
		}
	}
	// A temporary iterable (for x in gen()) is dropped when the loop
	// ends: a generator is closed then, as CPython's refcounting does.
	temporary := false
	switch n.Iter.(type) {
	case *syntax.Call, *syntax.GeneratorExp:
		temporary = true
	}
	return func(f *Frame) (ctrl, error) {
		seq, err := iter(f)
		if err != nil {
			return 0, err
		}
		t := f.t
		// step runs the body for one item (v, or the pair a, b when v is
		// nil): stop reports a break or return.
		step := func(v, a, b Object) (ctrl, bool, error) {
			var err error
			if v != nil {
				err = target(f, v)
			} else {
				err = storePair(f, pair, a, b)
			}
			if err != nil {
				return 0, true, err
			}
			c, err := body(f)
			if err != nil {
				return 0, true, err
			}
			switch c {
			case ctrlBreak:
				return ctrlNone, true, nil
			case ctrlReturn:
				return ctrlReturn, true, nil
			}
			return ctrlNone, false, nil
		}
		switch x := seq.(type) {
		case *Range:
			for i := int64(0); i < x.n; i++ {
				if err := t.tick(); err != nil {
					return 0, err
				}
				c, stop, err := step(MakeInt(x.at(i)), nil, nil)
				if stop || err != nil {
					return c, err
				}
			}
		case *List:
			for i := 0; i < len(x.items); i++ {
				if err := t.tick(); err != nil {
					return 0, err
				}
				c, stop, err := step(x.items[i], nil, nil)
				if stop || err != nil {
					return c, err
				}
			}
		default:
			it, err := Iter(t, seq)
			if err != nil {
				return 0, err
			}
			var pairs pairIterator
			if pair != nil {
				pairs = asPairs(it)
			}
			for {
				if err := t.tick(); err != nil {
					return 0, err
				}
				var v, a, b Object
				if pairs != nil {
					a, b, err = pairs.nextPair(t)
				} else {
					v, err = Next(t, it)
				}
				if err != nil {
					return 0, err
				}
				if v == nil && a == nil {
					break
				}
				c, stop, err := step(v, a, b)
				if stop || err != nil {
					if _, killed := err.(*StopError); temporary && !killed {
						closeTemporary(t, it)
					}
					return c, err
				}
			}
		}
		if orelse != nil {
			return orelse(f)
		}
		return ctrlNone, nil
	}, nil
}

func (u *unit) whileStmt(n *syntax.While) (execFn, error) {
	test, err := u.cond(n.Test)
	if err != nil {
		return nil, err
	}
	u.loops++
	body, err := u.block(n.Body)
	u.loops--
	if err != nil {
		return nil, err
	}
	var orelse execFn
	if len(n.Orelse) > 0 {
		if orelse, err = u.block(n.Orelse); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (ctrl, error) {
		for {
			if err := f.t.tick(); err != nil {
				return 0, err
			}
			b, err := test(f)
			if err != nil {
				return 0, err
			}
			if !b {
				break
			}
			c, err := body(f)
			if err != nil {
				return 0, err
			}
			switch c {
			case ctrlBreak:
				return ctrlNone, nil
			case ctrlReturn:
				return ctrlReturn, nil
			}
		}
		if orelse != nil {
			return orelse(f)
		}
		return ctrlNone, nil
	}, nil
}

func (u *unit) deleteStmt(n *syntax.Delete) (execFn, error) {
	var dels []func(*Frame) error
	var add func(t syntax.Expr) error
	add = func(t syntax.Expr) error {
		switch x := t.(type) {
		case *syntax.Name:
			dels = append(dels, u.deleteName(x.ID))
		case *syntax.Attribute:
			obj, err := u.expr(x.Value)
			if err != nil {
				return err
			}
			name := x.Attr
			dels = append(dels, func(f *Frame) error {
				o, err := obj(f)
				if err != nil {
					return err
				}
				return DelAttr(f.t, o, name)
			})
		case *syntax.Subscript:
			obj, err := u.expr(x.Value)
			if err != nil {
				return err
			}
			key, err := u.expr(x.Slice)
			if err != nil {
				return err
			}
			dels = append(dels, func(f *Frame) error {
				o, err := obj(f)
				if err != nil {
					return err
				}
				k, err := key(f)
				if err != nil {
					return err
				}
				return DelItem(f.t, o, k)
			})
		case *syntax.Tuple:
			for _, e := range x.Elts {
				if err := add(e); err != nil {
					return err
				}
			}
		case *syntax.List:
			for _, e := range x.Elts {
				if err := add(e); err != nil {
					return err
				}
			}
		default:
			return &syntax.Error{Type: "SyntaxError", Msg: "cannot delete expression"}
		}
		return nil
	}
	for _, t := range n.Targets {
		if err := add(t); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (ctrl, error) {
		for _, d := range dels {
			if err := d(f); err != nil {
				return 0, err
			}
		}
		return ctrlNone, nil
	}, nil
}

func (u *unit) assertStmt(n *syntax.Assert) (execFn, error) {
	test, err := u.cond(n.Test)
	if err != nil {
		return nil, err
	}
	var msg evalFn
	if n.Msg != nil {
		if msg, err = u.expr(n.Msg); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (ctrl, error) {
		ok, err := test(f)
		if err != nil || ok {
			return ctrlNone, err
		}
		if msg == nil {
			return 0, NewException(AssertionErrorType)
		}
		m, err := msg(f)
		if err != nil {
			return 0, err
		}
		return 0, NewException(AssertionErrorType, m)
	}, nil
}

func (u *unit) raiseStmt(n *syntax.Raise) (execFn, error) {
	if n.Exc == nil {
		return func(f *Frame) (ctrl, error) {
			if f.t.handled == nil {
				return 0, Errorf(RuntimeErrorType, "No active exception to reraise")
			}
			return 0, f.t.handled
		}, nil
	}
	exc, err := u.expr(n.Exc)
	if err != nil {
		return nil, err
	}
	var cause evalFn
	if n.Cause != nil {
		if cause, err = u.expr(n.Cause); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (ctrl, error) {
		v, err := exc(f)
		if err != nil {
			return 0, err
		}
		e, err := makeException(f.t, v)
		if err != nil {
			return 0, err
		}
		if cause != nil {
			c, err := cause(f)
			if err != nil {
				return 0, err
			}
			if c == None {
				e.cause = nil
			} else {
				ce, err := makeException(f.t, c)
				if err != nil {
					return 0, Errorf(TypeErrorType, "exception causes must derive from BaseException")
				}
				e.cause = ce
			}
			e.suppressContext = true
		}
		if h := f.t.handled; h != nil && h != e && e.context == nil {
			e.context = h
		}
		e.traceback = nil
		e.lastFrame = nil
		return 0, e
	}, nil
}

// makeException turns a raise operand into an exception instance.
func makeException(t *Thread, v Object) (*Exception, error) {
	switch x := v.(type) {
	case *Exception:
		return x, nil
	case *Type:
		if x.IsSubtype(BaseExceptionType) {
			r, err := Call(t, x, nil, nil)
			if err != nil {
				return nil, err
			}
			if e, ok := r.(*Exception); ok {
				return e, nil
			}
			return nil, Errorf(TypeErrorType, "calling %s should have returned an instance of BaseException, not %s", x.name, typeName(r))
		}
	}
	return nil, Errorf(TypeErrorType, "exceptions must derive from BaseException")
}

func (u *unit) tryStmt(n *syntax.Try) (execFn, error) {
	if n.IsStar {
		return nil, NotSupported("except* (exception groups)", "use a plain except clause")
	}
	body, err := u.block(n.Body)
	if err != nil {
		return nil, err
	}
	type handler struct {
		typ  evalFn
		bind func(*Frame, Object) error
		del  func(*Frame) error
		body execFn
	}
	hs := make([]handler, len(n.Handlers))
	for i, h := range n.Handlers {
		if h.Type != nil {
			if hs[i].typ, err = u.expr(h.Type); err != nil {
				return nil, err
			}
		}
		if h.Name != "" {
			hs[i].bind = u.storeName(h.Name)
			hs[i].del = u.deleteName(h.Name)
		}
		if hs[i].body, err = u.block(h.Body); err != nil {
			return nil, err
		}
	}
	var orelse, final execFn
	if len(n.Orelse) > 0 {
		if orelse, err = u.block(n.Orelse); err != nil {
			return nil, err
		}
	}
	if len(n.Finalbody) > 0 {
		if final, err = u.block(n.Finalbody); err != nil {
			return nil, err
		}
	}
	run := func(f *Frame) (ctrl, error) {
		c, err := body(f)
		if err == nil {
			if orelse != nil && c == ctrlNone {
				return orelse(f)
			}
			return c, nil
		}
		e, ok := err.(*Exception)
		if !ok || len(hs) == 0 {
			return 0, err
		}
		t := f.t
		for _, h := range hs {
			if h.typ != nil {
				tv, err := h.typ(f)
				if err != nil {
					return 0, err
				}
				m, err := exceptionMatches(e, tv)
				if err != nil {
					return 0, err
				}
				if !m {
					continue
				}
			}
			prev := t.handled
			t.handled = e
			if h.bind != nil {
				if err := h.bind(f, e); err != nil {
					t.handled = prev
					return 0, err
				}
			}
			c, err := h.body(f)
			t.handled = prev
			if h.del != nil {
				_ = h.del(f)
			}
			if err != nil {
				if e2, ok := err.(*Exception); ok && e2 != e && e2.context == nil {
					e2.context = e
				}
			}
			return c, err
		}
		return 0, err
	}
	if final == nil {
		return run, nil
	}
	return func(f *Frame) (ctrl, error) {
		c, err := run(f)
		if _, stop := err.(*StopError); stop {
			return 0, err
		}
		ret := f.ret
		prev := f.t.handled
		if e, ok := err.(*Exception); ok {
			f.t.handled = e
		}
		fc, ferr := final(f)
		f.t.handled = prev
		if ferr != nil {
			if e2, ok := ferr.(*Exception); ok {
				if e, ok := err.(*Exception); ok && e2 != e && e2.context == nil {
					e2.context = e
				}
			}
			return 0, ferr
		}
		if fc != ctrlNone {
			// return/break/continue in finally discards the exception.
			return fc, nil
		}
		f.ret = ret
		return c, err
	}, nil
}

// exceptionMatches reports whether e matches an except clause's class or
// tuple of classes.
func exceptionMatches(e *Exception, typ Object) (bool, error) {
	switch x := typ.(type) {
	case *Type:
		if !x.IsSubtype(BaseExceptionType) {
			return false, Errorf(TypeErrorType, "catching classes that do not inherit from BaseException is not allowed")
		}
		return e.cls.IsSubtype(x), nil
	case *Tuple:
		for _, it := range x.items {
			m, err := exceptionMatches(e, it)
			if err != nil || m {
				return m, err
			}
		}
		return false, nil
	}
	return false, Errorf(TypeErrorType, "catching classes that do not inherit from BaseException is not allowed")
}

// ContextManager is a Go-implemented context manager (library use).
type ContextManager interface {
	Enter(t *Thread) (Object, error)
	Exit(t *Thread, exc *Exception) (suppress bool, err error)
}

func (u *unit) withStmt(n *syntax.With) (execFn, error) {
	if n.IsAsync {
		return nil, NotSupported("async with", "use a plain with statement")
	}
	body, err := u.block(n.Body)
	if err != nil {
		return nil, err
	}
	// Nested items are nested withs.
	for i := len(n.Items) - 1; i >= 0; i-- {
		it := n.Items[i]
		mgr, err := u.expr(it.ContextExpr)
		if err != nil {
			return nil, err
		}
		var bind func(*Frame, Object) error
		if it.OptionalVars != nil {
			if bind, err = u.store(it.OptionalVars); err != nil {
				return nil, err
			}
		}
		inner := body
		body = func(f *Frame) (ctrl, error) {
			m, err := mgr(f)
			if err != nil {
				return 0, err
			}
			t := f.t
			enter, exit, err := contextMethods(t, m)
			if err != nil {
				return 0, err
			}
			v, err := enter()
			if err != nil {
				return 0, err
			}
			if bind != nil {
				if err := bind(f, v); err != nil {
					_, _ = exit(nil)
					return 0, err
				}
			}
			c, err := inner(f)
			if err != nil {
				e, ok := err.(*Exception)
				if !ok {
					return 0, err
				}
				suppress, err2 := exit(e)
				if err2 != nil {
					if e2, ok := err2.(*Exception); ok && e2 != e && e2.context == nil {
						e2.context = e
					}
					return 0, err2
				}
				if suppress {
					return ctrlNone, nil
				}
				return 0, err
			}
			if _, err := exit(nil); err != nil {
				return 0, err
			}
			return c, nil
		}
	}
	return body, nil
}

// contextMethods returns the __enter__ and __exit__ of a context manager.
func contextMethods(t *Thread, m Object) (func() (Object, error), func(*Exception) (bool, error), error) {
	if cm, ok := m.(ContextManager); ok {
		return func() (Object, error) { return cm.Enter(t) },
			func(e *Exception) (bool, error) { return cm.Exit(t, e) }, nil
	}
	cls := m.Type()
	en, owner1 := cls.lookupOwner("__enter__")
	ex, owner2 := cls.lookupOwner("__exit__")
	if owner1 == nil {
		return nil, nil, Errorf(TypeErrorType, "'%s' object does not support the context manager protocol", cls.name)
	}
	if owner2 == nil {
		return nil, nil, Errorf(TypeErrorType, "'%s' object does not support the context manager protocol (missed __exit__ method)", cls.name)
	}
	enter := func() (Object, error) { return callMethod(t, en, m, nil, nil) }
	exit := func(e *Exception) (bool, error) {
		var args []Object
		if e == nil {
			args = []Object{None, None, None}
		} else {
			args = []Object{e.cls, e, e.tracebackOf()}
		}
		r, err := callMethod(t, ex, m, args, nil)
		if err != nil {
			return false, err
		}
		if e == nil {
			return false, nil
		}
		return TruthE(t, r)
	}
	return enter, exit, nil
}

func (u *unit) importStmt(n *syntax.Import) (execFn, error) {
	type imp struct {
		name  string
		store func(*Frame, Object) error
		top   bool
	}
	var imps []imp
	for _, a := range n.Names {
		if a.Asname != "" {
			imps = append(imps, imp{name: a.Name, store: u.storeName(a.Asname)})
			continue
		}
		top := a.Name
		for i := 0; i < len(top); i++ {
			if top[i] == '.' {
				top = top[:i]
				break
			}
		}
		imps = append(imps, imp{name: a.Name, store: u.storeName(top), top: true})
	}
	return func(f *Frame) (ctrl, error) {
		for _, im := range imps {
			m, err := f.t.interp.importModule(f.t, im.name)
			if err != nil {
				return 0, err
			}
			if im.top {
				if m, err = f.t.interp.importModule(f.t, topName(im.name)); err != nil {
					return 0, err
				}
			}
			if err := im.store(f, m); err != nil {
				return 0, err
			}
		}
		return ctrlNone, nil
	}, nil
}

func topName(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			return name[:i]
		}
	}
	return name
}

func (u *unit) importFrom(n *syntax.ImportFrom) (execFn, error) {
	if n.Level > 0 {
		return func(*Frame) (ctrl, error) {
			return 0, Errorf(ImportErrorType, "attempted relative import with no known parent package")
		}, nil
	}
	mod := n.Module
	if len(n.Names) == 1 && n.Names[0].Name == "*" {
		if u.s.kind != scopeModule {
			return nil, &syntax.Error{Type: "SyntaxError", Msg: "import * only allowed at module level", Line: n.Line, Col: n.Col + 1, NoText: true, NoDetails: true}
		}
		return func(f *Frame) (ctrl, error) {
			m, err := f.t.interp.importModule(f.t, mod)
			if err != nil {
				return 0, err
			}
			mm, ok := m.(*Module)
			if !ok {
				return ctrlNone, nil
			}
			var names []string
			if all, ok := mm.dict.GetStr("__all__"); ok {
				items, err := ToSlice(f.t, all)
				if err != nil {
					return 0, err
				}
				for _, it := range items {
					names = append(names, StrValue(it))
				}
			} else {
				mm.dict.Items(func(k, _ Object) bool {
					s := StrValue(k)
					if s != "" && s[0] != '_' {
						names = append(names, s)
					}
					return true
				})
			}
			for _, name := range names {
				v, _ := mm.dict.GetStr(name)
				if v != nil {
					f.globals.SetStr(name, v)
				}
			}
			return ctrlNone, nil
		}, nil
	}
	type imp struct {
		name  string
		store func(*Frame, Object) error
	}
	var imps []imp
	for _, a := range n.Names {
		as := a.Asname
		if as == "" {
			as = a.Name
		}
		imps = append(imps, imp{name: a.Name, store: u.storeName(as)})
	}
	return func(f *Frame) (ctrl, error) {
		m, err := f.t.interp.importModule(f.t, mod)
		if err != nil {
			return 0, err
		}
		for _, im := range imps {
			v, err := getAttr(f.t, m, im.name)
			if err != nil {
				return 0, err
			}
			if v == nil {
				// A submodule.
				if sub, err := f.t.interp.importModule(f.t, mod+"."+im.name); err == nil {
					v = sub
				} else {
					e := Errorf(ImportErrorType, "cannot import name '%s' from '%s' (unknown location)", im.name, mod)
					e.dictOf().SetStr("name", NewStr(mod))
					return 0, e
				}
			}
			if err := im.store(f, v); err != nil {
				return 0, err
			}
		}
		return ctrlNone, nil
	}, nil
}
