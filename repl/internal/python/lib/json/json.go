// Package json is code mode's json module: dumps, dump, loads and load
// with every argument of CPython 3.12's, its exact output (float repr,
// escaping, separators, indentation, key conversion) and its errors
// (JSONDecodeError with msg, doc, pos, lineno and colno, at the positions
// CPython reports), and the JSONEncoder and JSONDecoder classes, which
// Python code may subclass (a default method, cls=).
package json

import (
	"strings"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

const (
	addOp = syntax.Add
	subOp = syntax.Sub
)

// Register makes json, json.decoder and json.encoder importable.
func Register() {
	python.Setup()
	python.RegisterPackage("json", load)
	python.RegisterModule("json.decoder", func(in *python.Interp) (*python.Module, error) {
		initTypes()
		m := python.NewModule("json.decoder")
		m.Set("JSONDecoder", decoderType)
		m.Set("JSONDecodeError", decodeErrorType)
		return m, nil
	})
	python.RegisterModule("json.encoder", func(in *python.Interp) (*python.Module, error) {
		initTypes()
		m := python.NewModule("json.encoder")
		m.Set("JSONEncoder", encoderType)
		return m, nil
	})
}

var (
	typesOnce       sync.Once
	decodeErrorType *python.Type
	encoderType     *python.Type
	decoderType     *python.Type
	// constantHook is JSONDecoder's default parse_constant.
	constantHook *python.Builtin
)

func load(in *python.Interp) (*python.Module, error) {
	initTypes()
	m := python.NewModule("json")
	m.Func("dumps", dumps)
	m.Func("dump", dump)
	m.Func("loads", loads)
	m.Func("load", loadFile)
	m.SetGetattr(func(t *python.Thread, name string) (python.Object, error) {
		// The submodules, imported on first use as CPython imports them
		// with json.
		if name == "decoder" || name == "encoder" {
			return in.Import(t, "json."+name)
		}
		return nil, nil
	})
	m.Set("JSONDecodeError", decodeErrorType)
	m.Set("JSONEncoder", encoderType)
	m.Set("JSONDecoder", decoderType)
	all := []python.Object{}
	for _, n := range []string{"dump", "dumps", "load", "loads", "JSONDecoder", "JSONDecodeError", "JSONEncoder"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	m.Set("__version__", python.NewStr("2.0.9"))
	return m, nil
}

// dumpsKwOnly are the keyword-only parameters of dumps and dump.
var dumpsKwOnly = []string{"skipkeys", "ensure_ascii", "check_circular", "allow_nan", "cls", "indent", "separators", "default", "sort_keys"}

var dumpsSig = &signature{
	name: "dumps", pos: []string{"obj"}, required: 1, rest: true,
	kwOnly: dumpsKwOnly,
}

var dumpSig = &signature{
	name: "dump", pos: []string{"obj", "fp"}, required: 2, rest: true,
	kwOnly: dumpsKwOnly,
}

var encoderInitSig = &signature{
	name: "JSONEncoder.__init__", pos: []string{"self"}, required: 1, kwOnly: []string{"skipkeys", "ensure_ascii", "check_circular", "allow_nan", "sort_keys", "indent", "separators", "default"},
}

// dumps is json.dumps(obj, *, skipkeys=False, ensure_ascii=True,
// check_circular=True, allow_nan=True, cls=None, indent=None,
// separators=None, default=None, sort_keys=False, **kw).
func dumps(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, rest, err := dumpsSig.bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := encodeWith(t, vals["obj"], vals, rest)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// dump is json.dump(obj, fp, ...): fp.write(dumps(obj, ...)).
func dump(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, rest, err := dumpSig.bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	write, err := python.GetAttr(t, vals["fp"], "write")
	if err != nil {
		return nil, err
	}
	s, err := encodeWith(t, vals["obj"], vals, rest)
	if err != nil {
		return nil, err
	}
	if _, err := python.Call(t, write, []python.Object{s}, nil); err != nil {
		return nil, err
	}
	return python.None, nil
}

// encodeWith encodes obj with dumps's options, through cls when given.
func encodeWith(t *python.Thread, obj python.Object, vals map[string]python.Object, rest []python.Kwarg) (python.Object, error) {
	cls := vals["cls"]
	if cls == nil || cls == python.None {
		if len(rest) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "JSONEncoder.__init__() got an unexpected keyword argument '%s'", rest[0].Name)
		}
		e, err := newEncoder(t, vals)
		if err != nil {
			return nil, err
		}
		return e.run(obj)
	}
	var kw []python.Kwarg
	for _, a := range []struct {
		name string
		def  python.Object
	}{{"skipkeys", python.False}, {"ensure_ascii", python.True}, {"check_circular", python.True},
		{"allow_nan", python.True}, {"indent", python.None}, {"separators", python.None},
		{"default", python.None}, {"sort_keys", python.False}} {
		v := vals[a.name]
		if v == nil {
			v = a.def
		}
		kw = append(kw, python.Kwarg{Name: a.name, Value: v})
	}
	kw = append(kw, rest...)
	inst, err := python.Call(t, cls, nil, kw)
	if err != nil {
		return nil, err
	}
	return python.CallMethod(t, inst, "encode", []python.Object{obj}, nil)
}

// newEncoder makes an encoder from dumps's (or JSONEncoder's) options.
func newEncoder(t *python.Thread, vals map[string]python.Object) (*encoder, error) {
	e := &encoder{t: t, itemSep: ", ", keySep: ": ", maxDepth: t.Interp().Config().MaxDepth}
	var err error
	if e.skipKeys, err = truth(t, vals["skipkeys"], false); err != nil {
		return nil, err
	}
	if e.ascii, err = truth(t, vals["ensure_ascii"], true); err != nil {
		return nil, err
	}
	if e.circular, err = truth(t, vals["check_circular"], true); err != nil {
		return nil, err
	}
	if e.allowNaN, err = truth(t, vals["allow_nan"], true); err != nil {
		return nil, err
	}
	if e.sortKeys, err = truth(t, vals["sort_keys"], false); err != nil {
		return nil, err
	}
	if d := vals["default"]; d != nil && d != python.None {
		e.def = d
	}
	if ind := vals["indent"]; ind != nil && ind != python.None {
		e.indentObj = ind
		e.itemSepObj = python.NewStr(",")
	}
	if sep := vals["separators"]; sep != nil && sep != python.None {
		item, key, err := unpack2(t, sep)
		if err != nil {
			return nil, err
		}
		e.itemSepObj, e.keySepObj = item, key
	}
	return e, nil
}

func (e *encoder) setIndent(ind python.Object) error {
	if python.IsStr(ind) {
		s, err := strOf(e.t, ind)
		e.indent = s
		return err
	}
	n, ok, err := python.IndexValue(e.t, ind)
	if err != nil {
		return python.Errorf(python.OverflowErrorType, "cannot fit 'int' into an index-sized integer")
	}
	if !ok {
		return python.Errorf(python.TypeErrorType, "can't multiply sequence by non-int of type '%s'", python.TypeName(ind))
	}
	if n > 0 {
		if err := e.t.CheckSize(n); err != nil {
			return err
		}
		e.indent = strings.Repeat(" ", int(n))
	}
	return nil
}

func (e *encoder) setSeparators(key, item python.Object) error {
	if !python.IsStr(key) {
		return python.Errorf(python.TypeErrorType, "make_encoder() argument 5 must be str, not %s", python.TypeName(key))
	}
	if !python.IsStr(item) {
		return python.Errorf(python.TypeErrorType, "make_encoder() argument 6 must be str, not %s", python.TypeName(item))
	}
	var err error
	if e.keySep, err = strOf(e.t, key); err != nil {
		return err
	}
	e.itemSep, err = strOf(e.t, item)
	return err
}

// unpack2 is a, b = x.
func unpack2(t *python.Thread, x python.Object) (python.Object, python.Object, error) {
	if !python.IsIterable(x) {
		return nil, nil, python.Errorf(python.TypeErrorType, "cannot unpack non-iterable %s object", python.TypeName(x))
	}
	var got []python.Object
	err := python.Iterate(t, x, func(v python.Object) error {
		got = append(got, v)
		if len(got) > 2 {
			return python.ErrStop
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	switch {
	case len(got) < 2:
		return nil, nil, python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(got))
	case len(got) > 2:
		return nil, nil, python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
	}
	return got[0], got[1], nil
}

// run is JSONEncoder.encode: a str is quoted at once; for anything else
// the indent and the separators are checked (CPython checks them only
// then), and the value encoded.
func (e *encoder) run(obj python.Object) (python.Object, error) {
	if python.IsStr(obj) {
		s, err := strOf(e.t, obj)
		if err != nil {
			return nil, err
		}
		e.quote(s)
		return python.NewStr(e.b.String()), nil
	}
	if e.indentObj != nil {
		e.hasIndent = true
		if err := e.setIndent(e.indentObj); err != nil {
			return nil, err
		}
	}
	key, item := e.keySepObj, e.itemSepObj
	if key == nil {
		key = python.NewStr(e.keySep)
	}
	if item == nil {
		item = python.NewStr(e.itemSep)
	}
	if err := e.setSeparators(key, item); err != nil {
		return nil, err
	}
	if err := e.encode(obj); err != nil {
		return nil, err
	}
	return python.NewStr(e.b.String()), nil
}

// loadsKwOnly are the keyword-only parameters of loads and load.
var loadsKwOnly = []string{"cls", "object_hook", "parse_float", "parse_int", "parse_constant", "object_pairs_hook"}

var loadsSig = &signature{
	name: "loads", pos: []string{"s"}, required: 1, rest: true,
	kwOnly: loadsKwOnly,
}

var loadSig = &signature{
	name: "load", pos: []string{"fp"}, required: 1, rest: true,
	kwOnly: loadsKwOnly,
}

var decoderInitSig = &signature{
	name: "JSONDecoder.__init__", pos: []string{"self"}, required: 1, kwOnly: []string{"object_hook", "parse_float", "parse_int", "parse_constant", "strict", "object_pairs_hook"},
}

// loads is json.loads(s, *, cls=None, object_hook=None, parse_float=None,
// parse_int=None, parse_constant=None, object_pairs_hook=None, **kw).
func loads(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, rest, err := loadsSig.bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return decodeWith(t, vals["s"], vals, rest)
}

// loadFile is json.load(fp, ...): loads(fp.read(), ...).
func loadFile(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, rest, err := loadSig.bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := python.CallMethod(t, vals["fp"], "read", nil, nil)
	if err != nil {
		return nil, err
	}
	return decodeWith(t, s, vals, rest)
}

// docText returns the text loads decodes: a str as it is (a leading BOM
// refused as CPython refuses it), bytes decoded from the encoding their
// first bytes show.
func docText(t *python.Thread, s python.Object) (python.Object, string, error) {
	if python.IsStr(s) {
		text, err := strOf(t, s)
		if err != nil {
			return nil, "", err
		}
		if strings.HasPrefix(text, "\ufeff") {
			return nil, "", newDecodeError(t, decodeErrorType, "Unexpected UTF-8 BOM (decode using utf-8-sig)", s, text, 0)
		}
		return s, text, nil
	}
	var b string
	switch v := python.Unwrap(s).(type) {
	case *python.Bytes:
		b = v.String()
	case *python.ByteArray:
		r, err := python.Call(t, python.BytesType, []python.Object{v}, nil)
		if err != nil {
			return nil, "", err
		}
		b = r.(*python.Bytes).String()
	default:
		return nil, "", python.Errorf(python.TypeErrorType, "the JSON object must be str, bytes or bytearray, not %s", python.TypeName(s))
	}
	r, err := python.CallMethod(t, python.NewBytes(b), "decode", []python.Object{python.NewStr(detectEncoding(b)), python.NewStr("surrogatepass")}, nil)
	if err != nil {
		return nil, "", err
	}
	text, err := strOf(t, r)
	return r, text, err
}

// detectEncoding is json.detect_encoding: the encoding of JSON bytes from
// their byte-order mark or the pattern of their zero bytes.
func detectEncoding(b string) string {
	switch {
	case strings.HasPrefix(b, "\x00\x00\xfe\xff"), strings.HasPrefix(b, "\xff\xfe\x00\x00"):
		return "utf-32"
	case strings.HasPrefix(b, "\xfe\xff"), strings.HasPrefix(b, "\xff\xfe"):
		return "utf-16"
	case strings.HasPrefix(b, "\xef\xbb\xbf"):
		return "utf-8-sig"
	}
	if len(b) >= 4 {
		if b[0] == 0 {
			if b[1] != 0 {
				return "utf-16-be"
			}
			return "utf-32-be"
		}
		if b[1] == 0 {
			if b[2] != 0 || b[3] != 0 {
				return "utf-16-le"
			}
			return "utf-32-le"
		}
	} else if len(b) == 2 {
		if b[0] == 0 {
			return "utf-16-be"
		}
		if b[1] == 0 {
			return "utf-16-le"
		}
	}
	return "utf-8"
}

// decodeWith decodes s with loads's options, through cls when given.
func decodeWith(t *python.Thread, s python.Object, vals map[string]python.Object, rest []python.Kwarg) (python.Object, error) {
	doc, text, err := docText(t, s)
	if err != nil {
		return nil, err
	}
	cls := vals["cls"]
	if cls == nil || cls == python.None {
		d := newDecoder(t, doc, text)
		for _, kw := range rest {
			if kw.Name != "strict" {
				return nil, python.Errorf(python.TypeErrorType, "JSONDecoder.__init__() got an unexpected keyword argument '%s'", kw.Name)
			}
			if d.strict, err = python.TruthE(t, kw.Value); err != nil {
				return nil, err
			}
		}
		d.objectHook = hook(vals["object_hook"])
		d.pairsHook = hook(vals["object_pairs_hook"])
		d.parseFloat = hook(vals["parse_float"])
		d.parseInt = hook(vals["parse_int"])
		d.parseCon = hook(vals["parse_constant"])
		return d.decodeAll()
	}
	var kw []python.Kwarg
	for _, n := range loadsSig.kwOnly {
		if n == "cls" {
			continue
		}
		if v := vals[n]; v != nil && v != python.None {
			kw = append(kw, python.Kwarg{Name: n, Value: v})
		}
	}
	kw = append(kw, rest...)
	inst, err := python.Call(t, cls, nil, kw)
	if err != nil {
		return nil, err
	}
	return python.CallMethod(t, inst, "decode", []python.Object{doc}, nil)
}

// hook returns a hook argument, nil for None or a falsy default.
func hook(v python.Object) python.Object {
	if v == nil || v == python.None {
		return nil
	}
	return v
}

func newDecoder(t *python.Thread, doc python.Object, text string) *decoder {
	return &decoder{t: t, s: text, doc: doc, errCls: decodeErrorType, strict: true,
		maxDepth: t.Interp().Config().MaxDepth, memo: map[string]*python.Str{}}
}

// decodeAll is JSONDecoder.decode: one value, with only whitespace around.
func (d *decoder) decodeAll() (python.Object, error) {
	v, end, err := d.rawDecode(d.space(0))
	if err != nil {
		return nil, err
	}
	end = d.space(end)
	if end != len(d.s) {
		return nil, d.fail("Extra data", end)
	}
	return v, nil
}

// rawDecode is JSONDecoder.raw_decode at byte offset i.
func (d *decoder) rawDecode(i int) (python.Object, int, error) {
	v, end, err := d.value(i)
	if err != nil {
		if nv, ok := err.(*errNoValue); ok {
			return nil, 0, d.fail("Expecting value", nv.pos)
		}
		return nil, 0, err
	}
	return v, end, nil
}

// newDecodeError makes JSONDecodeError(msg, doc, pos) for the byte offset
// at of text (doc's text).
func newDecodeError(t *python.Thread, cls *python.Type, msg string, doc python.Object, text string, at int) error {
	return newDecodeErrorAt(cls, msg, doc, text, at, cpos(text, at))
}

// newDecodeErrorAt is newDecodeError for code point pos, at byte offset
// at (clamped to the text).
func newDecodeErrorAt(cls *python.Type, msg string, doc python.Object, text string, at, pos int) error {
	if at > len(text) {
		at = len(text)
	}
	before := text[:at]
	lineno := strings.Count(before, "\n") + 1
	colno := pos + 1
	if nl := strings.LastIndexByte(before, '\n'); nl >= 0 {
		colno = pos - cpos(text, nl)
	}
	e := python.NewException(cls, python.NewStr(errText(msg, lineno, colno, pos)))
	setErrorAttrs(e, msg, doc, pos, lineno, colno)
	return e
}

func errText(msg string, lineno, colno, pos int) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(": line ")
	b.WriteString(itoa(lineno))
	b.WriteString(" column ")
	b.WriteString(itoa(colno))
	b.WriteString(" (char ")
	b.WriteString(itoa(pos))
	b.WriteString(")")
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

func setErrorAttrs(e *python.Exception, msg string, doc python.Object, pos, lineno, colno int) {
	d := e.Dict()
	d.SetStr("msg", python.NewStr(msg))
	d.SetStr("doc", doc)
	d.SetStr("pos", python.MakeInt(int64(pos)))
	d.SetStr("lineno", python.MakeInt(int64(lineno)))
	d.SetStr("colno", python.MakeInt(int64(colno)))
}

func initTypes() {
	typesOnce.Do(func() {
		decodeErrorType = python.NewBuiltinType("JSONDecodeError", "json.decoder", python.ValueErrorType, nil)
		decodeErrorType.AddMethod("__init__", decodeErrorInit)
		decodeErrorType.AddMethod("__reduce__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			// (cls, (msg, doc, pos)), as CPython's, for copy.
			self := args[0]
			parts := []python.Object{self.Type()}
			var margs []python.Object
			for _, n := range []string{"msg", "doc", "pos"} {
				v, err := python.GetAttr(t, self, n)
				if err != nil {
					return nil, err
				}
				margs = append(margs, v)
			}
			return python.NewTuple(append(parts, python.NewTuple(margs))), nil
		})
		initEncoderType()
		initDecoderType()
	})
}

// decodeErrorInit is JSONDecodeError.__init__(self, msg, doc, pos).
func decodeErrorInit(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	e, ok := args[0].(*python.Exception)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "JSONDecodeError.__init__() needs an exception")
	}
	sig := &signature{name: "JSONDecodeError.__init__", pos: []string{"msg", "doc", "pos"}, required: 3}
	vals, _, err := sig.bind(args[1:], kwargs)
	if err != nil {
		return nil, err
	}
	doc, pos := vals["doc"], vals["pos"]
	count, err := python.CallMethod(t, doc, "count", []python.Object{python.NewStr("\n"), python.MakeInt(0), pos}, nil)
	if err != nil {
		return nil, err
	}
	lineno, err := python.Binary(t, addOp, count, python.MakeInt(1))
	if err != nil {
		return nil, err
	}
	nl, err := python.CallMethod(t, doc, "rfind", []python.Object{python.NewStr("\n"), python.MakeInt(0), pos}, nil)
	if err != nil {
		return nil, err
	}
	colno, err := python.Binary(t, subOp, pos, nl)
	if err != nil {
		return nil, err
	}
	text, err := python.CallMethod(t, python.NewStr("%s: line %d column %d (char %d)"), "__mod__",
		[]python.Object{python.NewTuple([]python.Object{vals["msg"], lineno, colno, pos})}, nil)
	if err != nil {
		return nil, err
	}
	if err := python.SetAttr(t, e, "args", python.NewTuple([]python.Object{text})); err != nil {
		return nil, err
	}
	d := e.Dict()
	d.SetStr("msg", vals["msg"])
	d.SetStr("doc", doc)
	d.SetStr("pos", pos)
	d.SetStr("lineno", lineno)
	d.SetStr("colno", colno)
	return python.None, nil
}
