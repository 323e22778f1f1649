package functools

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// makeCachedProperty makes functools.cached_property, a non-data
// descriptor caching its value in the instance's __dict__.
func (m *module) makeCachedProperty() {
	var notFound = python.NewList(nil)
	m.cachedProperty = newClass("cached_property", nil, map[string]python.BuiltinFunc{
		"__init__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "cached_property.__init__", Pos: []string{"self", "func"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			self, fn := a[0], a[1]
			doc, err := python.GetAttr(t, fn, "__doc__")
			if err != nil {
				return nil, err
			}
			mod, err := python.GetAttr(t, fn, "__module__")
			if err != nil {
				return nil, err
			}
			for _, kv := range []struct {
				k string
				v obj
			}{{"func", fn}, {"attrname", python.None}, {"__doc__", doc}, {"__module__", mod}} {
				if err := python.SetAttr(t, self, kv.k, kv.v); err != nil {
					return nil, err
				}
			}
			return python.None, nil
		},
		"__set_name__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "cached_property.__set_name__", Pos: []string{"self", "owner", "name"}, Required: 3}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			cur, err := python.GetAttr(t, a[0], "attrname")
			if err != nil {
				return nil, err
			}
			if cur == python.None {
				return python.None, python.SetAttr(t, a[0], "attrname", a[2])
			}
			if ne, err := python.Equal(t, cur, a[2]); err != nil {
				return nil, err
			} else if !ne {
				r1, _ := python.Repr(t, cur)
				r2, _ := python.Repr(t, a[2])
				return nil, python.Errorf(python.TypeErrorType, "Cannot assign the same cached_property to two different names (%s and %s).", r1, r2)
			}
			return python.None, nil
		},
		"__get__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "cached_property.__get__", Pos: []string{"self", "instance", "owner"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			self, inst := a[0], a[1]
			if inst == python.None {
				return self, nil
			}
			name, err := python.GetAttr(t, self, "attrname")
			if err != nil {
				return nil, err
			}
			if name == python.None {
				return nil, python.Errorf(python.TypeErrorType, "Cannot use cached_property instance without calling __set_name__ on it.")
			}
			nameRepr, err := python.Repr(t, name)
			if err != nil {
				return nil, err
			}
			cache, err := python.GetAttr(t, inst, "__dict__")
			if err != nil {
				if python.IsInstance(err, python.AttributeErrorType) {
					return nil, python.Errorf(python.TypeErrorType, "No '__dict__' attribute on %s instance to cache %s property.", python.StrRepr(python.TypeName(inst)), nameRepr)
				}
				return nil, err
			}
			val, err := python.CallMethod(t, cache, "get", []obj{name, notFound}, nil)
			if err != nil {
				return nil, err
			}
			if val != obj(notFound) {
				return val, nil
			}
			fn, err := python.GetAttr(t, self, "func")
			if err != nil {
				return nil, err
			}
			if val, err = python.Call(t, fn, []obj{inst}, nil); err != nil {
				return nil, err
			}
			if err := python.SetItem(t, cache, name, val); err != nil {
				if python.IsInstance(err, python.TypeErrorType) {
					return nil, python.Errorf(python.TypeErrorType, "The '__dict__' attribute on %s instance does not support item assignment for caching %s property.", python.StrRepr(python.TypeName(inst)), nameRepr)
				}
				return nil, err
			}
			return val, nil
		},
	}, nil)
	m.cachedProperty.SetAttr("__class_getitem__", python.NewClassMethod(m.cachedProperty, "__class_getitem__", classGetItem))
}

// The operations total_ordering derives from each root, in CPython's
// order: name, then how it is computed from the root's result r.
var orderingConvert = map[string][]struct {
	name string
	// negate: use `not r`; combine: "and ne" (r and self != other), "or
	// eq" (r or self == other), "" (nothing).
	negate  bool
	combine string
}{
	"__lt__": {{"__gt__", true, "and ne"}, {"__le__", false, "or eq"}, {"__ge__", true, ""}},
	"__le__": {{"__ge__", true, "or eq"}, {"__lt__", false, "and ne"}, {"__gt__", true, ""}},
	"__gt__": {{"__lt__", true, "and ne"}, {"__ge__", false, "or eq"}, {"__le__", true, ""}},
	"__ge__": {{"__le__", true, "or eq"}, {"__gt__", false, "and ne"}, {"__lt__", true, ""}},
}

