package python

import (
	"errors"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// bytesLike returns the contents of a bytes-like object (a copy for a
// bytearray).
func bytesLike(x Object) (string, bool) {
	switch v := x.(type) {
	case *Bytes:
		return v.b, true
	case *ByteArray:
		return string(v.b), true
	case *Instance:
		if v.base != nil {
			return bytesLike(v.base)
		}
	}
	return "", false
}

func decodeBytes(b, enc, errs string) (string, error) {
	s, err := pystr.Decode(b, enc, errs, 1<<62)
	if err != nil {
		return "", codecError(err)
	}
	return s, nil
}

// bytesNew is bytes(source=b”, encoding=..., errors=...).
func bytesNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("bytes", args, kwargs, 0, "source", "encoding", "errors")
	if err != nil {
		return nil, err
	}
	var v *Bytes
	if a[0] != nil && a[1] == nil && a[2] == nil {
		if m := bytesMethod(a[0]); m != nil {
			r, err := callMethod(t, m, a[0], nil, nil)
			if err != nil {
				return nil, err
			}
			switch rb := r.(type) {
			case *Bytes:
				v = rb
			case *Instance:
				if b, ok := rb.base.(*Bytes); ok {
					if cls == BytesType {
						return rb, nil
					}
					v = b
				}
			}
			if v == nil {
				return nil, Errorf(TypeErrorType, "__bytes__ returned non-bytes (type %s)", typeName(r))
			}
		}
	}
	if v == nil {
		b, done, err := bytesPrologue(t, "bytes", a[0], a[1], a[2])
		if err != nil {
			return nil, err
		}
		if !done {
			if b, _, err = bytesFromObject(t, "bytes", a[0]); err != nil {
				return nil, err
			}
		}
		v = NewBytes(string(b))
	}
	if cls != BytesType {
		return &Instance{cls: cls, dict: NewDict(2), base: v}, nil
	}
	return v, nil
}

// bytesMethod returns the __bytes__ of a user object, or nil.
func bytesMethod(x Object) Object {
	if o, ok := x.(*Instance); ok {
		return o.cls.userMethod("__bytes__")
	}
	return nil
}

// bytearrayNew is bytearray.__new__: an empty bytearray, which __init__
// fills.
func bytearrayNew(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if cls != ByteArrayType {
		return &Instance{cls: cls, dict: NewDict(2), base: &ByteArray{}}, nil
	}
	return &ByteArray{}, nil
}

// bytearrayInit is bytearray.__init__(source, encoding, errors).
func bytearrayInit(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) error {
	a, err := UnpackArgs("bytearray", args, kwargs, 0, "source", "encoding", "errors")
	if err != nil {
		return err
	}
	if err := baResize(t, o, 0); err != nil {
		return err
	}
	b, done, err := bytesPrologue(t, "bytearray", a[0], a[1], a[2])
	if err != nil {
		return err
	}
	appended := false
	if !done {
		if b, appended, err = bytesFromObject(t, "bytearray", a[0]); err != nil {
			return err
		}
	}
	if appended {
		// CPython appends the items of an iterator one by one.
		alloc := appendAlloc(baAlloc(o), len(b))
		if alloc > len(b)+1 {
			nb := make([]byte, len(b), alloc-1)
			copy(nb, b)
			o.b = nb
			return nil
		}
	}
	if err := baResize(t, o, len(b)); err != nil {
		return err
	}
	copy(o.b, b)
	return nil
}

// appendAlloc returns the ob_alloc of a bytearray of ob_alloc a and length
// 0 after n appends.
func appendAlloc(a, n int) int {
	for size := 1; size <= n; size = a {
		if size >= a {
			if 8*size <= 9*a {
				a = size + size>>3 + 3
				if size >= 9 {
					a += 3
				}
			} else {
				a = size + 1
			}
		}
	}
	return a
}

