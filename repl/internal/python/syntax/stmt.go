package syntax

// file parses a whole module.
func (p *parser) file() *Module {
	m := &Module{}
	for p.kind() != tEnd {
		m.Body = p.statement(m.Body)
	}
	return m
}

// evalInput parses eval()'s input: expressions, then newlines, then the
// end.
func (p *parser) evalInput() Expr {
	e := p.evalExpressions()
	for p.kind() == tNewline {
		p.next()
	}
	if p.kind() != tEnd {
		p.fail()
	}
	return e
}

// evalExpressions is CPython's expressions rule: expression (','
// expression)* [','].
func (p *parser) evalExpressions() Expr {
	start := p.tok()
	e := p.expression()
	if p.kind() != tComma {
		return e
	}
	elts := []Expr{e}
	for p.accept(tComma) {
		if !startsExpr(p.kind()) {
			break
		}
		elts = append(elts, p.expression())
	}
	return &Tuple{Pos: p.span(start), Elts: elts, Ctx: Load}
}

// statement parses one statement (a compound one, or a line of simple
// ones) and appends it to body.
func (p *parser) statement(body []Stmt) []Stmt {
	t := p.tok()
	switch t.kind {
	case kDef, tAt, kClass, kIf, kWith, kFor, kTry, kWhile:
		return append(body, p.compound())
	case kAsync:
		if k := p.peekKind(1); k == kDef || k == kWith || k == kFor {
			return append(body, p.compound())
		}
	case tName:
		if p.isName(t, "match") {
			if s := p.matchStmt(); s != nil {
				return append(body, s)
			}
		}
	case tIndent:
		p.fail()
	}
	return p.simpleStmts(body)
}

func (p *parser) compound() Stmt {
	p.enter()
	defer p.leave()
	t := p.tok()
	switch t.kind {
	case tAt:
		return p.decorated()
	case kDef:
		return p.funcDef(nil, false, t)
	case kClass:
		return p.classDef(nil, t)
	case kIf:
		return p.ifStmt()
	case kWith:
		return p.withStmt(false, t)
	case kFor:
		return p.forStmt(false, t)
	case kTry:
		return p.tryStmt()
	case kWhile:
		return p.whileStmt()
	case kAsync:
		p.next()
		switch p.kind() {
		case kDef:
			return p.funcDef(nil, true, t)
		case kWith:
			return p.withStmt(true, t)
		case kFor:
			return p.forStmt(true, t)
		}
	}
	p.fail()
	return nil
}

// simpleStmts parses simple statements separated by ';' up to a newline.
func (p *parser) simpleStmts(body []Stmt) []Stmt {
	for {
		body = append(body, p.simpleStmt())
		if p.kind() == tNewline {
			p.next()
			return body
		}
		if !p.accept(tSemi) {
			p.fail()
		}
		if p.kind() == tNewline {
			p.next()
			return body
		}
	}
}

func (p *parser) simpleStmt() Stmt {
	t := p.tok()
	switch t.kind {
	case kPass:
		p.next()
		return &Pass{Pos: tokPos(t)}
	case kBreak:
		p.next()
		return &Break{Pos: tokPos(t)}
	case kContinue:
		p.next()
		return &Continue{Pos: tokPos(t)}
	case kReturn:
		p.next()
		var v Expr
		if k := p.kind(); k == tStar || startsExpr(k) {
			v = p.starExpressions()
		}
		return &Return{Pos: p.span(t), Value: v}
	case kImport:
		return p.importName()
	case kFrom:
		return p.importFrom()
	case kRaise:
		p.next()
		s := &Raise{}
		if startsExpr(p.kind()) {
			s.Exc = p.expression()
			if p.accept(kFrom) {
				s.Cause = p.expression()
			}
		}
		s.Pos = p.span(t)
		return s
	case kGlobal, kNonlocal:
		p.next()
		var names []string
		for {
			n := p.expect(tName)
			names = append(names, p.name(n))
			if !p.accept(tComma) {
				break
			}
		}
		if t.kind == kGlobal {
			return &Global{Pos: p.span(t), Names: names}
		}
		return &Nonlocal{Pos: p.span(t), Names: names}
	case kDel:
		return p.delStmt()
	case kAssert:
		p.next()
		test := p.expression()
		var msg Expr
		if p.accept(tComma) {
			msg = p.expression()
		}
		return &Assert{Pos: p.span(t), Test: test, Msg: msg}
	case kYield:
		y := p.yieldExpr()
		if p.kind() == tEqual {
			p.raiseNode(y, "assignment to yield expression not possible")
		}
		return &ExprStmt{Pos: y.Position(), Value: y}
	case tName:
		if p.isName(t, "type") && p.peekKind(1) == tName {
			if k := p.peekKind(2); k == tEqual || k == tLsqb {
				return p.typeAlias()
			}
		}
	}
	return p.exprStmt()
}

