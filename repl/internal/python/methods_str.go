package python

import (
	"errors"

	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// selfStr returns a str method's receiver as a str (a context is
// materialized within the value bound).
func selfStr(t *Thread, args []Object, name string) (*Str, error) {
	if len(args) > 0 {
		switch v := args[0].(type) {
		case *Str:
			return v, nil
		case *hostStr:
			return v.materialize(t)
		case *Instance:
			if s, ok := v.base.(*Str); ok {
				return s, nil
			}
		}
		return nil, Errorf(TypeErrorType, "descriptor '%s' for 'str' objects doesn't apply to a '%s' object", name, typeName(args[0]))
	}
	return nil, Errorf(TypeErrorType, "unbound method str.%s() needs an argument", name)
}

// strArg returns a str argument, accepting a context (materialized).
func strArg(t *Thread, x Object) (*Str, bool, error) {
	switch v := x.(type) {
	case *Str:
		return v, true, nil
	case *hostStr:
		s, err := v.materialize(t)
		return s, true, err
	case *Instance:
		if s, ok := v.base.(*Str); ok {
			return s, true, nil
		}
	}
	return nil, false, nil
}

func optArg(t *Thread, x Object) (pystr.Opt, error) {
	if x == nil || x == None {
		return pystr.None, nil
	}
	n, ok, err := bigIndexValue(t, x)
	if err != nil {
		return pystr.None, err
	}
	if !ok {
		return pystr.None, Errorf(TypeErrorType, "slice indices must be integers or None or have an __index__ method")
	}
	return pystr.Int(int(n)), nil
}

func strResult(s string, err error) (Object, error) {
	if err != nil {
		return nil, fromKernel(err)
	}
	return NewStr(s), nil
}

// strParts returns the thread's scratch slice for the parts of a split,
// empty; strListDone gives it back.
func (t *Thread) strParts() []string {
	if t == nil {
		return nil
	}
	return t.parts[:0]
}

// maxScratchParts is the most parts the scratch keeps between splits.
const maxScratchParts = 4096

// strListDone returns the parts of src as a list of strs (strList) and
// keeps parts, cleared, as the thread's scratch.
func strListDone(t *Thread, src *Str, parts []string) Object {
	l := strList(src, parts)
	t.keepParts(parts)
	return l
}

// keepParts keeps parts, cleared, as the thread's scratch (strParts).
func (t *Thread) keepParts(parts []string) {
	if t != nil && cap(parts) <= maxScratchParts {
		clear(parts)
		t.parts = parts[:0]
	}
}

// strList returns the parts of src (split, splitlines) as a list of strs,
// allocated in one block; parts of a str known to be ASCII are ASCII.
func strList(src *Str, parts []string) Object {
	out := make([]Object, len(parts))
	block := make([]Str, len(parts))
	ascii := src.IsASCII()
	for i, p := range parts {
		if len(p) <= 1 {
			out[i] = NewStr(p)
			continue
		}
		s := &block[i]
		s.s = p
		if ascii {
			s.meta = metaASCII
		}
		out[i] = s
	}
	return NewList(out)
}

// searchArgs parses (sub[, start[, end]]) for find/count/index/....
func searchArgs(t *Thread, name string, args []Object, kwargs []Kwarg) (*Str, pystr.Opt, pystr.Opt, error) {
	if err := nargs(name, args, kwargs, 1, 3); err != nil {
		return nil, pystr.None, pystr.None, err
	}
	sub, ok, err := strArg(t, args[0])
	if err != nil {
		return nil, pystr.None, pystr.None, err
	}
	if !ok {
		return nil, pystr.None, pystr.None, Errorf(TypeErrorType, "must be str, not %s", typeName(args[0]))
	}
	var start, end pystr.Opt
	if len(args) > 1 {
		if start, err = optArg(t, args[1]); err != nil {
			return nil, pystr.None, pystr.None, err
		}
	}
	if len(args) > 2 {
		if end, err = optArg(t, args[2]); err != nil {
			return nil, pystr.None, pystr.None, err
		}
	}
	return sub, start, end, nil
}

func initStrMethods() {
	c := StrType
	addDunders(c, "__len__", "__getitem__", "__contains__", "__iter__", "__repr__", "__str__", "__hash__",
		"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__",
		"__mod__", "__format__")
	unary := func(name string, f func(string) string) {
		qual := "str." + name // not per call: the concatenation allocates
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if h, ok := firstHost(args); ok {
				// context.lower(): f reads the host's bytes, without the
				// copy of the whole text selfStr would make first.
				return h.mapText(t, func() error { return nargs(qual, args[1:], kwargs, 0, 0) }, f)
			}
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(qual, args[1:], kwargs, 0, 0); err != nil {
				return nil, err
			}
			if s.IsASCII() && (name == "lower" || name == "upper") {
				r := f(s.s)
				if r == s.s {
					return s, nil
				}
				return newASCII(r), nil
			}
			return NewStr(f(s.s)), nil
		})
	}
	unary("upper", pystr.Upper)
	unary("lower", pystr.Lower)
	unary("casefold", pystr.Casefold)
	unary("swapcase", pystr.SwapCase)
	unary("title", pystr.Title)
	unary("capitalize", pystr.Capitalize)
	pred := func(name string, f func(string) bool) {
		qual := "str." + name
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(qual, args[1:], kwargs, 0, 0); err != nil {
				return nil, err
			}
			return MakeBool(f(s.s)), nil
		})
	}
	pred("isalpha", pystr.IsAlpha)
	pred("isalnum", pystr.IsAlnum)
	pred("isdecimal", pystr.IsDecimal)
	pred("isdigit", pystr.IsDigit)
	pred("isnumeric", pystr.IsNumeric)
	pred("isspace", pystr.IsSpace)
	pred("isupper", pystr.IsUpper)
	pred("islower", pystr.IsLower)
	pred("istitle", pystr.IsTitle)
	pred("isidentifier", pystr.IsIdentifier)
	pred("isprintable", pystr.IsPrintable)
	pred("isascii", pystr.IsASCII)

	search := func(name string, f func(t *Thread, s *Str, sub *Str, start, end pystr.Opt) (Object, error)) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if len(args) > 0 {
				if h, ok := firstHost(args); ok {
					return h.search(t, name, args[1:], kwargs)
				}
			}
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			sub, start, end, err := searchArgs(t, name, args[1:], kwargs)
			if err != nil {
				return nil, err
			}
			return f(t, s, sub, start, end)
		})
	}
	search("find", func(_ *Thread, s, sub *Str, st, en pystr.Opt) (Object, error) {
		x := s.searchIndex(st, en)
		return MakeInt(int64(x.Find(sub.s, st, en))), nil
	})
	search("rfind", func(_ *Thread, s, sub *Str, st, en pystr.Opt) (Object, error) {
		x := s.searchIndex(st, en)
		return MakeInt(int64(x.RFind(sub.s, st, en))), nil
	})
	search("index", func(_ *Thread, s, sub *Str, st, en pystr.Opt) (Object, error) {
		x := s.searchIndex(st, en)
		i, err := x.IndexOf(sub.s, st, en)
		if err != nil {
			return nil, fromKernel(err)
		}
		return MakeInt(int64(i)), nil
	})
	search("rindex", func(_ *Thread, s, sub *Str, st, en pystr.Opt) (Object, error) {
		x := s.searchIndex(st, en)
		i, err := x.RIndexOf(sub.s, st, en)
		if err != nil {
			return nil, fromKernel(err)
		}
		return MakeInt(int64(i)), nil
	})
	search("count", func(_ *Thread, s, sub *Str, st, en pystr.Opt) (Object, error) {
		x := s.searchIndex(st, en)
		return MakeInt(int64(x.Count(sub.s, st, en))), nil
	})
	affix := func(name string, f func(s, p string, st, en pystr.Opt) bool) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if len(args) > 0 {
				if h, ok := firstHost(args); ok {
					return h.search(t, name, args[1:], kwargs)
				}
			}
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(name, args[1:], kwargs, 1, 3); err != nil {
				return nil, err
			}
			var st, en pystr.Opt
			if len(args) > 2 {
				if st, err = optArg(t, args[2]); err != nil {
					return nil, err
				}
			}
			if len(args) > 3 {
				if en, err = optArg(t, args[3]); err != nil {
					return nil, err
				}
			}
			switch p := args[1].(type) {
			case *Str:
				return MakeBool(f(s.s, p.s, st, en)), nil
			case *Tuple:
				for _, x := range p.items {
					ps, ok := x.(*Str)
					if !ok {
						return nil, Errorf(TypeErrorType, "tuple for %s must only contain str, not %s", name, typeName(x))
					}
					if f(s.s, ps.s, st, en) {
						return True, nil
					}
				}
				return False, nil
			}
			return nil, Errorf(TypeErrorType, "%s first arg must be str or a tuple of str, not %s", name, typeName(args[1]))
		})
	}
	affix("startswith", func(s, p string, st, en pystr.Opt) bool { return pystr.StartsWith(s, p, st, en) })
	affix("endswith", func(s, p string, st, en pystr.Opt) bool { return pystr.EndsWith(s, p, st, en) })

	method(c, "split", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return strSplit(t, "split", args, kwargs, false)
	})
	method(c, "rsplit", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		return strSplit(t, "rsplit", args, kwargs, true)
	})
	method(c, "splitlines", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "splitlines")
		if err != nil {
			return nil, err
		}
		a, err := UnpackArgs("splitlines", args[1:], kwargs, 0, "keepends")
		if err != nil {
			return nil, err
		}
		keep := a[0] != nil && Truth(t, a[0])
		parts := pystr.SplitLinesAppend(t.strParts(), s.s, keep)
		if err := t.grow(int64(len(parts))*48 + int64(len(s.s))); err != nil {
			return nil, err
		}
		return strListDone(t, s, parts), nil
	})
	strip := func(name string, ws func(string) string, chars func(string, string) string) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(name, args[1:], kwargs, 0, 1); err != nil {
				return nil, err
			}
			var r string
			if len(args) == 1 || args[1] == None {
				r = ws(s.s)
			} else {
				cs, ok := args[1].(*Str)
				if !ok {
					return nil, Errorf(TypeErrorType, "%s arg must be None or str", name)
				}
				r = chars(s.s, cs.s)
			}
			if r == s.s {
				return s, nil
			}
			return NewStr(r), nil
		})
	}
	strip("strip", pystr.Strip, pystr.StripChars)
	strip("lstrip", pystr.LStrip, pystr.LStripChars)
	strip("rstrip", pystr.RStrip, pystr.RStripChars)
	affixRemove := func(name string, f func(string, string) string) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(name, args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			p, ok := args[1].(*Str)
			if !ok {
				return nil, Errorf(TypeErrorType, "%s() argument must be str, not %s", name, typeName(args[1]))
			}
			return NewStr(f(s.s, p.s)), nil
		})
	}
	affixRemove("removeprefix", pystr.RemovePrefix)
	affixRemove("removesuffix", pystr.RemoveSuffix)
	method(c, "replace", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "replace")
		if err != nil {
			return nil, err
		}
		if err := noKwargs("replace", kwargs); err != nil {
			return nil, err
		}
		a, err := UnpackArgs("replace", args[1:], nil, 2, "old", "new", "count")
		if err != nil {
			return nil, err
		}
		old, ok1 := a[0].(*Str)
		nw, ok2 := a[1].(*Str)
		if !ok1 {
			return nil, Errorf(TypeErrorType, "replace() argument 1 must be str, not %s", typeName(a[0]))
		}
		if !ok2 {
			return nil, Errorf(TypeErrorType, "replace() argument 2 must be str, not %s", typeName(a[1]))
		}
		count := int64(-1)
		if a[2] != nil {
			if count, err = argInt(t, "replace", a[2]); err != nil {
				return nil, err
			}
		}
		return strResult(pystr.Replace(s.s, old.s, nw.s, int(count), limitOf(t)))
	})
	part := func(name string, f func(s, sep string) (string, string, string, error)) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(name, args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			sep, ok := args[1].(*Str)
			if !ok {
				return nil, Errorf(TypeErrorType, "must be str, not %s", typeName(args[1]))
			}
			a, b, cc, err := f(s.s, sep.s)
			if err != nil {
				return nil, fromKernel(err)
			}
			return NewTuple([]Object{NewStr(a), NewStr(b), NewStr(cc)}), nil
		})
	}
	part("partition", pystr.Partition)
	part("rpartition", pystr.RPartition)
	pad := func(name string, f func(s string, width int, fill rune, limit int) (string, error)) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfStr(t, args, name)
			if err != nil {
				return nil, err
			}
			if err := nargs(name, args[1:], kwargs, 1, 2); err != nil {
				return nil, err
			}
			w, err := argInt(t, name, args[1])
			if err != nil {
				return nil, err
			}
			fill := ' '
			if len(args) == 3 {
				fs, ok := args[2].(*Str)
				if !ok {
					return nil, Errorf(TypeErrorType, "%s() argument 2 must be str, not %s", name, typeName(args[2]))
				}
				if fs.Len() != 1 {
					return nil, Errorf(TypeErrorType, "The fill character must be exactly one character long")
				}
				for _, r := range fs.s {
					fill = r
				}
			}
			if w > 1<<40 {
				return nil, t.grow(w)
			}
			return strResult(f(s.s, int(w), fill, limitOf(t)))
		})
	}
	pad("center", pystr.Center)
	pad("ljust", pystr.LJust)
	pad("rjust", pystr.RJust)
	method(c, "zfill", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "zfill")
		if err != nil {
			return nil, err
		}
		if err := nargs("zfill", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		w, err := argInt(t, "zfill", args[1])
		if err != nil {
			return nil, err
		}
		if w > 1<<40 {
			return nil, t.grow(w)
		}
		return strResult(pystr.ZFill(s.s, int(w), limitOf(t)))
	})
	method(c, "expandtabs", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "expandtabs")
		if err != nil {
			return nil, err
		}
		a, err := UnpackArgs("expandtabs", args[1:], kwargs, 0, "tabsize")
		if err != nil {
			return nil, err
		}
		ts := int64(8)
		if a[0] != nil {
			if ts, err = argInt(t, "expandtabs", a[0]); err != nil {
				return nil, err
			}
		}
		return strResult(pystr.ExpandTabs(s.s, int(ts), limitOf(t)))
	})
	method(c, "join", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "join")
		if err != nil {
			return nil, err
		}
		if err := nargs("str.join", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		var parts []string
		total := 0
		i := 0
		err = Iterate(t, args[1], func(x Object) error {
			xs, ok, err := strArg(t, x)
			if err != nil {
				return err
			}
			if !ok {
				return Errorf(TypeErrorType, "sequence item %d: expected str instance, %s found", i, typeName(x))
			}
			i++
			total += len(xs.s) + len(s.s)
			if total > limitOf(t) && limitOf(t) > 0 {
				return t.grow(int64(total))
			}
			parts = append(parts, xs.s)
			if i&1023 == 0 {
				return t.Tick(1)
			}
			return nil
		})
		if err != nil {
			if IsInstance(err, TypeErrorType) && !isIterable(args[1]) {
				return nil, Errorf(TypeErrorType, "can only join an iterable")
			}
			return nil, err
		}
		if len(parts) == 1 {
			if x, ok := args[1].(*List); ok {
				if xs, ok := x.items[0].(*Str); ok {
					return xs, nil
				}
			}
		}
		return strResult(pystr.Join(s.s, parts, limitOf(t)))
	})
	method(c, "encode", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "encode")
		if err != nil {
			return nil, err
		}
		a, err := UnpackArgs("encode", args[1:], kwargs, 0, "encoding", "errors")
		if err != nil {
			return nil, err
		}
		enc, errs := "utf-8", "strict"
		if a[0] != nil {
			if enc, err = strValueArg("encode", a[0], 1); err != nil {
				return nil, err
			}
		}
		if a[1] != nil {
			if errs, err = strValueArg("encode", a[1], 2); err != nil {
				return nil, err
			}
		}
		b, err := pystr.Encode(s.s, enc, errs, limitOf(t))
		if err != nil {
			return nil, unicodeError(err)
		}
		return NewBytes(b), nil
	})
	method(c, "format", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "format")
		if err != nil {
			return nil, err
		}
		h := &formatHandler{t: t, args: args[1:], kwargs: kwargs}
		r, err := pystr.Format[Object](s.s, h, limitOf(t))
		if err != nil {
			return nil, fromKernel(err)
		}
		return NewStr(r), nil
	})
	method(c, "format_map", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "format_map")
		if err != nil {
			return nil, err
		}
		if err := nargs("format_map", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		h := &formatHandler{t: t, mapping: args[1]}
		r, err := pystr.Format[Object](s.s, h, limitOf(t))
		if err != nil {
			return nil, fromKernel(err)
		}
		return NewStr(r), nil
	})
	method(c, "translate", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfStr(t, args, "translate")
		if err != nil {
			return nil, err
		}
		if err := nargs("translate", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		table := args[1]
		r, err := pystr.Translate(s.s, func(r rune) (pystr.Mapping, error) {
			v, err := GetItem(t, table, MakeInt(int64(r)))
			if err != nil {
				if IsInstance(err, LookupErrorType) {
					return pystr.Mapping{Kind: pystr.Keep}, nil
				}
				return pystr.Mapping{}, err
			}
			switch x := v.(type) {
			case NoneType:
				return pystr.Mapping{Kind: pystr.Delete}, nil
			case Int:
				return pystr.Mapping{Kind: pystr.ToRune, Rune: rune(x)}, nil
			case *Str:
				return pystr.Mapping{Kind: pystr.ToString, Str: x.s}, nil
			}
			return pystr.Mapping{}, Errorf(TypeErrorType, "character mapping must return integer, None or str")
		}, limitOf(t))
		if err != nil {
			return nil, fromKernel(err)
		}
		return NewStr(r), nil
	})
	c.dict.SetStr("maketrans", &StaticMethod{fn: NewBuiltin("maketrans", strMaketrans)})
}

