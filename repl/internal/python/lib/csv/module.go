package csv

import (
	"errors"
	"io"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// The module wrapper: code mode's csv module over the kernel above.
//
// reader and writer are the objects of CPython's _csv (reader over any
// iterable of str lines: a list, text.splitlines(), io.StringIO; writer
// to any object with a write method). DictReader and DictWriter are
// classes implemented in Go whose attributes (fieldnames, restkey,
// restval, reader, writer, extrasaction, line_num, dialect) read and set
// as CPython's; their rows go through the reader and writer objects as in
// CPython's csv.py. Dialect, excel, excel_tab and unix_dialect are
// classes with CPython's class attributes, which Python code may
// subclass. The dialect registry and field_size_limit are per
// interpreter. Sniffer is refused.

type obj = python.Object

// Register makes csv importable.
func Register() {
	python.Setup()
	python.RegisterModule("csv", load)
}

// module is the per-interpreter state.
type module struct {
	errType        *python.Type // _csv.Error
	cDialectType   *python.Type // _csv.Dialect
	readerType     *python.Type // _csv.reader
	writerType     *python.Type // _csv.writer
	dialectType    *python.Type // csv.Dialect
	dictReaderType *python.Type
	dictWriterType *python.Type
	names          []string // registered dialect names, in order
	registry       map[string]*dialectObj
	fieldLimit     int
}

func load(in *python.Interp) (*python.Module, error) {
	md := &module{registry: map[string]*dialectObj{}, fieldLimit: DefaultFieldLimit}
	md.errType = python.NewBuiltinType("Error", "_csv", python.ExceptionType, nil)
	md.cDialectType = python.NewBuiltinType("Dialect", "_csv", nil, nil)
	md.cDialectType.SetFinal()
	md.initDialectAttrs()
	md.readerType = python.NewBuiltinType("reader", "_csv", nil, nil)
	md.readerType.SetFinal()
	md.initReaderType()
	md.writerType = python.NewBuiltinType("writer", "_csv", nil, nil)
	md.writerType.SetFinal()
	md.initWriterType()
	m := python.NewModule("csv")
	m.Set("Error", md.errType)
	m.Set("__version__", python.NewStr("1.0"))
	for i, n := range []string{"QUOTE_MINIMAL", "QUOTE_ALL", "QUOTE_NONNUMERIC", "QUOTE_NONE", "QUOTE_STRINGS", "QUOTE_NOTNULL"} {
		m.Set(n, python.MakeInt(int64(i)))
	}
	m.Func("reader", md.reader)
	m.Func("writer", md.writer)
	m.Func("register_dialect", md.registerDialect)
	m.Func("unregister_dialect", md.unregisterDialect)
	m.Func("get_dialect", md.getDialect)
	m.Func("list_dialects", md.listDialects)
	m.Func("field_size_limit", md.fieldSizeLimit)
	if err := md.initDialectClasses(m); err != nil {
		return nil, err
	}
	md.initDictReader()
	md.initDictWriter()
	m.Set("DictReader", md.dictReaderType)
	m.Set("DictWriter", md.dictWriterType)
	m.Set("Sniffer", python.NewBuiltinType("Sniffer", "csv", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("csv.Sniffer", "pass the delimiter and quoting to csv.reader explicitly")
	}))
	all := []obj{}
	for _, n := range []string{"QUOTE_MINIMAL", "QUOTE_ALL", "QUOTE_NONNUMERIC", "QUOTE_NONE", "Error", "Dialect",
		"__doc__", "excel", "excel_tab", "field_size_limit", "reader", "writer", "register_dialect", "get_dialect",
		"list_dialects", "Sniffer", "unregister_dialect", "__version__", "DictReader", "DictWriter", "unix_dialect",
		"QUOTE_STRINGS", "QUOTE_NOTNULL"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}

// csvErr raises _csv.Error(msg).
func (md *module) csvErr(msg string) error { return python.Errorf(md.errType, "%s", msg) }

// kernelErr converts a kernel error into the Python exception it names.
func (md *module) kernelErr(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Type {
	case CSVError:
		return md.csvErr(e.Msg)
	case TypeError:
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

// goStr returns the text of a str object.
func goStr(t *python.Thread, x obj) (string, bool, error) {
	if !python.IsStr(x) {
		return "", false, nil
	}
	s, err := python.StrOf(t, python.Unwrap(x))
	return s, true, err
}

// cArgs checks the positional arguments of the C functions reader,
// writer and register_dialect: between 1 and 2 (CPython's message has no
// function name).
func cArgs(args []obj) error {
	switch {
	case len(args) < 1:
		return python.Errorf(python.TypeErrorType, " expected at least 1 argument, got 0")
	case len(args) > 2:
		return python.Errorf(python.TypeErrorType, " expected at most 2 arguments, got %d", len(args))
	}
	return nil
}

// ---- dialects

// dialectObj is a _csv.Dialect: validated formatting parameters.
type dialectObj struct {
	md *module
	d  Dialect
}

// Type returns _csv.Dialect.
func (o *dialectObj) Type() *python.Type { return o.md.cDialectType }

// dialectParams are the dialect parameters, in the order CPython reads
// and checks them.
var dialectParams = []string{"delimiter", "doublequote", "escapechar", "lineterminator", "quotechar", "quoting", "skipinitialspace", "strict"}

func charObj(r rune) obj {
	if r == NoChar {
		return python.None
	}
	return python.NewStr(string(r))
}

func (md *module) initDialectAttrs() {
	c := md.cDialectType
	get := func(name string, f func(d *Dialect) obj) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			o, ok := x.(*dialectObj)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for '_csv.Dialect' objects doesn't apply to a '%s' object", name, python.TypeName(x))
			}
			return f(&o.d), nil
		}, nil)
	}
	get("delimiter", func(d *Dialect) obj { return charObj(d.Delimiter) })
	get("quotechar", func(d *Dialect) obj { return charObj(d.QuoteChar) })
	get("escapechar", func(d *Dialect) obj { return charObj(d.EscapeChar) })
	get("doublequote", func(d *Dialect) obj { return python.MakeBool(d.DoubleQuote) })
	get("skipinitialspace", func(d *Dialect) obj { return python.MakeBool(d.SkipInitialSpace) })
	get("strict", func(d *Dialect) obj { return python.MakeBool(d.Strict) })
	get("lineterminator", func(d *Dialect) obj { return python.NewStr(d.LineTerminator) })
	get("quoting", func(d *Dialect) obj { return python.MakeInt(int64(d.Quoting)) })
}

