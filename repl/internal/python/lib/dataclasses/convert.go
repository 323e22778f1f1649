package dataclasses

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// maxDepth bounds the recursion of asdict, astuple and deep copies (a
// structure that contains itself recurses without end in CPython too,
// until RecursionError).
const maxDepth = 900

func recursionError() error {
	return python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded")
}

// isAtomic reports whether type(x) is one of CPython's _ATOMIC_TYPES,
// which asdict and astuple return as they are.
func isAtomic(x obj) bool {
	switch x.Type() {
	case python.NoneTypeType, python.BoolType, python.IntType, python.FloatType, python.StrType,
		python.ComplexType, python.BytesType, python.EllipsisTypeType, python.NotImplementedTypeType,
		python.BuiltinFunctionType, python.FunctionType, python.TypeType, python.RangeType, python.PropertyType:
		return true
	}
	_, isType := x.(*python.Type)
	return isType
}

// converter is asdict's or astuple's recursion.
type converter struct {
	st      *state
	factory obj // dict_factory or tuple_factory
	asDict  bool
	depth   int
}

func (st *state) asdict(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "asdict", Pos: []string{"obj"}, Required: 1, KwOnly: []string{"dict_factory"}}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	if !isDataclassInstance(a[0]) {
		return nil, python.Errorf(python.TypeErrorType, "asdict() should be called on dataclass instances")
	}
	c := &converter{st: st, factory: a[1], asDict: true}
	if c.factory == nil {
		c.factory = python.DictType
	}
	return c.inner(t, a[0])
}

func (st *state) astuple(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "astuple", Pos: []string{"obj"}, Required: 1, KwOnly: []string{"tuple_factory"}}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	if !isDataclassInstance(a[0]) {
		return nil, python.Errorf(python.TypeErrorType, "astuple() should be called on dataclass instances")
	}
	c := &converter{st: st, factory: a[1]}
	if c.factory == nil {
		c.factory = python.TupleType
	}
	return c.inner(t, a[0])
}