func strValueArg(fn string, x Object, pos int) (string, error) {
	s, ok := x.(*Str)
	if !ok {
		return "", Errorf(TypeErrorType, "%s() argument %d must be str, not %s", fn, pos, typeName(x))
	}
	return s.s, nil
}

// unicodeError converts a codec failure into UnicodeEncodeError or
// UnicodeDecodeError (or LookupError for an unknown codec).
func unicodeError(err error) error {
	var ue *pystr.UnicodeError
	if errors.As(err, &ue) {
		cls := UnicodeEncodeErrorType
		var obj Object = NewStr(ue.Object)
		if ue.Type == "UnicodeDecodeError" {
			cls = UnicodeDecodeErrorType
			obj = NewBytes(ue.Object)
		}
		e := NewException(cls, NewStr(ue.Encoding), obj, MakeInt(int64(ue.Start)), MakeInt(int64(ue.End)), NewStr(ue.Reason))
		d := e.dictOf()
		d.SetStr("encoding", NewStr(ue.Encoding))
		d.SetStr("object", obj)
		d.SetStr("start", MakeInt(int64(ue.Start)))
		d.SetStr("end", MakeInt(int64(ue.End)))
		d.SetStr("reason", NewStr(ue.Reason))
		return e
	}
	var se *pystr.Error
	if errors.As(err, &se) && se.Type == "LookupError" {
		return Errorf(LookupErrorType, "%s", se.Msg)
	}
	return fromKernel(err)
}

