package syntax

// startsExpr reports whether a token of kind k can begin an expression
// (CPython's expression rule, without a star).
func startsExpr(k tokKind) bool {
	switch k {
	case tName, tNumber, tString, tFStart, tLpar, tLsqb, tLbrace, tMinus, tPlus,
		tTilde, tEllipsis, kNot, kLambda, kAwait, kNone, kTrue, kFalse:
		return true
	}
	return false
}

// speculate runs f and reports whether it parsed; a parser error makes
// it false (with the position restored), a tokenizer error propagates.
func (p *parser) speculate(f func()) (ok bool) {
	save, depth, fdepth, lnest, inv := p.p, p.depth, p.fstringDepth, p.legacyNesting, p.invalid
	defer func() {
		if r := recover(); r != nil {
			b, isB := r.(bailout)
			if !isB || !b.generic {
				panic(r)
			}
			p.p, p.depth, p.fstringDepth, p.legacyNesting, p.invalid = save, depth, fdepth, lnest, inv
			ok = false
		}
	}()
	f()
	return true
}

// try runs f, which parses an optional continuation (an operator and
// its operand, a trailer). In the second pass a failure in it backtracks
// to where it began and try reports false, as CPython's PEG parser
// returns the shorter match; the first pass fails outright (the parse
// fails either way, and only the second pass looks at partial matches).
func (p *parser) try(f func()) bool {
	if !p.second {
		f()
		return true
	}
	save := p.p
	if p.speculate(f) {
		return true
	}
	p.p = save
	return false
}

// starExpressions is star_expressions: a tuple without parentheses when
// there is a comma.
func (p *parser) starExpressions() Expr {
	start := p.tok()
	e := p.starExpression()
	if p.kind() != tComma {
		return e
	}
	elts := []Expr{e}
	for p.accept(tComma) {
		if k := p.kind(); k != tStar && !startsExpr(k) {
			break
		}
		elts = append(elts, p.starExpression())
	}
	return &Tuple{Pos: p.span(start), Elts: elts, Ctx: Load}
}

// starExpression is star_expression: '*' bitwise_or | expression.
func (p *parser) starExpression() Expr {
	if p.kind() == tStar {
		start := p.next()
		v := p.bitwiseOr()
		return &Starred{Pos: p.span(start), Value: v, Ctx: Load}
	}
	return p.expression()
}

// starNamedExpression is star_named_expression.
func (p *parser) starNamedExpression() Expr {
	if p.kind() == tStar {
		start := p.next()
		v := p.bitwiseOr()
		return &Starred{Pos: p.span(start), Value: v, Ctx: Load}
	}
	return p.namedExpression()
}

// namedExpression is named_expression: NAME ':=' expression or an
// expression.
func (p *parser) namedExpression() Expr {
	t := p.tok()
	if t.kind == tName && p.peekKind(1) == tColonEqual {
		return p.assignmentExpression()
	}
	e := p.expression()
	if p.kind() == tEqual && p.invalid {
		p.invalidNamedExpression(t, e)
	}
	if p.kind() == tColonEqual {
		p.raiseNode(e, "cannot use assignment expressions with "+exprName(e))
	}
	return e
}

// assignmentExpression parses NAME ':=' expression.
func (p *parser) assignmentExpression() Expr {
	t := p.next()
	p.next() // :=
	v := p.expression()
	return &NamedExpr{Pos: p.span(t), Target: &Name{Pos: tokPos(t), ID: p.name(t), Ctx: Store}, Value: v}
}

