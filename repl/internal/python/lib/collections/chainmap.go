package collections

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// mapsOf returns self.maps.
func mapsOf(t *python.Thread, self obj) (obj, error) { return python.GetAttr(t, self, "maps") }

// mapsList returns the items of self.maps.
func mapsList(t *python.Thread, self obj) ([]obj, error) {
	maps, err := mapsOf(t, self)
	if err != nil {
		return nil, err
	}
	return python.ToSlice(t, maps)
}

// firstMap returns self.maps[0].
func firstMap(t *python.Thread, self obj) (obj, error) {
	maps, err := mapsOf(t, self)
	if err != nil {
		return nil, err
	}
	return getItem(t, maps, zero)
}

func (st *state) makeChainMap() {
	st.chainMap = newClass("ChainMap", "collections", []*python.Type{st.abc["MutableMapping"]},
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "ChainMap.__init__() got an unexpected keyword argument '%s'", kwargs[0].Name)
			}
			maps := append([]obj(nil), args[1:]...)
			if len(maps) == 0 {
				maps = []obj{python.NewDict(0)}
			}
			return python.None, python.SetAttr(t, args[0], "maps", python.NewList(maps))
		}),
		method("__missing__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.__missing__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			return nil, python.NewException(python.KeyErrorType, args[1])
		}),
		method("__getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.__getitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			for _, m := range maps {
				v, err := getItem(t, m, args[1])
				if err == nil {
					return v, nil
				}
				if !isKeyError(err) {
					return nil, err
				}
			}
			return callMethod(t, args[0], "__missing__", args[1])
		}),
		method("get", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "ChainMap.get", Pos: []string{"self", "key", "default"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			in, err := python.Contains(t, a[0], a[1])
			if err != nil {
				return nil, err
			}
			if in {
				return getItem(t, a[0], a[1])
			}
			if a[2] == nil {
				return python.None, nil
			}
			return a[2], nil
		}),
		method("__len__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			s := python.NewSet(false)
			for _, m := range maps {
				if err := s.Update(t, m); err != nil {
					return nil, err
				}
			}
			return python.MakeInt(int64(s.Len())), nil
		}),
		method("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			d := python.NewDict(8)
			for i := len(maps) - 1; i >= 0; i-- {
				err := python.Iterate(t, maps[i], func(k obj) error { return d.Set(t, k, python.None) })
				if err != nil {
					return nil, err
				}
			}
			return python.Iter(t, d)
		}),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			for _, m := range maps {
				in, err := python.Contains(t, m, args[1])
				if err != nil || in {
					return python.MakeBool(in), err
				}
			}
			return python.False, nil
		}),
		method("__bool__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			for _, m := range maps {
				b, err := truth(t, m)
				if err != nil || b {
					return python.MakeBool(b), err
				}
			}
			return python.False, nil
		}),
		method("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			if !st.reprs.enter(self) {
				return python.NewStr("..."), nil
			}
			defer st.reprs.leave(self)
			maps, err := mapsList(t, self)
			if err != nil {
				return nil, err
			}
			parts := make([]string, len(maps))
			for i, m := range maps {
				if parts[i], err = python.Repr(t, m); err != nil {
					return nil, err
				}
			}
			return python.NewStr(typeName(self) + "(" + strings.Join(parts, ", ") + ")"), nil
		}),
		classMethod("fromkeys", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "ChainMap.fromkeys() got some positional-only arguments passed as keyword arguments: '%s'", kwargs[0].Name)
			}
			if len(args) < 2 || len(args) > 3 {
				return nil, countError("ChainMap.fromkeys", len(args)-1, 1, 2)
			}
			fk, _ := python.DictType.Lookup("fromkeys")
			bound, err := python.GetAttr(t, python.DictType, "fromkeys")
			if err != nil || fk == nil {
				return nil, err
			}
			d, err := python.Call(t, bound, args[1:], nil)
			if err != nil {
				return nil, err
			}
			return python.Call(t, args[0], []obj{d}, nil)
		}),
		method("copy", st.chainCopy),
		method("__copy__", st.chainCopy),
		method("new_child", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("ChainMap.new_child", len(args)-1, 0, 1)
			}
			var m obj = python.None
			var rest []kwarg
			for _, kw := range kwargs {
				if kw.Name == "m" {
					if len(args) == 2 {
						return nil, python.Errorf(python.TypeErrorType, "ChainMap.new_child() got multiple values for argument 'm'")
					}
					m = kw.Value
				} else {
					rest = append(rest, kw)
				}
			}
			if len(args) == 2 {
				m = args[1]
			}
			if m == python.None {
				d := python.NewDict(len(rest))
				for _, kw := range rest {
					d.SetStr(kw.Name, kw.Value)
				}
				m = d
			} else if len(rest) > 0 {
				if _, err := python.CallMethod(t, m, "update", nil, rest); err != nil {
					return nil, err
				}
			}
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			return python.Call(t, args[0].Type(), append([]obj{m}, maps...), nil)
		}),
		property("parents", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			if len(maps) > 0 {
				maps = maps[1:]
			}
			return python.Call(t, args[0].Type(), maps, nil)
		}, nil),
		method("__setitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.__setitem__", args, kwargs, 2, 2); err != nil {
				return nil, err
			}
			m, err := firstMap(t, args[0])
			if err != nil {
				return nil, err
			}
			return python.None, python.SetItem(t, m, args[1], args[2])
		}),
		method("__delitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.__delitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			m, err := firstMap(t, args[0])
			if err != nil {
				return nil, err
			}
			if err := python.DelItem(t, m, args[1]); err != nil {
				if isKeyError(err) {
					return nil, firstMapKeyError(t, args[1])
				}
				return nil, err
			}
			return python.None, nil
		}),
		method("popitem", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.popitem", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			m, err := firstMap(t, args[0])
			if err != nil {
				return nil, err
			}
			r, err := callMethod(t, m, "popitem")
			if err != nil && isKeyError(err) {
				return nil, python.Errorf(python.KeyErrorType, "No keys found in the first mapping.")
			}
			return r, err
		}),
		method("pop", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "ChainMap.pop() got an unexpected keyword argument '%s'", kwargs[0].Name)
			}
			if len(args) < 2 {
				return nil, python.Errorf(python.TypeErrorType, "ChainMap.pop() missing 1 required positional argument: 'key'")
			}
			m, err := firstMap(t, args[0])
			if err != nil {
				return nil, err
			}
			r, err := callMethod(t, m, "pop", args[1:]...)
			if err != nil && isKeyError(err) {
				return nil, firstMapKeyError(t, args[1])
			}
			return r, err
		}),
		method("clear", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("ChainMap.clear", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			m, err := firstMap(t, args[0])
			if err != nil {
				return nil, err
			}
			return callMethod(t, m, "clear")
		}),
		method("__ior__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ior__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			m, err := firstMap(t, args[0])
			if err != nil {
				return nil, err
			}
			if _, err := callMethod(t, m, "update", args[1]); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
		method("__or__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__or__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if ok, err := st.isABC(t, args[1], "Mapping"); err != nil || !ok {
				return python.NotImplemented, err
			}
			c, err := callMethod(t, args[0], "copy")
			if err != nil {
				return nil, err
			}
			m, err := firstMap(t, c)
			if err != nil {
				return nil, err
			}
			if _, err := callMethod(t, m, "update", args[1]); err != nil {
				return nil, err
			}
			return c, nil
		}),
		method("__ror__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ror__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			if ok, err := st.isABC(t, args[1], "Mapping"); err != nil || !ok {
				return python.NotImplemented, err
			}
			m, err := python.Call(t, python.DictType, []obj{args[1]}, nil)
			if err != nil {
				return nil, err
			}
			maps, err := mapsList(t, args[0])
			if err != nil {
				return nil, err
			}
			for i := len(maps) - 1; i >= 0; i-- {
				if _, err := callMethod(t, m, "update", maps[i]); err != nil {
					return nil, err
				}
			}
			return python.Call(t, args[0].Type(), []obj{m}, nil)
		}),
		classGetItem,
	)
}

func firstMapKeyError(t *python.Thread, key obj) error {
	r, err := python.Repr(t, key)
	if err != nil {
		return err
	}
	return python.Errorf(python.KeyErrorType, "Key not found in the first mapping: %s", r)
}

// chainCopy is ChainMap.copy: self.__class__(self.maps[0].copy(),
// *self.maps[1:]).
func (st *state) chainCopy(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if _, err := argsOf("ChainMap.copy", args, kwargs, 0, 0); err != nil {
		return nil, err
	}
	maps, err := mapsList(t, args[0])
	if err != nil {
		return nil, err
	}
	if len(maps) == 0 {
		return nil, python.Errorf(python.IndexErrorType, "list index out of range")
	}
	first, err := callMethod(t, maps[0], "copy")
	if err != nil {
		return nil, err
	}
	return python.Call(t, args[0].Type(), append([]obj{first}, maps[1:]...), nil)
}
