package difflib

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/collections"
)

// The module wrapper: code mode's difflib module over the kernel above.
//
// SequenceMatcher works on any sequences of hashable items: each item
// becomes an int key, its code point for a one-character str (so that a
// str and a list of characters compare as in CPython) and otherwise a
// number given to it by a dict of the items (equal items share a key, by
// Python's hash and ==). The generators of CPython (unified_diff,
// context_diff, ndiff, Differ.compare, restore, get_grouped_opcodes)
// are iterators that compute their lines on the first next(). HtmlDiff
// and diff_bytes are refused.

type obj = python.Object

// Register makes difflib importable.
func Register() {
	python.Setup()
	python.RegisterModule("difflib", load)
}

type module struct {
	matchType   *python.Type // Match, a named tuple
	matcherType *python.Type
	differType  *python.Type
	charJunk    obj // the module's IS_CHARACTER_JUNK
}

func load(in *python.Interp) (*python.Module, error) {
	md := &module{}
	mt, err := collections.NewNamedTuple(nil, "Match", []string{"a", "b", "size"}, nil, "difflib")
	if err != nil {
		return nil, err
	}
	md.matchType = mt
	md.matcherType = md.newMatcherType()
	md.differType = md.newDifferType()
	m := python.NewModule("difflib")
	m.Set("Match", md.matchType)
	m.Set("SequenceMatcher", md.matcherType)
	m.Set("Differ", md.differType)
	m.Func("get_close_matches", md.getCloseMatches)
	m.Func("unified_diff", md.unifiedDiff)
	m.Func("context_diff", md.contextDiff)
	m.Func("ndiff", md.ndiff)
	m.Func("restore", restore)
	m.Func("IS_LINE_JUNK", isLineJunk)
	m.Func("IS_CHARACTER_JUNK", isCharacterJunk)
	md.charJunk, _ = m.Dict().GetStr("IS_CHARACTER_JUNK")
	m.Set("HtmlDiff", python.NewBuiltinType("HtmlDiff", "difflib", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("difflib.HtmlDiff", "use unified_diff or ndiff")
	}))
	m.Func("diff_bytes", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("difflib.diff_bytes", "decode the lines and use unified_diff or context_diff")
	})
	all := []obj{}
	for _, n := range []string{"get_close_matches", "ndiff", "restore", "SequenceMatcher", "Differ",
		"IS_CHARACTER_JUNK", "IS_LINE_JUNK", "context_diff", "unified_diff", "diff_bytes", "HtmlDiff", "Match"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}

// kernelErr converts a kernel error into the Python exception it names.
func kernelErr(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Type {
	case "IndexError":
		return python.Errorf(python.IndexErrorType, "%s", e.Msg)
	case "TypeError":
		return python.Errorf(python.TypeErrorType, "%s", e.Msg)
	}
	return python.Errorf(python.ValueErrorType, "%s", e.Msg)
}

// isInherited reports whether cls's attribute name is own (not overridden
// by a subclass).
func isInherited(cls *python.Type, name string, own obj) bool {
	v, ok := cls.Lookup(name)
	return ok && v == own
}

// matcher is a SequenceMatcher (or the Go part of an instance of a
// subclass).
type matcher struct {
	cls      *python.Type
	isjunk   obj
	autojunk bool
	a, b     obj   // the sequences as given
	aItems   []obj // their items, materialized (nil for str)
	aErr     error // the TypeError of using an a that is not a sequence
	bItems   []obj
	aKeys    []int
	bKeys    []int
	keys     *python.Dict // item -> negative key, for items other than 1-char strs
	objs     []obj        // objs[-key-1] is the item of a negative key
	m        *SequenceMatcher[int]
}

// Type returns SequenceMatcher.
func (s *matcher) Type() *python.Type { return s.cls }

