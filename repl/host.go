package repl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl/internal/python"
)

// Builtin is a host function the model's code can call. Arguments arrive
// as Go values (see Call); the result is converted back (see FromGo).
type Builtin func(c *Call) (any, error)

// Call is one call of a host Builtin.
type Call struct {
	// Ctx is the running cell's context: done when the cell is stopped
	// (its wall time, its memory bound) or the run ends. A builtin that
	// blocks must watch it.
	Ctx context.Context
	// Name is the builtin's name.
	Name string
	// Args are the positional arguments and Kwargs the keyword ones, as
	// plain Go values (nil, bool, int64, *big.Int, float64, string, []any,
	// map[string]any) or a Text for a context value.
	Args   []any
	Kwargs []KV
	// Print writes to the cell's stdout.
	Print func(s string)
	// Self is the Text a method was called on (TextMethods), or nil.
	Self Text

	t    *python.Thread
	self python.Object
}

// CodePoints converts byte offsets into Self to code-point offsets (the
// offsets Python code indexes the text with), in place; they must be
// non-decreasing.
func (c *Call) CodePoints(offs []int64) error {
	if c.self == nil {
		return fmt.Errorf("CodePoints: not a method call on a text")
	}
	return python.CodePoints(c.t, c.self, offs)
}

// Kwarg returns a keyword argument's value.
func (c *Call) Kwarg(name string) (any, bool) {
	for _, kv := range c.Kwargs {
		if kv.Key == name {
			return kv.Value, true
		}
	}
	return nil, false
}

// KV is one key and value: a keyword argument or an item of a Dict.
type KV struct {
	Key   string
	Value any
}

// Dict is a Python dict with str keys in a given order (a Go map has none).
type Dict []KV

// List is a Python list with attributes: a search's hits carry
// .truncated and .total, say.
type List struct {
	Class string // the class name Python shows (a subclass of list)
	Items []any
	Attrs []KV
}

// Text is a host-owned text that code sees as a str: every str operation
// and re function works on it with code-point semantics, without copying
// more than the operation's result. See python.HostText.
type Text interface {
	// Size is the text's length in bytes (UTF-8).
	Size() int64
	// View admits one operation of the given kind ("slice", "search",
	// "regex", "text", "iterate"; "index" is the interpreter's own scan
	// counting code points, once per text, not an operation of the
	// model's) and runs f over the text's bytes; f must not keep them.
	View(ctx context.Context, op string, f func(b []byte) error) error
	// Name names the text in messages ("context", "context_1").
	Name() string
}

// TextMethods lets a Text add methods of its own (search, partition, ...).
// A method name must not be one of str's.
type TextMethods interface {
	Methods() map[string]Builtin
}

// TextAttrs lets a Text add attributes of its own (context.pages): each
// is a Builtin called with no arguments when the attribute is read, its
// result converted as a call's is. An attribute hides a str method of the
// same name.
type TextAttrs interface {
	Attrs() map[string]Builtin
}

// fromHost converts a predeclared host value.
func (it *Interp) fromHost(name string, v any) (python.Object, error) {
	if b, ok := v.(Builtin); ok {
		return it.builtin(name, b), nil
	}
	if b, ok := v.(func(*Call) (any, error)); ok {
		return it.builtin(name, b), nil
	}
	return it.fromGo(v, 0)
}

func (it *Interp) builtin(name string, b Builtin) python.Object {
	return python.NewBuiltin(name, it.builtinFunc(name, b, nil, nil))
}

func (it *Interp) builtinFunc(name string, b Builtin, selfText Text, self python.Object) python.BuiltinFunc {
	return func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		c := &Call{Ctx: t.Context(), Name: name, Self: selfText, t: t, self: self, Print: func(s string) {
			if !strings.HasSuffix(s, "\n") {
				s += "\n"
			}
			t.Print(s)
		}}
		for i, a := range args {
			g, err := toGoArg(a)
			if err != nil {
				return nil, python.Errorf(python.TypeErrorType, "%s(): argument %d: %v", name, i+1, err)
			}
			c.Args = append(c.Args, g)
		}
		for _, kw := range kwargs {
			g, err := toGoArg(kw.Value)
			if err != nil {
				return nil, python.Errorf(python.TypeErrorType, "%s(): argument %s: %v", name, kw.Name, err)
			}
			c.Kwargs = append(c.Kwargs, KV{kw.Name, g})
		}
		r, err := b(c)
		if err != nil {
			return nil, hostError(err)
		}
		return it.fromGo(r, 0)
	}
}

