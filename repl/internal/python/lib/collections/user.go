package collections

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// dataOf returns self.data.
func dataOf(t *python.Thread, self obj) (obj, error) { return python.GetAttr(t, self, "data") }

// delegate makes a method returning f(self.data, args...).
func delegate(name string, n int, f func(t *python.Thread, data obj, args []obj) (obj, error)) member {
	return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if n >= 0 {
			if _, err := argsOf(name, args, kwargs, n, n); err != nil {
				return nil, err
			}
		}
		d, err := dataOf(t, args[0])
		if err != nil {
			return nil, err
		}
		return f(t, d, args[1:])
	})
}

// callData makes a method returning self.data.name(*args, **kwargs).
func callData(name string) member {
	return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		d, err := dataOf(t, args[0])
		if err != nil {
			return nil, err
		}
		return python.CallMethod(t, d, name, args[1:], kwargs)
	})
}

func (st *state) makeUserDict() {
	st.userDict = newClass("UserDict", "collections", []*python.Type{st.abc["MutableMapping"]},
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("UserDict.__init__", len(args)-1, 0, 1)
			}
			self := args[0]
			if err := python.SetAttr(t, self, "data", python.NewDict(0)); err != nil {
				return nil, err
			}
			if len(args) == 2 && args[1] != python.None {
				if _, err := callMethod(t, self, "update", args[1]); err != nil {
					return nil, err
				}
			}
			if len(kwargs) > 0 {
				d := python.NewDict(len(kwargs))
				for _, kw := range kwargs {
					d.SetStr(kw.Name, kw.Value)
				}
				if _, err := callMethod(t, self, "update", d); err != nil {
					return nil, err
				}
			}
			return python.None, nil
		}),
		delegate("__len__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			n, err := python.Len(t, d)
			return python.MakeInt(int64(n)), err
		}),
		method("__getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("UserDict.__getitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			in, err := python.Contains(t, d, args[1])
			if err != nil {
				return nil, err
			}
			if in {
				return getItem(t, d, args[1])
			}
			cls := args[0].Type()
			if m, ok := cls.Lookup("__missing__"); ok {
				return python.Call(t, m, []obj{args[0], args[1]}, nil)
			}
			return nil, python.NewException(python.KeyErrorType, args[1])
		}),
		delegate("__setitem__", 2, func(t *python.Thread, d obj, a []obj) (obj, error) {
			return python.None, python.SetItem(t, d, a[0], a[1])
		}),
		delegate("__delitem__", 1, func(t *python.Thread, d obj, a []obj) (obj, error) {
			return python.None, python.DelItem(t, d, a[0])
		}),
		delegate("__iter__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) { return python.Iter(t, d) }),
		delegate("__contains__", 1, func(t *python.Thread, d obj, a []obj) (obj, error) {
			in, err := python.Contains(t, d, a[0])
			return python.MakeBool(in), err
		}),
		method("get", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "UserDict.get", Pos: []string{"self", "key", "default"}, Required: 2}).Values(args, kwargs)
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
		delegate("__repr__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			r, err := python.Repr(t, d)
			return python.NewStr(r), err
		}),
		method("__or__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__or__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			other := args[1]
			if other.Type().IsSubtype(st.userDict) {
				if other, err = dataOf(t, other); err != nil {
					return nil, err
				}
			} else if python.Unwrap(other).Type() != python.DictType {
				return python.NotImplemented, nil
			}
			r, err := python.Binary(t, syntax.BitOr, d, other)
			if err != nil {
				return nil, err
			}
			return python.Call(t, args[0].Type(), []obj{r}, nil)
		}),
		method("__ror__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ror__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			other := args[1]
			if other.Type().IsSubtype(st.userDict) {
				if other, err = dataOf(t, other); err != nil {
					return nil, err
				}
			} else if python.Unwrap(other).Type() != python.DictType {
				return python.NotImplemented, nil
			}
			r, err := python.Binary(t, syntax.BitOr, other, d)
			if err != nil {
				return nil, err
			}
			return python.Call(t, args[0].Type(), []obj{r}, nil)
		}),
		method("__ior__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__ior__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			other := args[1]
			if other.Type().IsSubtype(st.userDict) {
				if other, err = dataOf(t, other); err != nil {
					return nil, err
				}
			}
			if _, err := python.Inplace(t, syntax.BitOr, d, other); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
		method("copy", st.userDictCopy),
		method("__copy__", st.userDictCopy),
		classMethod("fromkeys", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "UserDict.fromkeys", Pos: []string{"cls", "iterable", "value"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			v := a[2]
			if v == nil {
				v = python.None
			}
			d, err := python.Call(t, a[0], nil, nil)
			if err != nil {
				return nil, err
			}
			err = python.Iterate(t, a[1], func(k obj) error { return python.SetItem(t, d, k, v) })
			return d, err
		}),
		classGetItem,
	)
}

