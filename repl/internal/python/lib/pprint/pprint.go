// Package pprint is code mode's pprint module: pprint, pformat, pp,
// saferepr, isreadable, isrecursive and PrettyPrinter, with CPython 3.12's
// layout: an object whose repr fits in the width is written as its repr;
// a longer one is broken over lines by the printer of its type (dict,
// list, tuple, set, frozenset, str, bytes, bytearray, mappingproxy,
// SimpleNamespace, dataclasses, OrderedDict, defaultdict, Counter,
// ChainMap, deque), with indent, width, depth, compact, sort_dicts and
// underscore_numbers.
package pprint

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes pprint importable.
func Register() {
	python.Setup()
	python.RegisterModule("pprint", load)
}

var (
	typesOnce   sync.Once
	printerType *python.Type
)

func load(in *python.Interp) (*python.Module, error) {
	typesOnce.Do(initPrinter)
	m := python.NewModule("pprint")
	m.Set("PrettyPrinter", printerType)
	m.Func("pformat", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := bindArgs("pformat", []string{"object", "indent", "width", "depth"}, 1, []string{"compact", "sort_dicts", "underscore_numbers"}, args, kwargs)
		if err != nil {
			return nil, err
		}
		p, err := newPrinter(t, v)
		if err != nil {
			return nil, err
		}
		s, err := p.pformat(v["object"])
		if err != nil {
			return nil, err
		}
		return python.NewStr(s), nil
	})
	m.Func("pprint", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := bindArgs("pprint", []string{"object", "stream", "indent", "width", "depth"}, 1, []string{"compact", "sort_dicts", "underscore_numbers"}, args, kwargs)
		if err != nil {
			return nil, err
		}
		p, err := newPrinter(t, v)
		if err != nil {
			return nil, err
		}
		return python.None, p.pprint(v["object"])
	})
	m.Func("pp", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := bindArgs("pp", []string{"object", "stream", "indent", "width", "depth"}, 1, []string{"compact", "sort_dicts", "underscore_numbers"}, args, kwargs)
		if err != nil {
			return nil, err
		}
		if v["sort_dicts"] == nil {
			v["sort_dicts"] = python.False
		}
		p, err := newPrinter(t, v)
		if err != nil {
			return nil, err
		}
		return python.None, p.pprint(v["object"])
	})
	m.Func("saferepr", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := bindArgs("saferepr", []string{"object"}, 1, nil, args, kwargs)
		if err != nil {
			return nil, err
		}
		p := defaultPrinter(t)
		r, _, _, err := p.safeRepr(v["object"], nil, 0, 0)
		return python.NewStr(r), err
	})
	for _, name := range []string{"isreadable", "isrecursive"} {
		name := name
		m.Func(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			v, err := bindArgs(name, []string{"object"}, 1, nil, args, kwargs)
			if err != nil {
				return nil, err
			}
			p := defaultPrinter(t)
			_, readable, recursive, err := p.safeRepr(v["object"], nil, 0, 0)
			if name == "isreadable" {
				return python.MakeBool(readable), err
			}
			return python.MakeBool(recursive), err
		})
	}
	return m, nil
}

// bindArgs binds the arguments of a function CPython defines in Python.
func bindArgs(name string, params []string, required int, kwOnly []string, args []python.Object, kwargs []python.Kwarg) (map[string]python.Object, error) {
	if len(args) > len(params) {
		return nil, python.Errorf(python.TypeErrorType, "%s() takes from %d to %d positional arguments but %d were given", name, required, len(params), len(args))
	}
	vals := map[string]python.Object{}
	for i, a := range args {
		vals[params[i]] = a
	}
	for _, kw := range kwargs {
		known := false
		for _, p := range params {
			if p == kw.Name {
				known = true
			}
		}
		for _, p := range kwOnly {
			if p == kw.Name {
				known = true
			}
		}
		if !known {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if vals[kw.Name] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		vals[kw.Name] = kw.Value
	}
	for _, p := range params[:required] {
		if vals[p] == nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: '%s'", name, p)
		}
	}
	return vals, nil
}

// sink collects the text as the stream.write calls CPython makes.
type sink struct {
	parts []string
	n     int
}

func (s *sink) WriteString(x string) {
	s.parts = append(s.parts, x)
	s.n += len(x)
}

func (s *sink) put(c byte) { s.WriteString(string(c)) }

func (s *sink) Len() int { return s.n }

func (s *sink) String() string { return strings.Join(s.parts, "") }

// printer is a PrettyPrinter's settings and one run's state.
type printer struct {
	t          *python.Thread
	indent     int
	width      int
	depth      int // 0: none
	stream     python.Object
	compact    bool
	sortDicts  bool
	underscore bool
	readable   bool
	recursive  bool
	steps      int
}