// hostError turns a host builtin's error into what the cell sees.
func hostError(err error) error {
	if IsFatal(err) {
		var fe *fatalError
		errors.As(err, &fe)
		return &python.StopError{Kind: "fatal", Err: fe.err}
	}
	var r *raised
	if errors.As(err, &r) {
		return python.Errorf(exceptionClass(r.typ), "%s", r.msg)
	}
	if e, ok := python.AsException(err); ok {
		return e
	}
	var stop *python.StopError
	if errors.As(err, &stop) {
		return stop
	}
	var fe *fault.Error
	if errors.As(err, &fe) && (fe.Kind == fault.KindCancelled || fe.Kind == fault.KindTimeout) {
		return &python.StopError{Kind: "cancelled", Err: err}
	}
	return python.Errorf(python.RuntimeErrorType, "%s", err.Error())
}

func exceptionClass(name string) *python.Type {
	if c, ok := exceptionClasses()[name]; ok {
		return c
	}
	return python.RuntimeErrorType
}

func exceptionClasses() map[string]*python.Type {
	return map[string]*python.Type{
		"ValueError": python.ValueErrorType, "TypeError": python.TypeErrorType,
		"KeyError": python.KeyErrorType, "IndexError": python.IndexErrorType,
		"RuntimeError": python.RuntimeErrorType, "MemoryError": python.MemoryErrorType,
		"NotImplementedError": python.NotImplementedErrorType, "TimeoutError": python.TimeoutErrorType,
		"PermissionError": python.PermissionErrorType, "OSError": python.OSErrorType,
		"LookupError": python.LookupErrorType, "AttributeError": python.AttributeErrorType,
		"OverflowError": python.OverflowErrorType, "ZeroDivisionError": python.ZeroDivisionErrorType,
		"Exception": python.ExceptionType, "ConnectionError": python.ConnectionErrorType,
	}
}

// toGoArg converts an argument of a host call: plain data, in which a
// context is its Text.
func toGoArg(v python.Object) (any, error) { return toGoDepth(v, 0, true) }

const maxConvertDepth = 100

// FromGo converts plain Go data to a Python value: nil, bool, ints
// (int, int64, *big.Int, json.Number of an integer), float64 (json.Number
// of a float), string, []any, []string, map[string]any (keys sorted),
// Dict, *List, Text.
func FromGo(v any) (python.Object, error) { return (*Interp)(nil).fromGo(v, 0) }

func (it *Interp) fromGo(v any, depth int) (python.Object, error) {
	if depth > maxConvertDepth {
		return nil, fault.New(fault.PhaseExecute, fault.KindInvalid, "value nests too deeply to convert")
	}
	switch x := v.(type) {
	case nil:
		return python.None, nil
	case python.Object:
		return x, nil
	case bool:
		return python.MakeBool(x), nil
	case int:
		return python.MakeInt(int64(x)), nil
	case int64:
		return python.MakeInt(x), nil
	case *big.Int:
		return python.MakeBigInt(new(big.Int).Set(x)), nil
	case float64:
		return python.Float(x), nil
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return python.MakeInt(n), nil
		}
		if b, ok := new(big.Int).SetString(string(x), 10); ok {
			return python.MakeBigInt(b), nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("bad number %q", string(x))
		}
		return python.Float(f), nil
	case string:
		return python.NewStr(x), nil
	case []string:
		items := make([]python.Object, len(x))
		for i, s := range x {
			items[i] = python.NewStr(s)
		}
		return python.NewList(items), nil
	case []any:
		items := make([]python.Object, len(x))
		for i, e := range x {
			o, err := it.fromGo(e, depth+1)
			if err != nil {
				return nil, err
			}
			items[i] = o
		}
		return python.NewList(items), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := python.NewDict(len(x))
		for _, k := range keys {
			o, err := it.fromGo(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			d.SetStr(k, o)
		}
		return d, nil
	case Dict:
		d := python.NewDict(len(x))
		for _, kv := range x {
			o, err := it.fromGo(kv.Value, depth+1)
			if err != nil {
				return nil, err
			}
			d.SetStr(kv.Key, o)
		}
		return d, nil
	case *List:
		items := make([]python.Object, len(x.Items))
		for i, e := range x.Items {
			o, err := it.fromGo(e, depth+1)
			if err != nil {
				return nil, err
			}
			items[i] = o
		}
		attrs := make([]python.Kwarg, len(x.Attrs))
		for i, kv := range x.Attrs {
			o, err := it.fromGo(kv.Value, depth+1)
			if err != nil {
				return nil, err
			}
			attrs[i] = python.Kwarg{Name: kv.Key, Value: o}
		}
		return python.NewAnnotatedList(x.Class, items, attrs), nil
	case Text:
		return python.NewHostStr(&textAdapter{t: x, it: it}), nil
	case Stub:
		return python.NewStub(), nil
	}
	return nil, fmt.Errorf("cannot convert %T to a Python value", v)
}

