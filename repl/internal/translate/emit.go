package translate

import (
	"fmt"
	"sort"
	"strings"
)

// ctx is the statement context while emitting.
type ctx struct {
	try    *tryCtx // innermost try block function being emitted (nil outside, reset by def)
	loop   int     // loop depth inside the current function / try block
	inDef  bool
	excVar string // exception variable of the enclosing handler
}

type tryCtx struct {
	state string          // the state dict literal
	names map[string]bool // the state names
	rec   string          // name of the dict recording assignments as they happen
}

// recordText returns "; _rlm_sN["x"] = x" for the state names the simple
// statement ts assigns, so that a handler sees the assignments a failing
// body made before its exception (as in Python).
func recordText(ts []*token, replace string, c ctx) string {
	if c.try == nil || len(ts) == 0 {
		return ""
	}
	names := map[string]bool{}
	st := &stmt{toks: ts, first: wordOf(ts[0]), replace: replace}
	switch st.first {
	case "return", "break", "continue", "raise", "pass":
		return ""
	}
	assigned([]*stmt{st}, names)
	var b strings.Builder
	for _, n := range sortedNames(names) {
		if c.try.names[n] {
			fmt.Fprintf(&b, "; %s[%q] = %s", c.try.rec, n, n)
		}
	}
	return b.String()
}

// emitter writes the output and its line map.
type emitter struct {
	x       *xlator
	lines   []int // line start offsets of the source
	out     strings.Builder
	lineMap []int
	atStart bool
	started bool
	cursor  int
	tryN    int
}

func (e *emitter) lineAt(off int) int {
	return sort.Search(len(e.lines), func(i int) bool { return e.lines[i] > off })
}

// write appends s; origin is the input line of s's first line, advancing
// across newlines when adv is set.
func (e *emitter) write(s string, origin int, adv bool) {
	for i := 0; i < len(s); i++ {
		if !e.started || e.atStart {
			e.lineMap = append(e.lineMap, origin)
			e.started, e.atStart = true, false
		}
		e.out.WriteByte(s[i])
		if s[i] == '\n' {
			e.atStart = true
			if adv {
				origin++
			}
		}
	}
}

// srcTo copies the source from the cursor to off.
func (e *emitter) srcTo(off int) {
	if off <= e.cursor {
		return
	}
	e.write(e.x.src[e.cursor:off], e.lineAt(e.cursor), true)
	e.cursor = off
}

// synth writes a synthesized line (ending the current one first if needed).
func (e *emitter) synth(s string, origin int) {
	if e.started && !e.atStart {
		e.write("\n", origin, false)
	}
	e.write(s+"\n", origin, false)
}

func (e *emitter) tokens(ts []*token) {
	for _, t := range ts {
		if t.skipGap && !strings.Contains(e.x.src[e.cursor:t.off], "\n") {
			e.cursor = t.off
		} else {
			e.srcTo(t.off)
		}
		e.write(t.rendered(), t.line, true)
		e.cursor = t.end
	}
}

func (e *emitter) indentOf(t *token) string {
	ls := e.lines[e.lineAt(t.off)-1]
	return e.x.src[ls:t.off]
}

func (e *emitter) stmts(ss []*stmt, c ctx) {
	for i := 0; i < len(ss); i++ {
		s := ss[i]
		if s.first == "try" {
			j := i + 1
			for j < len(ss) && (ss[j].first == "except" || ss[j].first == "finally" || ss[j].first == "else" && j > i+1 && ss[j-1].first == "except") {
				j++
			}
			if j > i+1 {
				e.try(ss[i:j], c)
				i = j - 1
				continue
			}
		}
		e.stmt(s, c)
	}
}

