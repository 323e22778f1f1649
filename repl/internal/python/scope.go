package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// Scope analysis: which names of a block are local, cell, free or global,
// by Python's rules (CPython's symtable).

type scopeKind uint8

const (
	scopeModule scopeKind = iota
	scopeFunction
	scopeClass
	scopeComprehension
)

type symFlags uint16

const (
	symBound symFlags = 1 << iota
	symUsed
	symParam
	symGlobal
	symNonlocal
	symComprehensionTarget // bound by a walrus inside a comprehension (in the target scope)
)

type symKind uint8

const (
	symLocal symKind = iota + 1
	symCell
	symFree
	symGlobalExplicit
	symGlobalImplicit
)

type scope struct {
	kind      scopeKind
	parent    *scope
	name      string
	flags     map[string]symFlags
	order     []string
	children  []*scope
	node      any
	generator bool
	classCell bool // a class body whose methods use super() or __class__
	usesSuper bool // a function that uses super or __class__
	// annotation marks the annotation scope of a generic def or class
	// (PEP 695): a function scope holding the type parameters, invisible
	// in qualified names.
	annotation bool

	kinds    map[string]symKind
	cells    []string // local names captured by nested scopes
	frees    []string
	fastList []string
}

func newScope(kind scopeKind, parent *scope, name string, node any) *scope {
	s := &scope{kind: kind, parent: parent, name: name, flags: map[string]symFlags{}, node: node, kinds: map[string]symKind{}}
	if parent != nil {
		parent.children = append(parent.children, s)
	}
	return s
}

func (s *scope) add(name string, f symFlags) {
	old, ok := s.flags[name]
	if !ok {
		s.order = append(s.order, name)
	}
	s.flags[name] = old | f
}

// symtable walks a tree and builds its scopes.
type symtable struct {
	scopes map[any]*scope
	cur    *scope
	err    error
	binds  map[syntax.Stmt]string // mangled names of def and class statements
}

// bindName returns the name a def or class statement binds.
func bindName(binds map[syntax.Stmt]string, s syntax.Stmt, name string) string {
	if b, ok := binds[s]; ok {
		return b
	}
	return name
}

func buildScopes(mod *syntax.Module, binds map[syntax.Stmt]string) (*scope, map[any]*scope, error) {
	st := &symtable{scopes: map[any]*scope{}, binds: binds}
	top := newScope(scopeModule, nil, "<module>", mod)
	st.scopes[mod] = top
	st.cur = top
	st.stmts(mod.Body)
	if st.err != nil {
		return nil, nil, st.err
	}
	if err := resolveScope(top); err != nil {
		return nil, nil, err
	}
	return top, st.scopes, nil
}

func (st *symtable) stmts(list []syntax.Stmt) {
	for _, s := range list {
		st.stmt(s)
	}
}

func (st *symtable) push(kind scopeKind, name string, node any) *scope {
	s := newScope(kind, st.cur, name, node)
	st.scopes[node] = s
	st.cur = s
	return s
}

func (st *symtable) pop() { st.cur = st.cur.parent }

func (st *symtable) args(a *syntax.Arguments) {
	// Defaults and annotations are evaluated in the enclosing scope.
	st.argDefaults(a)
	st.argAnnotations(a)
}

func (st *symtable) argDefaults(a *syntax.Arguments) {
	for _, d := range a.Defaults {
		st.expr(d)
	}
	for _, d := range a.KwDefaults {
		if d != nil {
			st.expr(d)
		}
	}
}

// typeParams opens the annotation scope of a generic def or class and
// binds its type parameters there.
func (st *symtable) typeParams(key any, name string, tps []syntax.TypeParam) {
	s := st.push(scopeFunction, name, key)
	s.annotation = true
	for _, tp := range tps {
		s.add(tp.Name, symBound)
		if tp.Bound != nil {
			st.expr(tp.Bound)
		}
	}
}