// invalidNamedExpression raises CPython's errors for `x = y` where a
// named expression was expected (e was parsed from token t; '=' is next).
func (p *parser) invalidNamedExpression(t *token, e Expr) {
	if !isBitwiseOrLevel(e) {
		return
	}
	save := p.p
	p.next() // =
	var rhs Expr
	if !p.speculate(func() { rhs = p.bitwiseOr() }) {
		p.p = save
		return
	}
	if k := p.kind(); k == tEqual || k == tColonEqual {
		p.p = save
		return
	}
	if n, ok := e.(*Name); ok && n.Pos.Col == int(t.col) && n.Pos.Line == int(t.line) {
		p.raiseRange(n.Pos, rhs.Position(), "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
	}
	switch t.kind {
	case kTrue, kFalse, kNone:
		p.p = save
		return
	case tLpar, tLsqb:
		// A list, a tuple or a generator expression there is left alone.
		if p.startsTupleOrGenexp(t) {
			p.p = save
			return
		}
	}
	p.raiseNode(e, "cannot assign to "+exprName(e)+" here. Maybe you meant '==' instead of '='?")
}

// startsTupleOrGenexp reports whether the bracketed atom opening at
// token t is a list, a tuple or a generator expression.
func (p *parser) startsTupleOrGenexp(t *token) bool {
	idx := p.indexOf(t)
	save := p.p
	defer func() { p.p = save }()
	p.p = idx
	var e Expr
	if !p.speculate(func() { e = p.atom() }) {
		return false
	}
	switch e.(type) {
	case *Tuple, *GeneratorExp, *List:
		return true
	}
	return false
}

func (p *parser) indexOf(t *token) int {
	for i := p.p; i >= 0; i-- {
		if &p.toks[i] == t {
			return i
		}
	}
	return p.p
}

// isBitwiseOrLevel reports whether e can be what CPython's bitwise_or rule
// parses (so not a comparison, not, and/or, conditional or lambda).
func isBitwiseOrLevel(e Expr) bool {
	switch x := e.(type) {
	case *Compare, *BoolOp, *IfExp, *Lambda:
		return false
	case *UnaryOp:
		return x.Op != Not
	}
	return true
}

// expression is CPython's expression: a conditional expression, a
// disjunction or a lambda.
func (p *parser) expression() Expr {
	p.enter()
	e := p.expression1()
	p.depth--
	return e
}

func (p *parser) expression1() Expr {
	if p.kind() == kLambda {
		return p.lambdef()
	}
	start := p.tok()
	e := p.disjunction()
	if p.kind() == kIf {
		p.next()
		test := p.disjunction()
		if p.kind() != kElse {
			if k := p.kind(); k != tColon {
				p.raiseRange(e.Position(), test.Position(), "expected 'else' after 'if' expression")
			}
			p.fail()
		}
		p.next()
		orelse := p.expression()
		return &IfExp{Pos: p.span(start), Test: test, Body: e, Orelse: orelse}
	}
	if p.invalid && startsExpr(p.kind()) {
		p.invalidExpression(start, e)
	}
	return e
}

// invalidExpression raises CPython's errors for an expression followed
// by the start of another: a forgotten comma inside brackets, or a
// Python 2 print or exec statement.
func (p *parser) invalidExpression(start *token, a Expr) {
	save := p.p
	legacy := false
	if n, ok := a.(*Name); ok && (n.ID == "print" || n.ID == "exec") {
		legacy = true
	}
	// !(NAME STRING | SOFT_KEYWORD)
	skip := false
	if start.kind == tName {
		if k := p.at(p.indexOf(start) + 1).kind; k == tString || k == tFStart {
			skip = true
		}
		if isSoftKeyword(p.text(start)) {
			skip = true
		}
	}
	if !skip && !legacy {
		var b Expr
		if p.speculate(func() { b = p.expressionWithoutInvalid() }) {
			if p.prev().level > 0 {
				p.raiseRange(a.Position(), b.Position(), "invalid syntax. Perhaps you forgot a comma?")
			}
		}
		p.p = save
	}
	// CPython's invalid_legacy_expression parses what follows any name
	// (its own error rules may fire there) before it checks for print
	// and exec.
	// Past maxLegacyNesting such parses within parses (a line of many
	// names) the look is cut short, where CPython's parser overflows its
	// stack.
	if n, ok := a.(*Name); ok && p.kind() != tLpar && !p.legacyDone[save] && p.legacyNesting < maxLegacyNesting {
		if p.legacyDone == nil {
			p.legacyDone = map[int]bool{}
		}
		p.legacyDone[save] = true
		var b Expr
		p.legacyNesting++
		ok := p.speculate(func() { b = p.starExpressions() })
		p.legacyNesting--
		if ok && legacy {
			p.raiseRange(n.Pos, b.Position(), "Missing parentheses in call to '"+n.ID+"'. Did you mean "+n.ID+"(...)?")
		}
		p.p = save
	}
}

// maxLegacyNesting bounds the nesting of the second pass's looks for
// Python 2 print statements.
const maxLegacyNesting = 100

func isSoftKeyword(s string) bool {
	return s == "match" || s == "case" || s == "type" || s == "_"
}

// expressionWithoutInvalid parses an expression without CPython's error
// rules (used while looking for them).
// (It runs as the first pass does.)
func (p *parser) expressionWithoutInvalid() Expr {
	inv := p.invalid
	p.invalid = false
	p.enter()
	var e Expr
	if p.kind() == kLambda {
		e = p.lambdef()
	} else {
		start := p.tok()
		e = p.disjunction()
		if p.kind() == kIf {
			// The conditional form, or else just the disjunction.
			save := p.p
			var ife Expr
			if p.speculate(func() {
				p.next()
				test := p.disjunction()
				p.expect(kElse)
				orelse := p.expression()
				ife = &IfExp{Pos: p.span(start), Test: test, Body: e, Orelse: orelse}
			}) {
				e = ife
			} else {
				p.p = save
			}
		}
	}
	p.leave()
	p.invalid = inv
	return e
}

func (p *parser) disjunction() Expr {
	start := p.tok()
	e := p.conjunction()
	if p.kind() != kOr {
		return e
	}
	vals := []Expr{e}
	for p.kind() == kOr {
		var v Expr
		if !p.try(func() {
			p.next()
			v = p.conjunction()
		}) {
			break
		}
		vals = append(vals, v)
	}
	if len(vals) == 1 {
		return e
	}
	return &BoolOp{Pos: p.span(start), Op: Or, Values: vals}
}

func (p *parser) conjunction() Expr {
	start := p.tok()
	e := p.inversion()
	if p.kind() != kAnd {
		return e
	}
	vals := []Expr{e}
	for p.kind() == kAnd {
		var v Expr
		if !p.try(func() {
			p.next()
			v = p.inversion()
		}) {
			break
		}
		vals = append(vals, v)
	}
	if len(vals) == 1 {
		return e
	}
	return &BoolOp{Pos: p.span(start), Op: And, Values: vals}
}

func (p *parser) inversion() Expr {
	if p.kind() == kNot {
		start := p.next()
		p.enter()
		v := p.inversion()
		p.leave()
		return &UnaryOp{Pos: p.span(start), Op: Not, Operand: v}
	}
	return p.comparison()
}

func (p *parser) comparison() Expr {
	start := p.tok()
	e := p.bitwiseOr()
	var ops []CmpOp
	var comps []Expr
	for {
		var op CmpOp
		switch p.kind() {
		case tEqEqual:
			op = Eq
		case tNotEqual:
			op = NotEq
		case tLess:
			op = Lt
		case tLessEqual:
			op = LtE
		case tGreater:
			op = Gt
		case tGreaterEqual:
			op = GtE
		case kIn:
			op = In
		case kNot:
			if p.peekKind(1) != kIn {
				goto done
			}
			op = NotIn
		case kIs:
			if p.peekKind(1) == kNot {
				op = IsNot
			} else {
				op = Is
			}
		default:
			goto done
		}
		{
			save := p.p
			var r Expr
			if !p.try(func() {
				if op == NotIn || op == IsNot {
					p.next()
				}
				p.next()
				r = p.bitwiseOr()
			}) {
				p.p = save
				goto done
			}
			ops = append(ops, op)
			comps = append(comps, r)
		}
	}
done:
	if ops == nil {
		return e
	}
	return &Compare{Pos: p.span(start), Left: e, Ops: ops, Comparators: comps}
}

// binary parses a left-associative chain of operators of one level.
func (p *parser) bitwiseOr() Expr {
	start := p.tok()
	e := p.bitwiseXor()
	for p.kind() == tVbar {
		var r Expr
		if !p.second {
			p.next()
			r = p.bitwiseXor()
		} else if !p.try(func() {
			p.next()
			r = p.bitwiseXor()
		}) {
			return e
		}
		b := p.slabs.binop.new()
		*b = BinOp{Pos: p.span(start), Left: e, Op: BitOr, Right: r}
		e = b
	}
	return e
}

func (p *parser) bitwiseXor() Expr {
	start := p.tok()
	e := p.bitwiseAnd()
	for p.kind() == tCircumflex {
		var r Expr
		if !p.second {
			p.next()
			r = p.bitwiseAnd()
		} else if !p.try(func() {
			p.next()
			r = p.bitwiseAnd()
		}) {
			return e
		}
		b := p.slabs.binop.new()
		*b = BinOp{Pos: p.span(start), Left: e, Op: BitXor, Right: r}
		e = b
	}
	return e
}

func (p *parser) bitwiseAnd() Expr {
	start := p.tok()
	e := p.shiftExpr()
	for p.kind() == tAmper {
		var r Expr
		if !p.second {
			p.next()
			r = p.shiftExpr()
		} else if !p.try(func() {
			p.next()
			r = p.shiftExpr()
		}) {
			return e
		}
		b := p.slabs.binop.new()
		*b = BinOp{Pos: p.span(start), Left: e, Op: BitAnd, Right: r}
		e = b
	}
	return e
}

func (p *parser) shiftExpr() Expr {
	start := p.tok()
	e := p.sum()
	for {
		var op Operator
		switch p.kind() {
		case tLeftShift:
			op = LShift
		case tRightShift:
			op = RShift
		default:
			return e
		}
		var r Expr
		if !p.second {
			p.next()
			r = p.sum()
		} else if !p.try(func() {
			p.next()
			r = p.sum()
		}) {
			return e
		}
		b := p.slabs.binop.new()
		*b = BinOp{Pos: p.span(start), Left: e, Op: op, Right: r}
		e = b
	}
}

func (p *parser) sum() Expr {
	start := p.tok()
	e := p.term()
	for {
		var op Operator
		switch p.kind() {
		case tPlus:
			op = Add
		case tMinus:
			op = Sub
		default:
			return e
		}
		var r Expr
		if !p.second {
			p.next()
			r = p.term()
		} else if !p.try(func() {
			p.next()
			r = p.term()
		}) {
			return e
		}
		b := p.slabs.binop.new()
		*b = BinOp{Pos: p.span(start), Left: e, Op: op, Right: r}
		e = b
	}
}

func (p *parser) term() Expr {
	start := p.tok()
	e := p.factor()
	for {
		var op Operator
		switch p.kind() {
		case tStar:
			op = Mult
		case tSlash:
			op = Div
		case tDoubleSlash:
			op = FloorDiv
		case tPercent:
			op = Mod
		case tAt:
			op = MatMult
		default:
			return e
		}
		var r Expr
		if !p.second {
			p.next()
			r = p.factor()
		} else if !p.try(func() {
			p.next()
			r = p.factor()
		}) {
			return e
		}
		b := p.slabs.binop.new()
		*b = BinOp{Pos: p.span(start), Left: e, Op: op, Right: r}
		e = b
	}
}

func (p *parser) factor() Expr {
	var op UnaryOperator
	switch p.kind() {
	case tPlus:
		op = UAdd
	case tMinus:
		op = USub
	case tTilde:
		op = Invert
	default:
		return p.power()
	}
	start := p.next()
	p.enter()
	v := p.factor()
	p.leave()
	return &UnaryOp{Pos: p.span(start), Op: op, Operand: v}
}

func (p *parser) power() Expr {
	start := p.tok()
	e := p.awaitPrimary()
	if p.kind() == tDoubleStar {
		var r Expr
		if !p.try(func() {
			p.next()
			p.enter()
			r = p.factor()
			p.leave()
		}) {
			return e
		}
		return &BinOp{Pos: p.span(start), Left: e, Op: Pow, Right: r}
	}
	return e
}

func (p *parser) awaitPrimary() Expr {
	if p.kind() == kAwait {
		start := p.next()
		v := p.primary()
		return &Await{Pos: p.span(start), Value: v}
	}
	return p.primary()
}

// primary is an atom followed by attribute references, calls and
// subscriptions.
func (p *parser) primary() Expr {
	start := p.tok()
	e := p.atom()
	return p.trailers(start, e)
}

func (p *parser) trailers(start *token, e Expr) Expr {
	if !p.second {
		// The first pass has no use for partial matches.
		for {
			switch p.kind() {
			case tDot:
				p.next()
				n := p.expect(tName)
				a := p.slabs.attr.new()
				*a = Attribute{Pos: p.span(start), Value: e, Attr: p.name(n), Ctx: Load}
				e = a
			case tLpar:
				e = p.call(start, e, false)
			case tLsqb:
				p.next()
				s := p.slices()
				p.expect(tRsqb)
				e = &Subscript{Pos: p.span(start), Value: e, Slice: s, Ctx: Load}
			default:
				return e
			}
		}
	}
	for {
		var next Expr
		var f func()
		switch p.kind() {
		case tDot:
			f = func() {
				p.next()
				n := p.expect(tName)
				next = &Attribute{Pos: p.span(start), Value: e, Attr: p.name(n), Ctx: Load}
			}
		case tLpar:
			f = func() { next = p.call(start, e, false) }
		case tLsqb:
			f = func() {
				p.next()
				s := p.slices()
				p.expect(tRsqb)
				next = &Subscript{Pos: p.span(start), Value: e, Slice: s, Ctx: Load}
			}
		default:
			return e
		}
		if !p.try(f) {
			return e
		}
		e = next
	}
}

// slices is the inside of a subscription.
func (p *parser) slices() Expr {
	start := p.tok()
	first := p.sliceOrStarred()
	if p.kind() != tComma {
		if _, ok := first.(*Starred); ok {
			// `a[*b]` is a tuple of one starred element.
			return &Tuple{Pos: p.span(start), Elts: []Expr{first}, Ctx: Load}
		}
		return first
	}
	elts := []Expr{first}
	for p.accept(tComma) {
		if k := p.kind(); k != tColon && k != tStar && !startsExpr(k) {
			break
		}
		elts = append(elts, p.sliceOrStarred())
	}
	return &Tuple{Pos: p.span(start), Elts: elts, Ctx: Load}
}

func (p *parser) sliceOrStarred() Expr {
	if p.kind() == tStar {
		start := p.next()
		v := p.expression()
		return &Starred{Pos: p.span(start), Value: v, Ctx: Load}
	}
	return p.slice()
}

// slice is [lower] ':' [upper] [':' [step]] or a named expression.
func (p *parser) slice() Expr {
	start := p.tok()
	var lower Expr
	if p.kind() != tColon {
		if p.kind() == tName && p.peekKind(1) == tColonEqual {
			return p.assignmentExpression()
		}
		lower = p.expression()
		if p.kind() != tColon {
			if p.kind() == tEqual && p.invalid {
				p.invalidNamedExpression(start, lower)
			}
			if p.kind() == tColonEqual {
				p.raiseNode(lower, "cannot use assignment expressions with "+exprName(lower))
			}
			return lower
		}
	}
	p.next() // :
	var upper, step Expr
	if startsExpr(p.kind()) {
		upper = p.expression()
	}
	if p.accept(tColon) {
		if startsExpr(p.kind()) {
			step = p.expression()
		}
	}
	return &Slice{Pos: p.span(start), Lower: lower, Upper: upper, Step: step}
}

// call parses a call's arguments; func e began at token start.
func (p *parser) call(start *token, fn Expr, class bool) Expr {
	lpar := p.next()
	var args []Expr
	var kws []*Keyword
	sawKeyword, sawDoubleStar := false, false
	for p.kind() != tRpar {
		t := p.tok()
		switch {
		case t.kind == tStar:
			p.next()
			v := p.expression()
			if p.kind() == tEqual && p.invalid {
				p.next()
				b := p.expression()
				p.raiseRange(tokPos(t), b.Position(), "cannot assign to iterable argument unpacking")
			}
			st := &Starred{Pos: p.span(t), Value: v, Ctx: Load}
			if sawDoubleStar {
				p.raiseAt(t, "iterable argument unpacking follows keyword argument unpacking")
			}
			if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
				p.raiseNode(st, "iterable unpacking cannot be used in comprehension")
			}
			args = append(args, st)
		case t.kind == tDoubleStar:
			p.next()
			v := p.expression()
			if p.kind() == tEqual && p.invalid {
				p.next()
				b := p.expression()
				p.raiseRange(tokPos(t), b.Position(), "cannot assign to keyword argument unpacking")
			}
			kws = append(kws, &Keyword{Pos: p.span(t), Value: v})
			sawDoubleStar = true
		case t.kind == tName && p.peekKind(1) == tEqual:
			p.next()
			eq := p.next()
			if k := p.kind(); k == tComma || k == tRpar {
				p.raiseRange(tokPos(t), tokPos(eq), "expected argument value expression")
			}
			v := p.expression()
			if k := p.kind(); k == kFor || k == kAsync {
				p.raiseRange(tokPos(t), tokPos(eq), "invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
			}
			kws = append(kws, &Keyword{Pos: p.span(t), Arg: p.name(t), Value: v})
			sawKeyword = true
		case (t.kind == kTrue || t.kind == kFalse || t.kind == kNone) && p.peekKind(1) == tEqual:
			p.raiseRange(tokPos(t), tokPos(p.peek(1)), "cannot assign to "+p.text(t))
		default:
			var e Expr
			walrus := false
			if t.kind == tName && p.peekKind(1) == tColonEqual {
				e = p.assignmentExpression()
				walrus = true
			} else {
				e = p.expression()
				if p.kind() == tColonEqual {
					p.raiseNode(e, "cannot use assignment expressions with "+exprName(e))
				}
			}
			if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
				if class {
					p.fail()
				}
				gens := p.forIfClauses()
				if len(args) == 0 && len(kws) == 0 && p.kind() == tRpar {
					p.next()
					g := &GeneratorExp{Pos: p.span(lpar), Elt: e, Generators: gens}
					return &Call{Pos: p.span(start), Func: fn, Args: []Expr{g}}
				}
				p.raiseRange(e.Position(), lastComprehensionItem(gens).Position(), "Generator expression must be parenthesized")
			}
			if p.kind() == tEqual && !walrus {
				eq := p.tok()
				p.raiseRange(e.Position(), tokPos(eq), "expression cannot contain assignment, perhaps you meant \"==\"?")
			}
			if sawKeyword || sawDoubleStar {
				p.peek(0)
				if sawDoubleStar {
					p.raiseLast("positional argument follows keyword argument unpacking")
				}
				p.raiseLast("positional argument follows keyword argument")
			}
			args = append(args, e)
		}
		if !p.accept(tComma) {
			break
		}
	}
	if p.kind() != tRpar {
		p.fail()
	}
	p.next()
	c := p.slabs.call.new()
	*c = Call{Pos: p.span(start), Func: fn, Args: args, Keywords: kws}
	return c
}