// seqKeys returns the keys of a sequence's items, and its items when it
// is not a str.
func (s *matcher) seqKeys(t *python.Thread, seq obj) ([]int, []obj, error) {
	if python.IsStr(seq) {
		str, err := python.StrOf(t, python.Unwrap(seq))
		if err != nil {
			return nil, nil, err
		}
		if err := t.CheckSize(int64(len(str)) * 8); err != nil {
			return nil, nil, err
		}
		keys := make([]int, 0, len(str))
		for _, r := range str {
			keys = append(keys, int(r))
		}
		return keys, nil, nil
	}
	items, err := python.ToSlice(t, seq)
	if err != nil {
		return nil, nil, err
	}
	if err := t.CheckSize(int64(len(items)) * 8); err != nil {
		return nil, nil, err
	}
	keys := make([]int, len(items))
	for i, x := range items {
		if keys[i], err = s.keyOf(t, x); err != nil {
			return nil, nil, err
		}
		if i&1023 == 1023 {
			if err := t.Tick(1); err != nil {
				return nil, nil, err
			}
		}
	}
	return keys, items, nil
}

// keyOf returns an item's key.
func (s *matcher) keyOf(t *python.Thread, x obj) (int, error) {
	if str, ok := x.(*python.Str); ok && str.Len() == 1 {
		r, _ := utf8.DecodeRuneInString(str.String())
		return int(r), nil
	}
	if s.keys == nil {
		s.keys = python.NewDict(8)
	}
	v, ok, err := s.keys.Get(t, x)
	if err != nil {
		return 0, err
	}
	if ok {
		n, _ := python.AsInt64(v)
		return int(n), nil
	}
	k := -len(s.objs) - 1
	s.objs = append(s.objs, x)
	return k, s.keys.Set(t, x, python.MakeInt(int64(k)))
}

// item returns the item of a key.
func (s *matcher) item(k int) obj {
	if k >= 0 {
		return python.NewStr(string(rune(k)))
	}
	return s.objs[-k-1]
}

// setSeq1 is set_seq1(a): CPython only stores a, so that a value which
// is not a sequence fails when it is used (aErr).
func (s *matcher) setSeq1(t *python.Thread, a obj) error {
	s.aErr = nil
	if !python.IsStr(a) {
		if _, err := python.Len(t, a); err != nil {
			if !python.IsInstance(err, python.TypeErrorType) {
				return err
			}
			s.a, s.aKeys, s.aItems, s.aErr = a, nil, nil, err
			s.m.SetSeq1(nil)
			return nil
		}
	}
	keys, items, err := s.seqKeys(t, a)
	if err != nil {
		return err
	}
	s.a, s.aKeys, s.aItems = a, keys, items
	s.m.SetSeq1(keys)
	return nil
}

func (s *matcher) setSeq2(t *python.Thread, b obj) error {
	keys, items, err := s.seqKeys(t, b)
	if err != nil {
		return err
	}
	s.b, s.bKeys, s.bItems = b, keys, items
	if s.isjunk != nil && s.isjunk != python.None {
		junk := s.isjunk
		n := 0
		s.m.IsJunk = func(k int) (bool, error) {
			n++
			if n&1023 == 0 {
				if err := t.Tick(1); err != nil {
					return false, err
				}
			}
			r, err := python.Call(t, junk, []obj{s.item(k)}, nil)
			if err != nil {
				return false, err
			}
			return python.TruthE(t, r)
		}
	} else {
		s.m.IsJunk = nil
	}
	return s.m.SetSeq2(keys)
}

// self returns the matcher behind a SequenceMatcher instance.
func matcherOf(x obj) (*matcher, error) {
	if s, ok := python.Unwrap(x).(*matcher); ok {
		return s, nil
	}
	return nil, python.Errorf(python.TypeErrorType, "descriptor requires a 'difflib.SequenceMatcher' object but received a '%s'", python.TypeName(x))
}

var matcherInitSig = &python.Signature{Name: "SequenceMatcher.__init__", Pos: []string{"self", "isjunk", "a", "b", "autojunk"}, Required: 1}

