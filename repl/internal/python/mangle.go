package python

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// Private name mangling: inside a class body (and the functions, lambdas
// and comprehensions nested in it), an identifier __spam that does not end
// with two underscores stands for _Class__spam, as CPython's compiler
// rewrites it. The names rewritten are those of variables (loads, stores,
// deletions, parameters, global and nonlocal declarations, import and
// except bindings, pattern captures) and of attributes; keyword argument
// names of calls and the attribute names of class patterns are not.

// mangleName returns name as it is spelled inside class cls.
func mangleName(cls, name string) string {
	if cls == "" || len(name) < 3 || !strings.HasPrefix(name, "__") || strings.HasSuffix(name, "__") || strings.Contains(name, ".") {
		return name
	}
	stripped := strings.TrimLeft(cls, "_")
	if stripped == "" {
		return name
	}
	return "_" + stripped + name
}

// mangler rewrites a tree's private names in place. binds records the
// names def and class statements bind when they differ from the
// statement's own name (which stays the function's or class's __name__).
type mangler struct {
	binds map[syntax.Stmt]string
}

// manglePrivate rewrites the private names of mod and returns the binding
// names of the def and class statements they change (nil if none).
func manglePrivate(mod *syntax.Module) map[syntax.Stmt]string {
	m := &mangler{}
	m.stmts(mod.Body, "")
	return m.binds
}

func (m *mangler) bind(s syntax.Stmt, cls, name string) {
	if mn := mangleName(cls, name); mn != name {
		if m.binds == nil {
			m.binds = map[syntax.Stmt]string{}
		}
		m.binds[s] = mn
	}
}

func (m *mangler) stmts(list []syntax.Stmt, cls string) {
	for _, s := range list {
		m.stmt(s, cls)
	}
}

func (m *mangler) args(a *syntax.Arguments, cls string) {
	if a == nil {
		return
	}
	m.exprs(a.Defaults, cls)
	m.exprs(a.KwDefaults, cls)
	for _, l := range [][]*syntax.Arg{a.PosOnlyArgs, a.Args, {a.Vararg}, a.KwOnlyArgs, {a.Kwarg}} {
		for _, x := range l {
			if x != nil {
				x.Arg = mangleName(cls, x.Arg)
				m.expr(x.Annotation, cls)
			}
		}
	}
}

func (m *mangler) stmt(s syntax.Stmt, cls string) {
	switch n := s.(type) {
	case *syntax.FunctionDef:
		m.exprs(n.DecoratorList, cls)
		m.args(n.Args, cls)
		m.expr(n.Returns, cls)
		m.bind(n, cls, n.Name)
		m.stmts(n.Body, cls)
	case *syntax.ClassDef:
		m.exprs(n.DecoratorList, cls)
		m.exprs(n.Bases, cls)
		for _, k := range n.Keywords {
			m.expr(k.Value, cls)
		}
		m.bind(n, cls, n.Name)
		m.stmts(n.Body, n.Name)
	case *syntax.Return:
		m.expr(n.Value, cls)
	case *syntax.Delete:
		m.exprs(n.Targets, cls)
	case *syntax.Assign:
		m.exprs(n.Targets, cls)
		m.expr(n.Value, cls)
	case *syntax.TypeAlias:
		m.expr(n.Name, cls)
		m.expr(n.Value, cls)
	case *syntax.AugAssign:
		m.expr(n.Target, cls)
		m.expr(n.Value, cls)
	case *syntax.AnnAssign:
		m.expr(n.Target, cls)
		m.expr(n.Annotation, cls)
		m.expr(n.Value, cls)
	case *syntax.For:
		m.expr(n.Target, cls)
		m.expr(n.Iter, cls)
		m.stmts(n.Body, cls)
		m.stmts(n.Orelse, cls)
	case *syntax.While:
		m.expr(n.Test, cls)
		m.stmts(n.Body, cls)
		m.stmts(n.Orelse, cls)
	case *syntax.If:
		m.expr(n.Test, cls)
		m.stmts(n.Body, cls)
		m.stmts(n.Orelse, cls)
	case *syntax.With:
		for _, it := range n.Items {
			m.expr(it.ContextExpr, cls)
			m.expr(it.OptionalVars, cls)
		}
		m.stmts(n.Body, cls)
	case *syntax.Match:
		m.expr(n.Subject, cls)
		for _, c := range n.Cases {
			m.pattern(c.Pattern, cls)
			m.expr(c.Guard, cls)
			m.stmts(c.Body, cls)
		}
	case *syntax.Raise:
		m.expr(n.Exc, cls)
		m.expr(n.Cause, cls)
	case *syntax.Try:
		m.stmts(n.Body, cls)
		for _, h := range n.Handlers {
			m.expr(h.Type, cls)
			h.Name = mangleName(cls, h.Name)
			m.stmts(h.Body, cls)
		}
		m.stmts(n.Orelse, cls)
		m.stmts(n.Finalbody, cls)
	case *syntax.Assert:
		m.expr(n.Test, cls)
		m.expr(n.Msg, cls)
	case *syntax.Import:
		for _, a := range n.Names {
			switch {
			case a.Asname != "":
				a.Asname = mangleName(cls, a.Asname)
			case !strings.Contains(a.Name, "."):
				// import __m binds _C__m to the module __m.
				if mn := mangleName(cls, a.Name); mn != a.Name {
					a.Asname = mn
				}
			}
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
			if mn := mangleName(cls, name); mn != name {
				a.Asname = mn
			}
		}
	case *syntax.Global:
		for i, name := range n.Names {
			n.Names[i] = mangleName(cls, name)
		}
	case *syntax.Nonlocal:
		for i, name := range n.Names {
			n.Names[i] = mangleName(cls, name)
		}
	case *syntax.ExprStmt:
		m.expr(n.Value, cls)
	}
}

