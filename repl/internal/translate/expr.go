package translate

import (
	"regexp"
	"strings"
)

// keywords that end an operand of a comparison chain or start a new clause.
var boundaryWords = map[string]bool{
	"and": true, "or": true, "not": true, "if": true, "else": true, "for": true,
	"lambda": true, "return": true, "yield": true, "assert": true, "elif": true,
	"while": true, "del": true, "print": false, "async": true, "await": true,
	"raise": true, "from": true, "import": true, "as": true,
}

var reserved = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true, "finally": true,
	"for": true, "from": true, "global": true, "if": true, "import": true, "in": true,
	"is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true,
	"raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// xlator holds the state of one translation.
type xlator struct {
	src     string
	changed bool
	depth   int // recursion depth of nested f-string expressions
}

// matchBrackets returns, for each open bracket index in ts, the index of its
// closer (and vice versa); -1 for other tokens.
func matchBrackets(ts []*token) []int {
	m := make([]int, len(ts))
	var st []int
	for i, t := range ts {
		m[i] = -1
		if t.kind != kOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			st = append(st, i)
		case ")", "]", "}":
			if len(st) > 0 {
				o := st[len(st)-1]
				st = st[:len(st)-1]
				m[o], m[i] = i, o
			}
		}
	}
	return m
}

func isOp(t *token, s string) bool   { return t != nil && t.kind == kOp && t.text == s }
func isWord(t *token, s string) bool { return t != nil && t.kind == kName && t.text == s }

// isValueEnd reports whether t ends an operand (so a following '(' is a call
// and a following '[' a subscript).
func isValueEnd(t *token) bool {
	if t == nil {
		return false
	}
	switch t.kind {
	case kName:
		return !reserved[t.text] || t.text == "None" || t.text == "True" || t.text == "False"
	case kNumber, kString:
		return true
	case kOp:
		return t.text == ")" || t.text == "]" || t.text == "}"
	}
	return false
}

// rewriteExpr applies the expression-level rewrites to the tokens of one
// logical line (or of one f-string field).
func (x *xlator) rewriteExpr(ts []*token) error {
	for _, t := range ts {
		switch t.kind {
		case kNumber:
			if strings.Contains(t.text, "_") {
				t.setOut(strings.ReplaceAll(t.text, "_", ""))
				x.changed = true
			}
		case kString:
			if err := x.rewriteString(t); err != nil {
				return err
			}
		}
	}
	x.rewriteLoad(ts)
	x.rewriteConcat(ts)
	x.rewriteFormatCalls(ts)
	x.rewriteMethods(ts)
	x.rewritePow(ts)
	x.rewritePercent(ts)
	x.rewriteIs(ts)
	x.rewriteGroups(ts)
	// the rewrites below copy rendered operands: they run last
	x.rewriteChains(ts)
	x.rewriteStarArgs(ts)
	x.rewriteUnpackDisplays(ts)
	return nil
}

// rewriteIs turns "is not" into "!=" and "is" into "==".
func (x *xlator) rewriteIs(ts []*token) {
	for i, t := range ts {
		if !isWord(t, "is") {
			continue
		}
		x.changed = true
		if i+1 < len(ts) && isWord(ts[i+1], "not") {
			t.setOut("!=")
			ts[i+1].setOut("")
			ts[i+1].skipGap = !strings.Contains(x.src[t.end:ts[i+1].off], "\n")
		} else {
			t.setOut("==")
		}
	}
}

// rewriteConcat joins adjacent string literals with '+'.
func (x *xlator) rewriteConcat(ts []*token) {
	for i := 0; i < len(ts); i++ {
		if ts[i].kind != kString || i+1 >= len(ts) || ts[i+1].kind != kString {
			continue
		}
		j := i
		for j+1 < len(ts) && ts[j+1].kind == kString {
			j++
			ts[j].pre = "+ " + ts[j].pre
		}
		ts[i].pre = "(" + ts[i].pre
		ts[j].post += ")"
		x.changed = true
		i = j
	}
}