// bytesPrologue checks the encoding arguments of bytes() and bytearray()
// and makes the value when source is absent or a str (done).
func bytesPrologue(t *Thread, fn string, src, enc, errs Object) ([]byte, bool, error) {
	var e, es string
	var err error
	if enc != nil {
		if e, err = strValueNamed(fn, "encoding", enc); err != nil {
			return nil, false, err
		}
	}
	if errs != nil {
		if es, err = strValueNamed(fn, "errors", errs); err != nil {
			return nil, false, err
		}
	} else {
		es = "strict"
	}
	if src == nil {
		if enc != nil {
			return nil, false, Errorf(TypeErrorType, "encoding without a string argument")
		}
		if errs != nil {
			return nil, false, Errorf(TypeErrorType, "errors without a string argument")
		}
		return nil, true, nil
	}
	if s, ok, err := strArg(t, src); ok || err != nil {
		if err != nil {
			return nil, false, err
		}
		if enc == nil {
			return nil, false, Errorf(TypeErrorType, "string argument without an encoding")
		}
		b, err := pystr.Encode(s.s, e, es, limitOf(t))
		if err != nil {
			return nil, false, codecError(err)
		}
		return []byte(b), true, nil
	}
	if enc != nil {
		return nil, false, Errorf(TypeErrorType, "encoding without a string argument")
	}
	if errs != nil {
		return nil, false, Errorf(TypeErrorType, "errors without a string argument")
	}
	return nil, false, nil
}

// bytesFromObject returns the bytes of bytes(src) or bytearray(src) for a
// source that is not a str: a count, a bytes-like object or an iterable of
// ints. appended reports that the bytes came one by one from an iterator.
func bytesFromObject(t *Thread, fn string, src Object) ([]byte, bool, error) {
	n, k, err := bIndex(t, src)
	if err != nil && !IsInstance(err, TypeErrorType) {
		return nil, false, err
	}
	if err == nil && k != notInt {
		// (A TypeError of __index__ falls through to the other forms.)
		if k == bigInt {
			return nil, false, Errorf(OverflowErrorType, "cannot fit 'int' into an index-sized integer")
		}
		if n < 0 {
			return nil, false, Errorf(ValueErrorType, "negative count")
		}
		if err := t.grow(n); err != nil {
			return nil, false, err
		}
		return make([]byte, n), false, nil
	}
	if b, ok := bytesLike(src); ok {
		return []byte(b), false, nil
	}
	if isMemoryView(src) {
		return nil, false, NotSupported("memoryview()", "slice the bytes directly")
	}
	rangeMsg := "bytes must be in range(0, 256)"
	if fn == "bytearray" {
		rangeMsg = "byte must be in range(0, 256)"
	}
	conv := func(x Object) (byte, error) {
		v, k, err := bIndex(t, x)
		switch {
		case err != nil:
			return 0, err
		case k == notInt:
			return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
		case k == bigInt || v < 0 || v > 255:
			return 0, Errorf(ValueErrorType, "%s", rangeMsg)
		}
		return byte(v), nil
	}
	var items []Object
	switch v := src.(type) {
	case *List:
		items = v.items
	case *Tuple:
		items = v.items
	}
	if items != nil {
		out := make([]byte, 0, len(items))
		for i := 0; i < len(items); i++ {
			c, err := conv(items[i])
			if err != nil {
				return nil, false, err
			}
			out = append(out, c)
		}
		return out, false, nil
	}
	out, err := iterBytesConv(t, src, conv, func() error {
		return Errorf(TypeErrorType, "cannot convert '%s' object to %s", typeName(src), fn)
	})
	return out, true, err
}

// iterBytes returns the byte values an iterable yields (a bytearray's
// rules); notIterable makes the error for an object that is not.
func iterBytes(t *Thread, src Object, notIterable func() error) ([]byte, error) {
	return iterBytesConv(t, src, func(x Object) (byte, error) { return bByte(t, x) }, notIterable)
}

