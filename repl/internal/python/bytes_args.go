package python

import "math"

// Argument checks of the bytes and bytearray methods, worded as CPython
// 3.12 words them for each kind of C method (METH_NOARGS, METH_O,
// Argument Clinic positional-only, PyArg_ParseTuple, Argument Clinic with
// keywords). qual is the qualified name ("bytes.center").

// bArgsNone checks a method that takes no arguments.
func bArgsNone(qual string, args []Object, kwargs []Kwarg) error {
	if len(kwargs) > 0 {
		return Errorf(TypeErrorType, "%s() takes no keyword arguments", qual)
	}
	if len(args) > 0 {
		return Errorf(TypeErrorType, "%s() takes no arguments (%d given)", qual, len(args))
	}
	return nil
}

// bArgsOne checks a method that takes exactly one positional argument.
func bArgsOne(qual string, args []Object, kwargs []Kwarg) error {
	if len(kwargs) > 0 {
		return Errorf(TypeErrorType, "%s() takes no keyword arguments", qual)
	}
	if len(args) != 1 {
		return Errorf(TypeErrorType, "%s() takes exactly one argument (%d given)", qual, len(args))
	}
	return nil
}

// bArgsPos checks a positional-only Argument Clinic method taking lo to hi
// arguments.
func bArgsPos(qual, name string, args []Object, kwargs []Kwarg, lo, hi int) error {
	if len(kwargs) > 0 {
		return Errorf(TypeErrorType, "%s() takes no keyword arguments", qual)
	}
	n := len(args)
	if n < lo {
		if lo == hi {
			return Errorf(TypeErrorType, "%s expected %d argument%s, got %d", name, lo, pluralS(lo), n)
		}
		return Errorf(TypeErrorType, "%s expected at least %d argument%s, got %d", name, lo, pluralS(lo), n)
	}
	if n > hi {
		if lo == hi {
			return Errorf(TypeErrorType, "%s expected %d argument%s, got %d", name, hi, pluralS(hi), n)
		}
		return Errorf(TypeErrorType, "%s expected at most %d argument%s, got %d", name, hi, pluralS(hi), n)
	}
	return nil
}

// bArgsTuple checks a PyArg_ParseTuple method taking lo to hi arguments.
func bArgsTuple(qual, name string, args []Object, kwargs []Kwarg, lo, hi int) error {
	if len(kwargs) > 0 {
		return Errorf(TypeErrorType, "%s() takes no keyword arguments", qual)
	}
	n := len(args)
	if n < lo {
		return Errorf(TypeErrorType, "%s() takes at least %d argument%s (%d given)", name, lo, pluralS(lo), n)
	}
	if n > hi {
		return Errorf(TypeErrorType, "%s() takes at most %d argument%s (%d given)", name, hi, pluralS(hi), n)
	}
	return nil
}

// bArgsKw binds the arguments of an Argument Clinic method whose first
// posOnly parameters are positional-only and whose first minPos are
// required; the others may be passed by keyword. Missing values are nil.
func bArgsKw(name string, args []Object, kwargs []Kwarg, posOnly, minPos int, names ...string) ([]Object, error) {
	max := len(names)
	if total := len(args) + len(kwargs); total > max {
		kw := ""
		if len(args) == 0 {
			kw = "keyword "
		}
		return nil, Errorf(TypeErrorType, "%s() takes at most %d %sargument%s (%d given)", name, max, kw, pluralS(max), total)
	}
	if len(args) < minPos {
		how := "exactly"
		if minPos < max {
			how = "at least"
		}
		return nil, Errorf(TypeErrorType, "%s() takes %s %d positional argument%s (%d given)", name, how, minPos, pluralS(minPos), len(args))
	}
	out := make([]Object, max)
	copy(out, args)
	for _, kw := range kwargs {
		idx := -1
		for i := posOnly; i < max; i++ {
			if names[i] == kw.Name {
				idx = i
			}
		}
		if idx < 0 {
			return nil, Errorf(TypeErrorType, "'%s' is an invalid keyword argument for %s()", kw.Name, name)
		}
		if out[idx] != nil {
			return nil, Errorf(TypeErrorType, "argument for %s() given by name ('%s') and position (%d)", name, kw.Name, idx+1)
		}
		out[idx] = kw.Value
	}
	return out, nil
}