// rewriteFormatCalls turns "literal".format(...) into _rlm_format(literal, ...)
// when the template uses what Starlark's str.format lacks.
func (x *xlator) rewriteFormatCalls(ts []*token) {
	for i := 0; i+3 < len(ts); i++ {
		t := ts[i]
		if t.kind != kString || t.str == nil || t.str.f || t.str.b || !isOp(ts[i+1], ".") || !isWord(ts[i+2], "format") || !isOp(ts[i+3], "(") {
			continue
		}
		if i > 0 && ts[i-1].kind == kString {
			continue // part of an implicit concatenation; rare
		}
		if !needsPyFormat(t.str.body) {
			continue
		}
		x.changed = true
		t.pre = "_rlm_format(" + t.pre
		ts[i+1].setOut("")
		ts[i+2].setOut("")
		ts[i+2].skipGap = true
		ts[i+1].skipGap = true
		ts[i+3].skipGap = true
		if i+4 < len(ts) && isOp(ts[i+4], ")") {
			ts[i+3].setOut("")
		} else {
			ts[i+3].setOut(", ")
			if i+4 < len(ts) && !strings.Contains(x.src[ts[i+3].end:ts[i+4].off], "\n") {
				ts[i+4].skipGap = true
			}
		}
	}
}

// needsPyFormat reports whether a str.format template has a field with a
// format spec, an attribute/index access or an !a conversion.
func needsPyFormat(body string) bool {
	for i := 0; i < len(body); i++ {
		if body[i] == '{' {
			if i+1 < len(body) && body[i+1] == '{' {
				i++
				continue
			}
			j := strings.IndexByte(body[i:], '}')
			if j < 0 {
				return false
			}
			f := body[i+1 : i+j]
			if strings.ContainsAny(f, ":.[") || strings.Contains(f, "!a") {
				return true
			}
			i += j
		}
	}
	return false
}

// rewriteGroups turns generator expressions into list comprehensions and set
// displays into set([...]).
func (x *xlator) rewriteGroups(ts []*token) {
	m := matchBrackets(ts)
	for i, t := range ts {
		if t.kind != kOp || m[i] < 0 || m[i] < i {
			continue
		}
		c := m[i]
		switch t.text {
		case "(":
			if !hasTopLevel(ts, m, i+1, c, func(u *token) bool { return isWord(u, "for") }) {
				continue
			}
			x.changed = true
			forAt := i + 1
			for forAt < c && !isWord(ts[forAt], "for") {
				if m[forAt] > forAt {
					forAt = m[forAt]
				}
				forAt++
			}
			if i > 0 && isValueEnd(ts[i-1]) && !hasTopLevel(ts, m, i+1, forAt, func(u *token) bool { return isOp(u, ",") }) {
				t.post += "["
				ts[c].pre = "]" + ts[c].pre
			} else if i > 0 && isValueEnd(ts[i-1]) {
				continue // f(a, x for x in y) is not valid Python
			} else {
				t.setOut("[")
				ts[c].setOut("]")
			}
		case "{":
			if c == i+1 {
				continue
			}
			if hasTopLevel(ts, m, i+1, c, func(u *token) bool { return isOp(u, ":") || isOp(u, "**") }) {
				continue
			}
			x.changed = true
			t.setOut("set([")
			ts[c].setOut("])")
		}
	}
}

// hasTopLevel reports whether a token in ts[from:to] at bracket depth 0
// (relative to from) satisfies f.
func hasTopLevel(ts []*token, m []int, from, to int, f func(*token) bool) bool {
	for k := from; k < to; k++ {
		if m[k] > k {
			k = m[k]
			continue
		}
		if f(ts[k]) {
			return true
		}
	}
	return false
}

var cmpOps = map[string]bool{"<": true, ">": true, "==": true, ">=": true, "<=": true, "!=": true}

// rewriteChains rewrites a < b < c into (a < b and b < c).
func (x *xlator) rewriteChains(ts []*token) {
	m := matchBrackets(ts)
	// process each bracket level: the whole line, then each group
	x.chainLevel(ts, m, 0, len(ts))
	for i := range ts {
		if m[i] > i {
			x.chainLevel(ts, m, i+1, m[i])
		}
	}
}

func (x *xlator) chainLevel(ts []*token, m []int, from, to int) {
	segStart := from
	var ops [][2]int // [first, last] token index of each comparison operator
	flush := func(end int) {
		if len(ops) >= 2 {
			x.chain(ts, segStart, end, ops)
		}
		ops = ops[:0]
	}
	for k := from; k < to; k++ {
		t := ts[k]
		if m[k] > k {
			k = m[k]
			continue
		}
		if t.kind == kOp && (t.text == "," || t.text == ":" || t.text == "=" || t.text == ";" || strings.HasSuffix(t.text, "=") && !cmpOps[t.text] || t.text == "->" || t.text == ":=") {
			flush(k)
			segStart = k + 1
			continue
		}
		if t.kind == kName && boundaryWords[t.text] {
			if t.text == "not" && k+1 < to && isWord(ts[k+1], "in") {
				ops = append(ops, [2]int{k, k + 1})
				k++
				continue
			}
			if t.text == "not" && k > from && isWord(ts[k-1], "is") {
				continue
			}
			flush(k)
			segStart = k + 1
			continue
		}
		if t.kind == kName && t.text == "in" {
			// "for x in y": the for boundary already started a segment; a
			// comparison "in" is treated like any other operator.
			ops = append(ops, [2]int{k, k})
			continue
		}
		if t.kind == kName && t.text == "is" {
			last := k
			if k+1 < to && isWord(ts[k+1], "not") {
				last = k + 1
			}
			ops = append(ops, [2]int{k, last})
			k = last
			continue
		}
		if t.kind == kOp && cmpOps[t.text] {
			ops = append(ops, [2]int{k, k})
		}
	}
	flush(to)
}