func (c *converter) inner(t *python.Thread, x obj) (obj, error) {
	if isAtomic(x) {
		return x, nil
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxDepth {
		return nil, recursionError()
	}
	if err := t.Tick(1); err != nil {
		return nil, err
	}
	if isDataclassInstance(x) {
		fs, err := classFields(t, x.Type())
		if err != nil {
			return nil, err
		}
		if c.asDict && c.factory == obj(python.DictType) {
			d := python.NewDict(len(fs))
			for _, f := range fs {
				if f.kind != kindField {
					continue
				}
				v, err := python.GetAttr(t, x, python.StrValue(f.name))
				if err != nil {
					return nil, err
				}
				if v, err = c.inner(t, v); err != nil {
					return nil, err
				}
				if err := d.Set(t, f.name, v); err != nil {
					return nil, err
				}
			}
			return d, nil
		}
		var items []obj
		for _, f := range fs {
			if f.kind != kindField {
				continue
			}
			v, err := python.GetAttr(t, x, python.StrValue(f.name))
			if err != nil {
				return nil, err
			}
			if v, err = c.inner(t, v); err != nil {
				return nil, err
			}
			if c.asDict {
				v = python.NewTuple([]obj{f.name, v})
			}
			items = append(items, v)
		}
		return python.Call(t, c.factory, []obj{python.NewList(items)}, nil)
	}
	isTuple, err := python.IsInstanceOf(t, x, python.TupleType)
	if err != nil {
		return nil, err
	}
	if isTuple {
		if ok, err := python.HasAttr(t, x, "_fields"); err != nil {
			return nil, err
		} else if ok {
			items, err := c.items(t, x)
			if err != nil {
				return nil, err
			}
			return python.Call(t, x.Type(), items, nil)
		}
	}
	isList, err := python.IsInstanceOf(t, x, python.ListType)
	if err != nil {
		return nil, err
	}
	if isTuple || isList {
		items, err := c.items(t, x)
		if err != nil {
			return nil, err
		}
		switch x.Type() {
		case python.ListType:
			return python.NewList(items), nil
		case python.TupleType:
			return python.NewTuple(items), nil
		}
		return python.Call(t, x.Type(), []obj{python.NewList(items)}, nil)
	}
	isDict, err := python.IsInstanceOf(t, x, python.DictType)
	if err != nil {
		return nil, err
	}
	if isDict {
		return c.dict(t, x)
	}
	return c.st.deepcopy(t, x, c.depth)
}

// deepcopy is copy.deepcopy(x): the copy module's when the interpreter
// has it, else this package's own (for the values asdict meets).
func (st *state) deepcopy(t *python.Thread, x obj, depth int) (obj, error) {
	if m, err := st.in.Import(t, "copy"); err == nil {
		if f, err := python.GetAttr(t, m, "deepcopy"); err == nil {
			return python.Call(t, f, []obj{x}, nil)
		}
	}
	return deepcopy(t, x, map[obj]obj{}, depth)
}

func (c *converter) items(t *python.Thread, x obj) ([]obj, error) {
	var out []obj
	err := python.Iterate(t, x, func(v obj) error {
		v, err := c.inner(t, v)
		out = append(out, v)
		return err
	})
	return out, err
}

func (c *converter) dict(t *python.Thread, x obj) (obj, error) {
	typ := x.Type()
	pairs, err := python.CallMethod(t, x, "items", nil, nil)
	if err != nil {
		return nil, err
	}
	var keys, vals []obj
	err = python.Iterate(t, pairs, func(kv obj) error {
		p, err := python.ToSlice(t, kv)
		if err != nil {
			return err
		}
		k, err := c.inner(t, p[0])
		if err != nil {
			return err
		}
		v, err := c.inner(t, p[1])
		if err != nil {
			return err
		}
		keys, vals = append(keys, k), append(vals, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if typ == python.DictType {
		d := python.NewDict(len(keys))
		for i, k := range keys {
			if err := d.Set(t, k, vals[i]); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	if _, ok := typ.Lookup("default_factory"); ok {
		df, err := python.GetAttr(t, x, "default_factory")
		if err != nil {
			return nil, err
		}
		r, err := python.Call(t, typ, []obj{df}, nil)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			if err := python.SetItem(t, r, k, vals[i]); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
	ps := make([]obj, len(keys))
	for i, k := range keys {
		ps[i] = python.NewTuple([]obj{k, vals[i]})
	}
	return python.Call(t, typ, []obj{python.NewList(ps)}, nil)
}

// deepcopy is copy.deepcopy for the values dataclasses.asdict and astuple
// copy, for an interpreter without the copy module: containers, instances
// of classes and library values. A mutable library value it cannot copy is
// refused.
func deepcopy(t *python.Thread, x obj, memo map[obj]obj, depth int) (obj, error) {
	if isAtomic(x) {
		return x, nil
	}
	switch x.(type) {
	case *python.Function, *python.Builtin, *python.Module:
		return x, nil
	}
	switch x.(type) {
	case *python.List, *python.Tuple, *python.Dict, *python.Set, *python.Instance:
		if y, ok := memo[x]; ok {
			return y, nil
		}
	}
	depth++
	if depth > maxDepth {
		return nil, recursionError()
	}
	if err := t.Tick(1); err != nil {
		return nil, err
	}
	if m, ok := x.Type().Lookup("__deepcopy__"); ok && m != python.None {
		return python.CallMethod(t, x, "__deepcopy__", []obj{python.NewDict(0)}, nil)
	}
	dc := func(v obj) (obj, error) { return deepcopy(t, v, memo, depth) }
	switch v := x.(type) {
	case *python.List:
		out := python.NewList(nil)
		memo[x] = out
		for _, it := range v.Items() {
			c, err := dc(it)
			if err != nil {
				return nil, err
			}
			out.Append(c)
		}
		return out, nil
	case *python.Tuple:
		items := make([]obj, len(v.Items()))
		same := true
		for i, it := range v.Items() {
			c, err := dc(it)
			if err != nil {
				return nil, err
			}
			items[i] = c
			same = same && c == it
		}
		if same {
			return x, nil
		}
		out := python.NewTuple(items)
		memo[x] = out
		return out, nil
	case *python.Dict:
		out := python.NewDictOf(v.Class())
		out.SetMissing(v.Missing())
		out.SetExtra(v.Extra())
		memo[x] = out
		var err error
		v.Items(func(k, val obj) bool {
			var kc, vc obj
			if kc, err = dc(k); err != nil {
				return false
			}
			if vc, err = dc(val); err != nil {
				return false
			}
			err = out.Set(t, kc, vc)
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	case *python.Set:
		items, err := python.ToSlice(t, v)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			if items[i], err = dc(it); err != nil {
				return nil, err
			}
		}
		out, err := python.Call(t, v.Type(), []obj{python.NewList(items)}, nil)
		if err != nil {
			return nil, err
		}
		memo[x] = out
		return out, nil
	case *python.Instance:
		for _, n := range []string{"__reduce_ex__", "__reduce__", "__getstate__", "__setstate__", "__copy__"} {
			if m, owner := lookupOwner(v.Type(), n); m != nil && !owner.IsBuiltin() {
				return nil, python.NotSupported("deep-copying an object whose class defines "+n, "copy the fields yourself")
			}
		}
		var base obj
		if b := v.Base(); b != nil {
			var err error
			if base, err = dc(b); err != nil {
				return nil, err
			}
		}
		out := python.NewInstance(v.Type(), base)
		memo[x] = out
		var err error
		v.Attrs().Items(func(k, val obj) bool {
			var c obj
			if c, err = dc(val); err != nil {
				return false
			}
			err = out.Attrs().Set(t, k, c)
			return err == nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	if _, err := python.Hash(t, x); err == nil {
		// A hashable library value is immutable: a copy would be equal.
		return x, nil
	}
	return nil, python.NotSupported("deep-copying a '"+python.TypeName(x)+"' object (dataclasses.asdict/astuple copy field values that are not dataclasses, lists, tuples or dicts)", "convert the field to a list, tuple or dict first")
}

func lookupOwner(c *python.Type, name string) (obj, *python.Type) {
	for _, m := range c.MRO() {
		if v, ok := m.Dict().GetStr(name); ok {
			return v, m
		}
	}
	return nil, nil
}