func lastComprehensionItem(gens []*Comprehension) Expr {
	g := gens[len(gens)-1]
	if len(g.Ifs) > 0 {
		return g.Ifs[len(g.Ifs)-1]
	}
	return g.Iter
}

// forIfClauses parses one or more comprehension clauses.
func (p *parser) forIfClauses() []*Comprehension {
	var gens []*Comprehension
	for {
		isAsync := false
		k := p.kind()
		if k == kAsync && p.peekKind(1) == kFor {
			p.next()
			isAsync = true
		} else if k != kFor {
			return gens
		}
		p.next() // for
		target := p.forTargets()
		p.next() // in
		iter := p.disjunction()
		c := &Comprehension{Target: target, Iter: iter, IsAsync: isAsync}
		for p.kind() == kIf {
			p.next()
			c.Ifs = append(c.Ifs, p.disjunction())
		}
		gens = append(gens, c)
	}
}

// lambdef parses a lambda expression.
func (p *parser) lambdef() Expr {
	start := p.next()
	var args *Arguments
	if p.kind() == tColon {
		args = &Arguments{}
	} else {
		args = p.params(true)
	}
	colon := p.tok()
	if colon.kind != tColon {
		p.fail()
	}
	p.next()
	if p.fstringDepth > 0 {
		if k := p.kind(); k == tFMiddle || k == tLbrace || k == tRbrace {
			// In an f-string the ':' began a format spec.
			p.raiseRange(tokPos(start), tokPos(colon), "f-string: lambda expressions are not allowed without parentheses")
		}
	}
	body := p.expression()
	return &Lambda{Pos: p.span(start), Args: args, Body: body}
}

