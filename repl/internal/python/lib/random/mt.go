// Package random is the algorithmic kernel of CPython 3.12's random module:
// the Mersenne Twister generator with CPython's seeding, and every method of
// random.Random, reproducing CPython's draws bit for bit.
//
// The package works on Go values only. Sequences and populations are
// abstract: methods take lengths and return indexes, and the caller maps
// them to objects. Errors are *Error values whose Type names the Python
// exception to raise and whose Msg is CPython's message.
//
// Register makes the module importable by code mode's interpreter: the
// wrapper in module.go exposes the kernel to Python code as CPython's
// random module does.
package random

import (
	"crypto/sha512"
	"math/big"
)

const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Random is the state of one generator, like an instance of random.Random.
// The zero value is not seeded; use New.
type Random struct {
	mt        [mtN]uint32
	index     int
	gaussNext float64
	hasGauss  bool
}

// New returns a generator seeded with the integer 0.
func New() *Random {
	r := &Random{}
	r.SeedUint64(0)
	return r
}

func (r *Random) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < mtN; i++ {
		prev := r.mt[i-1]
		r.mt[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	r.index = mtN
}

func (r *Random) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := len(key)
	if mtN > k {
		k = mtN
	}
	for ; k > 0; k-- {
		prev := r.mt[i-1]
		r.mt[i] = (r.mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		prev := r.mt[i-1]
		r.mt[i] = (r.mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// Uint32 returns the next 32-bit output of the generator (genrand_uint32).
func (r *Random) Uint32() uint32 {
	if r.index >= mtN {
		r.twist()
	}
	y := r.mt[r.index]
	r.index++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

func (r *Random) twist() {
	mag := func(y uint32) uint32 {
		if y&1 != 0 {
			return matrixA
		}
		return 0
	}
	var kk int
	for kk = 0; kk < mtN-mtM; kk++ {
		y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
		r.mt[kk] = r.mt[kk+mtM] ^ (y >> 1) ^ mag(y)
	}
	for ; kk < mtN-1; kk++ {
		y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
		r.mt[kk] = r.mt[kk+(mtM-mtN)] ^ (y >> 1) ^ mag(y)
	}
	y := (r.mt[mtN-1] & upperMask) | (r.mt[0] & lowerMask)
	r.mt[mtN-1] = r.mt[mtM-1] ^ (y >> 1) ^ mag(y)
	r.index = 0
}

// SeedInt seeds like random.seed(a) for an int a: the absolute value's
// 32-bit words, least significant first, go to init_by_array. It also
// clears the cached gauss value.
func (r *Random) SeedInt(a *big.Int) {
	n := new(big.Int).Abs(a)
	words := n.Bits()
	var key []uint32
	for _, w := range words {
		key = append(key, uint32(w))
		if wordBits == 64 {
			key = append(key, uint32(uint64(w)>>32))
		}
	}
	for len(key) > 1 && key[len(key)-1] == 0 {
		key = key[:len(key)-1]
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	r.initByArray(key)
	r.hasGauss = false
}

const wordBits = 32 << (^big.Word(0) >> 63)

// SeedUint64 seeds like random.seed(n) for 0 <= n < 2**64.
func (r *Random) SeedUint64(n uint64) {
	key := []uint32{uint32(n)}
	if n>>32 != 0 {
		key = append(key, uint32(n>>32))
	}
	r.initByArray(key)
	r.hasGauss = false
}

// SeedHash seeds like random.seed(x) for a float (or any other hashable
// the C seed accepts) whose hash(x) is h: the hash is taken as an unsigned
// 64-bit number.
func (r *Random) SeedHash(h int64) { r.SeedUint64(uint64(h)) }

// SeedBytes seeds like random.seed(b) for bytes or bytearray b with the
// default version 2: the seed is int.from_bytes(b + sha512(b).digest()),
// big-endian. For a str, pass its UTF-8 encoding.
func (r *Random) SeedBytes(b []byte) {
	sum := sha512.Sum512(b)
	buf := make([]byte, 0, len(b)+len(sum))
	buf = append(buf, b...)
	buf = append(buf, sum[:]...)
	r.SeedInt(new(big.Int).SetBytes(buf))
}

// SeedVersion1 seeds like random.seed(a, version=1) for a str a given as
// its code points (for bytes, each byte is one code point, as latin-1).
func (r *Random) SeedVersion1(a []rune) {
	var x uint64
	if len(a) > 0 {
		x = uint64(a[0]) << 7
	}
	for _, c := range a {
		x = (1000003 * x) ^ uint64(c)
	}
	x ^= uint64(len(a))
	r.SeedUint64(x)
}

// State is the generator's state as random.getstate() returns it: version
// 3, the 624 words plus the index, and the cached gauss value.
type State struct {
	Words     [mtN]uint32
	Index     int
	GaussNext float64
	HasGauss  bool // GaussNext is None when false
}

// GetState returns the generator's state.
func (r *Random) GetState() State {
	return State{Words: r.mt, Index: r.index, GaussNext: r.gaussNext, HasGauss: r.hasGauss}
}

// SetState restores a state from GetState. The wrapper checks the outer
// tuple (version 3 or 2: "state with version %s passed to
// Random.setstate() of version 3"), converts each of the 625 internal
// ints like PyLong_AsUnsignedLong (taking the low 32 bits of the words),
// and reports a wrong length as ValueError "state vector is the wrong
// size". SetState itself checks the index.
func (r *Random) SetState(s State) error {
	if s.Index < 0 || s.Index > mtN {
		return valueError("invalid state")
	}
	r.mt = s.Words
	r.index = s.Index
	r.gaussNext = s.GaussNext
	r.hasGauss = s.HasGauss
	return nil
}

// StateSize is the length of the internal state tuple (624 words and the
// index).
const StateSize = mtN + 1