func strSplit(t *Thread, name string, args []Object, kwargs []Kwarg, right bool) (Object, error) {
	s, parts, err := strSplitParts(t, name, args, kwargs, right)
	if err != nil {
		return nil, err
	}
	return strListDone(t, s, parts), nil
}

// strSplitParts checks the arguments of str.split or str.rsplit (args[0]
// the str) and returns the str and its parts, in the thread's scratch
// when they are (give them back with keepParts).
func strSplitParts(t *Thread, name string, args []Object, kwargs []Kwarg, right bool) (*Str, []string, error) {
	s, err := selfStr(t, args, name)
	if err != nil {
		return nil, nil, err
	}
	var a [2]Object // sep, maxsplit
	if len(kwargs) == 0 && len(args) <= 3 {
		copy(a[:], args[1:]) // the common case, without UnpackArgs's slice
	} else {
		v, err := UnpackArgs(name, args[1:], kwargs, 0, "sep", "maxsplit")
		if err != nil {
			return nil, nil, err
		}
		copy(a[:], v)
	}
	maxsplit := int64(-1)
	if a[1] != nil {
		if maxsplit, err = argInt(t, name, a[1]); err != nil {
			return nil, nil, err
		}
	}
	var parts []string
	if a[0] == nil || a[0] == None {
		if right {
			parts = pystr.RSplitWhitespace(s.s, int(maxsplit))
		} else {
			parts = pystr.SplitWhitespaceAppend(t.strParts(), s.s, int(maxsplit))
		}
	} else {
		sep, ok := a[0].(*Str)
		if !ok {
			return nil, nil, Errorf(TypeErrorType, "must be str or None, not %s", typeName(a[0]))
		}
		if right {
			parts, err = pystr.RSplit(s.s, sep.s, int(maxsplit))
		} else {
			parts, err = pystr.SplitAppend(t.strParts(), s.s, sep.s, int(maxsplit))
		}
		if err != nil {
			return nil, nil, fromKernel(err)
		}
	}
	if err := t.grow(int64(len(parts))*48 + int64(len(s.s))); err != nil {
		return nil, nil, err
	}
	return s, parts, nil
}

