package python

import (
	"math/big"
	"strings"
)

// getSlice returns obj[start:stop], as GetItem with a slice object of
// no step, without allocating that object for an exact str or list (no
// code sees it).
func getSlice(t *Thread, obj, start, stop Object) (Object, error) {
	sl := Slice{Start: start, Stop: stop, Step: None}
	switch o := obj.(type) {
	case *Str:
		return strSlice(t, o, &sl)
	case *List:
		return listSlice(t, o, &sl)
	}
	return GetItem(t, obj, &Slice{Start: start, Stop: stop, Step: None})
}

// listSlice returns o[s].
func listSlice(t *Thread, o *List, s *Slice) (Object, error) {
	start, _, step, n, err := sliceIndices(t, s, len(o.items))
	if err != nil {
		return nil, err
	}
	return NewList(stepItems(o.items, start, step, n)), nil
}

// strSlice returns o[s]: o itself for the whole of it.
func strSlice(t *Thread, o *Str, s *Slice) (Object, error) {
	start, _, step, n, err := sliceIndices(t, s, o.Len())
	if err != nil {
		return nil, err
	}
	if step == 1 {
		if start == 0 && n == o.Len() {
			return o, nil
		}
		return o.Slice(start, start+n), nil
	}
	return strStep(o, start, step, n), nil
}

// GetItem returns obj[key].
func GetItem(t *Thread, obj, key Object) (Object, error) {
	switch o := obj.(type) {
	case *List:
		if i, ok := key.(Int); ok {
			n := int64(len(o.items))
			j := int64(i)
			if j < 0 {
				j += n
			}
			if j < 0 || j >= n {
				return nil, Errorf(IndexErrorType, "list index out of range")
			}
			return o.items[j], nil
		}
		if s, ok := key.(*Slice); ok {
			return listSlice(t, o, s)
		}
		i, err := normIndex(t, key, len(o.items), "list")
		if err != nil {
			return nil, err
		}
		return o.items[i], nil
	case *Tuple:
		if s, ok := key.(*Slice); ok {
			start, _, step, n, err := sliceIndices(t, s, len(o.items))
			if err != nil {
				return nil, err
			}
			if start == 0 && step == 1 && n == len(o.items) {
				return o, nil
			}
			return NewTuple(stepItems(o.items, start, step, n)), nil
		}
		i, err := normIndex(t, key, len(o.items), "tuple")
		if err != nil {
			return nil, err
		}
		return o.items[i], nil
	case *Str:
		if s, ok := key.(*Slice); ok {
			return strSlice(t, o, s)
		}
		i, err := normIndex(t, key, o.Len(), "string")
		if err != nil {
			return nil, err
		}
		return o.At(i), nil
	case *Dict:
		v, ok, err := o.Get(t, key)
		if err != nil {
			return nil, err
		}
		if ok {
			return v, nil
		}
		if o.missing != nil {
			return o.missing(t, o, key)
		}
		return nil, NewException(KeyErrorType, key)
	case *Range:
		if s, ok := key.(*Slice); ok {
			return bigRangeSlice(t, big.NewInt(o.start), big.NewInt(o.step), big.NewInt(o.n), s)
		}
		i, err := normIndex(t, key, int(o.n), "range object")
		if err != nil {
			return nil, err
		}
		return MakeInt(o.at(int64(i))), nil
	case *Bytes:
		if s, ok := key.(*Slice); ok {
			start, _, step, n, err := sliceIndices(t, s, len(o.b))
			if err != nil {
				return nil, err
			}
			b := make([]byte, n)
			for k := 0; k < n; k++ {
				b[k] = o.b[start+k*step]
			}
			return NewBytes(string(b)), nil
		}
		i, err := normIndex(t, key, len(o.b), "index")
		if err != nil {
			return nil, err
		}
		return MakeInt(int64(o.b[i])), nil
	case *ByteArray:
		if s, ok := key.(*Slice); ok {
			start, _, step, n, err := sliceIndices(t, s, len(o.b))
			if err != nil {
				return nil, err
			}
			b := make([]byte, n)
			for k := 0; k < n; k++ {
				b[k] = o.b[start+k*step]
			}
			return &ByteArray{b: b}, nil
		}
		i, err := normIndex(t, key, len(o.b), "bytearray")
		if err != nil {
			return nil, err
		}
		return MakeInt(int64(o.b[i])), nil
	case *Instance:
		if m := o.cls.userMethod("__getitem__"); m != nil {
			return callMethod(t, m, o, []Object{key}, nil)
		}
		if o.base != nil {
			if d, ok := o.base.(*Dict); ok {
				v, found, err := d.Get(t, key)
				if err != nil {
					return nil, err
				}
				if found {
					return v, nil
				}
				if m := o.cls.userMethod("__missing__"); m != nil {
					return callMethod(t, m, o, []Object{key}, nil)
				}
				if d.missing != nil {
					return d.missing(t, d, key)
				}
				return nil, NewException(KeyErrorType, key)
			}
			return GetItem(t, o.base, key)
		}
	case *Type:
		if o.Hooks != nil && o.Hooks.GetItem != nil {
			return o.Hooks.GetItem(t, o, key)
		}
		if m, ok := o.Lookup("__class_getitem__"); ok {
			b, err := bind(t, m, nil, o)
			if err != nil {
				return nil, err
			}
			return Call(t, b, []Object{key}, nil)
		}
		if o.builtin {
			return NewGenericAlias(o, key), nil
		}
		return nil, Errorf(TypeErrorType, "type '%s' is not subscriptable", o.name)
	case *hostStr:
		return o.getItem(t, key)
	}
	if g, ok := obj.(interface {
		PyGetItem(t *Thread, key Object) (Object, error)
	}); ok {
		return g.PyGetItem(t, key)
	}
	return nil, Errorf(TypeErrorType, "'%s' object is not subscriptable", typeName(obj))
}

