package syntax

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The checks CPython's compiler makes on a tree before running it, in its
// order: __future__ imports, then the symbol table (scopes: global and
// nonlocal, duplicate parameters, named expressions in comprehensions,
// yield where it cannot be), then code generation (return, yield, await,
// break and continue placement, starred expressions, repeated keywords,
// __debug__, match patterns). Each raises the SyntaxError CPython raises,
// located as CPython locates it (byte offsets + 1, as its compiler does).

// maxTreeDepth is the nesting CPython's compiler accepts: it counts each
// statement and expression on the way down from the module and raises
// RecursionError past this.
const maxTreeDepth = 2996

type checkError struct{ err *Error }

// checker holds the source for error texts.
type checker struct {
	src    *source
	future futureFlags
	depth  int
}

type futureFlags struct {
	annotations bool
	lastLine    int // the last valid __future__ import's position
	lastCol     int
}

func (c *checker) fail(pos Pos, msg string) {
	e := &Error{Type: "SyntaxError", Msg: msg, Line: pos.Line, Col: pos.Col + 1,
		EndLine: pos.EndLine, EndCol: pos.EndCol + 1, NoText: true, NoDetails: fromSymtable(msg)}
	panic(checkError{e})
}

// symtableMessages start the messages of CPython's symbol table and
// future-statement checks, which raise a SyntaxError whose args hold only
// the message; its compiler's errors carry the location tuple as well.
var symtableMessages = []string{
	"'yield' inside ", "annotated name ", "assignment expression ", "await expression cannot be used within",
	"comprehension inner loop ", "duplicate argument ", "duplicate type parameter ", "future feature ",
	"import * only allowed", "name '", "named expression cannot be used within", "no binding for nonlocal ",
	"nonlocal binding not allowed", "nonlocal declaration not allowed", "not a chance",
	"yield expression cannot be used within",
}

func fromSymtable(msg string) bool {
	for _, p := range symtableMessages {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func (c *checker) run(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(checkError)
			if !ok {
				panic(r)
			}
			err = ce.err
		}
	}()
	f()
	return nil
}

func (c *checker) enterDepth() {
	c.depth++
	if c.depth > maxTreeDepth {
		panic(checkError{&Error{Type: "RecursionError", Msg: "maximum recursion depth exceeded during compilation"}})
	}
}

func check(s *source, m *Module) error {
	c := &checker{src: s}
	return c.run(func() {
		c.futures(m)
		st := newSymtable(c)
		st.module(m)
		st.analyze()
		g := &codegen{c: c, st: st}
		g.module(m)
	})
}

func checkExpr(s *source, e Expr) error {
	c := &checker{src: s}
	return c.run(func() {
		st := newSymtable(c)
		st.evalExpr(e)
		st.analyze()
		g := &codegen{c: c, st: st}
		g.evalExpr(e)
	})
}

func isFutureFeature(name string) bool {
	switch name {
	case "nested_scopes", "generators", "division", "absolute_import", "with_statement",
		"print_function", "unicode_literals", "barry_as_FLUFL", "generator_stop", "annotations":
		return true
	}
	return false
}

// futures checks the __future__ imports that open the module.
func (c *checker) futures(m *Module) {
	c.future.lastLine = -1
	body := m.Body
	if len(body) > 0 && isDocstring(body[0]) {
		body = body[1:]
	}
	for _, s := range body {
		imp, ok := s.(*ImportFrom)
		if !ok || imp.Module != "__future__" {
			return
		}
		for _, a := range imp.Names {
			switch {
			case a.Name == "braces":
				c.futureFail(imp, "not a chance")
			case a.Name == "annotations":
				c.future.annotations = true
			case !isFutureFeature(a.Name):
				c.futureFail(imp, "future feature "+a.Name+" is not defined")
			}
		}
		c.future.lastLine, c.future.lastCol = imp.Line, imp.Col
	}
}

func (c *checker) futureFail(s *ImportFrom, msg string) {
	panic(checkError{&Error{Type: "SyntaxError", Msg: msg, Line: s.Line, Col: s.Col + 1,
		EndLine: s.Line, NoText: true, NoDetails: fromSymtable(msg)}})
}

func isDocstring(s Stmt) bool {
	e, ok := s.(*ExprStmt)
	if !ok {
		return false
	}
	k, ok := e.Value.(*Constant)
	if !ok {
		return false
	}
	_, ok = k.Value.(string)
	return ok
}

// Symbol flags, as CPython's symtable.
const (
	defGlobal = 1 << iota
	defLocal
	defParam
	defNonlocal
	use
	defFree
	defFreeClass
	defImport
	defAnnot
	defCompIter
	defTypeParam
	defCompCell
)

const defBound = defLocal | defParam | defImport

type blockKind uint8

const (
	moduleBlock blockKind = iota
	functionBlock
	classBlock
	annotationBlock
	typeVarBoundBlock
	typeAliasBlock
	typeParamBlock
)

type compKind uint8

const (
	noComp compKind = iota
	listComp
	setComp
	dictComp
	genExp
)

// scope is a symbol table entry (CPython's ste).
type scope struct {
	kind       blockKind
	name       string
	node       any
	names      []string // in order of first definition
	flags      map[string]int
	directives map[string]Pos
	children   []*scope
	parent     *scope

	comprehension  compKind
	compIterTarget bool
	compIterExpr   int
	generator      bool
	coroutine      bool
	returnsValue   bool
	isAsync        bool // an async def
	isLambda       bool
	canSeeClass    bool
}

func (s *scope) functionLike() bool {
	return s.kind == functionBlock || s.kind == annotationBlock || s.kind == typeVarBoundBlock ||
		s.kind == typeAliasBlock || s.kind == typeParamBlock
}

func (s *scope) lookup(name string) int { return s.flags[name] }

// symtable builds the scopes of a tree, raising CPython's symtable errors.
type symtable struct {
	c       *checker
	top     *scope
	cur     *scope
	stack   []*scope
	private string // the class whose names are mangled
	byNode  map[any]*scope
}

func newSymtable(c *checker) *symtable {
	return &symtable{c: c, byNode: map[any]*scope{}}
}

func (st *symtable) enter(kind blockKind, name string, node any) *scope {
	s := &scope{kind: kind, name: name, node: node, flags: map[string]int{}, parent: st.cur}
	if st.cur != nil {
		st.cur.children = append(st.cur.children, s)
		if st.cur.kind == typeParamBlock || st.cur.canSeeClass && kind != functionBlock {
			// nothing more to record
		}
	}
	st.stack = append(st.stack, s)
	st.cur = s
	if node != nil {
		st.byNode[node] = s
	}
	return s
}

func (st *symtable) exit() {
	st.stack = st.stack[:len(st.stack)-1]
	if n := len(st.stack); n > 0 {
		st.cur = st.stack[n-1]
	} else {
		st.cur = nil
	}
}