// ToGo converts a Python value to plain Go data: nil, bool, int64 (a
// larger int becomes json.Number), float64 (inf and nan become the
// strings Python prints), string, []any (lists, tuples, sets),
// map[string]any (dicts; non-string keys are rendered with str()). Other
// values are an error.
func ToGo(v python.Object) (any, error) { return toGoDepth(v, 0, false) }

// toGoDepth converts v; with texts, a context becomes its Text.
func toGoDepth(v python.Object, depth int, texts bool) (any, error) {
	if texts {
		if h, ok := python.HostTextOf(v); ok {
			if t, ok := h.(*textAdapter); ok {
				return t.t, nil
			}
		}
	}
	if depth > maxConvertDepth {
		return nil, fault.New(fault.PhaseExecute, fault.KindInvalid, "value nests too deeply to convert")
	}
	switch x := v.(type) {
	case python.NoneType:
		return nil, nil
	case python.Bool:
		return bool(x), nil
	case python.Int:
		return int64(x), nil
	case *python.BigInt:
		return json.Number(x.Big().String()), nil
	case python.Float:
		f := float64(x)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return python.FloatRepr(f), nil
		}
		return f, nil
	case *python.Str:
		return x.String(), nil
	case *python.Bytes:
		return x.String(), nil
	case *python.List:
		return toGoList(x.Items(), depth, texts)
	case *python.Tuple:
		return toGoList(x.Items(), depth, texts)
	case *python.Set:
		return toGoList(x.Elems(), depth, texts)
	case *python.Dict:
		m := make(map[string]any, x.Len())
		var err error
		x.Items(func(k, val python.Object) bool {
			ks := python.StrValue(k)
			if _, isStr := k.(*python.Str); !isStr {
				ks, err = python.StrOf(nil, k)
				if err != nil {
					return false
				}
			}
			var g any
			if g, err = toGoDepth(val, depth+1, texts); err != nil {
				return false
			}
			m[ks] = g
			return true
		})
		return m, err
	case *python.Instance:
		if b := x.Base(); b != nil {
			return toGoDepth(b, depth, texts)
		}
	}
	if h, ok := python.HostTextOf(v); ok {
		return nil, fmt.Errorf("%s is a context, not plain data: slice it or pass it where a context is expected", h.Name())
	}
	return nil, fmt.Errorf("a %s value is not plain data (None, bool, int, float, str, list, tuple, set or dict)", v.Type().Name())
}

func toGoList(items []python.Object, depth int, texts bool) ([]any, error) {
	out := make([]any, len(items))
	for i, e := range items {
		g, err := toGoDepth(e, depth+1, texts)
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

// textAdapter shows a repl.Text to the interpreter, with its methods.
type textAdapter struct {
	t  Text
	it *Interp
}

func (a *textAdapter) Size() int64  { return a.t.Size() }
func (a *textAdapter) Name() string { return a.t.Name() }
func (a *textAdapter) View(ctx context.Context, op string, f func(b []byte) error) error {
	if err := a.t.View(ctx, op, f); err != nil {
		return hostError(err)
	}
	return nil
}

func (a *textAdapter) HostMethod(name string, self python.Object) python.BuiltinFunc {
	m, ok := a.t.(TextMethods)
	if !ok || a.it == nil {
		return nil
	}
	b, ok := m.Methods()[name]
	if !ok {
		return nil
	}
	return a.it.builtinFunc(name, b, a.t, self)
}

func (a *textAdapter) HostAttr(t *python.Thread, name string, self python.Object) (python.Object, bool, error) {
	m, ok := a.t.(TextAttrs)
	if !ok || a.it == nil {
		return nil, false, nil
	}
	b, ok := m.Attrs()[name]
	if !ok {
		return nil, false, nil
	}
	v, err := a.it.builtinFunc(name, b, a.t, self)(t, nil, nil)
	return v, true, err
}

func (a *textAdapter) HostMethodNames() []string {
	m, ok := a.t.(TextMethods)
	if !ok {
		return nil
	}
	var names []string
	for n := range m.Methods() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Stub is a placeholder object for a name a scaffold provides elsewhere
// (the code corpus's stand-in for a trajectory's own tools): any call,
// attribute or item gives a Stub; it iterates as empty, has length 0 and
// is false.
type Stub struct{}
