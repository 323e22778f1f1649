package pysort

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
)

// recorded is one sort recorded from CPython 3.12 by testdata/gen.py; the
// script's doc comment describes the fields.
type recorded struct {
	Name        string  `json:"name"`
	V           []int   `json:"v"`
	N           int     `json:"n"`
	Reverse     bool    `json:"reverse"`
	Key         bool    `json:"key"`
	Calls       []int   `json:"calls"`
	NCalls      int     `json:"ncalls"`
	SHA256      string  `json:"sha256"`
	Seed        string  `json:"seed"`
	P           float64 `json:"p"`
	Fail        *int    `json:"fail"`
	Order       []int   `json:"order"`
	OrderSHA256 string  `json:"ordersha256"`
}

// loadRecorded reads testdata/cases.jsonl.gz, written by
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py
//
// run from this directory.
func loadRecorded(t testing.TB) []recorded {
	t.Helper()
	f, err := os.Open("testdata/cases.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []recorded
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var c recorded
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("case %d: %v", len(cases), err)
		}
		if c.V != nil {
			c.N = len(c.V)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// splitMix returns the k-th output of SplitMix64 started at seed, as
// testdata/gen.py's rand.
func splitMix(seed uint64, k int) uint64 {
	z := seed + uint64(k+1)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

var errStop = errors.New("stop")

// replay is the less of a recorded case: it checks each call against the
// recording and answers as CPython's __lt__ did.
type replay struct {
	c         *recorded
	k         int // calls so far
	seed      uint64
	threshold uint64
	h         hash.Hash // of the calls, when only their hash is recorded
	mismatch  string    // the first call that differs from the recording
}

func newReplay(t *testing.T, c *recorded) *replay {
	r := &replay{c: c}
	if c.Seed != "" {
		seed, err := strconv.ParseUint(c.Seed, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		r.seed = seed
		r.threshold = uint64(math.Ldexp(c.P, 64))
	}
	if c.Calls == nil {
		r.h = sha256.New()
	}
	return r
}

func (r *replay) less(a, b int) (bool, error) {
	k := r.k
	r.k++
	c := r.c
	if r.h != nil {
		var buf [8]byte
		binary.LittleEndian.PutUint32(buf[:4], uint32(a))
		binary.LittleEndian.PutUint32(buf[4:], uint32(b))
		r.h.Write(buf[:])
	} else if r.mismatch == "" {
		if 2*k+1 >= len(c.Calls) {
			r.mismatch = fmt.Sprintf("call %d is less(%d, %d); CPython made only %d calls", k, a, b, len(c.Calls)/2)
		} else if c.Calls[2*k] != a || c.Calls[2*k+1] != b {
			r.mismatch = fmt.Sprintf("call %d is less(%d, %d), CPython's is less(%d, %d)", k, a, b, c.Calls[2*k], c.Calls[2*k+1])
		}
	}
	if c.Fail != nil && k == *c.Fail {
		return false, errStop
	}
	if c.Seed != "" {
		return splitMix(r.seed, k) < r.threshold, nil
	}
	return c.V[a] < c.V[b], nil
}

// check compares the calls made and the final order with the recording.
func (r *replay) check(t *testing.T, order []int, err error) {
	t.Helper()
	c := r.c
	if r.mismatch != "" {
		t.Fatal(r.mismatch)
	}
	if c.Fail != nil {
		if err != errStop {
			t.Fatalf("err = %v, want the error of call %d", err, *c.Fail)
		}
	} else if err != nil {
		t.Fatalf("err = %v", err)
	}
	if r.h != nil {
		if r.k != c.NCalls {
			t.Fatalf("made %d calls, CPython %d", r.k, c.NCalls)
		}
		if got := hex.EncodeToString(r.h.Sum(nil)); got != c.SHA256 {
			t.Fatalf("the %d calls differ from CPython's (sha256 %s, want %s)", r.k, got, c.SHA256)
		}
	} else if r.k != len(c.Calls)/2 {
		t.Fatalf("made %d calls, CPython %d", r.k, len(c.Calls)/2)
	}
	if c.Order != nil {
		if !slices.Equal(order, c.Order) {
			t.Fatalf("order\n%v\nwant\n%v", order, c.Order)
		}
	} else {
		h := sha256.New()
		for _, x := range order {
			h.Write(binary.LittleEndian.AppendUint32(nil, uint32(x)))
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != c.OrderSHA256 {
			t.Fatalf("order differs from CPython's (sha256 %s, want %s)", got, c.OrderSHA256)
		}
	}
}

// item stands for an interpreter object in the tests of Slice.
type item struct{ id int }

// TestRecorded replays every sort recorded from CPython and requires the
// same comparisons, with the same operands in the same order, the same
// final order, and the same order left behind when a comparison fails.
// Key sorts go through Sort (the permutation of keys); the others through
// Slice on a slice of pointers.
func TestRecorded(t *testing.T) {
	cases := loadRecorded(t)
	if len(cases) < 10000 {
		t.Fatalf("only %d recorded cases", len(cases))
	}
	calls := 0
	for i := range cases {
		c := &cases[i]
		name := fmt.Sprintf("%d-%s-n%d", i, c.Name, c.N)
		ok := t.Run(name, func(t *testing.T) {
			r := newReplay(t, c)
			var order []int
			var err error
			if c.Key {
				order, err = Sort(c.N, c.Reverse, r.less)
			} else {
				s := make([]*item, c.N)
				for i := range s {
					s[i] = &item{i}
				}
				err = Slice(s, c.Reverse, func(a, b *item) (bool, error) { return r.less(a.id, b.id) })
				order = make([]int, len(s))
				for i, x := range s {
					order[i] = x.id
				}
			}
			r.check(t, order, err)
			calls += r.k
		})
		if !ok && testing.Short() {
			break
		}
	}
	t.Logf("%d recorded sorts, %d comparisons", len(cases), calls)
}

// TestFirstFailure is the case the package exists for: the TypeError of
// sorted([3, None, 1]) names the operands of CPython's first failing
// comparison, None < 3. The expected errors and orders are what CPython
// 3.12.1 gives for l.sort(reverse=...) of these lists (with the TypeError
// "'<' not supported between instances of 'NoneType' and 'int'" here
// written "NoneType < int").
func TestFirstFailure(t *testing.T) {
	tests := []struct {
		in      []any
		reverse bool
		want    string
		order   []any
	}{
		{[]any{3, nil, 1}, false, "NoneType < int", []any{3, nil, 1}},
		{[]any{3, nil, 1}, true, "NoneType < int", []any{3, nil, 1}},
		{[]any{1, 2, "a", 0}, false, "str < int", []any{1, 2, "a", 0}},
		{[]any{"b", "a", 3}, false, "int < str", []any{"b", "a", 3}},
		{[]any{2, 1, 0, "x"}, false, "str < int", []any{2, 1, 0, "x"}},
		{[]any{5, 4, 6, 3, "x"}, false, "str < int", []any{3, 4, 5, 6, "x"}},
	}
	for _, tt := range tests {
		s := slices.Clone(tt.in)
		err := Slice(s, tt.reverse, func(a, b any) (bool, error) {
			x, ok1 := a.(int)
			y, ok2 := b.(int)
			if ok1 && ok2 {
				return x < y, nil
			}
			if u, ok1 := a.(string); ok1 {
				if v, ok2 := b.(string); ok2 {
					return u < v, nil
				}
			}
			return false, fmt.Errorf("%s < %s", typeName(a), typeName(b))
		})
		if err == nil || err.Error() != tt.want {
			t.Errorf("sort %v (reverse=%v): err = %v, want %s", tt.in, tt.reverse, err, tt.want)
		}
		if !slices.Equal(s, tt.order) {
			t.Errorf("sort %v (reverse=%v): left %v, want %v", tt.in, tt.reverse, s, tt.order)
		}
	}
}

func typeName(x any) string {
	switch x.(type) {
	case nil:
		return "NoneType"
	case int:
		return "int"
	case string:
		return "str"
	}
	return fmt.Sprintf("%T", x)
}

func TestMinRunLength(t *testing.T) {
	tests := []struct{ n, want int }{
		{0, 0}, {1, 1}, {63, 63}, {64, 32}, {65, 33}, {127, 64}, {128, 32},
		{129, 33}, {2112, 33}, {1 << 20, 32}, {1<<20 + 1, 33},
	}
	for _, tt := range tests {
		if got := minRunLength(tt.n); got != tt.want {
			t.Errorf("minRunLength(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestNodePower checks nodePower against its definition, computed with
// exact fractions: the first binary digit in which the midpoints of the
// two runs, as fractions of n, differ.
func TestNodePower(t *testing.T) {
	for n := 2; n <= 70; n++ {
		for s1 := 0; s1 < n; s1++ {
			for n1 := 1; s1+n1 < n; n1++ {
				for n2 := 1; s1+n1+n2 <= n; n2++ {
					// midpoints as fractions of n: a = (2*s1+n1)/(2n), b = (2*s1+2*n1+n2)/(2n)
					a, b, d := 2*s1+n1, 2*s1+2*n1+n2, 2*n
					want := 0
					for p := 1; ; p++ {
						// digit p of x/d is floor(x*2^p/d) mod 2
						if (a<<p)/d != (b<<p)/d {
							want = p
							break
						}
					}
					if got := nodePower(s1, n1, n2, n); got != want {
						t.Fatalf("nodePower(%d, %d, %d, %d) = %d, want %d", s1, n1, n2, n, got, want)
					}
				}
			}
		}
	}
}

// TestEmpty checks that a sort of fewer than two items makes no calls.
func TestEmpty(t *testing.T) {
	for n := range 2 {
		for _, reverse := range []bool{false, true} {
			perm, err := Sort(n, reverse, func(a, b int) (bool, error) {
				t.Fatalf("less called for %d items", n)
				return false, nil
			})
			if err != nil || len(perm) != n {
				t.Fatalf("Sort(%d) = %v, %v", n, perm, err)
			}
		}
	}
}

// TestStable sorts many random inputs of many sizes and compares with
// slices.SortStableFunc, including reverse (which keeps equal items in
// their original order, sorted descending).
func TestStable(t *testing.T) {
	seed := uint64(1)
	for n := 0; n < 3000; n += 1 + n/16 {
		for _, span := range []int{2, 10, n + 1, 1 << 30} {
			s := make([]int, n)
			for i := range s {
				s[i] = int(splitMix(seed, i) % uint64(span))
			}
			seed++
			for _, reverse := range []bool{false, true} {
				perm, err := Sort(n, reverse, func(a, b int) (bool, error) { return s[a] < s[b], nil })
				if err != nil {
					t.Fatal(err)
				}
				want := make([]int, n)
				for i := range want {
					want[i] = i
				}
				slices.SortStableFunc(want, func(a, b int) int {
					if reverse {
						a, b = b, a
					}
					return s[a] - s[b]
				})
				if !slices.Equal(perm, want) {
					t.Fatalf("n=%d span=%d reverse=%v: wrong order", n, span, reverse)
				}
			}
		}
	}
}