// exprStmt parses an expression statement or an assignment.
func (p *parser) exprStmt() Stmt {
	t := p.tok()
	if t.kind == tName && p.peekKind(1) == tColon {
		target := &Name{Pos: tokPos(t), ID: p.name(t), Ctx: Store}
		p.next()
		return p.annAssign(t, target, true)
	}
	e := p.starExpressions()
	switch k := p.kind(); k {
	case tEqual:
		targets := []Expr{e}
		var value Expr
		for {
			if x := targets[len(targets)-1]; !validTarget(x) {
				p.badAssignTarget(t, x)
			}
			p.next() // =
			var v Expr
			if p.kind() == kYield {
				v = p.yieldExpr()
			} else {
				v = p.starExpressions()
			}
			if p.kind() != tEqual {
				value = v
				break
			}
			targets = append(targets, v)
		}
		for _, x := range targets {
			setCtx(x, Store)
		}
		return &Assign{Pos: p.span(t), Targets: targets, Value: value}
	case tColon:
		return p.annAssignTarget(t, e)
	default:
		if op, ok := augOp(k); ok {
			if !isSingleTarget(e) {
				p.firstPassFails()
				save := p.p
				p.next()
				if !p.speculate(func() {
					if p.kind() == kYield {
						p.yieldExpr()
					} else {
						p.starExpressions()
					}
				}) {
					p.fail()
				}
				p.p = save
				p.raiseNode(e, "'"+exprName(e)+"' is an illegal expression for augmented assignment")
			}
			p.next()
			var v Expr
			if p.kind() == kYield {
				v = p.yieldExpr()
			} else {
				v = p.starExpressions()
			}
			setCtx(e, Store)
			return &AugAssign{Pos: p.span(t), Target: e, Op: op, Value: v}
		}
		if p.invalid && k != tNewline && k != tSemi {
			// Not an assignment, and the statement fails: CPython's
			// invalid_assignment looks at its elements first.
			p.invalidAssignFirst(t, e)
		}
	}
	s := p.slabs.exprStmt.new()
	*s = ExprStmt{Pos: p.span(t), Value: e}
	return s
}

func augOp(k tokKind) (Operator, bool) {
	switch k {
	case tPlusEqual:
		return Add, true
	case tMinEqual:
		return Sub, true
	case tStarEqual:
		return Mult, true
	case tAtEqual:
		return MatMult, true
	case tSlashEqual:
		return Div, true
	case tPercentEqual:
		return Mod, true
	case tAmperEqual:
		return BitAnd, true
	case tVbarEqual:
		return BitOr, true
	case tCircumflexEqual:
		return BitXor, true
	case tLeftShiftEqual:
		return LShift, true
	case tRightShiftEqual:
		return RShift, true
	case tDoubleStarEqual:
		return Pow, true
	case tDoubleSlashEqual:
		return FloorDiv, true
	}
	return 0, false
}

func isSingleTarget(e Expr) bool {
	switch e.(type) {
	case *Name, *Attribute, *Subscript:
		return true
	}
	return false
}

// annAssignTarget parses an annotated assignment whose target e (begun
// at token t) was parsed as an expression.
func (p *parser) annAssignTarget(t *token, e Expr) Stmt {
	switch e.(type) {
	case *Name:
		// A parenthesized name: (x): int.
		return p.annAssign(t, e, false)
	case *Attribute, *Subscript:
		return p.annAssign(t, e, false)
	}
	// CPython's errors need an expression after the ':'.
	p.firstPassFails()
	save := p.p
	if !p.speculate(func() {
		p.next()
		p.expression()
	}) {
		p.fail()
	}
	p.p = save
	switch x := e.(type) {
	case *Tuple:
		if t.kind != tLpar {
			p.raiseNode(x.Elts[0], "only single target (not tuple) can be annotated")
		}
		p.raiseNode(e, "only single target (not tuple) can be annotated")
	case *List:
		p.raiseNode(e, "only single target (not list) can be annotated")
	}
	p.raiseNode(e, "illegal target for annotation")
	return nil
}