func (e *emitter) stmt(s *stmt, c ctx) {
	e.srcTo(s.toks[0].off)
	if s.replace != "" {
		e.write(s.replace+recordText(s.toks, s.replace, c), s.toks[0].line, false)
		e.cursor = s.toks[len(s.toks)-1].end
		e.srcTo(s.nl.end)
		e.stmts(s.children, c)
		return
	}
	if col := inlineColon(s.toks); col >= 0 {
		if col+1 < len(s.toks) {
			ic := c
			if s.first == "for" || s.first == "while" {
				ic.loop++
			}
			e.simple(s.toks[col+1:], ic)
		}
	} else {
		e.simple(s.toks, c)
	}
	e.tokens(s.toks)
	if col := inlineColon(s.toks); col < 0 {
		e.write(recordText(s.toks, "", c), s.nl.line, false)
	} else if col+1 < len(s.toks) && s.first != "def" {
		e.write(recordText(s.toks[col+1:], "", c), s.nl.line, false)
	}
	e.srcTo(s.nl.end)
	cc := c
	switch s.first {
	case "def":
		cc = ctx{inDef: true}
	case "for", "while":
		cc.loop++
	}
	e.stmts(s.children, cc)
}

// simple applies the context-dependent rewrites of a simple statement:
// raise, and return/break/continue inside try blocks.
func (e *emitter) simple(ts []*token, c ctx) {
	if len(ts) == 0 || ts[0].kind != kName {
		return
	}
	if len(ts) == 1 && c.try != nil && c.try.names[ts[0].text] {
		// "try: name / except NameError:" tests whether a name is bound
		ts[0].setOut(fmt.Sprintf("_rlm_need(%s, %q)", ts[0].text, ts[0].text))
		return
	}
	switch ts[0].text {
	case "raise":
		e.raise(ts, c)
	case "return":
		if c.try != nil {
			if len(ts) == 1 {
				ts[0].setOut(fmt.Sprintf(`return ("return", %s, None)`, c.try.state))
			} else {
				ts[0].setOut(fmt.Sprintf(`return ("return", %s, (`, c.try.state))
				ts[len(ts)-1].post += "))"
			}
		}
	case "break", "continue":
		if c.try != nil && c.loop == 0 {
			ts[0].setOut(fmt.Sprintf(`return (%q, %s, None)`, ts[0].text, c.try.state))
		}
	}
}

func (e *emitter) raise(ts []*token, c ctx) {
	end := len(ts)
	for k := 1; k < len(ts); k++ {
		if isWord(ts[k], "from") {
			end = k
			break
		}
	}
	for k := end; k < len(ts); k++ {
		ts[k].setOut("")
		ts[k].skipGap = true
	}
	if end == 1 {
		v := c.excVar
		if v == "" {
			v = "None"
		}
		ts[0].setOut("_rlm_raise(" + v + ")")
		return
	}
	m := matchBrackets(ts[:end])
	k := 1
	for k+1 < end && ts[k].kind == kName && isOp(ts[k+1], ".") {
		k += 2
	}
	if ts[k].kind == kName && !reserved[ts[k].text] && (k+1 == end || isOp(ts[k+1], "(") && m[k+1] == end-1) {
		name := ts[k].text
		ts[0].setOut("_rlm_raise(")
		for q := 1; q < k; q++ {
			ts[q].setOut("")
			ts[q].skipGap = true
		}
		ts[1].skipGap = true
		if k > 1 {
			ts[k].skipGap = true
		}
		ts[k].setOut(fmt.Sprintf("%q", name))
		if k+1 == end {
			ts[k].post += ")"
			return
		}
		open := ts[k+1]
		open.skipGap = true
		if k+2 == end-1 {
			open.setOut("")
		} else {
			open.setOut(", ")
			if !strings.Contains(e.x.src[open.end:ts[k+2].off], "\n") {
				ts[k+2].skipGap = true
			}
		}
		return
	}
	ts[0].setOut("_rlm_raise(")
	ts[1].skipGap = true
	ts[end-1].post += ")"
}

// blockOf returns the header, and either the inline suite tokens or the
// children of a try-statement clause.
type clause struct {
	s      *stmt
	colon  int
	inline []*token
}

