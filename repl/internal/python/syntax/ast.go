// Package syntax reads Python 3.12 source: a tokenizer, a parser and the
// syntax tree it builds. The tree mirrors CPython's ast module node for
// node and field for field (Go names, CPython's meaning), so that Dump of a
// tree reads like ast.dump of CPython's and the two can be compared.
package syntax

// Pos is a node's position, as CPython's lineno, col_offset, end_lineno and
// end_col_offset: lines from 1, columns in UTF-8 bytes from 0.
type Pos struct {
	Line, Col       int
	EndLine, EndCol int
}

// Position returns p; every node embeds a Pos.
func (p Pos) Position() Pos { return p }

// Node is any node of the tree.
type Node interface{ Position() Pos }

// Stmt is a statement node.
type Stmt interface {
	Node
	stmt()
}

// Expr is an expression node.
type Expr interface {
	Node
	expr()
}

// Pattern is a pattern of a match statement's case.
type Pattern interface {
	Node
	pattern()
}

// Ctx is an expression's context, as CPython's Load, Store and Del.
type Ctx uint8

// Contexts of Name, Attribute, Subscript, Starred, List and Tuple.
const (
	Load Ctx = iota
	Store
	Del
)

// Module is a whole source file (a cell).
type Module struct {
	Body []Stmt
	// Warnings are the compiler's SyntaxWarnings, in source order.
	Warnings []Warning
}

// Statements.
type (
	// FunctionDef is def (IsAsync: async def, CPython's AsyncFunctionDef).
	FunctionDef struct {
		Pos
		Name          string
		Args          *Arguments
		Body          []Stmt
		DecoratorList []Expr
		Returns       Expr // nil if none
		TypeParams    []TypeParam
		IsAsync       bool
	}
	// ClassDef is class.
	ClassDef struct {
		Pos
		Name          string
		Bases         []Expr
		Keywords      []*Keyword
		Body          []Stmt
		DecoratorList []Expr
		TypeParams    []TypeParam
	}
	Return struct {
		Pos
		Value Expr // nil if none
	}
	Delete struct {
		Pos
		Targets []Expr
	}
	Assign struct {
		Pos
		Targets []Expr // a = b = v has two targets
		Value   Expr
	}
	// TypeAlias is `type X = ...` (3.12).
	TypeAlias struct {
		Pos
		Name       *Name
		TypeParams []TypeParam
		Value      Expr
	}
	AugAssign struct {
		Pos
		Target Expr
		Op     Operator
		Value  Expr
	}
	AnnAssign struct {
		Pos
		Target     Expr
		Annotation Expr
		Value      Expr // nil if none
		Simple     bool // target is a plain name, not parenthesized
	}
	// For is for (IsAsync: async for).
	For struct {
		Pos
		Target  Expr
		Iter    Expr
		Body    []Stmt
		Orelse  []Stmt
		IsAsync bool
	}
	While struct {
		Pos
		Test   Expr
		Body   []Stmt
		Orelse []Stmt
	}
	If struct {
		Pos
		Test   Expr
		Body   []Stmt
		Orelse []Stmt // elif is a nested If here, as in CPython
	}
	// With is with (IsAsync: async with).
	With struct {
		Pos
		Items   []*WithItem
		Body    []Stmt
		IsAsync bool
	}
	Match struct {
		Pos
		Subject Expr
		Cases   []*MatchCase
	}
	Raise struct {
		Pos
		Exc   Expr // nil for a bare raise
		Cause Expr // nil if no from
	}
	// Try is try (IsStar: try with except*, CPython's TryStar).
	Try struct {
		Pos
		Body      []Stmt
		Handlers  []*ExceptHandler
		Orelse    []Stmt
		Finalbody []Stmt
		IsStar    bool
	}
	Assert struct {
		Pos
		Test Expr
		Msg  Expr // nil if none
	}
	Import struct {
		Pos
		Names []*Alias
	}
	ImportFrom struct {
		Pos
		Module string // "" for from . import x
		Names  []*Alias
		Level  int
	}
	Global struct {
		Pos
		Names []string
	}
	Nonlocal struct {
		Pos
		Names []string
	}
	// ExprStmt is an expression statement (CPython's Expr).
	ExprStmt struct {
		Pos
		Value Expr
	}
	Pass     struct{ Pos }
	Break    struct{ Pos }
	Continue struct{ Pos }
)

