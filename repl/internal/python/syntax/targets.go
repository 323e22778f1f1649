package syntax

// Kinds of targets, as CPython's TARGETS_TYPE.
type targetKind uint8

const (
	targetStore targetKind = iota
	targetDel
	targetFor
)

// setCtx gives a target and its nested targets context ctx.
func setCtx(e Expr, ctx Ctx) {
	switch x := e.(type) {
	case *Name:
		x.Ctx = ctx
	case *Attribute:
		x.Ctx = ctx
	case *Subscript:
		x.Ctx = ctx
	case *Starred:
		x.Ctx = ctx
		setCtx(x.Value, ctx)
	case *List:
		x.Ctx = ctx
		for _, el := range x.Elts {
			setCtx(el, ctx)
		}
	case *Tuple:
		x.Ctx = ctx
		for _, el := range x.Elts {
			setCtx(el, ctx)
		}
	}
}

// validTarget reports whether e, parsed as an expression, is a valid
// assignment target (CPython's star_targets).
func validTarget(e Expr) bool {
	switch x := e.(type) {
	case *Name, *Attribute, *Subscript:
		return true
	case *Starred:
		if _, ok := x.Value.(*Starred); ok {
			return false
		}
		return validTarget(x.Value)
	case *List:
		for _, el := range x.Elts {
			if !validTarget(el) {
				return false
			}
		}
		return true
	case *Tuple:
		for _, el := range x.Elts {
			if !validTarget(el) {
				return false
			}
		}
		return true
	}
	return false
}

// invalidTarget finds the part of e that cannot be a target of the given
// kind, as CPython's _PyPegen_get_invalid_target; nil if none.
func invalidTarget(e Expr, kind targetKind) Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *List:
		for _, el := range x.Elts {
			if c := invalidTarget(el, kind); c != nil {
				return c
			}
		}
		return nil
	case *Tuple:
		for _, el := range x.Elts {
			if c := invalidTarget(el, kind); c != nil {
				return c
			}
		}
		return nil
	case *Starred:
		if kind == targetDel {
			return e
		}
		return invalidTarget(x.Value, kind)
	case *Compare:
		if kind == targetFor {
			if x.Ops[0] == In {
				return invalidTarget(x.Left, kind)
			}
			return nil
		}
		return e
	case *Name, *Subscript, *Attribute:
		return nil
	}
	return e
}

// exprName names an expression's kind in error messages, as CPython's
// _PyPegen_get_expr_name.
func exprName(e Expr) string {
	switch x := e.(type) {
	case *Attribute:
		return "attribute"
	case *Subscript:
		return "subscript"
	case *Starred:
		return "starred"
	case *Name:
		return "name"
	case *List:
		return "list"
	case *Tuple:
		return "tuple"
	case *Lambda:
		return "lambda"
	case *Call:
		return "function call"
	case *BoolOp, *BinOp, *UnaryOp:
		return "expression"
	case *GeneratorExp:
		return "generator expression"
	case *Yield, *YieldFrom:
		return "yield expression"
	case *Await:
		return "await expression"
	case *ListComp:
		return "list comprehension"
	case *SetComp:
		return "set comprehension"
	case *DictComp:
		return "dict comprehension"
	case *Dict:
		return "dict literal"
	case *Set:
		return "set display"
	case *JoinedStr, *FormattedValue:
		return "f-string expression"
	case *Constant:
		switch x.Value.(type) {
		case NoneType:
			return "None"
		case bool:
			if x.Value.(bool) {
				return "True"
			}
			return "False"
		case EllipsisType:
			return "ellipsis"
		}
		return "literal"
	case *Compare:
		return "comparison"
	case *IfExp:
		return "conditional expression"
	case *NamedExpr:
		return "named expression"
	}
	return "expression"
}

// startsTarget reports whether a token of kind k can begin a target.
func startsTarget(k tokKind) bool {
	return k == tStar || startsExpr(k)
}

// starTargets parses CPython's star_targets: targets separated by
// commas (a tuple if there is a comma).
func (p *parser) starTargets() Expr {
	start := p.tok()
	first := p.starTarget()
	if p.kind() != tComma {
		return first
	}
	elts := []Expr{first}
	for p.accept(tComma) {
		if !startsTarget(p.kind()) {
			break
		}
		elts = append(elts, p.starTarget())
	}
	return &Tuple{Pos: p.span(start), Elts: elts, Ctx: Store}
}

// starTarget parses one target, maybe starred.
func (p *parser) starTarget() Expr {
	if p.kind() == tStar {
		start := p.next()
		if p.kind() == tStar {
			p.fail()
		}
		p.enter()
		v := p.starTarget()
		p.leave()
		return &Starred{Pos: p.span(start), Value: v, Ctx: Store}
	}
	e := p.primary()
	if !validTarget(e) {
		p.fail()
	}
	return e
}

