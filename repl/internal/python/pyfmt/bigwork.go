package pyfmt

import (
	"context"
	"math/big"
	"math/bits"
)

// Interruptible big-int kernels. math/big's multiplication, division and
// GCD cannot be stopped once called, and on numbers of millions of bits
// one call runs for seconds to hours. These kernels split the work into
// math/big calls on operands of bounded size (each a few milliseconds)
// and check ctx between them, so that a cell's time limit holds inside
// one Python operation. Where no such split is implemented (a division
// whose divisor and quotient are both very long, a modulus of a
// three-argument pow or a modular inverse beyond a bound, math.isqrt of a
// very long number) the operation is refused up front with
// NotImplementedError stating the bound.
const (
	// MulLeafBits: a product whose shorter factor has at most this many
	// bits is one math/big call per chunk of the longer factor (a balanced
	// 2^18-bit product takes about 4 ms).
	MulLeafBits = 1 << 18
	// DivLeafBits: a division whose divisor or quotient has at most this
	// many bits is split into math/big divisions of at most twice this
	// size (about 80 ms each); a division with both longer is refused.
	DivLeafBits = 1 << 20
	// GCDLeafBits: Euclid's steps reduce the operands (one interruptible
	// division each) until the shorter has at most this many bits; math/big
	// finishes (about 0.25 s at this size).
	GCDLeafBits = 1 << 18
	// ModInverseMaxBits bounds the modulus of a modular inverse (pow with a
	// negative exponent and a modulus).
	ModInverseMaxBits = 1 << 18
	// PowModMaxBits bounds the modulus of pow(a, b, m).
	PowModMaxBits = 1 << 20
	// IsqrtMaxBits bounds the argument of math.isqrt.
	IsqrtMaxBits = 1 << 20
)

const wordBits = bits.UintSize

// refused is the NotImplementedError of an operation too long to run
// interruptibly.
func refused(what string, limit int) error {
	return errorf("NotImplementedError", "%s is not supported in code mode; operands that long cannot be interrupted by the cell's time limit (the bound is %d bits)", what, limit)
}

// MulCtx is x*y, checking ctx between bounded math/big products.
func MulCtx(ctx context.Context, x, y *big.Int) (*big.Int, error) {
	if min(x.BitLen(), y.BitLen()) <= MulLeafBits && max(x.BitLen(), y.BitLen()) <= 4*MulLeafBits {
		return new(big.Int).Mul(x, y), nil // one short math/big call, signs and all
	}
	ax, ay := x, y
	if x.Sign() < 0 {
		ax = new(big.Int).Neg(x)
	}
	if y.Sign() < 0 {
		ay = new(big.Int).Neg(y)
	}
	z, err := mulAbs(ctx, ax, ay)
	if err != nil {
		return nil, err
	}
	if x.Sign()*y.Sign() < 0 {
		z.Neg(z)
	}
	return z, nil
}

