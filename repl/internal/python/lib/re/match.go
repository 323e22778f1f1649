package re

import (
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// Match is a re.Match object: the result of a successful match.
type Match struct {
	id  uint64
	pat *Pattern
	// obj and kind are what the Match keeps of its subject (subj), not
	// the caller's subject, which may live on its stack.
	obj python.Object
	// text holds the bytes group texts are cut from: the subject's own for
	// str and bytes subjects; for a context, a copy of the range covering
	// every group (copied says whether it could be made), beginning at
	// byte base of the subject.
	text string
	base int
	// bspans and spans hold the span of group g at [2g] and [2g+1], in
	// bytes and in characters; -1 for a group that did not take part.
	bspans      []int
	spans       []int
	pos, endpos int
	// The small fields share one word: a Match is 128 bytes.
	lastindex int32
	kind      subjKind
	copied    bool
}

// subj returns what the Match keeps of its subject.
func (m *Match) subj() subjRef { return subjRef{m.obj, m.kind} }

var matchType *python.Type

// objectIDs numbers Match, Pattern and scanner objects for hash() and
// id(): stable for an object's life, deterministic per run.
var objectIDs atomic.Uint64

func newID() uint64 { return objectIDs.Add(1) }

// Type returns re.Match.
func (*Match) Type() *python.Type { return matchType }

// newMatch builds a Match from sre's result, converting its byte offsets
// into characters and, for a context, copying the text it refers to.
// sm's spans are copied: sre may reuse them (Sub does).
func newMatch(t *python.Thread, v *view, p *Pattern, sm *sre.Match, pos, endpos int) *Match {
	return makeMatch(t, v, p, sm, pos, endpos, false)
}

// newMatchOwning is newMatch for an sm the caller owns (sre's Search,
// Match, FullMatch and Scanner return a new one): its spans become the
// Match's byte spans.
func newMatchOwning(t *python.Thread, v *view, p *Pattern, sm *sre.Match, pos, endpos int) *Match {
	return makeMatch(t, v, p, sm, pos, endpos, true)
}

func makeMatch(t *python.Thread, v *view, p *Pattern, sm *sre.Match, pos, endpos int, own bool) *Match {
	m := &Match{id: newID(), pat: p, obj: v.sj.obj, kind: v.sj.kind, pos: pos, endpos: endpos, lastindex: int32(sm.LastIndex)}
	n := len(sm.Spans)
	switch {
	case v.ascii && own:
		// Byte offsets are character offsets: one slice serves both.
		m.bspans, m.spans = sm.Spans, sm.Spans
	case v.ascii:
		m.bspans = make([]int, n)
		copy(m.bspans, sm.Spans)
		m.spans = m.bspans
	case own:
		m.bspans, m.spans = sm.Spans, make([]int, n)
		for i, off := range m.bspans {
			m.spans[i] = v.cp(off)
		}
	default:
		spans := make([]int, 2*n)
		m.bspans, m.spans = spans[:n:n], spans[n:]
		copy(m.bspans, sm.Spans)
		for i, off := range m.bspans {
			m.spans[i] = v.cp(off)
		}
	}
	if v.sj.kind != kindHost {
		m.text, m.copied = v.s, true
		return m
	}
	lo, hi := -1, -1
	for g := 0; g < len(m.bspans); g += 2 {
		if a := m.bspans[g]; a >= 0 {
			if lo < 0 || a < lo {
				lo = a
			}
			if b := m.bspans[g+1]; b > hi {
				hi = b
			}
		}
	}
	if max := t.MaxValue(); max <= 0 || int64(hi-lo) <= max {
		m.text, m.base, m.copied = strings.Clone(v.s[lo:hi]), lo, true
	}
	return m
}

// group returns the text of group g, or def when it did not take part.
func (m *Match) group(t *python.Thread, g int, def python.Object) (python.Object, error) {
	a, b := m.bspans[2*g], m.bspans[2*g+1]
	if a < 0 {
		return def, nil
	}
	switch m.kind {
	case kindStr:
		if a == 0 && b == len(m.text) && m.subj().exact() {
			return m.obj, nil
		}
		return python.NewStr(m.text[a:b]), nil
	case kindHost:
		if m.copied {
			return python.NewStr(m.text[a-m.base : b-m.base]), nil
		}
		// Too large to have been copied: slicing the context raises the
		// MemoryError that names the bound.
		sl := python.NewSliceObject(python.MakeInt(int64(m.spans[2*g])), python.MakeInt(int64(m.spans[2*g+1])), python.None)
		return python.GetItem(t, m.obj, sl)
	case kindBytes:
		if a == 0 && b == len(m.text) && m.subj().exact() {
			return m.obj, nil
		}
	case kindByteArray:
		// CPython reads the bytearray as it is now.
		sl := python.NewSliceObject(python.MakeInt(int64(a)), python.MakeInt(int64(b)), python.None)
		part, err := python.GetItem(t, m.obj, sl)
		if err != nil {
			return nil, err
		}
		return python.Call(t, python.BytesType, []python.Object{part}, nil)
	}
	return python.NewBytes(m.text[a:b]), nil
}

// groupIndex resolves a group argument as CPython 3.12's
// match_getindex: an object with __index__ is converted as
// PyNumber_AsSsize_t(x, NULL) does (an int past the index range is
// clamped, so it names no group; an error __index__ raises propagates);
// any other object is looked up in the pattern's groupindex, when the
// pattern has named groups, as a dict lookup does (an unhashable key
// raises TypeError, an object equal to a name finds it). Anything else
// is IndexError "no such group", whatever the argument's type.
func (m *Match) groupIndex(t *python.Thread, x python.Object) (int, error) {
	ngroups := int64(m.pat.re.Groups())
	if i, ok := x.(python.Int); ok {
		if i >= 0 && int64(i) <= ngroups {
			return int(i), nil
		}
		return 0, noSuchGroup()
	}
	n, ok, err := python.IndexClamped(t, x)
	if err != nil {
		return 0, err
	}
	if ok {
		if n < 0 || n > ngroups {
			return 0, noSuchGroup()
		}
		return int(n), nil
	}
	names := m.pat.re.GroupIndex()
	if len(names) == 0 {
		return 0, noSuchGroup()
	}
	if s, ok := x.(*python.Str); ok {
		if g, ok := m.pat.re.GroupNumber(s.String()); ok {
			return g, nil
		}
		return 0, noSuchGroup()
	}
	// Not an exact str: the dict's own lookup (hash, then ==).
	d := python.NewDict(len(names))
	for _, gn := range names {
		d.SetStr(gn.Name, python.MakeInt(int64(gn.Index)))
	}
	v, found, err := d.Get(t, x)
	if err != nil {
		return 0, err
	}
	if g, ok := v.(python.Int); found && ok {
		return int(g), nil
	}
	return 0, noSuchGroup()
}

func noSuchGroup() error { return python.Errorf(python.IndexErrorType, "no such group") }

func (m *Match) groupArg(t *python.Thread, x python.Object) (python.Object, error) {
	g, err := m.groupIndex(t, x)
	if err != nil {
		return nil, err
	}
	return m.group(t, g, python.None)
}

// PyGetItem implements m[g].
func (m *Match) PyGetItem(t *python.Thread, key python.Object) (python.Object, error) {
	return m.groupArg(t, key)
}

// PyRepr renders <re.Match object; span=(0, 3), match='abc'>.
func (m *Match) PyRepr(t *python.Thread) (string, error) {
	g, err := m.group(t, 0, python.None)
	if err != nil {
		return "", err
	}
	r, err := python.Repr(t, g)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", m.spans[0], m.spans[1], truncRunes(r, 50)), nil
}

// PyHash hashes by identity.
func (m *Match) PyHash(*python.Thread) (int64, error) { return int64(m.id), nil }

// PyCompare leaves == and != to identity and refuses ordering with
// CPython's message.
func (m *Match) PyCompare(t *python.Thread, op python.CmpOp, other python.Object) (python.Object, error) {
	return orderError(op, m, other)
}

// truncRunes cuts s to at most n characters, as printf's %.Ns does.
func truncRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i, k := 0, 0
	for i < len(s) && k < n {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		k++
	}
	return s[:i]
}

