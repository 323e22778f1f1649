package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// bytearraySetItem is ba[key] = v.
func bytearraySetItem(t *Thread, o *ByteArray, key, v Object) error {
	return baAssign(t, o, key, v, false)
}

// bytearrayDelItem is del ba[key].
func bytearrayDelItem(t *Thread, o *ByteArray, key Object) error {
	return baAssign(t, o, key, nil, true)
}

// baAssign is ba[key] = v, or del ba[key] (del).
func baAssign(t *Thread, o *ByteArray, key, v Object, del bool) error {
	var start, stop, step, n int
	if s, ok := key.(*Slice); ok {
		var err error
		if start, stop, step, n, err = sliceIndices(t, s, len(o.b)); err != nil {
			return err
		}
	} else {
		i, k, err := bIndex(t, key)
		switch {
		case err != nil:
			return err
		case k == notInt:
			return Errorf(TypeErrorType, "bytearray indices must be integers or slices, not %s", typeName(key))
		case k == bigInt:
			return Errorf(IndexErrorType, "cannot fit 'int' into an index-sized integer")
		}
		// The value is converted before the index is checked (its
		// __index__ may change the length).
		var c byte
		if !del {
			if c, err = bByte(t, v); err != nil {
				return err
			}
		}
		if i < 0 {
			i += int64(len(o.b))
		}
		if i < 0 || i >= int64(len(o.b)) {
			return Errorf(IndexErrorType, "bytearray index out of range")
		}
		if !del {
			o.b[i] = c
			return nil
		}
		start, stop, step, n = int(i), int(i)+1, 1, 1
	}
	var src string
	if !del {
		if b, ok := unwrap(v).(*ByteArray); ok && b != o {
			src = bview(b.b)
		} else {
			if isNumber(v) || isStrLike(v) {
				return Errorf(TypeErrorType, "can assign only bytes, buffers, or iterables of ints in range(0, 256)")
			}
			b, _, err := bytesFromObject(t, "bytearray", v)
			if err != nil {
				return err
			}
			src = string(b)
		}
	}
	if step == 1 {
		if stop < start {
			stop = start
		}
		return baSetSlice(t, o, start, stop, src)
	}
	if src == "" {
		// An empty value deletes an extended slice.
		return baDelExtended(t, o, start, step, n)
	}
	if len(src) != n {
		return Errorf(ValueErrorType, "attempt to assign bytes of size %d to extended slice of size %d", len(src), n)
	}
	for k := 0; k < n; k++ {
		o.b[start+k*step] = src[k]
	}
	return nil
}

// isStrLike reports whether x is a str (PyUnicode_Check).
func isStrLike(x Object) bool {
	switch v := x.(type) {
	case *Str, *hostStr:
		return true
	case *Instance:
		_, ok := v.base.(*Str)
		return ok
	}
	return false
}

// baSetSlice replaces o[lo:hi] with src as CPython's linear slice
// assignment does (src must not be a view of o).
func baSetSlice(t *Thread, o *ByteArray, lo, hi int, src string) error {
	growth := len(src) - (hi - lo)
	size := len(o.b)
	switch {
	case growth < 0:
		if lo == 0 {
			// Drop the head by advancing the logical start.
			if err := baDelFront(t, o, -growth); err != nil {
				return err
			}
			copy(o.b, src)
			return nil
		}
		copy(o.b[lo:], src)
		copy(o.b[lo+len(src):], o.b[hi:])
		return baResize(t, o, size+growth)
	case growth > 0:
		if err := baResize(t, o, size+growth); err != nil {
			return err
		}
		copy(o.b[hi+growth:], o.b[hi:size])
	}
	copy(o.b[lo:], src)
	return nil
}

// baDelExtended deletes the n items start, start+step, ... (step != 1).
func baDelExtended(t *Thread, o *ByteArray, start, step, n int) error {
	if n <= 0 {
		return nil
	}
	if step < 0 {
		start += step * (n - 1)
		step = -step
	}
	w := start
	for r := start; r < len(o.b); r++ {
		if r >= start && (r-start)%step == 0 && (r-start)/step < n {
			continue
		}
		o.b[w] = o.b[r]
		w++
	}
	return baResize(t, o, len(o.b)-n)
}