// mulAbs multiplies non-negative x and y.
func mulAbs(ctx context.Context, x, y *big.Int) (*big.Int, error) {
	xb, yb := x.BitLen(), y.BitLen()
	if xb < yb {
		x, y, xb, yb = y, x, yb, xb
	}
	if yb <= MulLeafBits && xb <= 4*MulLeafBits {
		return new(big.Int).Mul(x, y), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if yb <= MulLeafBits || xb >= 2*yb {
		// Unbalanced: x in chunks as long as y (at least a leaf), each
		// chunk's product added in at its place.
		return mulChunked(ctx, x, y, roundWords(max(yb, MulLeafBits)))
	}
	// Karatsuba on halves of whole words: x = x1*2^m + x0, likewise y.
	m := roundWords(xb / 2)
	x1, x0 := splitAt(x, m)
	y1, y0 := splitAt(y, m)
	z2, err := mulAbs(ctx, x1, y1)
	if err != nil {
		return nil, err
	}
	z0, err := mulAbs(ctx, x0, y0)
	if err != nil {
		return nil, err
	}
	z1, err := mulAbs(ctx, new(big.Int).Add(x1, x0), new(big.Int).Add(y1, y0))
	if err != nil {
		return nil, err
	}
	z1.Sub(z1, z2)
	z1.Sub(z1, z0)
	z := z2.Lsh(z2, uint(2*m))
	z.Add(z, z1.Lsh(z1, uint(m)))
	return z.Add(z, z0), nil
}

// mulChunked multiplies x by y taking x k bits at a time (k a multiple of
// the word size).
func mulChunked(ctx context.Context, x, y *big.Int, k int) (*big.Int, error) {
	xw := x.Bits()
	kw := k / wordBits
	acc := make([]big.Word, len(xw)+len(y.Bits())+1)
	for off := 0; off < len(xw); off += kw {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := new(big.Int).SetBits(clone(xw[off:min(off+kw, len(xw))]))
		p, err := mulAbs(ctx, chunk, y)
		if err != nil {
			return nil, err
		}
		addAt(acc, p.Bits(), off)
	}
	return new(big.Int).SetBits(acc), nil
}

// addAt adds p into z starting at word off; z is long enough for the sum.
func addAt(z, p []big.Word, off int) {
	var c uint
	i := 0
	for ; i < len(p); i++ {
		s, c2 := bits.Add(uint(z[off+i]), uint(p[i]), c)
		z[off+i], c = big.Word(s), c2
	}
	for j := off + i; c != 0 && j < len(z); j++ {
		s, c2 := bits.Add(uint(z[j]), 0, c)
		z[j], c = big.Word(s), c2
	}
}

func clone(w []big.Word) []big.Word { return append([]big.Word(nil), w...) }

// roundWords rounds n bits up to whole words (at least one).
func roundWords(n int) int {
	n = (n + wordBits - 1) / wordBits * wordBits
	return max(n, wordBits)
}

// splitAt returns x >> m and x mod 2^m for non-negative x, m a multiple
// of the word size.
func splitAt(x *big.Int, m int) (hi, lo *big.Int) {
	w := x.Bits()
	mw := m / wordBits
	if mw >= len(w) {
		return new(big.Int), new(big.Int).Set(x)
	}
	return new(big.Int).SetBits(clone(w[mw:])), new(big.Int).SetBits(clone(w[:mw]))
}

// QuoRemCtx is big.Int's QuoRem (truncated: q rounds toward zero, r has
// x's sign) with y != 0, checking ctx between bounded math/big divisions.
// A division whose divisor and quotient both have more than DivLeafBits
// bits is refused.
func QuoRemCtx(ctx context.Context, x, y *big.Int) (q, r *big.Int, err error) {
	if x.BitLen() <= DivLeafBits {
		// The quotient and the divisor are short too: one math/big call.
		q, r = new(big.Int).QuoRem(x, y, new(big.Int))
		return q, r, nil
	}
	ax, ay := new(big.Int).Abs(x), new(big.Int).Abs(y)
	q, r, err = quoRemAbs(ctx, ax, ay)
	if err != nil {
		return nil, nil, err
	}
	if x.Sign()*y.Sign() < 0 {
		q.Neg(q)
	}
	if x.Sign() < 0 {
		r.Neg(r)
	}
	return q, r, nil
}

// quoRemAbs divides non-negative x by positive y.
func quoRemAbs(ctx context.Context, x, y *big.Int) (q, r *big.Int, err error) {
	xb, yb := x.BitLen(), y.BitLen()
	if xb < yb {
		return new(big.Int), new(big.Int).Set(x), nil
	}
	qb := xb - yb + 1
	switch {
	case qb <= DivLeafBits && yb <= DivLeafBits:
		q, r = new(big.Int).QuoRem(x, y, new(big.Int))
		return q, r, nil
	case yb <= DivLeafBits:
		return divChunked(ctx, x, y, roundWords(max(yb, DivLeafBits)))
	case qb <= DivLeafBits:
		return divShortQuotient(ctx, x, y, qb)
	}
	return nil, nil, refused("int division with a divisor and a quotient both longer than 2**20 bits", DivLeafBits)
}

// divChunked is long division taking x k bits at a time from the top (k
// a multiple of the word size, at least y's length): each step divides a
// number of at most 2k bits by y.
func divChunked(ctx context.Context, x, y *big.Int, k int) (q, r *big.Int, err error) {
	xw := x.Bits()
	kw := k / wordBits
	qw := make([]big.Word, len(xw))
	r = new(big.Int)
	top := (len(xw) - 1) / kw * kw
	for off := top; off >= 0; off -= kw {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		cur := r.Lsh(r, uint(k))
		cur.Or(cur, new(big.Int).SetBits(clone(xw[off:min(off+kw, len(xw))])))
		qi, ri := new(big.Int).QuoRem(cur, y, new(big.Int))
		copy(qw[off:], qi.Bits()) // qi < 2^k since r < y
		r = ri
	}
	return new(big.Int).SetBits(qw), r, nil
}

// divShortQuotient divides x by a long y when the quotient (about qb
// bits) is short: it is estimated from the top bits of both, then
// corrected by computing the remainder x - q*y.
func divShortQuotient(ctx context.Context, x, y *big.Int, qb int) (q, r *big.Int, err error) {
	s := y.BitLen() - qb - 2*wordBits
	if s <= 0 {
		q, r = new(big.Int).QuoRem(x, y, new(big.Int))
		return q, r, nil
	}
	xs := new(big.Int).Rsh(x, uint(s))
	ys := new(big.Int).Rsh(y, uint(s))
	// The estimate is off by at most one: with q = floor(x/y),
	// x/y <= (xs+1)/ys, and x/y > xs/(ys+1) >= xs/ys - xs/ys^2 where
	// xs/ys^2 < 2^-(2*wordBits-1) since ys has 2*wordBits bits more than
	// the quotient.
	q = new(big.Int).Quo(xs, ys)
	p, err := mulAbs(ctx, q, y)
	if err != nil {
		return nil, nil, err
	}
	r = new(big.Int).Sub(x, p)
	// At most one step either way (see above).
	one := big.NewInt(1)
	for r.Sign() < 0 {
		q.Sub(q, one)
		r.Add(r, y)
	}
	for r.Cmp(y) >= 0 {
		q.Add(q, one)
		r.Sub(r, y)
	}
	return q, r, nil
}

// GCDCtx is gcd(|a|, |b|): Euclid's steps, each an interruptible
// division, until the shorter operand has at most GCDLeafBits bits, then
// math/big.
func GCDCtx(ctx context.Context, a, b *big.Int) (*big.Int, error) {
	x, y := new(big.Int).Abs(a), new(big.Int).Abs(b)
	for {
		if x.Cmp(y) < 0 {
			x, y = y, x
		}
		if y.Sign() == 0 {
			return x, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if y.BitLen() <= GCDLeafBits {
			if x.BitLen() > 2*GCDLeafBits {
				_, rem, err := quoRemAbs(ctx, x, y)
				if err != nil {
					return nil, err
				}
				x = rem
				continue
			}
			return new(big.Int).GCD(nil, nil, x, y), nil
		}
		_, rem, err := quoRemAbs(ctx, x, y)
		if err != nil {
			return nil, err
		}
		x = rem
	}
}
