package re

import (
	"strings"
	"unsafe"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// replacement is the repl argument of sub and subn, prepared.
type replacement struct {
	fn      python.Object // a callable, or nil
	tmpl    *sre.Template // the parsed template (a literal when lit)
	lit     bool          // the template refers to no group
	litText string
	// mismatch: a bytes template for a str pattern or the reverse. CPython
	// parses it, and fails when it joins the pieces of the result.
	mismatch bool
}

// textArg returns the text of a str, bytes or bytearray argument, and
// whether it is bytes.
func textArg(t *python.Thread, x python.Object) (text string, isBytes, ok bool, err error) {
	switch v := python.Unwrap(x).(type) {
	case *python.Str:
		return v.String(), false, true, nil
	case *python.Bytes:
		return v.String(), true, true, nil
	case *python.ByteArray:
		b, err := python.Call(t, python.BytesType, []python.Object{v}, nil)
		if err != nil {
			return "", false, false, err
		}
		return b.(*python.Bytes).String(), true, true, nil
	}
	if python.IsStr(x) {
		s, err := copyText(t, x)
		return s, false, true, err
	}
	return "", false, false, nil
}

// copyText copies a str (a context included) within the value bound.
func copyText(t *python.Thread, x python.Object) (string, error) {
	var s string
	_, err := python.ViewText(t, x, "text", func(v *python.TextView) error {
		if err := t.CheckSize(int64(len(v.Bytes))); err != nil {
			return err
		}
		s = string(v.Bytes)
		return nil
	})
	return s, err
}

// template parses a replacement template as CPython's _compile_template
// and parse_template.
func (p *Pattern) template(t *python.Thread, x python.Object) (*replacement, error) {
	cacheable := false // immutable: the same object parses the same
	switch x.(type) {
	case *python.Str, *python.Bytes:
		cacheable = true
		if c := p.lastTmpl.Load(); c != nil && c.x == x {
			return c.r, nil
		}
	}
	r, err := p.parseTemplate(t, x)
	if err == nil && cacheable {
		p.lastTmpl.Store(&parsedTemplate{x: x, r: r})
	}
	return r, err
}

// parseTemplate is template without the cache.
func (p *Pattern) parseTemplate(t *python.Thread, x python.Object) (*replacement, error) {
	text, isBytes, ok, err := textArg(t, x)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "decoding to str: need a bytes-like object, %s found", python.TypeName(x))
	}
	r := &replacement{mismatch: isBytes != p.re.IsBytes()}
	if r.mismatch && !isASCII(text) {
		return nil, python.NotSupported("a non-ASCII "+python.TypeName(x)+" template for a "+map[bool]string{true: "bytes", false: "str"}[p.re.IsBytes()]+" pattern", "give the template the pattern's type")
	}
	tmpl, err := p.re.ParseTemplate(text)
	if err != nil {
		return nil, mapErr(t, err, sre.Limits{})
	}
	r.tmpl = tmpl
	r.litText, r.lit = tmpl.Literal()
	return r, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// joinState follows the list of pieces CPython's pattern_subx builds and
// joins, to fail as it does when a piece has the wrong type.
type joinState struct {
	pieces  int
	bad     int // index of the first piece of the wrong type, or -1
	badType string
}

func (p *Pattern) joinError(j *joinState) error {
	if p.re.IsBytes() {
		return python.Errorf(python.TypeErrorType, "sequence item %d: expected a bytes-like object, %s found", j.bad, j.badType)
	}
	return python.Errorf(python.TypeErrorType, "sequence item %d: expected str instance, %s found", j.bad, j.badType)
}

func (j *joinState) wrong(typ string) {
	if j.bad < 0 {
		j.bad, j.badType = j.pieces, typ
	}
	j.pieces++
}

