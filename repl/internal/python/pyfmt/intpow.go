package pyfmt

import (
	"context"
	"math/big"
)

// IntPow is a ** b for ints with b >= 0 (for b < 0 Python computes a float:
// IntPowNegative). Its cost is bounded up front: a result of more than
// maxBits bits (0: no bound), known from b*(bits(a)-1) before computing,
// is a MemoryError. The squarings check ctx between steps.
func IntPow(ctx context.Context, a, b *big.Int, maxBits int64) (*big.Int, error) {
	if b.Sign() < 0 {
		return nil, valueError("IntPow: negative exponent")
	}
	if b.Sign() == 0 {
		return big.NewInt(1), nil
	}
	switch {
	case a.Sign() == 0:
		return big.NewInt(0), nil
	case a.IsInt64() && a.Int64() == 1:
		return big.NewInt(1), nil
	case a.IsInt64() && a.Int64() == -1:
		if b.Bit(0) == 1 {
			return big.NewInt(-1), nil
		}
		return big.NewInt(1), nil
	}
	// |a| >= 2: the result has more than b*(bits(a)-1) bits
	low := new(big.Int).Mul(b, big.NewInt(int64(a.BitLen()-1)))
	if !low.IsInt64() || low.Int64() > 1<<50 {
		return nil, errorf("MemoryError", "pow() result would have more than 2**50 bits")
	}
	if maxBits > 0 && low.Int64() > maxBits {
		return nil, memoryError("pow()", low.Int64(), maxBits)
	}
	if a.IsInt64() && a.Int64() == 2 {
		return new(big.Int).Lsh(big.NewInt(1), uint(b.Int64())), nil
	}
	r := big.NewInt(1)
	sq := new(big.Int).Set(a)
	for i, n := 0, b.BitLen(); i < n; i++ {
		if i > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sq.Mul(sq, sq)
		}
		if b.Bit(i) == 1 {
			r.Mul(r, sq)
		}
	}
	return r, nil
}

// powModChunk is how many exponent bits IntPowMod hands math/big at once.
const powModChunk = 256

// IntPowMod is pow(a, b, m): the result has m's sign (or is 0). A negative
// b uses a's inverse modulo m. Errors: ValueError "pow() 3rd argument
// cannot be 0", "base is not invertible for the given modulus". The
// exponent is processed 256 bits at a time, checking ctx in between.
func IntPowMod(ctx context.Context, a, b, m *big.Int) (*big.Int, error) {
	if m.Sign() == 0 {
		return nil, valueError("pow() 3rd argument cannot be 0")
	}
	am := new(big.Int).Abs(m)
	base := new(big.Int).Mod(a, am) // in [0, |m|)
	e := b
	if b.Sign() < 0 {
		if base.ModInverse(base, am) == nil {
			return nil, valueError("base is not invertible for the given modulus")
		}
		e = new(big.Int).Neg(b)
	}
	r := new(big.Int).Mod(big.NewInt(1), am)
	n := e.BitLen()
	chunks := (n + powModChunk - 1) / powModChunk
	shift := new(big.Int).Lsh(big.NewInt(1), powModChunk)
	for c := chunks - 1; c >= 0; c-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part := new(big.Int).Rsh(e, uint(c*powModChunk))
		part.And(part, new(big.Int).Sub(shift, big.NewInt(1)))
		if c != chunks-1 {
			r.Exp(r, shift, am)
		}
		r.Mul(r, new(big.Int).Exp(base, part, am))
		r.Mod(r, am)
	}
	if m.Sign() < 0 && r.Sign() != 0 {
		r.Add(r, m)
	}
	return r, nil
}
