package re

import (
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// Pattern is a compiled regular expression, re.Pattern.
type Pattern struct {
	id  uint64
	re  *sre.Pattern
	src python.Object // the pattern as given to compile (Pattern.pattern)
	// index is the groupindex dict, made on first use.
	index *python.Dict
	// lastTmpl is the replacement last parsed from an exact str or bytes
	// (Pattern.template): a loop of re.sub passes the same object.
	lastTmpl atomic.Pointer[parsedTemplate]
}

// parsedTemplate is a replacement template and the object parsed.
type parsedTemplate struct {
	x python.Object
	r *replacement
}

var patternType *python.Type

// Type returns re.Pattern.
func (*Pattern) Type() *python.Type { return patternType }

// Bounds of one matching operation. The step budget is generous for any
// pattern that does not backtrack catastrophically (the engine runs tens
// of millions of steps a second, and a scan of a subject takes a few
// steps a byte); it turns a runaway match into a clear RuntimeError in a
// few seconds instead of a cell that runs until its time limit. They are
// variables only so that tests can lower them.
var (
	stepBase     int64 = 200_000_000
	stepsPerByte int64 = 64
	// minStack is the least backtracking stack allowed (in bytes), when
	// the value bound is smaller.
	minStack int64 = 16 << 20
)

// limits returns the bounds of an operation over n bytes.
func limits(t *python.Thread, n int) sre.Limits {
	stack := sre.DefaultMaxStack
	if mv := t.MaxValue(); mv > 0 {
		stack = int(max(mv, minStack))
	}
	return sre.Limits{MaxSteps: stepBase + stepsPerByte*int64(n), MaxStack: stack}
}

// subject checks a string argument against the pattern's type.
func (p *Pattern) subject(t *python.Thread, x python.Object) (*subject, error) {
	return getSubject(t, x, p.re.IsBytes())
}

type execMode int

const (
	modeSearch execMode = iota
	modeMatch
	modeFull
)

// exec implements search, match and fullmatch.
func (p *Pattern) exec(t *python.Thread, fn string, mode execMode, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, err := clinicArgs(fn, args, kwargs, 1, "string", "pos", "endpos")
	if err != nil {
		return nil, err
	}
	// The subject and its view stay on the stack: the Match copies the
	// subject.
	sj, err := subjectOf(t, vals[0], p.re.IsBytes())
	if err != nil {
		return nil, err
	}
	pos, endpos, err := posArgs(t, fn, vals[:])
	if err != nil {
		return nil, err
	}
	var res python.Object
	var lim sre.Limits
	if v, ok := sj.directView(nil); ok {
		res, lim, err = p.execView(t, &v, mode, pos, endpos)
	} else {
		var hres python.Object
		var hlim sre.Limits
		hsj := sj // a context: its view escapes to the host's callback
		err = hsj.view(t, nil, func(v *view) error {
			var err error
			hres, hlim, err = p.execView(t, v, mode, pos, endpos)
			return err
		})
		res, lim = hres, hlim
	}
	if err != nil {
		return nil, mapErr(t, err, lim)
	}
	return res, nil
}

// execView runs search, match or fullmatch over a view: the Match, or
// None, and the limits it ran under.
func (p *Pattern) execView(t *python.Thread, v *view, mode execMode, pos, endpos int64) (python.Object, sre.Limits, error) {
	cpos, cend, bpos, bend := v.clamp(pos, endpos)
	lim := limits(t, len(v.s))
	var sm *sre.Match
	var err error
	ctx := t.Context()
	switch mode {
	case modeSearch:
		sm, err = p.re.Search(ctx, v.text, bpos, bend, lim)
	case modeMatch:
		sm, err = p.re.Match(ctx, v.text, bpos, bend, lim)
	default:
		sm, err = p.re.FullMatch(ctx, v.text, bpos, bend, lim)
	}
	if err != nil || sm == nil {
		return python.None, lim, err
	}
	return newMatchOwning(t, v, p, sm, cpos, cend), lim, nil
}

// stringArgs converts the (string, pos, endpos) arguments.
func (p *Pattern) stringArgs(t *python.Thread, fn string, vals []python.Object) (*subject, int64, int64, error) {
	sj, err := p.subject(t, vals[0])
	if err != nil {
		return nil, 0, 0, err
	}
	pos, endpos, err := posArgs(t, fn, vals)
	if err != nil {
		return nil, 0, 0, err
	}
	return sj, pos, endpos, nil
}

// posArgs converts the pos and endpos arguments (vals[1] and vals[2]).
func posArgs(t *python.Thread, fn string, vals []python.Object) (int64, int64, error) {
	pos, err := intArg(t, fn, vals[1], 0)
	if err != nil {
		return 0, 0, err
	}
	endpos, err := intArg(t, fn, vals[2], maxSize)
	if err != nil {
		return 0, 0, err
	}
	return pos, endpos, nil
}

// findall implements Pattern.findall.
func (p *Pattern) findall(t *python.Thread, sj *subject, pos, endpos int64) (python.Object, error) {
	var out []python.Object
	var lim sre.Limits
	groups := p.re.Groups()
	b := newBudget(t)
	err := sj.view(t, nil, func(v *view) error {
		_, _, bpos, bend := v.clamp(pos, endpos)
		lim = limits(t, len(v.s))
		return p.re.FindAll(t.Context(), v.text, bpos, bend, lim, func(m *sre.Match) error {
			var item python.Object
			size := 0
			switch groups {
			case 0, 1:
				s, e := m.Span(groups)
				if s < 0 {
					item = v.empty()
				} else {
					item, size = v.str(s, e), e-s
				}
			default:
				items := make([]python.Object, groups)
				for g := 1; g <= groups; g++ {
					if s, e := m.Span(g); s >= 0 {
						items[g-1] = v.str(s, e)
						size += e - s + itemBytes
					} else {
						items[g-1] = v.empty()
					}
				}
				item = python.NewTuple(items)
			}
			if err := b.add(size); err != nil {
				return err
			}
			out = append(out, item)
			return nil
		})
	})
	if err != nil {
		return nil, mapErr(t, err, lim)
	}
	return python.NewList(out), nil
}

// split implements Pattern.split.
func (p *Pattern) split(t *python.Thread, sj *subject, maxsplit int64) (python.Object, error) {
	var out []python.Object
	var lim sre.Limits
	b := newBudget(t)
	// sre, as CPython, splits without limit for 0 and not at all for a
	// negative maxsplit.
	ms := int(max(min(maxsplit, 1<<62), -1))
	err := sj.view(t, nil, func(v *view) error {
		lim = limits(t, len(v.s))
		return p.re.Split(t.Context(), v.text, ms, lim, func(s, e int) error {
			var item python.Object = python.None
			n := 0
			if s >= 0 {
				item, n = v.str(s, e), e-s
			}
			if err := b.add(n); err != nil {
				return err
			}
			out = append(out, item)
			return nil
		})
	})
	if err != nil {
		return nil, mapErr(t, err, lim)
	}
	return python.NewList(out), nil
}

// PyRepr renders re.compile('a+', re.IGNORECASE).
func (p *Pattern) PyRepr(t *python.Thread) (string, error) {
	r, err := python.Repr(t, p.src)
	if err != nil {
		return "", err
	}
	r = truncRunes(r, 200)
	if f := p.re.FlagsRepr(); f != "" {
		return "re.compile(" + r + ", " + f + ")", nil
	}
	return "re.compile(" + r + ")", nil
}

// PyHash hashes the pattern's source and flags, so that equal patterns
// hash alike.
func (p *Pattern) PyHash(t *python.Thread) (int64, error) {
	h, err := python.Hash(t, p.src)
	if err != nil {
		return 0, err
	}
	h ^= int64(p.re.Flags()) * 1000003
	if h == -1 {
		h = -2
	}
	return h, nil
}

// PyCompare implements == (same source, type and flags) and refuses
// ordering with CPython's message.
func (p *Pattern) PyCompare(t *python.Thread, op python.CmpOp, other python.Object) (python.Object, error) {
	if op != python.CmpEq && op != python.CmpNe {
		return orderError(op, p, other)
	}
	q, ok := other.(*Pattern)
	if !ok {
		return python.NotImplemented, nil
	}
	eq := p == q || (p.re.IsBytes() == q.re.IsBytes() && p.re.Flags() == q.re.Flags() && p.re.String() == q.re.String())
	return python.MakeBool(eq == (op == python.CmpEq)), nil
}

// cmpSymbol is the operator of an ordering comparison.
func cmpSymbol(op python.CmpOp) string {
	switch op {
	case python.CmpLt:
		return "<"
	case python.CmpLe:
		return "<="
	case python.CmpGt:
		return ">"
	case python.CmpGe:
		return ">="
	}
	return ""
}

// orderError is the TypeError of <, <=, > and >= on patterns and matches.
func orderError(op python.CmpOp, a, b python.Object) (python.Object, error) {
	if op == python.CmpEq || op == python.CmpNe {
		return python.NotImplemented, nil
	}
	return nil, python.Errorf(python.TypeErrorType, "'%s' not supported between instances of '%s' and '%s'", cmpSymbol(op), cTypeName(a), cTypeName(b))
}

// groupIndex returns Pattern.groupindex: a mappingproxy of the named
// groups, or, as in CPython, a new empty dict when there are none.
func (p *Pattern) groupIndex(t *python.Thread) (python.Object, error) {
	names := p.re.GroupIndex()
	if len(names) == 0 {
		return python.NewDict(0), nil
	}
	if p.index == nil {
		d := python.NewDict(len(names))
		for _, gn := range names {
			d.SetStr(gn.Name, python.MakeInt(int64(gn.Index)))
		}
		p.index = d
	}
	return mappingProxy(t, p.index)
}

// mappingProxy returns a read-only view of d.
func mappingProxy(t *python.Thread, d *python.Dict) (python.Object, error) {
	return python.NewMappingProxy(d), nil
}

func initPatternType() {
	patternType = python.NewBuiltinType("Pattern", "re", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.Errorf(python.TypeErrorType, "cannot create 're.Pattern' instances")
	})
	patternType.SetFinal()
	self := func(args []python.Object) *Pattern { return args[0].(*Pattern) }
	for _, e := range []struct {
		name string
		mode execMode
	}{{"search", modeSearch}, {"match", modeMatch}, {"fullmatch", modeFull}} {
		e := e
		patternType.AddMethod(e.name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return self(args).exec(t, e.name, e.mode, args[1:], kwargs)
		})
	}
	patternType.AddMethod("findall", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		p := self(args)
		vals, err := clinicArgs("findall", args[1:], kwargs, 1, "string", "pos", "endpos")
		if err != nil {
			return nil, err
		}
		sj, pos, endpos, err := p.stringArgs(t, "findall", vals[:])
		if err != nil {
			return nil, err
		}
		return p.findall(t, sj, pos, endpos)
	})
	patternType.AddMethod("finditer", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		p := self(args)
		vals, err := clinicArgs("finditer", args[1:], kwargs, 1, "string", "pos", "endpos")
		if err != nil {
			return nil, err
		}
		sj, pos, endpos, err := p.stringArgs(t, "finditer", vals[:])
		if err != nil {
			return nil, err
		}
		return p.finditer(t, sj, pos, endpos), nil
	})
	patternType.AddMethod("scanner", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		p := self(args)
		vals, err := clinicArgs("scanner", args[1:], kwargs, 1, "string", "pos", "endpos")
		if err != nil {
			return nil, err
		}
		sj, pos, endpos, err := p.stringArgs(t, "scanner", vals[:])
		if err != nil {
			return nil, err
		}
		return p.newScanner(sj, pos, endpos), nil
	})
	patternType.AddMethod("split", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		p := self(args)
		vals, err := clinicArgs("split", args[1:], kwargs, 1, "string", "maxsplit")
		if err != nil {
			return nil, err
		}
		sj, err := p.subject(t, vals[0])
		if err != nil {
			return nil, err
		}
		maxsplit, err := intArg(t, "split", vals[1], 0)
		if err != nil {
			return nil, err
		}
		return p.split(t, sj, maxsplit)
	})
	for _, name := range []string{"sub", "subn"} {
		name := name
		patternType.AddMethod(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			p := self(args)
			vals, err := clinicArgs(name, args[1:], kwargs, 2, "repl", "string", "count")
			if err != nil {
				return nil, err
			}
			return p.subArgs(t, name == "subn", vals[0], vals[1], vals[2])
		})
	}
	patternType.AddMethod("__copy__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noKwargs("Pattern.__copy__", kwargs); err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, python.Errorf(python.TypeErrorType, "Pattern.__copy__() takes no arguments (%d given)", len(args)-1)
		}
		return args[0], nil
	})
	patternType.AddMethod("__deepcopy__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noKwargs("Pattern.__deepcopy__", kwargs); err != nil {
			return nil, err
		}
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "Pattern.__deepcopy__() takes exactly one argument (%d given)", len(args)-1)
		}
		return args[0], nil
	})
	get := func(name string, f func(t *python.Thread, p *Pattern) (python.Object, error)) {
		patternType.AddGetSet(name, func(t *python.Thread, obj python.Object) (python.Object, error) {
			return f(t, obj.(*Pattern))
		}, nil)
	}
	get("pattern", func(t *python.Thread, p *Pattern) (python.Object, error) { return p.src, nil })
	get("flags", func(t *python.Thread, p *Pattern) (python.Object, error) {
		return python.MakeInt(int64(p.re.Flags())), nil
	})
	get("groups", func(t *python.Thread, p *Pattern) (python.Object, error) {
		return python.MakeInt(int64(p.re.Groups())), nil
	})
	get("groupindex", func(t *python.Thread, p *Pattern) (python.Object, error) { return p.groupIndex(t) })
}