func (md *module) newMatcherType() *python.Type {
	var c *python.Type
	c = python.NewBuiltinType("SequenceMatcher", "difflib", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		s := &matcher{cls: c, isjunk: python.None, autojunk: true, m: &SequenceMatcher[int]{AutoJunk: true}}
		var self obj = s
		if cls != c {
			self = python.NewInstance(cls, s)
		}
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := matcherInit(t, self, args, kwargs); err != nil {
				return nil, err
			}
		} else {
			// A subclass's __init__ calls ours; until then the sequences
			// are the defaults.
			if err := s.setSeq1(t, python.NewStr("")); err != nil {
				return nil, err
			}
			if err := s.setSeq2(t, python.NewStr("")); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, matcherInit(t, args[0], args[1:], kwargs)
	})
	method := func(name string, params []string, required int, fn func(t *python.Thread, s *matcher, a []obj) (obj, error)) {
		sig := &python.Signature{Name: "SequenceMatcher." + name, Pos: append([]string{"self"}, params...), Required: required + 1}
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			a, _, _, err := sig.Bind(args, kwargs)
			if err != nil {
				return nil, err
			}
			s, err := matcherOf(args[0])
			if err != nil {
				return nil, err
			}
			if s.aErr != nil && !strings.HasPrefix(name, "set_seq") {
				return nil, s.aErr
			}
			return fn(t, s, a[1:])
		})
	}
	method("set_seqs", []string{"a", "b"}, 2, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		if err := s.setSeq1(t, a[0]); err != nil {
			return nil, err
		}
		return python.None, s.setSeq2(t, a[1])
	})
	method("set_seq1", []string{"a"}, 1, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		if python.Identical(a[0], s.a) {
			return python.None, nil
		}
		return python.None, s.setSeq1(t, a[0])
	})
	method("set_seq2", []string{"b"}, 1, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		if python.Identical(a[0], s.b) {
			return python.None, nil
		}
		return python.None, s.setSeq2(t, a[0])
	})
	method("find_longest_match", []string{"alo", "ahi", "blo", "bhi"}, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		bounds := [4]int{0, len(s.aKeys), 0, len(s.bKeys)}
		for i, v := range a {
			if v == nil || (v == python.None && i%2 == 1) {
				continue
			}
			n, ok, err := python.IndexValue(t, v)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(v))
			}
			bounds[i] = int(n)
		}
		alo, ahi, blo, bhi := bounds[0], bounds[1], bounds[2], bounds[3]
		if alo < 0 || ahi > len(s.aKeys) || blo < 0 || bhi > len(s.bKeys) {
			return nil, python.NotSupported("find_longest_match with bounds outside the sequences", "pass 0 <= alo <= ahi <= len(a) and 0 <= blo <= bhi <= len(b)")
		}
		x, err := s.m.FindLongestMatch(ctxOf(t), alo, ahi, blo, bhi)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.match(t, x)
	})
	method("get_matching_blocks", nil, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		blocks, err := s.m.GetMatchingBlocks(ctxOf(t))
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.matchList(t, blocks)
	})
	method("get_opcodes", nil, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		ops, err := s.m.GetOpcodes(ctxOf(t))
		if err != nil {
			return nil, kernelErr(err)
		}
		return opcodeList(ops), nil
	})
	method("get_grouped_opcodes", []string{"n"}, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		n := 3
		if a[0] != nil {
			v, err := intArg(t, a[0])
			if err != nil {
				return nil, err
			}
			n = v
		}
		var groups [][]Opcode
		started := false
		return python.NewIterator(python.GeneratorType, func(t *python.Thread) (obj, error) {
			if !started {
				started = true
				var err error
				if groups, err = s.m.GetGroupedOpcodes(ctxOf(t), n); err != nil {
					return nil, kernelErr(err)
				}
			}
			if len(groups) == 0 {
				return nil, nil
			}
			g := groups[0]
			groups = groups[1:]
			return opcodeList(g), nil
		}), nil
	})
	method("ratio", nil, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		r, err := s.m.Ratio(ctxOf(t))
		if err != nil {
			return nil, kernelErr(err)
		}
		return python.Float(r), nil
	})
	method("quick_ratio", nil, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		return python.Float(s.m.QuickRatio()), nil
	})
	method("real_quick_ratio", nil, 0, func(t *python.Thread, s *matcher, a []obj) (obj, error) {
		return python.Float(s.m.RealQuickRatio()), nil
	})
	getter := func(name string, fn func(t *python.Thread, s *matcher) (obj, error)) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			s, err := matcherOf(x)
			if err != nil {
				return nil, err
			}
			return fn(t, s)
		}, nil)
	}
	getter("a", func(t *python.Thread, s *matcher) (obj, error) { return s.a, nil })
	getter("b", func(t *python.Thread, s *matcher) (obj, error) { return s.b, nil })
	getter("isjunk", func(t *python.Thread, s *matcher) (obj, error) { return s.isjunk, nil })
	getter("autojunk", func(t *python.Thread, s *matcher) (obj, error) { return python.MakeBool(s.autojunk), nil })
	getter("b2j", func(t *python.Thread, s *matcher) (obj, error) {
		b2j := s.m.B2J()
		d := python.NewDict(len(b2j))
		for _, k := range s.bKeys {
			idx, ok := b2j[k]
			if !ok {
				continue
			}
			key := s.item(k)
			if _, seen, err := d.Get(t, key); err != nil || seen {
				if err != nil {
					return nil, err
				}
				continue
			}
			l := make([]obj, len(idx))
			for i, j := range idx {
				l[i] = python.MakeInt(int64(j))
			}
			if err := d.Set(t, key, python.NewList(l)); err != nil {
				return nil, err
			}
		}
		return d, nil
	})
	setOf := func(t *python.Thread, s *matcher, keys map[int]bool) (obj, error) {
		out := python.NewSet(false)
		for _, k := range s.bKeys {
			if keys[k] {
				if err := out.Add(t, s.item(k)); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	getter("bjunk", func(t *python.Thread, s *matcher) (obj, error) { return setOf(t, s, s.m.BJunk()) })
	getter("bpopular", func(t *python.Thread, s *matcher) (obj, error) { return setOf(t, s, s.m.BPopular()) })
	return c
}

// matcherInit is SequenceMatcher.__init__(self, isjunk=None, a="", b="",
// autojunk=True).
func matcherInit(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	a, _, _, err := matcherInitSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return err
	}
	s, err := matcherOf(self)
	if err != nil {
		return err
	}
	s.isjunk = python.None
	if a[1] != nil {
		s.isjunk = a[1]
	}
	s.autojunk = true
	if a[4] != nil {
		if s.autojunk, err = python.TruthE(t, a[4]); err != nil {
			return err
		}
	}
	s.m = &SequenceMatcher[int]{AutoJunk: s.autojunk}
	s.keys, s.objs = nil, nil
	seqA, seqB := a[2], a[3]
	if seqA == nil {
		seqA = python.NewStr("")
	}
	if seqB == nil {
		seqB = python.NewStr("")
	}
	if err := s.setSeq1(t, seqA); err != nil {
		return err
	}
	return s.setSeq2(t, seqB)
}

// match returns Match(a, b, size).
func (md *module) match(t *python.Thread, x Match) (obj, error) {
	return python.NewInstance(md.matchType, python.NewTuple([]obj{python.MakeInt(int64(x.A)), python.MakeInt(int64(x.B)), python.MakeInt(int64(x.Size))})), nil
}

func (md *module) matchList(t *python.Thread, blocks []Match) (obj, error) {
	out := make([]obj, len(blocks))
	for i, x := range blocks {
		m, err := md.match(t, x)
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return python.NewList(out), nil
}

func opcodeList(ops []Opcode) obj {
	out := make([]obj, len(ops))
	for i, o := range ops {
		out[i] = python.NewTuple([]obj{python.NewStr(o.Tag), python.MakeInt(int64(o.I1)), python.MakeInt(int64(o.I2)), python.MakeInt(int64(o.J1)), python.MakeInt(int64(o.J2))})
	}
	return python.NewList(out)
}

// intArg returns an int argument.
func intArg(t *python.Thread, x obj) (int, error) {
	n, ok, err := python.IndexValue(t, x)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
	}
	const limit = 1 << 40
	if n > limit || n < -limit {
		return 0, python.NotSupported("a difflib argument this large", "use a smaller value")
	}
	return int(n), nil
}

// goStr returns the text of a str object.
func goStr(t *python.Thread, x obj) (string, bool, error) {
	if !python.IsStr(x) {
		return "", false, nil
	}
	s, err := python.StrOf(t, python.Unwrap(x))
	return s, true, err
}

// lines returns the items of a sequence of str.
func lines(t *python.Thread, seq obj, what string) ([]string, error) {
	items, err := python.ToSlice(t, seq)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	size := int64(0)
	for i, x := range items {
		s, ok, err := goStr(t, x)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.NotSupported(what+" of lines that are not all str (item "+strconv.Itoa(i)+" is "+python.TypeName(x)+")", "pass lists of str")
		}
		out[i] = s
		size += int64(len(s)) + 16
	}
	return out, t.CheckSize(size)
}