// chain rewrites one comparison chain in ts[start:end] with operators ops.
func (x *xlator) chain(ts []*token, start, end int, ops [][2]int) {
	if start >= ops[0][0] || ops[len(ops)-1][1]+1 >= end {
		return
	}
	// operands between operators are duplicated
	for n := 1; n < len(ops); n++ {
		a, b := ops[n-1][1]+1, ops[n][0]
		if a >= b {
			return
		}
		dup := x.renderRange(ts, a, b)
		if strings.ContainsAny(dup, "\n#") {
			return
		}
		ts[ops[n][0]].pre = "and " + dup + " " + ts[ops[n][0]].pre
	}
	ts[start].pre = "(" + ts[start].pre
	ts[end-1].post += ")"
	x.changed = true
}

// renderRange renders ts[a:b] with their inner gaps.
func (x *xlator) renderRange(ts []*token, a, b int) string {
	var sb strings.Builder
	for k := a; k < b; k++ {
		if k > a && !ts[k].skipGap {
			sb.WriteString(x.src[ts[k-1].end:ts[k].off])
		}
		sb.WriteString(ts[k].rendered())
	}
	return sb.String()
}

// primaryStart returns the index of the first token of the primary
// expression (atom with trailers) that ends at token end.
func primaryStart(ts []*token, m []int, end int) int {
	j := end
	for j >= 0 {
		t := ts[j]
		if t.kind == kOp && (t.text == ")" || t.text == "]" || t.text == "}") && m[j] >= 0 {
			j = m[j]
			// a call or subscript trailer continues the primary to the left
			if (ts[j].text == "(" || ts[j].text == "[") && j > 0 && isValueEnd(ts[j-1]) {
				j--
				continue
			}
		} else if t.kind == kName && reserved[t.text] && t.text != "None" && t.text != "True" && t.text != "False" {
			return j + 1
		} else if t.kind != kName && t.kind != kNumber && t.kind != kString {
			return j + 1
		}
		if j > 1 && isOp(ts[j-1], ".") {
			j -= 2
			continue
		}
		// implicit string concatenation belongs to one atom
		for t.kind == kString && j > 0 && ts[j-1].kind == kString {
			j--
		}
		return j
	}
	return 0
}

// primaryEnd returns the index of the last token of the primary expression
// starting at start (-1 if there is none).
func primaryEnd(ts []*token, m []int, start int) int {
	if start >= len(ts) {
		return -1
	}
	t := ts[start]
	j := start
	switch {
	case t.kind == kOp && (t.text == "(" || t.text == "[" || t.text == "{") && m[start] > start:
		j = m[start]
	case t.kind == kString:
		for j+1 < len(ts) && ts[j+1].kind == kString {
			j++
		}
	case t.kind == kName && (!reserved[t.text] || t.text == "None" || t.text == "True" || t.text == "False"), t.kind == kNumber:
	default:
		return -1
	}
	for j+1 < len(ts) {
		n := ts[j+1]
		if isOp(n, ".") && j+2 < len(ts) && ts[j+2].kind == kName {
			j += 2
		} else if (isOp(n, "(") || isOp(n, "[")) && m[j+1] > j+1 {
			j = m[j+1]
		} else {
			break
		}
	}
	return j
}

// pyOnlyMethods are methods of Python's str/list/dict that Starlark lacks and
// that no Starlark builtin type has under that name: calls go through
// _rlm_method, which emulates them for builtin values.
var pyOnlyMethods = map[string]bool{
	"copy": true, "sort": true, "reverse": true, "ljust": true, "rjust": true, "center": true,
	"zfill": true, "isnumeric": true, "isdecimal": true, "casefold": true, "swapcase": true,
	"expandtabs": true, "encode": true,
}

