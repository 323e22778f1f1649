package pyodide

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/repl"
)

// objKey marks a host object in the JSON that crosses the protocol: the
// Python side wraps {"__rlm_obj__": id, "type": T} in a proxy whose
// operations come back to the object table.
const objKey = "__rlm_obj__"

// Bridge exposes Starlark host values (the builtins of code mode's
// embedded interpreter) to Python, so both interpreters share one set of
// builtins with one implementation of validation, budgets and tracing.
// A callable becomes a Python function; any other value (such as the
// context object) becomes a proxy whose len, indexing, slicing, `in`,
// iteration, str and method calls are the value's own Starlark protocols.
type Bridge struct {
	mu   sync.Mutex
	objs []starlark.Value
}

// NewBridge returns an empty bridge. Each call runs on a fresh Starlark
// thread bound (repl.BindContext) to the cell's context, so a builtin that
// blocks ends when the cell is stopped.
func NewBridge() *Bridge { return &Bridge{} }

// Expose returns the Funcs and the host Python that bind values under
// their names: pass both to Start.
func (b *Bridge) Expose(values starlark.StringDict) (map[string]Func, string) {
	funcs := map[string]Func{"_rlm_obj": b.objOp}
	host := ""
	for _, name := range slices.Sorted(maps.Keys(values)) {
		v := values[name]
		if fn, ok := v.(starlark.Callable); ok {
			funcs[name] = b.callable(fn)
			continue
		}
		host += fmt.Sprintf("%s = _RlmObj(%d, %s)\n", name, b.register(v), strconv.Quote(v.Type()))
	}
	return funcs, host
}

func (b *Bridge) register(v starlark.Value) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.objs = append(b.objs, v)
	return len(b.objs) - 1
}

func (b *Bridge) obj(id any) (starlark.Value, error) {
	n, err := intArg(id)
	if err != nil {
		return nil, fmt.Errorf("bad object id")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || n >= len(b.objs) {
		return nil, fmt.Errorf("no host object %d", n)
	}
	return b.objs[n], nil
}

func (b *Bridge) callable(fn starlark.Callable) Func {
	return func(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
		return b.call(ctx, fn, args, kwargs)
	}
}

func (b *Bridge) call(ctx context.Context, fn starlark.Value, args []any, kwargs map[string]any) (any, error) {
	sargs := make(starlark.Tuple, len(args))
	for i, a := range args {
		v, err := b.fromJSON(a)
		if err != nil {
			return nil, err
		}
		sargs[i] = v
	}
	var skw []starlark.Tuple
	for _, k := range slices.Sorted(maps.Keys(kwargs)) {
		v, err := b.fromJSON(kwargs[k])
		if err != nil {
			return nil, err
		}
		skw = append(skw, starlark.Tuple{starlark.String(k), v})
	}
	thread := &starlark.Thread{Name: "pyodide"}
	repl.BindContext(thread, ctx)
	out, err := starlark.Call(thread, fn, sargs, skw)
	if err != nil {
		return nil, unwrapEval(err)
	}
	return b.toJSON(out)
}

// unwrapEval returns the error a builtin returned, without Starlark's
// call-stack wrapper, so a Fatal mark survives.
func unwrapEval(err error) error {
	if ee, ok := err.(*starlark.EvalError); ok && ee.Unwrap() != nil {
		return ee.Unwrap()
	}
	return err
}

// objOp serves the proxy's operations: _rlm_obj(id, op, ...).
func (b *Bridge) objOp(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("_rlm_obj needs an id and an operation")
	}
	v, err := b.obj(args[0])
	if err != nil {
		return nil, err
	}
	op, _ := args[1].(string)
	rest := args[2:]
	switch op {
	case "len":
		n := starlark.Len(v)
		if n < 0 {
			return nil, fmt.Errorf("object of type %s has no len()", v.Type())
		}
		return n, nil
	case "index":
		ix, ok := v.(starlark.Indexable)
		if !ok || len(rest) != 1 {
			return nil, fmt.Errorf("%s object is not subscriptable", v.Type())
		}
		i, err := intArg(rest[0])
		if err != nil {
			return nil, err
		}
		if i < 0 || i >= ix.Len() {
			return nil, fmt.Errorf("index out of range")
		}
		return b.toJSON(ix.Index(i))
	case "slice":
		sl, ok := v.(starlark.Sliceable)
		if !ok || len(rest) != 3 {
			return nil, fmt.Errorf("%s object cannot be sliced", v.Type())
		}
		var ix [3]int
		for i := range ix {
			n, err := intArg(rest[i])
			if err != nil {
				return nil, err
			}
			ix[i] = n
		}
		return b.toJSON(sl.Slice(ix[0], ix[1], ix[2]))
	case "contains":
		if len(rest) != 1 {
			return nil, fmt.Errorf("contains needs one argument")
		}
		x, err := b.fromJSON(rest[0])
		if err != nil {
			return nil, err
		}
		r, err := starlark.Binary(syntax.IN, x, v)
		if err != nil {
			return nil, unwrapEval(err)
		}
		return bool(r.Truth()), nil
	case "list":
		it := starlark.Iterate(v)
		if it == nil {
			return nil, fmt.Errorf("%s object is not iterable", v.Type())
		}
		defer it.Done()
		var out []any
		var x starlark.Value
		for it.Next(&x) {
			j, err := b.toJSON(x)
			if err != nil {
				return nil, err
			}
			out = append(out, j)
		}
		return out, nil
	case "str":
		if s, ok := v.(starlark.String); ok {
			return string(s), nil
		}
		return v.String(), nil
	case "call":
		if len(rest) < 1 {
			return nil, fmt.Errorf("call needs a method name")
		}
		name, _ := rest[0].(string)
		ha, ok := v.(starlark.HasAttrs)
		if !ok {
			return nil, fmt.Errorf("%s object has no attribute %s", v.Type(), name)
		}
		m, err := ha.Attr(name)
		if err != nil || m == nil {
			return nil, fmt.Errorf("%s object has no attribute %s", v.Type(), name)
		}
		return b.call(ctx, m, rest[1:], kwargs)
	}
	return nil, fmt.Errorf("unknown object operation %q", op)
}

