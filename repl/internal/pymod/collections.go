package pymod

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Collections is the `collections` module: Counter, defaultdict, deque,
// OrderedDict (a plain dict: Starlark dicts keep insertion order).
var Collections = &starlarkstruct.Module{
	Name: "collections",
	Members: starlark.StringDict{
		"Counter":     starlark.NewBuiltin("Counter", newCounter),
		"defaultdict": starlark.NewBuiltin("defaultdict", newDefaultDict),
		"deque":       starlark.NewBuiltin("deque", newDeque),
		"OrderedDict": starlark.Universe["dict"],
	},
}

// Iterate yields the elements of an iterable; strings yield their characters.
func Iterate(v starlark.Value, fn func(starlark.Value) error) error {
	if s, ok := v.(starlark.String); ok {
		for _, r := range string(s) {
			if err := fn(starlark.String(string(r))); err != nil {
				return err
			}
		}
		return nil
	}
	it, ok := v.(starlark.Iterable)
	if !ok {
		return Errorf("TypeError", "'%s' object is not iterable", TypeName(v))
	}
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if err := fn(x); err != nil {
			return err
		}
	}
	return nil
}

// ---- Counter ----

// Counter is collections.Counter: a dict from element to count whose missing keys read as 0.
type Counter struct{ d *starlark.Dict }

var (
	_ starlark.IterableMapping = (*Counter)(nil)
	_ starlark.HasSetKey       = (*Counter)(nil)
	_ starlark.Container       = (*Counter)(nil)
	_ starlark.Sequence        = (*Counter)(nil)
	_ starlark.HasAttrs        = (*Counter)(nil)
	_ starlark.Comparable      = (*Counter)(nil)
	_ starlark.HasBinary       = (*Counter)(nil)
)

// count is c[k], 0 when missing.
func (c *Counter) count(k starlark.Value) starlark.Value {
	v, _, _ := c.Get(k)
	return v
}

// CompareSameType is == and != (missing counts are 0, as in Python 3.10+).
func (c *Counter) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*Counter)
	switch op {
	case syntax.EQL, syntax.NEQ:
		eq := true
		for _, pair := range [][2]*Counter{{c, o}, {o, c}} {
			for _, kv := range pair[0].d.Items() {
				same, err := starlark.EqualDepth(kv[1], pair[1].count(kv[0]), depth-1)
				if err != nil {
					return false, err
				}
				if !same {
					eq = false
				}
			}
		}
		return eq == (op == syntax.EQL), nil
	}
	return false, Errorf("TypeError", "'%s' not supported between instances of 'Counter' and 'Counter'", op)
}