func spanTuple(a, b int) python.Object {
	return python.NewTuple([]python.Object{python.MakeInt(int64(a)), python.MakeInt(int64(b))})
}

func initMatchType() {
	matchType = python.NewBuiltinType("Match", "re", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.Errorf(python.TypeErrorType, "cannot create 're.Match' instances")
	})
	matchType.SetFinal()
	self := func(args []python.Object) *Match { return args[0].(*Match) }
	matchType.AddBorrowingMethod("group", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noKwargs("Match.group", kwargs); err != nil {
			return nil, err
		}
		m := self(args)
		switch len(args) {
		case 1:
			return m.group(t, 0, python.None)
		case 2:
			return m.groupArg(t, args[1])
		}
		out := make([]python.Object, len(args)-1)
		for i, x := range args[1:] {
			v, err := m.groupArg(t, x)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return python.NewTuple(out), nil
	})
	matchType.AddMethod("__getitem__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noKwargs("Match.__getitem__", kwargs); err != nil {
			return nil, err
		}
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "expected 1 argument, got %d", len(args)-1)
		}
		return self(args).groupArg(t, args[1])
	})
	matchType.AddMethod("groups", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := clinicArgs("groups", args[1:], kwargs, 0, "default")
		if err != nil {
			return nil, err
		}
		def := vals[0]
		if def == nil {
			def = python.None
		}
		m := self(args)
		out := make([]python.Object, m.pat.re.Groups())
		for g := range out {
			if out[g], err = m.group(t, g+1, def); err != nil {
				return nil, err
			}
		}
		return python.NewTuple(out), nil
	})
	matchType.AddMethod("groupdict", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := clinicArgs("groupdict", args[1:], kwargs, 0, "default")
		if err != nil {
			return nil, err
		}
		def := vals[0]
		if def == nil {
			def = python.None
		}
		m := self(args)
		names := m.pat.re.GroupIndex()
		d := python.NewDict(len(names))
		for _, gn := range names {
			v, err := m.group(t, gn.Index, def)
			if err != nil {
				return nil, err
			}
			d.SetStr(gn.Name, v)
		}
		return d, nil
	})
	for _, name := range []string{"start", "end", "span"} {
		name := name
		qual := "Match." + name // not per call: the concatenation allocates
		matchType.AddMethod(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if err := noKwargs(qual, kwargs); err != nil {
				return nil, err
			}
			if len(args) > 2 {
				return nil, python.Errorf(python.TypeErrorType, "%s expected at most 1 argument, got %d", name, len(args)-1)
			}
			m := self(args)
			g := 0
			if len(args) == 2 {
				var err error
				if g, err = m.groupIndex(t, args[1]); err != nil {
					return nil, err
				}
			}
			a, b := m.spans[2*g], m.spans[2*g+1]
			switch name {
			case "start":
				return python.MakeInt(int64(a)), nil
			case "end":
				return python.MakeInt(int64(b)), nil
			}
			return spanTuple(a, b), nil
		})
	}
	matchType.AddMethod("expand", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := clinicArgs("expand", args[1:], kwargs, 1, "template")
		if err != nil {
			return nil, err
		}
		m := self(args)
		return m.pat.expand(t, m, vals[0])
	})
	matchType.AddMethod("__copy__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noKwargs("Match.__copy__", kwargs); err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, python.Errorf(python.TypeErrorType, "Match.__copy__() takes no arguments (%d given)", len(args)-1)
		}
		return args[0], nil
	})
	matchType.AddMethod("__deepcopy__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noKwargs("Match.__deepcopy__", kwargs); err != nil {
			return nil, err
		}
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "Match.__deepcopy__() takes exactly one argument (%d given)", len(args)-1)
		}
		return args[0], nil
	})
	get := func(name string, f func(t *python.Thread, m *Match) (python.Object, error)) {
		matchType.AddGetSet(name, func(t *python.Thread, obj python.Object) (python.Object, error) {
			return f(t, obj.(*Match))
		}, nil)
	}
	get("string", func(t *python.Thread, m *Match) (python.Object, error) { return m.obj, nil })
	get("re", func(t *python.Thread, m *Match) (python.Object, error) { return m.pat, nil })
	get("pos", func(t *python.Thread, m *Match) (python.Object, error) { return python.MakeInt(int64(m.pos)), nil })
	get("endpos", func(t *python.Thread, m *Match) (python.Object, error) { return python.MakeInt(int64(m.endpos)), nil })
	get("lastindex", func(t *python.Thread, m *Match) (python.Object, error) {
		if m.lastindex < 0 {
			return python.None, nil
		}
		return python.MakeInt(int64(m.lastindex)), nil
	})
	get("lastgroup", func(t *python.Thread, m *Match) (python.Object, error) {
		if m.lastindex < 0 {
			return python.None, nil
		}
		for _, gn := range m.pat.re.GroupIndex() {
			if gn.Index == int(m.lastindex) {
				return python.NewStr(gn.Name), nil
			}
		}
		return python.None, nil
	})
	get("regs", func(t *python.Thread, m *Match) (python.Object, error) {
		out := make([]python.Object, len(m.spans)/2)
		for g := range out {
			out[g] = spanTuple(m.spans[2*g], m.spans[2*g+1])
		}
		return python.NewTuple(out), nil
	})
}
