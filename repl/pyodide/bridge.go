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

// HostObjectBytes is what one host object the bridge hands to Python (a
// sub-context from partition or files, a context returned by a builtin) is
// counted as against the value bound: its slot in the bridge's table, its
// proxy's JSON, and the engine's sub-context behind it (a store entry and
// its handle). 1 KiB is a deliberate overestimate: the attack of issue 30
// (1,990,000 sub-contexts) grew the rlm process by 1.3-1.5 GB, about
// 700 bytes each.
const HostObjectBytes = 1 << 10

// Bridge exposes code mode's host values (repl.Builtin functions, repl.Text
// contexts, plain data) to Python in Pyodide, so both interpreters share
// one set of builtins with one implementation of validation, budgets and
// tracing. A Builtin becomes a Python function; a Text becomes a proxy
// whose len, indexing, slicing, `in`, iteration, str and methods are
// answered with the embedded interpreter's str semantics (repl.TextOps);
// plain data becomes the Python value.
//
// Host objects are bounded like the embedded interpreter's values: each
// counts HostObjectBytes against the value bound (MaxValueBytes, 64 MiB by
// default: 65,536 objects), both the objects one cell makes and those
// alive in the table. Past either bound the call raises MemoryError before
// anything new is kept, and so does every later builtin call of that cell
// (the embedded interpreter stops such a cell). Python tells the bridge
// which proxies it no longer holds; their objects leave the table.
type Bridge struct {
	mu   sync.Mutex
	objs map[int64]repl.Text
	// ids finds the id of a pointer already in the table.
	ids  map[repl.Text]int64
	next int64
	ops  *repl.TextOps

	maxObjects int64
	// cell is the cell whose new objects cellObjs counts; over marks a
	// cell that went past the bound.
	cell     int64
	cellObjs int64
	over     bool
}

// NewBridge returns an empty bridge whose host objects count against
// repl.DefaultMaxValueBytes.
func NewBridge() *Bridge {
	return &Bridge{ops: repl.NewTextOps(), objs: map[int64]repl.Text{}, ids: map[repl.Text]int64{},
		maxObjects: repl.DefaultMaxValueBytes / HostObjectBytes}
}

// WithMaxValueBytes sets the value bound host objects count against (the
// interpreter's MaxValueBytes); n <= 0 keeps the default.
func (b *Bridge) WithMaxValueBytes(n int64) *Bridge {
	if n > 0 {
		b.maxObjects = max(n/HostObjectBytes, 1)
	}
	return b
}

// Objects returns the number of host objects in the table.
func (b *Bridge) Objects() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.objs)
}