// Binary is Counter + - | & Counter: Python's multiset operations, keeping
// positive counts only.
func (c *Counter) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	o, ok := y.(*Counter)
	if !ok {
		return nil, nil
	}
	a, b := c, o
	if side == starlark.Right {
		a, b = o, c
	}
	var combine func(x, y starlark.Value) (starlark.Value, error)
	switch op {
	case syntax.PLUS:
		combine = func(x, y starlark.Value) (starlark.Value, error) { return starlark.Binary(syntax.PLUS, x, y) }
	case syntax.MINUS:
		combine = func(x, y starlark.Value) (starlark.Value, error) { return starlark.Binary(syntax.MINUS, x, y) }
	case syntax.PIPE, syntax.AMP:
		combine = func(x, y starlark.Value) (starlark.Value, error) {
			lt, err := starlark.Compare(syntax.LT, x, y)
			if err != nil {
				return nil, err
			}
			if lt == (op == syntax.PIPE) {
				return y, nil
			}
			return x, nil
		}
	default:
		return nil, nil
	}
	zero := starlark.MakeInt(0)
	out := &Counter{d: starlark.NewDict(a.d.Len())}
	keep := func(k, v starlark.Value) error {
		if pos, err := starlark.Compare(syntax.GT, v, zero); err != nil || !pos {
			return err
		}
		return out.d.SetKey(k, v)
	}
	for _, kv := range a.d.Items() {
		v, err := combine(kv[1], b.count(kv[0]))
		if err != nil {
			return nil, err
		}
		if err := keep(kv[0], v); err != nil {
			return nil, err
		}
	}
	if op == syntax.AMP {
		return out, nil
	}
	for _, kv := range b.d.Items() {
		if found, _ := a.Has(kv[0]); found {
			continue
		}
		v := kv[1]
		if op == syntax.MINUS {
			var err error
			if v, err = starlark.Unary(syntax.MINUS, v); err != nil {
				return nil, err
			}
		}
		if err := keep(kv[0], v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func newCounter(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 1 {
		return nil, Errorf("TypeError", "Counter expected at most 1 argument, got %d", len(args))
	}
	c := &Counter{d: starlark.NewDict(8)}
	if len(args) == 1 {
		if err := c.add(args[0], 1); err != nil {
			return nil, err
		}
	}
	for _, kv := range kwargs {
		if err := c.incr(kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Counter) incr(k, by starlark.Value) error {
	old, found, err := c.d.Get(k)
	if err != nil {
		return err
	}
	if !found {
		old = starlark.MakeInt(0)
	}
	n, err := starlark.Binary(syntax.PLUS, old, by)
	if err != nil {
		return err
	}
	return c.d.SetKey(k, n)
}

// add counts the elements of an iterable, or adds a mapping's counts, times sign.
func (c *Counter) add(src starlark.Value, sign int) error {
	if m, ok := src.(starlark.IterableMapping); ok {
		for _, kv := range m.Items() {
			v := kv[1]
			if sign < 0 {
				var err error
				if v, err = starlark.Unary(syntax.MINUS, v); err != nil {
					return err
				}
			}
			if err := c.incr(kv[0], v); err != nil {
				return err
			}
		}
		return nil
	}
	one := starlark.MakeInt(sign)
	return Iterate(src, func(x starlark.Value) error { return c.incr(x, one) })
}

func (c *Counter) String() string {
	if c.d.Len() == 0 {
		return "Counter()"
	}
	var b strings.Builder
	b.WriteString("Counter({")
	for i, kv := range c.sortedItems() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(kv[0].String())
		b.WriteString(": ")
		b.WriteString(kv[1].String())
	}
	b.WriteString("})")
	return b.String()
}
func (c *Counter) Type() string          { return "Counter" }
func (c *Counter) Freeze()               { c.d.Freeze() }
func (c *Counter) Truth() starlark.Bool  { return c.d.Len() > 0 }
func (c *Counter) Hash() (uint32, error) { return 0, Errorf("TypeError", "unhashable type: 'Counter'") }
func (c *Counter) Len() int              { return c.d.Len() }
func (c *Counter) Iterate() starlark.Iterator {
	return c.d.Iterate()
}
func (c *Counter) Items() []starlark.Tuple { return c.d.Items() }
func (c *Counter) Has(k starlark.Value) (bool, error) {
	_, found, err := c.d.Get(k)
	return found, err
}
func (c *Counter) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, found, err := c.d.Get(k)
	if err != nil {
		return nil, false, err
	}
	if !found {
		return starlark.MakeInt(0), true, nil
	}
	return v, true, nil
}
func (c *Counter) SetKey(k, v starlark.Value) error { return c.d.SetKey(k, v) }

// sortedItems orders by count descending, ties in insertion order (as CPython).
func (c *Counter) sortedItems() []starlark.Tuple {
	items := c.d.Items()
	sort.SliceStable(items, func(i, j int) bool {
		lt, err := starlark.Compare(syntax.GT, items[i][1], items[j][1])
		return err == nil && lt
	})
	return items
}

func (c *Counter) AttrNames() []string {
	return []string{"clear", "copy", "elements", "get", "items", "keys", "most_common", "pop", "setdefault", "subtract", "total", "update", "values"}
}

func (c *Counter) Attr(name string) (starlark.Value, error) {
	mk := func(f func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin("Counter."+name, f)
	}
	switch name {
	case "most_common":
		return mk(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var nv starlark.Value = starlark.None
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "n?", &nv); err != nil {
				return nil, err
			}
			items := c.sortedItems()
			if nv != starlark.None {
				n, err := starlark.AsInt32(nv)
				if err != nil {
					return nil, Errorf("TypeError", "most_common: n must be an int")
				}
				if n >= 0 && n < len(items) {
					items = items[:n]
				} else if n < 0 {
					items = nil
				}
			}
			out := make([]starlark.Value, len(items))
			for i, kv := range items {
				out[i] = kv
			}
			return starlark.NewList(out), nil
		}), nil
	case "update", "subtract":
		sign := 1
		if name == "subtract" {
			sign = -1
		}
		return mk(func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			for _, a := range args {
				if err := c.add(a, sign); err != nil {
					return nil, err
				}
			}
			for _, kv := range kwargs {
				v := kv[1]
				if sign < 0 {
					var err error
					if v, err = starlark.Unary(syntax.MINUS, v); err != nil {
						return nil, err
					}
				}
				if err := c.incr(kv[0], v); err != nil {
					return nil, err
				}
			}
			return starlark.None, nil
		}), nil
	case "total":
		return mk(func(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			var sum starlark.Value = starlark.MakeInt(0)
			for _, kv := range c.d.Items() {
				var err error
				if sum, err = starlark.Binary(syntax.PLUS, sum, kv[1]); err != nil {
					return nil, err
				}
			}
			return sum, nil
		}), nil
	case "elements":
		return mk(func(thread *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			var out []starlark.Value
			for _, kv := range c.d.Items() {
				n, _ := starlark.AsInt32(kv[1])
				if err := CheckSize(thread, "Counter.elements()", int64(len(out)+n)*ElemBytes); err != nil {
					return nil, err
				}
				for i := 0; i < n; i++ {
					out = append(out, kv[0])
				}
			}
			return starlark.NewList(out), nil
		}), nil
	case "copy":
		return mk(func(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			n := &Counter{d: starlark.NewDict(c.d.Len())}
			for _, kv := range c.d.Items() {
				_ = n.d.SetKey(kv[0], kv[1])
			}
			return n, nil
		}), nil
	}
	// the rest are dict methods
	return dictMethod(c.d, name, "Counter")
}

