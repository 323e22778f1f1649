package python

import (
	"math"
	"reflect"
	"strings"
)

// Truth returns bool(x), treating errors as true (for callers without a
// thread: built-in values never fail).
func Truth(t *Thread, x Object) bool {
	b, err := TruthE(t, x)
	return err != nil || b
}

// TruthE returns bool(x).
func TruthE(t *Thread, x Object) (bool, error) {
	switch v := x.(type) {
	case Bool:
		return bool(v), nil
	case NoneType:
		return false, nil
	case Int:
		return v != 0, nil
	case *BigInt:
		return true, nil
	case Float:
		return v != 0, nil
	case Complex:
		return v != 0, nil
	case *Str:
		return v.s != "", nil
	case *List:
		return len(v.items) > 0, nil
	case *Tuple:
		return len(v.items) > 0, nil
	case *Dict:
		return v.live > 0, nil
	case *Set:
		return v.used > 0, nil
	case *Bytes:
		return v.b != "", nil
	case *ByteArray:
		return len(v.b) > 0, nil
	case *Range:
		return v.n > 0, nil
	case *Instance:
		if m := v.cls.userMethod("__bool__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return false, err
			}
			b, ok := r.(Bool)
			if !ok {
				return false, Errorf(TypeErrorType, "__bool__ should return bool, returned %s", typeName(r))
			}
			return bool(b), nil
		}
		if m := v.cls.userMethod("__len__"); m != nil {
			n, err := Len(t, v)
			return n > 0, err
		}
		if v.base != nil {
			return TruthE(t, v.base)
		}
		return true, nil
	}
	if b, ok := x.(Truther); ok {
		return b.PyBool(t)
	}
	if l, ok := x.(interface {
		PyLen(t *Thread) (int, error)
	}); ok {
		n, err := l.PyLen(t)
		return n > 0, err
	}
	if l, ok := x.(interface{ Len() int }); ok {
		return l.Len() > 0, nil
	}
	if h, ok := x.(HostText); ok {
		return h.Size() > 0, nil
	}
	return true, nil
}

// Len returns len(x).
func Len(t *Thread, x Object) (int, error) {
	switch v := x.(type) {
	case *Str:
		return v.Len(), nil
	case *List:
		return len(v.items), nil
	case *Tuple:
		return len(v.items), nil
	case *Dict:
		return v.live, nil
	case *Set:
		return v.used, nil
	case *Bytes:
		return len(v.b), nil
	case *ByteArray:
		return len(v.b), nil
	case *Range:
		return int(v.n), nil
	case *Instance:
		if m := v.cls.userMethod("__len__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return 0, err
			}
			n, ok, err := indexValue(t, r)
			if err != nil {
				return 0, Errorf(OverflowErrorType, "cannot fit 'int' into an index-sized integer")
			}
			if !ok {
				return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(r))
			}
			if n < 0 {
				return 0, Errorf(ValueErrorType, "__len__() should return >= 0")
			}
			return int(n), nil
		}
		if v.base != nil {
			return Len(t, v.base)
		}
	case *Type:
		if v.Hooks != nil && v.Hooks.Len != nil {
			return v.Hooks.Len(t, v)
		}
	case *hostStr:
		return v.length(t)
	}
	if l, ok := x.(interface {
		PyLen(t *Thread) (int, error)
	}); ok {
		return l.PyLen(t)
	}
	return 0, Errorf(TypeErrorType, "object of type '%s' has no len()", typeName(x))
}

// Equal returns a == b as a bool.
func Equal(t *Thread, a, b Object) (bool, error) {
	switch x := a.(type) {
	case *Str:
		if y, ok := b.(*Str); ok {
			return x.s == y.s, nil
		}
	case Int:
		if y, ok := b.(Int); ok {
			return x == y, nil
		}
	}
	r, err := Compare(t, CmpEq, a, b)
	if err != nil {
		return false, err
	}
	if bb, ok := r.(Bool); ok {
		return bool(bb), nil
	}
	return TruthE(t, r)
}

// Comparison operators of Compare.
type CmpOp uint8

// The six rich comparisons.
const (
	CmpLt CmpOp = iota
	CmpLe
	CmpEq
	CmpNe
	CmpGt
	CmpGe
)

var cmpNames = [...]string{"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"}
var cmpSwapped = [...]CmpOp{CmpGt, CmpGe, CmpEq, CmpNe, CmpLt, CmpLe}
var cmpSymbols = [...]string{"<", "<=", "==", "!=", ">", ">="}

func cmpResult(op CmpOp, c int) Object {
	switch op {
	case CmpLt:
		return MakeBool(c < 0)
	case CmpLe:
		return MakeBool(c <= 0)
	case CmpEq:
		return MakeBool(c == 0)
	case CmpNe:
		return MakeBool(c != 0)
	case CmpGt:
		return MakeBool(c > 0)
	}
	return MakeBool(c >= 0)
}

