package python

import (
	"context"
	"math"
	"math/big"
	"math/bits"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// Int is a Python int that fits in int64; BigInt holds the rest. Results
// are normalized: a value that fits in int64 is always an Int.
type Int int64

// Type returns int.
func (Int) Type() *Type { return IntType }

// BigInt is an int outside int64's range. It is immutable.
type BigInt struct {
	identity
	v *big.Int
}

// Type returns int.
func (*BigInt) Type() *Type { return IntType }

// Big returns the value (do not modify it).
func (b *BigInt) Big() *big.Int { return b.v }

var smallInts [1024 + 5]Object

func init() {
	for i := range smallInts {
		smallInts[i] = Int(i - 5)
	}
}

// MakeInt returns n as an int object.
func MakeInt(n int64) Object {
	if n >= -5 && n < 1024 {
		return smallInts[n+5]
	}
	return Int(n)
}

// MakeBigInt returns b as an int object (an Int when it fits). b is not
// copied: the caller must not change it afterwards.
func MakeBigInt(b *big.Int) Object {
	if b.IsInt64() {
		return MakeInt(b.Int64())
	}
	return &BigInt{v: b}
}

// intValue returns x as an int when it is an int or a bool.
func intValue(x Object) (Object, bool) {
	switch v := x.(type) {
	case Int, *BigInt:
		return x, true // x itself: boxing v again would allocate
	case Bool:
		if v {
			return Int(1), true
		}
		return Int(0), true
	case *Instance:
		if v.base != nil {
			return intValue(v.base)
		}
	}
	return nil, false
}

// toBig returns an int object as a *big.Int (a new one for Int).
func toBig(x Object) *big.Int {
	switch v := x.(type) {
	case Int:
		return big.NewInt(int64(v))
	case *BigInt:
		return v.v
	case Bool:
		if v {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return nil
}

// AsInt64 returns an int object's value when it fits in int64.
func AsInt64(x Object) (int64, bool) {
	switch v := x.(type) {
	case Int:
		return int64(v), true
	case Bool:
		if v {
			return 1, true
		}
		return 0, true
	case *Instance:
		if v.base != nil {
			return AsInt64(v.base)
		}
	}
	return 0, false
}

func intAdd(a, b Object) Object {
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok {
			s := x + y
			if (s > x) == (y > 0) {
				return MakeInt(int64(s))
			}
		}
	}
	return MakeBigInt(new(big.Int).Add(toBig(a), toBig(b)))
}

func intSub(a, b Object) Object {
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok {
			s := x - y
			if (s < x) == (y > 0) {
				return MakeInt(int64(s))
			}
		}
	}
	return MakeBigInt(new(big.Int).Sub(toBig(a), toBig(b)))
}

func intMul(t *Thread, a, b Object) (Object, error) {
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok {
			hi, lo := bits.Mul64(uint64(abs64(int64(x))), uint64(abs64(int64(y))))
			if hi == 0 && lo <= math.MaxInt64 && x != math.MinInt64 && y != math.MinInt64 {
				p := int64(lo)
				if (x < 0) != (y < 0) {
					p = -p
				}
				return MakeInt(p), nil
			}
		}
	}
	ba, bb := toBig(a), toBig(b)
	if err := t.grow(int64(ba.BitLen()+bb.BitLen()) / 8); err != nil {
		return nil, err
	}
	p, err := pyfmt.MulCtx(t.workContext(), ba, bb)
	if err != nil {
		return nil, t.kernelError(err)
	}
	return MakeBigInt(p), nil
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func intSign(x Object) int {
	switch v := x.(type) {
	case Int:
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	case *BigInt:
		return v.v.Sign()
	}
	return 0
}

// intFloorDivMod returns a // b and a % b with Python's floor semantics.
func intFloorDivMod(t *Thread, a, b Object, wantDiv, wantMod bool, op string) (Object, Object, error) {
	if intSign(b) == 0 {
		switch op {
		case "%":
			return nil, nil, Errorf(ZeroDivisionErrorType, "integer modulo by zero")
		case "divmod":
			return nil, nil, Errorf(ZeroDivisionErrorType, "integer division or modulo by zero")
		}
		return nil, nil, Errorf(ZeroDivisionErrorType, "integer division or modulo by zero")
	}
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok && !(x == math.MinInt64 && y == -1) {
			q, r := x/y, x%y
			if r != 0 && (r < 0) != (y < 0) {
				q--
				r += y
			}
			return MakeInt(int64(q)), MakeInt(int64(r)), nil
		}
	}
	ba, bb := toBig(a), toBig(b)
	q, r, err := pyfmt.QuoRemCtx(t.workContext(), ba, bb)
	if err != nil {
		return nil, nil, t.kernelError(err)
	}
	if r.Sign() != 0 && (r.Sign() < 0) != (bb.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
		r.Add(r, bb)
	}
	return MakeBigInt(q), MakeBigInt(r), nil
}

// intTrueDiv returns a / b as a correctly rounded float.
func intTrueDiv(a, b Object) (Object, error) {
	if intSign(b) == 0 {
		return nil, Errorf(ZeroDivisionErrorType, "division by zero")
	}
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok && abs64(int64(x)) <= 1<<53 && abs64(int64(y)) <= 1<<53 {
			return Float(float64(x) / float64(y)), nil
		}
	}
	r := new(big.Rat).SetFrac(toBig(a), toBig(b))
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return nil, Errorf(OverflowErrorType, "integer division result too large for a float")
	}
	return Float(f), nil
}