// userDictCopy is UserDict.copy: a new instance of the class with a copy
// of the data (and of the instance's other attributes).
func (st *state) userDictCopy(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	self := args[0]
	d, err := dataOf(t, self)
	if err != nil {
		return nil, err
	}
	if self.Type() == st.userDict {
		c, err := callMethod(t, d, "copy")
		if err != nil {
			return nil, err
		}
		return python.Call(t, st.userDict, []obj{c}, nil)
	}
	// copy.copy(self) with an empty data, then update from self.
	c := python.NewInstance(self.Type(), nil)
	if inst, ok := self.(*python.Instance); ok {
		inst.Attrs().Items(func(k, v obj) bool {
			_ = c.Attrs().Set(t, k, v)
			return true
		})
	}
	c.Attrs().SetStr("data", python.NewDict(0))
	if _, err := callMethod(t, c, "update", self); err != nil {
		return nil, err
	}
	return c, nil
}

func (st *state) makeUserList() {
	other := func(t *python.Thread, x obj) (obj, error) {
		if x.Type().IsSubtype(st.userList) {
			return dataOf(t, x)
		}
		return x, nil
	}
	cmp := func(name string, op python.CmpOp) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf(name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o, err := other(t, args[1])
			if err != nil {
				return nil, err
			}
			return python.Compare(t, op, d, o)
		})
	}
	wrap := func(t *python.Thread, self, items obj) (obj, error) {
		return python.Call(t, self.Type(), []obj{items}, nil)
	}
	st.userList = newClass("UserList", "collections", []*python.Type{st.abc["MutableSequence"]},
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) > 2 {
				return nil, countError("UserList.__init__", len(args)-1, 0, 1)
			}
			data := python.NewList(nil)
			if len(args) == 2 && args[1] != python.None {
				src := args[1]
				switch {
				case python.Unwrap(src).Type() == python.ListType && src.Type() == python.ListType:
					data = python.NewList(append([]obj(nil), src.(*python.List).Items()...))
				case src.Type().IsSubtype(st.userList):
					d, err := dataOf(t, src)
					if err != nil {
						return nil, err
					}
					items, err := python.ToSlice(t, d)
					if err != nil {
						return nil, err
					}
					data = python.NewList(items)
				default:
					items, err := python.ToSlice(t, src)
					if err != nil {
						return nil, err
					}
					data = python.NewList(items)
				}
			}
			return python.None, python.SetAttr(t, args[0], "data", data)
		}),
		delegate("__repr__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			r, err := python.Repr(t, d)
			return python.NewStr(r), err
		}),
		cmp("__lt__", python.CmpLt), cmp("__le__", python.CmpLe), cmp("__eq__", python.CmpEq),
		cmp("__gt__", python.CmpGt), cmp("__ge__", python.CmpGe),
		delegate("__contains__", 1, func(t *python.Thread, d obj, a []obj) (obj, error) {
			in, err := python.Contains(t, d, a[0])
			return python.MakeBool(in), err
		}),
		delegate("__len__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			n, err := python.Len(t, d)
			return python.MakeInt(int64(n)), err
		}),
		method("__getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__getitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			v, err := getItem(t, d, args[1])
			if err != nil {
				return nil, err
			}
			if _, isSlice := args[1].(*python.Slice); isSlice {
				return wrap(t, args[0], v)
			}
			return v, nil
		}),
		delegate("__setitem__", 2, func(t *python.Thread, d obj, a []obj) (obj, error) {
			return python.None, python.SetItem(t, d, a[0], a[1])
		}),
		delegate("__delitem__", 1, func(t *python.Thread, d obj, a []obj) (obj, error) {
			return python.None, python.DelItem(t, d, a[0])
		}),
		method("__add__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__add__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o := args[1]
			if o.Type().IsSubtype(st.userList) {
				od, err := dataOf(t, o)
				if err != nil {
					return nil, err
				}
				r, err := python.Binary(t, syntax.Add, d, od)
				if err != nil {
					return nil, err
				}
				return wrap(t, args[0], r)
			}
			if _, ok := python.Unwrap(o).(*python.List); ok {
				r, err := python.Binary(t, syntax.Add, d, python.Unwrap(o))
				if err != nil {
					return nil, err
				}
				return wrap(t, args[0], r)
			}
			items, err := python.ToSlice(t, o)
			if err != nil {
				return nil, err
			}
			r, err := python.Binary(t, syntax.Add, d, python.NewList(items))
			if err != nil {
				return nil, err
			}
			return wrap(t, args[0], r)
		}),
		method("__radd__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__radd__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o := args[1]
			if o.Type().IsSubtype(st.userList) {
				if o, err = dataOf(t, o); err != nil {
					return nil, err
				}
			} else if _, ok := python.Unwrap(o).(*python.List); !ok {
				items, err := python.ToSlice(t, o)
				if err != nil {
					return nil, err
				}
				o = python.NewList(items)
			}
			r, err := python.Binary(t, syntax.Add, python.Unwrap(o), d)
			if err != nil {
				return nil, err
			}
			return wrap(t, args[0], r)
		}),
		method("__iadd__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__iadd__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o, err := other(t, args[1])
			if err != nil {
				return nil, err
			}
			if _, ok := python.Unwrap(o).(*python.List); !ok {
				items, err := python.ToSlice(t, o)
				if err != nil {
					return nil, err
				}
				o = python.NewList(items)
			}
			if _, err := python.Inplace(t, syntax.Add, d, o); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
		method("__mul__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__mul__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			r, err := python.Binary(t, syntax.Mult, d, args[1])
			if err != nil {
				return nil, err
			}
			return wrap(t, args[0], r)
		}),
		method("__rmul__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__rmul__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			r, err := python.Binary(t, syntax.Mult, d, args[1])
			if err != nil {
				return nil, err
			}
			return wrap(t, args[0], r)
		}),
		method("__imul__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__imul__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			if _, err := python.Inplace(t, syntax.Mult, d, args[1]); err != nil {
				return nil, err
			}
			return args[0], nil
		}),
		method("__copy__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			self := args[0]
			d, err := dataOf(t, self)
			if err != nil {
				return nil, err
			}
			items, err := python.ToSlice(t, d)
			if err != nil {
				return nil, err
			}
			c := python.NewInstance(self.Type(), nil)
			if inst, ok := self.(*python.Instance); ok {
				inst.Attrs().Items(func(k, v obj) bool {
					_ = c.Attrs().Set(t, k, v)
					return true
				})
			}
			c.Attrs().SetStr("data", python.NewList(items))
			return c, nil
		}),
		callData("append"), callData("insert"), callData("pop"), callData("remove"), callData("clear"),
		callData("reverse"), callData("sort"),
		method("copy", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("UserList.copy", args, kwargs, 0, 0); err != nil {
				return nil, err
			}
			return wrap(t, args[0], args[0])
		}),
		method("count", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			return python.CallMethod(t, d, "count", args[1:], kwargs)
		}),
		method("index", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			return python.CallMethod(t, d, "index", args[1:], kwargs)
		}),
		method("extend", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("UserList.extend", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o, err := other(t, args[1])
			if err != nil {
				return nil, err
			}
			return callMethod(t, d, "extend", o)
		}),
		classGetItem,
	)
}