// makeDialect is _csv.Dialect(dialect, **fmtparams): dialect is nil, a
// registered name, a _csv.Dialect, or any object whose attributes give the
// parameters (a csv.Dialect class or instance).
func (md *module) makeDialect(t *python.Thread, dialect obj, kwargs []python.Kwarg) (*dialectObj, error) {
	for i, kw := range kwargs {
		if kw.Name == "dialect" {
			if dialect != nil {
				return nil, python.Errorf(python.TypeErrorType, "argument for Dialect() given by name ('dialect') and position (1)")
			}
			dialect = kw.Value
			kwargs = append(kwargs[:i:i], kwargs[i+1:]...)
			break
		}
	}
	if dialect != nil && python.IsStr(dialect) {
		name, _, err := goStr(t, dialect)
		if err != nil {
			return nil, err
		}
		d, ok := md.registry[name]
		if !ok {
			return nil, md.csvErr("unknown dialect")
		}
		dialect = d
	}
	if d, ok := dialect.(*dialectObj); ok && len(kwargs) == 0 {
		return d, nil
	}
	vals := make(map[string]obj, len(dialectParams))
	for _, kw := range kwargs {
		known := false
		for _, p := range dialectParams {
			if p == kw.Name {
				known = true
			}
		}
		if !known {
			return nil, python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for this function", kw.Name)
		}
		vals[kw.Name] = kw.Value
	}
	if dialect != nil {
		for _, p := range dialectParams {
			if _, ok := vals[p]; ok {
				continue
			}
			v, err := python.GetAttr(t, dialect, p)
			if err != nil {
				if python.IsInstance(err, python.AttributeErrorType) {
					continue
				}
				return nil, err
			}
			vals[p] = v
		}
	}
	d := Dialect{Delimiter: ',', QuoteChar: '"', EscapeChar: NoChar, DoubleQuote: true, LineTerminator: "\r\n", Quoting: QuoteMinimal}
	hasLineTerm := true
	for _, p := range dialectParams {
		v, ok := vals[p]
		if !ok {
			continue
		}
		var err error
		switch p {
		case "delimiter":
			d.Delimiter, err = charParam(t, p, v, false)
		case "escapechar":
			d.EscapeChar, err = charParam(t, p, v, true)
		case "quotechar":
			d.QuoteChar, err = charParam(t, p, v, true)
		case "lineterminator":
			if v == python.None {
				hasLineTerm = false
				continue
			}
			s, isStr, e := goStr(t, v)
			if e != nil {
				return nil, e
			}
			if !isStr {
				return nil, python.Errorf(python.TypeErrorType, "\"lineterminator\" must be a string")
			}
			d.LineTerminator = s
		case "quoting":
			n := python.ToBig(v)
			if n == nil {
				return nil, python.Errorf(python.TypeErrorType, "\"quoting\" must be an integer")
			}
			if !n.IsInt64() || n.Int64() < -1<<31 || n.Int64() >= 1<<31 {
				return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C int")
			}
			d.Quoting = Quoting(n.Int64())
		case "doublequote", "skipinitialspace", "strict":
			b, e := python.TruthE(t, v)
			if e != nil {
				return nil, e
			}
			switch p {
			case "doublequote":
				d.DoubleQuote = b
			case "skipinitialspace":
				d.SkipInitialSpace = b
			default:
				d.Strict = b
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if qc, ok := vals["quotechar"]; ok && qc == python.None {
		if _, given := vals["quoting"]; !given {
			d.Quoting = QuoteNone
		}
	}
	if d.Quoting < QuoteMinimal || d.Quoting > QuoteNotnull {
		return nil, python.Errorf(python.TypeErrorType, "bad \"quoting\" value")
	}
	if err := d.Validate(); err != nil {
		return nil, md.kernelErr(err)
	}
	if !hasLineTerm {
		return nil, python.Errorf(python.TypeErrorType, "lineterminator must be set")
	}
	return &dialectObj{md: md, d: d}, nil
}

// charParam converts delimiter, quotechar or escapechar.
func charParam(t *python.Thread, name string, v obj, noneOK bool) (rune, error) {
	if v == python.None && noneOK {
		return NoChar, nil
	}
	s, ok, err := goStr(t, v)
	if err != nil {
		return 0, err
	}
	if !ok {
		if noneOK {
			return 0, python.Errorf(python.TypeErrorType, "\"%s\" must be string or None, not %s", name, python.TypeName(v))
		}
		return 0, python.Errorf(python.TypeErrorType, "\"%s\" must be string, not %s", name, python.TypeName(v))
	}
	r, err := Char(name, s)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return 0, python.Errorf(python.TypeErrorType, "%s", e.Msg)
		}
		return 0, err
	}
	return r, nil
}

// initDialectClasses makes csv.Dialect, excel, excel_tab and
// unix_dialect, and registers the last three.
func (md *module) initDialectClasses(m *python.Module) error {
	var c *python.Type
	c = python.NewBuiltinType("Dialect", "csv", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		self := python.NewInstance(cls, nil)
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := md.dialectInit(t, self, args, kwargs); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	md.dialectType = c
	c.SetAttr("_name", python.NewStr(""))
	c.SetAttr("_valid", python.False)
	for _, p := range []string{"delimiter", "quotechar", "escapechar", "doublequote", "skipinitialspace", "lineterminator", "quoting"} {
		c.SetAttr(p, python.None)
	}
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, md.dialectInit(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("_validate", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, md.validate(t, args[0])
	})
	m.Set("Dialect", c)
	sub := func(name, regName string, attrs map[string]obj, base *python.Type) *python.Type {
		s := python.NewBuiltinType(name, "csv", base, nil)
		for k, v := range attrs {
			s.SetAttr(k, v)
		}
		m.Set(name, s)
		md.registry[regName] = nil
		md.names = append(md.names, regName)
		return s
	}
	excel := sub("excel", "excel", map[string]obj{
		"delimiter": python.NewStr(","), "quotechar": python.NewStr("\""), "doublequote": python.True,
		"skipinitialspace": python.False, "lineterminator": python.NewStr("\r\n"), "quoting": python.MakeInt(0),
	}, c)
	sub("excel_tab", "excel-tab", map[string]obj{"delimiter": python.NewStr("\t")}, excel)
	sub("unix_dialect", "unix", map[string]obj{
		"delimiter": python.NewStr(","), "quotechar": python.NewStr("\""), "doublequote": python.True,
		"skipinitialspace": python.False, "lineterminator": python.NewStr("\n"), "quoting": python.MakeInt(1),
	}, c)
	for name, k := range Dialects() {
		md.registry[name] = &dialectObj{md: md, d: k}
	}
	return nil
}

// dialectInit is csv.Dialect.__init__(self): instances of subclasses are
// valid; every instance is validated.
func (md *module) dialectInit(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	if _, _, _, err := (&python.Signature{Name: "Dialect.__init__", Pos: []string{"self"}, Required: 1}).Bind(append([]obj{self}, args...), kwargs); err != nil {
		return err
	}
	if self.Type() != md.dialectType {
		if err := python.SetAttr(t, self, "_valid", python.True); err != nil {
			return err
		}
	}
	return md.validate(t, self)
}

// validate is Dialect._validate: a TypeError of the parameters becomes
// csv.Error.
func (md *module) validate(t *python.Thread, self obj) error {
	if _, err := md.makeDialect(t, self, nil); err != nil {
		if e, ok := python.AsException(err); ok && e.Class() == python.TypeErrorType {
			return md.csvErr(e.Message())
		}
		return err
	}
	return nil
}

// registerDialect is csv.register_dialect(name[, dialect[, **fmtparams]]).
func (md *module) registerDialect(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	if err := cArgs(args); err != nil {
		return nil, err
	}
	name, ok, err := goStr(t, args[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "dialect name must be a string")
	}
	var dialect obj
	if len(args) > 1 {
		dialect = args[1]
	}
	d, err := md.makeDialect(t, dialect, kwargs)
	if err != nil {
		return nil, err
	}
	if _, ok := md.registry[name]; !ok {
		md.names = append(md.names, name)
	}
	md.registry[name] = d
	return python.None, nil
}

// unregisterDialect is csv.unregister_dialect(name).
func (md *module) unregisterDialect(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := python.UnpackArgs("unregister_dialect", args, kwargs, 1, "name")
	if err != nil {
		return nil, err
	}
	name, ok, err := goStr(t, a[0])
	if err != nil {
		return nil, err
	}
	if _, found := md.registry[name]; !ok || !found {
		return nil, md.csvErr("unknown dialect")
	}
	delete(md.registry, name)
	for i, n := range md.names {
		if n == name {
			md.names = append(md.names[:i:i], md.names[i+1:]...)
			break
		}
	}
	return python.None, nil
}

// getDialect is csv.get_dialect(name).
func (md *module) getDialect(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := python.UnpackArgs("get_dialect", args, kwargs, 1, "name")
	if err != nil {
		return nil, err
	}
	name, ok, err := goStr(t, a[0])
	if err != nil {
		return nil, err
	}
	d, found := md.registry[name]
	if !ok || !found {
		return nil, md.csvErr("unknown dialect")
	}
	return d, nil
}

// listDialects is csv.list_dialects().
func (md *module) listDialects(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	if len(args)+len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "list_dialects() takes no arguments (%d given)", len(args)+len(kwargs))
	}
	out := make([]obj, len(md.names))
	for i, n := range md.names {
		out[i] = python.NewStr(n)
	}
	return python.NewList(out), nil
}