// lazyLines returns an iterator over the lines compute returns, calling it
// on the first next() (as CPython's generators run their body).
func lazyLines(compute func(t *python.Thread) ([]string, error)) obj {
	var out []string
	started := false
	return python.NewIterator(python.GeneratorType, func(t *python.Thread) (obj, error) {
		if !started {
			started = true
			var err error
			if out, err = compute(t); err != nil {
				return nil, err
			}
		}
		if len(out) == 0 {
			return nil, nil
		}
		s := out[0]
		out = out[1:]
		return python.NewStr(s), nil
	})
}

var closeSig = &python.Signature{Name: "get_close_matches", Pos: []string{"word", "possibilities", "n", "cutoff"}, Required: 2}

// getCloseMatches is difflib.get_close_matches(word, possibilities, n=3,
// cutoff=0.6).
func (md *module) getCloseMatches(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := closeSig.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	n, nRepr := 3, "3"
	if a[2] != nil {
		if nRepr, err = python.Repr(t, a[2]); err != nil {
			return nil, err
		}
		if n, err = intArg(t, a[2]); err != nil {
			return nil, err
		}
	}
	cutoff, cutoffRepr := 0.6, "0.6"
	if a[3] != nil {
		if cutoffRepr, err = python.Repr(t, a[3]); err != nil {
			return nil, err
		}
		f, ok, err := python.FloatValue(a[3])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "'<=' not supported between instances of 'float' and '%s'", python.TypeName(a[3]))
		}
		cutoff = f
	}
	if !(n > 0) {
		return nil, python.Errorf(python.ValueErrorType, "n must be > 0: %s", nRepr)
	}
	if !(0.0 <= cutoff && cutoff <= 1.0) {
		return nil, python.Errorf(python.ValueErrorType, "cutoff must be in [0.0, 1.0]: %s", cutoffRepr)
	}
	word, ok, err := goStr(t, a[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.NotSupported("get_close_matches of a "+python.TypeName(a[0]), "pass a str and a list of str")
	}
	poss, err := lines(t, a[1], "get_close_matches")
	if err != nil {
		return nil, err
	}
	r, err := GetCloseMatches(ctxOf(t), word, poss, n, cutoff, nRepr, cutoffRepr)
	if err != nil {
		return nil, kernelErr(err)
	}
	out := make([]obj, len(r))
	for i, s := range r {
		out[i] = python.NewStr(s)
	}
	return python.NewList(out), nil
}