// bytearrayBinary is ba op b (ba on the left).
func bytearrayBinary(t *Thread, op syntax.Operator, x *ByteArray, b Object) (Object, error) {
	switch op {
	case syntax.Add:
		if r, ok, err := tryReflected(t, b, op, x); ok {
			return r, err
		}
		y, ok := bytesLike(b)
		if !ok {
			if isMemoryView(b) {
				return nil, NotSupported("memoryview()", "slice the bytes directly")
			}
			return nil, Errorf(TypeErrorType, "can't concat %s to bytearray", typeName(b))
		}
		n := int64(len(x.b)) + int64(len(y))
		if err := t.grow(n); err != nil {
			return nil, err
		}
		out := make([]byte, n)
		copy(out, x.b)
		copy(out[len(x.b):], y)
		return newByteArray(out), nil
	case syntax.Mult:
		if r, ok, err := tryReflected(t, b, op, x); ok {
			return r, err
		}
		n, k, err := bIndex(t, b)
		if err != nil {
			return nil, err
		}
		if k == notInt {
			return nil, Errorf(TypeErrorType, "can't multiply sequence by non-int of type '%s'", typeName(b))
		}
		out, err := baRepeat(t, bview(x.b), n, k)
		if err != nil {
			return nil, err
		}
		return newByteArray(out), nil
	case syntax.Mod:
		return bytesFormat(t, bview(x.b), b, true)
	}
	return NotImplemented, nil
}

// tryReflected calls b's reflected method of op with a when b is a user
// object defining one: Python tries it before the sequence operation of a
// bytearray (which has no number slots). ok reports a result.
func tryReflected(t *Thread, b Object, op syntax.Operator, a Object) (Object, bool, error) {
	o, isInst := b.(*Instance)
	if !isInst {
		return nil, false, nil
	}
	m := o.cls.userMethod(binNames[op][1])
	if m == nil {
		return nil, false, nil
	}
	r, err := callMethod(t, m, o, []Object{a}, nil)
	if err != nil {
		return nil, true, err
	}
	if r == NotImplemented {
		return nil, false, nil
	}
	return r, true, nil
}

// baRepeat returns s repeated n times (k from bIndex).
func baRepeat(t *Thread, s string, n int64, k intKind) ([]byte, error) {
	if k == bigInt {
		return nil, Errorf(OverflowErrorType, "cannot fit 'int' into an index-sized integer")
	}
	if n <= 0 || len(s) == 0 {
		return []byte{}, nil
	}
	if n > (1<<62)/int64(len(s)) {
		return nil, Errorf(MemoryErrorType, "")
	}
	if err := t.grow(int64(len(s)) * n); err != nil {
		return nil, err
	}
	out := make([]byte, int64(len(s))*n)
	copy(out, s)
	for filled := len(s); filled < len(out); filled *= 2 {
		copy(out[filled:], out[:filled])
	}
	return out, nil
}

// bytearrayInplace is ba op= b.
func bytearrayInplace(t *Thread, op syntax.Operator, x *ByteArray, b Object) (Object, error) {
	switch op {
	case syntax.Add:
		if r, ok, err := tryReflected(t, b, op, x); ok {
			return r, err
		}
		return baIAdd(t, x, b)
	case syntax.Mult:
		if r, ok, err := tryReflected(t, b, op, x); ok {
			return r, err
		}
		n, k, err := bIndex(t, b)
		if err != nil {
			return nil, err
		}
		if k == notInt {
			return nil, Errorf(TypeErrorType, "can't multiply sequence by non-int of type '%s'", typeName(b))
		}
		return baIMul(t, x, n, k)
	}
	return binarySlow(t, op, x, b, true)
}

// PyInplace makes a bytearray subclass's += and *= work on its base.
func (o *ByteArray) PyInplace(t *Thread, op syntax.Operator, other Object) (Object, error) {
	return bytearrayInplace(t, op, o, other)
}

// PyContains is x in ba.
func (o *ByteArray) PyContains(t *Thread, x Object) (bool, error) {
	sub, err := bContainsArg(t, x)
	if err != nil {
		return false, err
	}
	return bytesFind(bview(o.b), sub, span{}, span{}, false) >= 0, nil
}