func dictMethod(d *starlark.Dict, name, typ string) (starlark.Value, error) {
	m, err := d.Attr(name)
	if err != nil || m == nil {
		return nil, Errorf("AttributeError", "'%s' object has no attribute '%s'", typ, name)
	}
	return m, nil
}

// ---- defaultdict ----

// DefaultDict is collections.defaultdict: reading a missing key stores and
// returns factory(). The factory runs on a fresh thread bounded to 1e6 steps
// (a Mapping lookup has no thread of its own).
type DefaultDict struct {
	d       *starlark.Dict
	factory starlark.Value
	running func() *starlark.Thread // the interpreter's running cell thread, if any
}

// RunningKey is the thread-local key of a func returning the interpreter's
// currently running cell thread (the factory runs there, on its budgets).
const RunningKey = "rlm.repl.running"

var (
	_ starlark.IterableMapping = (*DefaultDict)(nil)
	_ starlark.HasSetKey       = (*DefaultDict)(nil)
	_ starlark.Container       = (*DefaultDict)(nil)
	_ starlark.Sequence        = (*DefaultDict)(nil)
	_ starlark.HasAttrs        = (*DefaultDict)(nil)
	_ starlark.Comparable      = (*DefaultDict)(nil)
)

// CompareSameType is == and != (the factories do not matter, as in Python).
func (dd *DefaultDict) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	return starlark.CompareDepth(op, dd.d, y.(*DefaultDict).d, depth-1)
}

// factoryRepr is the factory as Python shows it: <class 'list'> for a type.
func (dd *DefaultDict) factoryRepr() string {
	switch f := dd.factory.(type) {
	case starlark.NoneType:
		return "None"
	case *starlark.Builtin:
		return "<class '" + f.Name() + "'>"
	case *starlark.Function:
		if f.Name() == "lambda" {
			return "<function <lambda>>"
		}
		return "<function " + f.Name() + ">"
	}
	return dd.factory.String()
}

