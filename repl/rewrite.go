package repl

import "go.starlark.net/syntax"

// rewrite adapts a parsed cell before it is resolved and compiled:
//
//   - x * y and x *= y (name targets) become _rlm_mul(x, y), which refuses a
//     string or list repetition over the memory bound before allocating;
//     x[i] *= y becomes x[i] *= _rlm_mulrhs(y), checked the same way;
//   - every def and lambda body first calls _rlm_enter(), which enforces the
//     recursion bound (Starlark's own limit is 100,000 frames);
//   - for loops and comprehension clauses iterate _rlm_iter(x): a string
//     iterates by character, as in Python;
//   - x[a:b:c] (a slice with a step) becomes _rlm_slice[x][a:b:c]: a str
//     operand is sliced by whole characters (strslice.go), any other
//     operand is returned unchanged and sliced by Starlark;
//   - "literal" % args becomes _rlm_percent(...): Python's printf-style
//     formatting with widths and precisions;
//   - calls of methods that Starlark's built-in types lack or that amplify
//     size (x.sort(), x.copy(), x.join(...), x.replace(...), x.format(...),
//     x.ljust(...), ...) become _rlm_m_NAME(x, ...): Python behaviour for
//     built-in receivers, x.NAME(...) for any other receiver.
//
// The rewrite only inserts calls of predeclared _rlm_ names; positions are
// copied from the rewritten nodes so errors keep their lines.
func rewrite(f *syntax.File) {
	f.Stmts = stmts(f.Stmts)
}

// methods routed through _rlm_m_NAME helpers.
var methods = map[string]bool{
	"join": true, "replace": true, "format": true, "split": true, "rsplit": true, "splitlines": true,
	"sort": true, "copy": true, "count": true, "reverse": true, "popitem": true,
	"ljust": true, "rjust": true, "center": true, "zfill": true,
	"isnumeric": true, "isdecimal": true, "casefold": true, "swapcase": true,
	"encode": true, "decode": true, "expandtabs": true,
}

func ident(name string, pos syntax.Position) *syntax.Ident {
	return &syntax.Ident{NamePos: pos, Name: name}
}

func call(name string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: ident(name, pos), Lparen: pos, Args: args, Rparen: pos}
}

func stmts(list []syntax.Stmt) []syntax.Stmt {
	for i, s := range list {
		list[i] = stmt(s)
	}
	return list
}

func stmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.LHS = expr(s.LHS)
		s.RHS = expr(s.RHS)
		if (s.Op == syntax.PLUS_EQ || s.Op == syntax.MINUS_EQ) && maybeBool(s.RHS) {
			s.RHS = call("_rlm_num", s.OpPos, s.RHS)
		}
		if s.Op == syntax.STAR_EQ {
			if id, ok := s.LHS.(*syntax.Ident); ok {
				s.Op = syntax.EQ
				s.RHS = call("_rlm_mul", s.OpPos, ident(id.Name, id.NamePos), s.RHS)
			} else {
				// x[i] *= y: keep the single evaluation of x[i]; the wrapped
				// operand checks the repetition's size.
				s.RHS = call("_rlm_mulrhs", s.OpPos, s.RHS)
			}
		}
	case *syntax.DefStmt:
		s.Params = exprs(s.Params)
		s.Body = append([]syntax.Stmt{&syntax.ExprStmt{X: call("_rlm_enter", s.Def)}}, stmts(s.Body)...)
	case *syntax.ExprStmt:
		s.X = expr(s.X)
	case *syntax.ForStmt:
		s.X = call("_rlm_iter", s.For, expr(s.X))
		s.Body = stmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = expr(s.Cond)
		s.Body = stmts(s.Body)
	case *syntax.IfStmt:
		s.Cond = expr(s.Cond)
		s.True = stmts(s.True)
		s.False = stmts(s.False)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = expr(s.Result)
		}
	}
	return s
}

func exprs(list []syntax.Expr) []syntax.Expr {
	for i, e := range list {
		list[i] = expr(e)
	}
	return list
}

func isNumLit(e syntax.Expr) bool {
	l, ok := e.(*syntax.Literal)
	return ok && (l.Token == syntax.INT || l.Token == syntax.FLOAT)
}

// arithOps are the binary operators whose bool operands Python treats as
// ints (not %, whose left operand may be a format string: fmt % (a > b)).
var arithOps = map[syntax.Token]bool{
	syntax.PLUS: true, syntax.MINUS: true, syntax.STAR: true, syntax.SLASH: true,
	syntax.SLASHSLASH: true,
}

// boolMethods are the str methods that return a bool.
var boolMethods = map[string]bool{
	"startswith": true, "endswith": true, "isdigit": true, "isalpha": true, "isalnum": true,
	"isspace": true, "isupper": true, "islower": true, "istitle": true, "isnumeric": true,
	"isdecimal": true, "isidentifier": true, "isprintable": true, "isascii": true,
}