func defaultPrinter(t *python.Thread) *printer {
	return &printer{t: t, indent: 1, width: 80, sortDicts: true}
}

// newPrinter checks PrettyPrinter's arguments.
func newPrinter(t *python.Thread, v map[string]python.Object) (*printer, error) {
	p := defaultPrinter(t)
	intArg := func(name string, def int) (int, error) {
		x := v[name]
		if x == nil || x == python.None {
			return def, nil
		}
		n, err := python.ArgInt(t, name, x)
		return int(n), err
	}
	var err error
	if p.indent, err = intArg("indent", 1); err != nil {
		return nil, err
	}
	if p.width, err = intArg("width", 80); err != nil {
		return nil, err
	}
	if x := v["depth"]; x != nil && x != python.None {
		if p.depth, err = intArg("depth", 0); err != nil {
			return nil, err
		}
		if p.depth <= 0 {
			return nil, python.Errorf(python.ValueErrorType, "depth must be > 0")
		}
	}
	if p.indent < 0 {
		return nil, python.Errorf(python.ValueErrorType, "indent must be >= 0")
	}
	if p.width < 0 {
		return nil, python.Errorf(python.ValueErrorType, "width must be != 0")
	}
	if p.width == 0 {
		return nil, python.Errorf(python.ValueErrorType, "width must be != 0")
	}
	if p.indent > 1<<16 || p.width > 1<<24 {
		return nil, python.NotSupported("so large an indent or width", "")
	}
	truth := func(name string, def bool) (bool, error) {
		if x := v[name]; x != nil {
			return python.TruthE(t, x)
		}
		return def, nil
	}
	if p.compact, err = truth("compact", false); err != nil {
		return nil, err
	}
	if p.sortDicts, err = truth("sort_dicts", true); err != nil {
		return nil, err
	}
	if p.underscore, err = truth("underscore_numbers", false); err != nil {
		return nil, err
	}
	if s := v["stream"]; s != nil && s != python.None {
		p.stream = s
	}
	return p, nil
}

func (p *printer) run(x python.Object) (*sink, error) {
	var b sink
	p.readable, p.recursive = true, false
	if err := p.format(x, &b, 0, 0, nil, 0); err != nil {
		return nil, err
	}
	return &b, nil
}

func (p *printer) pformat(x python.Object) (string, error) {
	b, err := p.run(x)
	if err != nil {
		return "", err
	}
	return b.String(), nil
}

// pprint writes the text to the stream (sys.stdout by default) in the
// pieces CPython writes, then a newline.
func (p *printer) pprint(x python.Object) error {
	b, err := p.run(x)
	if err != nil {
		return err
	}
	stream := p.stream
	if stream == nil {
		m, err := p.t.Interp().Import(p.t, "sys")
		if err != nil {
			p.t.Print(b.String() + "\n")
			return nil
		}
		if stream, err = python.GetAttr(p.t, m, "stdout"); err != nil {
			return err
		}
	}
	write, err := python.GetAttr(p.t, stream, "write")
	if err != nil {
		return err
	}
	for _, part := range append(b.parts, "\n") {
		if _, err := python.Call(p.t, write, []python.Object{python.NewStr(part)}, nil); err != nil {
			return err
		}
	}
	return nil
}

// context is the containers being printed, by identity.
type context []python.Object

func (c context) has(x python.Object) bool {
	for _, y := range c {
		if python.Identical(x, y) {
			return true
		}
	}
	return false
}

func runes(s string) int { return utf8.RuneCountInString(s) }

func (p *printer) tick() error {
	p.steps++
	if p.steps&255 == 0 {
		return p.t.Tick(1)
	}
	return nil
}

func (p *printer) recursion(x python.Object) (string, error) {
	idf, _ := p.t.Interp().Builtins().GetStr("id")
	id, err := python.Call(p.t, idf, []python.Object{x}, nil)
	if err != nil {
		return "", err
	}
	s, err := python.Repr(p.t, id)
	return "<Recursion on " + python.TypeName(x) + " with id=" + s + ">", err
}

