package python

import (
	"math"
	"math/big"
)

// map, filter, zip, enumerate and reversed: lazy iterators, as in Python 3.

type mapIter struct {
	fn    Object
	iters []Object
	done  bool
}

func (*mapIter) Type() *Type { return MapType }

func mapNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := noKwargs("map", kwargs); err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, Errorf(TypeErrorType, "map() must have at least two arguments.")
	}
	m := &mapIter{fn: args[0]}
	for _, a := range args[1:] {
		it, err := Iter(t, a)
		if err != nil {
			return nil, err
		}
		m.iters = append(m.iters, it)
	}
	return m, nil
}

func (m *mapIter) Next(t *Thread) (Object, error) {
	if m.done {
		return nil, nil
	}
	args := make([]Object, len(m.iters))
	for i, it := range m.iters {
		v, err := Next(t, it)
		if err != nil {
			m.done = true
			return nil, err
		}
		if v == nil {
			m.done = true
			return nil, nil
		}
		args[i] = v
	}
	if err := t.tick(); err != nil {
		return nil, err
	}
	return Call(t, m.fn, args, nil)
}

type filterIter struct {
	fn   Object
	it   Object
	done bool
}

func (*filterIter) Type() *Type { return FilterType }

func filterNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("filter", args, kwargs, 2, 2); err != nil {
		return nil, err
	}
	it, err := Iter(t, args[1])
	if err != nil {
		return nil, err
	}
	return &filterIter{fn: args[0], it: it}, nil
}

func (f *filterIter) Next(t *Thread) (Object, error) {
	for !f.done {
		v, err := Next(t, f.it)
		if err != nil || v == nil {
			f.done = true
			return nil, err
		}
		if err := t.tick(); err != nil {
			return nil, err
		}
		keep := v
		if f.fn != None {
			if keep, err = Call(t, f.fn, []Object{v}, nil); err != nil {
				return nil, err
			}
		}
		b, err := TruthE(t, keep)
		if err != nil {
			return nil, err
		}
		if b {
			return v, nil
		}
	}
	return nil, nil
}

type zipIter struct {
	iters  []Object
	strict bool
	done   bool
}

func (*zipIter) Type() *Type { return ZipType }

func zipNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	z := &zipIter{}
	for _, kw := range kwargs {
		if kw.Name != "strict" {
			return nil, Errorf(TypeErrorType, "'%s' is an invalid keyword argument for zip()", kw.Name)
		}
		b, err := TruthE(t, kw.Value)
		if err != nil {
			return nil, err
		}
		z.strict = b
	}
	for i, a := range args {
		it, err := Iter(t, a)
		if err != nil {
			if IsInstance(err, TypeErrorType) && !isIterable(a) {
				return nil, Errorf(TypeErrorType, "'%s' object is not iterable", typeName(a))
			}
			_ = i
			return nil, err
		}
		z.iters = append(z.iters, it)
	}
	return z, nil
}

func (z *zipIter) Next(t *Thread) (Object, error) {
	if z.done || len(z.iters) == 0 {
		return nil, nil
	}
	items := make([]Object, len(z.iters))
	for i, it := range z.iters {
		v, err := Next(t, it)
		if err != nil {
			z.done = true
			return nil, err
		}
		if v == nil {
			z.done = true
			if z.strict {
				if i > 0 {
					plural := "s"
					if i == 1 {
						plural = ""
					}
					return nil, Errorf(ValueErrorType, "zip() argument %d is shorter than argument%s 1%s", i+1, plural, rangeSuffix(i))
				}
				for j := 1; j < len(z.iters); j++ {
					w, err := Next(t, z.iters[j])
					if err != nil {
						return nil, err
					}
					if w != nil {
						plural := "s"
						if j == 1 {
							plural = ""
						}
						return nil, Errorf(ValueErrorType, "zip() argument %d is longer than argument%s 1%s", j+1, plural, rangeSuffix(j))
					}
				}
			}
			return nil, nil
		}
		items[i] = v
	}
	return NewTuple(items), nil
}

func rangeSuffix(i int) string {
	if i == 1 {
		return ""
	}
	return "-" + itoa(i)
}

type enumerateIter struct {
	it   Object
	n    Object
	done bool
}

func (*enumerateIter) Type() *Type { return EnumerateType }

func enumerateNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	a, err := UnpackArgs("enumerate", args, kwargs, 1, "iterable", "start")
	if err != nil {
		return nil, err
	}
	it, err := Iter(t, a[0])
	if err != nil {
		return nil, err
	}
	var start Object = Int(0)
	if a[1] != nil {
		iv, ok := intValue(a[1])
		if !ok {
			return nil, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(a[1]))
		}
		start = iv
	}
	return &enumerateIter{it: it, n: start}, nil
}

func (e *enumerateIter) Next(t *Thread) (Object, error) {
	if e.done {
		return nil, nil
	}
	v, err := Next(t, e.it)
	if err != nil || v == nil {
		e.done = true
		return nil, err
	}
	n := e.n
	e.n = intAdd(n, Int(1))
	return NewTuple([]Object{n, v}), nil
}

func (e *enumerateIter) nextPair(t *Thread) (Object, Object, error) {
	if e.done {
		return nil, nil, nil
	}
	v, err := Next(t, e.it)
	if err != nil || v == nil {
		e.done = true
		return nil, nil, err
	}
	n := e.n
	e.n = intAdd(n, Int(1))
	return n, v, nil
}

type reversedIter struct {
	items []Object
	list  *List
	i     int
	s     *Str
	seq   Object // a sequence read through __getitem__ as it goes
}

func (r *reversedIter) Type() *Type {
	if r.list != nil {
		return ListRevIterType
	}
	return ReversedType
}

func reversedNew(t *Thread, _ *Type, args []Object, kwargs []Kwarg) (Object, error) {
	if err := nargs("reversed", args, kwargs, 1, 1); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case *List:
		return &reversedIter{list: v, i: len(v.items) - 1}, nil
	case *Tuple:
		return &reversedIter{items: v.items, i: len(v.items) - 1}, nil
	case *Range:
		// range(last, start - step, -step), computed without overflow.
		if v.n == 0 {
			return &rangeIter{r: v}, nil
		}
		if v.step != math.MinInt64 {
			if stop := v.start - v.step; (v.step > 0) == (stop < v.start) {
				return &rangeIter{r: &Range{start: v.at(v.n - 1), stop: stop, step: -v.step, n: v.n}}, nil
			}
		}
		return (&bigRange{start: big.NewInt(v.start), stop: big.NewInt(v.stop), step: big.NewInt(v.step), n: big.NewInt(v.n)}).PyReversed(t)
	case *Str:
		return &reversedIter{s: v, i: v.Len() - 1}, nil
	case *Dict:
		return &dictIter{d: v, kind: dictKeys, version: v.version, rev: true}, nil
	case *dictView:
		return &dictIter{d: v.d, kind: v.kind, version: v.d.version, rev: true}, nil
	case *Bytes:
		items := make([]Object, len(v.b))
		for i := range v.b {
			items[i] = MakeInt(int64(v.b[i]))
		}
		return &reversedIter{items: items, i: len(items) - 1}, nil
	case *Instance:
		if m := v.cls.userMethod("__reversed__"); m == None {
			return nil, Errorf(TypeErrorType, "'%s' object is not reversible", typeName(v))
		} else if m != nil {
			return callMethod(t, m, v, nil, nil)
		}
		if v.base != nil {
			return reversedNew(t, nil, []Object{v.base}, nil)
		}
		if v.cls.userMethod("__len__") != nil && v.cls.userMethod("__getitem__") != nil {
			n, err := Len(t, v)
			if err != nil {
				return nil, err
			}
			return &reversedIter{seq: v, i: n - 1}, nil
		}
	}
	if r, ok := args[0].(interface {
		PyReversed(t *Thread) (Object, error)
	}); ok {
		return r.PyReversed(t)
	}
	if m, owner := args[0].Type().lookupOwner("__reversed__"); owner != nil && owner != ObjectType {
		return callMethod(t, m, args[0], nil, nil)
	}
	return nil, Errorf(TypeErrorType, "'%s' object is not reversible", typeName(args[0]))
}

func (r *reversedIter) Next(t *Thread) (Object, error) {
	if r.i < 0 {
		return nil, nil
	}
	i := r.i
	r.i--
	switch {
	case r.list != nil:
		if i >= len(r.list.items) {
			r.i = -1
			return nil, nil
		}
		return r.list.items[i], nil
	case r.s != nil:
		return r.s.At(i), nil
	case r.seq != nil:
		v, err := GetItem(t, r.seq, MakeInt(int64(i)))
		if err != nil {
			r.i = -1
			if IsInstance(err, IndexErrorType) || IsInstance(err, StopIterationType) {
				return nil, nil
			}
			return nil, err
		}
		return v, nil
	}
	return r.items[i], nil
}
