package python

import "github.com/rlm-go/rlm/repl/internal/python/syntax"

func initMappingProxy() {
	mp := MappingProxyType
	mp.new = func(t *Thread, cls *Type, args []Object, kwargs []Kwarg) (Object, error) {
		v, err := UnpackArgs("mappingproxy", args, kwargs, 1, "mapping")
		if err != nil {
			return nil, err
		}
		m := v[0]
		isMap := false
		switch Unwrap(m).(type) {
		case *Dict, *MappingProxy:
			isMap = true
		default:
			_, k := m.Type().Lookup("keys")
			_, g := m.Type().Lookup("__getitem__")
			isMap = k && g && !m.Type().IsSubtype(ListType) && !m.Type().IsSubtype(TupleType)
		}
		if !isMap {
			return nil, Errorf(TypeErrorType, "mappingproxy() argument must be a mapping, not %s", typeName(m))
		}
		return &MappingProxy{m: m}, nil
	}
	for _, n := range []string{"keys", "values", "items", "copy", "__reversed__"} {
		n := n
		method(mp, n, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if len(args) != 1 || len(kwargs) > 0 {
				return nil, Errorf(TypeErrorType, "mappingproxy.%s() takes no arguments (%d given)", n, len(args)-1)
			}
			return CallMethod(t, args[0].(*MappingProxy).m, n, nil, nil)
		})
	}
	method(mp, "get", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		if len(kwargs) > 0 {
			return nil, Errorf(TypeErrorType, "mappingproxy.get() takes no keyword arguments")
		}
		return CallMethod(t, args[0].(*MappingProxy).m, "get", args[1:], nil)
	})
	method(mp, "__getitem__", func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
		return GetItem(t, args[0].(*MappingProxy).m, args[1])
	})
}

// Mapping returns the mapping the proxy views.
func (m *MappingProxy) Mapping() Object { return m.m }

// PyIter iterates the mapping's keys.
func (m *MappingProxy) PyIter(t *Thread) (Object, error) { return Iter(t, m.m) }

// PyLen is len(proxy).
func (m *MappingProxy) PyLen(t *Thread) (int, error) { return Len(t, m.m) }

// PyContains is key in proxy.
func (m *MappingProxy) PyContains(t *Thread, x Object) (bool, error) { return Contains(t, m.m, x) }

// PyGetItem is proxy[key].
func (m *MappingProxy) PyGetItem(t *Thread, key Object) (Object, error) { return GetItem(t, m.m, key) }

// PyRepr renders mappingproxy({...}).
func (m *MappingProxy) PyRepr(t *Thread) (string, error) {
	s, err := Repr(t, m.m)
	return "mappingproxy(" + s + ")", err
}

// PyStr is str(proxy): the mapping's str.
func (m *MappingProxy) PyStr(t *Thread) (string, error) { return StrOf(t, m.m) }

// PyCompare compares the mapping (proxy == {...}).
func (m *MappingProxy) PyCompare(t *Thread, op CmpOp, other Object) (Object, error) {
	if o, ok := other.(*MappingProxy); ok {
		other = o.m
	}
	return Compare(t, op, m.m, other)
}

// PyBinary is proxy | mapping and mapping | proxy: a new dict.
func (m *MappingProxy) PyBinary(t *Thread, op syntax.Operator, other Object, reflected bool) (Object, error) {
	if op != syntax.BitOr {
		return NotImplemented, nil
	}
	if o, ok := other.(*MappingProxy); ok {
		other = o.m
	}
	if _, ok := Unwrap(other).(*Dict); !ok {
		return NotImplemented, nil
	}
	a, b := m.m, other
	if reflected {
		a, b = other, m.m
	}
	d, err := Call(t, DictType, []Object{a}, nil)
	if err != nil {
		return nil, err
	}
	if _, err := CallMethod(t, d, "update", []Object{b}, nil); err != nil {
		return nil, err
	}
	return d, nil
}