func (st *symtable) argAnnotations(a *syntax.Arguments) {
	for _, l := range [][]*syntax.Arg{a.PosOnlyArgs, a.Args, a.KwOnlyArgs, {a.Vararg, a.Kwarg}} {
		for _, x := range l {
			if x != nil && x.Annotation != nil {
				st.expr(x.Annotation)
			}
		}
	}
}

func (st *symtable) params(a *syntax.Arguments) {
	for _, l := range [][]*syntax.Arg{a.PosOnlyArgs, a.Args} {
		for _, x := range l {
			st.cur.add(x.Arg, symBound|symParam)
		}
	}
	if a.Vararg != nil {
		st.cur.add(a.Vararg.Arg, symBound|symParam)
	}
	for _, x := range a.KwOnlyArgs {
		st.cur.add(x.Arg, symBound|symParam)
	}
	if a.Kwarg != nil {
		st.cur.add(a.Kwarg.Arg, symBound|symParam)
	}
}

func (st *symtable) stmt(s syntax.Stmt) {
	switch n := s.(type) {
	case *syntax.FunctionDef:
		for _, d := range n.DecoratorList {
			st.expr(d)
		}
		st.argDefaults(n.Args)
		st.cur.add(bindName(st.binds, n, n.Name), symBound)
		if len(n.TypeParams) > 0 {
			st.typeParams(&n.TypeParams, n.Name, n.TypeParams)
		}
		st.argAnnotations(n.Args)
		if n.Returns != nil {
			st.expr(n.Returns)
		}
		st.push(scopeFunction, n.Name, n)
		st.params(n.Args)
		st.stmts(n.Body)
		st.pop()
		if len(n.TypeParams) > 0 {
			st.pop()
		}
	case *syntax.ClassDef:
		for _, d := range n.DecoratorList {
			st.expr(d)
		}
		st.cur.add(bindName(st.binds, n, n.Name), symBound)
		if len(n.TypeParams) > 0 {
			st.typeParams(&n.TypeParams, n.Name, n.TypeParams)
		}
		for _, b := range n.Bases {
			st.expr(b)
		}
		for _, k := range n.Keywords {
			st.expr(k.Value)
		}
		st.push(scopeClass, n.Name, n)
		st.stmts(n.Body)
		st.pop()
		if len(n.TypeParams) > 0 {
			st.pop()
		}
	case *syntax.Return:
		if n.Value != nil {
			st.expr(n.Value)
		}
	case *syntax.Delete:
		for _, t := range n.Targets {
			st.target(t)
		}
	case *syntax.Assign:
		st.expr(n.Value)
		for _, t := range n.Targets {
			st.target(t)
		}
	case *syntax.TypeAlias:
		st.target(n.Name)
		st.expr(n.Value)
	case *syntax.AugAssign:
		st.expr(n.Value)
		if nm, ok := n.Target.(*syntax.Name); ok {
			st.cur.add(nm.ID, symBound|symUsed)
		} else {
			st.target(n.Target)
		}
	case *syntax.AnnAssign:
		if n.Value != nil {
			st.expr(n.Value)
		}
		if st.cur.kind != scopeFunction || !n.Simple {
			st.expr(n.Annotation)
		}
		st.target(n.Target)
	case *syntax.For:
		st.expr(n.Iter)
		st.target(n.Target)
		st.stmts(n.Body)
		st.stmts(n.Orelse)
	case *syntax.While:
		st.expr(n.Test)
		st.stmts(n.Body)
		st.stmts(n.Orelse)
	case *syntax.If:
		st.expr(n.Test)
		st.stmts(n.Body)
		st.stmts(n.Orelse)
	case *syntax.With:
		for _, it := range n.Items {
			st.expr(it.ContextExpr)
			if it.OptionalVars != nil {
				st.target(it.OptionalVars)
			}
		}
		st.stmts(n.Body)
	case *syntax.Match:
		st.expr(n.Subject)
		for _, c := range n.Cases {
			st.pattern(c.Pattern)
			if c.Guard != nil {
				st.expr(c.Guard)
			}
			st.stmts(c.Body)
		}
	case *syntax.Raise:
		if n.Exc != nil {
			st.expr(n.Exc)
		}
		if n.Cause != nil {
			st.expr(n.Cause)
		}
	case *syntax.Try:
		st.stmts(n.Body)
		for _, h := range n.Handlers {
			if h.Type != nil {
				st.expr(h.Type)
			}
			if h.Name != "" {
				st.cur.add(h.Name, symBound)
			}
			st.stmts(h.Body)
		}
		st.stmts(n.Orelse)
		st.stmts(n.Finalbody)
	case *syntax.Assert:
		st.expr(n.Test)
		if n.Msg != nil {
			st.expr(n.Msg)
		}
	case *syntax.Import:
		for _, a := range n.Names {
			name := a.Asname
			if name == "" {
				name = a.Name
				for i := 0; i < len(name); i++ {
					if name[i] == '.' {
						name = name[:i]
						break
					}
				}
			}
			st.cur.add(name, symBound)
		}
	case *syntax.ImportFrom:
		for _, a := range n.Names {
			if a.Name == "*" {
				continue
			}
			name := a.Asname
			if name == "" {
				name = a.Name
			}
			st.cur.add(name, symBound)
		}
	case *syntax.Global:
		for _, name := range n.Names {
			st.cur.add(name, symGlobal)
		}
	case *syntax.Nonlocal:
		for _, name := range n.Names {
			st.cur.add(name, symNonlocal)
		}
	case *syntax.ExprStmt:
		st.expr(n.Value)
	}
}