// mismatchExpand handles a template of the other type than the pattern's
// for one match: CPython's expansion joins the template's pieces with the
// template's type and fails on the first group that took part; when none
// did, the expansion is a literal of the template's type. It returns that
// literal, or the expansion's error.
func (p *Pattern) mismatchExpand(t *python.Thread, r *replacement, m *Match) (string, error) {
	idx := 0
	var lit strings.Builder
	var err error
	first := true
	r.tmpl.Parts(func(text string, g int) {
		if err != nil {
			return
		}
		if g < 0 {
			if first || text != "" {
				idx++
				lit.WriteString(text)
			}
			first = false
			return
		}
		if m.bspans[2*g] >= 0 {
			tmplType, subjType := "bytes-like object", "str"
			if p.re.IsBytes() {
				tmplType, subjType = "str instance", "bytes"
			}
			a := "a "
			if p.re.IsBytes() {
				a = ""
			}
			err = python.Errorf(python.TypeErrorType, "sequence item %d: expected %s%s, %s found", idx, a, tmplType, subjType)
		}
	})
	return lit.String(), err
}

// expand implements Match.expand.
func (p *Pattern) expand(t *python.Thread, m *Match, x python.Object) (python.Object, error) {
	r, err := p.template(t, x)
	if err != nil {
		return nil, err
	}
	if r.mismatch {
		lit, err := p.mismatchExpand(t, r, m)
		if err != nil {
			return nil, err
		}
		if p.re.IsBytes() {
			return python.NewStr(lit), nil
		}
		return python.NewBytes(lit), nil
	}
	var b strings.Builder
	r.tmpl.Parts(func(text string, g int) {
		if err != nil {
			return
		}
		if g < 0 {
			b.WriteString(text)
			return
		}
		var v python.Object
		if v, err = m.group(t, g, python.None); err != nil || v == python.None {
			return
		}
		b.WriteString(objText(v))
		err = t.CheckSize(int64(b.Len()))
	})
	if err != nil {
		return nil, err
	}
	if p.re.IsBytes() {
		return python.NewBytes(b.String()), nil
	}
	return python.NewStr(b.String()), nil
}

// objText returns the Go string of a str or bytes object.
func objText(x python.Object) string {
	switch v := python.Unwrap(x).(type) {
	case *python.Str:
		return v.String()
	case *python.Bytes:
		return v.String()
	}
	return ""
}

// subArgs implements Pattern.sub and Pattern.subn.
func (p *Pattern) subArgs(t *python.Thread, subn bool, replObj, strObj, countObj python.Object) (python.Object, error) {
	fn := "sub"
	if subn {
		fn = "subn"
	}
	count, err := intArg(t, fn, countObj, 0)
	if err != nil {
		return nil, err
	}
	var r *replacement
	if python.Callable(replObj) {
		r = &replacement{fn: replObj}
	} else if r, err = p.template(t, replObj); err != nil {
		return nil, err
	}
	sj, err := subjectOf(t, strObj, p.re.IsBytes())
	if err != nil {
		return nil, err
	}
	res, n, err := p.sub(t, r, &sj, count)
	if err != nil {
		return nil, err
	}
	if subn {
		return python.NewTuple([]python.Object{res, python.MakeInt(int64(n))}), nil
	}
	return res, nil
}

// sub replaces the first count matches (all when count is 0, none when
// it is negative) and returns the result and the number of matches.
func (p *Pattern) sub(t *python.Thread, r *replacement, sj *subject, count int64) (python.Object, int, error) {
	if count < 0 {
		return p.unchanged(sj), 0, nil
	}
	cnt := int(min(count, 1<<62))
	if sj.kind == kindHost && r.fn != nil {
		h := *sj // sj stays on the caller's stack
		return p.subHostCallable(t, r, &h, cnt)
	}
	s := &subRun{p: p, t: t, r: r, cnt: cnt, j: joinState{bad: -1}}
	var err error
	if v, ok := sj.directView(nil); ok {
		if r.fn == nil && !r.mismatch {
			// A template or literal: Replace needs no view, which stays
			// on the stack.
			err = s.runText(v.text, len(v.s))
		} else {
			hv := v // the callable's Match refers to it
			err = s.run(&hv)
		}
	} else {
		hs := *sj // a context: its view escapes to the host's callback
		err = hs.view(t, nil, s.run)
	}
	if err != nil {
		return nil, 0, mapErr(t, err, s.lim)
	}
	if s.j.bad >= 0 {
		return nil, 0, p.joinError(&s.j)
	}
	if s.n == 0 {
		return p.unchanged(sj), 0, nil
	}
	return p.result(s.out), s.n, nil
}