func newDefaultDict(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	dd := &DefaultDict{d: starlark.NewDict(8), factory: starlark.None}
	dd.running, _ = thread.Local(RunningKey).(func() *starlark.Thread)
	if len(args) > 0 {
		if _, ok := args[0].(starlark.Callable); !ok && args[0] != starlark.None {
			return nil, Errorf("TypeError", "first argument must be callable or None")
		}
		dd.factory = args[0]
		args = args[1:]
	}
	if len(args) > 0 {
		if m, ok := args[0].(starlark.IterableMapping); ok {
			for _, kv := range m.Items() {
				_ = dd.d.SetKey(kv[0], kv[1])
			}
		}
	}
	for _, kv := range kwargs {
		_ = dd.d.SetKey(kv[0], kv[1])
	}
	return dd, nil
}

func (dd *DefaultDict) String() string {
	return fmt.Sprintf("defaultdict(%s, %s)", dd.factoryRepr(), dd.d.String())
}
func (dd *DefaultDict) Type() string         { return "defaultdict" }
func (dd *DefaultDict) Freeze()              { dd.d.Freeze(); dd.factory.Freeze() }
func (dd *DefaultDict) Truth() starlark.Bool { return dd.d.Len() > 0 }
func (dd *DefaultDict) Hash() (uint32, error) {
	return 0, Errorf("TypeError", "unhashable type: 'defaultdict'")
}
func (dd *DefaultDict) Len() int { return dd.d.Len() }
func (dd *DefaultDict) Iterate() starlark.Iterator {
	return dd.d.Iterate()
}
func (dd *DefaultDict) Items() []starlark.Tuple { return dd.d.Items() }
func (dd *DefaultDict) Has(k starlark.Value) (bool, error) {
	_, found, err := dd.d.Get(k)
	return found, err
}
func (dd *DefaultDict) SetKey(k, v starlark.Value) error { return dd.d.SetKey(k, v) }
func (dd *DefaultDict) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, found, err := dd.d.Get(k)
	if err != nil || found {
		return v, found, err
	}
	if dd.factory == starlark.None {
		return nil, false, nil
	}
	if b, ok := dd.factory.(interface{ Name() string }); ok {
		// Python's zero-argument constructors (Starlark's int() and float() need an argument).
		v = nil
		switch b.Name() {
		case "int":
			v = starlark.MakeInt(0)
		case "float":
			v = starlark.Float(0)
		case "str":
			v = starlark.String("")
		case "bool":
			v = starlark.False
		}
		if v != nil {
			if err := dd.d.SetKey(k, v); err != nil {
				return nil, false, err
			}
			return v, true, nil
		}
	}
	var th *starlark.Thread
	if dd.running != nil {
		th = dd.running()
	}
	if th == nil {
		th = &starlark.Thread{Name: "defaultdict factory"}
		th.SetMaxExecutionSteps(1_000_000)
	}
	v, err = starlark.Call(th, dd.factory, nil, nil)
	if err != nil {
		return nil, false, err
	}
	if err := dd.d.SetKey(k, v); err != nil {
		return nil, false, err
	}
	return v, true, nil
}

func (dd *DefaultDict) AttrNames() []string {
	return []string{"clear", "default_factory", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}
}

func (dd *DefaultDict) Attr(name string) (starlark.Value, error) {
	if name == "default_factory" {
		return dd.factory, nil
	}
	return dictMethod(dd.d, name, "defaultdict")
}

// ---- deque ----

// Deque is a minimal collections.deque over a slice.
type Deque struct {
	elems  []starlark.Value
	maxlen int // -1: unbounded
	frozen bool
}

var (
	_ starlark.Sequence  = (*Deque)(nil)
	_ starlark.Indexable = (*Deque)(nil)
	_ starlark.HasAttrs  = (*Deque)(nil)
	_ starlark.Container = (*Deque)(nil)
)