func (st *symtable) pattern(p syntax.Pattern) {
	switch n := p.(type) {
	case *syntax.MatchValue:
		st.expr(n.Value)
	case *syntax.MatchSequence:
		for _, x := range n.Patterns {
			st.pattern(x)
		}
	case *syntax.MatchMapping:
		for _, k := range n.Keys {
			st.expr(k)
		}
		for _, x := range n.Patterns {
			st.pattern(x)
		}
		if n.Rest != "" {
			st.cur.add(n.Rest, symBound)
		}
	case *syntax.MatchClass:
		st.expr(n.Cls)
		for _, x := range n.Patterns {
			st.pattern(x)
		}
		for _, x := range n.KwdPatterns {
			st.pattern(x)
		}
	case *syntax.MatchStar:
		if n.Name != "" {
			st.cur.add(n.Name, symBound)
		}
	case *syntax.MatchAs:
		if n.Pattern != nil {
			st.pattern(n.Pattern)
		}
		if n.Name != "" {
			st.cur.add(n.Name, symBound)
		}
	case *syntax.MatchOr:
		for _, x := range n.Patterns {
			st.pattern(x)
		}
	}
}

// target records the names an assignment target binds (and the names its
// subexpressions use).
func (st *symtable) target(e syntax.Expr) {
	switch n := e.(type) {
	case *syntax.Name:
		st.cur.add(n.ID, symBound)
	case *syntax.Tuple:
		for _, x := range n.Elts {
			st.target(x)
		}
	case *syntax.List:
		for _, x := range n.Elts {
			st.target(x)
		}
	case *syntax.Starred:
		st.target(n.Value)
	case *syntax.Attribute:
		st.expr(n.Value)
	case *syntax.Subscript:
		st.expr(n.Value)
		st.expr(n.Slice)
	default:
		st.expr(e)
	}
}

func (st *symtable) comprehension(node any, gens []*syntax.Comprehension, elts ...syntax.Expr) {
	// The first iterable is evaluated in the enclosing scope.
	st.expr(gens[0].Iter)
	s := st.push(scopeComprehension, "<comprehension>", node)
	s.add(".0", symBound|symParam)
	for i, g := range gens {
		if i > 0 {
			st.expr(g.Iter)
		}
		st.target(g.Target)
		for _, c := range g.Ifs {
			st.expr(c)
		}
	}
	for _, e := range elts {
		st.expr(e)
	}
	st.pop()
}