// try emits a try statement group (try, except..., else, finally) as block
// functions and a _rlm_try call.
func (e *emitter) try(group []*stmt, c ctx) {
	e.tryN++
	n := e.tryN
	names := map[string]bool{}
	hasRet, hasBrk, hasCont := false, false, false
	var cls []clause
	for _, s := range group {
		col := inlineColon(s.toks)
		cl := clause{s: s, colon: col}
		if col >= 0 && col+1 < len(s.toks) {
			cl.inline = s.toks[col+1:]
			assigned([]*stmt{{toks: cl.inline, first: wordOf(cl.inline[0])}}, names)
			r, b, k := ctlWords([]*stmt{{toks: cl.inline, first: wordOf(cl.inline[0])}}, 0)
			hasRet, hasBrk, hasCont = hasRet || r, hasBrk || b, hasCont || k
		}
		if s.first == "except" {
			for k := 0; k+1 < len(s.toks); k++ {
				if isWord(s.toks[k], "as") && s.toks[k+1].kind == kName {
					names[s.toks[k+1].text] = true
				}
			}
		}
		assigned(s.children, names)
		r, b, k := ctlWords(s.children, 0)
		hasRet, hasBrk, hasCont = hasRet || r, hasBrk || b, hasCont || k
		cls = append(cls, cl)
	}
	state := sortedNames(names)
	var dict []string
	for _, nm := range state {
		dict = append(dict, fmt.Sprintf("%q: %s", nm, nm))
	}
	tc := &tryCtx{state: "{" + strings.Join(dict, ", ") + "}", names: names, rec: fmt.Sprintf("_rlm_s%d", n)}
	params := strings.Join(state, ", ")
	ind := e.indentOf(group[0].toks[0])
	tryLine := group[0].toks[0].line

	var handlers []string
	elseFn, finFn := "None", "None"
	for k, cl := range cls {
		s := cl.s
		fn := ""
		bc := ctx{try: tc, inDef: c.inDef}
		ps := params
		switch s.first {
		case "try":
			fn = fmt.Sprintf("_rlm_t%d_body", n)
		case "except":
			fn = fmt.Sprintf("_rlm_t%d_h%d", n, k-1)
			exc := "_rlm_e"
			end := len(s.toks)
			if cl.colon >= 0 {
				end = cl.colon
			}
			typeToks := s.toks[1:end]
			for q := 0; q+1 < len(typeToks); q++ {
				if isWord(typeToks[q], "as") {
					exc = typeToks[q+1].text
					typeToks = typeToks[:q]
					break
				}
			}
			if exc == "_rlm_e" {
				if ps == "" {
					ps = exc
				} else {
					ps += ", " + exc
				}
			}
			bc.excVar = exc
			handlers = append(handlers, fmt.Sprintf("(%s, %q, %s)", excTypes(typeToks), exc, fn))
		case "else":
			fn = fmt.Sprintf("_rlm_t%d_else", n)
			elseFn = fn
		case "finally":
			fn = fmt.Sprintf("_rlm_t%d_fin", n)
			finFn = fn
		}
		e.srcTo(s.toks[0].off)
		if k == 0 && len(state) > 0 {
			e.write(fmt.Sprintf("%s = {}\n%s", tc.rec, ind), s.toks[0].line, false)
		}
		e.write(fmt.Sprintf("def %s(%s):", fn, ps), s.toks[0].line, false)
		ret := fmt.Sprintf(`return ("", %s, None)`, tc.state)
		reload := ""
		if (s.first == "except" || s.first == "finally") && len(state) > 0 {
			var rl []string
			for _, nm := range state {
				if nm != bc.excVar {
					rl = append(rl, fmt.Sprintf("%s = %s.get(%q, %s)", nm, tc.rec, nm, nm))
				}
			}
			reload = strings.Join(rl, "; ")
		}
		if cl.inline != nil {
			if reload != "" {
				e.write(" "+reload+";", s.toks[0].line, false)
			}
			e.cursor = s.toks[cl.colon].end
			e.simple(cl.inline, bc)
			e.tokens(cl.inline)
			e.write(recordText(cl.inline, "", bc)+"; "+ret, s.toks[len(s.toks)-1].line, false)
			e.srcTo(s.nl.end)
			continue
		}
		e.cursor = s.toks[len(s.toks)-1].end
		e.srcTo(s.nl.end)
		last := s.toks[len(s.toks)-1].line
		bind := ind + "    "
		if len(s.children) > 0 {
			bind = e.indentOf(s.children[0].toks[0])
			if reload != "" {
				e.synth(bind+reload, s.toks[0].line)
			}
			e.stmts(s.children, bc)
			last = lastLine(s)
		} else {
			e.synth(bind+"pass", last)
		}
		e.synth(bind+ret, last)
	}
	r := fmt.Sprintf("_rlm_r%d", n)
	var getters []string
	for _, nm := range state {
		getters = append(getters, fmt.Sprintf("%q: lambda: %s", nm, nm))
	}
	e.synth(fmt.Sprintf("%s%s = _rlm_try(_rlm_t%d_body, [%s], %s, %s, {%s})", ind, r, n, strings.Join(handlers, ", "), elseFn, finFn, strings.Join(getters, ", ")), tryLine)
	for _, nm := range state {
		rec := ""
		if c.try != nil && c.try.names[nm] {
			rec = fmt.Sprintf("; %s[%q] = %s", c.try.rec, nm, nm)
		}
		e.synth(fmt.Sprintf("%sif %q in %s[1]: %s = %s[1][%q]%s", ind, nm, r, nm, r, nm, rec), tryLine)
	}
	if hasRet {
		if c.try != nil {
			e.synth(fmt.Sprintf(`%sif %s[0] == "return": return ("return", %s, %s[2])`, ind, r, c.try.state, r), tryLine)
		} else if c.inDef {
			e.synth(fmt.Sprintf(`%sif %s[0] == "return": return %s[2]`, ind, r, r), tryLine)
		}
	}
	for _, w := range []struct {
		on   bool
		word string
	}{{hasBrk, "break"}, {hasCont, "continue"}} {
		if !w.on {
			continue
		}
		if c.try != nil && c.loop == 0 {
			e.synth(fmt.Sprintf(`%sif %s[0] == %q: return (%q, %s, None)`, ind, r, w.word, w.word, c.try.state), tryLine)
		} else if c.loop > 0 {
			e.synth(fmt.Sprintf(`%sif %s[0] == %q: %s`, ind, r, w.word, w.word), tryLine)
		}
	}
}

