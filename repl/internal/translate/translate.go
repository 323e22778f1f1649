// Package translate rewrites Python-style source written by models into
// Starlark source accepted by go.starlark.net, so the common Python idioms of
// model code (f-strings, imports, try/except, generator expressions, is/is
// not, chained comparisons, set literals, implicit string concatenation,
// format specs) run on the embedded interpreter. The rewrites rely on the
// predeclared helpers documented in HELPERS.md, which package repl provides.
//
// The translation is purely syntactic: it never executes code and never
// names a Go function; helpers are ordinary predeclared Starlark values.
package translate

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/syntax"
)

// Result is a translated cell.
type Result struct {
	Source  string // Starlark source
	Changed bool   // false when Source == the input
	LineMap []int  // LineMap[i] is the input line (1-based) of output line i+1
}

// MaxSourceBytes bounds the input Translate accepts.
const MaxSourceBytes = 4 << 20

// FileOptions are the Starlark dialect options the output is written for.
func FileOptions() *syntax.FileOptions {
	return &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
}

// Translate rewrites Python-style source into Starlark. It returns the source
// unchanged (Changed=false) when no rewrite is needed. The output always
// parses with FileOptions(); source that cannot be made to parse is an
// *Error with the line in the input.
func Translate(src string) (Result, error) {
	if len(src) > MaxSourceBytes {
		return Result{}, &Error{Msg: fmt.Sprintf("cell too large (%d bytes, limit %d)", len(src), MaxSourceBytes)}
	}
	ts, err := lex(src)
	if err != nil {
		return Result{}, hint(src, err)
	}
	x := &xlator{src: src}
	root := buildTree(src, ts)
	if err := x.rewriteTree(root.children); err != nil {
		return Result{}, err
	}
	var res Result
	if !x.changed {
		res = Result{Source: src, LineMap: identity(src)}
	} else {
		e := &emitter{x: x, lines: lineStarts(src)}
		e.stmts(root.children, ctx{})
		e.srcTo(len(src))
		res = Result{Source: e.out.String(), Changed: true, LineMap: e.lineMap}
		if len(res.LineMap) == 0 {
			res.LineMap = []int{1}
		}
	}
	if _, err := FileOptions().Parse("cell.py", res.Source, 0); err != nil {
		line := 0
		if se, ok := err.(syntax.Error); ok {
			line = int(se.Pos.Line)
			if line >= 1 && line <= len(res.LineMap) {
				line = res.LineMap[line-1]
			}
			return Result{}, hint(src, &Error{Line: line, Col: int(se.Pos.Col), Msg: se.Msg})
		}
		return Result{}, hint(src, &Error{Msg: err.Error()})
	}
	return res, nil
}

func identity(src string) []int {
	n := strings.Count(src, "\n") + 1
	m := make([]int, n)
	for i := range m {
		m[i] = i + 1
	}
	return m
}