func iterBytesConv(t *Thread, src Object, conv func(Object) (byte, error), notIterable func() error) ([]byte, error) {
	it, err := Iter(t, src)
	if err != nil {
		if IsInstance(err, TypeErrorType) {
			return nil, notIterable()
		}
		return nil, err
	}
	var out []byte
	for {
		x, err := Next(t, it)
		if err != nil {
			return nil, err
		}
		if x == nil {
			return out, nil
		}
		c, err := conv(x)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		if len(out)&1023 == 0 {
			if err := t.grow(int64(len(out))); err != nil {
				return nil, err
			}
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
	}
}

// codecError converts a failure of pystr's codecs: a result that cannot
// be represented here (lone surrogates) is refused.
func codecError(err error) error {
	var ue *pystr.UnsupportedError
	if errors.As(err, &ue) {
		return Errorf(NotImplementedErrorType, "%s: str with lone surrogates is not supported in code mode", ue.Msg)
	}
	return unicodeError(err)
}

// strValueNamed returns a str argument of a function taking it by name.
func strValueNamed(fn, name string, x Object) (string, error) {
	switch v := x.(type) {
	case *Str:
		return v.s, nil
	case *Instance:
		if s, ok := v.base.(*Str); ok {
			return s.s, nil
		}
	}
	what := typeName(x)
	if x == None {
		what = "None"
	}
	return "", Errorf(TypeErrorType, "%s() argument '%s' must be str, not %s", fn, name, what)
}

// brecv is the receiver of a bytes or bytearray method.
type brecv struct {
	s    string     // the bytes: a view of a bytearray's, not to be kept
	ba   *ByteArray // the bytearray, nil for bytes
	self Object     // the receiver as passed
}

// bytesRecv returns the receiver of method name of type c (bytes or
// bytearray): an instance of c or of a subclass.
func bytesRecv(c *Type, args []Object, name string) (brecv, error) {
	if len(args) == 0 {
		return brecv{}, Errorf(TypeErrorType, "unbound method %s.%s() needs an argument", c.name, name)
	}
	x := args[0]
	if o, ok := x.(*Instance); ok && o.base != nil {
		x = o.base
	}
	switch v := x.(type) {
	case *Bytes:
		if c == BytesType {
			return brecv{s: v.b, self: args[0]}, nil
		}
	case *ByteArray:
		if c == ByteArrayType {
			return brecv{s: bview(v.b), ba: v, self: args[0]}, nil
		}
	}
	return brecv{}, Errorf(TypeErrorType, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name, c.name, typeName(args[0]))
}

// mk returns s as a new value of the receiver's type (copied for a
// bytearray).
func (r brecv) mk(s string) Object {
	if r.ba != nil {
		return newByteArrayStr(s)
	}
	return NewBytes(s)
}

// list returns parts as a list of values of the receiver's type.
func (r brecv) list(t *Thread, parts []string) (Object, error) {
	if err := t.grow(int64(len(parts))*48 + int64(len(r.s))); err != nil {
		return nil, err
	}
	out := make([]Object, len(parts))
	for i, p := range parts {
		out[i] = r.mk(p)
	}
	return NewList(out), nil
}

// bSearchArg converts the first argument of find, count, index, ...: a
// bytes-like object or a byte value.
func bSearchArg(t *Thread, x Object) (string, error) {
	if b, ok := bytesLike(x); ok {
		return b, nil
	}
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return "", err
	case k == notInt:
		if isMemoryView(x) {
			return "", NotSupported("memoryview()", "slice the bytes directly")
		}
		return "", Errorf(TypeErrorType, "argument should be integer or bytes-like object, not '%s'", typeName(x))
	case k == bigInt || v < 0 || v > 255:
		return "", Errorf(ValueErrorType, "byte must be in range(0, 256)")
	}
	return string([]byte{byte(v)}), nil
}