// intToFloat converts an int to the nearest float.
func intToFloat(x Object) (float64, error) {
	switch v := x.(type) {
	case Int:
		return float64(v), nil
	case Bool:
		if v {
			return 1, nil
		}
		return 0, nil
	case *BigInt:
		f, _ := new(big.Float).SetInt(v.v).Float64()
		if math.IsInf(f, 0) {
			return 0, Errorf(OverflowErrorType, "int too large to convert to float")
		}
		// big.Float's default precision rounds exactly: SetInt uses the
		// int's own precision, Float64 rounds half to even.
		return f, nil
	}
	return 0, Errorf(TypeErrorType, "must be real number, not %s", typeName(x))
}

// intPow returns a ** b for ints (b >= 0), checking the result's size.
func intPow(t *Thread, a, b Object) (Object, error) {
	ba := toBig(a)
	if intSign(b) < 0 {
		fa, err := intToFloat(a)
		if err != nil {
			return nil, err
		}
		fb, err := intToFloat(b)
		if err != nil {
			return nil, err
		}
		return floatPow(fa, fb)
	}
	e, ok := b.(Int)
	if !ok {
		// A huge exponent: only 0, 1 and -1 stay small.
		switch {
		case ba.Sign() == 0, ba.IsInt64() && ba.Int64() == 1:
			return MakeBigInt(new(big.Int).Set(ba)), nil
		case ba.IsInt64() && ba.Int64() == -1:
			if toBig(b).Bit(0) == 0 {
				return Int(1), nil
			}
			return Int(-1), nil
		}
		return nil, t.grow(math.MaxInt64)
	}
	// Small fast path.
	if x, ok := a.(Int); ok && e < 64 {
		r := int64(1)
		base := int64(x)
		ok := true
		for i := Int(0); i < e; i++ {
			hi, lo := bits.Mul64(uint64(abs64(r)), uint64(abs64(base)))
			if hi != 0 || lo > math.MaxInt64 || base == math.MinInt64 {
				ok = false
				break
			}
			neg := (r < 0) != (base < 0)
			r = int64(lo)
			if neg {
				r = -r
			}
		}
		if ok {
			return MakeInt(r), nil
		}
	}
	maxBits := int64(1) << 62
	if t != nil && t.MaxValue() > 0 {
		maxBits = t.MaxValue() * 8
	}
	ctx := context.Background()
	if t != nil {
		ctx = t.ctx
	}
	r, err := pyfmt.IntPow(ctx, ba, big.NewInt(int64(e)), maxBits)
	if err != nil {
		if t == nil {
			return nil, fromKernel(err)
		}
		return nil, t.kernelErr(err)
	}
	return MakeBigInt(r), nil
}

func intShift(t *Thread, a, b Object, left bool) (Object, error) {
	if intSign(b) < 0 {
		return nil, Errorf(ValueErrorType, "negative shift count")
	}
	n, ok := b.(Int)
	if !ok {
		if !left {
			if intSign(a) < 0 {
				return Int(-1), nil
			}
			return Int(0), nil
		}
		if intSign(a) == 0 {
			return Int(0), nil
		}
		return nil, Errorf(OverflowErrorType, "too many digits in integer")
	}
	if left {
		if intSign(a) == 0 {
			return Int(0), nil
		}
		if x, ok := a.(Int); ok && n < 62 {
			if r := int64(x) << uint(n); r>>uint(n) == int64(x) {
				return MakeInt(r), nil
			}
		}
		if err := t.grow(int64(toBig(a).BitLen()+int(n)) / 8); err != nil {
			return nil, err
		}
		return MakeBigInt(new(big.Int).Lsh(toBig(a), uint(n))), nil
	}
	if x, ok := a.(Int); ok {
		if n >= 64 {
			if x < 0 {
				return Int(-1), nil
			}
			return Int(0), nil
		}
		return MakeInt(int64(x) >> uint(n)), nil
	}
	return MakeBigInt(new(big.Int).Rsh(toBig(a), uint(n))), nil
}

func intBitOp(a, b Object, op byte) Object {
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok {
			switch op {
			case '&':
				return MakeInt(int64(x & y))
			case '|':
				return MakeInt(int64(x | y))
			default:
				return MakeInt(int64(x ^ y))
			}
		}
	}
	r := new(big.Int)
	switch op {
	case '&':
		r.And(toBig(a), toBig(b))
	case '|':
		r.Or(toBig(a), toBig(b))
	default:
		r.Xor(toBig(a), toBig(b))
	}
	return MakeBigInt(r)
}

func intNeg(a Object) Object {
	if x, ok := a.(Int); ok && x != math.MinInt64 {
		return MakeInt(-int64(x))
	}
	return MakeBigInt(new(big.Int).Neg(toBig(a)))
}

func intCmp(a, b Object) int {
	if x, ok := a.(Int); ok {
		if y, ok := b.(Int); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	return toBig(a).Cmp(toBig(b))
}

// intFloatCmp compares an int with a float exactly (NaN: ok false).
func intFloatCmp(a Object, f float64) (int, bool) {
	if math.IsNaN(f) {
		return 0, false
	}
	if math.IsInf(f, 1) {
		return -1, true
	}
	if math.IsInf(f, -1) {
		return 1, true
	}
	if x, ok := a.(Int); ok && abs64(int64(x)) <= 1<<53 {
		fx := float64(x)
		switch {
		case fx < f:
			return -1, true
		case fx > f:
			return 1, true
		}
		return 0, true
	}
	r := new(big.Rat).SetInt(toBig(a))
	rf := new(big.Rat)
	rf.SetFloat64(f)
	return r.Cmp(rf), true
}