var (
	unifiedSig = &python.Signature{Name: "unified_diff", Pos: []string{"a", "b", "fromfile", "tofile", "fromfiledate", "tofiledate", "n", "lineterm"}, Required: 2}
	contextSig = &python.Signature{Name: "context_diff", Pos: []string{"a", "b", "fromfile", "tofile", "fromfiledate", "tofiledate", "n", "lineterm"}, Required: 2}
)

// diffArgs checks the arguments of unified_diff and context_diff as
// CPython's _check_types does.
func diffArgs(t *python.Thread, a []obj) ([]string, []string, DiffOptions, error) {
	o := DefaultDiffOptions()
	for _, seq := range a[:2] {
		if n, err := python.Len(t, seq); err == nil && n > 0 {
			first, err := python.GetItem(t, seq, python.MakeInt(0))
			if err != nil {
				return nil, nil, o, err
			}
			if !python.IsStr(first) {
				r, err := python.Repr(t, first)
				if err != nil {
					return nil, nil, o, err
				}
				return nil, nil, o, python.Errorf(python.TypeErrorType, "lines to compare must be str, not %s (%s)", python.TypeName(first), r)
			}
		}
	}
	strs := []*string{&o.FromFile, &o.ToFile, &o.FromFileDate, &o.ToFileDate, nil, &o.LineTerm}
	for i, p := range strs {
		v := a[2+i]
		if p == nil || v == nil {
			continue
		}
		s, ok, err := goStr(t, v)
		if err != nil {
			return nil, nil, o, err
		}
		if !ok {
			r, err := python.Repr(t, v)
			if err != nil {
				return nil, nil, o, err
			}
			return nil, nil, o, python.Errorf(python.TypeErrorType, "all arguments must be str, not: %s", r)
		}
		*p = s
	}
	if v := a[6]; v != nil {
		n, err := intArg(t, v)
		if err != nil {
			return nil, nil, o, err
		}
		o.N = n
	}
	la, err := lines(t, a[0], "diffs")
	if err != nil {
		return nil, nil, o, err
	}
	lb, err := lines(t, a[1], "diffs")
	if err != nil {
		return nil, nil, o, err
	}
	return la, lb, o, nil
}