// subRun is the state of one sub over a view; it is the sre.Replacer.
type subRun struct {
	p    *Pattern
	t    *python.Thread
	r    *replacement
	cur  *view // the view, for a callable or mismatched repl (run)
	cnt  int
	j    joinState
	lim  sre.Limits
	last int
	out  []byte
	n    int
}

func (s *subRun) run(v *view) error {
	s.cur = v
	return s.runText(v.text, len(v.s))
}

// runText runs the substitution over text, of n bytes.
func (s *subRun) runText(text sre.Text, n int) error {
	s.lim = limits(s.t, n)
	s.lim.MaxResult = s.t.MaxValue()
	// The result is usually about the subject's size: one buffer, cut to
	// a str without a copy (p.result).
	dst := make([]byte, 0, n+n/8+16)
	var err error
	s.out, s.n, err = s.p.re.Sub(s.t.Context(), dst, text, s, s.cnt, s.lim)
	return err
}

// Replace implements sre.Replacer.
func (s *subRun) Replace(dst []byte, text sre.Text, sm *sre.Match) ([]byte, error) {
	t, r, p, j, v := s.t, s.r, s.p, &s.j, s.cur
	if err := t.Tick(1); err != nil {
		return dst, err
	}
	if sm.Spans[0] > s.last {
		j.pieces++
	}
	s.last = sm.Spans[1]
	switch {
	case r.fn != nil:
		m := newMatch(t, v, p, sm, 0, v.n)
		return p.callRepl(t, r.fn, m, dst, j)
	case r.mismatch:
		if !r.lit {
			m := newMatch(t, v, p, sm, 0, v.n)
			if _, err := p.mismatchExpand(t, r, m); err != nil {
				return dst, err
			}
		}
		j.wrong(map[bool]string{true: "str", false: "bytes"}[p.re.IsBytes()])
		return dst, nil
	case r.lit:
		j.pieces++
		return append(dst, r.litText...), nil
	}
	j.pieces++
	return r.tmpl.Expand(dst, text, sm), nil
}

// callRepl calls a callable repl with the match and appends what it
// returns: None adds nothing; a piece of the wrong type is noted, as
// CPython fails only when it joins the pieces after the last call.
func (p *Pattern) callRepl(t *python.Thread, fn python.Object, m *Match, dst []byte, j *joinState) ([]byte, error) {
	res, err := python.Call(t, fn, []python.Object{m}, nil)
	if err != nil {
		return dst, err
	}
	if res == python.None {
		return dst, nil
	}
	if p.re.IsBytes() {
		switch v := python.Unwrap(res).(type) {
		case *python.Bytes:
			j.pieces++
			return append(dst, v.String()...), nil
		case *python.ByteArray:
			text, _, _, err := textArg(t, v)
			if err != nil {
				return dst, err
			}
			j.pieces++
			return append(dst, text...), nil
		}
	} else if python.IsStr(res) {
		if s, ok := python.Unwrap(res).(*python.Str); ok {
			j.pieces++
			return append(dst, s.String()...), nil
		}
		s, err := copyText(t, res)
		if err != nil {
			return dst, err
		}
		j.pieces++
		return append(dst, s...), nil
	}
	j.wrong(cTypeName(res))
	return dst, nil
}