// fieldSizeLimit is csv.field_size_limit([new_limit]).
func (md *module) fieldSizeLimit(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "field_size_limit() takes no keyword arguments")
	}
	if len(args) > 1 {
		return nil, python.Errorf(python.TypeErrorType, "field_size_limit() takes at most 1 argument (%d given)", len(args))
	}
	old := python.MakeInt(int64(md.fieldLimit))
	if len(args) == 1 {
		n := python.ToBig(args[0])
		if n == nil {
			return nil, python.Errorf(python.TypeErrorType, "limit must be an integer")
		}
		if !n.IsInt64() {
			return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C long")
		}
		v := n.Int64()
		if v > 1<<40 {
			v = 1 << 40
		}
		if v < -1<<40 {
			v = -1 << 40
		}
		md.fieldLimit = int(v)
	}
	return old, nil
}

// ---- reader

// readerObj is a _csv.reader.
type readerObj struct {
	md      *module
	it      obj // the iterator over the lines
	dialect *dialectObj
	r       *Reader
}

// Type returns _csv.reader.
func (r *readerObj) Type() *python.Type { return r.md.readerType }

// Next returns the next row, nil at the end.
func (r *readerObj) Next(t *python.Thread) (obj, error) {
	r.r.FieldLimit = r.md.fieldLimit
	n := 0
	row, err := r.r.Next(func() (string, bool, error) {
		n++
		if n&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return "", false, err
			}
		}
		line, err := python.Next(t, r.it)
		if err != nil || line == nil {
			return "", false, err
		}
		s, ok, err := goStr(t, line)
		if err != nil {
			return "", false, err
		}
		if !ok {
			return "", false, r.md.csvErr("iterator should return strings, not " + python.TypeName(line) + " (the file should be opened in text mode)")
		}
		if err := t.CheckSize(int64(len(s)) * 4); err != nil {
			return "", false, err
		}
		return s, true, nil
	})
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, r.md.kernelErr(err)
	}
	out := make([]obj, len(row))
	for i, f := range row {
		switch v := f.(type) {
		case string:
			out[i] = python.NewStr(v)
		case float64:
			out[i] = python.Float(v)
		}
	}
	return python.NewList(out), nil
}