// Expressions.
type (
	BoolOp struct {
		Pos
		Op     BoolOperator
		Values []Expr
	}
	// NamedExpr is :=.
	NamedExpr struct {
		Pos
		Target *Name
		Value  Expr
	}
	BinOp struct {
		Pos
		Left  Expr
		Op    Operator
		Right Expr
	}
	UnaryOp struct {
		Pos
		Op      UnaryOperator
		Operand Expr
	}
	Lambda struct {
		Pos
		Args *Arguments
		Body Expr
	}
	IfExp struct {
		Pos
		Test, Body, Orelse Expr
	}
	// Dict is a display; a nil key is a **mapping unpacking of its value.
	Dict struct {
		Pos
		Keys   []Expr
		Values []Expr
	}
	Set struct {
		Pos
		Elts []Expr
	}
	ListComp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	SetComp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	DictComp struct {
		Pos
		Key, Value Expr
		Generators []*Comprehension
	}
	GeneratorExp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	Await struct {
		Pos
		Value Expr
	}
	Yield struct {
		Pos
		Value Expr // nil for a bare yield
	}
	YieldFrom struct {
		Pos
		Value Expr
	}
	// Compare is a chain: Left Ops[0] Comparators[0] Ops[1] ...
	Compare struct {
		Pos
		Left        Expr
		Ops         []CmpOp
		Comparators []Expr
	}
	Call struct {
		Pos
		Func     Expr
		Args     []Expr // may hold *Starred for *args
		Keywords []*Keyword
	}
	// FormattedValue is one {field} of an f-string.
	FormattedValue struct {
		Pos
		Value      Expr
		Conversion int        // -1 none, 's', 'r' or 'a'
		FormatSpec *JoinedStr // nil if none
	}
	// JoinedStr is an f-string: Constant strings and FormattedValues.
	JoinedStr struct {
		Pos
		Values []Expr
	}
	// Constant is a literal; see Constant.Value for the Go types.
	Constant struct {
		Pos
		// Value is one of: None, Ellipsis, bool, int64, *big.Int (an int
		// that does not fit int64), float64, complex128 (imaginary
		// literals), string (str), Bytes (bytes).
		Value any
		Kind  string // "u" for a u"..." string, else ""
	}
	Attribute struct {
		Pos
		Value Expr
		Attr  string
		Ctx   Ctx
	}
	Subscript struct {
		Pos
		Value Expr
		Slice Expr // a *Slice, a *Tuple of slices and indexes, or any expression
		Ctx   Ctx
	}
	Starred struct {
		Pos
		Value Expr
		Ctx   Ctx
	}
	Name struct {
		Pos
		ID  string
		Ctx Ctx
	}
	List struct {
		Pos
		Elts []Expr
		Ctx  Ctx
	}
	Tuple struct {
		Pos
		Elts []Expr
		Ctx  Ctx
	}
	// Slice is lower:upper:step inside a subscript; each may be nil.
	Slice struct {
		Pos
		Lower, Upper, Step Expr
	}
)

// Values of Constant.Value beside Go's own types.
type (
	// NoneType is the type of None.
	NoneType struct{}
	// EllipsisType is the type of the literal ... (Ellipsis).
	EllipsisType struct{}
	// Bytes is a bytes literal's value.
	Bytes string
)

// None and Ellipsis as Constant values.
var (
	None     = NoneType{}
	Ellipsis = EllipsisType{}
)

// Parts of statements and expressions.
type (
	// Comprehension is one for ... in ... [if ...]* clause.
	Comprehension struct {
		Target  Expr
		Iter    Expr
		Ifs     []Expr
		IsAsync bool
	}
	// ExceptHandler is one except clause; Type nil for a bare except.
	ExceptHandler struct {
		Pos
		Type Expr
		Name string // "" if no as
		Body []Stmt
	}
	// Arguments is a parameter list. Defaults belong to the last
	// len(Defaults) of PosOnlyArgs+Args; KwDefaults parallels KwOnlyArgs
	// with nil where a keyword-only parameter has no default.
	Arguments struct {
		PosOnlyArgs []*Arg
		Args        []*Arg
		Vararg      *Arg // nil if none
		KwOnlyArgs  []*Arg
		KwDefaults  []Expr
		Kwarg       *Arg // nil if none
		Defaults    []Expr
	}
	Arg struct {
		Pos
		Arg        string
		Annotation Expr // nil if none
	}
	// Keyword is name=value in a call or class bases; Arg "" for **value.
	Keyword struct {
		Pos
		Arg   string
		Value Expr
	}
	Alias struct {
		Pos
		Name   string // dotted
		Asname string // "" if none
	}
	WithItem struct {
		ContextExpr  Expr
		OptionalVars Expr // nil if none
	}
	MatchCase struct {
		Pattern Pattern
		Guard   Expr // nil if none
		Body    []Stmt
	}
	// TypeParam is a 3.12 type parameter (TypeVar, ParamSpec or
	// TypeVarTuple by Kind).
	TypeParam struct {
		Pos
		Kind  string // "TypeVar", "ParamSpec", "TypeVarTuple"
		Name  string
		Bound Expr // TypeVar only; nil if none
	}
)