// Over a context, whose bytes may be read only inside one host operation
// (which the host counts), finditer and sub with a callable read matches
// ahead: a batch per operation, of at most batchMatches matches and
// batchBytes bytes of copied text. Python code never runs inside a view.
const (
	batchMatches = 16384
	batchBytes   = 4 << 20
)

// subHostCallable is sub with a callable over a context: the callable
// runs Python code, which must not run inside the host's view, so the
// matches are found a batch at a time.
func (p *Pattern) subHostCallable(t *python.Thread, r *replacement, sj *subject, count int) (python.Object, int, error) {
	type item struct {
		seg string
		m   *Match
	}
	var sc *sre.Scanner
	var lim sre.Limits
	var c conv
	var out []byte
	j := &joinState{bad: -1}
	n, last, done := 0, 0, false
	for !done {
		var batch []item
		var tail string
		copied := 0
		verr := sj.view(t, &c, func(v *view) error {
			if sc == nil {
				lim = limits(t, len(v.s))
				sc = p.re.Scanner(v.text, 0, len(v.s), lim)
			} else {
				sc.SetText(v.text)
			}
			for len(batch) < batchMatches && copied < batchBytes {
				if count > 0 && n+len(batch) >= count {
					done = true
					break
				}
				sm, err := sc.Search(t.Context())
				if err != nil {
					return err
				}
				if sm == nil {
					done = true
					break
				}
				seg := strings.Clone(v.s[last:sm.Spans[0]])
				copied += len(seg) + sm.Spans[1] - sm.Spans[0]
				batch = append(batch, item{seg, newMatchOwning(t, v, p, sm, 0, v.n)})
				last = sm.Spans[1]
			}
			if done {
				tail = strings.Clone(v.s[last:])
			}
			return nil
		})
		for _, it := range batch {
			if err := t.Tick(1); err != nil {
				return nil, 0, err
			}
			if it.seg != "" {
				j.pieces++
				out = append(out, it.seg...)
			}
			var err error
			if out, err = p.callRepl(t, r.fn, it.m, out, j); err != nil {
				return nil, 0, err
			}
			if err := t.CheckSize(int64(len(out))); err != nil {
				return nil, 0, err
			}
			n++
		}
		if verr != nil {
			return nil, 0, mapErr(t, verr, lim)
		}
		if done {
			if tail != "" {
				j.pieces++
				out = append(out, tail...)
			}
		}
	}
	if j.bad >= 0 {
		return nil, 0, p.joinError(j)
	}
	if err := t.CheckSize(int64(len(out))); err != nil {
		return nil, 0, err
	}
	if n == 0 {
		return sj.obj, 0, nil
	}
	return python.NewStr(string(out)), n, nil
}

// unchanged is sub's result when nothing was replaced: the subject itself
// when it is exactly a str or bytes (or a context), else a copy of its
// text as the pattern's type.
func (p *Pattern) unchanged(sj *subject) python.Object {
	switch sj.kind {
	case kindHost:
		return sj.obj
	case kindStr:
		if sj.exact() {
			return sj.obj
		}
		return python.NewStr(sj.str.String())
	case kindBytes:
		if sj.exact() {
			return sj.obj
		}
	}
	return python.NewBytes(sj.data)
}

// result makes sub's result of b, which nothing writes to afterwards:
// the str or bytes shares b's array unless b uses less than half of it.
func (p *Pattern) result(b []byte) python.Object {
	var s string
	if len(b) > 0 && 2*len(b) >= cap(b) {
		s = unsafe.String(unsafe.SliceData(b), len(b))
	} else {
		s = string(b)
	}
	if p.re.IsBytes() {
		return python.NewBytes(s)
	}
	return python.NewStr(s)
}

// cTypeName names x's type as CPython's messages do (tp_name): with the
// module for the types of re's C implementation.
func cTypeName(x python.Object) string {
	switch x.(type) {
	case *Pattern:
		return "re.Pattern"
	case *Match:
		return "re.Match"
	case *Scanner:
		return "_sre.SRE_Scanner"
	}
	return python.TypeName(x)
}
