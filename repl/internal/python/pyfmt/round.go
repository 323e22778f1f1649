package pyfmt

import (
	"math"
	"math/big"
	"strconv"
)

// FloatToInt is int(x) for a float: truncation toward zero, with
// CPython's errors: OverflowError "cannot convert float infinity to
// integer", ValueError "cannot convert float NaN to integer". The value is
// in small when big is nil.
func FloatToInt(x float64) (small int64, b *big.Int, err error) {
	if math.IsInf(x, 0) {
		return 0, nil, overflowError("cannot convert float infinity to integer")
	}
	if math.IsNaN(x) {
		return 0, nil, valueError("cannot convert float NaN to integer")
	}
	x = math.Trunc(x)
	if x >= -(1<<63) && x < 1<<63 {
		return int64(x), nil, nil
	}
	b, _ = new(big.Float).SetFloat64(x).Int(nil)
	return 0, b, nil
}

// RoundFloat is round(x) for a float: the nearest int, halves to even
// (round(0.5) == 0, round(1.5) == 2), with FloatToInt's errors.
func RoundFloat(x float64) (small int64, b *big.Int, err error) {
	return FloatToInt(math.RoundToEven(x))
}

// Bounds of round(x, n) for a float x, CPython's NDIGITS_MAX and
// NDIGITS_MIN: beyond them x is returned unchanged or becomes a zero.
const (
	roundDigitsMax = 323
	roundDigitsMin = -308
)

// RoundFloatDigits is round(x, n) for a float x and an int n: the float
// nearest to x rounded to n decimal places, where the rounding is done
// exactly on x's binary value, halves to even (round(2.675, 2) == 2.67,
// because 2.675 is a little below 2.675). n may be negative. Infinities,
// NaNs and zeros are returned as they are. Error: OverflowError "rounded
// value too large to represent". An n beyond int64 may be passed as
// math.MaxInt64 or math.MinInt64: the result is the same.
func RoundFloatDigits(x float64, n int64) (float64, error) {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || n > roundDigitsMax {
		return x, nil
	}
	if n < roundDigitsMin {
		return math.Copysign(0, x), nil
	}
	if n >= 0 {
		// exact decimal rounding, halves to even, then a correctly
		// rounded read: what CPython's dtoa and strtod do
		var buf [64]byte
		t := strconv.AppendFloat(buf[:0], x, 'f', int(n), 64)
		r, _ := strconv.ParseFloat(string(t), 64)
		return r, nil
	}
	// n < 0: x / 10**-n rounded exactly to an int, times 10**-n
	m, e := mantExp(x)
	num := big.NewInt(m)
	den := pow10(-n)
	if e >= 0 {
		num.Lsh(num, uint(e))
	} else {
		den.Lsh(den, uint(-e))
	}
	k := divRoundHalfEven(num, den)
	if k.Sign() == 0 {
		return math.Copysign(0, x), nil
	}
	r, err := IntToFloat(k.Mul(k, pow10(-n)))
	if err != nil {
		return 0, overflowError("rounded value too large to represent")
	}
	return r, nil
}

func pow10(n int64) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil)
}

// divRoundHalfEven is num/den (den > 0) rounded to the nearest int,
// halves to even.
func divRoundHalfEven(num, den *big.Int) *big.Int {
	q, r := new(big.Int).DivMod(num, den, new(big.Int)) // r >= 0: q is the floor
	r.Lsh(r, 1)
	switch c := r.Cmp(den); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return q
}

// RoundInt is round(x, n) for ints: x itself for n >= 0, else x rounded
// to a multiple of 10**-n, halves to even (round(25, -1) == 20).
func RoundInt(x, n *big.Int) *big.Int {
	if n.Sign() >= 0 {
		return x
	}
	// 10**k > 2|x| makes the result 0: |x| < 2**bits <= 10**(bits*0.302+1)
	k := new(big.Int).Neg(n)
	if !k.IsInt64() || k.Int64() > int64(float64(x.BitLen())*0.30103)+2 {
		return new(big.Int)
	}
	p := pow10(k.Int64())
	q := divRoundHalfEven(x, p)
	return q.Mul(q, p)
}