func lineStarts(src string) []int {
	ls := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// stmt is one logical line with the statements indented below it.
type stmt struct {
	toks     []*token // without the newline
	nl       *token
	indent   int
	children []*stmt

	// rewrite results
	replace string // when non-empty, the whole logical line is replaced by this text
	first   string // first keyword
}

func (s *stmt) word(i int) string {
	if i < len(s.toks) && s.toks[i].kind == kName {
		return s.toks[i].text
	}
	return ""
}

func buildTree(src string, ts []*token) *stmt {
	root := &stmt{indent: -1}
	stack := []*stmt{root}
	var cur []*token
	for _, t := range ts {
		if t.kind == kEOF {
			break
		}
		if t.kind != kNewline {
			cur = append(cur, t)
			continue
		}
		if len(cur) == 0 {
			continue
		}
		s := &stmt{toks: cur, nl: t, indent: column(src, cur[0].off)}
		s.first = s.word(0)
		cur = nil
		for len(stack) > 1 && s.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		p := stack[len(stack)-1]
		p.children = append(p.children, s)
		stack = append(stack, s)
	}
	return root
}

func column(src string, off int) int {
	i := strings.LastIndexByte(src[:off], '\n') + 1
	col := 0
	for ; i < off; i++ {
		if src[i] == '\t' {
			col = col/8*8 + 8
		} else {
			col++
		}
	}
	return col
}

// rewriteTree applies expression rewrites and the simple statement rewrites.
func (x *xlator) rewriteTree(ss []*stmt) error {
	for _, s := range ss {
		if err := x.rewriteExpr(s.toks); err != nil {
			return err
		}
		x.rewriteAugPow(s.toks)
		x.rewriteAnnotations(s)
		x.rewriteMultiAssign(s)
		x.rewriteStarTarget(s)
		x.rewriteEllipsis(s)
		switch s.first {
		case "import", "from":
			x.rewriteImport(s)
		case "assert":
			x.rewriteAssert(s)
		case "del":
			x.rewriteDel(s)
		}
		if err := x.rewriteTree(s.children); err != nil {
			return err
		}
		if s.first == "try" || s.first == "raise" {
			x.changed = true
		}
	}
	return nil
}

// rewriteAugPow turns the statement x **= y (Starlark has no **=) into
// x = _rlm_pow(x, (y)); the target is evaluated twice.
func (x *xlator) rewriteAugPow(ts []*token) {
	m := matchBrackets(ts)
	start := 0
	for k := 0; k < len(ts); k++ {
		if m[k] > k {
			k = m[k]
			continue
		}
		if isOp(ts[k], ";") || isOp(ts[k], ":") {
			start = k + 1
			continue
		}
		if !isOp(ts[k], "**=") || k == start {
			continue
		}
		end := k + 1
		for end < len(ts) && !isOp(ts[end], ";") {
			if m[end] > end {
				end = m[end]
			}
			end++
		}
		if end == k+1 {
			continue
		}
		x.changed = true
		ts[k].setOut("= _rlm_pow(" + x.renderRange(ts, start, k) + ", (")
		ts[end-1].post += "))"
		k = end - 1
	}
}

// rewriteImport replaces import statements with bindings of _rlm_import.
func (x *xlator) rewriteImport(s *stmt) {
	ts := s.toks
	var stmts []string
	if s.first == "import" {
		for _, item := range splitTop(ts[1:], ",") {
			names, as := dotted(item)
			if names == "" {
				return
			}
			bind := strings.SplitN(names, ".", 2)[0]
			mod := bind
			if as != "" {
				bind, mod = as, names
			}
			stmts = append(stmts, fmt.Sprintf("%s = _rlm_import(%q)", bind, mod))
		}
	} else {
		// from M import a, b as c   |  from M import (a, b)
		k := 1
		for k < len(ts) && !isWord(ts[k], "import") {
			k++
		}
		if k >= len(ts) {
			return
		}
		mod, _ := dotted(ts[1:k])
		if mod == "" {
			return
		}
		rest := ts[k+1:]
		if len(rest) > 0 && isOp(rest[0], "(") && isOp(rest[len(rest)-1], ")") {
			rest = rest[1 : len(rest)-1]
		}
		if mod == "__future__" {
			s.replace = "pass"
			x.changed = true
			return
		}
		for _, item := range splitTop(rest, ",") {
			if len(item) == 0 {
				continue
			}
			name, as := dotted(item)
			if name == "" || strings.Contains(name, ".") {
				return
			}
			bind := name
			if as != "" {
				bind = as
			}
			if mod == "typing" {
				// annotations are dropped; typing names are placeholders
				stmts = append(stmts, fmt.Sprintf("%s = None", bind))
				continue
			}
			stmts = append(stmts, fmt.Sprintf("%s = _rlm_import(%q).%s", bind, mod, name))
		}
	}
	if len(stmts) == 0 {
		return
	}
	s.replace = strings.Join(stmts, "; ")
	x.changed = true
}

// dotted parses "a.b.c [as d]".
func dotted(ts []*token) (name, as string) {
	var parts []string
	i := 0
	for i < len(ts) {
		if ts[i].kind != kName || reserved[ts[i].text] {
			return "", ""
		}
		parts = append(parts, ts[i].text)
		i++
		if i < len(ts) && isOp(ts[i], ".") {
			i++
			continue
		}
		break
	}
	if i < len(ts) {
		if i+2 == len(ts) && isWord(ts[i], "as") && ts[i+1].kind == kName {
			return strings.Join(parts, "."), ts[i+1].text
		}
		return "", ""
	}
	return strings.Join(parts, "."), ""
}

// splitTop splits ts at top-level tokens op.
func splitTop(ts []*token, op string) [][]*token {
	m := matchBrackets(ts)
	var out [][]*token
	start := 0
	for k := 0; k < len(ts); k++ {
		if m[k] > k {
			k = m[k]
			continue
		}
		if isOp(ts[k], op) {
			out = append(out, ts[start:k])
			start = k + 1
		}
	}
	return append(out, ts[start:])
}

// rewriteAssert: assert c, msg -> if not (c): _rlm_raise("AssertionError", msg)
func (x *xlator) rewriteAssert(s *stmt) {
	parts := splitTop(s.toks[1:], ",")
	if len(parts) > 2 || len(parts[0]) == 0 || len(parts) == 2 && len(parts[1]) == 0 {
		return
	}
	x.changed = true
	s.toks[0].setOut("if not (")
	s.toks[0].skipGap = false
	if len(parts) == 2 {
		comma := s.toks[1+len(parts[0])]
		comma.setOut(`): _rlm_raise("AssertionError",`)
		last := s.toks[len(s.toks)-1]
		last.post += ")"
	} else {
		last := s.toks[len(s.toks)-1]
		last.post += `): _rlm_raise("AssertionError")`
	}
	if len(s.toks) > 1 {
		s.toks[1].skipGap = !strings.Contains(x.src[s.toks[0].end:s.toks[1].off], "\n")
	}
}

// rewriteAnnotations drops type annotations from def headers and annotated
// assignments.
func (x *xlator) rewriteAnnotations(s *stmt) {
	ts := s.toks
	m := matchBrackets(ts)
	drop := func(a, b int) {
		for k := a; k < b; k++ {
			ts[k].setOut("")
			ts[k].pre, ts[k].post = "", ""
			if !strings.Contains(x.src[ts[k-1].end:ts[k].off], "\n") {
				ts[k].skipGap = true
			}
		}
		x.changed = true
	}
	if s.first == "def" && len(ts) > 3 && isOp(ts[2], "(") && m[2] > 2 {
		close := m[2]
		// parameters: name: ann [= default]
		k := 3
		for k < close {
			if m[k] > k {
				k = m[k] + 1
				continue
			}
			if isOp(ts[k], ":") {
				e := k + 1
				for e < close {
					if m[e] > e {
						e = m[e] + 1
						continue
					}
					if isOp(ts[e], ",") || isOp(ts[e], "=") {
						break
					}
					e++
				}
				drop(k, e)
				k = e
				continue
			}
			k++
		}
		if close+1 < len(ts) && isOp(ts[close+1], "->") {
			e := close + 2
			for e < len(ts) {
				if m[e] > e {
					e = m[e] + 1
					continue
				}
				if isOp(ts[e], ":") {
					break
				}
				e++
			}
			drop(close+1, e)
		}
		return
	}
	// NAME[.attr]* : ann [= value]
	if len(ts) < 3 || ts[0].kind != kName || reserved[ts[0].text] {
		return
	}
	k := 1
	for k+1 < len(ts) && isOp(ts[k], ".") && ts[k+1].kind == kName {
		k += 2
	}
	if k >= len(ts) || !isOp(ts[k], ":") {
		return
	}
	e := k + 1
	for e < len(ts) {
		if m[e] > e {
			e = m[e] + 1
			continue
		}
		if isOp(ts[e], "=") {
			break
		}
		e++
	}
	if e >= len(ts) {
		s.replace = "pass"
		x.changed = true
		return
	}
	drop(k, e)
}

// assigned collects the names bound by statements ss (not descending into
// nested defs beyond their names).
func assigned(ss []*stmt, into map[string]bool) {
	for _, s := range ss {
		ts := s.toks
		switch s.first {
		case "def":
			if len(ts) > 1 && ts[1].kind == kName {
				into[ts[1].text] = true
			}
			continue
		case "for":
			k := 1
			for k < len(ts) && !isWord(ts[k], "in") {
				if ts[k].kind == kName && !reserved[ts[k].text] {
					into[ts[k].text] = true
				}
				k++
			}
		case "import", "from":
			if s.replace != "" {
				for _, st := range strings.Split(s.replace, "; ") {
					if i := strings.Index(st, " = "); i > 0 {
						into[st[:i]] = true
					}
				}
			}
		case "except":
			for k := 0; k+1 < len(ts); k++ {
				if isWord(ts[k], "as") && ts[k+1].kind == kName {
					into[ts[k+1].text] = true
				}
			}
		case "if", "elif", "while", "else", "try", "finally", "with", "return", "raise", "assert", "del", "pass", "break", "continue", "global", "nonlocal":
		default:
			targetNames(ts, into)
		}
		assigned(s.children, into)
		// inline suite: "if c: x = 1"
		if s.first != "" && len(s.children) == 0 {
			if c := inlineColon(ts); c > 0 && c+1 < len(ts) {
				inl := &stmt{toks: ts[c+1:], first: wordOf(ts[c+1])}
				assigned([]*stmt{inl}, into)
			}
		}
	}
}

func wordOf(t *token) string {
	if t.kind == kName {
		return t.text
	}
	return ""
}

var compoundWords = map[string]bool{"if": true, "elif": true, "else": true, "for": true, "while": true, "try": true, "except": true, "finally": true, "def": true, "with": true}

// inlineColon returns the index of the header colon of a compound statement.
func inlineColon(ts []*token) int {
	if len(ts) == 0 || ts[0].kind != kName || !compoundWords[ts[0].text] {
		return -1
	}
	m := matchBrackets(ts)
	lam := 0
	for k := 0; k < len(ts); k++ {
		if m[k] > k {
			k = m[k]
			continue
		}
		if isWord(ts[k], "lambda") {
			lam++
		}
		if isOp(ts[k], ":") {
			if lam > 0 {
				lam--
				continue
			}
			return k
		}
	}
	return -1
}

// targetNames adds the names assigned by an assignment statement.
func targetNames(ts []*token, into map[string]bool) {
	m := matchBrackets(ts)
	var eqs []int
	for k := 0; k < len(ts); k++ {
		if m[k] > k {
			k = m[k]
			continue
		}
		if ts[k].kind == kOp && (ts[k].text == "=" || strings.HasSuffix(ts[k].text, "=") && !cmpOps[ts[k].text] && ts[k].text != "=") {
			eqs = append(eqs, k)
		}
		if isOp(ts[k], ":") || isOp(ts[k], ";") {
			break
		}
	}
	if len(eqs) == 0 {
		return
	}
	last := eqs[len(eqs)-1]
	for k := 0; k < last; k++ {
		t := ts[k]
		if isOp(t, "=") || isOp(t, ":") {
			continue
		}
		if t.kind == kOp && (t.text == "[" || t.text == "(") && k > 0 && isValueEnd(ts[k-1]) && m[k] > k {
			k = m[k] // subscript / call: not a binding
			continue
		}
		if t.kind == kName && !reserved[t.text] && (k == 0 || !isOp(ts[k-1], ".")) && !(k+1 < len(ts) && (isOp(ts[k+1], ".") || isOp(ts[k+1], "[") || isOp(ts[k+1], "("))) {
			into[t.text] = true
		}
	}
}

func sortedNames(set map[string]bool) []string {
	var out []string
	for n := range set {
		if !strings.HasPrefix(n, "_rlm_") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// unsupported names Python constructs code mode does not translate, with the
// hint shown to the model.
var unsupported = []struct{ word, hint string }{
	{"class", "class definitions are not supported in code mode: use dicts and functions"},
	{"with", "with statements are not supported in code mode (there are no files or resources to open)"},
	{"yield", "generators (yield) are not supported in code mode: build and return a list"},
	{"global", "global statements are not supported in code mode: return values from functions or mutate a dict/list"},
	{"nonlocal", "nonlocal statements are not supported in code mode: mutate a dict/list instead"},
	{"del", "del is not supported in code mode: use dict.pop(key) or rebuild the list"},
	{"async", "async code is not supported in code mode: use llm_query_batched for concurrency"},
	{"await", "async code is not supported in code mode: use llm_query_batched for concurrency"},
}

// hint adds what to do next to an error when the source uses a construct
// code mode does not support.
func hint(src string, err error) error {
	e, ok := err.(*Error)
	if !ok {
		return err
	}
	if strings.HasPrefix(e.Msg, "got else") {
		e.Msg += " (for/while ... else is not supported in code mode: use a flag variable set before break)"
		return e
	}
	ts, lerr := lex(src)
	if lerr != nil {
		return e
	}
	atStart := true
	var prev *token
	for _, t := range ts {
		if t.kind == kNewline {
			atStart = true
			continue
		}
		if atStart && t.kind == kOp && t.text == "@" {
			e.Msg += " (decorators are not supported in code mode)"
			if e.Line == 0 {
				e.Line = t.line
			}
			return e
		}
		if t.kind == kOp && t.text == ":=" {
			e.Msg += " (the walrus operator := is not supported in code mode: assign on its own line)"
			return e
		}
		if t.kind == kOp && t.text == "**" && !atStart && prev != nil && isValueEnd(prev) {
			// could be **kwargs; only hint on the error line
			if t.line == e.Line {
				e.Msg += " (use pow(a, b) instead of a ** b in code mode)"
				return e
			}
		}
		if t.kind == kName && (atStart || t.text == "yield" || t.text == "await") {
			for _, u := range unsupported {
				if t.text == u.word && (e.Line == 0 || e.Line == t.line) {
					e.Msg += " (" + u.hint + ")"
					return e
				}
			}
		}
		atStart = false
		prev = t
	}
	return e
}

// rewriteMultiAssign turns a = b = v into a = v; b = a.
func (x *xlator) rewriteMultiAssign(s *stmt) {
	if s.replace != "" || len(s.toks) < 5 || s.first != "" && reserved[s.first] {
		return
	}
	parts := splitTop(s.toks, "=")
	if len(parts) < 3 {
		return
	}
	for _, p := range parts {
		if len(p) == 0 {
			return
		}
	}
	for _, t := range s.toks {
		if isWord(t, "lambda") {
			return
		}
	}
	render := func(p []*token) string {
		i := 0
		for s.toks[i] != p[0] {
			i++
		}
		return strings.TrimSpace(x.renderRange(s.toks, i, i+len(p)))
	}
	first := render(parts[0])
	out := []string{first + " = " + render(parts[len(parts)-1])}
	for _, p := range parts[1 : len(parts)-1] {
		out = append(out, render(p)+" = "+first)
	}
	s.replace = strings.Join(out, "; ")
	x.changed = true
}

// rewriteDel turns del x[k] (one subscript target, not a slice) into
// x.pop(k); other del statements are left to fail with a hint.
func (x *xlator) rewriteDel(s *stmt) {
	ts := s.toks
	if len(ts) < 5 || !isOp(ts[len(ts)-1], "]") {
		return
	}
	m := matchBrackets(ts)
	open := m[len(ts)-1]
	if open < 2 || !isValueEnd(ts[open-1]) || primaryStart(ts, m, open-1) != 1 {
		return
	}
	if hasTopLevel(ts, m, open+1, len(ts)-1, func(u *token) bool { return isOp(u, ":") || isOp(u, ",") }) {
		return
	}
	x.changed = true
	ts[0].setOut("")
	ts[1].skipGap = true
	ts[open].setOut(".pop(")
	ts[len(ts)-1].setOut(")")
}

// rewriteEllipsis turns a statement "..." into pass and other uses of the
// Ellipsis literal into None.
func (x *xlator) rewriteEllipsis(s *stmt) {
	if s.replace != "" {
		return
	}
	if len(s.toks) == 1 && isOp(s.toks[0], "...") {
		s.replace = "pass"
		x.changed = true
		return
	}
	col := inlineColon(s.toks)
	for i, t := range s.toks {
		if !isOp(t, "...") {
			continue
		}
		x.changed = true
		if i == col+1 && i == len(s.toks)-1 && col >= 0 {
			t.setOut("pass")
		} else {
			t.setOut("None")
		}
	}
}

// rewriteStarTarget turns "a, *rest = xs" into index assignments.
func (x *xlator) rewriteStarTarget(s *stmt) {
	if s.replace != "" || s.first != "" && reserved[s.first] {
		return
	}
	parts := splitTop(s.toks, "=")
	if len(parts) != 2 || len(parts[0]) == 0 || len(parts[1]) == 0 {
		return
	}
	lhs := parts[0]
	if len(lhs) > 2 && isOp(lhs[0], "(") && isOp(lhs[len(lhs)-1], ")") || len(lhs) > 2 && isOp(lhs[0], "[") && isOp(lhs[len(lhs)-1], "]") {
		lhs = lhs[1 : len(lhs)-1]
	}
	items := splitTop(lhs, ",")
	if len(items) > 0 && len(items[len(items)-1]) == 0 {
		items = items[:len(items)-1]
	}
	star := -1
	var names []string
	for i, it := range items {
		switch {
		case len(it) == 1 && it[0].kind == kName && !reserved[it[0].text]:
			names = append(names, it[0].text)
		case len(it) == 2 && isOp(it[0], "*") && it[1].kind == kName && star < 0:
			star = i
			names = append(names, it[1].text)
		default:
			return
		}
	}
	if star < 0 {
		return
	}
	i := 0
	for s.toks[i] != parts[1][0] {
		i++
	}
	rhs := strings.TrimSpace(x.renderRange(s.toks, i, len(s.toks)))
	out := []string{"_rlm_v = list(" + rhs + ")"}
	after := len(names) - star - 1
	for k, n := range names {
		switch {
		case k < star:
			out = append(out, fmt.Sprintf("%s = _rlm_v[%d]", n, k))
		case k == star:
			out = append(out, fmt.Sprintf("%s = _rlm_v[%d:len(_rlm_v)-%d]", n, star, after))
		default:
			out = append(out, fmt.Sprintf("%s = _rlm_v[len(_rlm_v)-%d]", n, len(names)-k))
		}
	}
	s.replace = strings.Join(out, "; ")
	x.changed = true
}