// Has is x in deque.
func (d *Deque) Has(x starlark.Value) (bool, error) {
	for _, e := range d.elems {
		if eq, err := starlark.Equal(e, x); err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

func newDeque(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var src starlark.Value = starlark.None
	var maxlen starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "iterable?", &src, "maxlen?", &maxlen); err != nil {
		return nil, err
	}
	d := &Deque{maxlen: -1}
	if maxlen != starlark.None {
		n, err := starlark.AsInt32(maxlen)
		if err != nil || n < 0 {
			return nil, Errorf("ValueError", "maxlen must be a non-negative int")
		}
		d.maxlen = n
	}
	if src != starlark.None {
		if err := Iterate(src, func(x starlark.Value) error { d.push(x, false); return nil }); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *Deque) push(x starlark.Value, left bool) {
	if left {
		d.elems = append([]starlark.Value{x}, d.elems...)
		if d.maxlen >= 0 && len(d.elems) > d.maxlen {
			d.elems = d.elems[:d.maxlen]
		}
		return
	}
	d.elems = append(d.elems, x)
	if d.maxlen >= 0 && len(d.elems) > d.maxlen {
		d.elems = d.elems[len(d.elems)-d.maxlen:]
	}
}

func (d *Deque) String() string {
	return "deque(" + starlark.NewList(d.elems).String() + d.maxlenRepr() + ")"
}

func (d *Deque) maxlenRepr() string {
	if d.maxlen < 0 {
		return ""
	}
	return fmt.Sprintf(", maxlen=%d", d.maxlen)
}
func (d *Deque) Type() string { return "deque" }
func (d *Deque) Freeze() {
	d.frozen = true
	for _, e := range d.elems {
		e.Freeze()
	}
}
func (d *Deque) Truth() starlark.Bool       { return len(d.elems) > 0 }
func (d *Deque) Hash() (uint32, error)      { return 0, Errorf("TypeError", "unhashable type: 'deque'") }
func (d *Deque) Len() int                   { return len(d.elems) }
func (d *Deque) Index(i int) starlark.Value { return d.elems[i] }
func (d *Deque) Iterate() starlark.Iterator {
	return starlark.NewList(append([]starlark.Value(nil), d.elems...)).Iterate()
}
func (d *Deque) AttrNames() []string {
	return []string{"append", "appendleft", "clear", "extend", "extendleft", "pop", "popleft", "rotate"}
}

func (d *Deque) Attr(name string) (starlark.Value, error) {
	mk := func(f func(args starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin("deque."+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if d.frozen {
				return nil, Errorf("TypeError", "deque is frozen")
			}
			return f(args)
		})
	}
	one := func(args starlark.Tuple) error {
		if len(args) != 1 {
			return Errorf("TypeError", "deque.%s takes exactly one argument (%d given)", name, len(args))
		}
		return nil
	}
	switch name {
	case "append", "appendleft":
		return mk(func(args starlark.Tuple) (starlark.Value, error) {
			if err := one(args); err != nil {
				return nil, err
			}
			d.push(args[0], name == "appendleft")
			return starlark.None, nil
		}), nil
	case "extend", "extendleft":
		return mk(func(args starlark.Tuple) (starlark.Value, error) {
			if err := one(args); err != nil {
				return nil, err
			}
			return starlark.None, Iterate(args[0], func(x starlark.Value) error { d.push(x, name == "extendleft"); return nil })
		}), nil
	case "pop", "popleft":
		return mk(func(args starlark.Tuple) (starlark.Value, error) {
			if len(d.elems) == 0 {
				return nil, Errorf("IndexError", "pop from an empty deque")
			}
			var x starlark.Value
			if name == "pop" {
				x, d.elems = d.elems[len(d.elems)-1], d.elems[:len(d.elems)-1]
			} else {
				x, d.elems = d.elems[0], d.elems[1:]
			}
			return x, nil
		}), nil
	case "clear":
		return mk(func(args starlark.Tuple) (starlark.Value, error) { d.elems = nil; return starlark.None, nil }), nil
	case "rotate":
		return mk(func(args starlark.Tuple) (starlark.Value, error) {
			n := 1
			if len(args) == 1 {
				var err error
				if n, err = starlark.AsInt32(args[0]); err != nil {
					return nil, err
				}
			}
			if l := len(d.elems); l > 0 {
				n = ((n % l) + l) % l
				d.elems = append(d.elems[l-n:], d.elems[:l-n]...)
			}
			return starlark.None, nil
		}), nil
	}
	return nil, nil
}