// annAssign parses ': annotation [= value]' after target.
func (p *parser) annAssign(t *token, target Expr, simple bool) Stmt {
	p.next() // :
	ann := p.expression()
	var value Expr
	if p.accept(tEqual) {
		if p.kind() == kYield {
			value = p.yieldExpr()
		} else {
			value = p.starExpressions()
		}
	}
	setCtx(target, Store)
	return &AnnAssign{Pos: p.span(t), Target: target, Annotation: ann, Value: value, Simple: simple}
}

// badAssignTarget raises CPython's errors for the invalid assignment
// target x (its invalid_assignment rule) when '=' follows it, in the
// statement begun at t.
func (p *parser) badAssignTarget(t *token, x Expr) {
	p.firstPassFails()
	// CPython first looks for `x = y` as a mistaken named expression in
	// the statement's first target.
	p.invalidAssignFirst(t, x)
	if inv := invalidTarget(x, targetStore); inv != nil {
		p.raiseNode(inv, "cannot assign to "+exprName(inv))
	}
	switch y := x.(type) {
	case *Yield, *YieldFrom:
		p.raiseNode(y, "assignment to yield expression not possible")
	}
	p.fail()
}

// invalidAssignFirst emulates CPython's look for `target = value` as a
// mistaken named expression in the first target's elements: it parses
// them again as star_named_expressions, whose error rules do the rest.
//
// CPython's rule is star_named_expression ',' star_named_expressions*
// ':' expression: after the first element and a comma, lists of elements
// follow one another, with or without commas between them.
func (p *parser) invalidAssignFirst(t *token, x Expr) {
	save := p.p
	p.p = p.indexOf(t)
	p.speculate(func() {
		p.starNamedExpression()
		p.expect(tComma)
		for {
			if k := p.kind(); k != tStar && !startsExpr(k) {
				break
			}
			at := p.p
			if !p.speculate(func() {
				p.starNamedExpression()
				for p.accept(tComma) {
					if k := p.kind(); k != tStar && !startsExpr(k) {
						break
					}
					p.starNamedExpression()
				}
			}) || p.p == at {
				break
			}
		}
	})
	p.p = save
}

// delStmt parses del targets.
func (p *parser) delStmt() Stmt {
	t := p.next()
	save := p.p
	var targets []Expr
	ok := p.speculate(func() {
		for {
			targets = append(targets, p.delTarget())
			if !p.accept(tComma) {
				break
			}
			if k := p.kind(); k == tSemi || k == tNewline {
				break
			}
		}
	})
	if ok {
		if k := p.kind(); k == tSemi || k == tNewline {
			for _, x := range targets {
				setCtx(x, Del)
			}
			return &Delete{Pos: p.span(t), Targets: targets}
		}
	}
	if p.invalid {
		// CPython's invalid_del_stmt.
		p.p = save
		var e Expr
		if p.speculate(func() { e = p.starExpressions() }) {
			if inv := invalidTarget(e, targetDel); inv != nil {
				p.raiseNode(inv, "cannot delete "+exprName(inv))
			}
		}
	}
	p.fail()
	return nil
}

// delTarget parses one target of del.
func (p *parser) delTarget() Expr {
	e := p.primary()
	if !validDelTarget(e) {
		p.fail()
	}
	return e
}

func validDelTarget(e Expr) bool {
	switch x := e.(type) {
	case *Name, *Attribute, *Subscript:
		return true
	case *Tuple:
		for _, el := range x.Elts {
			if !validDelTarget(el) {
				return false
			}
		}
		return true
	case *List:
		for _, el := range x.Elts {
			if !validDelTarget(el) {
				return false
			}
		}
		return true
	}
	return false
}

// typeAlias parses `type X[...] = value`.
func (p *parser) typeAlias() Stmt {
	t := p.next()
	n := p.next()
	name := &Name{Pos: tokPos(n), ID: p.name(n), Ctx: Store}
	var tps []TypeParam
	if p.kind() == tLsqb {
		tps = p.typeParams()
	}
	p.expect(tEqual)
	v := p.expression()
	return &TypeAlias{Pos: p.span(t), Name: name, TypeParams: tps, Value: v}
}