// Compare returns the rich comparison a op b.
func Compare(t *Thread, op CmpOp, a, b Object) (Object, error) {
	ta, tb := a.Type(), b.Type()
	if ta.builtin && tb.builtin {
		r, err := builtinCompare(t, op, a, b)
		if err != nil || r != NotImplemented {
			return r, err
		}
		return defaultCompare(op, a, b)
	}
	name := cmpNames[op]
	swapped := cmpSwapped[op]
	lm := ta.userMethod(name)
	rm := tb.userMethod(cmpNames[swapped])
	if rm != nil && ta != tb && tb.IsSubtype(ta) {
		r, err := callMethod(t, rm, b, []Object{a}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
		rm = nil
	}
	if lm != nil {
		r, err := callMethod(t, lm, a, []Object{b}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
	} else if op == CmpNe {
		if eq := ta.userMethod("__eq__"); eq != nil {
			r, err := callMethod(t, eq, a, []Object{b}, nil)
			if err != nil {
				return nil, err
			}
			if r != NotImplemented {
				v, err := TruthE(t, r)
				return MakeBool(!v), err
			}
		} else if ua, ub := unwrap(a), unwrap(b); ua != a || ub != b {
			r, err := builtinCompare(t, op, ua, ub)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
	} else if ua, ub := unwrap(a), unwrap(b); ua != a || ub != b {
		if ua != a || tb.builtin || rm == nil {
			r, err := builtinCompare(t, op, ua, ub)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
	}
	if rm != nil {
		r, err := callMethod(t, rm, b, []Object{a}, nil)
		if err != nil || r != NotImplemented {
			return r, err
		}
	} else if op == CmpNe && ta != tb {
		if eq := tb.userMethod("__eq__"); eq != nil {
			r, err := callMethod(t, eq, b, []Object{a}, nil)
			if err != nil {
				return nil, err
			}
			if r != NotImplemented {
				v, err := TruthE(t, r)
				return MakeBool(!v), err
			}
		}
	}
	if ua, ub := unwrap(a), unwrap(b); (ua != a || ub != b) && lm != nil {
		// A subclass's methods returned NotImplemented: the built-in
		// base's comparison still applies.
		r, err := builtinCompare(t, op, ua, ub)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	return defaultCompare(op, a, b)
}

func defaultCompare(op CmpOp, a, b Object) (Object, error) {
	switch op {
	case CmpEq:
		return MakeBool(identical(a, b)), nil
	case CmpNe:
		return MakeBool(!identical(a, b)), nil
	}
	return nil, Errorf(TypeErrorType, "'%s' not supported between instances of '%s' and '%s'", cmpSymbols[op], typeName(a), typeName(b))
}

// identical implements `is`.
func identical(a, b Object) bool {
	switch x := a.(type) {
	case Float:
		if y, ok := b.(Float); ok {
			return x == y || (math.IsNaN(float64(x)) && math.IsNaN(float64(y)))
		}
		return false
	case Int:
		// Small ints are shared in CPython; equal ints made separately
		// may or may not be the same object there.
		y, ok := b.(Int)
		return ok && x == y
	case *Str:
		y, ok := b.(*Str)
		return ok && (x == y || (x.s == y.s && len(x.s) <= 1))
	}
	return a == b
}

// Is implements `a is b`.
func Is(a, b Object) bool { return identical(a, b) }

// builtinCompare compares built-in values; NotImplemented when the types
// do not compare.
func builtinCompare(t *Thread, op CmpOp, a, b Object) (Object, error) {
	// Numbers.
	if ai, ok := intValue(a); ok {
		if bi, ok := intValue(b); ok {
			return cmpResult(op, intCmp(ai, bi)), nil
		}
		if f, ok := b.(Float); ok {
			c, ok := intFloatCmp(ai, float64(f))
			if !ok {
				return MakeBool(op == CmpNe), nil
			}
			return cmpResult(op, c), nil
		}
	}
	if x, ok := a.(Float); ok {
		switch y := b.(type) {
		case Float:
			fx, fy := float64(x), float64(y)
			switch op {
			case CmpLt:
				return MakeBool(fx < fy), nil
			case CmpLe:
				return MakeBool(fx <= fy), nil
			case CmpEq:
				return MakeBool(fx == fy), nil
			case CmpNe:
				return MakeBool(fx != fy), nil
			case CmpGt:
				return MakeBool(fx > fy), nil
			}
			return MakeBool(fx >= fy), nil
		default:
			if bi, ok := intValue(b); ok {
				c, ok := intFloatCmp(bi, float64(x))
				if !ok {
					return MakeBool(op == CmpNe), nil
				}
				return cmpResult(op, -c), nil
			}
		}
	}
	if isComplex(a) || isComplex(b) {
		x, okx := complexValue(a)
		y, oky := complexValue(b)
		if okx && oky {
			switch op {
			case CmpEq:
				return MakeBool(x == y), nil
			case CmpNe:
				return MakeBool(x != y), nil
			}
			return NotImplemented, nil
		}
	}
	switch x := a.(type) {
	case *Str:
		if y, ok := b.(*Str); ok {
			return cmpResult(op, strings.Compare(x.s, y.s)), nil
		}
		if y, ok := b.(*hostStr); ok {
			return y.compareStr(t, swapOp(op), x)
		}
	case *hostStr:
		return x.compare(t, op, b)
	case *Bytes:
		if y, ok := bytesLike(b); ok {
			return cmpResult(op, strings.Compare(x.b, y)), nil
		}
	case *ByteArray:
		if y, ok := bytesLike(b); ok {
			return cmpResult(op, strings.Compare(string(x.b), y)), nil
		}
	case *List:
		if y, ok := b.(*List); ok {
			return seqCompare(t, op, x.items, y.items)
		}
	case *Tuple:
		if y, ok := b.(*Tuple); ok {
			return seqCompare(t, op, x.items, y.items)
		}
	case *Dict:
		if y, ok := b.(*Dict); ok {
			if op != CmpEq && op != CmpNe {
				return NotImplemented, nil
			}
			eq, err := dictEqual(t, x, y)
			if err != nil {
				return nil, err
			}
			return MakeBool(eq == (op == CmpEq)), nil
		}
	case *Set:
		if y, ok := b.(*Set); ok {
			return setCompare(t, op, x, y)
		}
	case *Range:
		if y, ok := b.(*Range); ok {
			if op != CmpEq && op != CmpNe {
				return NotImplemented, nil
			}
			eq := x.n == y.n && (x.n == 0 || (x.start == y.start && (x.n == 1 || x.step == y.step)))
			return MakeBool(eq == (op == CmpEq)), nil
		}
	case *Slice:
		if y, ok := b.(*Slice); ok {
			return seqCompare(t, op, []Object{x.Start, x.Stop, x.Step}, []Object{y.Start, y.Stop, y.Step})
		}
	case NoneType:
		if _, ok := b.(NoneType); ok && (op == CmpEq || op == CmpNe) {
			return MakeBool(op == CmpEq), nil
		}
	}
	if c, ok := a.(comparable); ok {
		return c.compare(t, op, b)
	}
	if c, ok := b.(comparable); ok {
		return c.compare(t, swapOp(op), a)
	}
	if c, ok := a.(Comparer); ok {
		r, err := c.PyCompare(t, op, b)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	if c, ok := b.(Comparer); ok {
		return c.PyCompare(t, swapOp(op), a)
	}
	return NotImplemented, nil
}

func swapOp(op CmpOp) CmpOp { return cmpSwapped[op] }

// comparable is implemented by library types with rich comparisons
// (datetime, Counter, deque, Fraction-likes).
type comparable interface {
	compare(t *Thread, op CmpOp, other Object) (Object, error)
}

// Comparer lets library types implement rich comparison.
type Comparer interface {
	PyCompare(t *Thread, op CmpOp, other Object) (Object, error)
}

func seqCompare(t *Thread, op CmpOp, a, b []Object) (Object, error) {
	if (op == CmpEq || op == CmpNe) && len(a) != len(b) {
		return MakeBool(op == CmpNe), nil
	}
	if err := t.enterC(" in comparison"); err != nil {
		return nil, err
	}
	defer t.leaveC()
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if identical(a[i], b[i]) {
			continue
		}
		eq, err := Equal(t, a[i], b[i])
		if err != nil {
			return nil, err
		}
		if !eq {
			switch op {
			case CmpEq:
				return False, nil
			case CmpNe:
				return True, nil
			}
			return Compare(t, op, a[i], b[i])
		}
	}
	return cmpResult(op, cmpInt(len(a), len(b))), nil
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func dictEqual(t *Thread, a, b *Dict) (bool, error) {
	if a.live != b.live {
		return false, nil
	}
	if err := t.enterC(" in comparison"); err != nil {
		return false, err
	}
	defer t.leaveC()
	for _, e := range a.entries {
		if e.key == nil {
			continue
		}
		v, ok, err := b.Get(t, e.key)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, nil
		}
		if identical(v, e.value) {
			continue
		}
		eq, err := Equal(t, e.value, v)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// subsetOf reports whether every element of a is in b.
func subsetOf(t *Thread, a, b *Set) (bool, error) {
	if a.used > b.used {
		return false, nil
	}
	for _, e := range a.snapshot() {
		in, err := b.containsEntry(t, e.key, e.hash)
		if err != nil || !in {
			return false, err
		}
	}
	return true, nil
}

func setCompare(t *Thread, op CmpOp, a, b *Set) (Object, error) {
	switch op {
	case CmpEq, CmpNe:
		eq := a.used == b.used
		if eq {
			s, err := subsetOf(t, a, b)
			if err != nil {
				return nil, err
			}
			eq = s
		}
		return MakeBool(eq == (op == CmpEq)), nil
	case CmpLe:
		s, err := subsetOf(t, a, b)
		return MakeBool(s), err
	case CmpGe:
		s, err := subsetOf(t, b, a)
		return MakeBool(s), err
	case CmpLt:
		s, err := subsetOf(t, a, b)
		return MakeBool(s && a.used < b.used), err
	}
	s, err := subsetOf(t, b, a)
	return MakeBool(s && a.used > b.used), err
}

// Less reports a < b (sorting).
func Less(t *Thread, a, b Object) (bool, error) {
	switch x := a.(type) {
	case Int:
		if y, ok := b.(Int); ok {
			return x < y, nil
		}
	case *Str:
		if y, ok := b.(*Str); ok {
			return x.s < y.s, nil
		}
	case Float:
		if y, ok := b.(Float); ok {
			return x < y, nil
		}
	}
	r, err := Compare(t, CmpLt, a, b)
	if err != nil {
		return false, err
	}
	if bb, ok := r.(Bool); ok {
		return bool(bb), nil
	}
	return TruthE(t, r)
}

// Hash returns hash(x).
func Hash(t *Thread, x Object) (int64, error) {
	switch v := x.(type) {
	case *Str:
		return v.Hash(), nil
	case Int:
		return hashInt(int64(v)), nil
	case Bool:
		if v {
			return 1, nil
		}
		return 0, nil
	case *BigInt:
		return hashBig(v.v), nil
	case Float:
		return hashFloat(float64(v)), nil
	case Complex:
		return hashComplex(real(v), imag(v)), nil
	case NoneType:
		return hashNone, nil
	case *Tuple:
		if !v.hashed {
			hs := make([]int64, len(v.items))
			for i, it := range v.items {
				h, err := Hash(t, it)
				if err != nil {
					return 0, err
				}
				hs[i] = h
			}
			v.hash = hashTupleOf(hs)
			v.hashed = true
		}
		return v.hash, nil
	case *Bytes:
		if !v.hashed {
			v.hash = hashBytes(v.b)
			v.hashed = true
		}
		return v.hash, nil
	case *Set:
		if v.frozen {
			return v.frozenHash(), nil
		}
	case *List, *Dict, *ByteArray:
		return 0, Errorf(TypeErrorType, "unhashable type: '%s'", typeName(x))
	case *Range:
		return Hash(t, rangeHashKey(v))
	case *Slice:
		var hs [3]int64
		for i, x := range [3]Object{v.Start, v.Stop, v.Step} {
			h, err := Hash(t, x)
			if err != nil {
				return 0, err
			}
			hs[i] = h
		}
		return hashSliceOf(hs), nil
	case *Instance:
		if m, owner := v.cls.lookupOwner("__hash__"); owner != nil && !owner.builtin {
			if m == None {
				return 0, Errorf(TypeErrorType, "unhashable type: '%s'", v.cls.name)
			}
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return 0, err
			}
			switch h := r.(type) {
			case Int:
				if h == -1 {
					return -2, nil
				}
				return int64(h), nil
			case *BigInt:
				return hashBig(h.v), nil
			case Bool:
				return Hash(t, h)
			}
			return 0, Errorf(TypeErrorType, "__hash__ method should return an integer")
		}
		if v.base != nil {
			return Hash(t, v.base)
		}
		return int64(v.ident()), nil
	case *hostStr:
		return v.hash(t)
	case *Exception:
		if m, owner := v.cls.lookupOwner("__hash__"); owner != nil && !owner.builtin {
			if m == None {
				return 0, Errorf(TypeErrorType, "unhashable type: '%s'", v.cls.name)
			}
		}
		return int64(v.ident()), nil
	}
	if h, ok := x.(interface {
		PyHash(t *Thread) (int64, error)
	}); ok {
		return h.PyHash(t)
	}
	if m, owner := x.Type().lookupOwner("__hash__"); owner != nil && m == None {
		return 0, Errorf(TypeErrorType, "unhashable type: '%s'", typeName(x))
	}
	if id, ok := x.(hasIdentity); ok {
		return int64(id.ident()), nil
	}
	return pointerHash(x), nil
}

// pointerHash is the identity hash of an object without an identity field:
// its address (stable while it lives), or its value's hash.
func pointerHash(x Object) int64 {
	if v := reflect.ValueOf(x); v.Kind() == reflect.Pointer {
		return int64(v.Pointer() >> 4)
	}
	return int64(newID())
}
