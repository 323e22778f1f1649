package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

func selfDict(args []Object, name string) (*Dict, error) {
	if len(args) > 0 {
		if d, ok := unwrap(args[0]).(*Dict); ok {
			return d, nil
		}
	}
	return nil, Errorf(TypeErrorType, "descriptor '%s' for 'dict' objects doesn't apply to this object", name)
}

// dictUpdate implements dict.update(*args, **kwargs) and dict(...).
func dictUpdate(t *Thread, d *Dict, args []Object, kwargs []Kwarg) error {
	if len(args) > 1 {
		return Errorf(TypeErrorType, "update expected at most 1 argument, got %d", len(args))
	}
	if len(args) == 1 {
		src := args[0]
		if sd, ok := unwrap(src).(*Dict); ok {
			if o, isInst := src.(*Instance); !isInst || o.cls.userMethod("keys") == nil {
				var err error
				sd.Items(func(k, v Object) bool { err = d.Set(t, k, v); return err == nil })
				if err != nil {
					return err
				}
				goto kw
			}
		}
		if ok, _ := HasAttr(t, src, "keys"); ok {
			if err := mergeMapping(t, d, src, false, ""); err != nil {
				return err
			}
		} else {
			i := 0
			err := Iterate(t, src, func(item Object) error {
				kv, err := ToSlice(t, item)
				if err != nil {
					if IsInstance(err, TypeErrorType) {
						return Errorf(TypeErrorType, "cannot convert dictionary update sequence element #%d to a sequence", i)
					}
					return err
				}
				if len(kv) != 2 {
					return Errorf(ValueErrorType, "dictionary update sequence element #%d has length %d; 2 is required", i, len(kv))
				}
				i++
				return d.Set(t, kv[0], kv[1])
			})
			if err != nil {
				if IsInstance(err, TypeErrorType) && !isIterable(src) {
					return Errorf(TypeErrorType, "'%s' object is not iterable", typeName(src))
				}
				return err
			}
		}
	}
kw:
	for _, kw := range kwargs {
		d.SetStr(kw.Name, kw.Value)
	}
	return nil
}

func initDictMethods() {
	c := DictType
	addDunders(c, "__len__", "__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__",
		"__repr__", "__eq__", "__ne__")
	c.dict.SetStr("__hash__", None)
	method(c, "__init__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "__init__")
		if err != nil {
			return nil, err
		}
		if len(args) > 2 {
			return nil, Errorf(TypeErrorType, "dict expected at most 1 argument, got %d", len(args)-1)
		}
		return None, dictUpdate(t, d, args[1:], kwargs)
	})
	method(c, "__or__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return builtinBinary(t, syntax.BitOr, unwrap(args[0]), unwrap(args[1]))
	})
	method(c, "keys", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "keys")
		if err != nil {
			return nil, err
		}
		return &dictView{d: d, kind: dictKeys}, nil
	})
	method(c, "values", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "values")
		if err != nil {
			return nil, err
		}
		return &dictView{d: d, kind: dictValues}, nil
	})
	method(c, "items", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "items")
		if err != nil {
			return nil, err
		}
		return &dictView{d: d, kind: dictItems}, nil
	})
	method(c, "get", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "get")
		if err != nil {
			return nil, err
		}
		if err := nargs("get", args[1:], kwargs, 1, 2); err != nil {
			return nil, err
		}
		v, ok, err := d.Get(t, args[1])
		if err != nil {
			return nil, err
		}
		if ok {
			return v, nil
		}
		if len(args) == 3 {
			return args[2], nil
		}
		return None, nil
	})
	method(c, "setdefault", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "setdefault")
		if err != nil {
			return nil, err
		}
		if err := nargs("setdefault", args[1:], kwargs, 1, 2); err != nil {
			return nil, err
		}
		v, ok, err := d.Get(t, args[1])
		if err != nil {
			return nil, err
		}
		if ok {
			return v, nil
		}
		def := None
		if len(args) == 3 {
			def = args[2]
		}
		return def, d.Set(t, args[1], def)
	})
	method(c, "pop", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "pop")
		if err != nil {
			return nil, err
		}
		if err := nargs("pop", args[1:], kwargs, 1, 2); err != nil {
			return nil, err
		}
		v, found, err := d.Delete(t, args[1])
		if err != nil {
			return nil, err
		}
		if found {
			return v, nil
		}
		if len(args) == 3 {
			return args[2], nil
		}
		return nil, NewException(KeyErrorType, args[1])
	})
	method(c, "popitem", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "popitem")
		if err != nil {
			return nil, err
		}
		k, v, ok := d.PopLast(t)
		if !ok {
			return nil, Errorf(KeyErrorType, "popitem(): dictionary is empty")
		}
		return NewTuple([]Object{k, v}), nil
	})
	method(c, "update", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "update")
		if err != nil {
			return nil, err
		}
		return None, dictUpdate(t, d, args[1:], kwargs)
	})
	method(c, "clear", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "clear")
		if err != nil {
			return nil, err
		}
		d.Clear()
		return None, nil
	})
	method(c, "copy", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "copy")
		if err != nil {
			return nil, err
		}
		r := d.Copy()
		if d.cls != nil {
			r.cls, r.missing, r.extra = d.cls, d.missing, d.extra
		}
		return r, nil
	})
	method(c, "__reversed__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		d, err := selfDict(args, "__reversed__")
		if err != nil {
			return nil, err
		}
		return &dictIter{d: d, kind: dictKeys, version: d.version, rev: true}, nil
	})
	classMethod(c, "fromkeys", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if err := nargs("fromkeys", args[1:], kwargs, 1, 2); err != nil {
			return nil, err
		}
		var v Object = None
		if len(args) == 3 {
			v = args[2]
		}
		r, err := Call(t, args[0], nil, nil)
		if err != nil {
			return nil, err
		}
		d, ok := unwrap(r).(*Dict)
		if !ok {
			return nil, Errorf(TypeErrorType, "fromkeys: not a dict")
		}
		err = Iterate(t, args[1], func(k Object) error { return d.Set(t, k, v) })
		return r, err
	})
	for _, v := range []*Type{DictKeysType, DictValuesType, DictItemsType} {
		method(v, "__iter__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) { return Iter(t, args[0]) })
		method(v, "__len__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			return MakeInt(int64(args[0].(*dictView).d.Len())), nil
		})
		method(v, "__reversed__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			dv := args[0].(*dictView)
			return &dictIter{d: dv.d, kind: dv.kind, version: dv.d.version, rev: true}, nil
		})
		getset(v, "mapping", func(_ *Thread, x Object) (Object, error) {
			return &MappingProxy{m: x.(*dictView).d}, nil
		})
	}
	for _, v := range []*Type{DictKeysType, DictItemsType} {
		method(v, "isdisjoint", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if err := nargs("isdisjoint", args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			dv := args[0].(*dictView)
			disjoint := true
			err := Iterate(t, args[1], func(x Object) error {
				in, err := dv.PyContains(t, x)
				if err != nil {
					return err
				}
				if in {
					disjoint = false
					return ErrStop
				}
				return nil
			})
			return MakeBool(disjoint), err
		})
	}
}