// unifiedDiff is difflib.unified_diff(a, b, fromfile="", tofile="",
// fromfiledate="", tofiledate="", n=3, lineterm="\n").
func (md *module) unifiedDiff(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := unifiedSig.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return lazyLines(func(t *python.Thread) ([]string, error) {
		la, lb, o, err := diffArgs(t, a)
		if err != nil {
			return nil, err
		}
		out, err := UnifiedDiff(ctxOf(t), la, lb, o)
		return out, kernelErr(err)
	}), nil
}

// contextDiff is difflib.context_diff(a, b, ...).
func (md *module) contextDiff(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := contextSig.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return lazyLines(func(t *python.Thread) ([]string, error) {
		la, lb, o, err := diffArgs(t, a)
		if err != nil {
			return nil, err
		}
		out, err := ContextDiff(ctxOf(t), la, lb, o)
		return out, kernelErr(err)
	}), nil
}

// differ builds the kernel's Differ for linejunk and charjunk callables.
func (md *module) differ(t *python.Thread, linejunk, charjunk obj) *Differ {
	d := &Differ{}
	n := 0
	tick := func() error {
		n++
		if n&1023 == 0 {
			return t.Tick(1)
		}
		return nil
	}
	if linejunk != nil && linejunk != python.None {
		d.LineJunk = func(s string) (bool, error) {
			if err := tick(); err != nil {
				return false, err
			}
			r, err := python.Call(t, linejunk, []obj{python.NewStr(s)}, nil)
			if err != nil {
				return false, err
			}
			return python.TruthE(t, r)
		}
	}
	switch {
	case charjunk == nil || charjunk == python.None:
	case charjunk == md.charJunk:
		d.CharJunk = func(c rune) (bool, error) { return IsCharacterJunk(c), nil }
	default:
		d.CharJunk = func(c rune) (bool, error) {
			if err := tick(); err != nil {
				return false, err
			}
			r, err := python.Call(t, charjunk, []obj{python.NewStr(string(c))}, nil)
			if err != nil {
				return false, err
			}
			return python.TruthE(t, r)
		}
	}
	return d
}

// compare is Differ(linejunk, charjunk).compare(a, b).
func (md *module) compare(linejunk, charjunk, a, b obj) obj {
	return lazyLines(func(t *python.Thread) ([]string, error) {
		la, err := lines(t, a, "Differ.compare")
		if err != nil {
			return nil, err
		}
		lb, err := lines(t, b, "Differ.compare")
		if err != nil {
			return nil, err
		}
		out, err := md.differ(t, linejunk, charjunk).Compare(ctxOf(t), la, lb)
		return out, kernelErr(err)
	})
}

