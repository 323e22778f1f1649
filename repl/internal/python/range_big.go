package python

import (
	"math"
	"math/big"
)

// bigRange is a range whose bounds or length do not fit in int64
// (range(10**20), range(-2**63, 2**63)): the same type to Python code,
// computed with big integers. Ranges that fit are *Range.
type bigRange struct {
	start, stop, step, n *big.Int
}

// Type returns range.
func (*bigRange) Type() *Type { return RangeType }

var bigOne = big.NewInt(1)

// makeRange returns range(start, stop, step) of int objects: a *Range
// when everything fits in int64, else a *bigRange.
func makeRange(start, stop, step Object) Object {
	a, ok1 := start.(Int)
	b, ok2 := stop.(Int)
	c, ok3 := step.(Int)
	if ok1 && ok2 && ok3 {
		if n, ok := rangeLenFits(int64(a), int64(b), int64(c)); ok {
			return &Range{start: int64(a), stop: int64(b), step: int64(c), n: n}
		}
	}
	return newBigRange(toBig(start), toBig(stop), toBig(step))
}

// rangeLenFits is the length of an int64 range, if it fits in int64.
func rangeLenFits(start, stop, step int64) (int64, bool) {
	var q uint64
	switch {
	case step > 0 && start < stop:
		q = (uint64(stop-start)-1)/uint64(step) + 1
	case step < 0 && start > stop:
		q = (uint64(start-stop)-1)/uint64(-step) + 1
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	return int64(q), true
}

// bigRangeLen is the number of items of range(start, stop, step).
func bigRangeLen(start, stop, step *big.Int) *big.Int {
	var d *big.Int
	var s *big.Int
	switch {
	case step.Sign() > 0 && start.Cmp(stop) < 0:
		d = new(big.Int).Sub(stop, start)
		s = step
	case step.Sign() < 0 && start.Cmp(stop) > 0:
		d = new(big.Int).Sub(start, stop)
		s = new(big.Int).Neg(step)
	default:
		return new(big.Int)
	}
	// (d - 1) / s + 1
	d.Sub(d, bigOne)
	d.Quo(d, s)
	return d.Add(d, bigOne)
}

func newBigRange(start, stop, step *big.Int) Object {
	r := &bigRange{start: new(big.Int).Set(start), stop: new(big.Int).Set(stop), step: new(big.Int).Set(step)}
	r.n = bigRangeLen(r.start, r.stop, r.step)
	if r.start.IsInt64() && r.stop.IsInt64() && r.step.IsInt64() && r.n.IsInt64() {
		return &Range{start: r.start.Int64(), stop: r.stop.Int64(), step: r.step.Int64(), n: r.n.Int64()}
	}
	return r
}

// at is the i-th item.
func (r *bigRange) at(i *big.Int) Object {
	v := new(big.Int).Mul(i, r.step)
	return MakeBigInt(v.Add(v, r.start))
}

// rangeParts returns a range's start, stop, step and length as big ints.
func rangeParts(x Object) (start, stop, step, n *big.Int, ok bool) {
	switch r := x.(type) {
	case *Range:
		return big.NewInt(r.start), big.NewInt(r.stop), big.NewInt(r.step), big.NewInt(r.n), true
	case *bigRange:
		return r.start, r.stop, r.step, r.n, true
	}
	return nil, nil, nil, nil, false
}

// PyLen is len(): an OverflowError past the index range.
func (r *bigRange) PyLen(*Thread) (int, error) {
	if !r.n.IsInt64() || r.n.Int64() > math.MaxInt {
		return 0, Errorf(OverflowErrorType, "Python int too large to convert to C ssize_t")
	}
	return int(r.n.Int64()), nil
}

// PyBool is bool(r).
func (r *bigRange) PyBool(*Thread) (bool, error) { return r.n.Sign() > 0, nil }

// PyRepr renders range(start, stop[, step]).
func (r *bigRange) PyRepr(*Thread) (string, error) {
	if r.step.Cmp(bigOne) == 0 {
		return "range(" + r.start.String() + ", " + r.stop.String() + ")", nil
	}
	return "range(" + r.start.String() + ", " + r.stop.String() + ", " + r.step.String() + ")", nil
}

// PyHash hashes as CPython: (len, start, step), with None for what an
// empty or one-item range does not use.
func (r *bigRange) PyHash(t *Thread) (int64, error) {
	return Hash(t, rangeHashKey(r))
}

// rangeHashKey is the tuple whose hash is a range's.
func rangeHashKey(x Object) *Tuple {
	start, _, step, n, _ := rangeParts(x)
	switch {
	case n.Sign() == 0:
		return NewTuple([]Object{Int(0), None, None})
	case n.Cmp(bigOne) == 0:
		return NewTuple([]Object{Int(1), MakeBigInt(new(big.Int).Set(start)), None})
	}
	return NewTuple([]Object{MakeBigInt(new(big.Int).Set(n)), MakeBigInt(new(big.Int).Set(start)), MakeBigInt(new(big.Int).Set(step))})
}

// rangesEqual is range == range: the same items.
func rangesEqual(a, b Object) bool {
	s1, _, st1, n1, _ := rangeParts(a)
	s2, _, st2, n2, _ := rangeParts(b)
	if n1.Cmp(n2) != 0 {
		return false
	}
	if n1.Sign() == 0 {
		return true
	}
	if s1.Cmp(s2) != 0 {
		return false
	}
	return n1.Cmp(bigOne) == 0 || st1.Cmp(st2) == 0
}

func (r *bigRange) compare(t *Thread, op CmpOp, other Object) (Object, error) {
	if _, _, _, _, ok := rangeParts(other); !ok || (op != CmpEq && op != CmpNe) {
		return NotImplemented, nil
	}
	return MakeBool(rangesEqual(r, other) == (op == CmpEq)), nil
}

// PyContains is x in r.
func (r *bigRange) PyContains(t *Thread, x Object) (bool, error) {
	if v, ok := intValue(x); ok {
		return rangeHas(r.start, r.stop, r.step, toBig(v)), nil
	}
	return iterContains(t, r, x)
}

// rangeHas reports whether v is an item of range(start, stop, step).
func rangeHas(start, stop, step, v *big.Int) bool {
	if step.Sign() > 0 {
		if v.Cmp(start) < 0 || v.Cmp(stop) >= 0 {
			return false
		}
	} else if v.Cmp(start) > 0 || v.Cmp(stop) <= 0 {
		return false
	}
	d := new(big.Int).Sub(v, start)
	return d.Rem(d, step).Sign() == 0
}

// iterContains is `in` by iteration and equality (a non-int in a range).
func iterContains(t *Thread, c, x Object) (bool, error) {
	found := false
	err := Iterate(t, c, func(v Object) error {
		if identical(v, x) {
			found = true
			return ErrStop
		}
		eq, err := Equal(t, v, x)
		if err != nil {
			return err
		}
		if eq {
			found = true
			return ErrStop
		}
		return t.tick()
	})
	return found, err
}

// PyGetItem is r[i] and r[i:j:k].
func (r *bigRange) PyGetItem(t *Thread, key Object) (Object, error) {
	if s, ok := key.(*Slice); ok {
		return bigRangeSlice(t, r.start, r.step, r.n, s)
	}
	i, ok, err := bigIndexOf(t, key)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, Errorf(TypeErrorType, "range indices must be integers or slices, not %s", typeName(key))
	}
	if i.Sign() < 0 {
		i.Add(i, r.n)
	}
	if i.Sign() < 0 || i.Cmp(r.n) >= 0 {
		return nil, Errorf(IndexErrorType, "range object index out of range")
	}
	return r.at(i), nil
}