// typeParams parses '[' type_param, ... ']'.
func (p *parser) typeParams() []TypeParam {
	p.next() // [
	var tps []TypeParam
	for p.kind() != tRsqb {
		t := p.tok()
		switch t.kind {
		case tStar, tDoubleStar:
			p.next()
			n := p.expect(tName)
			kind := "TypeVarTuple"
			if t.kind == tDoubleStar {
				kind = "ParamSpec"
			}
			if p.kind() == tColon {
				colon := p.next()
				e := p.expression()
				what := "bound"
				if _, ok := e.(*Tuple); ok {
					what = "constraints"
				}
				p.actFrom(tokPos(colon), "cannot use "+what+" with "+kind)
			}
			tps = append(tps, TypeParam{Pos: p.span(t), Kind: kind, Name: p.name(n)})
		case tName:
			p.next()
			tp := TypeParam{Kind: "TypeVar", Name: p.name(t)}
			if p.accept(tColon) {
				tp.Bound = p.expression()
			}
			tp.Pos = p.span(t)
			tps = append(tps, tp)
		default:
			p.fail()
		}
		if !p.accept(tComma) {
			break
		}
	}
	if len(tps) == 0 {
		p.fail()
	}
	p.expect(tRsqb)
	return tps
}

// importName parses import a.b as c, ....
func (p *parser) importName() Stmt {
	t := p.next()
	var names []*Alias
	for {
		start := p.tok()
		name := p.dottedName()
		a := &Alias{Name: name}
		if p.accept(kAs) {
			n := p.expect(tName)
			a.Asname = p.name(n)
		}
		a.Pos = p.span(start)
		names = append(names, a)
		if !p.accept(tComma) {
			break
		}
	}
	if p.invalid && p.kind() == kFrom && len(names) == 1 && names[0].Asname == "" {
		save := p.p
		p.next()
		if p.kind() == tName {
			p.dottedName()
			p.raiseFrom(tokPos(t), "Did you mean to use 'from ... import ...' instead?")
		}
		p.p = save
	}
	return &Import{Pos: p.span(t), Names: names}
}

func (p *parser) dottedName() string {
	n := p.expect(tName)
	name := p.name(n)
	for p.kind() == tDot {
		p.next()
		n = p.expect(tName)
		name += "." + p.name(n)
	}
	return name
}

// importFrom parses from ... import ....
func (p *parser) importFrom() Stmt {
	t := p.next()
	level := 0
	for {
		switch p.kind() {
		case tDot:
			level++
			p.next()
			continue
		case tEllipsis:
			level += 3
			p.next()
			continue
		}
		break
	}
	module := ""
	if p.kind() == tName {
		module = p.dottedName()
	} else if level == 0 {
		p.fail()
	}
	p.expect(kImport)
	var names []*Alias
	switch p.kind() {
	case tStar:
		st := p.next()
		names = []*Alias{{Pos: tokPos(st), Name: "*"}}
	case tLpar:
		p.next()
		names = p.importAsNames()
		p.accept(tComma)
		p.expect(tRpar)
	default:
		names = p.importAsNames()
		if p.kind() == tComma {
			p.next()
			if p.kind() == tNewline {
				p.raiseLast("trailing comma not allowed without surrounding parentheses")
			}
			p.fail()
		}
	}
	return &ImportFrom{Pos: p.span(t), Module: module, Names: names, Level: level}
}

func (p *parser) importAsNames() []*Alias {
	var names []*Alias
	for {
		n := p.expect(tName)
		a := &Alias{Name: p.name(n)}
		if p.accept(kAs) {
			as := p.expect(tName)
			a.Asname = p.name(as)
		}
		a.Pos = p.span(n)
		names = append(names, a)
		if p.kind() != tComma || p.peekKind(1) != tName {
			return names
		}
		p.next()
	}
}

// block parses a suite: an indented block or simple statements on the
// same line. what names the statement for CPython's "expected an
// indented block after ..." (kw is its first token).
func (p *parser) block(what string, kw *token) []Stmt {
	if p.kind() == tNewline {
		p.next()
		if p.kind() != tIndent {
			p.raiseIndent(blockMsg(what, kw))
		}
		p.next()
		var body []Stmt
		for p.kind() != tDedent && p.kind() != tEnd {
			body = p.statement(body)
		}
		p.accept(tDedent)
		return body
	}
	return p.simpleStmts(nil)
}

