package pyodide

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/rlm-go/rlm/repl"
)

// objKey marks a host object in the JSON that crosses the protocol: the
// Python side wraps {"__rlm_obj__": id, "type": T} in a proxy whose
// operations come back to the object table.
const objKey = "__rlm_obj__"

// listKey marks a list with attributes (a search's hits with .truncated
// and .total): {"__rlm_list__": items, "class": name, "attrs": {...}}.
const listKey = "__rlm_list__"

// Bridge exposes code mode's host values (repl.Builtin functions, repl.Text
// contexts, plain data) to Python in Pyodide, so both interpreters share
// one set of builtins with one implementation of validation, budgets and
// tracing. A Builtin becomes a Python function; a Text becomes a proxy
// whose len, indexing, slicing, `in`, iteration, str and methods are
// answered with the embedded interpreter's str semantics (repl.TextOps);
// plain data becomes the Python value.
type Bridge struct {
	mu   sync.Mutex
	objs []repl.Text
	ops  *repl.TextOps
}

// NewBridge returns an empty bridge.
func NewBridge() *Bridge { return &Bridge{ops: repl.NewTextOps()} }

// Expose returns the Funcs and the host Python that bind values under
// their names: pass both to Start.
func (b *Bridge) Expose(values map[string]any) (map[string]Func, string) {
	funcs := map[string]Func{"_rlm_obj": b.objOp}
	host := ""
	for _, name := range slices.Sorted(maps.Keys(values)) {
		switch v := values[name].(type) {
		case repl.Builtin:
			funcs[name] = b.builtin(name, v)
		case func(*repl.Call) (any, error):
			funcs[name] = b.builtin(name, v)
		case repl.Text:
			host += fmt.Sprintf("%s = _RlmObj(%d, \"str\")\n", name, b.register(v))
		default:
			j, err := b.toJSON(v)
			if err != nil {
				continue
			}
			raw, err := json.Marshal(j)
			if err != nil {
				continue
			}
			host += fmt.Sprintf("%s = _rlm_value(%s)\n", name, strconv.Quote(string(raw)))
		}
	}
	return funcs, host
}

func (b *Bridge) register(t repl.Text) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if reflect.TypeOf(t).Comparable() {
		for i, o := range b.objs {
			if o == t {
				return i
			}
		}
	}
	b.objs = append(b.objs, t)
	return len(b.objs) - 1
}

func (b *Bridge) obj(id any) (repl.Text, error) {
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

func (b *Bridge) builtin(name string, fn repl.Builtin) Func {
	return func(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
		c := &repl.Call{Ctx: ctx, Name: name, Print: func(string) {}}
		for _, a := range args {
			v, err := b.fromJSON(a)
			if err != nil {
				return nil, err
			}
			c.Args = append(c.Args, v)
		}
		for _, k := range slices.Sorted(maps.Keys(kwargs)) {
			v, err := b.fromJSON(kwargs[k])
			if err != nil {
				return nil, err
			}
			c.Kwargs = append(c.Kwargs, repl.KV{Key: k, Value: v})
		}
		out, err := fn(c)
		if err != nil {
			return nil, err
		}
		return b.toJSON(out)
	}
}

// objOp serves the proxy's operations: _rlm_obj(id, op, ...).
func (b *Bridge) objOp(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("_rlm_obj needs an id and an operation")
	}
	t, err := b.obj(args[0])
	if err != nil {
		return nil, err
	}
	op, _ := args[1].(string)
	if op == "list" {
		op = "iter"
	}
	var rest []any
	for _, a := range args[2:] {
		v, err := b.fromJSON(a)
		if err != nil {
			return nil, err
		}
		rest = append(rest, v)
	}
	var kw []repl.KV
	for _, k := range slices.Sorted(maps.Keys(kwargs)) {
		v, err := b.fromJSON(kwargs[k])
		if err != nil {
			return nil, err
		}
		kw = append(kw, repl.KV{Key: k, Value: v})
	}
	out, err := b.ops.Do(ctx, t, op, rest, kw)
	if err != nil {
		return nil, err
	}
	return b.toJSON(out)
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
	case int64:
		return int(n), nil
	}
	return 0, fmt.Errorf("expected an integer, got %T", x)
}

// maxJSONDepth bounds the nesting of converted values.
const maxJSONDepth = 64

func (b *Bridge) fromJSON(x any) (any, error) { return b.fromJSONDepth(x, 0) }

// fromJSONDepth converts a decoded JSON value to what a repl.Builtin takes.
func (b *Bridge) fromJSONDepth(x any, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("value nested too deeply")
	}
	switch v := x.(type) {
	case nil, bool, string:
		return v, nil
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i, nil
		}
		if bi, ok := new(big.Int).SetString(string(v), 10); ok {
			return bi, nil
		}
		f, err := v.Float64()
		if err != nil {
			return nil, fmt.Errorf("bad number %s", v)
		}
		return f, nil
	case float64:
		return v, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			g, err := b.fromJSONDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case map[string]any:
		if id, ok := v[objKey]; ok {
			return b.obj(id)
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			g, err := b.fromJSONDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported value %T", x)
}

func (b *Bridge) toJSON(v any) (any, error) { return b.toJSONDepth(v, 0) }

// orderedObject is a JSON object whose keys keep their order.
type orderedObject []repl.KV

func (o orderedObject) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	for i, kv := range o {
		if i > 0 {
			buf = append(buf, ',')
		}
		k, err := json.Marshal(kv.Key)
		if err != nil {
			return nil, err
		}
		val, err := json.Marshal(kv.Value)
		if err != nil {
			return nil, err
		}
		buf = append(append(append(buf, k...), ':'), val...)
	}
	return append(buf, '}'), nil
}

// toJSONDepth converts a Builtin's result to JSON for the protocol.
func (b *Bridge) toJSONDepth(v any, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("value nested too deeply")
	}
	switch x := v.(type) {
	case nil, bool, string, int64, float64:
		return x, nil
	case int:
		return int64(x), nil
	case *big.Int:
		return json.Number(x.String()), nil
	case json.Number:
		return x, nil
	case repl.Text:
		return map[string]any{objKey: b.register(x), "type": "str"}, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			j, err := b.toJSONDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = j
		}
		return out, nil
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			j, err := b.toJSONDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	case repl.Dict:
		out := make(orderedObject, len(x))
		for i, kv := range x {
			j, err := b.toJSONDepth(kv.Value, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = repl.KV{Key: kv.Key, Value: j}
		}
		return out, nil
	case *repl.List:
		items, err := b.toJSONDepth(x.Items, depth+1)
		if err != nil {
			return nil, err
		}
		attrs, err := b.toJSONDepth(repl.Dict(x.Attrs), depth+1)
		if err != nil {
			return nil, err
		}
		return orderedObject{{Key: listKey, Value: items}, {Key: "class", Value: x.Class}, {Key: "attrs", Value: attrs}}, nil
	}
	return nil, fmt.Errorf("unsupported host value %T", v)
}