// rewriteMethods turns x.sort(...) into _rlm_method(x, "sort", ...) for the
// methods in pyOnlyMethods.
func (x *xlator) rewriteMethods(ts []*token) {
	m := matchBrackets(ts)
	for i := 1; i+2 < len(ts); i++ {
		if !isOp(ts[i], ".") || ts[i+1].kind != kName || !pyOnlyMethods[ts[i+1].text] || !isOp(ts[i+2], "(") || m[i+2] < 0 {
			continue
		}
		j := primaryStart(ts, m, i-1)
		if j > i-1 {
			continue
		}
		x.changed = true
		ts[j].pre = "_rlm_method(" + ts[j].pre
		ts[i].setOut(", ")
		ts[i+1].setOut(`"` + ts[i+1].text + `"`)
		ts[i+1].skipGap = true
		ts[i+2].skipGap = true
		if m[i+2] == i+3 {
			ts[i+2].setOut("")
		} else {
			ts[i+2].setOut(", ")
		}
	}
}

// rewritePow turns a ** b into pow(a, b) (right-associative).
func (x *xlator) rewritePow(ts []*token) {
	m := matchBrackets(ts)
	for i := len(ts) - 2; i > 0; i-- {
		if !isOp(ts[i], "**") || !isValueEnd(ts[i-1]) {
			continue
		}
		ls := primaryStart(ts, m, i-1)
		if ls > i-1 {
			continue
		}
		rs := i + 1
		for rs < len(ts) && ts[rs].kind == kOp && (ts[rs].text == "-" || ts[rs].text == "+" || ts[rs].text == "~") {
			rs++
		}
		re := primaryEnd(ts, m, rs)
		if re < 0 {
			continue
		}
		for re+1 < len(ts) && isOp(ts[re+1], "**") {
			// already rewritten (right to left): pow(b, c) spans to its end
			e2 := primaryEnd(ts, m, re+2)
			if e2 < 0 {
				break
			}
			re = e2
		}
		x.changed = true
		ts[ls].pre = "pow(" + ts[ls].pre
		ts[i].setOut(",")
		ts[i].skipGap = true
		ts[re].post += ")"
	}
}

var percentSpec = regexp.MustCompile(`%(\([^)]*\))?[-+ #0]*(\d+|\*)?(\.(\d+|\*))?[a-zA-Z%]`)

// needsPyPercent reports whether a %-format literal uses flags, width or
// precision, which Starlark's % operator lacks.
func needsPyPercent(body string) bool {
	for _, m := range percentSpec.FindAllStringSubmatch(body, -1) {
		d := m[0]
		if m[1] != "" {
			d = "%" + d[len(m[1])+1:]
		}
		if len(d) > 2 {
			return true
		}
	}
	return false
}

// rewritePercent turns "%.2f" % x into _rlm_percent("%.2f", x) when the
// literal needs Python's full %-formatting.
func (x *xlator) rewritePercent(ts []*token) {
	m := matchBrackets(ts)
	for i := 1; i+1 < len(ts); i++ {
		if !isOp(ts[i], "%") || ts[i-1].kind != kString || ts[i-1].str == nil || ts[i-1].str.f || ts[i-1].str.b {
			continue
		}
		ls := i - 1
		for ls > 0 && ts[ls-1].kind == kString {
			ls--
		}
		need := false
		for k := ls; k < i; k++ {
			need = need || ts[k].str != nil && needsPyPercent(ts[k].str.body)
		}
		if !need || ls > 0 && (isOp(ts[ls-1], ".") || isValueEnd(ts[ls-1])) {
			continue
		}
		re := primaryEnd(ts, m, i+1)
		if re < 0 {
			continue
		}
		x.changed = true
		ts[ls].pre = "_rlm_percent(" + ts[ls].pre
		ts[i].setOut(",")
		ts[i].skipGap = true
		ts[re].post += ")"
	}
}