// maybeBool reports whether e is syntactically a bool (a comparison, not,
// True/False, a predicate call): Starlark's bools are not ints, so such an
// operand of arithmetic is wrapped in _rlm_num (bool -> int).
func maybeBool(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return maybeBool(e.X)
	case *syntax.BinaryExpr:
		switch e.Op {
		case syntax.EQL, syntax.NEQ, syntax.LT, syntax.GT, syntax.LE, syntax.GE, syntax.IN, syntax.NOT_IN:
			return true
		case syntax.AND, syntax.OR:
			return maybeBool(e.X) && maybeBool(e.Y)
		}
	case *syntax.UnaryExpr:
		return e.Op == syntax.NOT
	case *syntax.Ident:
		return e.Name == "True" || e.Name == "False"
	case *syntax.CallExpr:
		switch fn := e.Fn.(type) {
		case *syntax.Ident:
			switch fn.Name {
			case "bool", "isinstance", "callable", "hasattr", "any", "all":
				return true
			}
		case *syntax.DotExpr:
			return boolMethods[fn.Name.Name]
		}
	}
	return false
}

func expr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *syntax.BinaryExpr:
		e.X = expr(e.X)
		e.Y = expr(e.Y)
		if arithOps[e.Op] {
			// Python's bools are ints: count += x > 0, 2 * (a == b)
			if maybeBool(e.X) {
				e.X = call("_rlm_num", e.OpPos, e.X)
			}
			if maybeBool(e.Y) {
				e.Y = call("_rlm_num", e.OpPos, e.Y)
			}
		}
		if e.Op == syntax.STAR && !(isNumLit(e.X) && isNumLit(e.Y)) {
			return call("_rlm_mul", e.OpPos, e.X, e.Y)
		}
		if l, ok := e.X.(*syntax.Literal); ok && e.Op == syntax.PERCENT && l.Token == syntax.STRING {
			return call("_rlm_percent", e.OpPos, e.X, e.Y)
		}
	case *syntax.CallExpr:
		e.Args = exprs(e.Args)
		if d, ok := e.Fn.(*syntax.DotExpr); ok && methods[d.Name.Name] {
			d.X = expr(d.X)
			args := append([]syntax.Expr{d.X}, e.Args...)
			return &syntax.CallExpr{Fn: ident("_rlm_m_"+d.Name.Name, d.NamePos), Lparen: e.Lparen, Args: args, Rparen: e.Rparen}
		}
		e.Fn = expr(e.Fn)
	case *syntax.Comprehension:
		e.Body = expr(e.Body)
		for _, cl := range e.Clauses {
			switch cl := cl.(type) {
			case *syntax.ForClause:
				cl.X = call("_rlm_iter", cl.For, expr(cl.X))
			case *syntax.IfClause:
				cl.Cond = expr(cl.Cond)
			}
		}
	case *syntax.CondExpr:
		e.Cond = expr(e.Cond)
		e.True = expr(e.True)
		e.False = expr(e.False)
	case *syntax.DictEntry:
		e.Key = expr(e.Key)
		e.Value = expr(e.Value)
	case *syntax.DictExpr:
		e.List = exprs(e.List)
	case *syntax.DotExpr:
		e.X = expr(e.X)
		if methods[e.Name.Name] {
			// x.join taken as a value: a bound method that is checked too.
			return call("_rlm_bound", e.Dot, e.X, &syntax.Literal{Token: syntax.STRING, TokenPos: e.NamePos, Raw: "\"" + e.Name.Name + "\"", Value: e.Name.Name})
		}
	case *syntax.IndexExpr:
		e.X = expr(e.X)
		e.Y = expr(e.Y)
	case *syntax.LambdaExpr:
		e.Params = exprs(e.Params)
		e.Body = &syntax.BinaryExpr{X: call("_rlm_enter", e.Lambda), OpPos: e.Lambda, Op: syntax.OR, Y: expr(e.Body)}
	case *syntax.ListExpr:
		e.List = exprs(e.List)
	case *syntax.ParenExpr:
		e.X = expr(e.X)
	case *syntax.SliceExpr:
		e.X = expr(e.X)
		e.Lo = expr(e.Lo)
		e.Hi = expr(e.Hi)
		e.Step = expr(e.Step)
		if e.Step != nil {
			// s[::-1] by characters: _rlm_slice[s][::-1] (an index, cheaper
			// than a call)
			e.X = &syntax.IndexExpr{X: ident("_rlm_slice", e.Lbrack), Lbrack: e.Lbrack, Y: e.X, Rbrack: e.Lbrack}
		}
	case *syntax.TupleExpr:
		e.List = exprs(e.List)
	case *syntax.UnaryExpr:
		e.X = expr(e.X)
		if (e.Op == syntax.MINUS || e.Op == syntax.PLUS || e.Op == syntax.TILDE) && maybeBool(e.X) {
			e.X = call("_rlm_num", e.OpPos, e.X)
		}
	}
	return e
}