func (md *module) initReaderType() {
	c := md.readerType
	c.AddGetSet("dialect", func(t *python.Thread, x obj) (obj, error) { return x.(*readerObj).dialect, nil }, nil)
	c.AddGetSet("line_num", func(t *python.Thread, x obj) (obj, error) {
		return python.MakeInt(int64(x.(*readerObj).r.LineNum())), nil
	}, nil)
}

// reader is csv.reader(csvfile, dialect='excel', **fmtparams).
func (md *module) reader(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	if err := cArgs(args); err != nil {
		return nil, err
	}
	it, err := python.Iter(t, args[0])
	if err != nil {
		return nil, err
	}
	var dialect obj
	if len(args) > 1 {
		dialect = args[1]
	}
	d, err := md.makeDialect(t, dialect, kwargs)
	if err != nil {
		return nil, err
	}
	return &readerObj{md: md, it: it, dialect: d, r: NewReader(d.d)}, nil
}

// ---- writer

// writerObj is a _csv.writer.
type writerObj struct {
	md      *module
	write   obj // the file's write method
	dialect *dialectObj
	w       *Writer
}

// Type returns _csv.writer.
func (w *writerObj) Type() *python.Type { return w.md.writerType }

// writer is csv.writer(csvfile, dialect='excel', **fmtparams).
func (md *module) writer(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	if err := cArgs(args); err != nil {
		return nil, err
	}
	write, err := python.GetAttr(t, args[0], "write")
	if err != nil {
		if python.IsInstance(err, python.AttributeErrorType) {
			return nil, python.Errorf(python.TypeErrorType, "argument 1 must have a \"write\" method")
		}
		return nil, err
	}
	var dialect obj
	if len(args) > 1 {
		dialect = args[1]
	}
	d, err := md.makeDialect(t, dialect, kwargs)
	if err != nil {
		return nil, err
	}
	return &writerObj{md: md, write: write, dialect: d, w: NewWriter(d.d)}, nil
}

