package pyfmt

import (
	"math"
	"math/big"
	"math/bits"
)

// Python's numeric hash: the value modulo the prime 2**61 - 1, with the
// sign of the value, and -1 (an error code in C) replaced by -2.
const (
	hashBits    = 61
	hashModulus = 1<<hashBits - 1
	hashInf     = 314159
	hashImag    = 1000003
)

func fixHash(h int64) int64 {
	if h == -1 {
		return -2
	}
	return h
}

// HashInt is hash(x) of an int64 (hash(-1) == -2).
func HashInt(x int64) int64 {
	if x >= 0 {
		return x % hashModulus
	}
	u := uint64(-x) // right for math.MinInt64 too
	return fixHash(-int64(u % hashModulus))
}

// HashBigInt is hash(x) of any int, in time linear in x's size.
func HashBigInt(x *big.Int) int64 {
	if x.IsInt64() {
		return HashInt(x.Int64())
	}
	// x = sum of w[i] * 2**(wordBits*i), and 2**61 is 1 modulo the prime,
	// so 2**(wordBits*i) is 2**(wordBits*i mod 61)
	var h uint64
	for i, w := range x.Bits() {
		u := uint64(w)
		u = u&hashModulus + u>>hashBits // < 2**61 + 8
		if u >= hashModulus {
			u -= hashModulus
		}
		h += rotl61(u, uint(i*bits.UintSize%hashBits))
		if h >= hashModulus {
			h -= hashModulus
		}
	}
	if x.Sign() < 0 {
		return fixHash(-int64(h))
	}
	return int64(h)
}

// rotl61 is u * 2**r modulo 2**61-1 for u below the modulus.
func rotl61(u uint64, r uint) uint64 {
	u = (u<<r | u>>(hashBits-r)) & hashModulus
	if u == hashModulus {
		u = 0
	}
	return u
}

// HashFloat is hash(x) of a float: equal to the hash of an int or
// fraction of the same value; hash(inf) == 314159. For a NaN ok is false:
// CPython hashes a NaN by the object's identity, which the caller supplies.
func HashFloat(x float64) (h int64, ok bool) {
	switch {
	case math.IsNaN(x):
		return 0, false
	case math.IsInf(x, 1):
		return hashInf, true
	case math.IsInf(x, -1):
		return -hashInf, true
	case x == 0:
		return 0, true
	}
	m, e := mantExp(math.Abs(x)) // |x| = m * 2**e, m < 2**53
	u := uint64(m)               // < the prime
	// multiply by 2**e modulo 2**61-1: rotate within 61 bits
	r := e % hashBits
	if r < 0 {
		r += hashBits
	}
	u = rotl61(u, uint(r))
	if x < 0 {
		return fixHash(-int64(u)), true
	}
	return int64(u), true
}

// HashComplex is hash(complex(re, im)): ok is false when either part is a
// NaN (see HashFloat), else it is HashComplexParts of the parts' hashes.
func HashComplex(re, im float64) (h int64, ok bool) {
	hr, ok1 := HashFloat(re)
	hi, ok2 := HashFloat(im)
	if !ok1 || !ok2 {
		return 0, false
	}
	return HashComplexParts(hr, hi), true
}

// HashComplexParts combines the hashes of a complex number's parts as
// CPython does (with unsigned 64-bit wraparound).
func HashComplexParts(hre, him int64) int64 {
	return fixHash(int64(uint64(hre) + hashImag*uint64(him)))
}