// forTargets parses the targets of a for statement or comprehension,
// which must be followed by 'in'; on failure it reports CPython's
// invalid_for_target error.
func (p *parser) forTargets() Expr {
	save := p.p
	var t Expr
	if p.speculate(func() { t = p.starTargets() }) && p.kind() == kIn {
		setCtx(t, Store)
		return t
	}
	if p.invalid {
		// CPython's invalid_for_target.
		p.p = save
		var e Expr
		if p.speculate(func() { e = p.starExpressions() }) {
			if inv := invalidTarget(e, targetFor); inv != nil {
				p.raiseNode(inv, "cannot assign to "+exprName(inv))
			}
		}
	}
	p.fail()
	return nil
}

// params parses a parameter list up to ')' (or ':' for a lambda).
func (p *parser) params(lambda bool) *Arguments {
	end := tRpar
	if lambda {
		end = tColon
	}
	a := &Arguments{}
	var pos []*Arg
	var defaults []Expr
	const (
		positional = iota
		keywordOnly
		afterKwarg
	)
	state := positional
	sawSlash, sawDefault := false, false
	for p.kind() != end {
		t := p.tok()
		switch t.kind {
		case tSlash:
			if state == afterKwarg {
				p.raiseAt(t, "arguments cannot follow var-keyword argument")
			}
			if len(pos) == 0 && !sawSlash && state == positional {
				p.raiseAt(t, "at least one argument must precede /")
			}
			if sawSlash {
				p.raiseAt(t, "/ may appear only once")
			}
			if state == keywordOnly {
				p.raiseAt(t, "/ must be ahead of *")
			}
			p.next()
			sawSlash = true
			a.PosOnlyArgs = pos
			pos = nil
		case tStar:
			if state == afterKwarg {
				p.raiseAt(t, "arguments cannot follow var-keyword argument")
			}
			if state == keywordOnly {
				p.raiseAt(t, "* argument may appear only once")
			}
			p.next()
			state = keywordOnly
			if p.kind() == tComma {
				if k := p.peekKind(1); k == end || k == tDoubleStar {
					if lambda {
						p.peek(1)
						p.raiseLast("named arguments must follow bare *")
					}
					p.raiseAt(t, "named arguments must follow bare *")
				}
				break
			}
			if p.kind() == end {
				if lambda {
					p.raiseLast("named arguments must follow bare *")
				}
				p.raiseAt(t, "named arguments must follow bare *")
			}
			a.Vararg = p.param(lambda, true)
			if p.kind() == tEqual {
				p.raiseAt(p.tok(), "var-positional argument cannot have default value")
			}
		case tDoubleStar:
			if state == afterKwarg {
				p.raiseAt(t, "arguments cannot follow var-keyword argument")
			}
			p.next()
			a.Kwarg = p.param(lambda, false)
			if p.kind() == tEqual {
				p.raiseAt(p.tok(), "var-keyword argument cannot have default value")
			}
			state = afterKwarg
		case tName:
			arg := p.param(lambda, false)
			if state == afterKwarg {
				p.raiseNode(arg, "arguments cannot follow var-keyword argument")
			}
			var d Expr
			if p.kind() == tEqual {
				eq := p.next()
				if k := p.kind(); k == tComma || k == tRpar {
					p.raiseAt(eq, "expected default value expression")
				}
				d = p.expression()
			}
			if state == positional {
				if d != nil {
					sawDefault = true
					defaults = append(defaults, d)
				} else if sawDefault {
					p.raiseNode(arg, "parameter without a default follows parameter with a default")
				}
				pos = append(pos, arg)
			} else {
				a.KwOnlyArgs = append(a.KwOnlyArgs, arg)
				a.KwDefaults = append(a.KwDefaults, d)
			}
		case tLpar:
			if p.invalid {
				p.parenthesizedParams(t, lambda)
			}
			p.fail()
		default:
			p.fail()
		}
		if p.kind() == end {
			break
		}
		if !p.accept(tComma) {
			if p.kind() == tSlash && state == positional && !sawSlash && sawDefault {
				break
			}
			if p.kind() == tStar && sawSlash {
				p.raiseAt(p.tok(), "expected comma between / and *")
			}
			p.fail()
		}
	}
	a.Args = pos
	a.Defaults = defaults
	return a
}

// param parses NAME [':' annotation] (star: the annotation may be
// starred, for *args: *Ts).
func (p *parser) param(lambda, star bool) *Arg {
	n := p.expect(tName)
	arg := &Arg{Arg: p.name(n)}
	if !lambda && p.accept(tColon) {
		if star && p.kind() == tStar {
			st := p.next()
			v := p.expression()
			arg.Annotation = &Starred{Pos: p.span(st), Value: v, Ctx: Load}
		} else {
			arg.Annotation = p.expression()
		}
	}
	arg.Pos = p.span(n)
	return arg
}

// parenthesizedParams raises CPython's error for def f((a, b)).
func (p *parser) parenthesizedParams(lpar *token, lambda bool) {
	save := p.p
	p.next()
	ok := false
	for p.kind() == tName {
		p.param(lambda, false)
		ok = true
		if !p.accept(tComma) {
			break
		}
	}
	if ok && p.kind() == tRpar {
		rpar := p.tok()
		msg := "Function parameters cannot be parenthesized"
		if lambda {
			msg = "Lambda expression parameters cannot be parenthesized"
		}
		p.raiseRange(tokPos(lpar), tokPos(rpar), msg)
	}
	p.p = save
	p.fail()
}