// isNumber is PyNumber_Check: ints, floats, complex numbers and objects
// with __index__, __int__ or __float__.
func isNumber(x obj) bool {
	switch python.Unwrap(x).(type) {
	case python.Int, *python.BigInt, python.Bool, python.Float, python.Complex:
		return true
	}
	for _, m := range []string{"__index__", "__int__", "__float__"} {
		if _, ok := x.Type().Lookup(m); ok {
			return true
		}
	}
	return false
}

// writeRow is writer.writerow(row).
func (w *writerObj) writeRow(t *python.Thread, row obj) (obj, error) {
	if !python.IsIterable(row) {
		return nil, w.md.csvErr("iterable expected, not " + python.TypeName(row))
	}
	var fields []Field
	size := int64(0)
	err := python.Iterate(t, row, func(x obj) error {
		var f Field
		switch {
		case x == python.None:
			f.Kind = KindNone
		case python.IsStr(x):
			s, err := python.StrOf(t, python.Unwrap(x))
			if err != nil {
				return err
			}
			f.Text, f.Kind = s, KindString
		default:
			var s string
			var err error
			if _, isFloat := x.(python.Float); isFloat {
				s, err = python.Repr(t, x)
			} else {
				s, err = python.StrOf(t, x)
			}
			if err != nil {
				return err
			}
			f.Text, f.Kind = s, KindOther
			if isNumber(x) {
				f.Kind = KindNumber
			}
		}
		fields = append(fields, f)
		size += int64(len(f.Text))*2 + 2
		if len(fields)&1023 == 0 {
			if err := t.CheckSize(size); err != nil {
				return err
			}
			return t.Tick(1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := t.CheckSize(size); err != nil {
		return nil, err
	}
	line, err := w.w.Row(fields)
	if err != nil {
		return nil, w.md.kernelErr(err)
	}
	return python.Call(t, w.write, []obj{python.NewStr(line)}, nil)
}

func (md *module) initWriterType() {
	c := md.writerType
	c.AddGetSet("dialect", func(t *python.Thread, x obj) (obj, error) { return x.(*writerObj).dialect, nil }, nil)
	c.AddMethod("writerow", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "writer.writerow() takes no keyword arguments")
		}
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "writer.writerow() takes exactly one argument (%d given)", len(args)-1)
		}
		return args[0].(*writerObj).writeRow(t, args[1])
	})
	c.AddMethod("writerows", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "writer.writerows() takes no keyword arguments")
		}
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "writer.writerows() takes exactly one argument (%d given)", len(args)-1)
		}
		w := args[0].(*writerObj)
		err := python.Iterate(t, args[1], func(row obj) error {
			_, err := w.writeRow(t, row)
			return err
		})
		if err != nil {
			return nil, err
		}
		return python.None, nil
	})
}

// ---- DictReader

// dictReader is a csv.DictReader (or the Go part of an instance of a
// subclass).
type dictReader struct {
	cls        *python.Type
	reader     obj
	fieldnames obj // None until known
	restkey    obj
	restval    obj
	dialect    obj
	lineNum    obj
}

// Type returns DictReader.
func (d *dictReader) Type() *python.Type { return d.cls }

func dictReaderOf(x obj) (*dictReader, error) {
	if d, ok := python.Unwrap(x).(*dictReader); ok {
		return d, nil
	}
	return nil, python.Errorf(python.TypeErrorType, "descriptor requires a 'csv.DictReader' object but received a '%s'", python.TypeName(x))
}

