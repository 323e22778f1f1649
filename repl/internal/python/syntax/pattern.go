package syntax

// matchStmt parses a match statement, or returns nil (with nothing
// consumed) when `match` begins another statement.
func (p *parser) matchStmt() Stmt {
	save := p.p
	start := p.tok()
	var m Stmt
	if p.speculate(func() { m = p.matchStmt1(start) }) {
		return m
	}
	p.p = save
	if p.invalid {
		// CPython's invalid_match_stmt.
		if p.speculate(func() {
			p.next()
			p.subjectExpr()
		}) {
			switch p.kind() {
			case tNewline:
				p.raiseLast("expected ':'")
			case tColon:
				if p.peekKind(1) == tNewline && p.peekKind(2) != tIndent {
					p.raiseIndent(blockMsg("'match' statement", start))
				}
			}
		}
		p.p = save
	}
	return nil
}

func (p *parser) matchStmt1(start *token) Stmt {
	p.next()
	subject := p.subjectExpr()
	p.expect(tColon)
	p.expect(tNewline)
	p.expect(tIndent)
	m := &Match{Subject: subject}
	for {
		t := p.tok()
		if !p.isName(t, "case") {
			break
		}
		m.Cases = append(m.Cases, p.caseBlock())
	}
	if len(m.Cases) == 0 {
		p.fail()
	}
	p.expect(tDedent)
	m.Pos = p.span(start)
	return m
}