// yieldExpr parses yield [from] ....
func (p *parser) yieldExpr() Expr {
	start := p.next()
	if p.accept(kFrom) {
		v := p.expression()
		return &YieldFrom{Pos: p.span(start), Value: v}
	}
	if k := p.kind(); k == tStar || startsExpr(k) {
		v := p.starExpressions()
		return &Yield{Pos: p.span(start), Value: v}
	}
	return &Yield{Pos: p.span(start)}
}

// atom parses names, literals and displays.
func (p *parser) atom() Expr {
	t := p.tok()
	switch t.kind {
	case tName:
		p.next()
		n := p.slabs.name.new()
		*n = Name{Pos: tokPos(t), ID: p.name(t), Ctx: Load}
		return n
	case kTrue:
		p.next()
		return &Constant{Pos: tokPos(t), Value: true}
	case kFalse:
		p.next()
		return &Constant{Pos: tokPos(t), Value: false}
	case kNone:
		p.next()
		return &Constant{Pos: tokPos(t), Value: None}
	case tEllipsis:
		p.next()
		return &Constant{Pos: tokPos(t), Value: Ellipsis}
	case tNumber:
		p.next()
		c := p.slabs.constant.new()
		*c = Constant{Pos: tokPos(t), Value: p.number(t)}
		return c
	case tString, tFStart:
		return p.strings()
	case tLpar:
		return p.parenAtom()
	case tLsqb:
		return p.listAtom()
	case tLbrace:
		return p.braceAtom()
	}
	p.fail()
	return nil
}