// intKind says what an __index__ conversion found.
type intKind int

const (
	notInt   intKind = iota // no __index__
	smallInt                // fits in int64: the value
	bigInt                  // does not fit: the sign
)

// bIndex converts x with __index__: v is the value (smallInt) or the sign
// (bigInt, -1 or 1).
func bIndex(t *Thread, x Object) (int64, intKind, error) {
	switch v := x.(type) {
	case Int:
		return int64(v), smallInt, nil
	case Bool:
		if v {
			return 1, smallInt, nil
		}
		return 0, smallInt, nil
	case *BigInt:
		if v.v.IsInt64() {
			return v.v.Int64(), smallInt, nil
		}
		return int64(v.v.Sign()), bigInt, nil
	case *Instance:
		if v.base != nil {
			switch v.base.(type) {
			case Int, Bool, *BigInt:
				return bIndex(t, v.base)
			}
		}
		if m := v.cls.userMethod("__index__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return 0, smallInt, err
			}
			n, k, err := bIndex(t, r)
			if err != nil {
				return 0, smallInt, err
			}
			if k == notInt {
				return 0, smallInt, Errorf(TypeErrorType, "__index__ returned non-int (type %s)", typeName(r))
			}
			return n, k, nil
		}
	}
	return 0, notInt, nil
}

// bSsize converts a Py_ssize_t argument.
func bSsize(t *Thread, x Object) (int64, error) {
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return 0, err
	case k == notInt:
		return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
	case k == bigInt:
		return 0, Errorf(OverflowErrorType, "Python int too large to convert to C ssize_t")
	}
	return v, nil
}

// bCInt converts a C int argument.
func bCInt(t *Thread, x Object) (int, error) {
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return 0, err
	case k == notInt:
		return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
	case k == bigInt || v > math.MaxInt32 || v < math.MinInt32:
		return 0, Errorf(OverflowErrorType, "Python int too large to convert to C int")
	}
	return int(v), nil
}

// bSpan converts an optional start or end of a search (a slice index:
// None, or clamped to the int64 range).
func bSpan(t *Thread, x Object) (span, error) {
	if x == nil || x == None {
		return span{}, nil
	}
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return span{}, err
	case k == notInt:
		return span{}, Errorf(TypeErrorType, "slice indices must be integers or None or have an __index__ method")
	case k == bigInt:
		if v < 0 {
			return span{v: math.MinInt64 / 2, set: true}, nil
		}
		return span{v: math.MaxInt64 / 2, set: true}, nil
	}
	return span{v: v, set: true}, nil
}

// bByte converts a byte value (bytearray.append, ba[i] = v, ...).
func bByte(t *Thread, x Object) (byte, error) {
	v, k, err := bIndex(t, x)
	switch {
	case err != nil:
		return 0, err
	case k == notInt:
		return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
	case k == bigInt || v < 0 || v > 255:
		return 0, Errorf(ValueErrorType, "byte must be in range(0, 256)")
	}
	return byte(v), nil
}

// bBuffer returns the contents of a bytes-like argument, or the TypeError
// CPython raises for another object.
func bBuffer(x Object) (string, error) {
	if b, ok := bytesLike(x); ok {
		return b, nil
	}
	return "", notBytesLike(x)
}

func notBytesLike(x Object) error {
	if isMemoryView(x) {
		return NotSupported("memoryview()", "slice the bytes directly")
	}
	return Errorf(TypeErrorType, "a bytes-like object is required, not '%s'", typeName(x))
}

// isMemoryView reports whether x claims to be a memoryview (code mode has
// none; a library may name a type so).
func isMemoryView(x Object) bool {
	return x != nil && x.Type().Name() == "memoryview"
}

// isNumber reports whether CPython's PyNumber_Check holds for x: an int,
// float or complex, or an object with __index__, __int__ or __float__.
func isNumber(x Object) bool {
	switch v := x.(type) {
	case Int, Bool, *BigInt, Float, Complex:
		return true
	case *Instance:
		if v.base != nil && isNumber(v.base) {
			return true
		}
		return v.cls.userMethod("__index__") != nil || v.cls.userMethod("__int__") != nil || v.cls.userMethod("__float__") != nil
	}
	return false
}
