package syntax

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Dump returns the text CPython 3.12's ast.dump(node) gives for the same
// tree (annotated fields, no attributes, no indentation). n may be a
// *Module, a Stmt, an Expr, a Pattern or one of the other node types.
func Dump(n any) string {
	d := dumper{}
	d.node(n)
	return d.b.String()
}

// DumpPos is Dump with positions: ast.dump(node, include_attributes=True).
func DumpPos(n any) string {
	d := dumper{pos: true}
	d.node(n)
	return d.b.String()
}

type dumper struct {
	b     strings.Builder
	pos   bool
	first bool // no field written yet in the current node
}

func (d *dumper) open(name string) {
	d.b.WriteString(name)
	d.b.WriteByte('(')
	d.first = true
}

func (d *dumper) sep(field string) {
	if !d.first {
		d.b.WriteString(", ")
	}
	d.first = false
	d.b.WriteString(field)
	d.b.WriteByte('=')
}

// close ends a node, writing its position if asked.
func (d *dumper) close(p *Pos) {
	if d.pos && p != nil {
		d.sep("lineno")
		d.b.WriteString(strconv.Itoa(p.Line))
		d.sep("col_offset")
		d.b.WriteString(strconv.Itoa(p.Col))
		d.sep("end_lineno")
		d.b.WriteString(strconv.Itoa(p.EndLine))
		d.sep("end_col_offset")
		d.b.WriteString(strconv.Itoa(p.EndCol))
	}
	d.b.WriteByte(')')
	d.first = false
}

func (d *dumper) field(name string, v any) {
	d.sep(name)
	d.node(v)
}

// opt writes an optional field, omitted when nil (as ast.dump omits None
// for optional fields).
func (d *dumper) optExpr(name string, e Expr) {
	if e != nil {
		d.field(name, e)
	}
}

func (d *dumper) optStr(name, s string) {
	if s != "" {
		d.sep(name)
		d.b.WriteString(pyRepr(s))
	}
}

func (d *dumper) str(name, s string) {
	d.sep(name)
	d.b.WriteString(pyRepr(s))
}

func (d *dumper) integer(name string, v int) {
	d.sep(name)
	d.b.WriteString(strconv.Itoa(v))
}

func (d *dumper) boolInt(name string, v bool) {
	d.sep(name)
	if v {
		d.b.WriteByte('1')
	} else {
		d.b.WriteByte('0')
	}
}

func (d *dumper) stmts(name string, l []Stmt) {
	d.sep(name)
	d.b.WriteByte('[')
	for i, s := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		d.node(s)
	}
	d.b.WriteByte(']')
}

func (d *dumper) exprs(name string, l []Expr) {
	d.sep(name)
	d.b.WriteByte('[')
	for i, e := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		if e == nil {
			d.b.WriteString("None")
		} else {
			d.node(e)
		}
	}
	d.b.WriteByte(']')
}

func (d *dumper) patterns(name string, l []Pattern) {
	d.sep(name)
	d.b.WriteByte('[')
	for i, e := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		d.node(e)
	}
	d.b.WriteByte(']')
}

func (d *dumper) strs(name string, l []string) {
	d.sep(name)
	d.b.WriteByte('[')
	for i, s := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		d.b.WriteString(pyRepr(s))
	}
	d.b.WriteByte(']')
}

func (d *dumper) typeParams(l []TypeParam) {
	d.sep("type_params")
	d.b.WriteByte('[')
	for i := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		tp := &l[i]
		d.open(tp.Kind)
		d.str("name", tp.Name)
		d.optExpr("bound", tp.Bound)
		d.close(&tp.Pos)
	}
	d.b.WriteByte(']')
}

func ctxName(c Ctx) string {
	switch c {
	case Store:
		return "Store()"
	case Del:
		return "Del()"
	}
	return "Load()"
}

var operatorNames = [...]string{"Add()", "Sub()", "Mult()", "MatMult()", "Div()", "Mod()", "Pow()", "LShift()", "RShift()", "BitOr()", "BitXor()", "BitAnd()", "FloorDiv()"}
var unaryNames = [...]string{"Invert()", "Not()", "UAdd()", "USub()"}
var cmpNames = [...]string{"Eq()", "NotEq()", "Lt()", "LtE()", "Gt()", "GtE()", "Is()", "IsNot()", "In()", "NotIn()"}