// getFieldnames is the fieldnames property: it reads the first row when
// the names are not known yet.
func (d *dictReader) getFieldnames(t *python.Thread) (obj, error) {
	if d.fieldnames == python.None {
		row, err := python.Next(t, d.reader)
		if err != nil {
			return nil, err
		}
		if row != nil {
			d.fieldnames = row
		}
	}
	n, err := python.GetAttr(t, d.reader, "line_num")
	if err != nil {
		return nil, err
	}
	d.lineNum = n
	return d.fieldnames, nil
}

// Next is DictReader.__next__.
func (d *dictReader) Next(t *python.Thread) (obj, error) {
	if eq, err := python.Equal(t, d.lineNum, python.MakeInt(0)); err != nil {
		return nil, err
	} else if eq {
		if _, err := d.getFieldnames(t); err != nil {
			return nil, err
		}
	}
	row, err := python.Next(t, d.reader)
	if err != nil || row == nil {
		return nil, err
	}
	if d.lineNum, err = python.GetAttr(t, d.reader, "line_num"); err != nil {
		return nil, err
	}
	for {
		n, err := python.Len(t, row)
		if err != nil {
			return nil, err
		}
		if _, isList := row.(*python.List); !isList || n > 0 {
			break
		}
		if row, err = python.Next(t, d.reader); err != nil || row == nil {
			return nil, err
		}
	}
	names, err := d.getFieldnames(t)
	if err != nil {
		return nil, err
	}
	out := python.NewDict(8)
	keys, err := python.ToSlice(t, names)
	if err != nil {
		return nil, err
	}
	vals, err := python.ToSlice(t, row)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(keys) && i < len(vals); i++ {
		if err := out.Set(t, keys[i], vals[i]); err != nil {
			return nil, err
		}
	}
	lf, err := python.Len(t, names)
	if err != nil {
		return nil, err
	}
	lr, err := python.Len(t, row)
	if err != nil {
		return nil, err
	}
	switch {
	case lf < lr:
		rest, err := python.GetItem(t, row, python.NewSliceObject(python.MakeInt(int64(lf)), python.None, python.None))
		if err != nil {
			return nil, err
		}
		if err := out.Set(t, d.restkey, rest); err != nil {
			return nil, err
		}
	case lf > lr:
		more, err := python.GetItem(t, names, python.NewSliceObject(python.MakeInt(int64(lr)), python.None, python.None))
		if err != nil {
			return nil, err
		}
		err = python.Iterate(t, more, func(k obj) error { return out.Set(t, k, d.restval) })
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

var dictReaderSig = &python.Signature{Name: "DictReader.__init__", Pos: []string{"self", "f", "fieldnames", "restkey", "restval", "dialect"}, Required: 2, Varargs: true, Varkw: true}

func (md *module) initDictReader() {
	var c *python.Type
	c = python.NewBuiltinType("DictReader", "csv", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		d := &dictReader{cls: c, reader: python.None, fieldnames: python.None, restkey: python.None, restval: python.None, dialect: python.NewStr("excel"), lineNum: python.MakeInt(0)}
		var self obj = d
		if cls != c {
			self = python.NewInstance(cls, d)
		}
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := md.dictReaderInit(t, self, args, kwargs); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	md.dictReaderType = c
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, md.dictReaderInit(t, args[0], args[1:], kwargs)
	})
	c.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) { return args[0], nil })
	c.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		d, err := dictReaderOf(args[0])
		if err != nil {
			return nil, err
		}
		v, err := d.Next(t)
		if err == nil && v == nil {
			return nil, python.NewException(python.StopIterationType)
		}
		return v, err
	})
	c.AddClassMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewGenericAlias(args[0], args[1]), nil
	})
	field := func(name string, get func(d *dictReader) obj, set func(d *dictReader, v obj)) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			d, err := dictReaderOf(x)
			if err != nil {
				return nil, err
			}
			return get(d), nil
		}, func(t *python.Thread, x, v obj) error {
			d, err := dictReaderOf(x)
			if err != nil {
				return err
			}
			set(d, v)
			return nil
		})
	}
	c.AddGetSet("fieldnames", func(t *python.Thread, x obj) (obj, error) {
		d, err := dictReaderOf(x)
		if err != nil {
			return nil, err
		}
		return d.getFieldnames(t)
	}, func(t *python.Thread, x, v obj) error {
		d, err := dictReaderOf(x)
		if err != nil {
			return err
		}
		d.fieldnames = v
		return nil
	})
	field("_fieldnames", func(d *dictReader) obj { return d.fieldnames }, func(d *dictReader, v obj) { d.fieldnames = v })
	field("restkey", func(d *dictReader) obj { return d.restkey }, func(d *dictReader, v obj) { d.restkey = v })
	field("restval", func(d *dictReader) obj { return d.restval }, func(d *dictReader, v obj) { d.restval = v })
	field("reader", func(d *dictReader) obj { return d.reader }, func(d *dictReader, v obj) { d.reader = v })
	field("dialect", func(d *dictReader) obj { return d.dialect }, func(d *dictReader, v obj) { d.dialect = v })
	field("line_num", func(d *dictReader) obj { return d.lineNum }, func(d *dictReader, v obj) { d.lineNum = v })
}