// bContainsArg converts the left operand of `in` a bytes or bytearray.
func bContainsArg(t *Thread, x Object) (string, error) {
	if b, ok := bytesLike(x); ok {
		return b, nil
	}
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return "", err
	case k == notInt:
		return "", notBytesLike(x)
	case k == bigInt || v < 0 || v > 255:
		return "", Errorf(ValueErrorType, "byte must be in range(0, 256)")
	}
	return string([]byte{byte(v)}), nil
}

// baIAdd is ba += b.
func baIAdd(t *Thread, x *ByteArray, b Object) (Object, error) {
	if y, ok := unwrap(b).(*ByteArray); ok && y == x {
		return nil, Errorf(BufferErrorType, "Existing exports of data: object cannot be re-sized")
	}
	y, ok := bytesLike(b)
	if !ok {
		if isMemoryView(b) {
			return nil, NotSupported("memoryview()", "slice the bytes directly")
		}
		return nil, Errorf(TypeErrorType, "can't concat %s to bytearray", typeName(b))
	}
	n := len(x.b)
	if err := baResize(t, x, n+len(y)); err != nil {
		return nil, err
	}
	copy(x.b[n:], y)
	return x, nil
}

// baIMul is ba *= n.
func baIMul(t *Thread, x *ByteArray, n int64, k intKind) (Object, error) {
	if k == bigInt {
		return nil, Errorf(OverflowErrorType, "cannot fit 'int' into an index-sized integer")
	}
	size := len(x.b)
	if n <= 0 || size == 0 {
		return x, baResize(t, x, 0)
	}
	if n > (1<<62)/int64(size) {
		return nil, Errorf(MemoryErrorType, "")
	}
	if err := t.grow(int64(size) * n); err != nil {
		return nil, err
	}
	if err := baResize(t, x, size*int(n)); err != nil {
		return nil, err
	}
	for filled := size; filled < len(x.b); filled *= 2 {
		copy(x.b[filled:], x.b[:filled])
	}
	return x, nil
}

// selfByteArray returns the bytearray receiver of a bytearray method.
func selfByteArray(args []Object, name string) (*ByteArray, error) {
	r, err := bytesRecv(ByteArrayType, args, name)
	if err != nil {
		return nil, err
	}
	return r.ba, nil
}