// Patterns.
type (
	MatchValue struct {
		Pos
		Value Expr
	}
	// MatchSingleton matches None, True or False (Value nil, true, false
	// as None, bool).
	MatchSingleton struct {
		Pos
		Value any
	}
	MatchSequence struct {
		Pos
		Patterns []Pattern
	}
	MatchMapping struct {
		Pos
		Keys     []Expr
		Patterns []Pattern
		Rest     string // "" if no **rest
	}
	MatchClass struct {
		Pos
		Cls         Expr
		Patterns    []Pattern
		KwdAttrs    []string
		KwdPatterns []Pattern
	}
	MatchStar struct {
		Pos
		Name string // "" for *_
	}
	// MatchAs is `pattern as name`, a capture (Pattern nil) or the
	// wildcard _ (both empty).
	MatchAs struct {
		Pos
		Pattern Pattern
		Name    string
	}
	MatchOr struct {
		Pos
		Patterns []Pattern
	}
)

// Operators, spelled as CPython's ast classes.
type (
	BoolOperator  uint8
	Operator      uint8
	UnaryOperator uint8
	CmpOp         uint8
)

const (
	And BoolOperator = iota
	Or
)

const (
	Add Operator = iota
	Sub
	Mult
	MatMult
	Div
	Mod
	Pow
	LShift
	RShift
	BitOr
	BitXor
	BitAnd
	FloorDiv
)

const (
	Invert UnaryOperator = iota
	Not
	UAdd
	USub
)

const (
	Eq CmpOp = iota
	NotEq
	Lt
	LtE
	Gt
	GtE
	Is
	IsNot
	In
	NotIn
)

func (*FunctionDef) stmt() {}
func (*ClassDef) stmt()    {}
func (*Return) stmt()      {}
func (*Delete) stmt()      {}
func (*Assign) stmt()      {}
func (*TypeAlias) stmt()   {}
func (*AugAssign) stmt()   {}
func (*AnnAssign) stmt()   {}
func (*For) stmt()         {}
func (*While) stmt()       {}
func (*If) stmt()          {}
func (*With) stmt()        {}
func (*Match) stmt()       {}
func (*Raise) stmt()       {}
func (*Try) stmt()         {}
func (*Assert) stmt()      {}
func (*Import) stmt()      {}
func (*ImportFrom) stmt()  {}
func (*Global) stmt()      {}
func (*Nonlocal) stmt()    {}
func (*ExprStmt) stmt()    {}
func (*Pass) stmt()        {}
func (*Break) stmt()       {}
func (*Continue) stmt()    {}

func (*BoolOp) expr()         {}
func (*NamedExpr) expr()      {}
func (*BinOp) expr()          {}
func (*UnaryOp) expr()        {}
func (*Lambda) expr()         {}
func (*IfExp) expr()          {}
func (*Dict) expr()           {}
func (*Set) expr()            {}
func (*ListComp) expr()       {}
func (*SetComp) expr()        {}
func (*DictComp) expr()       {}
func (*GeneratorExp) expr()   {}
func (*Await) expr()          {}
func (*Yield) expr()          {}
func (*YieldFrom) expr()      {}
func (*Compare) expr()        {}
func (*Call) expr()           {}
func (*FormattedValue) expr() {}
func (*JoinedStr) expr()      {}
func (*Constant) expr()       {}
func (*Attribute) expr()      {}
func (*Subscript) expr()      {}
func (*Starred) expr()        {}
func (*Name) expr()           {}
func (*List) expr()           {}
func (*Tuple) expr()          {}
func (*Slice) expr()          {}

func (*MatchValue) pattern()     {}
func (*MatchSingleton) pattern() {}
func (*MatchSequence) pattern()  {}
func (*MatchMapping) pattern()   {}
func (*MatchClass) pattern()     {}
func (*MatchStar) pattern()      {}
func (*MatchAs) pattern()        {}
func (*MatchOr) pattern()        {}
