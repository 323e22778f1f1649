package python

import (
	"errors"
	"unicode/utf8"
)

// Iterator is a Go-implemented Python iterator: Next returns nil, nil when
// exhausted.
type Iterator interface {
	Object
	Next(t *Thread) (Object, error)
}

// errStopIteration lets an Iterate callback end the loop early.
var errStopIteration = errors.New("stop iteration")

// ErrStop ends an Iterate loop early without an error.
var ErrStop = errStopIteration

// Iter returns iter(x).
func Iter(t *Thread, x Object) (Object, error) {
	switch v := x.(type) {
	case *List:
		return &listIter{l: v}, nil
	case *Tuple:
		return &seqIter{items: v.items, typ: TupleIterType}, nil
	case *Str:
		return &strIter{s: v}, nil
	case *Range:
		return &rangeIter{r: v}, nil
	case *Dict:
		return &dictIter{d: v, kind: dictKeys, version: v.version}, nil
	case *Set:
		return &setIter{s: v, version: v.version, used: v.used}, nil
	case *Bytes:
		return &bytesIter{b: v.b}, nil
	case *ByteArray:
		return &byteArrayIter{ba: v}, nil
	case Iterator:
		return v, nil
	case *Instance:
		if m := v.cls.userMethod("__iter__"); m != nil {
			if m == None {
				return nil, Errorf(TypeErrorType, "'%s' object is not iterable", typeName(x))
			}
			it, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return nil, err
			}
			if !isIterator(it) {
				return nil, Errorf(TypeErrorType, "iter() returned non-iterator of type '%s'", typeName(it))
			}
			return it, nil
		}
		if v.base != nil {
			return Iter(t, v.base)
		}
		if m := v.cls.userMethod("__getitem__"); m != nil {
			return &getitemIter{obj: v}, nil
		}
		if m, owner := v.cls.lookupOwner("__iter__"); owner != nil && owner != ObjectType {
			// A Go-implemented library class's __iter__.
			return callMethod(t, m, v, nil, nil)
		}
	case *Type:
		if v.Hooks != nil && v.Hooks.Iter != nil {
			return v.Hooks.Iter(t, v)
		}
	case *hostStr:
		return v.iter(t)
	}
	if it, ok := x.(interface {
		PyIter(t *Thread) (Object, error)
	}); ok {
		return it.PyIter(t)
	}
	return nil, Errorf(TypeErrorType, "'%s' object is not iterable", typeName(x))
}

func isIterator(x Object) bool {
	if _, ok := x.(Iterator); ok {
		return true
	}
	if o, ok := x.(*Instance); ok {
		if _, owner := o.cls.lookupOwner("__next__"); owner != nil && owner != ObjectType {
			return true
		}
		_, ok := o.base.(Iterator)
		return ok
	}
	return false
}

func isIterable(x Object) bool {
	switch v := x.(type) {
	case *List, *Tuple, *Str, *Range, *Dict, *Set, *Bytes, *ByteArray, Iterator, *hostStr:
		return true
	case *Instance:
		if m, owner := v.cls.lookupOwner("__iter__"); owner != nil && owner != ObjectType {
			return m != None
		}
		return v.cls.userMethod("__getitem__") != nil || v.base != nil
	case *Type:
		return v.Hooks != nil && v.Hooks.Iter != nil
	}
	_, ok := x.(interface {
		PyIter(t *Thread) (Object, error)
	})
	return ok
}

// Next advances an iterator: nil, nil when it is exhausted.
func Next(t *Thread, it Object) (Object, error) {
	if i, ok := it.(Iterator); ok {
		return i.Next(t)
	}
	if o, ok := it.(*Instance); ok {
		if m := o.cls.userMethod("__next__"); m == nil {
			if base, ok := o.base.(Iterator); ok {
				return base.Next(t)
			}
		}
		m := o.cls.userMethod("__next__")
		if m == nil {
			if lm, owner := o.cls.lookupOwner("__next__"); owner != nil && owner != ObjectType {
				m = lm
			}
		}
		if m != nil {
			v, err := callMethod(t, m, o, nil, nil)
			if err != nil {
				if IsInstance(err, StopIterationType) {
					return nil, nil
				}
				return nil, err
			}
			return v, nil
		}
	}
	return nil, Errorf(TypeErrorType, "'%s' object is not an iterator", typeName(it))
}