// format is PrettyPrinter._format.
func (p *printer) format(x python.Object, b *sink, indent, allowance int, ctx context, level int) error {
	if err := p.tick(); err != nil {
		return err
	}
	if level > p.t.Interp().Config().MaxDepth {
		return python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded")
	}
	if err := p.t.CheckSize(int64(b.Len())); err != nil {
		return err
	}
	if ctx.has(x) {
		r, err := p.recursion(x)
		if err != nil {
			return err
		}
		b.WriteString(r)
		p.recursive, p.readable = true, false
		return nil
	}
	rep, err := p.repr(x, ctx, level)
	if err != nil {
		return err
	}
	if runes(rep) > p.width-indent-allowance {
		kind := kindOf(x)
		if kind != "" {
			return p.dispatch(kind, x, b, indent, allowance, append(ctx, x), level+1)
		}
		if ok, err := p.isDataclass(x); err != nil {
			return err
		} else if ok {
			return p.dataclass(x, b, indent, allowance, append(ctx, x), level+1)
		}
	}
	b.WriteString(rep)
	return nil
}

// repr is PrettyPrinter._repr.
func (p *printer) repr(x python.Object, ctx context, level int) (string, error) {
	c := append(context(nil), ctx...)
	r, readable, recursive, err := p.safeRepr(x, c, p.depth, level)
	if err != nil {
		return "", err
	}
	if !readable {
		p.readable = false
	}
	if recursive {
		p.recursive = true
	}
	return r, nil
}

// kindOf names the printer of x's type: the nearest class of its MRO
// that defines repr, when that is a type pprint knows.
func kindOf(x python.Object) string {
	for _, c := range x.Type().MRO() {
		if c.Module() == "collections" {
			switch c.Name() {
			case "OrderedDict", "defaultdict", "Counter", "ChainMap", "deque", "UserDict", "UserList", "UserString":
				return c.Name()
			}
		}
		if !c.IsBuiltin() {
			if _, ok := c.Dict().GetStr("__repr__"); ok {
				if c.Name() == "SimpleNamespace" && c.Module() == "types" {
					return "namespace"
				}
				return ""
			}
			continue
		}
		switch {
		case c == python.DictType:
			return "dict"
		case c == python.ListType:
			return "list"
		case c == python.TupleType:
			return "tuple"
		case c == python.SetType:
			return "set"
		case c == python.FrozenSetType:
			return "frozenset"
		case c == python.StrType:
			return "str"
		case c == python.BytesType:
			return "bytes"
		case c == python.ByteArrayType:
			return "bytearray"
		case c == python.MappingProxyType, c.Name() == "mappingproxy":
			return "mappingproxy"
		case c.Module() == "collections":
			return ""
		case c == python.ObjectType:
			return ""
		}
		return ""
	}
	return ""
}

func (p *printer) dispatch(kind string, x python.Object, b *sink, indent, allowance int, ctx context, level int) error {
	t := p.t
	switch kind {
	case "dict":
		return p.pprintDict(x, b, indent, allowance, ctx, level)
	case "list":
		items, err := python.ToSlice(t, x)
		if err != nil {
			return err
		}
		b.put('[')
		if err := p.formatItems(items, b, indent, allowance+1, ctx, level); err != nil {
			return err
		}
		b.put(']')
	case "tuple":
		items, err := python.ToSlice(t, x)
		if err != nil {
			return err
		}
		end := ")"
		if len(items) == 1 {
			end = ",)"
		}
		b.put('(')
		if err := p.formatItems(items, b, indent, allowance+len(end), ctx, level); err != nil {
			return err
		}
		b.WriteString(end)
	case "set", "frozenset":
		items, err := python.ToSlice(t, x)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			r, err := python.Repr(t, x)
			if err != nil {
				return err
			}
			b.WriteString(r)
			return nil
		}
		end := "}"
		if x.Type() == python.SetType {
			b.put('{')
		} else {
			name := x.Type().Name()
			b.WriteString(name + "({")
			end = "})"
			indent += runes(name) + 1
		}
		if err := p.sortSafe(items); err != nil {
			return err
		}
		if err := p.formatItems(items, b, indent, allowance+len(end), ctx, level); err != nil {
			return err
		}
		b.WriteString(end)
	case "str":
		s, err := python.StrOf(t, x)
		if err != nil {
			return err
		}
		return p.pprintStr(s, b, indent, allowance, level)
	case "bytes":
		return p.pprintBytes(bytesOf(x), b, indent, allowance, level)
	case "bytearray":
		b.WriteString("bytearray(")
		if err := p.pprintBytes(bytesOf(x), b, indent+10, allowance+1, level+1); err != nil {
			return err
		}
		b.put(')')
	case "namespace":
		name := x.Type().Name()
		if name == "SimpleNamespace" && x.Type().Module() == "types" {
			name = "namespace"
		}
		indent += runes(name) + 1
		var items []pair
		if inst, ok := x.(*python.Instance); ok {
			inst.Attrs().Items(func(k, v python.Object) bool {
				items = append(items, pair{k, v})
				return true
			})
		}
		b.WriteString(name + "(")
		if err := p.formatNamespaceItems(items, b, indent, allowance, ctx, level); err != nil {
			return err
		}
		b.put(')')
	case "mappingproxy":
		c, err := python.CallMethod(t, x, "copy", nil, nil)
		if err != nil {
			return err
		}
		b.WriteString("mappingproxy(")
		if err := p.format(c, b, indent+13, allowance+1, ctx, level); err != nil {
			return err
		}
		b.put(')')
	default:
		return p.collection(kind, x, b, indent, allowance, ctx, level)
	}
	return nil
}

