package json

import (
	"math"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// JSONEncoder and JSONDecoder are classes implemented in Go whose
// instances are plain instances with CPython's attributes (skipkeys,
// indent, item_separator, ..., object_hook, parse_float, ...), so that
// Python subclasses may override methods (default) and attributes as they
// do in CPython.

func isOwnInit(cls *python.Type, own *python.Type) bool {
	v, ok := cls.Lookup("__init__")
	if !ok {
		return false
	}
	mine, _ := own.Dict().GetStr("__init__")
	return v == mine
}

func initEncoderType() {
	c := python.NewBuiltinType("JSONEncoder", "json.encoder", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := python.NewInstance(cls, nil)
		if isOwnInit(cls, encoderType) {
			if err := encoderInit(t, inst, args, kwargs); err != nil {
				return nil, err
			}
		}
		return inst, nil
	})
	encoderType = c
	c.SetAttr("item_separator", python.NewStr(", "))
	c.SetAttr("key_separator", python.NewStr(": "))
	c.AddMethod("__init__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.None, encoderInit(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("default", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "JSONEncoder.default", pos: []string{"self", "o"}, required: 2}
		vals, _, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		return nil, notSerializable(vals["o"])
	})
	c.AddMethod("encode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "JSONEncoder.encode", pos: []string{"self", "o"}, required: 2}
		vals, _, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		self := vals["self"]
		e, err := encoderOf(t, self)
		if err != nil {
			return nil, err
		}
		o := vals["o"]
		if !python.IsStr(o) {
			if err := e.readHooks(self); err != nil {
				return nil, err
			}
		}
		return e.run(o)
	})
	c.AddMethod("iterencode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return nil, python.NotSupported("JSONEncoder.iterencode", "use encode(), which returns the whole text")
	})
}

// encoderInit is JSONEncoder.__init__(self, *, skipkeys=False,
// ensure_ascii=True, check_circular=True, allow_nan=True, sort_keys=False,
// indent=None, separators=None, default=None).
func encoderInit(t *python.Thread, self python.Object, args []python.Object, kwargs []python.Kwarg) error {
	vals, _, err := encoderInitSig.bind(append([]python.Object{self}, args...), kwargs)
	if err != nil {
		return err
	}
	set := func(name string, def python.Object) error {
		v := vals[name]
		if v == nil {
			v = def
		}
		return python.SetAttr(t, self, name, v)
	}
	for _, a := range []struct {
		name string
		def  python.Object
	}{{"skipkeys", python.False}, {"ensure_ascii", python.True}, {"check_circular", python.True},
		{"allow_nan", python.True}, {"sort_keys", python.False}, {"indent", python.None}} {
		if err := set(a.name, a.def); err != nil {
			return err
		}
	}
	if sep := vals["separators"]; sep != nil && sep != python.None {
		item, key, err := unpack2(t, sep)
		if err != nil {
			return err
		}
		if err := python.SetAttr(t, self, "item_separator", item); err != nil {
			return err
		}
		if err := python.SetAttr(t, self, "key_separator", key); err != nil {
			return err
		}
	} else if ind := vals["indent"]; ind != nil && ind != python.None {
		if err := python.SetAttr(t, self, "item_separator", python.NewStr(",")); err != nil {
			return err
		}
	}
	if d := vals["default"]; d != nil && d != python.None {
		if err := python.SetAttr(t, self, "default", d); err != nil {
			return err
		}
	}
	return nil
}