func (p *parser) parenAtom() Expr {
	p.enter()
	defer p.leave()
	lpar := p.next()
	switch p.kind() {
	case tRpar:
		p.next()
		return &Tuple{Pos: p.span(lpar), Ctx: Load}
	case kYield:
		y := p.yieldExpr()
		p.expect(tRpar)
		return y
	case tDoubleStar:
		if p.invalid {
			dstar := p.tok()
			p.next()
			if p.speculate(func() { p.expression() }) && p.kind() == tRpar {
				p.raiseAt(dstar, "cannot use double starred expression here")
			}
		}
		p.fail()
	}
	first := p.starNamedExpression()
	switch p.kind() {
	case kFor, kAsync:
		if p.kind() == kAsync && p.peekKind(1) != kFor {
			break
		}
		if _, ok := first.(*Starred); ok {
			p.raiseNode(first, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.forIfClauses()
		p.expect(tRpar)
		return &GeneratorExp{Pos: p.span(lpar), Elt: first, Generators: gens}
	case tComma:
		elts := []Expr{first}
		for p.accept(tComma) {
			if k := p.kind(); k != tStar && !startsExpr(k) {
				break
			}
			elts = append(elts, p.starNamedExpression())
		}
		p.expect(tRpar)
		return &Tuple{Pos: p.span(lpar), Elts: elts, Ctx: Load}
	case tRpar:
		if s, ok := first.(*Starred); ok {
			p.raiseNode(s, "cannot use starred expression here")
		}
		p.next()
		return first
	}
	p.fail()
	return nil
}

func (p *parser) listAtom() Expr {
	p.enter()
	defer p.leave()
	lsqb := p.next()
	if p.accept(tRsqb) {
		return &List{Pos: p.span(lsqb), Ctx: Load}
	}
	first := p.starNamedExpression()
	if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
		if _, ok := first.(*Starred); ok {
			p.raiseNode(first, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.forIfClauses()
		p.expect(tRsqb)
		return &ListComp{Pos: p.span(lsqb), Elt: first, Generators: gens}
	}
	elts := []Expr{first}
	for p.accept(tComma) {
		if k := p.kind(); k != tStar && !startsExpr(k) {
			if k == kFor || k == kAsync {
				p.raiseRange(first.Position(), tokPos(p.prev()), "did you forget parentheses around the comprehension target?")
			}
			break
		}
		elts = append(elts, p.starNamedExpression())
		if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
			p.raiseRange(first.Position(), elts[len(elts)-1].Position(), "did you forget parentheses around the comprehension target?")
		}
	}
	p.expect(tRsqb)
	return &List{Pos: p.span(lsqb), Elts: elts, Ctx: Load}
}

func (p *parser) braceAtom() Expr {
	p.enter()
	defer p.leave()
	lbrace := p.next()
	if p.accept(tRbrace) {
		return &Dict{Pos: p.span(lbrace)}
	}
	if p.kind() == tDoubleStar {
		dstar := p.next()
		v := p.bitwiseOr()
		if k := p.kind(); k == kFor || k == kAsync {
			p.raiseAt(dstar, "dict unpacking cannot be used in dict comprehension")
		}
		return p.dictRest(lbrace, []Expr{nil}, []Expr{v})
	}
	firstTok := p.tok()
	first := p.starNamedExpression()
	if p.kind() == tColon {
		if _, ok := first.(*Starred); ok {
			p.fail()
		}
		if n, ok := first.(*NamedExpr); ok && n.Pos.Col == int(firstTok.col) && n.Pos.Line == int(firstTok.line) {
			p.fail()
		}
		p.next()
		v := p.dictValue()
		if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
			gens := p.forIfClauses()
			p.expect(tRbrace)
			return &DictComp{Pos: p.span(lbrace), Key: first, Value: v, Generators: gens}
		}
		return p.dictRest(lbrace, []Expr{first}, []Expr{v})
	}
	if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
		if _, ok := first.(*Starred); ok {
			p.raiseNode(first, "iterable unpacking cannot be used in comprehension")
		}
		gens := p.forIfClauses()
		p.expect(tRbrace)
		return &SetComp{Pos: p.span(lbrace), Elt: first, Generators: gens}
	}
	elts := []Expr{first}
	for p.accept(tComma) {
		if k := p.kind(); k != tStar && !startsExpr(k) {
			if k == kFor || k == kAsync {
				p.raiseRange(first.Position(), tokPos(p.prev()), "did you forget parentheses around the comprehension target?")
			}
			break
		}
		elts = append(elts, p.starNamedExpression())
		if k := p.kind(); k == kFor || k == kAsync && p.peekKind(1) == kFor {
			p.raiseRange(first.Position(), elts[len(elts)-1].Position(), "did you forget parentheses around the comprehension target?")
		}
	}
	p.expect(tRbrace)
	return &Set{Pos: p.span(lbrace), Elts: elts}
}