func bytesOf(x python.Object) string {
	switch v := python.Unwrap(x).(type) {
	case *python.Bytes:
		return v.String()
	case *python.ByteArray:
		r, err := python.Call(nil, python.BytesType, []python.Object{v}, nil)
		if err == nil {
			if bb, ok := r.(*python.Bytes); ok {
				return bb.String()
			}
		}
	}
	return ""
}

// less orders two objects as pprint's _safe_key: with <, or when they do
// not compare, by type name and id.
func (p *printer) less(a, b python.Object) (bool, error) {
	lt, err := python.Less(p.t, a, b)
	if err == nil {
		return lt, nil
	}
	if !python.IsInstance(err, python.TypeErrorType) {
		return false, err
	}
	ta, tb := typeStr(a), typeStr(b)
	if ta != tb {
		return ta < tb, nil
	}
	idf, _ := p.t.Interp().Builtins().GetStr("id")
	ia, err := python.Call(p.t, idf, []python.Object{a}, nil)
	if err != nil {
		return false, err
	}
	ib, err := python.Call(p.t, idf, []python.Object{b}, nil)
	if err != nil {
		return false, err
	}
	na, _ := python.AsInt64(ia)
	nb, _ := python.AsInt64(ib)
	return na < nb, nil
}

func typeStr(x python.Object) string {
	c := x.Type()
	if c.Module() == "builtins" || c.Module() == "" {
		return "<class '" + c.Qualname() + "'>"
	}
	return "<class '" + c.Module() + "." + c.Qualname() + "'>"
}

func (p *printer) sortSafe(items []python.Object) error {
	var err error
	sort.SliceStable(items, func(i, j int) bool {
		if err != nil {
			return false
		}
		lt, e := p.less(items[i], items[j])
		if e != nil {
			err = e
		}
		return lt
	})
	return err
}

// pair is a dict item.
type pair struct{ k, v python.Object }

// sortPairs sorts dict items by key (_safe_tuple: the keys' _safe_key
// objects never compare equal, so values are never compared).
func (p *printer) sortPairs(items []pair) error {
	var err error
	sort.SliceStable(items, func(i, j int) bool {
		if err != nil {
			return false
		}
		lt, e := p.less(items[i].k, items[j].k)
		if e != nil {
			err = e
		}
		return lt
	})
	return err
}

// dictItems returns a mapping's items.
func dictItems(t *python.Thread, x python.Object) ([]pair, error) {
	if d, ok := python.Unwrap(x).(*python.Dict); ok {
		var out []pair
		d.Items(func(k, v python.Object) bool {
			out = append(out, pair{k, v})
			return true
		})
		return out, nil
	}
	it, err := python.CallMethod(t, x, "items", nil, nil)
	if err != nil {
		return nil, err
	}
	var out []pair
	err = python.Iterate(t, it, func(kv python.Object) error {
		s, err := python.ToSlice(t, kv)
		if err != nil {
			return err
		}
		if len(s) == 2 {
			out = append(out, pair{s[0], s[1]})
		}
		return nil
	})
	return out, err
}

func (p *printer) pprintDict(x python.Object, b *sink, indent, allowance int, ctx context, level int) error {
	b.put('{')
	if p.indent > 1 {
		b.WriteString(strings.Repeat(" ", p.indent-1))
	}
	items, err := dictItems(p.t, x)
	if err != nil {
		return err
	}
	if len(items) > 0 {
		if p.sortDicts {
			if err := p.sortPairs(items); err != nil {
				return err
			}
		}
		if err := p.formatDictItems(items, b, indent, allowance+1, ctx, level); err != nil {
			return err
		}
	}
	b.put('}')
	return nil
}

func (p *printer) formatDictItems(items []pair, b *sink, indent, allowance int, ctx context, level int) error {
	indent += p.indent
	delim := ",\n" + strings.Repeat(" ", indent)
	for i, it := range items {
		last := i == len(items)-1
		rep, err := p.repr(it.k, ctx, level)
		if err != nil {
			return err
		}
		b.WriteString(rep)
		b.WriteString(": ")
		a := 1
		if last {
			a = allowance
		}
		if err := p.format(it.v, b, indent+runes(rep)+2, a, ctx, level); err != nil {
			return err
		}
		if !last {
			b.WriteString(delim)
		}
	}
	return nil
}

