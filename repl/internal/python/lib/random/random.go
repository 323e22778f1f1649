package random

import (
	"math"
	"math/big"
	"math/bits"
)

// Bounds on requests whose cost grows with an argument. CPython honours
// larger ones; this interpreter refuses them with a LimitError.
const (
	// MaxBits is the largest k getrandbits(k) accepts (and so the bit
	// length of the largest range randrange and friends draw from).
	MaxBits = 1 << 26
	// MaxDraws is the largest number of items sample and choices return.
	MaxDraws = 1 << 24
)

// Random returns the next float in [0.0, 1.0), made of 53 random bits
// exactly as CPython's random.random().
func (r *Random) Random() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// uint64Bits returns getrandbits(k) for 0 <= k <= 64.
func (r *Random) uint64Bits(k int) uint64 {
	switch {
	case k == 0:
		return 0
	case k <= 32:
		return uint64(r.Uint32() >> (32 - k))
	}
	lo := uint64(r.Uint32())
	hi := uint64(r.Uint32() >> (64 - k))
	return lo | hi<<32
}

// GetRandBits returns random.getrandbits(k): a non-negative int of k
// random bits, drawn 32 at a time, least significant word first.
func (r *Random) GetRandBits(k int64) (*big.Int, error) {
	if k < 0 {
		return nil, valueError("number of bits must be non-negative")
	}
	if k > MaxBits {
		return nil, newError(LimitError, "getrandbits(%d) exceeds this interpreter's limit of %d bits", k, MaxBits)
	}
	if k <= 64 {
		return new(big.Int).SetUint64(r.uint64Bits(int(k))), nil
	}
	nwords := (k-1)/32 + 1
	words := make([]big.Word, (nwords*32+wordBits-1)/wordBits)
	rem := k
	for i := int64(0); i < nwords; i++ {
		w := r.Uint32()
		if rem < 32 {
			w >>= 32 - rem
		}
		rem -= 32
		if wordBits == 64 {
			words[i/2] |= big.Word(w) << (32 * (i % 2))
		} else {
			words[i] = big.Word(w)
		}
	}
	return new(big.Int).SetBits(words), nil
}

// RandBytes returns random.randbytes(n): getrandbits(n*8) as n
// little-endian bytes.
func (r *Random) RandBytes(n int64) ([]byte, error) {
	if n < 0 {
		return nil, valueError("number of bits must be non-negative")
	}
	if n > MaxBits/8 {
		return nil, newError(LimitError, "randbytes(%d) exceeds this interpreter's limit of %d bytes", n, MaxBits/8)
	}
	v, err := r.GetRandBits(n * 8)
	if err != nil {
		return nil, err
	}
	be := v.FillBytes(make([]byte, n))
	for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
		be[i], be[j] = be[j], be[i]
	}
	return be, nil
}

// randbelowUint returns random._randbelow(n) for 0 < n < 2**64.
func (r *Random) randbelowUint(n uint64) uint64 {
	k := bits.Len64(n)
	v := r.uint64Bits(k)
	for v >= n {
		v = r.uint64Bits(k)
	}
	return v
}

// Randbelow returns random._randbelow(n): an int in [0, n) drawn by
// getrandbits(n.bit_length()) with rejection. n must be positive.
func (r *Random) Randbelow(n *big.Int) (*big.Int, error) {
	if n.Sign() <= 0 {
		// CPython loops forever on 0; no caller passes it.
		return nil, valueError("_randbelow requires a positive bound")
	}
	if n.IsUint64() {
		return new(big.Int).SetUint64(r.randbelowUint(n.Uint64())), nil
	}
	k := int64(n.BitLen())
	for {
		v, err := r.GetRandBits(k)
		if err != nil {
			return nil, err
		}
		if v.Cmp(n) < 0 {
			return v, nil
		}
	}
}

// RandbelowInt is Randbelow for an int bound n > 0.
func (r *Random) RandbelowInt(n int) int {
	return int(r.randbelowUint(uint64(n)))
}

var bigOne = big.NewInt(1)