func (st *symtable) expr(e syntax.Expr) {
	switch n := e.(type) {
	case nil:
	case *syntax.Name:
		st.cur.add(n.ID, symUsed)
		if n.ID == "super" || n.ID == "__class__" {
			st.markSuper()
		}
	case *syntax.BoolOp:
		for _, v := range n.Values {
			st.expr(v)
		}
	case *syntax.NamedExpr:
		st.expr(n.Value)
		// In a comprehension the target binds in the enclosing function
		// (or module) scope.
		s := st.cur
		if s.kind == scopeComprehension {
			target := s
			for target.kind == scopeComprehension {
				target = target.parent
			}
			if target.kind == scopeClass {
				st.fail(n.Pos, "assignment expression within a comprehension cannot be used in a class body")
				return
			}
			target.add(n.Target.ID, symBound|symComprehensionTarget)
			for c := s; c != target; c = c.parent {
				if target.kind == scopeModule {
					c.add(n.Target.ID, symGlobal|symUsed)
				} else {
					c.add(n.Target.ID, symNonlocal|symUsed)
				}
			}
			return
		}
		s.add(n.Target.ID, symBound)
	case *syntax.BinOp:
		st.expr(n.Left)
		st.expr(n.Right)
	case *syntax.UnaryOp:
		st.expr(n.Operand)
	case *syntax.Lambda:
		st.args(n.Args)
		st.push(scopeFunction, "<lambda>", n)
		st.params(n.Args)
		st.expr(n.Body)
		st.pop()
	case *syntax.IfExp:
		st.expr(n.Test)
		st.expr(n.Body)
		st.expr(n.Orelse)
	case *syntax.Dict:
		for i, k := range n.Keys {
			if k != nil {
				st.expr(k)
			}
			st.expr(n.Values[i])
		}
	case *syntax.Set:
		for _, x := range n.Elts {
			st.expr(x)
		}
	case *syntax.ListComp:
		st.comprehension(n, n.Generators, n.Elt)
	case *syntax.SetComp:
		st.comprehension(n, n.Generators, n.Elt)
	case *syntax.DictComp:
		st.comprehension(n, n.Generators, n.Key, n.Value)
	case *syntax.GeneratorExp:
		st.comprehension(n, n.Generators, n.Elt)
	case *syntax.Await:
		st.expr(n.Value)
	case *syntax.Yield:
		st.markGenerator()
		if n.Value != nil {
			st.expr(n.Value)
		}
	case *syntax.YieldFrom:
		st.markGenerator()
		st.expr(n.Value)
	case *syntax.Compare:
		st.expr(n.Left)
		for _, c := range n.Comparators {
			st.expr(c)
		}
	case *syntax.Call:
		st.expr(n.Func)
		for _, a := range n.Args {
			st.expr(a)
		}
		for _, k := range n.Keywords {
			st.expr(k.Value)
		}
	case *syntax.FormattedValue:
		st.expr(n.Value)
		if n.FormatSpec != nil {
			st.expr(n.FormatSpec)
		}
	case *syntax.JoinedStr:
		for _, v := range n.Values {
			st.expr(v)
		}
	case *syntax.Attribute:
		st.expr(n.Value)
	case *syntax.Subscript:
		st.expr(n.Value)
		st.expr(n.Slice)
	case *syntax.Starred:
		st.expr(n.Value)
	case *syntax.List:
		for _, x := range n.Elts {
			st.expr(x)
		}
	case *syntax.Tuple:
		for _, x := range n.Elts {
			st.expr(x)
		}
	case *syntax.Slice:
		st.expr(n.Lower)
		st.expr(n.Upper)
		st.expr(n.Step)
	}
}

func (st *symtable) markGenerator() {
	if st.cur.kind == scopeFunction || st.cur.kind == scopeComprehension {
		st.cur.generator = true
	}
}

// markSuper notes a use of super or __class__: the innermost function
// needs the __class__ cell of its class.
func (st *symtable) markSuper() {
	for s := st.cur; s != nil; s = s.parent {
		if s.kind == scopeFunction {
			s.usesSuper = true
			return
		}
		if s.kind == scopeClass || s.kind == scopeModule {
			return
		}
	}
}