// subjectExpr is a match subject: a named expression or a tuple of
// starred or named expressions.
func (p *parser) subjectExpr() Expr {
	start := p.tok()
	first := p.starNamedExpression()
	if p.kind() != tComma {
		if _, ok := first.(*Starred); ok {
			p.fail()
		}
		return first
	}
	elts := []Expr{first}
	for p.accept(tComma) {
		if k := p.kind(); k != tStar && !startsExpr(k) {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	return &Tuple{Pos: p.span(start), Elts: elts, Ctx: Load}
}

func (p *parser) caseBlock() *MatchCase {
	caseTok := p.next()
	c := &MatchCase{Pattern: p.patterns()}
	if p.accept(kIf) {
		c.Guard = p.namedExpression()
	}
	p.colon()
	c.Body = p.block("'case' statement", caseTok)
	return c
}

// patterns is a case's pattern: an open sequence or one pattern.
func (p *parser) patterns() Pattern {
	start := p.tok()
	first := p.maybeStarPattern()
	if p.kind() != tComma {
		if _, ok := first.(*MatchStar); ok {
			p.fail()
		}
		return first
	}
	pats := []Pattern{first}
	for p.accept(tComma) {
		if k := p.kind(); k == tColon || k == kIf {
			break
		}
		pats = append(pats, p.maybeStarPattern())
	}
	return &MatchSequence{Pos: p.span(start), Patterns: pats}
}

func (p *parser) maybeStarPattern() Pattern {
	if p.kind() == tStar {
		start := p.next()
		n := p.expect(tName)
		name := p.name(n)
		if name == "_" {
			name = ""
		}
		return &MatchStar{Pos: p.span(start), Name: name}
	}
	return p.pattern()
}

// pattern is an or-pattern, maybe with 'as' NAME.
func (p *parser) pattern() Pattern {
	p.enter()
	defer p.leave()
	start := p.tok()
	pat := p.orPattern()
	if p.kind() == kAs {
		p.next()
		n := p.tok()
		if n.kind != tName {
			if p.invalid {
				var e Expr
				if p.speculate(func() { e = p.expression() }) {
					p.raiseNode(e, "invalid pattern target")
				}
			}
			p.fail()
		}
		p.next()
		name := p.name(n)
		if name == "_" {
			p.raiseAt(n, "cannot use '_' as a target")
		}
		if k := p.kind(); k == tDot || k == tLpar || k == tEqual {
			p.fail()
		}
		return &MatchAs{Pos: p.span(start), Pattern: pat, Name: name}
	}
	return pat
}

func (p *parser) orPattern() Pattern {
	start := p.tok()
	first := p.closedPattern()
	if p.kind() != tVbar {
		return first
	}
	pats := []Pattern{first}
	for p.accept(tVbar) {
		pats = append(pats, p.closedPattern())
	}
	return &MatchOr{Pos: p.span(start), Patterns: pats}
}

// closedPattern parses literals, captures, wildcards, values, groups,
// sequences, mappings and class patterns.
func (p *parser) closedPattern() Pattern {
	t := p.tok()
	switch t.kind {
	case kNone:
		p.next()
		return &MatchSingleton{Pos: tokPos(t), Value: None}
	case kTrue:
		p.next()
		return &MatchSingleton{Pos: tokPos(t), Value: true}
	case kFalse:
		p.next()
		return &MatchSingleton{Pos: tokPos(t), Value: false}
	case tNumber, tMinus:
		v := p.signedNumberPattern()
		return &MatchValue{Pos: v.Position(), Value: v}
	case tString, tFStart:
		s := p.strings()
		return &MatchValue{Pos: s.Position(), Value: s}
	case tName:
		name := p.name(t)
		k1 := p.peekKind(1)
		if k1 != tDot && k1 != tLpar && k1 != tEqual {
			p.next()
			if name == "_" {
				return &MatchAs{Pos: tokPos(t)}
			}
			return &MatchAs{Pos: tokPos(t), Name: name}
		}
		// A dotted name: a value pattern or a class pattern.
		p.next()
		var e Expr = &Name{Pos: tokPos(t), ID: name, Ctx: Load}
		for p.kind() == tDot {
			p.next()
			n := p.expect(tName)
			e = &Attribute{Pos: p.span(t), Value: e, Attr: p.name(n), Ctx: Load}
		}
		if p.kind() == tLpar {
			return p.classPattern(t, e)
		}
		if _, ok := e.(*Attribute); !ok {
			p.fail()
		}
		if p.kind() == tEqual {
			p.fail()
		}
		return &MatchValue{Pos: e.Position(), Value: e}
	case tLpar:
		p.next()
		if p.kind() == tRpar {
			p.next()
			return &MatchSequence{Pos: p.span(t)}
		}
		first := p.maybeStarPattern()
		if p.kind() == tRpar {
			p.next()
			if _, ok := first.(*MatchStar); !ok {
				return first // a group
			}
			return &MatchSequence{Pos: p.span(t), Patterns: []Pattern{first}}
		}
		pats := []Pattern{first}
		if p.kind() != tComma {
			p.fail()
		}
		for p.accept(tComma) {
			if p.kind() == tRpar {
				break
			}
			pats = append(pats, p.maybeStarPattern())
		}
		p.expect(tRpar)
		return &MatchSequence{Pos: p.span(t), Patterns: pats}
	case tLsqb:
		p.next()
		var pats []Pattern
		for p.kind() != tRsqb {
			pats = append(pats, p.maybeStarPattern())
			if !p.accept(tComma) {
				break
			}
		}
		p.expect(tRsqb)
		return &MatchSequence{Pos: p.span(t), Patterns: pats}
	case tLbrace:
		return p.mappingPattern()
	}
	p.fail()
	return nil
}

// signedNumberPattern parses a literal number pattern: a signed number,
// or a complex number real +/- imaginary.
func (p *parser) signedNumberPattern() Expr {
	start := p.tok()
	var e Expr
	if start.kind == tMinus {
		p.next()
		n := p.expect(tNumber)
		e = &UnaryOp{Pos: p.span(start), Op: USub, Operand: &Constant{Pos: tokPos(n), Value: p.number(n)}}
	} else {
		n := p.next()
		e = &Constant{Pos: tokPos(n), Value: p.number(n)}
	}
	if k := p.kind(); k == tPlus || k == tMinus {
		op := Add
		if k == tMinus {
			op = Sub
		}
		// The left must be real, the right imaginary.
		if isImaginary(e) {
			p.actNode(e, "real number required in complex literal")
		}
		p.next()
		n := p.expect(tNumber)
		r := &Constant{Pos: tokPos(n), Value: p.number(n)}
		if !isImaginary(r) {
			p.actNode(r, "imaginary number required in complex literal")
		}
		return &BinOp{Pos: p.span(start), Left: e, Op: op, Right: r}
	}
	return e
}

func isImaginary(e Expr) bool {
	if u, ok := e.(*UnaryOp); ok {
		e = u.Operand
	}
	c, ok := e.(*Constant)
	if !ok {
		return false
	}
	_, ok = c.Value.(complex128)
	return ok
}

func (p *parser) mappingPattern() Pattern {
	start := p.next()
	m := &MatchMapping{}
	for p.kind() != tRbrace {
		if p.kind() == tDoubleStar {
			p.next()
			n := p.expect(tName)
			m.Rest = p.name(n)
			p.accept(tComma)
			break
		}
		var key Expr
		t := p.tok()
		switch t.kind {
		case tNumber, tMinus:
			key = p.signedNumberPattern()
		case tString, tFStart:
			key = p.strings()
		case kNone:
			p.next()
			key = &Constant{Pos: tokPos(t), Value: None}
		case kTrue:
			p.next()
			key = &Constant{Pos: tokPos(t), Value: true}
		case kFalse:
			p.next()
			key = &Constant{Pos: tokPos(t), Value: false}
		case tName:
			p.next()
			var e Expr = &Name{Pos: tokPos(t), ID: p.name(t), Ctx: Load}
			for p.kind() == tDot {
				p.next()
				n := p.expect(tName)
				e = &Attribute{Pos: p.span(t), Value: e, Attr: p.name(n), Ctx: Load}
			}
			if _, ok := e.(*Attribute); !ok {
				p.fail()
			}
			key = e
		default:
			p.fail()
		}
		p.expect(tColon)
		m.Keys = append(m.Keys, key)
		m.Patterns = append(m.Patterns, p.pattern())
		if !p.accept(tComma) {
			break
		}
	}
	p.expect(tRbrace)
	m.Pos = p.span(start)
	return m
}

// classPattern parses Cls(positional..., kw=pattern...).
func (p *parser) classPattern(start *token, cls Expr) Pattern {
	p.next() // (
	c := &MatchClass{Cls: cls}
	var firstKw Pattern
	for p.kind() != tRpar {
		t := p.tok()
		if t.kind == tName && p.peekKind(1) == tEqual {
			p.next()
			p.next()
			pat := p.pattern()
			c.KwdAttrs = append(c.KwdAttrs, p.name(t))
			c.KwdPatterns = append(c.KwdPatterns, pat)
			if firstKw == nil {
				firstKw = pat
			}
		} else {
			pat := p.pattern()
			if firstKw != nil {
				// Positional patterns after keyword ones.
				last := pat
				for p.accept(tComma) {
					if p.kind() == tRpar || p.kind() == tName && p.peekKind(1) == tEqual {
						break
					}
					last = p.pattern()
				}
				p.raiseRange(pat.Position(), last.Position(), "positional patterns follow keyword patterns")
			}
			c.Patterns = append(c.Patterns, pat)
		}
		if !p.accept(tComma) {
			break
		}
	}
	p.expect(tRpar)
	c.Pos = p.span(start)
	return c
}