// mangle is CPython's private name mangling.
func mangle(private, name string) string {
	if private == "" || !strings.HasPrefix(name, "__") || strings.HasSuffix(name, "__") || strings.IndexByte(name, '.') >= 0 {
		return name
	}
	p := strings.TrimLeft(private, "_")
	if p == "" {
		return name
	}
	return "_" + p + name
}

func (st *symtable) addDef(name string, flag int, pos Pos) {
	st.addDefTo(st.cur, name, flag, pos)
}

func (st *symtable) addDefTo(s *scope, name string, flag int, pos Pos) {
	m := mangle(st.private, name)
	val, ok := s.flags[m]
	if ok {
		if flag&defParam != 0 && val&defParam != 0 {
			st.c.fail(pos, "duplicate argument '"+name+"' in function definition")
		}
		if flag&defTypeParam != 0 && val&defTypeParam != 0 {
			st.c.fail(pos, "duplicate type parameter '"+name+"'")
		}
		val |= flag
	} else {
		val = flag
		s.names = append(s.names, m)
	}
	if s.compIterTarget {
		if val&(defGlobal|defNonlocal) != 0 {
			st.c.fail(pos, "comprehension inner loop cannot rebind assignment expression target '"+name+"'")
		}
		val |= defCompIter
	}
	s.flags[m] = val
}

func (st *symtable) recordDirective(name string, pos Pos) {
	if st.cur.directives == nil {
		st.cur.directives = map[string]Pos{}
	}
	m := mangle(st.private, name)
	if _, ok := st.cur.directives[m]; !ok {
		st.cur.directives[m] = pos
	}
}

func (st *symtable) module(m *Module) {
	st.top = st.enter(moduleBlock, "top", m)
	for _, s := range m.Body {
		st.stmt(s)
	}
	st.exit()
}

func (st *symtable) evalExpr(e Expr) {
	st.top = st.enter(moduleBlock, "top", nil)
	st.expr(e)
	st.exit()
}

func (st *symtable) stmts(l []Stmt) {
	for _, s := range l {
		st.stmt(s)
	}
}

func (st *symtable) exprs(l []Expr) {
	for _, e := range l {
		if e != nil {
			st.expr(e)
		}
	}
}

func (st *symtable) stmt(s Stmt) {
	st.c.enterDepth()
	defer func() { st.c.depth-- }()
	switch x := s.(type) {
	case *FunctionDef:
		st.addDef(x.Name, defLocal, x.Pos)
		st.exprs(x.Args.Defaults)
		st.exprs(x.Args.KwDefaults)
		st.exprs(x.DecoratorList)
		if len(x.TypeParams) > 0 {
			st.enterTypeParams(x.Name, x)
			st.typeParams(x.TypeParams)
		}
		st.annotations(x.Pos, x.Args, x.Returns)
		sc := st.enter(functionBlock, x.Name, x)
		sc.isAsync = x.IsAsync
		sc.coroutine = x.IsAsync
		st.arguments(x.Args)
		st.stmts(x.Body)
		st.exit()
		if len(x.TypeParams) > 0 {
			st.exit()
		}
	case *ClassDef:
		st.addDef(x.Name, defLocal, x.Pos)
		st.exprs(x.DecoratorList)
		if len(x.TypeParams) > 0 {
			st.enterTypeParams(x.Name, x)
			saved := st.private
			st.private = x.Name
			st.addDef("__type_params__", defLocal, x.Pos)
			st.addDef(".type_params", use, x.Pos)
			st.typeParams(x.TypeParams)
			st.private = saved
		}
		st.exprs(x.Bases)
		for _, k := range x.Keywords {
			st.expr(k.Value)
		}
		st.enter(classBlock, x.Name, x)
		saved := st.private
		st.private = x.Name
		if len(x.TypeParams) > 0 {
			st.addDef("__type_params__", defLocal, x.Pos)
			st.addDef(".type_params", use, x.Pos)
		}
		st.stmts(x.Body)
		st.private = saved
		st.exit()
		if len(x.TypeParams) > 0 {
			st.exit()
		}
	case *TypeAlias:
		st.expr(x.Name)
		inClass := st.cur.kind == classBlock
		if len(x.TypeParams) > 0 {
			st.enterTypeParams(x.Name.ID, x)
			st.typeParams(x.TypeParams)
		}
		sc := st.enter(typeAliasBlock, x.Name.ID, nil)
		sc.canSeeClass = inClass
		if inClass {
			st.addDef("__classdict__", use, x.Value.Position())
		}
		st.expr(x.Value)
		st.exit()
		if len(x.TypeParams) > 0 {
			st.exit()
		}
	case *Return:
		if x.Value != nil {
			st.expr(x.Value)
			st.cur.returnsValue = true
		}
	case *Delete:
		st.exprs(x.Targets)
	case *Assign:
		st.exprs(x.Targets)
		st.expr(x.Value)
	case *AnnAssign:
		if n, ok := x.Target.(*Name); ok {
			cur := st.cur.lookup(mangle(st.private, n.ID))
			if cur&(defGlobal|defNonlocal) != 0 && st.cur != st.top && x.Simple {
				if cur&defGlobal != 0 {
					st.c.fail(x.Pos, "annotated name '"+n.ID+"' can't be global")
				}
				st.c.fail(x.Pos, "annotated name '"+n.ID+"' can't be nonlocal")
			}
			if x.Simple {
				st.addDef(n.ID, defAnnot|defLocal, n.Pos)
			} else if x.Value != nil {
				st.addDef(n.ID, defLocal, n.Pos)
			}
		} else {
			st.expr(x.Target)
		}
		st.annotation(x.Annotation)
		if x.Value != nil {
			st.expr(x.Value)
		}
	case *AugAssign:
		st.expr(x.Target)
		st.expr(x.Value)
	case *For:
		st.expr(x.Target)
		st.expr(x.Iter)
		st.stmts(x.Body)
		st.stmts(x.Orelse)
	case *While:
		st.expr(x.Test)
		st.stmts(x.Body)
		st.stmts(x.Orelse)
	case *If:
		st.expr(x.Test)
		st.stmts(x.Body)
		st.stmts(x.Orelse)
	case *Match:
		st.expr(x.Subject)
		for _, mc := range x.Cases {
			st.pattern(mc.Pattern)
			if mc.Guard != nil {
				st.expr(mc.Guard)
			}
			st.stmts(mc.Body)
		}
	case *Raise:
		if x.Exc != nil {
			st.expr(x.Exc)
		}
		if x.Cause != nil {
			st.expr(x.Cause)
		}
	case *Try:
		st.stmts(x.Body)
		st.stmts(x.Orelse)
		for _, h := range x.Handlers {
			if h.Type != nil {
				st.expr(h.Type)
			}
			if h.Name != "" {
				st.addDef(h.Name, defLocal, h.Pos)
			}
			st.stmts(h.Body)
		}
		st.stmts(x.Finalbody)
	case *Assert:
		st.expr(x.Test)
		if x.Msg != nil {
			st.expr(x.Msg)
		}
	case *Import:
		for _, a := range x.Names {
			st.alias(a)
		}
	case *ImportFrom:
		for _, a := range x.Names {
			st.alias(a)
		}
	case *Global:
		for _, name := range x.Names {
			cur := st.cur.lookup(mangle(st.private, name))
			if cur&(defParam|defLocal|use|defAnnot) != 0 {
				var msg string
				switch {
				case cur&defParam != 0:
					msg = "name '%s' is parameter and global"
				case cur&use != 0:
					msg = "name '%s' is used prior to global declaration"
				case cur&defAnnot != 0:
					msg = "annotated name '%s' can't be global"
				default:
					msg = "name '%s' is assigned to before global declaration"
				}
				st.c.fail(x.Pos, fmt.Sprintf(msg, name))
			}
			st.addDef(name, defGlobal, x.Pos)
			st.recordDirective(name, x.Pos)
		}
	case *Nonlocal:
		for _, name := range x.Names {
			cur := st.cur.lookup(mangle(st.private, name))
			if cur&(defParam|defLocal|use|defAnnot) != 0 {
				var msg string
				switch {
				case cur&defParam != 0:
					msg = "name '%s' is parameter and nonlocal"
				case cur&use != 0:
					msg = "name '%s' is used prior to nonlocal declaration"
				case cur&defAnnot != 0:
					msg = "annotated name '%s' can't be nonlocal"
				default:
					msg = "name '%s' is assigned to before nonlocal declaration"
				}
				st.c.fail(x.Pos, fmt.Sprintf(msg, name))
			}
			st.addDef(name, defNonlocal, x.Pos)
			st.recordDirective(name, x.Pos)
		}
	case *ExprStmt:
		st.expr(x.Value)
	case *With:
		for _, it := range x.Items {
			st.expr(it.ContextExpr)
			if it.OptionalVars != nil {
				st.expr(it.OptionalVars)
			}
		}
		st.stmts(x.Body)
	}
}