func blockMsg(what string, kw *token) string {
	if what == "" {
		return "expected an indented block"
	}
	return "expected an indented block after " + what + " on line " + itoa(int(kw.line))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// colon expects the ':' ending a compound statement's header; a newline
// there is "expected ':'".
func (p *parser) colon() {
	if p.kind() == tColon {
		p.next()
		return
	}
	if p.kind() == tNewline {
		p.raiseLast("expected ':'")
	}
	p.fail()
}

func (p *parser) ifStmt() Stmt {
	t := p.next()
	test := p.namedExpression()
	p.colon()
	body := p.block("'if' statement", t)
	s := &If{Test: test, Body: body}
	s.Orelse = p.elseOrElif()
	s.Pos = p.span(t)
	return s
}

// elseOrElif parses an if statement's elif and else parts.
func (p *parser) elseOrElif() []Stmt {
	switch p.kind() {
	case kElif:
		t := p.next()
		test := p.namedExpression()
		p.colon()
		body := p.block("'elif' statement", t)
		s := &If{Test: test, Body: body}
		s.Orelse = p.elseOrElif()
		s.Pos = p.span(t)
		return []Stmt{s}
	case kElse:
		return p.elseBlock()
	}
	return nil
}

func (p *parser) elseBlock() []Stmt {
	t := p.next()
	p.expectForced(tColon, ":")
	return p.block("'else' statement", t)
}

func (p *parser) whileStmt() Stmt {
	t := p.next()
	test := p.namedExpression()
	p.colon()
	body := p.block("'while' statement", t)
	s := &While{Test: test, Body: body}
	if p.kind() == kElse {
		s.Orelse = p.elseBlock()
	}
	s.Pos = p.span(t)
	return s
}

func (p *parser) forStmt(isAsync bool, start *token) Stmt {
	forTok := p.next()
	target := p.forTargets()
	p.next() // in
	iter := p.starExpressions()
	p.colon()
	body := p.block("'for' statement", forTok)
	s := &For{Target: target, Iter: iter, Body: body, IsAsync: isAsync}
	if p.kind() == kElse {
		s.Orelse = p.elseBlock()
	}
	s.Pos = p.span(start)
	return s
}

func (p *parser) withStmt(isAsync bool, start *token) Stmt {
	withTok := p.next()
	var items []*WithItem
	parsed := false
	if p.kind() == tLpar {
		// Parenthesized with items, if a ':' follows the ')'.
		save := p.p
		ok := p.speculate(func() {
			p.next()
			for {
				items = append(items, p.withItem())
				if !p.accept(tComma) {
					break
				}
				if p.kind() == tRpar {
					break
				}
			}
			p.expect(tRpar)
			if p.kind() != tColon {
				p.fail()
			}
		})
		if ok {
			parsed = true
		} else {
			items = nil
			p.p = save
		}
	}
	if !parsed {
		for {
			items = append(items, p.withItem())
			if !p.accept(tComma) {
				break
			}
		}
	}
	p.colon()
	body := p.block("'with' statement", withTok)
	return &With{Pos: p.span(start), Items: items, Body: body, IsAsync: isAsync}
}

func (p *parser) withItem() *WithItem {
	e := p.expression()
	w := &WithItem{ContextExpr: e}
	if p.accept(kAs) {
		save := p.p
		var t Expr
		ok := p.speculate(func() { t = p.starTarget() })
		if ok {
			if k := p.kind(); k == tComma || k == tRpar || k == tColon || k == tNewline && p.invalid {
				setCtx(t, Store)
				w.OptionalVars = t
				return w
			}
		}
		if p.invalid {
			// CPython's invalid_with_item.
			p.p = save
			var a Expr
			if p.speculate(func() { a = p.expression() }) {
				if k := p.kind(); k == tComma || k == tRpar || k == tColon {
					if inv := invalidTarget(a, targetStore); inv != nil {
						p.raiseNode(inv, "cannot assign to "+exprName(inv))
					}
				}
			}
		}
		p.fail()
	}
	return w
}

func (p *parser) tryStmt() Stmt {
	t := p.next()
	p.expectForced(tColon, ":")
	body := p.block("'try' statement", t)
	s := &Try{Body: body}
	sawStar, sawPlain := false, false
	for p.kind() == kExcept {
		et := p.next()
		h := &ExceptHandler{}
		star := false
		if p.kind() == tStar {
			p.next()
			star = true
		}
		if star && sawPlain || !star && sawStar {
			p.tryMix(et, star)
		}
		if star {
			sawStar = true
			if k := p.kind(); (k == tNewline || k == tColon) && p.invalid {
				p.raiseLast("expected one or more exception types")
			}
		} else {
			sawPlain = true
		}
		if p.kind() != tColon || star {
			if p.kind() == tNewline {
				p.raiseLast("expected ':'")
			}
			first := p.tok()
			h.Type = p.expression()
			if p.kind() == tComma && p.invalid {
				// except A, B:
				save := p.p
				p.next()
				if p.speculate(func() { p.evalExpressions() }) {
					if p.accept(kAs) {
						p.expect(tName)
					}
					if p.kind() == tColon {
						p.raiseFrom(tokPos(first), "multiple exception types must be parenthesized")
					}
				}
				p.p = save
			}
			if p.accept(kAs) {
				n := p.expect(tName)
				h.Name = p.name(n)
			}
		}
		p.colon()
		what := "'except' statement"
		if star {
			what = "'except*' statement"
		}
		h.Body = p.block(what, et)
		h.Pos = p.span(et)
		s.Handlers = append(s.Handlers, h)
	}
	s.IsStar = sawStar
	if len(s.Handlers) > 0 && p.kind() == kElse {
		s.Orelse = p.elseBlock()
	}
	if p.kind() == kFinally {
		ft := p.next()
		p.expectForced(tColon, ":")
		s.Finalbody = p.block("'finally' statement", ft)
	}
	if len(s.Handlers) == 0 && s.Finalbody == nil {
		p.peek(0)
		p.raiseLast("expected 'except' or 'finally' block")
	}
	s.Pos = p.span(t)
	return s
}

// tryMix raises the error for except and except* on the same try.
func (p *parser) tryMix(et *token, star bool) {
	msg := "cannot have both 'except' and 'except*' on the same 'try'"
	if star {
		p.raiseRange(tokPos(et), tokPos(p.prev()), msg)
	}
	p.raiseAt(et, msg)
}

func (p *parser) decorated() Stmt {
	var decos []Expr
	for p.kind() == tAt {
		p.next()
		decos = append(decos, p.namedExpression())
		if p.kind() != tNewline {
			p.fail()
		}
		p.next()
	}
	t := p.tok()
	switch t.kind {
	case kDef:
		return p.funcDef(decos, false, t)
	case kClass:
		return p.classDef(decos, t)
	case kAsync:
		if p.peekKind(1) == kDef {
			p.next()
			return p.funcDef(decos, true, t)
		}
	}
	p.fail()
	return nil
}

func (p *parser) funcDef(decos []Expr, isAsync bool, start *token) Stmt {
	defTok := p.next()
	n := p.expect(tName)
	f := &FunctionDef{Name: p.name(n), DecoratorList: decos, IsAsync: isAsync}
	if p.kind() == tLsqb {
		// Optional: if they do not parse, '(' is expected there.
		save := p.p
		if !p.speculate(func() { f.TypeParams = p.typeParams() }) {
			p.p, f.TypeParams = save, nil
		}
	}
	p.expectForced(tLpar, "(")
	f.Args = p.params(false)
	p.expect(tRpar)
	if p.kind() == tRarrow {
		save := p.p
		if !p.speculate(func() {
			p.next()
			f.Returns = p.expression()
		}) {
			p.p, f.Returns = save, nil
		}
	}
	p.expectForced(tColon, ":")
	f.Body = p.block("function definition", defTok)
	f.Pos = p.span(start)
	return f
}

func (p *parser) classDef(decos []Expr, start *token) Stmt {
	classTok := p.next()
	n := p.expect(tName)
	c := &ClassDef{Name: p.name(n), DecoratorList: decos}
	if p.kind() == tLsqb {
		c.TypeParams = p.typeParams()
	}
	if p.kind() == tLpar {
		call := p.call(classTok, nil, true).(*Call)
		c.Bases, c.Keywords = call.Args, call.Keywords
	}
	p.colon()
	c.Body = p.block("class definition", classTok)
	c.Pos = p.span(start)
	return c
}