// dictView is dict.keys(), .values() or .items().
type dictView struct {
	d    *Dict
	kind dictIterKind
}

func (v *dictView) Type() *Type {
	switch v.kind {
	case dictValues:
		return DictValuesType
	case dictItems:
		return DictItemsType
	}
	return DictKeysType
}

// PyIter iterates the view.
func (v *dictView) PyIter(*Thread) (Object, error) {
	return &dictIter{d: v.d, kind: v.kind, version: v.d.version}, nil
}

// PyLen is len(view).
func (v *dictView) PyLen(*Thread) (int, error) { return v.d.Len(), nil }

// PyContains is `x in view`.
func (v *dictView) PyContains(t *Thread, x Object) (bool, error) {
	switch v.kind {
	case dictKeys:
		_, ok, err := v.d.Get(t, x)
		return ok, err
	case dictItems:
		tu, ok := x.(*Tuple)
		if !ok || len(tu.items) != 2 {
			return false, nil
		}
		val, ok, err := v.d.Get(t, tu.items[0])
		if err != nil || !ok {
			return false, err
		}
		return Equal(t, val, tu.items[1])
	}
	found := false
	var err error
	v.d.Items(func(_, val Object) bool {
		var eq bool
		eq, err = Equal(t, val, x)
		if err != nil || eq {
			found = eq
			return false
		}
		return true
	})
	return found, err
}

// PyRepr renders dict_keys([...]).
func (v *dictView) PyRepr(t *Thread) (string, error) {
	var items []Object
	it := &dictIter{d: v.d, kind: v.kind, version: v.d.version}
	for {
		x, err := it.Next(t)
		if err != nil {
			return "", err
		}
		if x == nil {
			break
		}
		items = append(items, x)
	}
	s, err := reprSeq(t, v, "[", "]", items, false)
	if err != nil {
		return "", err
	}
	return v.Type().name + "(" + s + ")", nil
}

func (v *dictView) toSet(t *Thread) (*Set, error) {
	s := NewSet(false)
	return s, s.Update(t, v)
}

func (v *dictView) dictBinary(t *Thread, op syntax.Operator, other Object, reflected bool) (Object, error) {
	if v.kind == dictValues {
		return NotImplemented, nil
	}
	switch op {
	case syntax.BitAnd, syntax.BitOr, syntax.Sub, syntax.BitXor:
	default:
		return NotImplemented, nil
	}
	a, err := v.toSet(t)
	if err != nil {
		return nil, err
	}
	if !isIterable(other) {
		return NotImplemented, nil
	}
	b := NewSet(false)
	if ov, ok := other.(*dictView); ok {
		if b, err = ov.toSet(t); err != nil {
			return nil, err
		}
	} else if err := b.Update(t, other); err != nil {
		return nil, err
	}
	if reflected {
		a, b = b, a
	}
	return builtinBinary(t, op, a, b)
}

func (v *dictView) compare(t *Thread, op CmpOp, other Object) (Object, error) {
	if v.kind == dictValues {
		return NotImplemented, nil
	}
	var b *Set
	switch o := other.(type) {
	case *dictView:
		if o.kind == dictValues {
			return NotImplemented, nil
		}
		var err error
		if b, err = o.toSet(t); err != nil {
			return nil, err
		}
	case *Set:
		b = o
	default:
		return NotImplemented, nil
	}
	a, err := v.toSet(t)
	if err != nil {
		return nil, err
	}
	return setCompare(t, op, a, b)
}