// RandRange returns random.randrange(start, stop, step). A nil stop stands
// for stop=None and a nil step for the default step; randrange(n, None, s)
// with an explicit step is the caller's TypeError ("Missing a non-None stop
// argument") unless s is the int 1, for which it passes a nil step. The
// messages show the arguments in decimal, as str() of ints shows them.
func (r *Random) RandRange(start, stop, step *big.Int) (*big.Int, error) {
	if stop == nil {
		if step != nil && step.Cmp(bigOne) != 0 {
			return nil, newError(TypeError, "Missing a non-None stop argument")
		}
		if start.Sign() > 0 {
			return r.Randbelow(start)
		}
		return nil, valueError("empty range for randrange()")
	}
	width := new(big.Int).Sub(stop, start)
	if step == nil || step.Cmp(bigOne) == 0 {
		if width.Sign() > 0 {
			v, err := r.Randbelow(width)
			if err != nil {
				return nil, err
			}
			return v.Add(v, start), nil
		}
		return nil, valueError("empty range in randrange(%s, %s)", start, stop)
	}
	var n *big.Int
	switch step.Sign() {
	case 1:
		n = new(big.Int).Add(width, step)
		n.Sub(n, bigOne)
	case -1:
		n = new(big.Int).Add(width, step)
		n.Add(n, bigOne)
	default:
		return nil, valueError("zero step for randrange()")
	}
	floorDiv(n, step)
	if n.Sign() <= 0 {
		return nil, valueError("empty range in randrange(%s, %s, %s)", start, stop, step)
	}
	v, err := r.Randbelow(n)
	if err != nil {
		return nil, err
	}
	v.Mul(v, step)
	return v.Add(v, start), nil
}

// floorDiv sets n to floor(n / d).
func floorDiv(n, d *big.Int) {
	m := new(big.Int)
	n.QuoRem(n, d, m)
	if m.Sign() != 0 && m.Sign() != d.Sign() {
		n.Sub(n, bigOne)
	}
}

// RandInt returns random.randint(a, b), which is randrange(a, b+1); the
// error message shows b+1 as CPython's does.
func (r *Random) RandInt(a, b *big.Int) (*big.Int, error) {
	return r.RandRange(a, new(big.Int).Add(b, bigOne), nil)
}

// Choice returns the index random.choice picks from a sequence of length n.
func (r *Random) Choice(n int) (int, error) {
	if n <= 0 {
		return 0, newError(IndexError, "Cannot choose from an empty sequence")
	}
	return r.RandbelowInt(n), nil
}

// Shuffle shuffles a sequence of length n like random.shuffle, calling
// swap(i, j) for each exchange.
func (r *Random) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := r.RandbelowInt(i + 1)
		swap(i, j)
	}
}

// sampleSetSize is the threshold of random.sample's switch between its
// pool and its set algorithm.
func sampleSetSize(k int64) int64 {
	setsize := int64(21)
	if k > 5 {
		e := math.Ceil(pyLog(float64(k*3)) / pyLog(4))
		setsize += int64(1) << (2 * int64(e))
	}
	return setsize
}

// Sample returns the indexes random.sample(population, k) picks from a
// population of length n, in selection order.
func (r *Random) Sample(n int, k int64) ([]int, error) {
	if k < 0 || k > int64(n) {
		return nil, valueError("Sample larger than population or is negative")
	}
	if k > MaxDraws {
		return nil, newError(LimitError, "sample of %d items exceeds this interpreter's limit of %d", k, MaxDraws)
	}
	vals := r.sampleRange(uint64(n), int(k))
	out := make([]int, len(vals))
	for i, v := range vals {
		out[i] = int(v)
	}
	return out, nil
}