func intArg(x any) (int, error) {
	switch n := x.(type) {
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return 0, fmt.Errorf("expected an integer, got %s", n)
		}
		return int(i), nil
	case float64:
		if n != math.Trunc(n) {
			return 0, fmt.Errorf("expected an integer, got %v", n)
		}
		return int(n), nil
	}
	return 0, fmt.Errorf("expected an integer, got %T", x)
}

// maxJSONDepth bounds the nesting of converted values.
const maxJSONDepth = 64

func (b *Bridge) fromJSON(x any) (starlark.Value, error) { return b.fromJSONDepth(x, 0) }

func (b *Bridge) fromJSONDepth(x any, depth int) (starlark.Value, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("value nested too deeply")
	}
	switch v := x.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(v), nil
	case string:
		return starlark.String(v), nil
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return starlark.MakeInt64(i), nil
		}
		f, err := v.Float64()
		if err != nil {
			return nil, fmt.Errorf("bad number %s", v)
		}
		return starlark.Float(f), nil
	case float64:
		return starlark.Float(v), nil
	case []any:
		out := make([]starlark.Value, len(v))
		for i, e := range v {
			sv, err := b.fromJSONDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = sv
		}
		return starlark.NewList(out), nil
	case map[string]any:
		if id, ok := v[objKey]; ok {
			return b.obj(id)
		}
		d := starlark.NewDict(len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			sv, err := b.fromJSONDepth(v[k], depth+1)
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(starlark.String(k), sv); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, fmt.Errorf("unsupported value %T", x)
}

func (b *Bridge) toJSON(v starlark.Value) (any, error) { return b.toJSONDepth(v, 0) }

func (b *Bridge) toJSONDepth(v starlark.Value, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("value nested too deeply")
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.String:
		return string(x), nil
	case starlark.Int:
		if i, ok := x.Int64(); ok {
			return i, nil
		}
		return json.Number(x.String()), nil
	case starlark.Float:
		return float64(x), nil
	case *starlark.List, starlark.Tuple:
		seq := x.(starlark.Indexable)
		out := make([]any, seq.Len())
		for i := range out {
			j, err := b.toJSONDepth(seq.Index(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = j
		}
		return out, nil
	case *starlark.Dict:
		out := make(map[string]any, x.Len())
		for _, item := range x.Items() {
			k, ok := item[0].(starlark.String)
			if !ok {
				k = starlark.String(item[0].String())
			}
			j, err := b.toJSONDepth(item[1], depth+1)
			if err != nil {
				return nil, err
			}
			out[string(k)] = j
		}
		return out, nil
	}
	return map[string]any{objKey: b.register(v), "type": v.Type()}, nil
}