var ndiffSig = &python.Signature{Name: "ndiff", Pos: []string{"a", "b", "linejunk", "charjunk"}, Required: 2}

// ndiff is difflib.ndiff(a, b, linejunk=None, charjunk=IS_CHARACTER_JUNK).
func (md *module) ndiff(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := ndiffSig.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	charjunk := a[3]
	if charjunk == nil {
		charjunk = md.charJunk
	}
	return md.compare(a[2], charjunk, a[0], a[1]), nil
}

var differInitSig = &python.Signature{Name: "Differ.__init__", Pos: []string{"self", "linejunk", "charjunk"}, Required: 1}

// newDifferType makes Differ: its instances are plain instances with the
// attributes linejunk and charjunk, read by compare.
func (md *module) newDifferType() *python.Type {
	var c *python.Type
	c = python.NewBuiltinType("Differ", "difflib", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		self := python.NewInstance(cls, nil)
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := differInit(t, self, args, kwargs); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, differInit(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("compare", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, _, _, err := (&python.Signature{Name: "Differ.compare", Pos: []string{"self", "a", "b"}, Required: 3}).Bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		lj, err := python.GetAttr(t, args[0], "linejunk")
		if err != nil {
			return nil, err
		}
		cj, err := python.GetAttr(t, args[0], "charjunk")
		if err != nil {
			return nil, err
		}
		return md.compare(lj, cj, a[1], a[2]), nil
	})
	return c
}

func differInit(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	a, _, _, err := differInitSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return err
	}
	for i, name := range []string{"linejunk", "charjunk"} {
		v := a[i+1]
		if v == nil {
			v = python.None
		}
		if err := python.SetAttr(t, self, name, v); err != nil {
			return err
		}
	}
	return nil
}

// restore is difflib.restore(delta, which).
func restore(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "restore", Pos: []string{"delta", "which"}, Required: 2}).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return lazyLines(func(t *python.Thread) ([]string, error) {
		w, err := python.Call(t, python.IntType, []obj{a[1]}, nil)
		if err != nil {
			return nil, err
		}
		which, _ := python.AsInt64(w)
		if big := python.ToBig(w); big != nil && !big.IsInt64() || which != 1 && which != 2 {
			r, err := python.Repr(t, a[1])
			if err != nil {
				return nil, err
			}
			return nil, python.Errorf(python.ValueErrorType, "unknown delta choice (must be 1 or 2): %s", r)
		}
		delta, err := lines(t, a[0], "restore")
		if err != nil {
			return nil, err
		}
		out, err := Restore(delta, int(which))
		return out, kernelErr(err)
	}), nil
}

// isLineJunk is difflib.IS_LINE_JUNK(line, pat=...).
func isLineJunk(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "IS_LINE_JUNK", Pos: []string{"line", "pat"}, Required: 1}).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	if a[1] != nil {
		r, err := python.Call(t, a[1], []obj{a[0]}, nil)
		if err != nil {
			return nil, err
		}
		return python.MakeBool(r != python.None), nil
	}
	s, ok, err := goStr(t, a[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "expected string or bytes-like object, got '%s'", python.TypeName(a[0]))
	}
	return python.MakeBool(IsLineJunk(s)), nil
}

// isCharacterJunk is difflib.IS_CHARACTER_JUNK(ch, ws=" \t").
func isCharacterJunk(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "IS_CHARACTER_JUNK", Pos: []string{"ch", "ws"}, Required: 1}).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	ws := a[1]
	if ws == nil {
		ws = python.NewStr(" \t")
	}
	r, err := python.Contains(t, ws, a[0])
	if err != nil {
		return nil, err
	}
	return python.MakeBool(r), nil
}

var _ = strings.Join

// stepCtx is the context the kernel's long loops poll, every 1024
// iterations: each poll counts those iterations as steps of the cell, so
// that its step limit (and cancellation) hold inside a long comparison.
type stepCtx struct {
	context.Context
	t *python.Thread
}

// Err counts the steps and reports a stop.
func (c stepCtx) Err() error { return c.t.Tick(1024) }

func ctxOf(t *python.Thread) context.Context { return stepCtx{t.Context(), t} }