func initByteArrayMethods() {
	c := ByteArrayType
	c.dict.SetStr("__hash__", None)
	m := func(name string, fn func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error)) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			o, err := selfByteArray(args, name)
			if err != nil {
				return nil, err
			}
			return fn(t, o, args[1:], kwargs)
		})
	}
	m("__init__", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		return None, bytearrayInit(t, o, args, kwargs)
	})
	m("__alloc__", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsNone("bytearray.__alloc__", args, kwargs); err != nil {
			return nil, err
		}
		return MakeInt(int64(baAlloc(o))), nil
	})
	method(c, "__reduce__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		o, err := selfByteArray(args, "__reduce__")
		if err != nil {
			return nil, err
		}
		if err := bArgsNone("bytearray.__reduce__", args[1:], kwargs); err != nil {
			return nil, err
		}
		return baReduce(args[0], o, 2), nil
	})
	method(c, "__reduce_ex__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		o, err := selfByteArray(args, "__reduce_ex__")
		if err != nil {
			return nil, err
		}
		if err := bArgsOne("bytearray.__reduce_ex__", args[1:], kwargs); err != nil {
			return nil, err
		}
		proto, err := bCInt(t, args[1])
		if err != nil {
			return nil, err
		}
		return baReduce(args[0], o, proto), nil
	})
	m("append", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsOne("bytearray.append", args, kwargs); err != nil {
			return nil, err
		}
		v, err := bByte(t, args[0])
		if err != nil {
			return nil, err
		}
		n := len(o.b)
		if err := baResize(t, o, n+1); err != nil {
			return nil, err
		}
		o.b[n] = v
		return None, nil
	})
	m("extend", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsOne("bytearray.extend", args, kwargs); err != nil {
			return nil, err
		}
		var src string
		if b, ok := bytesLike(args[0]); ok {
			src = b
		} else {
			if isMemoryView(args[0]) {
				return nil, NotSupported("memoryview()", "slice the bytes directly")
			}
			b, err := iterBytes(t, args[0], func() error {
				return Errorf(TypeErrorType, "can't extend bytearray with %s", typeName(args[0]))
			})
			if err != nil {
				return nil, err
			}
			src = string(b)
		}
		n := len(o.b)
		return None, baSetSlice(t, o, n, n, src)
	})
	m("insert", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsPos("bytearray.insert", "insert", args, kwargs, 2, 2); err != nil {
			return nil, err
		}
		i, err := bSsize(t, args[0])
		if err != nil {
			return nil, err
		}
		v, err := bByte(t, args[1])
		if err != nil {
			return nil, err
		}
		n := int64(len(o.b))
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		if err := baResize(t, o, int(n)+1); err != nil {
			return nil, err
		}
		copy(o.b[i+1:], o.b[i:n])
		o.b[i] = v
		return None, nil
	})
	m("pop", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsPos("bytearray.pop", "pop", args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		i := int64(-1)
		if len(args) == 1 {
			var err error
			if i, err = bSsize(t, args[0]); err != nil {
				return nil, err
			}
		}
		n := int64(len(o.b))
		if n == 0 {
			return nil, Errorf(IndexErrorType, "pop from empty bytearray")
		}
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, Errorf(IndexErrorType, "pop index out of range")
		}
		v := o.b[i]
		copy(o.b[i:], o.b[i+1:])
		if err := baResize(t, o, int(n)-1); err != nil {
			return nil, err
		}
		return MakeInt(int64(v)), nil
	})
	m("remove", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsOne("bytearray.remove", args, kwargs); err != nil {
			return nil, err
		}
		v, err := bByte(t, args[0])
		if err != nil {
			return nil, err
		}
		i := -1
		for k, c := range o.b {
			if c == v {
				i = k
				break
			}
		}
		if i < 0 {
			return nil, Errorf(ValueErrorType, "value not found in bytearray")
		}
		copy(o.b[i:], o.b[i+1:])
		return None, baResize(t, o, len(o.b)-1)
	})
	m("clear", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsNone("bytearray.clear", args, kwargs); err != nil {
			return nil, err
		}
		return None, baResize(t, o, 0)
	})
	m("copy", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsNone("bytearray.copy", args, kwargs); err != nil {
			return nil, err
		}
		return newByteArrayStr(bview(o.b)), nil
	})
	m("reverse", func(t *Thread, o *ByteArray, args []Object, kwargs []Kwarg) (Object, error) {
		if err := bArgsNone("bytearray.reverse", args, kwargs); err != nil {
			return nil, err
		}
		for i, j := 0, len(o.b)-1; i < j; i, j = i+1, j-1 {
			o.b[i], o.b[j] = o.b[j], o.b[i]
		}
		return None, nil
	})
}

// bSsizeIndex converts a Py_ssize_t taken by __index__ with an IndexError
// on overflow (sequence repetition).
func bSsizeIndex(t *Thread, x Object) (int64, error) {
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return 0, err
	case k == notInt:
		return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
	case k == bigInt:
		return 0, Errorf(OverflowErrorType, "cannot fit 'int' into an index-sized integer")
	}
	return v, nil
}

// baReduce is bytearray.__reduce_ex__(proto) of self (o or an instance
// of a subclass whose base is o): (type, args, the instance's dict).
func baReduce(self Object, o *ByteArray, proto int) Object {
	var state Object = None
	if inst, ok := self.(*Instance); ok && inst.dict != nil && inst.dict.Len() > 0 {
		state = inst.dict
	}
	var args Object
	switch {
	case len(o.b) == 0:
		args = NewTuple(nil)
	case proto < 3:
		// Latin-1 text: each byte is the code point of the same value.
		rs := make([]rune, len(o.b))
		for i, c := range o.b {
			rs[i] = rune(c)
		}
		args = NewTuple([]Object{NewStr(string(rs)), NewStr("latin-1")})
	default:
		args = NewTuple([]Object{NewBytes(string(o.b))})
	}
	return NewTuple([]Object{self.Type(), args, state})
}