// userStringWrapped are the str methods whose UserString versions return
// an instance of the class; the others return what str's do.
var userStringWrapped = []string{"capitalize", "casefold", "center", "expandtabs", "ljust", "lower", "lstrip",
	"removeprefix", "removesuffix", "replace", "rjust", "rstrip", "strip", "swapcase", "title", "translate",
	"upper", "zfill"}

var userStringPlain = []string{"count", "encode", "endswith", "find", "format", "format_map", "index",
	"isalpha", "isalnum", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
	"isprintable", "isspace", "istitle", "isupper", "join", "partition", "rfind", "rindex", "rpartition",
	"rsplit", "split", "splitlines", "startswith"}

func (st *state) makeUserString() {
	// unwrap turns UserString arguments into their str.
	unwrapArgs := func(t *python.Thread, args []obj) ([]obj, error) {
		out := make([]obj, len(args))
		for i, a := range args {
			out[i] = a
			if a.Type().IsSubtype(st.userString) {
				d, err := dataOf(t, a)
				if err != nil {
					return nil, err
				}
				out[i] = d
			}
		}
		return out, nil
	}
	wrap := func(t *python.Thread, self, s obj) (obj, error) {
		return python.Call(t, self.Type(), []obj{s}, nil)
	}
	var members []member
	strMethod := func(name string, wrapped bool) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			rest, err := unwrapArgs(t, args[1:])
			if err != nil {
				return nil, err
			}
			r, err := python.CallMethod(t, d, name, rest, kwargs)
			if err != nil || !wrapped {
				return r, err
			}
			return wrap(t, args[0], r)
		})
	}
	for _, n := range userStringWrapped {
		members = append(members, strMethod(n, true))
	}
	for _, n := range userStringPlain {
		members = append(members, strMethod(n, false))
	}
	binary := func(name string, op syntax.Operator, reflected bool) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf(name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o := args[1]
			if o.Type().IsSubtype(st.userString) {
				if o, err = dataOf(t, o); err != nil {
					return nil, err
				}
			} else if op == syntax.Add && !python.IsStr(o) {
				if o, err = callStr(t, o); err != nil {
					return nil, err
				}
			}
			var r obj
			if reflected {
				r, err = python.Binary(t, op, o, d)
			} else {
				r, err = python.Binary(t, op, d, o)
			}
			if err != nil {
				return nil, err
			}
			return wrap(t, args[0], r)
		})
	}
	cmp := func(name string, op python.CmpOp) member {
		return method(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf(name, args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			o := args[1]
			if o.Type().IsSubtype(st.userString) {
				if o, err = dataOf(t, o); err != nil {
					return nil, err
				}
			}
			return python.Compare(t, op, d, o)
		})
	}
	members = append(members,
		method("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := (&python.Signature{Name: "UserString.__init__", Pos: []string{"self", "seq"}, Required: 2}).Values(args, kwargs)
			if err != nil {
				return nil, err
			}
			seq := a[1]
			var data obj
			switch {
			case python.IsStr(seq):
				data = seq
			case seq.Type().IsSubtype(st.userString):
				if data, err = dataOf(t, seq); err != nil {
					return nil, err
				}
			default:
				if data, err = callStr(t, seq); err != nil {
					return nil, err
				}
			}
			return python.None, python.SetAttr(t, a[0], "data", data)
		}),
		delegate("__str__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) { return callStr(t, d) }),
		delegate("__repr__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			r, err := python.Repr(t, d)
			return python.NewStr(r), err
		}),
		delegate("__int__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			return python.Call(t, python.IntType, []obj{d}, nil)
		}),
		delegate("__float__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			return python.Call(t, python.FloatType, []obj{d}, nil)
		}),
		delegate("__hash__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			h, err := python.Hash(t, d)
			return python.MakeInt(h), err
		}),
		delegate("__getnewargs__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			s, err := getItem(t, d, &python.Slice{Start: python.None, Stop: python.None, Step: python.None})
			return python.NewTuple([]obj{s}), err
		}),
		cmp("__eq__", python.CmpEq), cmp("__lt__", python.CmpLt), cmp("__le__", python.CmpLe),
		cmp("__gt__", python.CmpGt), cmp("__ge__", python.CmpGe),
		method("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__contains__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			c := args[1]
			if c.Type().IsSubtype(st.userString) {
				if c, err = dataOf(t, c); err != nil {
					return nil, err
				}
			}
			in, err := python.Contains(t, d, c)
			return python.MakeBool(in), err
		}),
		delegate("__len__", 0, func(t *python.Thread, d obj, _ []obj) (obj, error) {
			n, err := python.Len(t, d)
			return python.MakeInt(int64(n)), err
		}),
		method("__getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if _, err := argsOf("__getitem__", args, kwargs, 1, 1); err != nil {
				return nil, err
			}
			d, err := dataOf(t, args[0])
			if err != nil {
				return nil, err
			}
			v, err := getItem(t, d, args[1])
			if err != nil {
				return nil, err
			}
			return wrap(t, args[0], v)
		}),
		binary("__add__", syntax.Add, false),
		binary("__radd__", syntax.Add, true),
		binary("__mul__", syntax.Mult, false),
		binary("__rmul__", syntax.Mult, false),
		binary("__mod__", syntax.Mod, false),
		binary("__rmod__", syntax.Mod, true),
		classGetItem,
	)
	st.userString = newClass("UserString", "collections", []*python.Type{st.abc["Sequence"]}, members...)
	st.userString.SetAttr("maketrans", python.NewStaticMethod(python.NewBuiltin("maketrans", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		m, err := python.GetAttr(t, python.StrType, "maketrans")
		if err != nil {
			return nil, err
		}
		return python.Call(t, m, args, kwargs)
	})))
}

// callStr is str(x).
func callStr(t *python.Thread, x obj) (obj, error) {
	s, err := python.StrOf(t, x)
	if err != nil {
		return nil, err
	}
	return python.NewStr(s), nil
}