func (st *symtable) fail(p syntax.Pos, msg string) {
	if st.err == nil {
		st.err = &syntax.Error{Type: "SyntaxError", Msg: msg, Line: p.Line, Col: p.Col + 1}
	}
}

// resolveScope assigns a kind to every name of s and its children.
func resolveScope(s *scope) error {
	for _, name := range s.order {
		f := s.flags[name]
		switch {
		case f&symGlobal != 0:
			s.kinds[name] = symGlobalExplicit
		case f&symNonlocal != 0:
			if s.kind == scopeModule {
				return &syntax.Error{Type: "SyntaxError", Msg: "nonlocal declaration not allowed at module level"}
			}
			if !boundInEnclosing(s, name) {
				return &syntax.Error{Type: "SyntaxError", Msg: "no binding for nonlocal '" + name + "' found"}
			}
			s.kinds[name] = symFree
		case s.kind == scopeModule:
			s.kinds[name] = symGlobalImplicit
		case f&symBound != 0:
			s.kinds[name] = symLocal
		default:
			if boundInEnclosing(s, name) {
				s.kinds[name] = symFree
			} else {
				s.kinds[name] = symGlobalImplicit
			}
		}
	}
	// __class__ for methods using super().
	if s.kind == scopeFunction && s.usesSuper {
		if c := enclosingClass(s); c != nil {
			c.classCell = true
			if _, ok := s.kinds["__class__"]; !ok {
				s.order = append(s.order, "__class__")
				s.flags["__class__"] = symUsed
			}
			s.kinds["__class__"] = symFree
		}
	}
	for _, c := range s.children {
		if err := resolveScope(c); err != nil {
			return err
		}
	}
	// Free names of children are cells here (if local here) or pass
	// through as free.
	for _, c := range s.children {
		for _, name := range c.frees {
			if name == "__class__" && s.kind == scopeClass {
				continue
			}
			switch s.kinds[name] {
			case symLocal:
				if s.kind != scopeClass {
					s.kinds[name] = symCell
				} else {
					s.addFree(name)
				}
			case symCell, symFree:
			case symGlobalExplicit, symGlobalImplicit:
				if s.kind != scopeModule {
					if _, declared := s.flags[name]; !declared || s.kinds[name] == symGlobalImplicit {
						s.kinds[name] = symFree
						if _, ok := s.flags[name]; !ok {
							s.order = append(s.order, name)
							s.flags[name] = symUsed
						}
					}
				}
			default:
				if s.kind != scopeModule {
					s.order = append(s.order, name)
					s.flags[name] = symUsed
					s.kinds[name] = symFree
				}
			}
		}
	}
	for _, name := range s.order {
		switch s.kinds[name] {
		case symFree:
			s.addFree(name)
		case symCell:
			s.cells = append(s.cells, name)
		case symLocal:
			if s.kind != scopeClass {
				s.fastList = append(s.fastList, name)
			}
		}
	}
	if s.kind == scopeClass && s.classCell {
		s.cells = append(s.cells, "__class__")
	}
	return nil
}

func (s *scope) addFree(name string) {
	for _, f := range s.frees {
		if f == name {
			return
		}
	}
	s.frees = append(s.frees, name)
}

func enclosingClass(s *scope) *scope {
	for p := s.parent; p != nil; p = p.parent {
		if p.kind == scopeClass {
			return p
		}
		if p.kind == scopeModule {
			return nil
		}
	}
	return nil
}

// boundInEnclosing reports whether name is a local (or free) name of an
// enclosing function scope (class scopes are skipped).
func boundInEnclosing(s *scope, name string) bool {
	for p := s.parent; p != nil; p = p.parent {
		switch p.kind {
		case scopeModule:
			return false
		case scopeClass:
			continue
		}
		f, ok := p.flags[name]
		if !ok {
			continue
		}
		if f&symGlobal != 0 {
			return false
		}
		if f&symBound != 0 || f&symNonlocal != 0 {
			return true
		}
		if f&symUsed != 0 && boundInEnclosing(p, name) {
			return true
		}
	}
	return false
}