// totalOrdering implements functools.total_ordering(cls).
func totalOrdering(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "total_ordering", Pos: []string{"cls"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	clsObj := a[0]
	cls, isType := clsObj.(*python.Type)
	var roots []string
	for _, op := range []string{"__lt__", "__le__", "__gt__", "__ge__"} {
		v, err := getAttrOr(t, clsObj, op)
		if err != nil {
			return nil, err
		}
		base, _ := python.ObjectType.Lookup(op)
		if v != nil && !sameAttr(v, base) {
			roots = append(roots, op)
		}
	}
	if len(roots) == 0 {
		return nil, python.Errorf(python.ValueErrorType, "must define at least one ordering operation: < > <= >=")
	}
	// max(roots): __lt__ > __le__ > __gt__ > __ge__.
	root := roots[0]
	for _, r := range roots[1:] {
		if r > root {
			root = r
		}
	}
	for _, conv := range orderingConvert[root] {
		has := false
		for _, r := range roots {
			if r == conv.name {
				has = true
			}
		}
		if has {
			continue
		}
		conv := conv
		fn := func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) != 2 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: 'other'", conv.name)
			}
			self, other := args[0], args[1]
			rootFn, err := python.GetAttr(t, self.Type(), root)
			if err != nil {
				return nil, err
			}
			r, err := python.Call(t, rootFn, []obj{self, other}, nil)
			if err != nil || r == python.NotImplemented {
				return r, err
			}
			b, err := python.TruthE(t, r)
			if err != nil {
				return nil, err
			}
			if conv.negate {
				b = !b
				r = python.MakeBool(b)
			}
			switch conv.combine {
			case "and ne":
				if !b {
					return r, nil
				}
				return python.Compare(t, python.CmpNe, self, other)
			case "or eq":
				if b {
					return r, nil
				}
				return python.Compare(t, python.CmpEq, self, other)
			}
			return r, nil
		}
		var method obj
		if isType {
			method = python.NewMethod(cls, conv.name, fn)
		} else {
			method = python.NewBuiltin(conv.name, fn)
		}
		if err := python.SetAttr(t, clsObj, conv.name, method); err != nil {
			return nil, err
		}
	}
	return clsObj, nil
}

// getAttrOr is getattr(x, name, None) (nil when missing).
func getAttrOr(t *python.Thread, x obj, name string) (obj, error) {
	ok, err := python.HasAttr(t, x, name)
	if err != nil || !ok {
		return nil, err
	}
	return python.GetAttr(t, x, name)
}

// sameAttr reports whether a class attribute read off the class is
// object's own (getattr(cls, op) is getattr(object, op)).
func sameAttr(v, base obj) bool { return v == base }

// keyWrapper is the object cmp_to_key returns and the keys it makes.
type keyWrapper struct {
	typ *python.Type
	cmp obj
	obj obj // nil: the key function itself
}

func (k *keyWrapper) Type() *python.Type { return k.typ }

// PyCall makes a key: K(obj).
func (k *keyWrapper) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	var o obj
	if len(args) > 1 {
		return nil, python.Errorf(python.TypeErrorType, "K() takes at most 1 argument (%d given)", len(args)+len(kwargs))
	}
	if len(args) == 1 {
		o = args[0]
	}
	for _, kw := range kwargs {
		if kw.Name != "obj" {
			return nil, python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for K()", kw.Name)
		}
		if o != nil {
			return nil, python.Errorf(python.TypeErrorType, "argument for K() given by name ('obj') and position (1)")
		}
		o = kw.Value
	}
	if o == nil {
		return nil, python.Errorf(python.TypeErrorType, "K() missing required argument 'obj' (pos 1)")
	}
	return &keyWrapper{typ: k.typ, cmp: k.cmp, obj: o}, nil
}

// PyCompare compares cmp(a.obj, b.obj) with 0.
func (k *keyWrapper) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	o, ok := other.(*keyWrapper)
	if !ok || k.obj == nil || o.obj == nil {
		return nil, python.Errorf(python.TypeErrorType, "other argument must be K instance")
	}
	r, err := python.Call(t, k.cmp, []obj{k.obj, o.obj}, nil)
	if err != nil {
		return nil, err
	}
	return python.Compare(t, op, r, python.MakeInt(0))
}

func (m *module) makeKeyWrapper() {
	c := python.NewBuiltinType("KeyWrapper", "functools", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		return nil, python.Errorf(python.TypeErrorType, "cannot create 'functools.KeyWrapper' instances")
	})
	c.SetFinal()
	c.SetAttr("__hash__", python.None)
	c.AddGetSet("obj", func(t *python.Thread, x obj) (obj, error) {
		k := x.(*keyWrapper)
		if k.obj == nil {
			return nil, python.Errorf(python.AttributeErrorType, "obj")
		}
		return k.obj, nil
	}, func(t *python.Thread, x, v obj) error {
		x.(*keyWrapper).obj = v
		return nil
	})
	m.keyWrapper = c
}

// cmpToKey implements functools.cmp_to_key(mycmp).
func (m *module) cmpToKey(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := python.UnpackArgs("cmp_to_key", args, kwargs, 1, "mycmp")
	if err != nil {
		return nil, err
	}
	return &keyWrapper{typ: m.keyWrapper, cmp: a[0]}, nil
}