func (d *dumper) raw(name, text string) {
	d.sep(name)
	d.b.WriteString(text)
}

func (d *dumper) node(n any) {
	switch x := n.(type) {
	case nil:
		d.b.WriteString("None")
	case *Module:
		d.open("Module")
		d.stmts("body", x.Body)
		d.raw("type_ignores", "[]")
		d.close(nil)
	case *FunctionDef:
		if x.IsAsync {
			d.open("AsyncFunctionDef")
		} else {
			d.open("FunctionDef")
		}
		d.str("name", x.Name)
		d.field("args", x.Args)
		d.stmts("body", x.Body)
		d.exprs("decorator_list", x.DecoratorList)
		d.optExpr("returns", x.Returns)
		d.typeParams(x.TypeParams)
		d.close(&x.Pos)
	case *ClassDef:
		d.open("ClassDef")
		d.str("name", x.Name)
		d.exprs("bases", x.Bases)
		d.sep("keywords")
		d.b.WriteByte('[')
		for i, k := range x.Keywords {
			if i > 0 {
				d.b.WriteString(", ")
			}
			d.node(k)
		}
		d.b.WriteByte(']')
		d.stmts("body", x.Body)
		d.exprs("decorator_list", x.DecoratorList)
		d.typeParams(x.TypeParams)
		d.close(&x.Pos)
	case *Return:
		d.open("Return")
		d.optExpr("value", x.Value)
		d.close(&x.Pos)
	case *Delete:
		d.open("Delete")
		d.exprs("targets", x.Targets)
		d.close(&x.Pos)
	case *Assign:
		d.open("Assign")
		d.exprs("targets", x.Targets)
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *TypeAlias:
		d.open("TypeAlias")
		d.field("name", x.Name)
		d.typeParams(x.TypeParams)
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *AugAssign:
		d.open("AugAssign")
		d.field("target", x.Target)
		d.raw("op", operatorNames[x.Op])
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *AnnAssign:
		d.open("AnnAssign")
		d.field("target", x.Target)
		d.field("annotation", x.Annotation)
		d.optExpr("value", x.Value)
		d.boolInt("simple", x.Simple)
		d.close(&x.Pos)
	case *For:
		if x.IsAsync {
			d.open("AsyncFor")
		} else {
			d.open("For")
		}
		d.field("target", x.Target)
		d.field("iter", x.Iter)
		d.stmts("body", x.Body)
		d.stmts("orelse", x.Orelse)
		d.close(&x.Pos)
	case *While:
		d.open("While")
		d.field("test", x.Test)
		d.stmts("body", x.Body)
		d.stmts("orelse", x.Orelse)
		d.close(&x.Pos)
	case *If:
		d.open("If")
		d.field("test", x.Test)
		d.stmts("body", x.Body)
		d.stmts("orelse", x.Orelse)
		d.close(&x.Pos)
	case *With:
		if x.IsAsync {
			d.open("AsyncWith")
		} else {
			d.open("With")
		}
		d.sep("items")
		d.b.WriteByte('[')
		for i, it := range x.Items {
			if i > 0 {
				d.b.WriteString(", ")
			}
			d.node(it)
		}
		d.b.WriteByte(']')
		d.stmts("body", x.Body)
		d.close(&x.Pos)
	case *Match:
		d.open("Match")
		d.field("subject", x.Subject)
		d.sep("cases")
		d.b.WriteByte('[')
		for i, c := range x.Cases {
			if i > 0 {
				d.b.WriteString(", ")
			}
			d.node(c)
		}
		d.b.WriteByte(']')
		d.close(&x.Pos)
	case *Raise:
		d.open("Raise")
		d.optExpr("exc", x.Exc)
		d.optExpr("cause", x.Cause)
		d.close(&x.Pos)
	case *Try:
		if x.IsStar {
			d.open("TryStar")
		} else {
			d.open("Try")
		}
		d.stmts("body", x.Body)
		d.sep("handlers")
		d.b.WriteByte('[')
		for i, h := range x.Handlers {
			if i > 0 {
				d.b.WriteString(", ")
			}
			d.node(h)
		}
		d.b.WriteByte(']')
		d.stmts("orelse", x.Orelse)
		d.stmts("finalbody", x.Finalbody)
		d.close(&x.Pos)
	case *Assert:
		d.open("Assert")
		d.field("test", x.Test)
		d.optExpr("msg", x.Msg)
		d.close(&x.Pos)
	case *Import:
		d.open("Import")
		d.aliases(x.Names)
		d.close(&x.Pos)
	case *ImportFrom:
		d.open("ImportFrom")
		d.optStr("module", x.Module)
		d.aliases(x.Names)
		d.integer("level", x.Level)
		d.close(&x.Pos)
	case *Global:
		d.open("Global")
		d.strs("names", x.Names)
		d.close(&x.Pos)
	case *Nonlocal:
		d.open("Nonlocal")
		d.strs("names", x.Names)
		d.close(&x.Pos)
	case *ExprStmt:
		d.open("Expr")
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *Pass:
		d.open("Pass")
		d.close(&x.Pos)
	case *Break:
		d.open("Break")
		d.close(&x.Pos)
	case *Continue:
		d.open("Continue")
		d.close(&x.Pos)

	case *BoolOp:
		d.open("BoolOp")
		if x.Op == And {
			d.raw("op", "And()")
		} else {
			d.raw("op", "Or()")
		}
		d.exprs("values", x.Values)
		d.close(&x.Pos)
	case *NamedExpr:
		d.open("NamedExpr")
		d.field("target", x.Target)
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *BinOp:
		d.open("BinOp")
		d.field("left", x.Left)
		d.raw("op", operatorNames[x.Op])
		d.field("right", x.Right)
		d.close(&x.Pos)
	case *UnaryOp:
		d.open("UnaryOp")
		d.raw("op", unaryNames[x.Op])
		d.field("operand", x.Operand)
		d.close(&x.Pos)
	case *Lambda:
		d.open("Lambda")
		d.field("args", x.Args)
		d.field("body", x.Body)
		d.close(&x.Pos)
	case *IfExp:
		d.open("IfExp")
		d.field("test", x.Test)
		d.field("body", x.Body)
		d.field("orelse", x.Orelse)
		d.close(&x.Pos)
	case *Dict:
		d.open("Dict")
		d.exprs("keys", x.Keys)
		d.exprs("values", x.Values)
		d.close(&x.Pos)
	case *Set:
		d.open("Set")
		d.exprs("elts", x.Elts)
		d.close(&x.Pos)
	case *ListComp:
		d.open("ListComp")
		d.field("elt", x.Elt)
		d.comps(x.Generators)
		d.close(&x.Pos)
	case *SetComp:
		d.open("SetComp")
		d.field("elt", x.Elt)
		d.comps(x.Generators)
		d.close(&x.Pos)
	case *DictComp:
		d.open("DictComp")
		d.field("key", x.Key)
		d.field("value", x.Value)
		d.comps(x.Generators)
		d.close(&x.Pos)
	case *GeneratorExp:
		d.open("GeneratorExp")
		d.field("elt", x.Elt)
		d.comps(x.Generators)
		d.close(&x.Pos)
	case *Await:
		d.open("Await")
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *Yield:
		d.open("Yield")
		d.optExpr("value", x.Value)
		d.close(&x.Pos)
	case *YieldFrom:
		d.open("YieldFrom")
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *Compare:
		d.open("Compare")
		d.field("left", x.Left)
		d.sep("ops")
		d.b.WriteByte('[')
		for i, op := range x.Ops {
			if i > 0 {
				d.b.WriteString(", ")
			}
			d.b.WriteString(cmpNames[op])
		}
		d.b.WriteByte(']')
		d.exprs("comparators", x.Comparators)
		d.close(&x.Pos)
	case *Call:
		d.open("Call")
		d.field("func", x.Func)
		d.exprs("args", x.Args)
		d.sep("keywords")
		d.b.WriteByte('[')
		for i, k := range x.Keywords {
			if i > 0 {
				d.b.WriteString(", ")
			}
			d.node(k)
		}
		d.b.WriteByte(']')
		d.close(&x.Pos)
	case *FormattedValue:
		d.open("FormattedValue")
		d.field("value", x.Value)
		d.integer("conversion", x.Conversion)
		if x.FormatSpec != nil {
			d.field("format_spec", x.FormatSpec)
		}
		d.close(&x.Pos)
	case *JoinedStr:
		d.open("JoinedStr")
		d.exprs("values", x.Values)
		d.close(&x.Pos)
	case *Constant:
		d.open("Constant")
		d.raw("value", constRepr(x.Value))
		d.optStr("kind", x.Kind)
		d.close(&x.Pos)
	case *Attribute:
		d.open("Attribute")
		d.field("value", x.Value)
		d.str("attr", x.Attr)
		d.raw("ctx", ctxName(x.Ctx))
		d.close(&x.Pos)
	case *Subscript:
		d.open("Subscript")
		d.field("value", x.Value)
		d.field("slice", x.Slice)
		d.raw("ctx", ctxName(x.Ctx))
		d.close(&x.Pos)
	case *Starred:
		d.open("Starred")
		d.field("value", x.Value)
		d.raw("ctx", ctxName(x.Ctx))
		d.close(&x.Pos)
	case *Name:
		d.open("Name")
		d.str("id", x.ID)
		d.raw("ctx", ctxName(x.Ctx))
		d.close(&x.Pos)
	case *List:
		d.open("List")
		d.exprs("elts", x.Elts)
		d.raw("ctx", ctxName(x.Ctx))
		d.close(&x.Pos)
	case *Tuple:
		d.open("Tuple")
		d.exprs("elts", x.Elts)
		d.raw("ctx", ctxName(x.Ctx))
		d.close(&x.Pos)
	case *Slice:
		d.open("Slice")
		d.optExpr("lower", x.Lower)
		d.optExpr("upper", x.Upper)
		d.optExpr("step", x.Step)
		d.close(&x.Pos)

	case *Comprehension:
		d.open("comprehension")
		d.field("target", x.Target)
		d.field("iter", x.Iter)
		d.exprs("ifs", x.Ifs)
		d.boolInt("is_async", x.IsAsync)
		d.close(nil)
	case *ExceptHandler:
		d.open("ExceptHandler")
		d.optExpr("type", x.Type)
		d.optStr("name", x.Name)
		d.stmts("body", x.Body)
		d.close(&x.Pos)
	case *Arguments:
		d.open("arguments")
		d.args("posonlyargs", x.PosOnlyArgs)
		d.args("args", x.Args)
		if x.Vararg != nil {
			d.field("vararg", x.Vararg)
		}
		d.args("kwonlyargs", x.KwOnlyArgs)
		d.exprs("kw_defaults", x.KwDefaults)
		if x.Kwarg != nil {
			d.field("kwarg", x.Kwarg)
		}
		d.exprs("defaults", x.Defaults)
		d.close(nil)
	case *Arg:
		d.open("arg")
		d.str("arg", x.Arg)
		d.optExpr("annotation", x.Annotation)
		d.close(&x.Pos)
	case *Keyword:
		d.open("keyword")
		d.optStr("arg", x.Arg)
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *Alias:
		d.open("alias")
		d.str("name", x.Name)
		d.optStr("asname", x.Asname)
		d.close(&x.Pos)
	case *WithItem:
		d.open("withitem")
		d.field("context_expr", x.ContextExpr)
		d.optExpr("optional_vars", x.OptionalVars)
		d.close(nil)
	case *MatchCase:
		d.open("match_case")
		d.field("pattern", x.Pattern)
		d.optExpr("guard", x.Guard)
		d.stmts("body", x.Body)
		d.close(nil)

	case *MatchValue:
		d.open("MatchValue")
		d.field("value", x.Value)
		d.close(&x.Pos)
	case *MatchSingleton:
		d.open("MatchSingleton")
		d.raw("value", constRepr(x.Value))
		d.close(&x.Pos)
	case *MatchSequence:
		d.open("MatchSequence")
		d.patterns("patterns", x.Patterns)
		d.close(&x.Pos)
	case *MatchMapping:
		d.open("MatchMapping")
		d.exprs("keys", x.Keys)
		d.patterns("patterns", x.Patterns)
		d.optStr("rest", x.Rest)
		d.close(&x.Pos)
	case *MatchClass:
		d.open("MatchClass")
		d.field("cls", x.Cls)
		d.patterns("patterns", x.Patterns)
		d.strs("kwd_attrs", x.KwdAttrs)
		d.patterns("kwd_patterns", x.KwdPatterns)
		d.close(&x.Pos)
	case *MatchStar:
		d.open("MatchStar")
		d.optStr("name", x.Name)
		d.close(&x.Pos)
	case *MatchAs:
		d.open("MatchAs")
		if x.Pattern != nil {
			d.field("pattern", x.Pattern)
		}
		d.optStr("name", x.Name)
		d.close(&x.Pos)
	case *MatchOr:
		d.open("MatchOr")
		d.patterns("patterns", x.Patterns)
		d.close(&x.Pos)
	default:
		d.b.WriteString("?")
	}
}

