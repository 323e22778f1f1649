package pyfmt

import (
	"context"
	"errors"
	"math/big"
	"math/rand"
	"testing"
)

func randBits(r *rand.Rand, n int) *big.Int {
	if n == 0 {
		return new(big.Int)
	}
	x := new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(n)))
	x.SetBit(x, n-1, 1)
	if r.Intn(2) == 0 {
		x.Neg(x)
	}
	return x
}

// The interruptible kernels agree with math/big on both sides of every
// split: sizes around the leaves, unbalanced operands, signs.
func TestBigKernelsAgreeWithMathBig(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	sizes := [][2]int{{1, 1}, {64, 64}, {1000, 3}, {MulLeafBits, MulLeafBits}, {MulLeafBits + 1, MulLeafBits + 1},
		{3*MulLeafBits + 17, MulLeafBits + 5}, {5 * MulLeafBits, 100}, {4*MulLeafBits + 3, 2*MulLeafBits + 64},
		{DivLeafBits + 5, 64}, {3 * DivLeafBits, 300000}, {2*DivLeafBits + 77, DivLeafBits}, {DivLeafBits*5/2 + 1, DivLeafBits*8/5 + 3},
		{DivLeafBits + 200, DivLeafBits + 100}}
	if testing.Short() {
		sizes = sizes[:6]
	}
	ctx := context.Background()
	for _, sz := range sizes {
		x, y := randBits(r, sz[0]), randBits(r, sz[1])
		p, err := MulCtx(ctx, x, y)
		if err != nil || p.Cmp(new(big.Int).Mul(x, y)) != 0 {
			t.Errorf("MulCtx(%d bits, %d bits) wrong (err %v)", sz[0], sz[1], err)
		}
		q, m, err := QuoRemCtx(ctx, x, y)
		wq, wm := new(big.Int).QuoRem(x, y, new(big.Int))
		if err != nil || q.Cmp(wq) != 0 || m.Cmp(wm) != 0 {
			t.Errorf("QuoRemCtx(%d bits, %d bits) wrong (err %v)", sz[0], sz[1], err)
		}
		if sz[0] <= GCDLeafBits*4 {
			g, err := GCDCtx(ctx, x, y)
			wg := new(big.Int).GCD(nil, nil, new(big.Int).Abs(x), new(big.Int).Abs(y))
			if err != nil || g.Cmp(wg) != 0 {
				t.Errorf("GCDCtx(%d bits, %d bits) wrong (err %v)", sz[0], sz[1], err)
			}
		}
	}
	// A common factor survives Euclid's steps above the leaf.
	f := randBits(r, 1000)
	a := new(big.Int).Mul(f, randBits(r, GCDLeafBits+500))
	b := new(big.Int).Mul(f, randBits(r, GCDLeafBits+300))
	g, err := GCDCtx(ctx, a, b)
	if err != nil || g.Cmp(new(big.Int).GCD(nil, nil, new(big.Int).Abs(a), new(big.Int).Abs(b))) != 0 {
		t.Errorf("GCDCtx with a common factor wrong (err %v)", err)
	}
}

// Small random operands, many of them.
func TestBigKernelsRandomSmall(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ctx := context.Background()
	for i := 0; i < 2000; i++ {
		x, y := randBits(r, r.Intn(3000)), randBits(r, 1+r.Intn(3000))
		if p, _ := MulCtx(ctx, x, y); p.Cmp(new(big.Int).Mul(x, y)) != 0 {
			t.Fatalf("MulCtx(%v, %v)", x, y)
		}
		q, m, _ := QuoRemCtx(ctx, x, y)
		wq, wm := new(big.Int).QuoRem(x, y, new(big.Int))
		if q.Cmp(wq) != 0 || m.Cmp(wm) != 0 {
			t.Fatalf("QuoRemCtx(%v, %v)", x, y)
		}
	}
}

// A cancelled context stops every long kernel; a division too long to
// split is refused.
func TestBigKernelsStop(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x, y := randBits(r, 4*DivLeafBits), randBits(r, 3*MulLeafBits)
	if _, err := MulCtx(ctx, x, x); !errors.Is(err, context.Canceled) {
		t.Errorf("MulCtx on a cancelled context: %v", err)
	}
	if _, _, err := QuoRemCtx(ctx, x, y); !errors.Is(err, context.Canceled) {
		t.Errorf("QuoRemCtx on a cancelled context: %v", err)
	}
	if _, err := GCDCtx(ctx, x, y); !errors.Is(err, context.Canceled) {
		t.Errorf("GCDCtx on a cancelled context: %v", err)
	}
	_, _, err := QuoRemCtx(context.Background(), randBits(r, 3*DivLeafBits+10), randBits(r, DivLeafBits+10))
	var e *Error
	if !errors.As(err, &e) || e.Type != "NotImplementedError" {
		t.Errorf("a division with a long divisor and quotient: %v", err)
	}
}
