package python

// The special methods of bytes and bytearray, with the argument checks of
// CPython's slot wrappers. Sequence-repeat and item-assignment wrappers
// word their count error with a leading space, as CPython 3.12 does.

func initBytesDunders(c *Type) {
	ba := c == ByteArrayType
	wrap := func(name string, n int, quirk bool, fn func(t *Thread, self Object, args []Object) (Object, error)) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			if len(args) == 0 {
				return nil, Errorf(TypeErrorType, "descriptor '%s' of '%s' object needs an argument", name, c.name)
			}
			if _, err := bytesRecv(c, args, name); err != nil {
				return nil, Errorf(TypeErrorType, "descriptor '%s' requires a '%s' object but received a '%s'", name, c.name, typeName(args[0]))
			}
			if len(kwargs) > 0 {
				return nil, Errorf(TypeErrorType, "wrapper %s() takes no keyword arguments", name)
			}
			if len(args)-1 != n {
				lead := ""
				if quirk {
					lead = " "
				}
				return nil, Errorf(TypeErrorType, "%sexpected %d argument%s, got %d", lead, n, pluralS(n), len(args)-1)
			}
			return fn(t, args[0], args[1:])
		})
	}
	wrap("__len__", 0, false, func(t *Thread, self Object, _ []Object) (Object, error) {
		n, err := Len(t, unwrap(self))
		return MakeInt(int64(n)), err
	})
	wrap("__iter__", 0, false, func(t *Thread, self Object, _ []Object) (Object, error) {
		return Iter(t, unwrap(self))
	})
	wrap("__repr__", 0, false, func(t *Thread, self Object, _ []Object) (Object, error) {
		s, err := Repr(t, unwrap(self))
		return NewStr(s), err
	})
	wrap("__str__", 0, false, func(t *Thread, self Object, _ []Object) (Object, error) {
		s, err := StrOf(t, unwrap(self))
		return NewStr(s), err
	})
	wrap("__getitem__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
		return GetItem(t, unwrap(self), a[0])
	})
	wrap("__contains__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
		sub, err := bContainsArg(t, a[0])
		if err != nil {
			return nil, err
		}
		s, _ := bytesLike(self)
		return MakeBool(bytesFind(s, sub, span{}, span{}, false) >= 0), nil
	})
	for _, name := range []string{"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"} {
		op := map[string]CmpOp{"__eq__": CmpEq, "__ne__": CmpNe, "__lt__": CmpLt, "__le__": CmpLe, "__gt__": CmpGt, "__ge__": CmpGe}[name]
		wrap(name, 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
			return builtinCompare(t, op, unwrap(self), unwrap(a[0]))
		})
	}
	wrap("__add__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
		s, _ := bytesLike(self)
		y, ok := bytesLike(a[0])
		if !ok {
			if isMemoryView(a[0]) {
				return nil, NotSupported("memoryview()", "slice the bytes directly")
			}
			return nil, Errorf(TypeErrorType, "can't concat %s to %s", typeName(a[0]), c.name)
		}
		if err := t.grow(int64(len(s)) + int64(len(y))); err != nil {
			return nil, err
		}
		if ba {
			return newByteArrayStr(s + y), nil
		}
		return NewBytes(s + y), nil
	})
	repeat := func(t *Thread, self Object, a []Object) (Object, error) {
		n, err := bSsizeIndex(t, a[0])
		if err != nil {
			return nil, err
		}
		s, _ := bytesLike(self)
		out, err := baRepeat(t, s, n, smallInt)
		if err != nil {
			return nil, err
		}
		if ba {
			return newByteArray(out), nil
		}
		return NewBytes(string(out)), nil
	}
	wrap("__mul__", 1, true, repeat)
	wrap("__rmul__", 1, true, repeat)
	if ba {
		wrap("__setitem__", 2, true, func(t *Thread, self Object, a []Object) (Object, error) {
			return None, SetItem(t, unwrap(self), a[0], a[1])
		})
		wrap("__delitem__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
			return None, DelItem(t, unwrap(self), a[0])
		})
		wrap("__iadd__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
			if _, err := baIAdd(t, unwrap(self).(*ByteArray), a[0]); err != nil {
				return nil, err
			}
			return self, nil
		})
		wrap("__imul__", 1, true, func(t *Thread, self Object, a []Object) (Object, error) {
			n, err := bSsizeIndex(t, a[0])
			if err != nil {
				return nil, err
			}
			if _, err := baIMul(t, unwrap(self).(*ByteArray), n, smallInt); err != nil {
				return nil, err
			}
			return self, nil
		})
	} else {
		wrap("__hash__", 0, false, func(t *Thread, self Object, _ []Object) (Object, error) {
			h, err := Hash(t, unwrap(self))
			return MakeInt(h), err
		})
	}
	wrap("__mod__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
		s, _ := bytesLike(self)
		return bytesFormat(t, s, a[0], ba)
	})
	wrap("__rmod__", 1, false, func(t *Thread, self Object, a []Object) (Object, error) {
		// other % self, when other is of the same type.
		switch other := unwrap(a[0]).(type) {
		case *Bytes:
			if !ba {
				return bytesFormat(t, other.b, self, false)
			}
		case *ByteArray:
			if ba {
				return bytesFormat(t, string(other.b), self, true)
			}
		}
		return NotImplemented, nil
	})
}