// bigIndexOf returns x as a (new) big int index (__index__).
func bigIndexOf(t *Thread, x Object) (*big.Int, bool, error) {
	if v, ok := intValue(x); ok {
		return new(big.Int).Set(toBig(v)), true, nil
	}
	if o, ok := x.(*Instance); ok {
		if m := o.cls.userMethod("__index__"); m != nil {
			r, err := callMethod(t, m, o, nil, nil)
			if err != nil {
				return nil, true, err
			}
			v, ok := intValue(r)
			if !ok {
				return nil, true, Errorf(TypeErrorType, "__index__ returned non-int (type %s)", typeName(r))
			}
			return new(big.Int).Set(toBig(v)), true, nil
		}
	}
	return nil, false, nil
}

// bigRangeSlice is range(...)[s] for a range of n items from start by
// step, computed as CPython's range slicing (slice.indices in big ints).
func bigRangeSlice(t *Thread, start, step, n *big.Int, s *Slice) (Object, error) {
	sstep := big.NewInt(1)
	if s.Step != None && s.Step != nil {
		v, ok, err := bigIndexOf(t, s.Step)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Errorf(TypeErrorType, "slice indices must be integers or None or have an __index__ method")
		}
		if v.Sign() == 0 {
			return nil, Errorf(ValueErrorType, "slice step cannot be zero")
		}
		sstep = v
	}
	neg := sstep.Sign() < 0
	lower, upper := new(big.Int), new(big.Int).Set(n)
	if neg {
		lower = big.NewInt(-1)
		upper = new(big.Int).Sub(n, bigOne)
	}
	conv := func(x Object, def *big.Int) (*big.Int, error) {
		if x == None || x == nil {
			return def, nil
		}
		v, ok, err := bigIndexOf(t, x)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Errorf(TypeErrorType, "slice indices must be integers or None or have an __index__ method")
		}
		if v.Sign() < 0 {
			v.Add(v, n)
			if v.Cmp(lower) < 0 {
				v.Set(lower)
			}
		} else if v.Cmp(upper) > 0 {
			v.Set(upper)
		}
		return v, nil
	}
	d1, d2 := lower, upper
	if neg {
		d1, d2 = upper, lower
	}
	i, err := conv(s.Start, d1)
	if err != nil {
		return nil, err
	}
	j, err := conv(s.Stop, d2)
	if err != nil {
		return nil, err
	}
	// range(start + i*step, start + j*step, step*sstep)
	ns := new(big.Int).Mul(step, sstep)
	a := new(big.Int).Mul(i, step)
	a.Add(a, start)
	b := new(big.Int).Mul(j, step)
	b.Add(b, start)
	return newBigRange(a, b, ns), nil
}