// formatItems is PrettyPrinter._format_items.
func (p *printer) formatItems(items []python.Object, b *sink, indent, allowance int, ctx context, level int) error {
	indent += p.indent
	if p.indent > 1 {
		b.WriteString(strings.Repeat(" ", p.indent-1))
	}
	delimnl := ",\n" + strings.Repeat(" ", indent)
	delim := ""
	width := p.width - indent + 1
	maxWidth := width
	for i, ent := range items {
		last := i == len(items)-1
		if last {
			maxWidth -= allowance
			width -= allowance
		}
		if p.compact {
			rep, err := p.repr(ent, ctx, level)
			if err != nil {
				return err
			}
			w := runes(rep) + 2
			if width < w {
				width = maxWidth
				if delim != "" {
					delim = delimnl
				}
			}
			if width >= w {
				width -= w
				b.WriteString(delim)
				delim = ", "
				b.WriteString(rep)
				continue
			}
		}
		b.WriteString(delim)
		delim = delimnl
		a := 1
		if last {
			a = allowance
		}
		if err := p.format(ent, b, indent, a, ctx, level); err != nil {
			return err
		}
	}
	return nil
}

// splitWords is re.findall(r'\S*\s*', line) without its final empty
// match.
func splitWords(line string) []string {
	var parts []string
	i := 0
	for i < len(line) {
		j := i
		for j < len(line) {
			r, w := utf8.DecodeRuneInString(line[j:])
			if unicode.IsSpace(r) || isPySpace(r) {
				break
			}
			j += w
		}
		for j < len(line) {
			r, w := utf8.DecodeRuneInString(line[j:])
			if !(unicode.IsSpace(r) || isPySpace(r)) {
				break
			}
			j += w
		}
		parts = append(parts, line[i:j])
		i = j
	}
	return parts
}

// isPySpace covers the separators Python's \s matches that Go's
// unicode.IsSpace does not.
func isPySpace(r rune) bool {
	return r == 0x1c || r == 0x1d || r == 0x1e || r == 0x1f
}