func (m *mangler) exprs(list []syntax.Expr, cls string) {
	for _, e := range list {
		m.expr(e, cls)
	}
}

func (m *mangler) comprehension(gens []*syntax.Comprehension, cls string) {
	for _, g := range gens {
		m.expr(g.Target, cls)
		m.expr(g.Iter, cls)
		m.exprs(g.Ifs, cls)
	}
}

func (m *mangler) expr(e syntax.Expr, cls string) {
	switch n := e.(type) {
	case nil:
	case *syntax.Name:
		n.ID = mangleName(cls, n.ID)
	case *syntax.Attribute:
		m.expr(n.Value, cls)
		n.Attr = mangleName(cls, n.Attr)
	case *syntax.BoolOp:
		m.exprs(n.Values, cls)
	case *syntax.NamedExpr:
		m.expr(n.Target, cls)
		m.expr(n.Value, cls)
	case *syntax.BinOp:
		m.expr(n.Left, cls)
		m.expr(n.Right, cls)
	case *syntax.UnaryOp:
		m.expr(n.Operand, cls)
	case *syntax.Lambda:
		m.args(n.Args, cls)
		m.expr(n.Body, cls)
	case *syntax.IfExp:
		m.expr(n.Test, cls)
		m.expr(n.Body, cls)
		m.expr(n.Orelse, cls)
	case *syntax.Dict:
		m.exprs(n.Keys, cls)
		m.exprs(n.Values, cls)
	case *syntax.Set:
		m.exprs(n.Elts, cls)
	case *syntax.ListComp:
		m.comprehension(n.Generators, cls)
		m.expr(n.Elt, cls)
	case *syntax.SetComp:
		m.comprehension(n.Generators, cls)
		m.expr(n.Elt, cls)
	case *syntax.DictComp:
		m.comprehension(n.Generators, cls)
		m.expr(n.Key, cls)
		m.expr(n.Value, cls)
	case *syntax.GeneratorExp:
		m.comprehension(n.Generators, cls)
		m.expr(n.Elt, cls)
	case *syntax.Await:
		m.expr(n.Value, cls)
	case *syntax.Yield:
		m.expr(n.Value, cls)
	case *syntax.YieldFrom:
		m.expr(n.Value, cls)
	case *syntax.Compare:
		m.expr(n.Left, cls)
		m.exprs(n.Comparators, cls)
	case *syntax.Call:
		m.expr(n.Func, cls)
		m.exprs(n.Args, cls)
		for _, k := range n.Keywords {
			m.expr(k.Value, cls)
		}
	case *syntax.FormattedValue:
		m.expr(n.Value, cls)
		if n.FormatSpec != nil {
			m.expr(n.FormatSpec, cls)
		}
	case *syntax.JoinedStr:
		m.exprs(n.Values, cls)
	case *syntax.Subscript:
		m.expr(n.Value, cls)
		m.expr(n.Slice, cls)
	case *syntax.Starred:
		m.expr(n.Value, cls)
	case *syntax.List:
		m.exprs(n.Elts, cls)
	case *syntax.Tuple:
		m.exprs(n.Elts, cls)
	case *syntax.Slice:
		m.expr(n.Lower, cls)
		m.expr(n.Upper, cls)
		m.expr(n.Step, cls)
	}
}

func (m *mangler) pattern(p syntax.Pattern, cls string) {
	switch n := p.(type) {
	case *syntax.MatchValue:
		m.expr(n.Value, cls)
	case *syntax.MatchSequence:
		for _, x := range n.Patterns {
			m.pattern(x, cls)
		}
	case *syntax.MatchMapping:
		m.exprs(n.Keys, cls)
		for _, x := range n.Patterns {
			m.pattern(x, cls)
		}
		n.Rest = mangleName(cls, n.Rest)
	case *syntax.MatchClass:
		m.expr(n.Cls, cls)
		for _, x := range n.Patterns {
			m.pattern(x, cls)
		}
		for _, x := range n.KwdPatterns {
			m.pattern(x, cls)
		}
	case *syntax.MatchStar:
		n.Name = mangleName(cls, n.Name)
	case *syntax.MatchAs:
		if n.Pattern != nil {
			m.pattern(n.Pattern, cls)
		}
		n.Name = mangleName(cls, n.Name)
	case *syntax.MatchOr:
		for _, x := range n.Patterns {
			m.pattern(x, cls)
		}
	}
}
