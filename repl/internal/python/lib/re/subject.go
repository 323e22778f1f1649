package re

import (
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// subjKind is what a subject is made of.
type subjKind uint8

const (
	kindStr       subjKind = iota // a str, or an instance of a str subclass
	kindHost                      // a context: a str the host owns
	kindBytes                     // bytes, or an instance of a bytes subclass
	kindByteArray                 // a bytearray, read once when the call begins
)

// subject is the string a pattern is applied to.
type subject struct {
	obj  python.Object // as the caller passed it (Match.string)
	kind subjKind
	str  *python.Str // kindStr
	data string      // kindBytes, kindByteArray
}

// getSubject checks the string argument of a matching function against
// the pattern's type, as CPython's getstring and state_init do.
func getSubject(t *python.Thread, x python.Object, isBytes bool) (*subject, error) {
	sj, err := subjectOf(t, x, isBytes)
	if err != nil {
		return nil, err
	}
	return &sj, nil
}

// subjectOf is getSubject returning the subject itself, which a caller
// can keep on its stack.
func subjectOf(t *python.Thread, x python.Object, isBytes bool) (subject, error) {
	sj := subject{obj: x}
	switch v := python.Unwrap(x).(type) {
	case *python.Str:
		sj.kind, sj.str = kindStr, v
	case *python.Bytes:
		sj.kind, sj.data = kindBytes, v.String()
	case *python.ByteArray:
		b, err := python.Call(t, python.BytesType, []python.Object{v}, nil)
		if err != nil {
			return subject{}, err
		}
		sj.kind, sj.data = kindByteArray, b.(*python.Bytes).String()
	default:
		if _, ok := python.HostTextOf(x); ok {
			sj.kind = kindHost
			break
		}
		return subject{}, python.Errorf(python.TypeErrorType, "expected string or bytes-like object, got '%s'", python.TypeName(x))
	}
	textual := sj.kind == kindStr || sj.kind == kindHost
	if isBytes && textual {
		return subject{}, python.Errorf(python.TypeErrorType, "cannot use a bytes pattern on a string-like object")
	}
	if !isBytes && !textual {
		return subject{}, python.Errorf(python.TypeErrorType, "cannot use a string pattern on a bytes-like object")
	}
	return sj, nil
}

// subjRef is what a Match keeps of its subject.
type subjRef struct {
	obj  python.Object
	kind subjKind
}

// exact reports whether the subject is exactly a str (not a subclass
// instance, not a context): CPython returns such a subject itself where a
// result would equal it.
func (sj *subject) exact() bool { return subjRef{sj.obj, sj.kind}.exact() }

func (sj subjRef) exact() bool {
	switch sj.kind {
	case kindStr:
		_, ok := sj.obj.(*python.Str)
		return ok
	case kindBytes:
		_, ok := sj.obj.(*python.Bytes)
		return ok
	}
	return false
}

// conv converts byte offsets into character offsets incrementally: the
// offsets of successive matches increase, so each conversion counts only
// the characters since the previous one. It survives across views of the
// same text.
type conv struct {
	lastB, lastC int
}

// view is the subject's text during one operation. For a context it is
// valid only inside the callback of subject.view: strings taken from it
// must be copied (view.str does).
type view struct {
	sj    subject // a copy: the caller's stays on its stack
	s     string  // the subject's bytes
	text  sre.Text
	tv    python.TextView // str and context subjects
	n     int             // length in characters
	ascii bool            // byte offsets are character offsets
	conv  *conv           // the conversion state; nil: lc
	lc    conv
}

// directView returns the view of a str or bytes subject (c, when not
// nil, carrying the conversion state) and whether it could: a context is
// viewed only inside view's callback. A view on the caller's stack costs
// no allocation.
func (sj *subject) directView(c *conv) (view, bool) {
	switch sj.kind {
	case kindBytes, kindByteArray:
		return view{sj: *sj, s: sj.data, text: sre.Str(sj.data), n: len(sj.data), ascii: true, conv: c}, true
	case kindStr:
		// A str's bytes stay valid: no callback through python.ViewText.
		s := sj.str.String()
		v := view{sj: *sj, s: s, text: sre.Str(s), tv: python.StrTextView(sj.str), conv: c}
		v.n = v.tv.Len()
		v.ascii = v.n == len(s)
		return v, true
	}
	return view{}, false
}

// view runs f over the subject's text. c, when not nil, carries the
// incremental conversion state across calls.
func (sj *subject) view(t *python.Thread, c *conv, f func(v *view) error) error {
	if sj.kind != kindHost {
		v := new(view)
		*v, _ = sj.directView(c)
		return f(v)
	}
	// A context: the bytes are valid only inside the host's callback.
	_, err := python.ViewText(t, sj.obj, "regex", func(tv *python.TextView) error {
		text := sre.Bytes(tv.Bytes)
		n := tv.Len()
		return f(&view{sj: *sj, s: text.Slice(0, text.Len()), text: text, tv: *tv, n: n, ascii: n == len(tv.Bytes), conv: c})
	})
	return err
}

// cp returns the character offset of byte offset off: by counting from
// the previous conversion when off is near it, else through the text's
// index (a binary search and at most a few hundred characters).
func (v *view) cp(off int) int {
	if v.ascii || off < 0 {
		return off
	}
	c := v.conv
	if c == nil {
		c = &v.lc
	}
	d := off - c.lastB
	switch {
	case d >= 0 && d <= 1<<16:
		c.lastC += utf8.RuneCountInString(v.s[c.lastB:off])
		c.lastB = off
		return c.lastC
	case d < 0 && d >= -4096:
		return c.lastC - utf8.RuneCountInString(v.s[off:c.lastB])
	}
	n := v.tv.CodePoint(off)
	if d > 0 {
		c.lastB, c.lastC = off, n
	}
	return n
}

// byteOff returns the byte offset of character offset i (0 <= i <= n).
func (v *view) byteOff(i int) int {
	if v.ascii {
		return i
	}
	if i == v.n {
		return len(v.s)
	}
	return v.tv.ByteOffset(i)
}

// clamp limits pos and endpos to the subject as sre's state_init does,
// returning them in characters and in bytes.
func (v *view) clamp(pos, endpos int64) (cpos, cend, bpos, bend int) {
	clampOne := func(x int64) int {
		if x < 0 {
			return 0
		}
		if x > int64(v.n) {
			return v.n
		}
		return int(x)
	}
	cpos, cend = clampOne(pos), clampOne(endpos)
	return cpos, cend, v.byteOff(cpos), v.byteOff(cend)
}

// str returns bytes [a, b) of the subject as a str or bytes object: the
// subject itself when that is what CPython returns, a copy for a context.
func (v *view) str(a, b int) python.Object {
	switch v.sj.kind {
	case kindStr:
		if a == 0 && b == len(v.s) && v.sj.exact() {
			return v.sj.obj
		}
		return python.NewStr(v.s[a:b])
	case kindHost:
		return python.NewStr(strings.Clone(v.s[a:b]))
	case kindBytes:
		if a == 0 && b == len(v.s) && v.sj.exact() {
			return v.sj.obj
		}
	}
	return python.NewBytes(v.s[a:b])
}

// empty returns the empty str or bytes.
func (v *view) empty() python.Object {
	if v.sj.kind == kindStr || v.sj.kind == kindHost {
		return python.NewStr("")
	}
	return python.NewBytes("")
}

// itemBytes is what one list item costs against the value bound beside
// its text, as the interpreter counts str.split's parts.
const itemBytes = 48

// budget counts the size of a list being built against the value bound.
type budget struct {
	t         *python.Thread
	max, used int64
}

func newBudget(t *python.Thread) *budget { return &budget{t: t, max: t.MaxValue()} }

// add charges one item of n bytes and counts a step.
func (b *budget) add(n int) error {
	b.used += int64(n) + itemBytes
	if b.max > 0 && b.used > b.max {
		return b.t.CheckSize(b.used)
	}
	return b.t.Tick(1)
}