// Iterate calls f for each item of x; f may return ErrStop to end early.
func Iterate(t *Thread, x Object, f func(Object) error) error {
	switch v := x.(type) {
	case *List:
		for i := 0; i < len(v.items); i++ {
			if err := f(v.items[i]); err != nil {
				return stopOK(err)
			}
		}
		return nil
	case *Tuple:
		for _, it := range v.items {
			if err := f(it); err != nil {
				return stopOK(err)
			}
		}
		return nil
	case *Str:
		if v.IsASCII() {
			for i := 0; i < len(v.s); i++ {
				if err := f(asciiChars[v.s[i]]); err != nil {
					return stopOK(err)
				}
			}
			return nil
		}
	case *Range:
		for i := int64(0); i < v.n; i++ {
			// A range needs no memory: bound its time (one step per
			// 1,024 items, as min and max count).
			if i&1023 == 1023 {
				if err := t.Tick(1); err != nil {
					return err
				}
			}
			if err := f(MakeInt(v.at(i))); err != nil {
				return stopOK(err)
			}
		}
		return nil
	}
	it, err := Iter(t, x)
	if err != nil {
		return err
	}
	for n := 1; ; n++ {
		if n&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return err
			}
		}
		v, err := Next(t, it)
		if err != nil {
			return err
		}
		if v == nil {
			return nil
		}
		if err := f(v); err != nil {
			return stopOK(err)
		}
	}
}

func stopOK(err error) error {
	if err == errStopIteration {
		return nil
	}
	return err
}

// ToSlice returns the items of an iterable (a copy for lists and tuples).
func ToSlice(t *Thread, x Object) ([]Object, error) {
	switch v := x.(type) {
	case *List:
		return append([]Object(nil), v.items...), nil
	case *Tuple:
		return v.items, nil
	case *bigRange:
		// list(), tuple() and sorted() ask the length first.
		if _, err := v.PyLen(t); err != nil {
			return nil, err
		}
	}
	var out []Object
	n := 0
	err := Iterate(t, x, func(o Object) error {
		out = append(out, o)
		n++
		if n&1023 == 0 {
			if err := t.grow(int64(n) * 16); err != nil {
				return err
			}
			return t.Tick(1)
		}
		return nil
	})
	return out, err
}

type listIter struct {
	l *List
	i int
}

func (*listIter) Type() *Type { return ListIterType }
func (it *listIter) Next(*Thread) (Object, error) {
	if it.l == nil || it.i >= len(it.l.items) {
		it.l = nil
		return nil, nil
	}
	v := it.l.items[it.i]
	it.i++
	return v, nil
}

type seqIter struct {
	items []Object
	i     int
	typ   *Type
}

func (it *seqIter) Type() *Type { return it.typ }
func (it *seqIter) Next(*Thread) (Object, error) {
	if it.i >= len(it.items) {
		return nil, nil
	}
	v := it.items[it.i]
	it.i++
	return v, nil
}

type strIter struct {
	s   *Str
	off int
}

func (it *strIter) Type() *Type {
	if it.s.IsASCII() {
		return StrIterType
	}
	return StrUnicodeIterType
}
func (it *strIter) Next(*Thread) (Object, error) {
	s := it.s.s
	if it.off >= len(s) {
		return nil, nil
	}
	if c := s[it.off]; c < 0x80 {
		it.off++
		return asciiChars[c], nil
	}
	r, w := utf8.DecodeRuneInString(s[it.off:])
	it.off += w
	if r == utf8.RuneError && w == 1 {
		return NewStr("\uFFFD"), nil
	}
	return &Str{s: string(r), meta: strMeta(1, 2)}, nil
}

type rangeIter struct {
	r *Range
	i int64
}

func (*rangeIter) Type() *Type { return RangeIterType }
func (it *rangeIter) Next(*Thread) (Object, error) {
	if it.i >= it.r.n {
		return nil, nil
	}
	v := it.r.at(it.i)
	it.i++
	return MakeInt(v), nil
}

type dictIterKind uint8

const (
	dictKeys dictIterKind = iota
	dictValues
	dictItems
)

type dictIter struct {
	d       *Dict
	kind    dictIterKind
	i       int
	version uint64
	rev     bool
	started bool
}

func (it *dictIter) Type() *Type {
	switch {
	case it.kind == dictValues && it.rev:
		return DictRevValueIterType
	case it.kind == dictValues:
		return DictValueIterType
	case it.kind == dictItems && it.rev:
		return DictRevItemIterType
	case it.kind == dictItems:
		return DictItemIterType
	case it.rev:
		return DictRevKeyIterType
	}
	return DictKeyIterType
}

func (it *dictIter) Next(*Thread) (Object, error) {
	k, v, err := it.next()
	if err != nil || k == nil {
		return nil, err
	}
	switch it.kind {
	case dictValues:
		return v, nil
	case dictItems:
		return NewTuple([]Object{k, v}), nil
	}
	return k, nil
}