// PyIter iterates the range.
func (r *bigRange) PyIter(*Thread) (Object, error) {
	return &bigRangeIter{next: new(big.Int).Set(r.start), step: r.step, left: new(big.Int).Set(r.n)}, nil
}

// PyReversed is reversed(r).
func (r *bigRange) PyReversed(*Thread) (Object, error) {
	last := new(big.Int).Sub(r.n, bigOne)
	last.Mul(last, r.step)
	last.Add(last, r.start)
	if r.n.Sign() == 0 {
		last.Set(r.start)
	}
	return &bigRangeIter{next: last, step: new(big.Int).Neg(r.step), left: new(big.Int).Set(r.n)}, nil
}

// bigRangeIter iterates a bigRange (CPython's longrange_iterator).
type bigRangeIter struct {
	next, step, left *big.Int
}

// Type returns longrange_iterator.
func (*bigRangeIter) Type() *Type { return LongRangeIterType }

// Next returns the next item.
func (it *bigRangeIter) Next(*Thread) (Object, error) {
	if it.left.Sign() <= 0 {
		return nil, nil
	}
	v := MakeBigInt(new(big.Int).Set(it.next))
	it.next.Add(it.next, it.step)
	it.left.Sub(it.left, bigOne)
	return v, nil
}

// rangeIndexOf is range.index(x) for an int x (nil if absent).
func rangeIndexOf(x Object, v *big.Int) Object {
	start, stop, step, _, _ := rangeParts(x)
	if !rangeHas(start, stop, step, v) {
		return nil
	}
	d := new(big.Int).Sub(v, start)
	return MakeBigInt(d.Quo(d, step))
}