func (p *printer) pprintStr(s string, b *sink, indent, allowance, level int) error {
	t := p.t
	if s == "" {
		b.WriteString(python.StrRepr(s))
		return nil
	}
	lo, err := python.CallMethod(t, python.NewStr(s), "splitlines", []python.Object{python.True}, nil)
	if err != nil {
		return err
	}
	lineObjs, err := python.ToSlice(t, lo)
	if err != nil {
		return err
	}
	if level == 1 {
		indent++
		allowance++
	}
	maxWidth1 := p.width - indent
	maxWidth := maxWidth1
	var chunks []string
	var rep string
	for i, lobj := range lineObjs {
		line := python.StrValue(lobj)
		rep = python.StrRepr(line)
		if i == len(lineObjs)-1 {
			maxWidth1 -= allowance
		}
		if runes(rep) <= maxWidth1 {
			chunks = append(chunks, rep)
			continue
		}
		parts := splitWords(line)
		maxWidth2 := maxWidth
		current := ""
		for j, part := range parts {
			candidate := current + part
			if j == len(parts)-1 && i == len(lineObjs)-1 {
				maxWidth2 -= allowance
			}
			if runes(python.StrRepr(candidate)) > maxWidth2 {
				if current != "" {
					chunks = append(chunks, python.StrRepr(current))
				}
				current = part
			} else {
				current = candidate
			}
		}
		if current != "" {
			chunks = append(chunks, python.StrRepr(current))
		}
		if err := p.tick(); err != nil {
			return err
		}
	}
	if len(chunks) == 1 {
		b.WriteString(rep)
		return nil
	}
	if level == 1 {
		b.put('(')
	}
	for i, c := range chunks {
		if i > 0 {
			b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		b.WriteString(c)
	}
	if level == 1 {
		b.put(')')
	}
	return nil
}

func (p *printer) pprintBytes(s string, b *sink, indent, allowance, level int) error {
	if len(s) <= 4 {
		b.WriteString(python.BytesRepr(s))
		return nil
	}
	parens := level == 1
	if parens {
		indent++
		allowance++
		b.put('(')
	}
	delim := ""
	width := p.width - indent
	current := ""
	last := len(s) / 4 * 4
	emit := func(r string) {
		b.WriteString(delim)
		b.WriteString(r)
		if delim == "" {
			delim = "\n" + strings.Repeat(" ", indent)
		}
	}
	for i := 0; i < len(s); i += 4 {
		part := s[i:min(i+4, len(s))]
		candidate := current + part
		if i == last {
			width -= allowance
		}
		if len(python.BytesRepr(candidate)) > width {
			if current != "" {
				emit(python.BytesRepr(current))
			}
			current = part
		} else {
			current = candidate
		}
	}
	if current != "" {
		emit(python.BytesRepr(current))
	}
	if parens {
		b.put(')')
	}
	return nil
}

// collection prints the collections types.
func (p *printer) collection(kind string, x python.Object, b *sink, indent, allowance int, ctx context, level int) error {
	t := p.t
	n, err := python.Len(t, x)
	if err != nil {
		return err
	}
	name := x.Type().Name()
	writeRepr := func() error {
		r, err := python.Repr(t, x)
		b.WriteString(r)
		return err
	}
	switch kind {
	case "OrderedDict":
		if n == 0 {
			return writeRepr()
		}
		items, err := dictItems(t, x)
		if err != nil {
			return err
		}
		tuples := make([]python.Object, len(items))
		for i, it := range items {
			tuples[i] = python.NewTuple([]python.Object{it.k, it.v})
		}
		b.WriteString(name + "(")
		if err := p.format(python.NewList(tuples), b, indent+runes(name)+1, allowance+1, ctx, level); err != nil {
			return err
		}
		b.put(')')
	case "defaultdict":
		if n == 0 {
			return writeRepr()
		}
		df, err := python.GetAttr(t, x, "default_factory")
		if err != nil {
			return err
		}
		rdf, err := p.repr(df, ctx, level)
		if err != nil {
			return err
		}
		indent += runes(name) + 1
		b.WriteString(name + "(" + rdf + ",\n" + strings.Repeat(" ", indent))
		if err := p.pprintDict(x, b, indent, allowance+1, ctx, level); err != nil {
			return err
		}
		b.put(')')
	case "Counter":
		if n == 0 {
			return writeRepr()
		}
		b.WriteString(name + "({")
		if p.indent > 1 {
			b.WriteString(strings.Repeat(" ", p.indent-1))
		}
		mc, err := python.CallMethod(t, x, "most_common", nil, nil)
		if err != nil {
			return err
		}
		var items []pair
		if err := python.Iterate(t, mc, func(kv python.Object) error {
			s, err := python.ToSlice(t, kv)
			if err == nil && len(s) == 2 {
				items = append(items, pair{s[0], s[1]})
			}
			return err
		}); err != nil {
			return err
		}
		if err := p.formatDictItems(items, b, indent+runes(name)+1, allowance+2, ctx, level); err != nil {
			return err
		}
		b.WriteString("})")
	case "ChainMap":
		mapsObj, err := python.GetAttr(t, x, "maps")
		if err != nil {
			return err
		}
		maps, err := python.ToSlice(t, mapsObj)
		if err != nil {
			return err
		}
		if len(maps) == 0 {
			return writeRepr()
		}
		if len(maps) == 1 {
			if l, err := python.Len(t, maps[0]); err != nil || l == 0 {
				if err != nil {
					return err
				}
				return writeRepr()
			}
		}
		b.WriteString(name + "(")
		indent += runes(name) + 1
		for i, m := range maps {
			if i == len(maps)-1 {
				if err := p.format(m, b, indent, allowance+1, ctx, level); err != nil {
					return err
				}
				b.put(')')
			} else {
				if err := p.format(m, b, indent, 1, ctx, level); err != nil {
					return err
				}
				b.WriteString(",\n" + strings.Repeat(" ", indent))
			}
		}
	case "deque":
		if n == 0 {
			return writeRepr()
		}
		items, err := python.ToSlice(t, x)
		if err != nil {
			return err
		}
		b.WriteString(name + "(")
		indent += runes(name) + 1
		b.put('[')
		ml, err := python.GetAttr(t, x, "maxlen")
		if err != nil {
			return err
		}
		if ml == python.None {
			if err := p.formatItems(items, b, indent, allowance+2, ctx, level); err != nil {
				return err
			}
			b.WriteString("])")
		} else {
			if err := p.formatItems(items, b, indent, 2, ctx, level); err != nil {
				return err
			}
			rml, err := p.repr(ml, ctx, level)
			if err != nil {
				return err
			}
			b.WriteString("],\n" + strings.Repeat(" ", indent) + "maxlen=" + rml + ")")
		}
	case "UserDict", "UserList", "UserString":
		data, err := python.GetAttr(t, x, "data")
		if err != nil {
			return err
		}
		return p.format(data, b, indent, allowance, ctx, level-1)
	}
	return nil
}

// isDataclass reports a dataclass instance whose repr the dataclass
// decorator made.
func (p *printer) isDataclass(x python.Object) (bool, error) {
	if _, ok := x.(*python.Type); ok {
		return false, nil
	}
	if _, ok := x.Type().Lookup("__dataclass_fields__"); !ok {
		return false, nil
	}
	params, ok := x.Type().Lookup("__dataclass_params__")
	if !ok {
		return false, nil
	}
	r, err := python.GetAttr(p.t, params, "repr")
	if err != nil || r != python.True {
		return false, nil
	}
	for _, c := range x.Type().MRO() {
		if v, ok := c.Dict().GetStr("__repr__"); ok {
			_, generated := v.(*python.Builtin)
			return generated, nil
		}
	}
	return false, nil
}

// dataclass prints Name(field=value, ...).
func (p *printer) dataclass(x python.Object, b *sink, indent, allowance int, ctx context, level int) error {
	t := p.t
	dc, err := t.Interp().Import(t, "dataclasses")
	if err != nil {
		return err
	}
	fs, err := python.CallMethod(t, dc, "fields", []python.Object{x}, nil)
	if err != nil {
		return err
	}
	var items []pair
	err = python.Iterate(t, fs, func(f python.Object) error {
		r, err := python.GetAttr(t, f, "repr")
		if err != nil {
			return err
		}
		if ok, err := python.TruthE(t, r); err != nil || !ok {
			return err
		}
		n, err := python.GetAttr(t, f, "name")
		if err != nil {
			return err
		}
		v, err := python.GetAttr(t, x, python.StrValue(n))
		if err != nil {
			return err
		}
		items = append(items, pair{n, v})
		return nil
	})
	if err != nil {
		return err
	}
	name := x.Type().Name()
	indent += runes(name) + 1
	b.WriteString(name + "(")
	if err := p.formatNamespaceItems(items, b, indent, allowance, ctx, level); err != nil {
		return err
	}
	b.put(')')
	return nil
}

func (p *printer) formatNamespaceItems(items []pair, b *sink, indent, allowance int, ctx context, level int) error {
	delim := ",\n" + strings.Repeat(" ", indent)
	for i, it := range items {
		last := i == len(items)-1
		key := python.StrValue(it.k)
		b.WriteString(key + "=")
		if ctx.has(it.v) {
			b.WriteString("...")
		} else {
			a := 1
			if last {
				a = allowance
			}
			if err := p.format(it.v, b, indent+runes(key)+1, a, ctx, level); err != nil {
				return err
			}
		}
		if !last {
			b.WriteString(delim)
		}
	}
	return nil
}

// safeRepr is PrettyPrinter._safe_repr: the repr, whether it is readable
// and whether it is recursive, dicts, lists and tuples rendered here (with
// sorted dict keys and the depth limit), the rest by repr().
func (p *printer) safeRepr(x python.Object, ctx context, maxLevels, level int) (string, bool, bool, error) {
	t := p.t
	if err := p.tick(); err != nil {
		return "", false, false, err
	}
	if level > t.Interp().Config().MaxDepth {
		return "", false, false, python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded while getting the repr of an object")
	}
	switch x.(type) {
	case *python.Str, *python.Bytes, *python.ByteArray, python.Float, python.Complex, python.Bool, python.NoneType:
		r, err := python.Repr(t, x)
		return r, true, false, err
	}
	kind := kindOf(x)
	if iv, ok := python.IntValue(x); ok && intRepr(x) {
		if p.underscore {
			s, err := python.Format(t, iv, "_d")
			return s, true, false, err
		}
		r, err := python.Repr(t, x)
		return r, true, false, err
	}
	switch kind {
	case "dict":
		items, err := dictItems(t, x)
		if err != nil {
			return "", false, false, err
		}
		if len(items) == 0 {
			return "{}", true, false, nil
		}
		if maxLevels > 0 && level >= maxLevels {
			return "{...}", false, ctx.has(x), nil
		}
		if ctx.has(x) {
			r, err := p.recursion(x)
			return r, false, true, err
		}
		ctx = append(ctx, x)
		readable, recursive := true, false
		if p.sortDicts {
			if err := p.sortPairs(items); err != nil {
				return "", false, false, err
			}
		}
		parts := make([]string, 0, len(items))
		for _, it := range items {
			kr, kread, krec, err := p.safeRepr(it.k, ctx, maxLevels, level+1)
			if err != nil {
				return "", false, false, err
			}
			vr, vread, vrec, err := p.safeRepr(it.v, ctx, maxLevels, level+1)
			if err != nil {
				return "", false, false, err
			}
			parts = append(parts, kr+": "+vr)
			readable = readable && kread && vread
			if krec || vrec {
				recursive = true
			}
		}
		return "{" + strings.Join(parts, ", ") + "}", readable, recursive, nil
	case "list", "tuple":
		items, err := python.ToSlice(t, x)
		if err != nil {
			return "", false, false, err
		}
		open, close := "[", "]"
		if kind == "tuple" {
			open, close = "(", ")"
			if len(items) == 1 {
				close = ",)"
			}
		}
		if len(items) == 0 {
			return open + close, true, false, nil
		}
		if maxLevels > 0 && level >= maxLevels {
			return open + "..." + close, false, ctx.has(x), nil
		}
		if ctx.has(x) {
			r, err := p.recursion(x)
			return r, false, true, err
		}
		ctx = append(ctx, x)
		readable, recursive := true, false
		parts := make([]string, len(items))
		for i, it := range items {
			r, read, rec, err := p.safeRepr(it, ctx, maxLevels, level+1)
			if err != nil {
				return "", false, false, err
			}
			parts[i] = r
			if !read {
				readable = false
			}
			if rec {
				recursive = true
			}
		}
		return open + strings.Join(parts, ", ") + close, readable, recursive, nil
	}
	r, err := python.Repr(t, x)
	if err != nil {
		return "", false, false, err
	}
	return r, r != "" && !strings.HasPrefix(r, "<"), false, nil
}

// intRepr reports an int (or a subclass keeping int's repr).
func intRepr(x python.Object) bool {
	switch x.(type) {
	case python.Int, *python.BigInt:
		return true
	case python.Bool:
		return false
	}
	for _, c := range x.Type().MRO() {
		if !c.IsBuiltin() {
			if _, ok := c.Dict().GetStr("__repr__"); ok {
				return false
			}
			continue
		}
		return c == python.IntType
	}
	return false
}

// printerObj is a PrettyPrinter.
type printerObj struct {
	p *printer
}

// Type returns pprint.PrettyPrinter.
func (o *printerObj) Type() *python.Type { return printerType }

func initPrinter() {
	printerType = python.NewBuiltinType("PrettyPrinter", "pprint", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := bindArgs("PrettyPrinter.__init__", []string{"indent", "width", "depth", "stream"}, 0, []string{"compact", "sort_dicts", "underscore_numbers"}, args, kwargs)
		if err != nil {
			return nil, err
		}
		p, err := newPrinter(t, v)
		if err != nil {
			return nil, err
		}
		return &printerObj{p: p}, nil
	})
	self := func(t *python.Thread, args []python.Object) *printer {
		p := *args[0].(*printerObj).p
		p.t = t
		return &p
	}
	one := func(name string, args []python.Object, kwargs []python.Kwarg) error {
		if len(kwargs) > 0 {
			return python.Errorf(python.TypeErrorType, "PrettyPrinter.%s() got an unexpected keyword argument '%s'", name, kwargs[0].Name)
		}
		if len(args) != 2 {
			return python.Errorf(python.TypeErrorType, "PrettyPrinter.%s() takes 2 positional arguments but %d were given", name, len(args))
		}
		return nil
	}
	printerType.AddMethod("pformat", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := one("pformat", args, kwargs); err != nil {
			return nil, err
		}
		s, err := self(t, args).pformat(args[1])
		return python.NewStr(s), err
	})
	printerType.AddMethod("pprint", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := one("pprint", args, kwargs); err != nil {
			return nil, err
		}
		return python.None, self(t, args).pprint(args[1])
	})
	for _, name := range []string{"isreadable", "isrecursive"} {
		name := name
		printerType.AddMethod(name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if err := one(name, args, kwargs); err != nil {
				return nil, err
			}
			p := self(t, args)
			_, readable, recursive, err := p.safeRepr(args[1], nil, p.depth, 0)
			if name == "isreadable" {
				return python.MakeBool(readable), err
			}
			return python.MakeBool(recursive), err
		})
	}
	printerType.AddMethod("format", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 5 {
			return nil, python.Errorf(python.TypeErrorType, "PrettyPrinter.format() takes 5 positional arguments but %d were given", len(args))
		}
		p := self(t, args)
		maxLevels, _ := python.AsInt64(args[3])
		level, _ := python.AsInt64(args[4])
		r, readable, recursive, err := p.safeRepr(args[1], nil, int(maxLevels), int(level))
		if err != nil {
			return nil, err
		}
		return python.NewTuple([]python.Object{python.NewStr(r), python.MakeBool(readable), python.MakeBool(recursive)}), nil
	})
}