// sampleRange is random.sample(range(n), k) for valid 0 <= k <= n.
func (r *Random) sampleRange(n uint64, k int) []uint64 {
	result := make([]uint64, k)
	if n <= uint64(sampleSetSize(int64(k))) {
		pool := make([]uint64, n)
		for i := range pool {
			pool[i] = uint64(i)
		}
		for i := 0; i < k; i++ {
			j := r.randbelowUint(n - uint64(i))
			result[i] = pool[j]
			pool[j] = pool[n-uint64(i)-1]
		}
		return result
	}
	selected := make(map[uint64]struct{}, k)
	for i := 0; i < k; i++ {
		j := r.randbelowUint(n)
		for {
			if _, dup := selected[j]; !dup {
				break
			}
			j = r.randbelowUint(n)
		}
		selected[j] = struct{}{}
		result[i] = j
	}
	return result
}

// SampleCounts returns the indexes random.sample(population, k,
// counts=counts) picks, for a population of len(counts) items. The wrapper
// accumulates the counts itself only to check types: a total that is not an
// int is its TypeError ("Counts must be integers").
func (r *Random) SampleCounts(counts []*big.Int, k int64) ([]int, error) {
	n := len(counts)
	if n == 0 {
		// list(accumulate([])) is empty, and pop() from it fails.
		return nil, newError(IndexError, "pop from empty list")
	}
	cum := make([]*big.Int, n)
	acc := new(big.Int)
	for i, c := range counts {
		acc = new(big.Int).Add(acc, c)
		cum[i] = acc
	}
	total := cum[n-1]
	cum = cum[:n-1]
	if total.Sign() <= 0 {
		return nil, valueError("Total of counts must be greater than zero")
	}
	if !total.IsInt64() {
		// len(range(total)) fails before sample checks k.
		return nil, newError(OverflowError, "Python int too large to convert to C ssize_t")
	}
	if k < 0 || big.NewInt(k).Cmp(total) > 0 {
		return nil, valueError("Sample larger than population or is negative")
	}
	if k > MaxDraws {
		return nil, newError(LimitError, "sample of %d items exceeds this interpreter's limit of %d", k, MaxDraws)
	}
	out := make([]int, k)
	sel := r.sampleRange(total.Uint64(), int(k))
	s := new(big.Int)
	for i, v := range sel {
		out[i] = bisectRightBig(cum, s.SetUint64(v))
	}
	return out, nil
}

func bisectRightBig(a []*big.Int, x *big.Int) int {
	lo, hi := 0, len(a)
	for lo < hi {
		mid := (lo + hi) / 2
		if x.Cmp(a[mid]) < 0 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// Choices returns the indexes random.choices(population, k=k) picks from a
// population of length n, with cumWeights the cumulative weights (nil when
// neither weights nor cum_weights is given; the wrapper accumulates
// weights= itself, and raises "Cannot specify both weights and cumulative
// weights"). Without weights and with n == 0, it draws once and returns
// the index 0, so that indexing the population raises its own IndexError
// at the point CPython does. A negative k gives no items.
func (r *Random) Choices(n int, cumWeights []float64, k int64) ([]int, error) {
	if k > MaxDraws {
		return nil, newError(LimitError, "choices of %d items exceeds this interpreter's limit of %d", k, MaxDraws)
	}
	if k < 0 {
		k = 0
	}
	if cumWeights == nil {
		fn := float64(n)
		out := make([]int, 0, k)
		for i := int64(0); i < k; i++ {
			out = append(out, int(math.Floor(r.Random()*fn)))
			if n == 0 {
				break
			}
		}
		return out, nil
	}
	if len(cumWeights) != n {
		return nil, valueError("The number of weights does not match the population")
	}
	if n == 0 {
		return nil, newError(IndexError, "list index out of range")
	}
	total := cumWeights[n-1] + 0.0
	if total <= 0.0 {
		return nil, valueError("Total of weights must be greater than zero")
	}
	if math.IsInf(total, 0) || math.IsNaN(total) {
		return nil, valueError("Total of weights must be finite")
	}
	hi := n - 1
	out := make([]int, k)
	for i := range out {
		x := r.Random() * total
		lo, h := 0, hi
		for lo < h {
			mid := (lo + h) / 2
			if x < cumWeights[mid] {
				h = mid
			} else {
				lo = mid + 1
			}
		}
		out[i] = lo
	}
	return out, nil
}