func lastLine(s *stmt) int {
	for len(s.children) > 0 {
		s = s.children[len(s.children)-1]
	}
	return s.nl.line
}

// excTypes renders the exception types of an except clause as a list of
// type names; [] catches everything.
func excTypes(ts []*token) string {
	if len(ts) > 0 && isOp(ts[0], "(") && isOp(ts[len(ts)-1], ")") {
		ts = ts[1 : len(ts)-1]
	}
	var names []string
	for _, item := range splitTop(ts, ",") {
		if len(item) == 0 {
			continue
		}
		nm := item[len(item)-1].text
		if nm == "Exception" || nm == "BaseException" {
			return "[]"
		}
		names = append(names, fmt.Sprintf("%q", nm))
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// ctlWords reports whether statements contain return (outside nested defs),
// break or continue (outside nested loops) at loop depth 0.
func ctlWords(ss []*stmt, loop int) (ret, brk, cont bool) {
	for _, s := range ss {
		words := []string{s.first}
		if col := inlineColon(s.toks); col >= 0 && col+1 < len(s.toks) {
			words = append(words, wordOf(s.toks[col+1]))
		}
		for _, w := range words {
			switch w {
			case "return":
				ret = true
			case "break":
				brk = brk || loop == 0
			case "continue":
				cont = cont || loop == 0
			}
		}
		if s.first == "def" {
			continue
		}
		l := loop
		if s.first == "for" || s.first == "while" {
			l++
		}
		r, b, k := ctlWords(s.children, l)
		ret, brk, cont = ret || r, brk || b, cont || k
	}
	return
}