func stepItems(items []Object, start, step, n int) []Object {
	out := make([]Object, n)
	if step == 1 {
		copy(out, items[start:start+n])
		return out
	}
	for k := 0; k < n; k++ {
		out[k] = items[start+k*step]
	}
	return out
}

// SetItem sets obj[key] = v.
func SetItem(t *Thread, obj, key, v Object) error {
	switch o := obj.(type) {
	case *List:
		if s, ok := key.(*Slice); ok {
			return listSetSlice(t, o, s, v)
		}
		i, err := normIndex(t, key, len(o.items), "list assignment")
		if err != nil {
			return err
		}
		o.items[i] = v
		return nil
	case *Dict:
		return o.Set(t, key, v)
	case *ByteArray:
		return bytearraySetItem(t, o, key, v)
	case *Instance:
		if m := o.cls.userMethod("__setitem__"); m != nil {
			_, err := callMethod(t, m, o, []Object{key, v}, nil)
			return err
		}
		if o.base != nil {
			switch o.base.(type) {
			case *List, *Dict, *ByteArray:
				return SetItem(t, o.base, key, v)
			}
		}
	}
	if s, ok := obj.(interface {
		PySetItem(t *Thread, key, v Object) error
	}); ok {
		return s.PySetItem(t, key, v)
	}
	return Errorf(TypeErrorType, "'%s' object does not support item assignment", typeName(obj))
}

func listSetSlice(t *Thread, l *List, s *Slice, v Object) error {
	// Checked before the iteration; only the step is needed before the
	// indices are normalized again below.
	_, _, step, _, err := sliceIndices(t, s, len(l.items))
	if err != nil {
		return err
	}
	items, err := ToSlice(t, v)
	if err != nil {
		if IsInstance(err, TypeErrorType) && !isIterable(v) {
			if step == 1 {
				return Errorf(TypeErrorType, "can only assign an iterable")
			}
			return Errorf(TypeErrorType, "must assign iterable to extended slice")
		}
		return err
	}
	if v == Object(l) {
		items = append([]Object(nil), items...)
	}
	// The iteration may have changed the list: normalize again.
	start, stop, step, n, err := sliceIndices(t, s, len(l.items))
	if err != nil {
		return err
	}
	if step == 1 {
		if stop < start {
			stop = start
		}
		out := make([]Object, 0, len(l.items)-(stop-start)+len(items))
		out = append(out, l.items[:start]...)
		out = append(out, items...)
		out = append(out, l.items[stop:]...)
		l.items = out
		return nil
	}
	if len(items) != n {
		return Errorf(ValueErrorType, "attempt to assign sequence of size %d to extended slice of size %d", len(items), n)
	}
	for k := 0; k < n; k++ {
		l.items[start+k*step] = items[k]
	}
	return nil
}

