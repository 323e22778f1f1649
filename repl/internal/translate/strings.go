package translate

import (
	"strings"
)

// maxNest bounds nested f-string translation.
const maxNest = 20

// rewriteString handles one string literal token: f-strings become
// concatenations of _rlm_fmt calls, escapes Starlark rejects are fixed and a
// u prefix is dropped.
func (x *xlator) rewriteString(t *token) error {
	s := t.str
	if !s.f {
		body := s.body
		fixed := false
		if !s.raw && !s.b {
			body, fixed = fixEscapes(body)
		}
		prefix := strings.ReplaceAll(strings.ToLower(s.prefix), "u", "")
		if fixed || prefix != s.prefix || strings.ContainsAny(s.prefix, "RBU") {
			t.setOut(prefix + s.quote + body + s.quote)
			x.changed = true
		}
		return nil
	}
	x.changed = true
	out, err := x.fstring(s.body, s.bodyOff, s.raw, t.line)
	if err != nil {
		return err
	}
	t.setOut(out)
	return nil
}

// fstring translates an f-string body to a Starlark expression.
func (x *xlator) fstring(body string, off int, raw bool, line int) (string, error) {
	if x.depth > maxNest {
		return "", &Error{Line: line, Msg: "f-string nested too deeply"}
	}
	parts := parseFString(body, off, false)
	var terms []string
	for _, p := range parts {
		if !p.isField {
			terms = append(terms, litTerms(p.lit, raw)...)
			continue
		}
		if p.debug != "" {
			terms = append(terms, litTerms(p.debug, true)...)
		}
		e, err := x.fieldExpr(p, raw, line)
		if err != nil {
			return "", err
		}
		terms = append(terms, e)
	}
	// merge adjacent literal terms on the same line
	if len(terms) == 0 {
		return `""`, nil
	}
	if len(terms) == 1 && !strings.HasSuffix(terms[0], "\n") {
		return terms[0], nil
	}
	var b strings.Builder
	b.WriteByte('(')
	for i, term := range terms {
		if i > 0 {
			if strings.HasSuffix(terms[i-1], "\n") {
				b.WriteString("+ ")
			} else {
				b.WriteString(" + ")
			}
		}
		b.WriteString(term)
	}
	b.WriteByte(')')
	return b.String(), nil
}

// litTerms turns literal f-string source text into Starlark string literals,
// one per source line; a term that ended at a real newline carries a
// trailing "\n" after its closing quote, so the output keeps the line.
func litTerms(lit string, raw bool) []string {
	var out []string
	for _, p := range decodePy(lit, raw) {
		if p.val == "" && !p.nl {
			continue
		}
		q := quoteStar(p.val)
		if p.nl {
			q += "\n"
		}
		out = append(out, q)
	}
	return out
}

// fieldExpr translates one replacement field into a _rlm_fmt call.
func (x *xlator) fieldExpr(p fpart, raw bool, line int) (string, error) {
	e, err := x.translateExpr(p.expr, line)
	if err != nil {
		return "", err
	}
	spec := `""`
	if len(p.spec) > 0 {
		var terms []string
		for _, sp := range p.spec {
			if !sp.isField {
				terms = append(terms, litTerms(sp.lit, true)...)
				continue
			}
			se, err := x.fieldExpr(sp, raw, line)
			if err != nil {
				return "", err
			}
			terms = append(terms, se)
		}
		if len(terms) > 0 {
			spec = strings.Join(terms, " + ")
		}
	}
	return "_rlm_fmt(" + e + ", " + spec + `, "` + p.conv + `")`, nil
}

// translateExpr translates the source of one embedded expression.
func (x *xlator) translateExpr(src string, line int) (string, error) {
	if strings.TrimSpace(src) == "" {
		return "", &Error{Line: line, Msg: "f-string: empty expression not allowed"}
	}
	wrapped := "(" + src + ")"
	ts, err := lex(wrapped)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Line = line
		}
		return "", err
	}
	sub := &xlator{src: wrapped, depth: x.depth + 1}
	var body []*token
	for _, t := range ts {
		if t.kind != kNewline && t.kind != kEOF {
			body = append(body, t)
		}
	}
	if err := sub.rewriteExpr(body); err != nil {
		return "", err
	}
	out := sub.renderRange(body, 0, len(body))
	// out is "(" expr ")" ; drop the wrapper parens unless a top-level comma needs them
	m := matchBrackets(body)
	if len(body) >= 2 && m[0] == len(body)-1 && !hasTopLevel(body, m, 1, len(body)-1, func(u *token) bool { return isOp(u, ",") }) {
		out = sub.renderRange(body, 1, len(body)-1)
		if strings.Contains(out, "\n") {
			out = "(" + out + ")"
		}
	}
	return strings.TrimSpace(out), nil
}