// next advances the iterator to its next entry: its key and value (a nil
// key when it is exhausted).
func (it *dictIter) next() (Object, Object, error) {
	d := it.d
	if d == nil {
		return nil, nil, nil
	}
	if d.version != it.version {
		it.d = nil
		return nil, nil, Errorf(RuntimeErrorType, "dictionary changed size during iteration")
	}
	if it.rev {
		if !it.started {
			it.i = len(d.entries) - 1
			it.started = true
		}
		for it.i >= 0 && d.entries[it.i].key == nil {
			it.i--
		}
		if it.i < 0 {
			it.d = nil
			return nil, nil, nil
		}
	} else {
		for it.i < len(d.entries) && d.entries[it.i].key == nil {
			it.i++
		}
		if it.i >= len(d.entries) {
			it.d = nil
			return nil, nil, nil
		}
	}
	e := d.entries[it.i]
	if it.rev {
		it.i--
	} else {
		it.i++
	}
	return e.key, e.value, nil
}

// pairIterator is an iterator of 2-tuples that can hand out an item's two
// values without making its tuple: a loop whose target is two names,
// which unpacks each item at once, never sees the tuple, so it need not
// exist (asPairs says which iterators can).
type pairIterator interface {
	nextPair(t *Thread) (a, b Object, err error) // a nil: exhausted
}

// asPairs returns it as a pairIterator when its items are 2-tuples made
// for the occasion: a dict's items() iterator or an enumerate object.
func asPairs(it Object) pairIterator {
	switch x := it.(type) {
	case *dictIter:
		if x.kind == dictItems {
			return x
		}
	case *enumerateIter:
		return x
	}
	return nil
}

func (it *dictIter) nextPair(*Thread) (Object, Object, error) { return it.next() }

type setIter struct {
	s       *Set
	i       int
	version uint64
	used    int
}

func (*setIter) Type() *Type { return SetIterType }
func (it *setIter) Next(*Thread) (Object, error) {
	s := it.s
	if s == nil {
		return nil, nil
	}
	if s.used != it.used {
		it.s = nil
		return nil, Errorf(RuntimeErrorType, "Set changed size during iteration")
	}
	for it.i <= s.mask {
		e := s.table[it.i]
		it.i++
		if e.key != nil && e.key != setDummy {
			return e.key, nil
		}
	}
	it.s = nil
	return nil, nil
}

type bytesIter struct {
	b string
	i int
}

func (*bytesIter) Type() *Type { return BytesIterType }
func (it *bytesIter) Next(*Thread) (Object, error) {
	if it.i >= len(it.b) {
		return nil, nil
	}
	v := it.b[it.i]
	it.i++
	return MakeInt(int64(v)), nil
}

// byteArrayIter iterates a bytearray as it is when each item is asked.
type byteArrayIter struct {
	ba *ByteArray
	i  int
}

func (*byteArrayIter) Type() *Type { return ByteArrayIterType }
func (it *byteArrayIter) Next(*Thread) (Object, error) {
	if it.ba == nil || it.i >= len(it.ba.b) {
		it.ba = nil
		return nil, nil
	}
	v := it.ba.b[it.i]
	it.i++
	return MakeInt(int64(v)), nil
}

// getitemIter iterates an object with __getitem__ from 0 until IndexError.
type getitemIter struct {
	obj  Object
	i    int64
	done bool
}

func (*getitemIter) Type() *Type { return SeqIterType }
func (it *getitemIter) Next(t *Thread) (Object, error) {
	if it.done {
		return nil, nil
	}
	v, err := GetItem(t, it.obj, MakeInt(it.i))
	if err != nil {
		if IsInstance(err, IndexErrorType) || IsInstance(err, StopIterationType) {
			it.done = true
			return nil, nil
		}
		return nil, err
	}
	it.i++
	return v, nil
}

// callIter is iter(callable, sentinel).
type callIter struct {
	fn, sentinel Object
	done         bool
}

func (*callIter) Type() *Type { return CallableIterType }
func (it *callIter) Next(t *Thread) (Object, error) {
	if it.done {
		return nil, nil
	}
	v, err := Call(t, it.fn, nil, nil)
	if err != nil {
		if IsInstance(err, StopIterationType) {
			it.done = true
			return nil, nil
		}
		return nil, err
	}
	eq, err := Equal(t, v, it.sentinel)
	if err != nil {
		return nil, err
	}
	if eq {
		it.done = true
		return nil, nil
	}
	return v, nil
}

// NewIterator wraps a Go function as a Python iterator of type typ
// (library use: itertools). next returns nil, nil at the end.
func NewIterator(typ *Type, next func(t *Thread) (Object, error)) Object {
	return &funcIter{typ: typ, next: next}
}

type funcIter struct {
	typ  *Type
	next func(t *Thread) (Object, error)
	done bool
}

func (it *funcIter) Type() *Type { return it.typ }
func (it *funcIter) Next(t *Thread) (Object, error) {
	if it.done {
		return nil, nil
	}
	v, err := it.next(t)
	if v == nil || err != nil {
		it.done = true
	}
	return v, err
}
