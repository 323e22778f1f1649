package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// closureOf returns, for a nested scope's free names, their cell indexes
// in u's frame.
func (u *unit) closureOf(s *scope) []int {
	idx := make([]int, len(s.frees))
	for i, name := range s.frees {
		j, ok := u.cells[name]
		if !ok {
			j = -1
		}
		idx[i] = j
	}
	return idx
}

func gatherClosure(f *Frame, idx []int) []*Cell {
	if len(idx) == 0 {
		return nil
	}
	out := make([]*Cell, len(idx))
	for i, j := range idx {
		if j >= 0 {
			out[i] = f.cells[j]
		} else {
			out[i] = &Cell{}
		}
	}
	return out
}

// setParams fills a code's parameter description.
func (fu *unit) setParams(a *syntax.Arguments) {
	c := fu.code
	for _, x := range a.PosOnlyArgs {
		c.ArgNames = append(c.ArgNames, x.Arg)
	}
	c.PosOnly = len(a.PosOnlyArgs)
	for _, x := range a.Args {
		c.ArgNames = append(c.ArgNames, x.Arg)
	}
	for _, x := range a.KwOnlyArgs {
		c.KwOnly = append(c.KwOnly, x.Arg)
	}
	if a.Vararg != nil {
		c.Vararg = a.Vararg.Arg
	}
	if a.Kwarg != nil {
		c.Kwarg = a.Kwarg.Arg
	}
	ref := func(name string) varRef {
		r := fu.ref(name)
		return r
	}
	for _, n := range c.ArgNames {
		c.paramSlots = append(c.paramSlots, ref(n))
	}
	if c.Vararg != "" {
		c.paramSlots = append(c.paramSlots, ref(c.Vararg))
	}
	for _, n := range c.KwOnly {
		c.paramSlots = append(c.paramSlots, ref(n))
	}
	if c.Kwarg != "" {
		c.paramSlots = append(c.paramSlots, ref(c.Kwarg))
	}
}

type defaultsFns struct {
	pos   []evalFn
	kw    []evalFn // nil entries: no default
	annot []struct {
		name string
		fn   evalFn
	}
}

func (u *unit) defaults(a *syntax.Arguments, returns syntax.Expr) (*defaultsFns, error) {
	d, err := u.defaultValues(a)
	if err != nil {
		return nil, err
	}
	if err := u.annotations(d, a, returns); err != nil {
		return nil, err
	}
	return d, nil
}

