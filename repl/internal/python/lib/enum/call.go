package enum

import (
	"sort"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

var (
	addOp = syntax.Add
	addOr = syntax.BitOr
)

func sortStrings(s []string) { sort.Strings(s) }

// lookupValue is Enum.__new__(cls, value): the member whose value is
// value, or _missing_'s answer, or ValueError.
func (st *state) lookupValue(t *python.Thread, cls *python.Type, value obj) (obj, error) {
	if value.Type() == cls {
		return value, nil
	}
	i, err := enumInfo(cls)
	if err != nil {
		return nil, err
	}
	if _, err := python.Hash(t, value); err == nil {
		if m, ok, err := i.byValue.Get(t, value); err != nil {
			return nil, err
		} else if ok {
			return m, nil
		}
	} else if !python.IsInstance(err, python.TypeErrorType) {
		return nil, err
	} else {
		var found obj
		var ferr error
		i.members.Items(func(_, m obj) bool {
			eq, err := python.Equal(t, memberValue(m), value)
			if err != nil {
				ferr = err
				return false
			}
			if eq {
				found = m
				return false
			}
			return true
		})
		if ferr != nil || found != nil {
			return found, ferr
		}
	}
	if i.members.Len() == 0 {
		r, _ := python.Repr(t, cls)
		return nil, python.Errorf(python.TypeErrorType, "%s has no members defined", r)
	}
	missing, err := python.GetAttr(t, cls, "_missing_")
	if err != nil {
		return nil, err
	}
	result, exc := python.Call(t, missing, []obj{value}, nil)
	if exc == nil {
		if ok, err := python.IsInstanceOf(t, result, cls); err != nil {
			return nil, err
		} else if ok {
			return result, nil
		}
		if i.isFlag && i.boundary == st.eject {
			if _, isInt := python.IntValue(result); isInt {
				return result, nil
			}
		}
	}
	if _, isPy := python.AsException(exc); exc != nil && !isPy {
		return nil, exc // a stop, not an exception
	}
	vr, err := python.Repr(t, value)
	if err != nil {
		return nil, err
	}
	valueErr := python.Errorf(python.ValueErrorType, "%s is not a valid %s", vr, cls.Qualname())
	if exc == nil && result == python.None {
		return nil, valueErr
	}
	if exc == nil {
		rr, err := python.Repr(t, result)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "error in %s._missing_: returned %s instead of None or a valid member", cls.Name(), rr)
	}
	return nil, exc
}

// call is EnumType.__call__: a value lookup on a class with members, the
// functional API otherwise.
func (st *state) call(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
	names := []string{"value", "names", "module", "qualname", "type", "start", "boundary"}
	vals := map[string]obj{}
	if len(args) > 0 {
		vals["value"] = args[0]
	}
	if len(args) > 1 {
		vals["names"] = args[1]
	}
	var extra []obj
	if len(args) > 2 {
		extra = args[2:]
	}
	for _, kw := range kwargs {
		known := false
		for _, n := range names {
			if n == kw.Name {
				known = true
			}
		}
		if !known {
			return nil, python.Errorf(python.TypeErrorType, "EnumType.__call__() got an unexpected keyword argument '%s'", kw.Name)
		}
		if _, dup := vals[kw.Name]; dup {
			return nil, python.Errorf(python.TypeErrorType, "EnumType.__call__() got multiple values for argument '%s'", kw.Name)
		}
		vals[kw.Name] = kw.Value
	}
	value, ok := vals["value"]
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "EnumType.__call__() missing 1 required positional argument: 'value'")
	}
	i, err := enumInfo(cls)
	if err != nil {
		return nil, err
	}
	namesArg := vals["names"]
	if i.members.Len() > 0 {
		if namesArg != nil {
			nonEmpty, err := python.TruthE(t, namesArg)
			if err != nil {
				return nil, err
			}
			if nonEmpty {
				value = python.NewTuple(append([]obj{value, namesArg}, extra...))
			}
		}
		return st.lookupValue(t, cls, value)
	}
	typ := vals["type"]
	if (namesArg == nil || namesArg == python.None) && (typ == nil || typ == python.None) {
		r, _ := python.Repr(t, cls)
		return nil, python.Errorf(python.TypeErrorType, "%s has no members; specify `names=()` if you meant to create a new, empty, enum", r)
	}
	return st.create(t, cls, value, namesArg, vals)
}

