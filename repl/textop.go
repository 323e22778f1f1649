package repl

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// TextOps answers operations on Texts with the embedded interpreter's str
// semantics (code points, Python's method behaviour), for another
// interpreter that shows a Text as a proxy object (repl/pyodide). It is
// safe for concurrent use.
type TextOps struct {
	mu  sync.Mutex
	it  *Interp
	obj map[Text]python.Object
}

// NewTextOps returns an empty TextOps.
func NewTextOps() *TextOps {
	it := &Interp{cfg: Config{}.withDefaults(), host: map[string]bool{}}
	it.py = python.New(python.Config{MaxDepth: it.cfg.MaxRecursion, MaxValueBytes: it.cfg.MaxValueBytes})
	return &TextOps{it: it, obj: map[Text]python.Object{}}
}

// object returns the str object of t: one per comparable Text, so that
// its index of code points is built once; a Text of a type that cannot be
// compared (a struct holding a slice) gets a fresh object each time.
func (o *TextOps) object(t Text) python.Object {
	comparable := reflect.TypeOf(t).Comparable()
	if comparable {
		if v, ok := o.obj[t]; ok {
			return v
		}
	}
	v := python.NewHostStr(&textAdapter{t: t, it: o.it})
	if comparable {
		o.obj[t] = v
	}
	return v
}

// Do runs op on t: "len", "index" (args: i), "slice" (start, stop, step,
// Python's slice semantics), "contains" (s), "str" (the whole text),
// "iter" (the code points, as a list), "call" (a str or host method: name,
// then its arguments). Results are Go values as Builtin results are
// (sub-contexts as Texts).
func (o *TextOps) Do(ctx context.Context, t Text, op string, args []any, kwargs []KV) (any, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	th := python.NewThread(ctx, o.it.py, DefaultMaxCellSteps, func(string) {})
	self := o.object(t)
	pyArgs := make([]python.Object, len(args))
	for i, a := range args {
		v, err := o.it.fromGo(a, 0)
		if err != nil {
			return nil, err
		}
		pyArgs[i] = v
	}
	var r python.Object
	var err error
	switch op {
	case "len":
		var n int
		n, err = python.Len(th, self)
		r = python.MakeInt(int64(n))
	case "index":
		if len(pyArgs) != 1 {
			return nil, fmt.Errorf("index needs one argument")
		}
		r, err = python.GetItem(th, self, pyArgs[0])
	case "slice":
		if len(pyArgs) != 3 {
			return nil, fmt.Errorf("slice needs start, stop and step")
		}
		r, err = python.GetItem(th, self, python.NewSliceObject(pyArgs[0], pyArgs[1], pyArgs[2]))
	case "contains":
		if len(pyArgs) != 1 {
			return nil, fmt.Errorf("contains needs one argument")
		}
		var b bool
		b, err = python.Contains(th, self, pyArgs[0])
		r = python.MakeBool(b)
	case "str":
		var s string
		s, err = python.StrOf(th, self)
		r = python.NewStr(s)
	case "iter":
		var items []python.Object
		items, err = python.ToSlice(th, self)
		r = python.NewList(items)
	case "call":
		if len(args) < 1 {
			return nil, fmt.Errorf("call needs a method name")
		}
		name, _ := args[0].(string)
		kw := make([]python.Kwarg, len(kwargs))
		for i, kv := range kwargs {
			v, err := o.it.fromGo(kv.Value, 0)
			if err != nil {
				return nil, err
			}
			kw[i] = python.Kwarg{Name: kv.Key, Value: v}
		}
		r, err = python.CallMethod(th, self, name, pyArgs[1:], kw)
	default:
		return nil, fmt.Errorf("unknown text operation %q", op)
	}
	if err != nil {
		return nil, asGoError(err)
	}
	return toGoResult(r)
}

// asGoError turns what the interpreter raised into the error a Builtin
// returns: a run-ending stop stays fatal, a Python exception keeps its
// type.
func asGoError(err error) error {
	if stop, ok := err.(*python.StopError); ok {
		if stop.Kind == "fatal" && stop.Err != nil {
			return Fatal(stop.Err)
		}
		return Fatal(stop)
	}
	if e, ok := python.AsException(err); ok {
		return Raise(e.TypeName(), "%s", e.Message())
	}
	return err
}

// toGoResult converts a result for a Builtin's caller: plain data, with
// contexts as their Texts.
func toGoResult(v python.Object) (any, error) {
	if h, ok := python.HostTextOf(v); ok {
		if a, ok := h.(*textAdapter); ok {
			return a.t, nil
		}
	}
	switch x := v.(type) {
	case *python.Instance:
		if l, ok := x.Base().(*python.List); ok {
			items, err := toGoResult(l)
			if err != nil {
				return nil, err
			}
			res := &List{Class: x.Type().Name(), Items: items.([]any)}
			var aerr error
			x.Attrs().Items(func(k, val python.Object) bool {
				var g any
				if g, aerr = toGoResult(val); aerr != nil {
					return false
				}
				res.Attrs = append(res.Attrs, KV{Key: python.StrValue(k), Value: g})
				return true
			})
			return res, aerr
		}
	case *python.List:
		out := make([]any, len(x.Items()))
		for i, e := range x.Items() {
			g, err := toGoResult(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case *python.Dict:
		var out Dict
		var err error
		x.Items(func(k, val python.Object) bool {
			var g any
			if g, err = toGoResult(val); err != nil {
				return false
			}
			out = append(out, KV{Key: python.StrValue(k), Value: g})
			return true
		})
		return out, err
	}
	return ToGo(v)
}