// bSpans converts the optional start and end of args[from:].
func bSpans(t *Thread, args []Object, from int) (span, span, error) {
	var st, en span
	var err error
	if len(args) > from {
		if st, err = bSpan(t, args[from]); err != nil {
			return st, en, err
		}
	}
	if len(args) > from+1 {
		if en, err = bSpan(t, args[from+1]); err != nil {
			return st, en, err
		}
	}
	return st, en, nil
}

// bFill converts the fill byte of center, ljust and rjust.
func bFill(name string, x Object) (byte, error) {
	if b, ok := bytesLike(x); ok && len(b) == 1 {
		return b[0], nil
	}
	return 0, Errorf(TypeErrorType, "%s() argument 2 must be a byte string of length 1, not %s", name, typeName(x))
}

func initBytesMethods() {
	initAfterNew[ByteArrayType] = true
	for _, c := range []*Type{BytesType, ByteArrayType} {
		c := c
		tn := c.name
		initBytesDunders(c)
		m := func(name string, fn func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error)) {
			method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
				r, err := bytesRecv(c, args, name)
				if err != nil {
					return nil, err
				}
				return fn(t, r, args[1:], kwargs)
			})
		}

		m("decode", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			a, err := bArgsKw("decode", args, kwargs, 0, 0, "encoding", "errors")
			if err != nil {
				return nil, err
			}
			enc, errs := "utf-8", "strict"
			if a[0] != nil {
				if enc, err = strValueNamed("decode", "encoding", a[0]); err != nil {
					return nil, err
				}
			}
			if a[1] != nil {
				if errs, err = strValueNamed("decode", "errors", a[1]); err != nil {
					return nil, err
				}
			}
			src := r.s
			if r.ba != nil {
				src = strings.Clone(src)
			}
			s, err := pystr.Decode(src, enc, errs, limitOf(t))
			if err != nil {
				return nil, codecError(err)
			}
			return NewStr(s), nil
		})

		m("hex", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			a, err := bArgsKw("hex", args, kwargs, 0, 0, "sep", "bytes_per_sep")
			if err != nil {
				return nil, err
			}
			return bytesHexMethod(t, r.s, a[0], a[1])
		})

		classMethod(c, "fromhex", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			cls, _ := args[0].(*Type)
			if err := bArgsOne(tn+".fromhex", args[1:], kwargs); err != nil {
				return nil, err
			}
			s, ok, err := strArg(t, args[1])
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, Errorf(TypeErrorType, "fromhex() argument must be str, not %s", typeName(args[1]))
			}
			b, pos, ok := bytesFromHex(s.s)
			if !ok {
				return nil, Errorf(ValueErrorType, "non-hexadecimal number found in fromhex() arg at position %d", pos)
			}
			var v Object
			if c == ByteArrayType {
				v = newByteArrayStr(b)
			} else {
				v = NewBytes(b)
			}
			if cls != nil && cls != c {
				return Call(t, cls, []Object{v}, nil)
			}
			return v, nil
		})

		m("join", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			if err := bArgsOne(tn+".join", args, kwargs); err != nil {
				return nil, err
			}
			sep := r.s
			if r.ba != nil {
				sep = strings.Clone(sep)
			}
			s, err := bytesJoin(t, sep, args[0])
			if err != nil {
				return nil, err
			}
			if r.ba != nil {
				return newByteArray(s), nil
			}
			return NewBytes(string(s)), nil
		})

		search := func(name string, f func(r brecv, sub string, st, en span) (Object, error)) {
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsTuple(qual, name, args, kwargs, 1, 3); err != nil {
					return nil, err
				}
				st, en, err := bSpans(t, args, 1)
				if err != nil {
					return nil, err
				}
				sub, err := bSearchArg(t, args[0])
				if err != nil {
					return nil, err
				}
				return f(r, sub, st, en)
			})
		}
		search("find", func(r brecv, sub string, st, en span) (Object, error) {
			return MakeInt(int64(bytesFind(r.s, sub, st, en, false))), nil
		})
		search("rfind", func(r brecv, sub string, st, en span) (Object, error) {
			return MakeInt(int64(bytesFind(r.s, sub, st, en, true))), nil
		})
		search("index", func(r brecv, sub string, st, en span) (Object, error) {
			i := bytesFind(r.s, sub, st, en, false)
			if i < 0 {
				return nil, Errorf(ValueErrorType, "subsection not found")
			}
			return MakeInt(int64(i)), nil
		})
		search("rindex", func(r brecv, sub string, st, en span) (Object, error) {
			i := bytesFind(r.s, sub, st, en, true)
			if i < 0 {
				return nil, Errorf(ValueErrorType, "subsection not found")
			}
			return MakeInt(int64(i)), nil
		})
		search("count", func(r brecv, sub string, st, en span) (Object, error) {
			return MakeInt(int64(bytesCount(r.s, sub, st, en))), nil
		})

		for _, name := range []string{"startswith", "endswith"} {
			name := name
			suffix := name == "endswith"
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsTuple(qual, name, args, kwargs, 1, 3); err != nil {
					return nil, err
				}
				st, en, err := bSpans(t, args, 1)
				if err != nil {
					return nil, err
				}
				if tu, ok := unwrap(args[0]).(*Tuple); ok {
					for _, x := range tu.items {
						p, err := bBuffer(x)
						if err != nil {
							return nil, err
						}
						if bytesTailMatch(r.s, p, st, en, suffix) {
							return True, nil
						}
					}
					return False, nil
				}
				p, ok := bytesLike(args[0])
				if !ok {
					if isMemoryView(args[0]) {
						return nil, NotSupported("memoryview()", "slice the bytes directly")
					}
					return nil, Errorf(TypeErrorType, "%s first arg must be bytes or a tuple of bytes, not %s", name, typeName(args[0]))
				}
				return MakeBool(bytesTailMatch(r.s, p, st, en, suffix)), nil
			})
		}

		for _, name := range []string{"split", "rsplit"} {
			name := name
			right := name == "rsplit"
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				a, err := bArgsKw(name, args, kwargs, 0, 0, "sep", "maxsplit")
				if err != nil {
					return nil, err
				}
				maxsplit := int64(-1)
				if a[1] != nil {
					if maxsplit, err = bSsize(t, a[1]); err != nil {
						return nil, err
					}
				}
				var parts []string
				if a[0] == nil || a[0] == None {
					if right {
						parts = bytesRSplitWS(r.s, int(maxsplit))
					} else {
						parts = bytesSplitWS(r.s, int(maxsplit))
					}
				} else {
					sep, err := bBuffer(a[0])
					if err != nil {
						return nil, err
					}
					if sep == "" {
						return nil, Errorf(ValueErrorType, "empty separator")
					}
					if right {
						parts = bytesRSplitSep(r.s, sep, int(maxsplit))
					} else {
						parts = bytesSplitSep(r.s, sep, int(maxsplit))
					}
				}
				return r.list(t, parts)
			})
		}

		m("splitlines", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			a, err := bArgsKw("splitlines", args, kwargs, 0, 0, "keepends")
			if err != nil {
				return nil, err
			}
			keep := false
			if a[0] != nil {
				if keep, err = TruthE(t, a[0]); err != nil {
					return nil, err
				}
			}
			return r.list(t, bytesSplitLines(r.s, keep))
		})

		for _, name := range []string{"strip", "lstrip", "rstrip"} {
			name := name
			left, right := name != "rstrip", name != "lstrip"
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsPos(qual, name, args, kwargs, 0, 1); err != nil {
					return nil, err
				}
				if len(args) == 0 || args[0] == None {
					return r.mk(bytesStrip(r.s, "", true, left, right)), nil
				}
				chars, err := bBuffer(args[0])
				if err != nil {
					return nil, err
				}
				return r.mk(bytesStrip(r.s, chars, false, left, right)), nil
			})
		}

		m("replace", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			if err := bArgsPos(tn+".replace", "replace", args, kwargs, 2, 3); err != nil {
				return nil, err
			}
			old, err := bBuffer(args[0])
			if err != nil {
				return nil, err
			}
			nw, err := bBuffer(args[1])
			if err != nil {
				return nil, err
			}
			count := int64(-1)
			if len(args) == 3 {
				if count, err = bSsize(t, args[2]); err != nil {
					return nil, err
				}
			}
			if count < 0 || count > int64(len(r.s))+1 {
				count = int64(len(r.s)) + 1
			}
			if old == "" && nw == "" {
				return r.mk(r.s), nil
			}
			size, n := bytesReplaceSize(r.s, old, nw, int(count))
			if err := t.grow(size); err != nil {
				return nil, err
			}
			return r.mk(bytesReplace(r.s, old, nw, n, size)), nil
		})

		for _, name := range []string{"center", "ljust", "rjust"} {
			name := name
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsPos(qual, name, args, kwargs, 1, 2); err != nil {
					return nil, err
				}
				w, err := bSsize(t, args[0])
				if err != nil {
					return nil, err
				}
				fill := byte(' ')
				if len(args) == 2 {
					if fill, err = bFill(name, args[1]); err != nil {
						return nil, err
					}
				}
				if w <= int64(len(r.s)) {
					return r.mk(r.s), nil
				}
				if err := t.grow(w); err != nil {
					return nil, err
				}
				pad := int(w) - len(r.s)
				switch name {
				case "center":
					left := bytesCenterLeft(pad, int(w))
					return r.mk(bytesPad(r.s, left, pad-left, fill)), nil
				case "ljust":
					return r.mk(bytesPad(r.s, 0, pad, fill)), nil
				}
				return r.mk(bytesPad(r.s, pad, 0, fill)), nil
			})
		}

		m("zfill", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			if err := bArgsOne(tn+".zfill", args, kwargs); err != nil {
				return nil, err
			}
			w, err := bSsize(t, args[0])
			if err != nil {
				return nil, err
			}
			if w <= int64(len(r.s)) {
				return r.mk(r.s), nil
			}
			if err := t.grow(w); err != nil {
				return nil, err
			}
			return r.mk(bytesZFill(r.s, int(w))), nil
		})

		m("expandtabs", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			a, err := bArgsKw("expandtabs", args, kwargs, 0, 0, "tabsize")
			if err != nil {
				return nil, err
			}
			ts := 8
			if a[0] != nil {
				if ts, err = bCInt(t, a[0]); err != nil {
					return nil, err
				}
			}
			limit := int64(limitOf(t))
			size := bytesExpandTabsSize(r.s, ts, limit)
			if size < 0 {
				return nil, t.grow(limit + 1)
			}
			return r.mk(bytesExpandTabs(r.s, ts, size)), nil
		})

		for _, name := range []string{"partition", "rpartition"} {
			name := name
			right := name == "rpartition"
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsOne(qual, args, kwargs); err != nil {
					return nil, err
				}
				sep, err := bBuffer(args[0])
				if err != nil {
					return nil, err
				}
				if sep == "" {
					return nil, Errorf(ValueErrorType, "empty separator")
				}
				var i int
				if right {
					i = strings.LastIndex(r.s, sep)
				} else {
					i = strings.Index(r.s, sep)
				}
				// A bytes receiver returns itself when the separator is
				// missing, and the separator object itself when found.
				whole, mid := r.mk(r.s), r.mk(sep)
				if r.ba == nil {
					whole, mid = r.self, args[0]
				}
				if i < 0 {
					if right {
						return NewTuple([]Object{r.mk(""), r.mk(""), whole}), nil
					}
					return NewTuple([]Object{whole, r.mk(""), r.mk("")}), nil
				}
				return NewTuple([]Object{r.mk(r.s[:i]), mid, r.mk(r.s[i+len(sep):])}), nil
			})
		}

		for _, name := range []string{"removeprefix", "removesuffix"} {
			name := name
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsOne(qual, args, kwargs); err != nil {
					return nil, err
				}
				p, err := bBuffer(args[0])
				if err != nil {
					return nil, err
				}
				if name == "removeprefix" {
					return r.mk(strings.TrimPrefix(r.s, p)), nil
				}
				return r.mk(strings.TrimSuffix(r.s, p)), nil
			})
		}

		c.dict.SetStr("maketrans", &StaticMethod{fn: NewBuiltin("maketrans", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if err := bArgsPos(tn+".maketrans", "maketrans", args, kwargs, 2, 2); err != nil {
				return nil, err
			}
			from, err := bBuffer(args[0])
			if err != nil {
				return nil, err
			}
			to, err := bBuffer(args[1])
			if err != nil {
				return nil, err
			}
			if len(from) != len(to) {
				return nil, Errorf(ValueErrorType, "maketrans arguments must have same length")
			}
			table := make([]byte, 256)
			for i := range table {
				table[i] = byte(i)
			}
			for i := 0; i < len(from); i++ {
				table[from[i]] = to[i]
			}
			return NewBytes(string(table)), nil
		})})

		m("translate", func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
			a, err := bArgsKw("translate", args, kwargs, 1, 1, "table", "delete")
			if err != nil {
				return nil, err
			}
			table := ""
			if a[0] != None {
				if table, err = bBuffer(a[0]); err != nil {
					return nil, err
				}
				if len(table) != 256 {
					return nil, Errorf(ValueErrorType, "translation table must be 256 characters long")
				}
			}
			del := ""
			if a[1] != nil {
				if del, err = bBuffer(a[1]); err != nil {
					return nil, err
				}
			}
			return r.mk(bytesTranslate(r.s, table, del)), nil
		})

		pred := func(name string, f func(string) bool) {
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsNone(qual, args, kwargs); err != nil {
					return nil, err
				}
				return MakeBool(f(r.s)), nil
			})
		}
		pred("isalnum", func(s string) bool { return bytesAll(s, bIsAlnum) })
		pred("isalpha", func(s string) bool { return bytesAll(s, bIsAlpha) })
		pred("isdigit", func(s string) bool { return bytesAll(s, bIsDigit) })
		pred("isspace", func(s string) bool { return bytesAll(s, bIsSpace) })
		pred("isascii", bytesIsASCII)
		pred("islower", bytesIsLower)
		pred("isupper", bytesIsUpper)
		pred("istitle", bytesIsTitle)

		conv := func(name string, f func(string) string) {
			qual := tn + "." + name // not per call: the concatenation allocates
			m(name, func(t *Thread, r brecv, args []Object, kwargs []Kwarg) (Object, error) {
				if err := bArgsNone(qual, args, kwargs); err != nil {
					return nil, err
				}
				if r.ba != nil {
					return newByteArrayStr(f(r.s)), nil
				}
				return NewBytes(f(r.s)), nil
			})
		}
		conv("upper", bytesUpper)
		conv("lower", bytesLower)
		conv("swapcase", bytesSwapCase)
		conv("title", bytesTitle)
		conv("capitalize", bytesCapitalize)

		method(c, "__sizeof__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			// bytes has object's __sizeof__; bytearray its own.
			owner := "bytearray"
			if c == BytesType {
				owner = "object"
				if len(args) == 0 {
					return nil, Errorf(TypeErrorType, "unbound method object.__sizeof__() needs an argument")
				}
			}
			r, err := bytesRecv(c, args, "__sizeof__")
			if err != nil {
				return nil, err
			}
			if err := bArgsNone(owner+".__sizeof__", args[1:], kwargs); err != nil {
				return nil, err
			}
			if r.ba != nil {
				return MakeInt(int64(56 + baAlloc(r.ba))), nil
			}
			return MakeInt(int64(33 + len(r.s))), nil
		})

		method(c, "__buffer__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			return nil, NotSupported("memoryview()", "slice the bytes directly")
		})
	}

	c := BytesType
	method(c, "__getnewargs__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		r, err := bytesRecv(c, args, "__getnewargs__")
		if err != nil {
			return nil, err
		}
		if err := bArgsNone("bytes.__getnewargs__", args[1:], kwargs); err != nil {
			return nil, err
		}
		return NewTuple([]Object{NewBytes(r.s)}), nil
	})
	method(c, "__bytes__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		r, err := bytesRecv(c, args, "__bytes__")
		if err != nil {
			return nil, err
		}
		if err := bArgsNone("bytes.__bytes__", args[1:], kwargs); err != nil {
			return nil, err
		}
		if b, ok := args[0].(*Bytes); ok {
			return b, nil
		}
		return NewBytes(r.s), nil
	})
	initByteArrayMethods()
}