// DelItem deletes obj[key].
func DelItem(t *Thread, obj, key Object) error {
	switch o := obj.(type) {
	case *ByteArray:
		return bytearrayDelItem(t, o, key)
	case *List:
		if s, ok := key.(*Slice); ok {
			start, stop, step, n, err := sliceIndices(t, s, len(o.items))
			if err != nil {
				return err
			}
			if step == 1 {
				if stop > start {
					o.items = append(o.items[:start:start], o.items[stop:]...)
				}
				return nil
			}
			del := map[int]bool{}
			for k := 0; k < n; k++ {
				del[start+k*step] = true
			}
			out := o.items[:0:0]
			for i, x := range o.items {
				if !del[i] {
					out = append(out, x)
				}
			}
			o.items = out
			return nil
		}
		i, err := normIndex(t, key, len(o.items), "list assignment")
		if err != nil {
			return err
		}
		o.items = append(o.items[:i:i], o.items[i+1:]...)
		return nil
	case *Dict:
		_, found, err := o.Delete(t, key)
		if err != nil {
			return err
		}
		if !found {
			return NewException(KeyErrorType, key)
		}
		return nil
	case *Instance:
		if m := o.cls.userMethod("__delitem__"); m != nil {
			_, err := callMethod(t, m, o, []Object{key}, nil)
			return err
		}
		if o.base != nil {
			switch o.base.(type) {
			case *List, *Dict, *ByteArray:
				return DelItem(t, o.base, key)
			}
		}
	}
	if s, ok := obj.(interface {
		PyDelItem(t *Thread, key Object) error
	}); ok {
		return s.PyDelItem(t, key)
	}
	return Errorf(TypeErrorType, "'%s' object doesn't support item deletion", typeName(obj))
}

// Contains returns x in c.
func Contains(t *Thread, c, x Object) (bool, error) {
	switch o := c.(type) {
	case *Str:
		s, ok := x.(*Str)
		if !ok {
			if h, ok := x.(*hostStr); ok {
				text, err := h.materialize(t)
				if err != nil {
					return false, err
				}
				return strings.Contains(o.s, text.s), nil
			}
			return false, Errorf(TypeErrorType, "'in <string>' requires string as left operand, not %s", typeName(x))
		}
		return strings.Contains(o.s, s.s), nil
	case *List:
		return seqContains(t, o.items, x)
	case *Tuple:
		return seqContains(t, o.items, x)
	case *Dict:
		_, ok, err := o.Get(t, x)
		return ok, err
	case *Set:
		return o.Contains(t, x)
	case *Range:
		if n, ok := AsInt64(x); ok {
			if o.n == 0 {
				return false, nil
			}
			if o.step > 0 && (n < o.start || n >= o.stop) || o.step < 0 && (n > o.start || n <= o.stop) {
				return false, nil
			}
			return (n-o.start)%o.step == 0, nil
		}
		if _, ok := x.(*BigInt); ok {
			return false, nil // past every int64 bound of the range
		}
	case *Bytes:
		if v, ok := intValue(x); ok {
			n, fits := AsInt64(v)
			if !fits || n < 0 || n > 255 {
				return false, Errorf(ValueErrorType, "byte must be in range(0, 256)")
			}
			return strings.IndexByte(o.b, byte(n)) >= 0, nil
		}
		if b, ok := bytesLike(x); ok {
			return strings.Contains(o.b, b), nil
		}
		return false, Errorf(TypeErrorType, "a bytes-like object is required, not '%s'", typeName(x))
	case *Instance:
		if m := o.cls.userMethod("__contains__"); m != nil {
			r, err := callMethod(t, m, o, []Object{x}, nil)
			if err != nil {
				return false, err
			}
			return TruthE(t, r)
		}
		if o.base != nil {
			return Contains(t, o.base, x)
		}
	case *Type:
		if o.Hooks != nil && o.Hooks.Contains != nil {
			return o.Hooks.Contains(t, o, x)
		}
	case *hostStr:
		return o.contains(t, x)
	}
	if h, ok := c.(interface {
		PyContains(t *Thread, x Object) (bool, error)
	}); ok {
		return h.PyContains(t, x)
	}
	found := false
	err := Iterate(t, c, func(y Object) error {
		eq, err := Equal(t, y, x)
		if err != nil {
			return err
		}
		if eq || identical(x, y) {
			found = true
			return errStopIteration
		}
		return nil
	})
	if err == errStopIteration {
		err = nil
	}
	if err != nil && IsInstance(err, TypeErrorType) && !isIterable(c) {
		return false, Errorf(TypeErrorType, "argument of type '%s' is not iterable", typeName(c))
	}
	return found, err
}

func seqContains(t *Thread, items []Object, x Object) (bool, error) {
	for i := 0; i < len(items); i++ {
		y := items[i]
		if identical(x, y) {
			return true, nil
		}
		eq, err := Equal(t, y, x)
		if err != nil {
			return false, err
		}
		if eq {
			return true, nil
		}
	}
	return false, nil
}