// defaultValues compiles a parameter list's default values.
func (u *unit) defaultValues(a *syntax.Arguments) (*defaultsFns, error) {
	d := &defaultsFns{}
	var err error
	if d.pos, err = u.exprs(a.Defaults); err != nil {
		return nil, err
	}
	d.kw = make([]evalFn, len(a.KwDefaults))
	for i, e := range a.KwDefaults {
		if e != nil {
			if d.kw[i], err = u.expr(e); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// annotations compiles a parameter list's annotations into d.
func (u *unit) annotations(d *defaultsFns, a *syntax.Arguments, returns syntax.Expr) error {
	addAnn := func(name string, e syntax.Expr) error {
		if e == nil {
			return nil
		}
		fn, err := u.expr(e)
		if err != nil {
			return err
		}
		d.annot = append(d.annot, struct {
			name string
			fn   evalFn
		}{name, fn})
		return nil
	}
	for _, l := range [][]*syntax.Arg{a.PosOnlyArgs, a.Args, {a.Vararg}, a.KwOnlyArgs, {a.Kwarg}} {
		for _, x := range l {
			if x != nil {
				if err := addAnn(x.Arg, x.Annotation); err != nil {
					return err
				}
			}
		}
	}
	return addAnn("return", returns)
}

// makeFunction evaluates defaults and builds the function object.
func (d *defaultsFns) makeFunction(f *Frame, code *Code, closure []int, name, qualname string, doc Object) (*Function, error) {
	return d.makeFunctionIn(f, f, code, closure, name, qualname, doc)
}

// makeFunctionIn is makeFunction with the defaults evaluated in f and the
// annotations in af, whose cells the closure takes (a generic function's
// annotation scope).
func (d *defaultsFns) makeFunctionIn(f, af *Frame, code *Code, closure []int, name, qualname string, doc Object) (*Function, error) {
	fn := &Function{code: code, globals: f.globals, name: name, qualname: qualname, module: "__main__", doc: doc}
	if len(d.pos) > 0 {
		fn.defaults = make([]Object, len(d.pos))
		for i, e := range d.pos {
			v, err := e(f)
			if err != nil {
				return nil, err
			}
			fn.defaults[i] = v
		}
	}
	if len(d.kw) > 0 {
		fn.kwdefaults = make([]Object, len(d.kw))
		for i, e := range d.kw {
			if e == nil {
				continue
			}
			v, err := e(f)
			if err != nil {
				return nil, err
			}
			fn.kwdefaults[i] = v
		}
	}
	if len(d.annot) > 0 {
		ann := NewDict(len(d.annot))
		for _, a := range d.annot {
			v, err := a.fn(af)
			if err != nil {
				return nil, err
			}
			ann.SetStr(a.name, v)
		}
		fn.attrs().SetStr("__annotations__", ann)
	}
	fn.closure = gatherClosure(af, closure)
	return fn, nil
}

func docstring(body []syntax.Stmt) Object {
	if len(body) == 0 {
		return None
	}
	if e, ok := body[0].(*syntax.ExprStmt); ok {
		if c, ok := e.Value.(*syntax.Constant); ok {
			if s, ok := c.Value.(string); ok {
				return NewStr(s)
			}
		}
	}
	return None
}

func (u *unit) functionDef(n *syntax.FunctionDef) (execFn, error) {
	if n.IsAsync {
		return nil, NotSupported("async def", "define a plain function (code mode runs synchronously)")
	}
	s := u.c.scopes[n]
	qual := qualJoin(u.qualname, n.Name, u.qualKind())
	// A generic function's annotations and closure come from its
	// annotation scope (host); its defaults from the enclosing scope.
	host, gen, err := u.definitionHost(&n.TypeParams)
	if err != nil {
		return nil, err
	}
	fu := u.c.newUnit(s, n.Name, qual, n.Line)
	fu.setParams(n.Args)
	body, err := fu.block(n.Body)
	if err != nil {
		return nil, err
	}
	fu.code.body = body
	defs, err := u.defaultValues(n.Args)
	if err != nil {
		return nil, err
	}
	if err := host.annotations(defs, n.Args, n.Returns); err != nil {
		return nil, err
	}
	decos, err := u.exprs(n.DecoratorList)
	if err != nil {
		return nil, err
	}
	closure := host.closureOf(s)
	store := u.storeName(bindName(u.c.binds, n, n.Name))
	doc := docstring(n.Body)
	code := fu.code
	name := n.Name
	return func(f *Frame) (ctrl, error) {
		dv := make([]Object, len(decos))
		for i, d := range decos {
			v, err := d(f)
			if err != nil {
				return 0, err
			}
			dv[i] = v
		}
		af, params := f, Object(nil)
		if gen != nil {
			var err error
			if af, params, err = gen.enter(f); err != nil {
				return 0, err
			}
		}
		fn, err := defs.makeFunctionIn(f, af, code, closure, name, qual, doc)
		if err != nil {
			return 0, err
		}
		if params != nil {
			fn.attrs().SetStr("__type_params__", params)
		}
		var v Object = fn
		for i := len(dv) - 1; i >= 0; i-- {
			if v, err = Call(f.t, dv[i], []Object{v}, nil); err != nil {
				return 0, err
			}
		}
		return ctrlNone, store(f, v)
	}, nil
}

func (u *unit) lambda(n *syntax.Lambda) (evalFn, error) {
	s := u.c.scopes[n]
	qual := qualJoin(u.qualname, "<lambda>", u.qualKind())
	fu := u.c.newUnit(s, "<lambda>", qual, n.Line)
	fu.setParams(n.Args)
	body, err := fu.expr(n.Body)
	if err != nil {
		return nil, err
	}
	line := n.Line
	if s.generator {
		fu.code.body = func(f *Frame) (ctrl, error) {
			f.line = line
			_, err := body(f)
			return ctrlNone, traced(err, f, line)
		}
	} else {
		fu.code.body = func(f *Frame) (ctrl, error) {
			f.line = line
			v, err := body(f)
			if err != nil {
				return 0, traced(err, f, line)
			}
			f.ret = v
			return ctrlReturn, nil
		}
	}
	defs, err := u.defaults(n.Args, nil)
	if err != nil {
		return nil, err
	}
	closure := u.closureOf(s)
	code := fu.code
	return func(f *Frame) (Object, error) {
		fn, err := defs.makeFunction(f, code, closure, "<lambda>", qual, None)
		if err != nil {
			return nil, err
		}
		return fn, nil
	}, nil
}

// definitionHost returns the unit a definition's closure and annotations
// come from: u, or for a generic definition (type parameters) its
// annotation scope.
func (u *unit) definitionHost(params *[]syntax.TypeParam) (*unit, *generic, error) {
	if len(*params) == 0 {
		return u, nil, nil
	}
	gen, err := u.genericScope(params, *params)
	if err != nil {
		return nil, nil, err
	}
	return gen.au, gen, nil
}

func (u *unit) classDef(n *syntax.ClassDef) (execFn, error) {
	s := u.c.scopes[n]
	qual := qualJoin(u.qualname, n.Name, u.qualKind())
	// A generic class's bases, keywords and closure come from its
	// annotation scope (host).
	host, gen, err := u.definitionHost(&n.TypeParams)
	if err != nil {
		return nil, err
	}
	cu := u.c.newUnit(s, n.Name, qual, n.Line)
	body, err := cu.block(n.Body)
	if err != nil {
		return nil, err
	}
	cu.code.body = body
	bases, err := host.starredList(n.Bases)
	if err != nil {
		return nil, err
	}
	type kw struct {
		name string
		fn   evalFn
	}
	var kws []kw
	for _, k := range n.Keywords {
		if k.Arg == "" {
			return nil, NotSupported("** in class keywords", "")
		}
		fn, err := host.expr(k.Value)
		if err != nil {
			return nil, err
		}
		kws = append(kws, kw{k.Arg, fn})
	}
	decos, err := u.exprs(n.DecoratorList)
	if err != nil {
		return nil, err
	}
	closure := host.closureOf(s)
	store := u.storeName(bindName(u.c.binds, n, n.Name))
	code := cu.code
	name := n.Name
	doc := docstring(n.Body)
	return func(f *Frame) (ctrl, error) {
		t := f.t
		dv := make([]Object, len(decos))
		for i, d := range decos {
			v, err := d(f)
			if err != nil {
				return 0, err
			}
			dv[i] = v
		}
		hf, params := f, Object(nil)
		if gen != nil {
			var err error
			if hf, params, err = gen.enter(f); err != nil {
				return 0, err
			}
		}
		bv, err := bases(hf)
		if err != nil {
			return 0, err
		}
		if params != nil {
			// The implicit base typing.Generic[T, ...].
			gb, err := genericBase(t, params)
			if err != nil {
				return 0, err
			}
			bv = append(bv, gb)
		}
		var meta *Type
		var extra []Kwarg
		for _, k := range kws {
			v, err := k.fn(hf)
			if err != nil {
				return 0, err
			}
			if k.name == "metaclass" {
				m, ok := v.(*Type)
				if !ok || !m.IsSubtype(TypeType) {
					return 0, NotSupported("a metaclass that is not a class", "")
				}
				meta = m
				continue
			}
			extra = append(extra, Kwarg{k.name, v})
		}
		var bts []*Type
		for _, b := range bv {
			switch x := b.(type) {
			case *Type:
				bts = append(bts, x)
			default:
				if r, ok := b.(interface {
					MroEntries(t *Thread) ([]*Type, error)
				}); ok {
					ts, err := r.MroEntries(t)
					if err != nil {
						return 0, err
					}
					bts = append(bts, ts...)
					continue
				}
				return 0, Errorf(TypeErrorType, "bases must be types")
			}
		}
		if meta == nil {
			meta = TypeType
		}
		for _, b := range bts {
			if bm := b.Type(); bm.IsSubtype(meta) {
				meta = bm
			} else if !meta.IsSubtype(bm) {
				return 0, Errorf(TypeErrorType, "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases")
			}
		}
		if !meta.builtin {
			return 0, NotSupported("custom metaclasses", "use a class decorator or __init_subclass__")
		}
		ns := NewDict(8)
		ns.SetStr("__module__", moduleName(f))
		ns.SetStr("__qualname__", NewStr(qual))
		if doc != None {
			ns.SetStr("__doc__", doc)
		}
		if params != nil {
			ns.SetStr("__type_params__", params)
		}
		cf := &Frame{t: t, code: code, globals: f.globals, locals: ns}
		if nc := code.ncells + len(closure); nc > 0 {
			cf.cells = make([]*Cell, nc)
			for i := 0; i < code.ncells; i++ {
				cf.cells[i] = &Cell{}
			}
			copy(cf.cells[code.ncells:], gatherClosure(hf, closure))
		}
		if _, err := runFrame(t, cf); err != nil {
			return 0, err
		}
		cls, err := NewClassKw(t, meta, name, bts, ns, extra)
		if err != nil {
			return 0, err
		}
		if code.classCell >= 0 {
			cf.cells[code.classCell].v = cls
		}
		var v Object = cls
		for i := len(dv) - 1; i >= 0; i-- {
			if v, err = Call(t, dv[i], []Object{v}, nil); err != nil {
				return 0, err
			}
		}
		return ctrlNone, store(f, v)
	}, nil
}

type compKind uint8

const (
	compList compKind = iota
	compSet
	compDict
	compGen
)

type compLevel struct {
	iter   evalFn
	target func(*Frame, Object) error
	pair   pairStores // the target's names when it is two (pairTarget)
	ifs    []func(*Frame) (bool, error)
}

// nextItem takes the next item of it into the level's target: through
// nextPair, without the item's tuple, when the target is two names and
// it an iterator of pairs. It reports false when it is exhausted.
func (lv *compLevel) nextItem(t *Thread, f *Frame, it Object) (bool, error) {
	if lv.pair != nil {
		if p := asPairs(it); p != nil {
			a, b, err := p.nextPair(t)
			if err != nil || a == nil {
				return false, err
			}
			return true, storePair(f, lv.pair, a, b)
		}
	}
	x, err := Next(t, it)
	if err != nil || x == nil {
		return false, err
	}
	return true, lv.target(f, x)
}

// comprehension compiles a list, set or dict comprehension or a generator
// expression.
func (u *unit) comprehension(node any, gens []*syntax.Comprehension, kind compKind, elt, val syntax.Expr) (evalFn, error) {
	for _, g := range gens {
		if g.IsAsync {
			return nil, NotSupported("async comprehensions", "use a plain for clause")
		}
	}
	s := u.c.scopes[node]
	names := [...]string{"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"}
	qual := qualJoin(u.qualname, names[kind], u.qualKind())
	cu := u.c.newUnit(s, names[kind], qual, 0)
	iter0, err := u.expr(gens[0].Iter)
	if err != nil {
		return nil, err
	}
	levels := make([]compLevel, len(gens))
	for i, g := range gens {
		if i > 0 {
			if levels[i].iter, err = cu.expr(g.Iter); err != nil {
				return nil, err
			}
		}
		if levels[i].target, err = cu.store(g.Target); err != nil {
			return nil, err
		}
		levels[i].pair = cu.pairTarget(g.Target)
		for _, c := range g.Ifs {
			fn, err := cu.cond(c)
			if err != nil {
				return nil, err
			}
			levels[i].ifs = append(levels[i].ifs, fn)
		}
	}
	eltFn, err := cu.expr(elt)
	if err != nil {
		return nil, err
	}
	var valFn evalFn
	if val != nil {
		if valFn, err = cu.expr(val); err != nil {
			return nil, err
		}
	}
	closure := u.closureOf(s)
	code := cu.code
	if s.generator && kind != compGen {
		return nil, &syntax.Error{Type: "SyntaxError", Msg: "'yield' inside list comprehension", NoText: true, NoDetails: true}
	}
	newFrame := func(f *Frame) *Frame {
		cf := &Frame{t: f.t, code: code, globals: f.globals, locals: f.locals}
		if code.nfast > 0 {
			cf.fast = make([]Object, code.nfast)
		}
		if nc := code.ncells + len(closure); nc > 0 {
			cf.cells = make([]*Cell, nc)
			for i := 0; i < code.ncells; i++ {
				cf.cells[i] = &Cell{}
			}
			copy(cf.cells[code.ncells:], gatherClosure(f, closure))
		}
		return cf
	}
	if kind == compGen {
		dotZero := -1
		if i, ok := cu.fast[".0"]; ok {
			dotZero = i
		}
		return func(f *Frame) (Object, error) {
			v, err := iter0(f)
			if err != nil {
				return nil, err
			}
			it, err := Iter(f.t, v)
			if err != nil {
				return nil, err
			}
			cf := newFrame(f)
			if dotZero >= 0 {
				cf.fast[dotZero] = it // what locals() shows as '.0'
			}
			return &genexpIter{cf: cf, levels: levels, elt: eltFn, iters: []Object{it}, name: qual}, nil
		}, nil
	}
	return func(f *Frame) (Object, error) {
		v, err := iter0(f)
		if err != nil {
			return nil, err
		}
		t := f.t
		it, err := Iter(t, v)
		if err != nil {
			return nil, err
		}
		cf := newFrame(f)
		// CPython 3.12 runs the comprehension in the enclosing frame
		// (PEP 709): locals() there sees both scopes' variables.
		cf.inlined = true
		cf.back = t.frame
		t.frame = cf
		defer func() { t.frame = cf.back }()
		var list []Object
		var set *Set
		var dict *Dict
		switch kind {
		case compSet:
			set = NewSet(false)
		case compDict:
			dict = NewDict(8)
		}
		emit := func() error {
			x, err := eltFn(cf)
			if err != nil {
				return err
			}
			switch kind {
			case compList:
				list = append(list, x)
				if len(list)&1023 == 0 {
					return t.grow(int64(len(list)) * 16)
				}
				return nil
			case compSet:
				return set.Add(t, x)
			}
			y, err := valFn(cf)
			if err != nil {
				return err
			}
			return dict.Set(t, x, y)
		}
		var run func(level int, it Object) error
		run = func(level int, it Object) error {
			lv := &levels[level]
			for {
				if err := t.tick(); err != nil {
					return err
				}
				more, err := lv.nextItem(t, cf, it)
				if err != nil || !more {
					return err
				}
				ok := true
				for _, c := range lv.ifs {
					if ok, err = c(cf); err != nil {
						return err
					}
					if !ok {
						break
					}
				}
				if !ok {
					continue
				}
				if level == len(levels)-1 {
					if err := emit(); err != nil {
						return err
					}
					continue
				}
				sv, err := levels[level+1].iter(cf)
				if err != nil {
					return err
				}
				sub, err := Iter(t, sv)
				if err != nil {
					return err
				}
				if err := run(level+1, sub); err != nil {
					return err
				}
			}
		}
		if err := run(0, it); err != nil {
			return nil, err
		}
		switch kind {
		case compSet:
			return set, nil
		case compDict:
			return dict, nil
		}
		return NewList(list), nil
	}, nil
}

// genexpIter is a generator expression: a pull iterator over its clauses,
// with no goroutine.
type genexpIter struct {
	identity
	cf     *Frame
	levels []compLevel
	elt    evalFn
	iters  []Object
	done   bool
	name   string
	runs   bool
}

func (*genexpIter) Type() *Type { return GeneratorType }

func (g *genexpIter) Next(t *Thread) (Object, error) {
	if g.done {
		return nil, nil
	}
	if g.runs {
		return nil, Errorf(ValueErrorType, "generator already executing")
	}
	g.runs = true
	g.cf.t = t
	// The generator expression's frame runs on top of its consumer's.
	g.cf.back = t.frame
	t.frame = g.cf
	v, err := g.next(t)
	t.frame = g.cf.back
	g.runs = false
	if e, ok := err.(*Exception); ok && e.cls.IsSubtype(StopIterationType) {
		re := Errorf(RuntimeErrorType, "generator raised StopIteration")
		re.cause, re.context, re.suppressContext = e, e, true
		return nil, re
	}
	return v, err
}

func (g *genexpIter) next(t *Thread) (Object, error) {
	for {
		if err := t.tick(); err != nil {
			return nil, err
		}
		level := len(g.iters) - 1
		lv := &g.levels[level]
		more, err := lv.nextItem(t, g.cf, g.iters[level])
		if err != nil {
			g.done = true
			return nil, err
		}
		if !more {
			if level == 0 {
				g.done = true
				return nil, nil
			}
			g.iters = g.iters[:level]
			continue
		}
		ok := true
		for _, c := range lv.ifs {
			if ok, err = c(g.cf); err != nil {
				g.done = true
				return nil, err
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		if level == len(g.levels)-1 {
			v, err := g.elt(g.cf)
			if err != nil {
				g.done = true
			}
			return v, err
		}
		sv, err := g.levels[level+1].iter(g.cf)
		if err != nil {
			g.done = true
			return nil, err
		}
		sub, err := Iter(t, sv)
		if err != nil {
			g.done = true
			return nil, err
		}
		g.iters = append(g.iters, sub)
	}
}

// PyRepr renders the generator expression.
func (g *genexpIter) PyRepr(*Thread) (string, error) {
	return "<generator object " + g.name + " at " + addr(g) + ">", nil
}

func (g *genexpIter) close() { g.done = true }

// moduleName is the __module__ of a class a frame defines: __name__ as
// the class body would read it (globals, then builtins: 'builtins').
func moduleName(f *Frame) Object {
	if v, ok := f.globals.GetStr("__name__"); ok {
		return v
	}
	return NewStr("builtins")
}

// genericBase returns typing.Generic[params], the implicit base of a
// generic class.
func genericBase(t *Thread, params Object) (Object, error) {
	typing, err := t.interp.importModule(t, "typing")
	if err != nil {
		return nil, err
	}
	g, err := GetAttr(t, typing, "Generic")
	if err != nil {
		return nil, err
	}
	return GetItem(t, g, params)
}

// qualKind is the kind of scope that names u's children in qualified
// names: an annotation scope is transparent.
func (u *unit) qualKind() scopeKind {
	s := u.s
	for s.annotation && s.parent != nil {
		s = s.parent
	}
	return s.kind
}

// generic is the compiled annotation scope of a generic def or class
// (PEP 695): a frame holding the type parameters, in which the
// annotations (or the bases) are evaluated and from which the function
// or class body takes its closure.
type generic struct {
	au      *unit
	closure []int // the annotation scope's free names in the enclosing frame
	params  []genericParam
}

type genericParam struct {
	kind, name  string
	store       func(*Frame, Object) error
	bound       evalFn   // TypeVar bound (nil if none)
	constraints []evalFn // TypeVar constraints
}

// genericScope compiles the annotation scope registered under key.
func (u *unit) genericScope(key any, tps []syntax.TypeParam) (*generic, error) {
	as := u.c.scopes[key]
	au := u.c.newUnit(as, "<generic parameters>", u.qualname, 0)
	g := &generic{au: au, closure: u.closureOf(as)}
	for _, tp := range tps {
		if tp.Kind == "TypeVarTuple" {
			return nil, NotSupported("TypeVarTuple type parameters (*"+tp.Name+")", "use a TypeVar")
		}
		p := genericParam{kind: tp.Kind, name: tp.Name, store: au.storeName(tp.Name)}
		if tup, ok := tp.Bound.(*syntax.Tuple); ok {
			for _, e := range tup.Elts {
				fn, err := au.expr(e)
				if err != nil {
					return nil, err
				}
				p.constraints = append(p.constraints, fn)
			}
		} else if tp.Bound != nil {
			fn, err := au.expr(tp.Bound)
			if err != nil {
				return nil, err
			}
			p.bound = fn
		}
		g.params = append(g.params, p)
	}
	return g, nil
}

// enter makes the annotation scope's frame for a run of the statement in
// f: the type parameters made (typing.TypeVar and ParamSpec, with
// infer_variance) and bound. It returns the frame and their tuple.
func (g *generic) enter(f *Frame) (*Frame, Object, error) {
	t := f.t
	code := g.au.code
	af := &Frame{t: t, code: code, globals: f.globals, back: f}
	if code.nfast > 0 {
		af.fast = make([]Object, code.nfast)
	}
	if nc := code.ncells + len(g.closure); nc > 0 {
		af.cells = make([]*Cell, nc)
		for i := 0; i < code.ncells; i++ {
			af.cells[i] = &Cell{}
		}
		copy(af.cells[code.ncells:], gatherClosure(f, g.closure))
	}
	typing, err := t.interp.importModule(t, "typing")
	if err != nil {
		return nil, nil, err
	}
	params := make([]Object, len(g.params))
	for i, p := range g.params {
		maker, err := GetAttr(t, typing, p.kind)
		if err != nil {
			return nil, nil, err
		}
		args := []Object{NewStr(p.name)}
		var kwargs []Kwarg
		for _, c := range p.constraints {
			v, err := c(af)
			if err != nil {
				return nil, nil, err
			}
			args = append(args, v)
		}
		if p.bound != nil {
			v, err := p.bound(af)
			if err != nil {
				return nil, nil, err
			}
			kwargs = append(kwargs, Kwarg{"bound", v})
		}
		kwargs = append(kwargs, Kwarg{"infer_variance", True})
		v, err := Call(t, maker, args, kwargs)
		if err != nil {
			return nil, nil, err
		}
		if err := p.store(af, v); err != nil {
			return nil, nil, err
		}
		params[i] = v
	}
	return af, NewTuple(params), nil
}