// rewriteStarArgs reorders call arguments so that named arguments come
// before *args (Python allows f(*xs, sep=", "); Starlark does not).
func (x *xlator) rewriteStarArgs(ts []*token) {
	m := matchBrackets(ts)
	for i := len(ts) - 1; i > 0; i-- { // innermost calls first
		t := ts[i]
		if !isOp(t, "(") || m[i] <= i+1 || !isValueEnd(ts[i-1]) {
			continue
		}
		c := m[i]
		type arg struct {
			from, to int
			rank     int // 0 positional, 1 named, 2 *args, 3 **kwargs
		}
		var args []arg
		start := i + 1
		for k := i + 1; k <= c; k++ {
			if k < c && m[k] > k {
				k = m[k]
				continue
			}
			if k == c || isOp(ts[k], ",") {
				if start < k {
					a := arg{from: start, to: k}
					switch {
					case isOp(ts[start], "*"):
						a.rank = 2
					case isOp(ts[start], "**"):
						a.rank = 3
					case ts[start].kind == kName && start+1 < k && isOp(ts[start+1], "="):
						a.rank = 1
					}
					args = append(args, a)
				}
				start = k + 1
			}
		}
		bad := false
		for n := 1; n < len(args); n++ {
			if args[n].rank == 1 && args[n-1].rank >= 2 {
				bad = true
			}
		}
		if !bad {
			continue
		}
		var parts []string
		for rank := 0; rank <= 3; rank++ {
			for _, a := range args {
				if a.rank == rank {
					parts = append(parts, strings.TrimSpace(x.renderRange(ts, a.from, a.to)))
				}
			}
		}
		x.changed = true
		for k := i + 1; k < c; k++ {
			ts[k].setOut("")
			ts[k].pre, ts[k].post = "", ""
			ts[k].skipGap = true
		}
		ts[i].post += strings.Join(parts, ", ")
		ts[c].skipGap = true
	}
}

// rewriteLoad handles "load", a Starlark keyword but a common Python name:
// x.load becomes getattr(x, "load") and a variable or function named load
// becomes load_.
func (x *xlator) rewriteLoad(ts []*token) {
	var m []int
	for i, t := range ts {
		if !isWord(t, "load") {
			continue
		}
		x.changed = true
		if i >= 2 && isOp(ts[i-1], ".") {
			if m == nil {
				m = matchBrackets(ts)
			}
			j := primaryStart(ts, m, i-2)
			if j <= i-2 {
				ts[j].pre = "getattr(" + ts[j].pre
				ts[i-1].setOut(", ")
				ts[i].setOut(`"load")`)
				ts[i].skipGap = true
				continue
			}
		}
		t.setOut("load_")
	}
}

// rewriteUnpackDisplays turns [*a, b] into (list(a) + [b]) and {**a, "k": v}
// into dict(list(a.items()) + [("k", v)]).
func (x *xlator) rewriteUnpackDisplays(ts []*token) {
	m := matchBrackets(ts)
	for i := len(ts) - 1; i >= 0; i-- { // innermost first
		t := ts[i]
		if t.kind != kOp || m[i] <= i+1 || t.text != "[" && t.text != "{" || i > 0 && isValueEnd(ts[i-1]) && t.text == "[" {
			continue
		}
		c := m[i]
		if hasTopLevel(ts, m, i+1, c, func(u *token) bool { return isWord(u, "for") }) {
			continue
		}
		var items [][2]int
		start := i + 1
		for k := i + 1; k <= c; k++ {
			if k < c && m[k] > k {
				k = m[k]
				continue
			}
			if k == c || isOp(ts[k], ",") {
				if start < k {
					items = append(items, [2]int{start, k})
				}
				start = k + 1
			}
		}
		star := "*"
		if t.text == "{" {
			star = "**"
		}
		has := false
		for _, it := range items {
			has = has || isOp(ts[it[0]], star)
		}
		if !has {
			continue
		}
		var parts, group []string
		flush := func() {
			if len(group) > 0 {
				parts = append(parts, "["+strings.Join(group, ", ")+"]")
				group = nil
			}
		}
		ok := true
		for _, it := range items {
			if isOp(ts[it[0]], star) {
				flush()
				e := strings.TrimSpace(x.renderRange(ts, it[0]+1, it[1]))
				if star == "**" {
					parts = append(parts, "list(("+e+").items())")
				} else {
					parts = append(parts, "list("+e+")")
				}
				continue
			}
			if star == "**" {
				// key: value
				colon := -1
				for k := it[0]; k < it[1]; k++ {
					if m[k] > k {
						k = m[k]
						continue
					}
					if isOp(ts[k], ":") {
						colon = k
						break
					}
				}
				if colon < 0 {
					ok = false
					break
				}
				group = append(group, "("+strings.TrimSpace(x.renderRange(ts, it[0], colon))+", "+strings.TrimSpace(x.renderRange(ts, colon+1, it[1]))+")")
				continue
			}
			group = append(group, strings.TrimSpace(x.renderRange(ts, it[0], it[1])))
		}
		if !ok {
			continue
		}
		flush()
		x.changed = true
		for k := i + 1; k < c; k++ {
			ts[k].setOut("")
			ts[k].pre, ts[k].post = "", ""
			ts[k].skipGap = true
		}
		ts[c].skipGap = true
		if star == "**" {
			t.setOut("dict(" + strings.Join(parts, " + "))
			ts[c].setOut(")")
		} else {
			t.setOut("(" + strings.Join(parts, " + "))
			ts[c].setOut(")")
		}
	}
}