// create is EnumType._create_: the functional API.
func (st *state) create(t *python.Thread, cls *python.Type, className, names obj, vals map[string]obj) (obj, error) {
	cn, ok := className.(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "type.__new__() argument 1 must be str, not %s", python.TypeName(className))
	}
	bases := []*python.Type{cls}
	if typ := vals["type"]; typ != nil && typ != python.None {
		tt, ok := typ.(*python.Type)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "bases must be types")
		}
		bases = []*python.Type{tt, cls}
	}
	_, firstEnum, err := st.mixins(t, cn.String(), bases)
	if err != nil {
		return nil, err
	}
	start := vals["start"]
	if start == nil {
		start = python.MakeInt(1)
	}
	ns := python.NewDict(8)
	set := func(name, v obj) error {
		if old, ok, err := ns.Get(t, name); err != nil {
			return err
		} else if ok {
			r1, _ := python.Repr(t, name)
			r2, _ := python.Repr(t, old)
			return python.Errorf(python.TypeErrorType, "%s already defined as %s", r1, r2)
		}
		return ns.Set(t, name, v)
	}
	if names == nil || names == python.None {
		names = python.NewTuple(nil)
	}
	if s, ok := names.(*python.Str); ok {
		var items []obj
		for _, f := range strings.Fields(strings.ReplaceAll(s.String(), ",", " ")) {
			items = append(items, python.NewStr(f))
		}
		names = python.NewList(items)
	}
	var seq []obj
	switch v := names.(type) {
	case *python.List:
		seq = v.Items()
	case *python.Tuple:
		seq = v.Items()
	}
	if len(seq) > 0 && python.IsStr(seq[0]) {
		gnv, err := python.GetAttr(t, firstEnum, "_generate_next_value_")
		if err != nil {
			return nil, err
		}
		var last []obj
		pairs := make([]obj, 0, len(seq))
		for count, n := range seq {
			v, err := st.generate(t, gnv, python.StrValue(n), start, count, last)
			if err != nil {
				return nil, err
			}
			last = append(last, v)
			pairs = append(pairs, python.NewTuple([]obj{n, v}))
		}
		names = python.NewList(pairs)
	}
	err = python.Iterate(t, names, func(item obj) error {
		if python.IsStr(item) {
			v, err := python.GetItem(t, names, item)
			if err != nil {
				return err
			}
			return set(item, v)
		}
		p, err := python.ToSlice(t, item)
		if err != nil {
			return err
		}
		if len(p) != 2 {
			if len(p) < 2 {
				return python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(p))
			}
			return python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
		}
		return set(p[0], p[1])
	})
	if err != nil {
		return nil, err
	}
	module := vals["module"]
	if module == nil || module == python.None {
		module = python.NewStr("__main__")
		if v, ok := t.Globals().GetStr("__name__"); ok {
			module = v
		}
	}
	ns.SetStr("__module__", module)
	if q := vals["qualname"]; q != nil && q != python.None {
		ns.SetStr("__qualname__", q)
	}
	c, err := python.NewClass(t, st.meta, cn.String(), bases, ns)
	if err != nil {
		return nil, err
	}
	if b := vals["boundary"]; b != nil && b != python.None {
		if i := infoOf(c); i != nil {
			i.boundary = b
			if i.isFlag {
				c.Dict().SetStr("_boundary_", b)
			}
		}
	}
	return c, nil
}