// bytesHexMethod is bytes.hex(sep, bytes_per_sep).
func bytesHexMethod(t *Thread, s string, sepObj, perObj Object) (Object, error) {
	var sep byte
	if sepObj != nil {
		n, err := Len(t, sepObj)
		if err != nil {
			return nil, err
		}
		if n != 1 {
			return nil, Errorf(ValueErrorType, "sep must be length 1.")
		}
		switch v := unwrap(sepObj).(type) {
		case *Str:
			if v.s[0] >= 0x80 {
				return nil, Errorf(ValueErrorType, "sep must be ASCII.")
			}
			sep = v.s[0]
		case *Bytes:
			if v.b[0] >= 0x80 {
				return nil, Errorf(ValueErrorType, "sep must be ASCII.")
			}
			sep = v.b[0]
		default:
			return nil, Errorf(TypeErrorType, "sep must be str or bytes.")
		}
	}
	per := 1
	if perObj != nil {
		var err error
		if per, err = bCInt(t, perObj); err != nil {
			return nil, err
		}
	}
	if sepObj == nil {
		per = 0
	}
	if err := t.grow(3 * int64(len(s))); err != nil {
		return nil, err
	}
	return NewStr(bytesHex(s, sep, per)), nil
}

// bytesJoin is sep.join(iterable): the items are read first, then checked.
func bytesJoin(t *Thread, sep string, iterable Object) ([]byte, error) {
	it, err := Iter(t, iterable)
	if err != nil {
		if IsInstance(err, TypeErrorType) {
			return nil, Errorf(TypeErrorType, "can only join an iterable")
		}
		return nil, err
	}
	var items []Object
	for {
		x, err := Next(t, it)
		if err != nil {
			return nil, err
		}
		if x == nil {
			break
		}
		items = append(items, x)
		if len(items)&1023 == 0 {
			if err := t.grow(int64(len(items)) * 16); err != nil {
				return nil, err
			}
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
	}
	total := int64(0)
	parts := make([]string, len(items))
	for i, x := range items {
		var b string
		switch v := unwrap(x).(type) {
		case *Bytes:
			b = v.b
		case *ByteArray:
			b = bview(v.b)
		default:
			if isMemoryView(x) {
				return nil, NotSupported("memoryview()", "slice the bytes directly")
			}
			return nil, Errorf(TypeErrorType, "sequence item %d: expected a bytes-like object, %s found", i, typeName(x))
		}
		parts[i] = b
		total += int64(len(b))
		if i > 0 {
			total += int64(len(sep))
		}
	}
	if err := t.grow(total); err != nil {
		return nil, err
	}
	out := make([]byte, 0, total)
	for i, p := range parts {
		if i > 0 {
			out = append(out, sep...)
		}
		out = append(out, p...)
	}
	return out, nil
}