func (d *dumper) aliases(l []*Alias) {
	d.sep("names")
	d.b.WriteByte('[')
	for i, a := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		d.node(a)
	}
	d.b.WriteByte(']')
}

func (d *dumper) comps(l []*Comprehension) {
	d.sep("generators")
	d.b.WriteByte('[')
	for i, c := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		d.node(c)
	}
	d.b.WriteByte(']')
}

func (d *dumper) args(name string, l []*Arg) {
	d.sep(name)
	d.b.WriteByte('[')
	for i, a := range l {
		if i > 0 {
			d.b.WriteString(", ")
		}
		d.node(a)
	}
	d.b.WriteByte(']')
}

// constRepr is Python's repr of a constant's value.
func constRepr(v any) string {
	switch x := v.(type) {
	case NoneType, nil:
		return "None"
	case EllipsisType:
		return "Ellipsis"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case *big.Int:
		return x.String()
	case float64:
		return FloatRepr(x)
	case complex128:
		return complexRepr(x)
	case string:
		return pyRepr(x)
	case Bytes:
		return bytesRepr(string(x))
	}
	return "?"
}

// FloatRepr is Python's repr of a float: the shortest string that reads
// back as the same value, in fixed notation when the exponent is in
// [-4, 16), else in scientific notation with a two-digit exponent.
func FloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := exp + 1
	var out string
	if -4 < decpt && decpt <= 16 {
		switch {
		case decpt <= 0:
			out = "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			out = digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			out = digits[:decpt] + "." + digits[decpt:]
		}
	} else {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		e := decpt - 1
		sign := "+"
		if e < 0 {
			sign = "-"
			e = -e
		}
		es := strconv.Itoa(e)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + sign + es
	}
	if neg {
		out = "-" + out
	}
	return out
}

