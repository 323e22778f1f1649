package python

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// Python's hash functions, exactly as CPython 3.12 computes them (64-bit),
// with string hashing keyed as CPython is under PYTHONHASHSEED=0. Set
// iteration order depends on hashes, so matching them makes printed sets
// match CPython's.

// hashInt returns hash(n) for an int64.
func hashInt(n int64) int64 { return pyfmt.HashInt(n) }

// hashBig returns hash(n) for a big int.
func hashBig(n *big.Int) int64 { return pyfmt.HashBigInt(n) }

// hashFloat returns hash(x) for a float; NaN hashes by identity in
// CPython, here as 0.
func hashFloat(x float64) int64 {
	h, _ := pyfmt.HashFloat(x)
	return h
}

// hashComplex returns hash(complex(re, im)).
func hashComplex(re, im float64) int64 {
	h, _ := pyfmt.HashComplex(re, im)
	return h
}

// hashStr returns hash(s) of a str: SipHash-1-3 with a zero key over the
// string's canonical code-unit representation (1, 2 or 4 bytes per code
// point by its largest code point, little-endian).
func hashStr(s string, ascii bool) int64 {
	if s == "" {
		return 0
	}
	if ascii {
		return fixHash(siphash13([]byte(s)))
	}
	maxc := rune(0)
	n := 0
	for _, r := range s {
		maxc = max(maxc, r)
		n++
	}
	var buf []byte
	switch {
	case maxc < 0x100:
		buf = make([]byte, 0, n)
		for _, r := range s {
			buf = append(buf, byte(r))
		}
	case maxc < 0x10000:
		buf = make([]byte, 0, 2*n)
		for _, r := range s {
			buf = append(buf, byte(r), byte(r>>8))
		}
	default:
		buf = make([]byte, 0, 4*n)
		for _, r := range s {
			buf = append(buf, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return fixHash(siphash13(buf))
}

// hashBytes returns hash(b) of a bytes value.
func hashBytes(b string) int64 {
	if b == "" {
		return 0
	}
	return fixHash(siphash13([]byte(b)))
}

func fixHash(h uint64) int64 {
	r := int64(h)
	if r == -1 {
		r = -2
	}
	return r
}

// siphash13 is SipHash with 1 compression and 3 finalization rounds and a
// zero key.
func siphash13(b []byte) uint64 {
	var k0, k1 uint64
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(b)
	for len(b) >= 8 {
		m := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		v3 ^= m
		round()
		v0 ^= m
		b = b[8:]
	}
	t := uint64(n) << 56
	for i := len(b) - 1; i >= 0; i-- {
		t |= uint64(b[i]) << (8 * uint(i))
	}
	v3 ^= t
	round()
	v0 ^= t
	v2 ^= 0xff
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}

// Constants of CPython's tuple hash (xxHash-based).
const (
	xxPrime1 = 11400714785074694791
	xxPrime2 = 14029467366897019727
	xxPrime5 = 2870177450012600261
)

// hashTupleOf combines item hashes as CPython's tuple hash does.
func hashTupleOf(hs []int64) int64 {
	acc := uint64(xxPrime5)
	for _, h := range hs {
		acc += uint64(h) * xxPrime2
		acc = bits.RotateLeft64(acc, 31)
		acc *= xxPrime1
	}
	acc += uint64(len(hs)) ^ (xxPrime5 ^ 3527539)
	if acc == math.MaxUint64 {
		return 1546275796
	}
	return int64(acc)
}

// hashSliceOf combines a slice's start, stop and step hashes: the tuple
// algorithm without its length step, as CPython 3.12's slice_hash.
func hashSliceOf(hs [3]int64) int64 {
	acc := uint64(xxPrime5)
	for _, h := range hs {
		acc += uint64(h) * xxPrime2
		acc = bits.RotateLeft64(acc, 31)
		acc *= xxPrime1
	}
	if acc == math.MaxUint64 {
		return 1546275796
	}
	return int64(acc)
}

func shuffleBits(h uint64) uint64 {
	return ((h ^ 89869747) ^ (h << 16)) * 3644798167
}

// hashFrozenSetOf combines the item hashes of a frozenset.
func hashFrozenSetOf(hs []int64) int64 {
	var h uint64
	for _, x := range hs {
		h ^= shuffleBits(uint64(x))
	}
	h ^= (uint64(len(hs)) + 1) * 1927868237
	h ^= (h >> 11) ^ (h >> 25)
	h = h*69069 + 907133923
	if h == math.MaxUint64 {
		h = 590923713
	}
	return int64(h)
}

// hashNone is CPython 3.12's constant hash of None.
const hashNone = 0xFCA86420