// Expose returns the Funcs and the host Python that bind values under
// their names: pass both to Start.
func (b *Bridge) Expose(values map[string]any) (map[string]Func, string) {
	funcs := map[string]Func{"_rlm_obj": b.objOp, "_rlm_release": b.release}
	host := ""
	for _, name := range slices.Sorted(maps.Keys(values)) {
		switch v := values[name].(type) {
		case repl.Builtin:
			funcs[name] = b.builtin(name, v)
		case func(*repl.Call) (any, error):
			funcs[name] = b.builtin(name, v)
		case repl.Text:
			id, _ := b.register(nil, v)
			host += fmt.Sprintf("%s = _RlmObj(%d, \"str\")\n", name, id)
		default:
			j, err := b.toJSON(nil, v)
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

// conversion records the objects one result registered, so that a result
// refused half-way leaves nothing behind.
type conversion struct {
	cell  int64
	added []int64
}

// errTooManyObjects is the MemoryError of a cell past the object bound.
func (b *Bridge) errTooManyObjects(what string) error {
	return repl.Raise("MemoryError", "%s: more than %d host objects (sub-contexts and other host values, each counted as %d bytes against the %d-byte value bound); drop references to ones you no longer need, or partition into fewer, larger parts",
		what, b.maxObjects, HostObjectBytes, b.maxObjects*HostObjectBytes)
}

// enter starts accounting for the cell of ctx and refuses a call in a cell
// already past the bound.
func (b *Bridge) enter(ctx context.Context) error {
	id := cellOf(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	if id != b.cell {
		b.cell, b.cellObjs, b.over = id, 0, false
	}
	if b.over {
		return b.errTooManyObjects("this cell already made")
	}
	return nil
}

// register returns t's id, adding it to the table (counted against the
// bound for conv's cell; nil: not counted, for the values bound at start).
func (b *Bridge) register(conv *conversion, t repl.Text) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ptr := reflect.TypeOf(t).Kind() == reflect.Pointer
	if ptr {
		if id, ok := b.ids[t]; ok {
			return id, nil
		}
	}
	if conv != nil {
		if conv.cell == b.cell && b.cellObjs >= b.maxObjects {
			b.over = true
			return 0, b.errTooManyObjects("the cell made")
		}
		if int64(len(b.objs)) >= b.maxObjects {
			b.over = true
			return 0, b.errTooManyObjects("the interpreter holds")
		}
		if conv.cell == b.cell {
			b.cellObjs++
		}
	}
	id := b.next
	b.next++
	b.objs[id] = t
	if ptr {
		b.ids[t] = id
	}
	if conv != nil {
		conv.added = append(conv.added, id)
	}
	return id, nil
}

// drop removes ids from the table.
func (b *Bridge) drop(ids []int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range ids {
		t, ok := b.objs[id]
		if !ok {
			continue
		}
		delete(b.objs, id)
		if reflect.TypeOf(t).Kind() == reflect.Pointer && b.ids[t] == id {
			delete(b.ids, t)
		}
	}
}

// release serves _rlm_release(ids): Python no longer holds a proxy of
// these objects. Their count for the cell stays (what they stood for, such
// as a store's sub-context, may outlive them); the table forgets them.
func (b *Bridge) release(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
	var ids []int64
	for _, a := range args {
		list, ok := a.([]any)
		if !ok {
			list = []any{a}
		}
		for _, x := range list {
			n, err := intArg(x)
			if err != nil {
				return nil, err
			}
			ids = append(ids, int64(n))
		}
	}
	b.drop(ids)
	return nil, nil
}

func (b *Bridge) obj(id any) (repl.Text, error) {
	n, err := intArg(id)
	if err != nil {
		return nil, fmt.Errorf("bad object id")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.objs[int64(n)]
	if !ok {
		return nil, fmt.Errorf("no host object %d", n)
	}
	return t, nil
}

// result converts a builtin's result, counting the objects it registers
// against the cell's bound; a refused result registers nothing.
func (b *Bridge) result(ctx context.Context, v any) (any, error) {
	conv := &conversion{cell: cellOf(ctx)}
	j, err := b.toJSON(conv, v)
	if err != nil {
		b.drop(conv.added)
		return nil, err
	}
	return j, nil
}

func (b *Bridge) builtin(name string, fn repl.Builtin) Func {
	return func(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
		if err := b.enter(ctx); err != nil {
			return nil, err
		}
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
		return b.result(ctx, out)
	}
}

// objOp serves the proxy's operations: _rlm_obj(id, op, ...).
func (b *Bridge) objOp(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("_rlm_obj needs an id and an operation")
	}
	if err := b.enter(ctx); err != nil {
		return nil, err
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
	return b.result(ctx, out)
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

func (b *Bridge) toJSON(conv *conversion, v any) (any, error) { return b.toJSONDepth(conv, v, 0) }

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
func (b *Bridge) toJSONDepth(conv *conversion, v any, depth int) (any, error) {
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
		id, err := b.register(conv, x)
		if err != nil {
			return nil, err
		}
		return map[string]any{objKey: id, "type": "str"}, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			j, err := b.toJSONDepth(conv, e, depth+1)
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
			j, err := b.toJSONDepth(conv, e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	case repl.Dict:
		out := make(orderedObject, len(x))
		for i, kv := range x {
			j, err := b.toJSONDepth(conv, kv.Value, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = repl.KV{Key: kv.Key, Value: j}
		}
		return out, nil
	case *repl.List:
		items, err := b.toJSONDepth(conv, x.Items, depth+1)
		if err != nil {
			return nil, err
		}
		attrs, err := b.toJSONDepth(conv, repl.Dict(x.Attrs), depth+1)
		if err != nil {
			return nil, err
		}
		return orderedObject{{Key: listKey, Value: items}, {Key: "class", Value: x.Class}, {Key: "attrs", Value: attrs}}, nil
	}
	return nil, fmt.Errorf("unsupported host value %T", v)
}
