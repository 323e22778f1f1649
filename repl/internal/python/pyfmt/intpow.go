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
	var err error
	for i, n := 0, b.BitLen(); i < n; i++ {
		if i > 0 {
			if sq, err = MulCtx(ctx, sq, sq); err != nil {
				return nil, err
			}
		}
		if b.Bit(i) == 1 {
			if r, err = MulCtx(ctx, r, sq); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// powModChunk is how many exponent bits IntPowMod hands math/big at
// once for a modulus of mbits bits: each math/big call does that many
// modular squarings, kept to tens of milliseconds.
func powModChunk(mbits int) int {
	switch {
	case mbits <= 1<<13:
		return 256
	case mbits <= 1<<15:
		return 32
	case mbits <= 1<<17:
		return 4
	}
	return 1
}

// IntPowMod is pow(a, b, m): the result has m's sign (or is 0). A negative
// b uses a's inverse modulo m. Errors: ValueError "pow() 3rd argument
// cannot be 0", "base is not invertible for the given modulus";
// NotImplementedError for a modulus over PowModMaxBits bits (over
// ModInverseMaxBits with a negative exponent). The exponent is processed
// a few bits at a time (powModChunk), checking ctx in between.
func IntPowMod(ctx context.Context, a, b, m *big.Int) (*big.Int, error) {
	if m.Sign() == 0 {
		return nil, valueError("pow() 3rd argument cannot be 0")
	}
	am := new(big.Int).Abs(m)
	if am.BitLen() > PowModMaxBits && b.BitLen() > 1 {
		return nil, refused("pow() with a modulus longer than 2**20 bits", PowModMaxBits)
	}
	_, base, err := QuoRemCtx(ctx, a, am)
	if err != nil {
		return nil, err
	}
	if base.Sign() < 0 {
		base.Add(base, am) // in [0, |m|)
	}
	e := b
	if b.Sign() < 0 {
		if am.BitLen() > ModInverseMaxBits {
			return nil, refused("pow() with a negative exponent and a modulus longer than 2**18 bits", ModInverseMaxBits)
		}
		if base.ModInverse(base, am) == nil {
			return nil, valueError("base is not invertible for the given modulus")
		}
		e = new(big.Int).Neg(b)
	}
	r := new(big.Int).Mod(big.NewInt(1), am)
	n := e.BitLen()
	chunk := powModChunk(am.BitLen())
	chunks := (n + chunk - 1) / chunk
	shift := new(big.Int).Lsh(big.NewInt(1), uint(chunk))
	for c := chunks - 1; c >= 0; c-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part := new(big.Int).Rsh(e, uint(c*chunk))
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