// dictReaderInit is DictReader.__init__(self, f, fieldnames=None,
// restkey=None, restval=None, dialect="excel", *args, **kwds).
func (md *module) dictReaderInit(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	a, extra, rest, err := dictReaderSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return err
	}
	d, err := dictReaderOf(self)
	if err != nil {
		return err
	}
	names, err := listIfIterator(t, a[2])
	if err != nil {
		return err
	}
	d.fieldnames = names
	d.restkey, d.restval = orNone(a[3]), orNone(a[4])
	dialect := a[5]
	if dialect == nil {
		dialect = python.NewStr("excel")
	}
	rargs := append([]obj{a[1], dialect}, extra...)
	r, err := md.reader(t, rargs, rest)
	if err != nil {
		return err
	}
	d.reader = r
	d.dialect = dialect
	d.lineNum = python.MakeInt(0)
	return nil
}

// listIfIterator is CPython's "if fieldnames is not None and
// iter(fieldnames) is fieldnames: fieldnames = list(fieldnames)".
func listIfIterator(t *python.Thread, x obj) (obj, error) {
	if x == nil || x == python.None {
		return python.None, nil
	}
	it, err := python.Iter(t, x)
	if err != nil {
		return nil, err
	}
	if it == x {
		items, err := python.ToSlice(t, x)
		if err != nil {
			return nil, err
		}
		return python.NewList(items), nil
	}
	return x, nil
}

func orNone(x obj) obj {
	if x == nil {
		return python.None
	}
	return x
}

// ---- DictWriter

// dictWriter is a csv.DictWriter (or the Go part of an instance of a
// subclass).
type dictWriter struct {
	cls          *python.Type
	fieldnames   obj
	restval      obj
	extrasaction obj
	writer       obj
}

// Type returns DictWriter.
func (d *dictWriter) Type() *python.Type { return d.cls }

func dictWriterOf(x obj) (*dictWriter, error) {
	if d, ok := python.Unwrap(x).(*dictWriter); ok {
		return d, nil
	}
	return nil, python.Errorf(python.TypeErrorType, "descriptor requires a 'csv.DictWriter' object but received a '%s'", python.TypeName(x))
}

var dictWriterSig = &python.Signature{Name: "DictWriter.__init__", Pos: []string{"self", "f", "fieldnames", "restval", "extrasaction", "dialect"}, Required: 3, Varargs: true, Varkw: true}