// strSplitItem returns s.split(*args)[k] (s.rsplit with right), args[0]
// being s, without building the list: the same checks, the same part,
// the same IndexError.
func strSplitItem(t *Thread, args []Object, right bool, k int64) (Object, error) {
	name := "split"
	if right {
		name = "rsplit"
	}
	s, parts, err := strSplitParts(t, name, args, nil, right)
	if err != nil {
		return nil, err
	}
	n := int64(len(parts))
	if k < 0 {
		k += n
	}
	if k < 0 || k >= n {
		t.keepParts(parts)
		return nil, Errorf(IndexErrorType, "list index out of range")
	}
	p := parts[k]
	t.keepParts(parts)
	if len(p) <= 1 {
		return NewStr(p), nil
	}
	r := &Str{s: p}
	if s.asciiState() == 1 {
		r.meta = metaASCII
	}
	return r, nil
}

func strMaketrans(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("maketrans", args, kwargs, 1, 3); err != nil {
		return nil, err
	}
	d := NewDict(8)
	if len(args) == 1 {
		m, ok := unwrap(args[0]).(*Dict)
		if !ok {
			return nil, Errorf(TypeErrorType, "if you give only one argument to maketrans it must be a dict")
		}
		var err error
		m.Items(func(k, v Object) bool {
			switch x := k.(type) {
			case *Str:
				r, kerr := pystr.MakeTransKey(x.s)
				if kerr != nil {
					err = fromKernel(kerr)
					return false
				}
				err = d.Set(t, MakeInt(int64(r)), v)
			case Int:
				err = d.Set(t, x, v)
			default:
				err = Errorf(TypeErrorType, "keys in translate table must be strings or integers")
			}
			return err == nil
		})
		return d, err
	}
	x, ok1 := args[0].(*Str)
	y, ok2 := args[1].(*Str)
	if !ok1 || !ok2 {
		return nil, Errorf(TypeErrorType, "maketrans() argument must be str")
	}
	z := ""
	if len(args) == 3 {
		zs, ok := args[2].(*Str)
		if !ok {
			return nil, Errorf(TypeErrorType, "maketrans() argument 3 must be str, not %s", typeName(args[2]))
		}
		z = zs.s
	}
	pairs, err := pystr.MakeTrans(x.s, y.s, z)
	if err != nil {
		return nil, fromKernel(err)
	}
	for _, p := range pairs {
		var v Object = MakeInt(int64(p.Value))
		if p.Delete {
			v = None
		}
		if err := d.Set(t, MakeInt(int64(p.Key)), v); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// formatHandler evaluates str.format's fields.
type formatHandler struct {
	t       *Thread
	args    []Object
	kwargs  []Kwarg
	mapping Object
}

func (h *formatHandler) Arg(key pystr.FieldKey) (Object, error) {
	if key.IsInt {
		if h.mapping != nil {
			return nil, Errorf(ValueErrorType, "Format string contains positional fields")
		}
		if key.Int < 0 || key.Int >= len(h.args) {
			return nil, Errorf(IndexErrorType, "Replacement index %d out of range for positional args tuple", key.Int)
		}
		return h.args[key.Int], nil
	}
	if h.mapping != nil {
		return GetItem(h.t, h.mapping, NewStr(key.Str))
	}
	for _, kw := range h.kwargs {
		if kw.Name == key.Str {
			return kw.Value, nil
		}
	}
	return nil, NewException(KeyErrorType, NewStr(key.Str))
}

func (h *formatHandler) GetAttr(v Object, name string) (Object, error) { return GetAttr(h.t, v, name) }

func (h *formatHandler) GetItem(v Object, key pystr.FieldKey) (Object, error) {
	if key.IsInt {
		return GetItem(h.t, v, MakeInt(int64(key.Int)))
	}
	return GetItem(h.t, v, NewStr(key.Str))
}

func (h *formatHandler) Convert(v Object, conv rune) (Object, error) {
	var s string
	var err error
	switch conv {
	case 'r':
		s, err = Repr(h.t, v)
	case 'a':
		s, err = Repr(h.t, v)
		s = asciiEscape(s)
	default:
		s, err = StrOf(h.t, v)
	}
	return NewStr(s), err
}

func (h *formatHandler) FormatValue(v Object, spec string) (string, error) {
	return Format(h.t, v, spec)
}