// encoderOf makes an encoder from a JSONEncoder instance's attributes.
func encoderOf(t *python.Thread, self python.Object) (*encoder, error) {
	vals := map[string]python.Object{}
	for _, n := range []string{"skipkeys", "ensure_ascii", "check_circular", "allow_nan", "sort_keys"} {
		v, err := python.GetAttr(t, self, n)
		if err != nil {
			return nil, err
		}
		vals[n] = v
	}
	e, err := newEncoder(t, vals)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// readHooks reads the attributes CPython reads only when it encodes
// something other than a str: indent, the separators and the default hook.
func (e *encoder) readHooks(self python.Object) error {
	t := e.t
	ind, err := python.GetAttr(t, self, "indent")
	if err != nil {
		return err
	}
	if ind != python.None {
		e.indentObj = ind
	}
	if e.itemSepObj, err = python.GetAttr(t, self, "item_separator"); err != nil {
		return err
	}
	if e.keySepObj, err = python.GetAttr(t, self, "key_separator"); err != nil {
		return err
	}
	e.def, err = python.GetAttr(t, self, "default")
	return err
}

func initDecoderType() {
	constantHook = python.NewBuiltin("__getitem__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 {
			return nil, python.Errorf(python.TypeErrorType, "dict.__getitem__() takes exactly one argument (%d given)", len(args))
		}
		switch python.StrValue(args[0]) {
		case "NaN":
			return python.Float(math.NaN()), nil
		case "Infinity":
			return python.Float(math.Inf(1)), nil
		case "-Infinity":
			return python.Float(math.Inf(-1)), nil
		}
		return nil, python.NewException(python.KeyErrorType, args[0])
	})
	c := python.NewBuiltinType("JSONDecoder", "json.decoder", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := python.NewInstance(cls, nil)
		if isOwnInit(cls, decoderType) {
			if err := decoderInit(t, inst, args, kwargs); err != nil {
				return nil, err
			}
		}
		return inst, nil
	})
	decoderType = c
	c.AddMethod("__init__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.None, decoderInit(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("decode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "JSONDecoder.decode", pos: []string{"self", "s", "_w"}, required: 2}
		vals, _, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		s := vals["s"]
		if !python.IsStr(s) {
			switch python.Unwrap(s).(type) {
			case *python.Bytes, *python.ByteArray:
				return nil, python.Errorf(python.TypeErrorType, "cannot use a string pattern on a bytes-like object")
			}
			return nil, python.Errorf(python.TypeErrorType, "expected string or bytes-like object, got '%s'", python.TypeName(s))
		}
		d, err := decoderOf(t, vals["self"], s)
		if err != nil {
			return nil, err
		}
		return d.decodeAll()
	})
	c.AddMethod("raw_decode", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "JSONDecoder.raw_decode", pos: []string{"self", "s", "idx"}, required: 2}
		vals, _, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		s := vals["s"]
		if !python.IsStr(s) {
			return nil, python.Errorf(python.TypeErrorType, "first argument must be a string, not %s", python.TypeName(s))
		}
		idx := int64(0)
		if v := vals["idx"]; v != nil {
			n, ok, err := python.IndexValue(t, v)
			if err != nil {
				return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C ssize_t")
			}
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(v))
			}
			idx = n
		}
		if idx < 0 {
			return nil, python.Errorf(python.ValueErrorType, "idx cannot be negative")
		}
		d, err := decoderOf(t, vals["self"], s)
		if err != nil {
			return nil, err
		}
		at := byteOffset(d.s, idx)
		if at > len(d.s) {
			return nil, newDecodeErrorAt(d.errCls, "Expecting value", s, d.s, at, int(idx))
		}
		v, end, err := d.rawDecode(at)
		if err != nil {
			return nil, err
		}
		return python.NewTuple([]python.Object{v, python.MakeInt(int64(cpos(d.s, end)))}), nil
	})
}

// byteOffset returns the byte offset of code point cp of s (len(s)+1 past
// the end, so that scanning there finds nothing).
func byteOffset(s string, cp int64) int {
	off := 0
	for k := int64(0); k < cp; k++ {
		if off >= len(s) {
			return len(s) + 1
		}
		_, w := utf8.DecodeRuneInString(s[off:])
		off += w
	}
	return off
}

// decoderInit is JSONDecoder.__init__(self, *, object_hook=None,
// parse_float=None, parse_int=None, parse_constant=None, strict=True,
// object_pairs_hook=None).
func decoderInit(t *python.Thread, self python.Object, args []python.Object, kwargs []python.Kwarg) error {
	vals, _, err := decoderInitSig.bind(append([]python.Object{self}, args...), kwargs)
	if err != nil {
		return err
	}
	or := func(v, def python.Object) (python.Object, error) {
		if v == nil {
			return def, nil
		}
		ok, err := python.TruthE(t, v)
		if err != nil || !ok {
			return def, err
		}
		return v, nil
	}
	pf, err := or(vals["parse_float"], python.FloatType)
	if err != nil {
		return err
	}
	pi, err := or(vals["parse_int"], python.IntType)
	if err != nil {
		return err
	}
	pc, err := or(vals["parse_constant"], constantHook)
	if err != nil {
		return err
	}
	strict := vals["strict"]
	if strict == nil {
		strict = python.True
	}
	for _, a := range []struct {
		name string
		v    python.Object
	}{{"object_hook", orNone(vals["object_hook"])}, {"parse_float", pf}, {"parse_int", pi},
		{"parse_constant", pc}, {"strict", strict}, {"object_pairs_hook", orNone(vals["object_pairs_hook"])}} {
		if err := python.SetAttr(t, self, a.name, a.v); err != nil {
			return err
		}
	}
	return nil
}

// decoderOf makes a decoder of s from a JSONDecoder instance's attributes.
func decoderOf(t *python.Thread, self, s python.Object) (*decoder, error) {
	text, err := strOf(t, s)
	if err != nil {
		return nil, err
	}
	d := newDecoder(t, s, text)
	get := func(name string) (python.Object, error) { return python.GetAttr(t, self, name) }
	var v python.Object
	if v, err = get("object_hook"); err != nil {
		return nil, err
	}
	d.objectHook = hook(v)
	if v, err = get("object_pairs_hook"); err != nil {
		return nil, err
	}
	d.pairsHook = hook(v)
	if v, err = get("parse_float"); err != nil {
		return nil, err
	}
	if v != python.Object(python.FloatType) {
		d.parseFloat = v
	}
	if v, err = get("parse_int"); err != nil {
		return nil, err
	}
	if v != python.Object(python.IntType) {
		d.parseInt = v
	}
	if v, err = get("parse_constant"); err != nil {
		return nil, err
	}
	if v != python.Object(constantHook) {
		d.parseCon = v
	}
	if v, err = get("strict"); err != nil {
		return nil, err
	}
	if d.strict, err = python.TruthE(t, v); err != nil {
		return nil, err
	}
	return d, nil
}