func (md *module) initDictWriter() {
	var c *python.Type
	c = python.NewBuiltinType("DictWriter", "csv", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		d := &dictWriter{cls: c, fieldnames: python.None, restval: python.NewStr(""), extrasaction: python.NewStr("raise"), writer: python.None}
		var self obj = d
		if cls != c {
			self = python.NewInstance(cls, d)
		}
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := md.dictWriterInit(t, self, args, kwargs); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	md.dictWriterType = c
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, md.dictWriterInit(t, args[0], args[1:], kwargs)
	})
	c.AddClassMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewGenericAlias(args[0], args[1]), nil
	})
	field := func(name string, get func(d *dictWriter) *obj) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			d, err := dictWriterOf(x)
			if err != nil {
				return nil, err
			}
			return *get(d), nil
		}, func(t *python.Thread, x, v obj) error {
			d, err := dictWriterOf(x)
			if err != nil {
				return err
			}
			*get(d) = v
			return nil
		})
	}
	field("fieldnames", func(d *dictWriter) *obj { return &d.fieldnames })
	field("restval", func(d *dictWriter) *obj { return &d.restval })
	field("extrasaction", func(d *dictWriter) *obj { return &d.extrasaction })
	field("writer", func(d *dictWriter) *obj { return &d.writer })
	method := func(name string, param string, fn func(t *python.Thread, self obj, d *dictWriter, arg obj) (obj, error)) {
		s := &python.Signature{Name: "DictWriter." + name, Pos: []string{"self"}, Required: 1}
		if param != "" {
			s.Pos = append(s.Pos, param)
			s.Required++
		}
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			a, _, _, err := s.Bind(args, kwargs)
			if err != nil {
				return nil, err
			}
			d, err := dictWriterOf(args[0])
			if err != nil {
				return nil, err
			}
			var arg obj
			if param != "" {
				arg = a[1]
			}
			return fn(t, args[0], d, arg)
		})
	}
	method("writeheader", "", func(t *python.Thread, self obj, d *dictWriter, _ obj) (obj, error) {
		names, err := python.ToSlice(t, d.fieldnames)
		if err != nil {
			return nil, err
		}
		header := python.NewDict(len(names))
		for _, n := range names {
			if err := header.Set(t, n, n); err != nil {
				return nil, err
			}
		}
		return python.CallMethod(t, self, "writerow", []obj{header}, nil)
	})
	method("_dict_to_list", "rowdict", func(t *python.Thread, self obj, d *dictWriter, row obj) (obj, error) {
		return d.dictToList(t, row)
	})
	method("writerow", "rowdict", func(t *python.Thread, self obj, d *dictWriter, row obj) (obj, error) {
		l, err := d.dictToList(t, row)
		if err != nil {
			return nil, err
		}
		return python.CallMethod(t, d.writer, "writerow", []obj{l}, nil)
	})
	method("writerows", "rowdicts", func(t *python.Thread, self obj, d *dictWriter, rows obj) (obj, error) {
		var out []obj
		err := python.Iterate(t, rows, func(row obj) error {
			l, err := d.dictToList(t, row)
			if err != nil {
				return err
			}
			out = append(out, l)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return python.CallMethod(t, d.writer, "writerows", []obj{python.NewList(out)}, nil)
	})
}

// dictWriterInit is DictWriter.__init__(self, f, fieldnames, restval="",
// extrasaction="raise", dialect="excel", *args, **kwds).
func (md *module) dictWriterInit(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	a, extra, rest, err := dictWriterSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return err
	}
	d, err := dictWriterOf(self)
	if err != nil {
		return err
	}
	if d.fieldnames, err = listIfIterator(t, a[2]); err != nil {
		return err
	}
	d.restval = a[3]
	if d.restval == nil {
		d.restval = python.NewStr("")
	}
	ea := a[4]
	if ea == nil {
		ea = python.NewStr("raise")
	}
	lower, err := python.CallMethod(t, ea, "lower", nil, nil)
	if err != nil {
		return err
	}
	s, _, err := goStr(t, lower)
	if err != nil {
		return err
	}
	if _, err := ExtrasAction(s); err != nil {
		r, err2 := python.StrOf(t, lower)
		if err2 != nil {
			return err2
		}
		return python.Errorf(python.ValueErrorType, "extrasaction (%s) must be 'raise' or 'ignore'", r)
	}
	d.extrasaction = lower
	dialect := a[5]
	if dialect == nil {
		dialect = python.NewStr("excel")
	}
	w, err := md.writer(t, append([]obj{a[1], dialect}, extra...), rest)
	if err != nil {
		return err
	}
	d.writer = w
	return nil
}

// dictToList is DictWriter._dict_to_list(rowdict).
func (d *dictWriter) dictToList(t *python.Thread, row obj) (obj, error) {
	raise, err := python.Equal(t, d.extrasaction, python.NewStr("raise"))
	if err != nil {
		return nil, err
	}
	if raise {
		// rowdict.keys() - fieldnames: a set of the keys (made from the
		// dict itself, as CPython's set(dict) presizes), less the names.
		var keys obj = row
		if dd, ok := row.(*python.Dict); !ok || dd.Class() != python.DictType {
			var err error
			if keys, err = python.CallMethod(t, row, "keys", nil, nil); err != nil {
				return nil, err
			}
		}
		wrong := python.NewSet(false)
		if err := wrong.Update(t, keys); err != nil {
			return nil, err
		}
		err = python.Iterate(t, d.fieldnames, func(n obj) error {
			_, err := wrong.Discard(t, n)
			return err
		})
		if err != nil {
			return nil, err
		}
		if wrong.Len() > 0 {
			msg := "dict contains fields not in fieldnames: "
			for i, k := range wrong.Elems() {
				r, err := python.Repr(t, k)
				if err != nil {
					return nil, err
				}
				if i > 0 {
					msg += ", "
				}
				msg += r
			}
			return nil, python.Errorf(python.ValueErrorType, "%s", msg)
		}
	}
	var out []obj
	err = python.Iterate(t, d.fieldnames, func(k obj) error {
		var v obj
		var err error
		if dd, ok := row.(*python.Dict); ok && dd.Missing() == nil {
			var found bool
			if v, found, err = dd.Get(t, k); err == nil && !found {
				v = d.restval
			}
		} else {
			v, err = python.CallMethod(t, row, "get", []obj{k, d.restval}, nil)
		}
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return python.NewList(out), nil
}

var (
	_ = big.NewInt
	_ = syntax.Add
)