// dictValue parses the value after a dict display's key and ':'.
func (p *parser) dictValue() Expr {
	switch p.kind() {
	case tStar:
		star := p.tok()
		if p.invalid {
			p.next()
			p.bitwiseOr()
			p.tok()
		}
		p.raiseFrom(tokPos(star), "cannot use a starred expression in a dictionary value")
	case tRbrace, tComma:
		p.raiseAt(p.prev(), "expression expected after dictionary key and ':'")
	}
	return p.expression()
}

// dictRest parses the rest of a dict display after its first item.
func (p *parser) dictRest(lbrace *token, keys, values []Expr) Expr {
	for p.accept(tComma) {
		if p.kind() == tRbrace {
			break
		}
		if p.accept(tDoubleStar) {
			keys = append(keys, nil)
			values = append(values, p.bitwiseOr())
			continue
		}
		if !startsExpr(p.kind()) {
			p.fail()
		}
		k := p.expression()
		if p.kind() != tColon {
			if k2 := p.kind(); k2 == tComma || k2 == tRbrace {
				pos := k.Position()
				p.firstPassFails()
				p.raise(p.errKnown("SyntaxError", "':' expected after dictionary key", pos.Line, pos.EndCol-1, pos.EndLine, -1))
			}
			p.fail()
		}
		p.next()
		keys = append(keys, k)
		values = append(values, p.dictValue())
	}
	p.expect(tRbrace)
	return &Dict{Pos: p.span(lbrace), Keys: keys, Values: values}
}