func (st *symtable) alias(a *Alias) {
	name := a.Name
	if a.Asname != "" {
		name = a.Asname
	}
	if name == "*" {
		if st.cur.kind != moduleBlock {
			st.c.fail(a.Pos, "import * only allowed at module level")
		}
		return
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	st.addDef(name, defImport, a.Pos)
}

func (st *symtable) enterTypeParams(name string, node any) {
	st.enter(typeParamBlock, name, nil)
}

func (st *symtable) typeParams(tps []TypeParam) {
	for i := range tps {
		tp := &tps[i]
		st.addDef(tp.Name, defTypeParam|defLocal, tp.Pos)
		if tp.Bound != nil {
			inClass := st.cur.canSeeClass
			sc := st.enter(typeVarBoundBlock, tp.Name, nil)
			sc.canSeeClass = inClass
			st.expr(tp.Bound)
			st.exit()
		}
	}
}

func (st *symtable) annotation(e Expr) {
	if st.c.future.annotations {
		st.enter(annotationBlock, "_annotation", nil)
		st.expr(e)
		st.exit()
		return
	}
	st.expr(e)
}

func (st *symtable) annotations(pos Pos, a *Arguments, returns Expr) {
	fut := st.c.future.annotations
	if fut {
		st.enter(annotationBlock, "_annotation", nil)
	}
	for _, l := range [][]*Arg{a.PosOnlyArgs, a.Args} {
		for _, arg := range l {
			if arg.Annotation != nil {
				st.expr(arg.Annotation)
			}
		}
	}
	if a.Vararg != nil && a.Vararg.Annotation != nil {
		st.expr(a.Vararg.Annotation)
	}
	if a.Kwarg != nil && a.Kwarg.Annotation != nil {
		st.expr(a.Kwarg.Annotation)
	}
	for _, arg := range a.KwOnlyArgs {
		if arg.Annotation != nil {
			st.expr(arg.Annotation)
		}
	}
	if fut {
		st.exit()
	}
	if returns != nil {
		st.annotation(returns)
	}
}

func (st *symtable) arguments(a *Arguments) {
	for _, l := range [][]*Arg{a.PosOnlyArgs, a.Args, a.KwOnlyArgs} {
		for _, arg := range l {
			st.addDef(arg.Arg, defParam, arg.Pos)
		}
	}
	if a.Vararg != nil {
		st.addDef(a.Vararg.Arg, defParam, a.Vararg.Pos)
	}
	if a.Kwarg != nil {
		st.addDef(a.Kwarg.Arg, defParam, a.Kwarg.Pos)
	}
}

// notAllowed raises the error for yield, await or := where a type
// parameter, alias or annotation scope forbids it.
func (st *symtable) notAllowed(what string, pos Pos) {
	var msg string
	switch st.cur.kind {
	case annotationBlock:
		msg = "%s cannot be used within an annotation"
	case typeVarBoundBlock:
		msg = "%s cannot be used within a TypeVar bound"
	case typeAliasBlock:
		msg = "%s cannot be used within a type alias"
	case typeParamBlock:
		msg = "%s cannot be used within the definition of a generic"
	default:
		return
	}
	st.c.fail(pos, fmt.Sprintf(msg, what))
}

func (st *symtable) expr(e Expr) {
	st.c.enterDepth()
	defer func() { st.c.depth-- }()
	switch x := e.(type) {
	case *NamedExpr:
		st.notAllowed("named expression", x.Pos)
		st.namedExpr(x)
	case *BoolOp:
		st.exprs(x.Values)
	case *BinOp:
		st.expr(x.Left)
		st.expr(x.Right)
	case *UnaryOp:
		st.expr(x.Operand)
	case *Lambda:
		st.exprs(x.Args.Defaults)
		st.exprs(x.Args.KwDefaults)
		sc := st.enter(functionBlock, "lambda", x)
		sc.isLambda = true
		st.arguments(x.Args)
		st.expr(x.Body)
		st.exit()
	case *IfExp:
		st.expr(x.Test)
		st.expr(x.Body)
		st.expr(x.Orelse)
	case *Dict:
		st.exprs(x.Keys)
		st.exprs(x.Values)
	case *Set:
		st.exprs(x.Elts)
	case *GeneratorExp:
		st.comprehension(x, genExp, x.Generators, x.Elt, nil)
	case *ListComp:
		st.comprehension(x, listComp, x.Generators, x.Elt, nil)
	case *SetComp:
		st.comprehension(x, setComp, x.Generators, x.Elt, nil)
	case *DictComp:
		st.comprehension(x, dictComp, x.Generators, x.Key, x.Value)
	case *Yield:
		st.notAllowed("yield expression", x.Pos)
		if x.Value != nil {
			st.expr(x.Value)
		}
		st.cur.generator = true
		if st.cur.comprehension != noComp {
			st.yieldInComprehension(x.Pos)
		}
	case *YieldFrom:
		st.notAllowed("yield expression", x.Pos)
		st.expr(x.Value)
		st.cur.generator = true
		if st.cur.comprehension != noComp {
			st.yieldInComprehension(x.Pos)
		}
	case *Await:
		st.notAllowed("await expression", x.Pos)
		st.expr(x.Value)
		st.cur.coroutine = true
	case *Compare:
		st.expr(x.Left)
		st.exprs(x.Comparators)
	case *Call:
		st.expr(x.Func)
		st.exprs(x.Args)
		for _, k := range x.Keywords {
			st.expr(k.Value)
		}
	case *FormattedValue:
		st.expr(x.Value)
		if x.FormatSpec != nil {
			st.expr(x.FormatSpec)
		}
	case *JoinedStr:
		st.exprs(x.Values)
	case *Attribute:
		st.expr(x.Value)
	case *Subscript:
		st.expr(x.Value)
		st.expr(x.Slice)
	case *Starred:
		st.expr(x.Value)
	case *Slice:
		if x.Lower != nil {
			st.expr(x.Lower)
		}
		if x.Upper != nil {
			st.expr(x.Upper)
		}
		if x.Step != nil {
			st.expr(x.Step)
		}
	case *Name:
		flag := defLocal
		if x.Ctx == Load {
			flag = use
		}
		st.addDef(x.ID, flag, x.Pos)
		if x.Ctx == Load && st.cur.functionLike() && x.ID == "super" {
			st.addDef("__class__", use, x.Pos)
		}
	case *List:
		st.exprs(x.Elts)
	case *Tuple:
		st.exprs(x.Elts)
	}
}

func (st *symtable) yieldInComprehension(pos Pos) {
	var msg string
	switch st.cur.comprehension {
	case listComp:
		msg = "'yield' inside list comprehension"
	case setComp:
		msg = "'yield' inside set comprehension"
	case dictComp:
		msg = "'yield' inside dict comprehension"
	default:
		msg = "'yield' inside generator expression"
	}
	st.c.fail(pos, msg)
}

func (st *symtable) comprehension(e Expr, kind compKind, gens []*Comprehension, elt, value Expr) {
	outer := gens[0]
	st.cur.compIterExpr++
	st.expr(outer.Iter)
	st.cur.compIterExpr--
	sc := st.enter(functionBlock, "comp", e)
	sc.comprehension = kind
	if outer.IsAsync {
		sc.coroutine = true
	}
	st.addDef(".0", defParam, e.Position())
	sc.compIterTarget = true
	st.expr(outer.Target)
	sc.compIterTarget = false
	st.exprs(outer.Ifs)
	for _, g := range gens[1:] {
		sc.compIterTarget = true
		st.expr(g.Target)
		sc.compIterTarget = false
		sc.compIterExpr++
		st.expr(g.Iter)
		sc.compIterExpr--
		st.exprs(g.Ifs)
		if g.IsAsync {
			sc.coroutine = true
		}
	}
	if value != nil {
		st.expr(value)
	}
	st.expr(elt)
	sc.generator = kind == genExp
	isAsync := sc.coroutine && kind != genExp
	st.exit()
	if isAsync {
		st.cur.coroutine = true
	}
}

func (st *symtable) namedExpr(x *NamedExpr) {
	if st.cur.compIterExpr > 0 {
		st.c.fail(x.Pos, "assignment expression cannot be used in a comprehension iterable expression")
	}
	if st.cur.comprehension != noComp {
		st.extendNamedExprScope(x.Target)
	}
	st.expr(x.Value)
	st.expr(x.Target)
}

func (st *symtable) extendNamedExprScope(n *Name) {
	name := n.ID
	for i := len(st.stack) - 1; i >= 0; i-- {
		s := st.stack[i]
		if s.comprehension != noComp {
			if s.lookup(mangle(st.private, name))&defCompIter != 0 {
				st.c.fail(n.Pos, "assignment expression cannot rebind comprehension iteration variable '"+name+"'")
			}
			continue
		}
		switch s.kind {
		case functionBlock:
			if s.lookup(mangle(st.private, name))&defGlobal != 0 {
				st.addDef(name, defGlobal, n.Pos)
			} else {
				st.addDef(name, defNonlocal, n.Pos)
			}
			st.recordDirective(name, n.Pos)
			st.addDefTo(s, name, defLocal, n.Pos)
			return
		case moduleBlock:
			st.addDef(name, defGlobal, n.Pos)
			st.recordDirective(name, n.Pos)
			st.addDefTo(s, name, defGlobal, n.Pos)
			return
		case classBlock:
			st.c.fail(n.Pos, "assignment expression within a comprehension cannot be used in a class body")
		case typeParamBlock:
			st.c.fail(n.Pos, "assignment expression within a comprehension cannot be used within the definition of a generic")
		case typeAliasBlock:
			st.c.fail(n.Pos, "assignment expression within a comprehension cannot be used in a type alias")
		case typeVarBoundBlock:
			st.c.fail(n.Pos, "assignment expression within a comprehension cannot be used in a TypeVar bound")
		}
	}
}

func (st *symtable) pattern(p Pattern) {
	switch x := p.(type) {
	case *MatchValue:
		st.expr(x.Value)
	case *MatchSequence:
		for _, q := range x.Patterns {
			st.pattern(q)
		}
	case *MatchStar:
		if x.Name != "" {
			st.addDef(x.Name, defLocal, x.Pos)
		}
	case *MatchMapping:
		st.exprs(x.Keys)
		for _, q := range x.Patterns {
			st.pattern(q)
		}
		if x.Rest != "" {
			st.addDef(x.Rest, defLocal, x.Pos)
		}
	case *MatchClass:
		st.expr(x.Cls)
		for _, q := range x.Patterns {
			st.pattern(q)
		}
		for _, q := range x.KwdPatterns {
			st.pattern(q)
		}
	case *MatchAs:
		if x.Pattern != nil {
			st.pattern(x.Pattern)
		}
		if x.Name != "" {
			st.addDef(x.Name, defLocal, x.Pos)
		}
	case *MatchOr:
		for _, q := range x.Patterns {
			st.pattern(q)
		}
	}
}

// analyze checks the scopes of names as CPython's analyze_block does,
// raising its errors about global and nonlocal: blocks in order, each
// block's names in order of first use, then its children.
func (st *symtable) analyze() {
	st.analyzeBlock(st.top)
}

func (st *symtable) analyzeBlock(s *scope) {
	for _, name := range s.names {
		st.analyzeName(s, name, s.flags[name])
	}
	for _, ch := range s.children {
		st.analyzeBlock(ch)
	}
}

// bound reports whether name is in the set of names CPython passes down
// to scope s as bound in enclosing functions (nonlocal may refer to
// them). Rather than copying that set into every scope, it asks the
// enclosing scopes.
func bound(s *scope, name string) bool {
	p := s.parent
	if p == nil {
		return false
	}
	if p.kind == classBlock {
		// A class passes down what it was given, and __class__.
		return name == "__class__" || name == "__classdict__" || bound(p, name)
	}
	f := p.flags[name]
	if f&defGlobal != 0 {
		return false
	}
	if p.functionLike() && f&defBound != 0 && f&defNonlocal == 0 {
		return true
	}
	return bound(p, name)
}

// boundTypeParam reports whether the binding bound finds for name is a
// type parameter.
func boundTypeParam(s *scope, name string) bool {
	for p := s.parent; p != nil; p = p.parent {
		if p.kind == classBlock {
			continue
		}
		f := p.flags[name]
		if f&defBound != 0 && f&(defGlobal|defNonlocal) == 0 {
			return f&defTypeParam != 0
		}
	}
	return false
}

func (st *symtable) analyzeName(s *scope, name string, flags int) {
	at := func(msg string) {
		st.c.fail(s.directives[name], msg)
	}
	if flags&defGlobal != 0 {
		if flags&defNonlocal != 0 {
			at("name '" + name + "' is nonlocal and global")
		}
		return
	}
	if flags&defNonlocal != 0 {
		if s.kind == moduleBlock {
			at("nonlocal declaration not allowed at module level")
		}
		if !bound(s, name) {
			at("no binding for nonlocal '" + name + "' found")
		}
		if boundTypeParam(s, name) {
			at("nonlocal binding not allowed for type parameter '" + name + "'")
		}
	}
}

// codegen walks the tree as CPython's code generator does, raising its
// errors.
type codegen struct {
	c  *checker
	st *symtable
	u  *unit
}

// unit is a code object being compiled: its scope and its stack of
// blocks (loops, try, with).
type unit struct {
	kind    unitKind
	scope   *scope
	fblocks []fblock
	parent  *unit
}

type unitKind uint8

const (
	unitModule unitKind = iota
	unitClass
	unitFunction
	unitAsyncFunction
	unitLambda
	unitComprehension
	unitTypeParams
)

type fblock uint8

const (
	fbLoop       fblock = iota
	fbExceptStar        // an except* handler: break, continue and return cannot leave it
	fbOther
)

const maxBlocks = 20

func (g *codegen) push(fb fblock, pos Pos) {
	if len(g.u.fblocks) >= maxBlocks {
		g.c.fail(pos, "too many statically nested blocks")
	}
	g.u.fblocks = append(g.u.fblocks, fb)
}

func (g *codegen) pop() { g.u.fblocks = g.u.fblocks[:len(g.u.fblocks)-1] }

func (g *codegen) enterUnit(kind unitKind, s *scope) {
	g.u = &unit{kind: kind, scope: s, parent: g.u}
}

func (g *codegen) exitUnit() { g.u = g.u.parent }

func (g *codegen) module(m *Module) {
	g.enterUnit(unitModule, g.st.top)
	body := m.Body
	if len(body) > 0 && isDocstring(body[0]) {
		body = body[1:]
	}
	g.stmts(body)
}

func (g *codegen) evalExpr(e Expr) {
	g.enterUnit(unitModule, g.st.top)
	g.expr(e)
}

func (g *codegen) stmts(l []Stmt) {
	for _, s := range l {
		g.stmt(s)
	}
}

func (g *codegen) exprs(l []Expr) {
	for _, e := range l {
		if e != nil {
			g.expr(e)
		}
	}
}

// childScope finds the symtable scope made for node.
func (g *codegen) childScope(node any) *scope {
	return g.st.byNode[node]
}

func (g *codegen) forbidden(pos Pos, name string, ctx Ctx) {
	if name != "__debug__" {
		return
	}
	switch ctx {
	case Store:
		g.c.fail(pos, "cannot assign to __debug__")
	case Del:
		g.c.fail(pos, "cannot delete __debug__")
	}
}

func (g *codegen) checkDebugArgs(a *Arguments) {
	for _, l := range [][]*Arg{a.PosOnlyArgs, a.Args, a.KwOnlyArgs} {
		for _, arg := range l {
			g.forbidden(arg.Pos, arg.Arg, Store)
		}
	}
	if a.Vararg != nil {
		g.forbidden(a.Vararg.Pos, a.Vararg.Arg, Store)
	}
	if a.Kwarg != nil {
		g.forbidden(a.Kwarg.Pos, a.Kwarg.Arg, Store)
	}
}

func (g *codegen) isFunctionLike() bool { return g.u.scope != nil && g.u.scope.functionLike() }

func (g *codegen) stmt(s Stmt) {
	g.c.enterDepth()
	defer func() { g.c.depth-- }()
	switch x := s.(type) {
	case *FunctionDef:
		g.checkDebugArgs(x.Args)
		g.exprs(x.DecoratorList)
		g.exprs(x.Args.Defaults)
		g.exprs(x.Args.KwDefaults)
		if len(x.TypeParams) > 0 {
			g.enterUnit(unitTypeParams, nil)
			g.typeParams(x.TypeParams)
		}
		if !g.c.future.annotations {
			g.argAnnotations(x.Args)
			if x.Returns != nil {
				g.expr(x.Returns)
			}
		}
		kind := unitFunction
		if x.IsAsync {
			kind = unitAsyncFunction
		}
		g.enterUnit(kind, g.childScope(x))
		body := x.Body
		if len(body) > 0 && isDocstring(body[0]) {
			body = body[1:]
		}
		g.stmts(body)
		g.exitUnit()
		if len(x.TypeParams) > 0 {
			g.exitUnit()
		}
		g.forbidden(x.Pos, x.Name, Store)
	case *ClassDef:
		g.exprs(x.DecoratorList)
		if len(x.TypeParams) > 0 {
			g.enterUnit(unitTypeParams, nil)
			g.typeParams(x.TypeParams)
		}
		g.enterUnit(unitClass, g.childScope(x))
		body := x.Body
		if len(body) > 0 && isDocstring(body[0]) {
			body = body[1:]
		}
		g.stmts(body)
		g.exitUnit()
		g.callArgs(x.Bases, x.Keywords)
		if len(x.TypeParams) > 0 {
			g.exitUnit()
		}
		g.forbidden(x.Pos, x.Name, Store)
	case *TypeAlias:
		if len(x.TypeParams) > 0 {
			g.enterUnit(unitTypeParams, nil)
			g.typeParams(x.TypeParams)
		}
		g.enterUnit(unitFunction, &scope{kind: typeAliasBlock})
		g.expr(x.Value)
		g.exitUnit()
		if len(x.TypeParams) > 0 {
			g.exitUnit()
		}
		g.forbidden(x.Pos, x.Name.ID, Store)
	case *Return:
		if !g.isFunctionLike() {
			g.c.fail(x.Pos, "'return' outside function")
		}
		if x.Value != nil && g.u.scope.coroutine && g.u.scope.generator {
			g.c.fail(x.Pos, "'return' with value in async generator")
		}
		if x.Value != nil {
			g.expr(x.Value)
		}
		for _, fb := range g.u.fblocks {
			if fb == fbExceptStar {
				g.c.fail(x.Pos, exceptStarExit)
			}
		}
	case *Delete:
		g.exprs(x.Targets)
	case *Assign:
		g.expr(x.Value)
		g.exprs(x.Targets)
	case *AugAssign:
		g.augTarget(x.Target)
		g.expr(x.Value)
		if t, ok := x.Target.(*Name); ok {
			g.forbidden(t.Pos, t.ID, Store)
		}
	case *AnnAssign:
		if x.Value != nil {
			g.expr(x.Value)
			g.expr(x.Target)
		}
		switch t := x.Target.(type) {
		case *Name:
			g.forbidden(x.Pos, t.ID, Store)
			if x.Simple && (g.u.kind == unitModule || g.u.kind == unitClass) && !g.c.future.annotations {
				g.expr(x.Annotation)
			}
		case *Attribute:
			g.forbidden(x.Pos, t.Attr, Store)
			if x.Value == nil {
				g.expr(t.Value)
			}
		case *Subscript:
			if x.Value == nil {
				g.expr(t.Value)
				g.expr(t.Slice)
			}
		}
		if !x.Simple && !g.c.future.annotations && (g.u.kind == unitModule || g.u.kind == unitClass) {
			g.expr(x.Annotation)
		}
	case *For:
		if x.IsAsync && g.u.kind != unitAsyncFunction {
			g.c.fail(x.Pos, "'async for' outside async function")
		}
		g.expr(x.Iter)
		g.push(fbLoop, x.Pos)
		g.expr(x.Target)
		g.stmts(x.Body)
		g.pop()
		g.stmts(x.Orelse)
	case *While:
		g.expr(x.Test)
		g.push(fbLoop, x.Pos)
		g.stmts(x.Body)
		g.pop()
		g.stmts(x.Orelse)
	case *If:
		g.expr(x.Test)
		g.stmts(x.Body)
		g.stmts(x.Orelse)
	case *With:
		if x.IsAsync && g.u.kind != unitAsyncFunction {
			g.c.fail(x.Pos, "'async with' outside async function")
		}
		for _, it := range x.Items {
			g.expr(it.ContextExpr)
			g.push(fbOther, x.Pos)
			if it.OptionalVars != nil {
				g.expr(it.OptionalVars)
			}
		}
		g.stmts(x.Body)
		for range x.Items {
			g.pop()
		}
	case *Match:
		g.match(x)
	case *Raise:
		if x.Exc != nil {
			g.expr(x.Exc)
		}
		if x.Cause != nil {
			g.expr(x.Cause)
		}
	case *Try:
		g.try(x)
	case *Assert:
		g.expr(x.Test)
		if x.Msg != nil {
			g.expr(x.Msg)
		}
	case *Import:
		for _, a := range x.Names {
			name := a.Asname
			if name == "" {
				name = a.Name
				if i := strings.IndexByte(name, '.'); i >= 0 {
					name = name[:i]
				}
			}
			g.forbidden(x.Pos, name, Store)
		}
	case *ImportFrom:
		if x.Module == "__future__" && (x.Line > g.c.future.lastLine || x.Line == g.c.future.lastLine && x.Col > g.c.future.lastCol) {
			g.c.fail(x.Pos, "from __future__ imports must occur at the beginning of the file")
		}
		for _, a := range x.Names {
			if a.Name == "*" {
				continue
			}
			name := a.Asname
			if name == "" {
				name = a.Name
			}
			g.forbidden(x.Pos, name, Store)
		}
	case *ExprStmt:
		g.expr(x.Value)
	case *Break:
		if !g.inLoop(x.Pos) {
			g.c.fail(x.Pos, "'break' outside loop")
		}
	case *Continue:
		if !g.inLoop(x.Pos) {
			g.c.fail(x.Pos, "'continue' not properly in loop")
		}
	}
}

const exceptStarExit = "'break', 'continue' and 'return' cannot appear in an except* block"

// inLoop reports whether break and continue have a loop to leave,
// raising CPython's error if they would leave an except* block first.
func (g *codegen) inLoop(pos Pos) bool {
	for i := len(g.u.fblocks) - 1; i >= 0; i-- {
		switch g.u.fblocks[i] {
		case fbExceptStar:
			g.c.fail(pos, exceptStarExit)
		case fbLoop:
			return true
		}
	}
	return false
}

func (g *codegen) augTarget(t Expr) {
	switch x := t.(type) {
	case *Attribute:
		g.expr(x.Value)
	case *Subscript:
		g.expr(x.Value)
		g.expr(x.Slice)
	}
}

func (g *codegen) argAnnotations(a *Arguments) {
	for _, l := range [][]*Arg{a.Args, a.PosOnlyArgs} {
		for _, arg := range l {
			if arg.Annotation != nil {
				g.expr(arg.Annotation)
			}
		}
	}
	if a.Vararg != nil && a.Vararg.Annotation != nil {
		if s, ok := a.Vararg.Annotation.(*Starred); ok {
			// *args: *Ts
			g.expr(s.Value)
		} else {
			g.expr(a.Vararg.Annotation)
		}
	}
	for _, arg := range a.KwOnlyArgs {
		if arg.Annotation != nil {
			g.expr(arg.Annotation)
		}
	}
	if a.Kwarg != nil && a.Kwarg.Annotation != nil {
		g.expr(a.Kwarg.Annotation)
	}
}

func (g *codegen) typeParams(tps []TypeParam) {
	for i := range tps {
		tp := &tps[i]
		if tp.Bound != nil {
			g.enterUnit(unitFunction, &scope{kind: typeVarBoundBlock})
			g.expr(tp.Bound)
			g.exitUnit()
		}
		g.forbidden(tp.Pos, tp.Name, Store)
	}
}

func (g *codegen) try(x *Try) {
	if len(x.Finalbody) > 0 {
		g.push(fbOther, x.Pos)
		if len(x.Handlers) > 0 {
			g.tryExcept(x)
		} else {
			g.stmts(x.Body)
		}
		g.pop()
		g.stmts(x.Finalbody)
		g.push(fbOther, x.Pos)
		g.stmts(x.Finalbody)
		g.pop()
		return
	}
	g.tryExcept(x)
}

func (g *codegen) tryExcept(x *Try) {
	g.push(fbOther, x.Pos)
	g.stmts(x.Body)
	g.pop()
	g.stmts(x.Orelse)
	if x.IsStar {
		g.push(fbExceptStar, x.Pos)
	} else {
		g.push(fbOther, x.Pos)
	}
	for i, h := range x.Handlers {
		if h.Type == nil && i < len(x.Handlers)-1 {
			g.c.fail(h.Pos, "default 'except:' must be last")
		}
		if h.Type != nil {
			g.expr(h.Type)
		}
		if h.Name != "" {
			g.forbidden(h.Pos, h.Name, Store)
		}
		g.push(fbOther, h.Pos)
		g.stmts(h.Body)
		g.pop()
	}
	g.pop()
}

func (g *codegen) callArgs(args []Expr, kws []*Keyword) {
	// CPython reports the first keyword (in order) that has a repeat,
	// at that repeat's first occurrence after it.
	count := map[string]int{}
	for _, k := range kws {
		if k.Arg != "" {
			count[k.Arg]++
		}
	}
	for i, k := range kws {
		if k.Arg == "" {
			continue
		}
		g.forbidden(k.Pos, k.Arg, Store)
		if count[k.Arg] < 2 {
			continue
		}
		for _, o := range kws[i+1:] {
			if o.Arg == k.Arg {
				g.c.fail(o.Pos, "keyword argument repeated: "+k.Arg)
			}
		}
	}
	for _, a := range args {
		if s, ok := a.(*Starred); ok {
			g.expr(s.Value)
			continue
		}
		g.expr(a)
	}
	for _, k := range kws {
		g.expr(k.Value)
	}
}

// elts compiles the elements of a display or target list, where starred
// elements are allowed.
func (g *codegen) elts(l []Expr, ctx Ctx, pos Pos) {
	if ctx == Store {
		seen := false
		for i, e := range l {
			if _, ok := e.(*Starred); ok {
				if seen {
					g.c.fail(pos, "multiple starred expressions in assignment")
				}
				if i >= 1<<8 || len(l)-i-1 >= math.MaxInt32>>8 {
					g.c.fail(pos, "too many expressions in star-unpacking assignment")
				}
				seen = true
			}
		}
	}
	for _, e := range l {
		if s, ok := e.(*Starred); ok {
			g.expr(s.Value)
			continue
		}
		g.expr(e)
	}
}

func (g *codegen) expr(e Expr) {
	g.c.enterDepth()
	defer func() { g.c.depth-- }()
	switch x := e.(type) {
	case *NamedExpr:
		g.expr(x.Value)
		g.expr(x.Target)
	case *BoolOp:
		g.exprs(x.Values)
	case *BinOp:
		g.expr(x.Left)
		g.expr(x.Right)
	case *UnaryOp:
		g.expr(x.Operand)
	case *Lambda:
		g.checkDebugArgs(x.Args)
		g.exprs(x.Args.Defaults)
		g.exprs(x.Args.KwDefaults)
		g.enterUnit(unitLambda, g.childScope(x))
		g.expr(x.Body)
		g.exitUnit()
	case *IfExp:
		g.expr(x.Test)
		g.expr(x.Body)
		g.expr(x.Orelse)
	case *Dict:
		for i, k := range x.Keys {
			if k != nil {
				g.expr(k)
			}
			g.expr(x.Values[i])
		}
	case *Set:
		g.elts(x.Elts, Load, x.Pos)
	case *GeneratorExp:
		g.comprehension(x, x.Pos, genExp, x.Generators, x.Elt, nil)
	case *ListComp:
		g.comprehension(x, x.Pos, listComp, x.Generators, x.Elt, nil)
	case *SetComp:
		g.comprehension(x, x.Pos, setComp, x.Generators, x.Elt, nil)
	case *DictComp:
		g.comprehension(x, x.Pos, dictComp, x.Generators, x.Key, x.Value)
	case *Yield:
		if !g.isFunctionLike() {
			g.c.fail(x.Pos, "'yield' outside function")
		}
		if x.Value != nil {
			g.expr(x.Value)
		}
	case *YieldFrom:
		if !g.isFunctionLike() {
			g.c.fail(x.Pos, "'yield' outside function")
		}
		if g.u.kind == unitAsyncFunction {
			g.c.fail(x.Pos, "'yield from' inside async function")
		}
		g.expr(x.Value)
	case *Await:
		if !g.isFunctionLike() {
			g.c.fail(x.Pos, "'await' outside function")
		}
		if g.u.kind != unitAsyncFunction && g.u.kind != unitComprehension {
			g.c.fail(x.Pos, "'await' outside async function")
		}
		g.expr(x.Value)
	case *Compare:
		g.expr(x.Left)
		g.exprs(x.Comparators)
	case *Call:
		g.expr(x.Func)
		g.callArgs(x.Args, x.Keywords)
	case *FormattedValue:
		g.expr(x.Value)
		if x.FormatSpec != nil {
			g.expr(x.FormatSpec)
		}
	case *JoinedStr:
		g.exprs(x.Values)
	case *Attribute:
		g.expr(x.Value)
		if x.Ctx == Store {
			g.forbidden(x.Pos, x.Attr, Store)
		}
	case *Subscript:
		g.expr(x.Value)
		if t, ok := x.Slice.(*Tuple); ok {
			g.elts(t.Elts, Load, t.Pos)
		} else {
			g.expr(x.Slice)
		}
	case *Starred:
		if x.Ctx == Store {
			g.c.fail(x.Pos, "starred assignment target must be in a list or tuple")
		}
		g.c.fail(x.Pos, "can't use starred expression here")
	case *Name:
		g.forbidden(x.Pos, x.ID, x.Ctx)
	case *List:
		g.elts(x.Elts, x.Ctx, x.Pos)
	case *Tuple:
		g.elts(x.Elts, x.Ctx, x.Pos)
	case *Slice:
		if x.Lower != nil {
			g.expr(x.Lower)
		}
		if x.Upper != nil {
			g.expr(x.Upper)
		}
		if x.Step != nil {
			g.expr(x.Step)
		}
	}
}

func (g *codegen) comprehension(e Expr, pos Pos, kind compKind, gens []*Comprehension, elt, value Expr) {
	sc := g.childScope(e)
	outerKind := g.u.kind
	g.expr(gens[0].Iter)
	if sc != nil && sc.coroutine && kind != genExp && outerKind != unitAsyncFunction && outerKind != unitComprehension {
		g.c.fail(pos, "asynchronous comprehension outside of an asynchronous function")
	}
	g.enterUnit(unitComprehension, sc)
	for i, gen := range gens {
		if i > 0 {
			g.expr(gen.Iter)
		}
		g.expr(gen.Target)
		g.exprs(gen.Ifs)
	}
	if value != nil {
		g.expr(elt)
		g.expr(value)
	} else {
		g.expr(elt)
	}
	g.exitUnit()
}

// Match statements.

type patternCtx struct {
	stores           []string
	stored           map[string]bool // the names of stores
	allowIrrefutable bool
}

func (pc *patternCtx) has(name string) bool { return pc.stored[name] }

func (pc *patternCtx) add(name string) {
	pc.stores = append(pc.stores, name)
	if pc.stored == nil {
		pc.stored = map[string]bool{}
	}
	pc.stored[name] = true
}

func (g *codegen) match(m *Match) {
	g.expr(m.Subject)
	n := len(m.Cases)
	hasDefault := n > 1 && isWildcard(m.Cases[n-1].Pattern)
	for i := 0; i < n-boolInt(hasDefault); i++ {
		c := m.Cases[i]
		pc := &patternCtx{allowIrrefutable: c.Guard != nil || i == n-1}
		g.pattern(c.Pattern, pc)
		if c.Guard != nil {
			g.expr(c.Guard)
		}
		g.stmts(c.Body)
	}
	if hasDefault {
		c := m.Cases[n-1]
		if c.Guard != nil {
			g.expr(c.Guard)
		}
		g.stmts(c.Body)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isWildcard(p Pattern) bool {
	a, ok := p.(*MatchAs)
	return ok && a.Pattern == nil && a.Name == ""
}

func (g *codegen) storeName(pos Pos, name string, pc *patternCtx) {
	if name == "" {
		return
	}
	g.forbidden(pos, name, Store)
	if pc.has(name) {
		g.c.fail(pos, "multiple assignments to name "+pyRepr(name)+" in pattern")
	}
	pc.add(name)
}

func (g *codegen) subpattern(p Pattern, pc *patternCtx) {
	allow := pc.allowIrrefutable
	pc.allowIrrefutable = true
	g.pattern(p, pc)
	pc.allowIrrefutable = allow
}

func (g *codegen) pattern(p Pattern, pc *patternCtx) {
	g.c.enterDepth()
	defer func() { g.c.depth-- }()
	switch x := p.(type) {
	case *MatchValue:
		v := foldConstant(x.Value)
		switch v.(type) {
		case *Constant, *Attribute:
		default:
			g.c.fail(x.Pos, "patterns may only match literals and attribute lookups")
		}
		g.expr(x.Value)
	case *MatchSingleton:
	case *MatchSequence:
		star := -1
		for i, q := range x.Patterns {
			if _, ok := q.(*MatchStar); ok {
				if star >= 0 {
					g.c.fail(x.Pos, "multiple starred names in sequence pattern")
				}
				star = i
			}
		}
		for _, q := range x.Patterns {
			g.subpattern(q, pc)
		}
	case *MatchStar:
		g.storeName(x.Pos, x.Name, pc)
	case *MatchMapping:
		seen := map[any]bool{}
		for _, k := range x.Keys {
			kv := foldConstant(k)
			if c, ok := kv.(*Constant); ok {
				key := constKey(c.Value)
				if seen[key] {
					g.c.fail(x.Pos, "mapping pattern checks duplicate key ("+constRepr(c.Value)+")")
				}
				seen[key] = true
			} else if _, ok := kv.(*Attribute); !ok {
				g.c.fail(x.Pos, "mapping pattern keys may only match literals and attribute lookups")
			}
			g.expr(k)
		}
		for _, q := range x.Patterns {
			g.subpattern(q, pc)
		}
		if x.Rest != "" {
			g.storeName(x.Pos, x.Rest, pc)
		}
	case *MatchClass:
		count := map[string]int{}
		for _, a := range x.KwdAttrs {
			count[a]++
		}
		for i, a := range x.KwdAttrs {
			g.forbidden(x.KwdPatterns[i].Position(), a, Store)
			if count[a] < 2 {
				continue
			}
			for j := i + 1; j < len(x.KwdAttrs); j++ {
				if x.KwdAttrs[j] == a {
					g.c.fail(x.KwdPatterns[j].Position(), "attribute name repeated in class pattern: "+a)
				}
			}
		}
		g.expr(x.Cls)
		for _, q := range x.Patterns {
			g.subpattern(q, pc)
		}
		for _, q := range x.KwdPatterns {
			g.subpattern(q, pc)
		}
	case *MatchAs:
		if x.Pattern == nil {
			if !pc.allowIrrefutable {
				if x.Name != "" {
					g.c.fail(x.Pos, "name capture "+pyRepr(x.Name)+" makes remaining patterns unreachable")
				}
				g.c.fail(x.Pos, "wildcard makes remaining patterns unreachable")
			}
			g.storeName(x.Pos, x.Name, pc)
			return
		}
		g.pattern(x.Pattern, pc)
		g.storeName(x.Pos, x.Name, pc)
	case *MatchOr:
		old, oldSet := pc.stores, pc.stored
		allow := pc.allowIrrefutable
		var control []string
		var controlSet map[string]bool
		for i, alt := range x.Patterns {
			pc.stores, pc.stored = nil, nil
			pc.allowIrrefutable = i == len(x.Patterns)-1 && allow
			g.pattern(alt, pc)
			if i == 0 {
				control, controlSet = pc.stores, pc.stored
				continue
			}
			if len(pc.stores) != len(control) {
				g.c.fail(x.Pos, "alternative patterns bind different names")
			}
			for _, name := range pc.stores {
				if !controlSet[name] {
					g.c.fail(x.Pos, "alternative patterns bind different names")
				}
			}
		}
		pc.stores, pc.stored = old, oldSet
		pc.allowIrrefutable = allow
		for _, name := range control {
			if pc.has(name) {
				g.c.fail(x.Pos, "multiple assignments to name "+pyRepr(name)+" in pattern")
			}
			pc.add(name)
		}
	}
}

// foldConstant folds the constant expressions a pattern may hold (-1,
// 1+2j) as CPython's AST optimizer does.
func foldConstant(e Expr) Expr {
	switch x := e.(type) {
	case *UnaryOp:
		if c, ok := foldConstant(x.Operand).(*Constant); ok && x.Op == USub {
			switch v := c.Value.(type) {
			case int64:
				if v != math.MinInt64 {
					return &Constant{Pos: x.Pos, Value: -v}
				}
				return &Constant{Pos: x.Pos, Value: new(big.Int).Neg(big.NewInt(v))}
			case *big.Int:
				return &Constant{Pos: x.Pos, Value: new(big.Int).Neg(v)}
			case float64:
				return &Constant{Pos: x.Pos, Value: -v}
			case complex128:
				return &Constant{Pos: x.Pos, Value: -v}
			}
		}
	case *BinOp:
		l, lok := foldConstant(x.Left).(*Constant)
		r, rok := x.Right.(*Constant)
		if lok && rok {
			im, ok := r.Value.(complex128)
			if !ok {
				return e
			}
			re := toComplex(l.Value)
			if x.Op == Sub {
				im = -im
			}
			return &Constant{Pos: x.Pos, Value: re + im}
		}
	}
	return e
}

func toComplex(v any) complex128 {
	switch x := v.(type) {
	case int64:
		return complex(float64(x), 0)
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return complex(f, 0)
	case float64:
		return complex(x, 0)
	case complex128:
		return x
	}
	return 0
}

// constKey maps the constants a mapping pattern's keys may be to values
// equal as Go map keys when Python's == holds (numbers compare across
// types, True == 1; a big int beyond float precision keeps its digits).
func constKey(v any) any {
	switch x := v.(type) {
	case *big.Int:
		if f, acc := new(big.Float).SetInt(x).Float64(); acc == big.Exact {
			return complex(f, 0)
		}
		return "int:" + x.String()
	case string:
		return "str:" + x
	case Bytes:
		return "bytes:" + string(x)
	case NoneType:
		return "None"
	case EllipsisType:
		return "..."
	case int64:
		if f := float64(x); f < 1<<63 && int64(f) == x {
			return complex(f, 0)
		}
		return "int:" + strconv.FormatInt(x, 10)
	}
	if n, ok := numeric(v); ok {
		return n
	}
	return v
}

func numeric(v any) (complex128, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int64, *big.Int, float64, complex128:
		return toComplex(x), true
	}
	return 0, false
}