func complexRepr(c complex128) string {
	re, im := real(c), imag(c)
	if re == 0 && !math.Signbit(re) {
		return trimDotZero(FloatRepr(im)) + "j"
	}
	sign := "+"
	if math.Signbit(im) {
		sign = "-"
		im = -im
	}
	return "(" + trimDotZero(FloatRepr(re)) + sign + trimDotZero(FloatRepr(im)) + "j)"
}

func trimDotZero(s string) string {
	return strings.TrimSuffix(s, ".0")
}

// pyRepr is Python's repr of a str. Surrogates, held in the generalized
// UTF-8 form, are shown escaped.
func pyRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch {
			case c == quote || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < ' ' || c == 0x7f:
				b.WriteString(`\x`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&15])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// A surrogate in generalized UTF-8?
			if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
				r = rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				size = 3
			}
		}
		if r >= 0xD800 && r <= 0xDFFF || r == utf8.RuneError && size == 1 || !isPrintable(r) {
			writeEscape(&b, r)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte(quote)
	return b.String()
}

const hexDigits = "0123456789abcdef"

func writeEscape(b *strings.Builder, r rune) {
	switch {
	case r < 0x100:
		b.WriteString(`\x`)
		b.WriteByte(hexDigits[r>>4&15])
		b.WriteByte(hexDigits[r&15])
	case r < 0x10000:
		b.WriteString(`\u`)
		for sh := 12; sh >= 0; sh -= 4 {
			b.WriteByte(hexDigits[r>>uint(sh)&15])
		}
	default:
		b.WriteString(`\U`)
		for sh := 28; sh >= 0; sh -= 4 {
			b.WriteByte(hexDigits[r>>uint(sh)&15])
		}
	}
}

// bytesRepr is Python's repr of a bytes value.
func bytesRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteString("b")
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < ' ' || c >= 0x7f:
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}
