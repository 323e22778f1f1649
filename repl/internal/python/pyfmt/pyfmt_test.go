package pyfmt

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

func wantErr(t *testing.T, err error, typ, msgPrefix string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want %s", err, typ)
	}
	if e.Type != typ || !strings.HasPrefix(e.Msg, msgPrefix) {
		t.Fatalf("got %s: %s, want %s: %s...", e.Type, e.Msg, typ, msgPrefix)
	}
}

func TestInt64Edges(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Int64Base(math.MinInt64, 16), "-0x8000000000000000"},
		{Int64Base(math.MinInt64, 2), "-0b1" + strings.Repeat("0", 63)},
		{Int64Base(0, 8), "0o0"},
		{IntBase(big.NewInt(-255), 16), "-0xff"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if s, _ := FormatInt(math.MinInt64, "_x", "int", 0, 0); s != "-8000_0000_0000_0000" {
		t.Errorf("FormatInt(MinInt64, _x) = %q", s)
	}
	if s, _ := FormatInt(math.MinInt64, ",", "int", 0, 0); s != "-9,223,372,036,854,775,808" {
		t.Errorf("FormatInt(MinInt64, ,) = %q", s)
	}
	if h := HashInt(math.MinInt64); h != -4 {
		// -2**63 = -(4 * 2**61) = -(4 * (2**61-1) + 4)
		t.Errorf("HashInt(MinInt64) = %d, want -4", h)
	}
	if h := HashInt(-1); h != -2 {
		t.Errorf("HashInt(-1) = %d", h)
	}
	small, b, err := ParseInt("-9223372036854775808", 10, DefaultMaxStrDigits)
	if err != nil || b != nil || small != math.MinInt64 {
		t.Errorf("ParseInt(MinInt64) = %d, %v, %v", small, b, err)
	}
	small, b, err = ParseInt("9223372036854775808", 10, DefaultMaxStrDigits)
	if err != nil || b == nil || b.String() != "9223372036854775808" {
		t.Errorf("ParseInt(MaxInt64+1) = %d, %v, %v", small, b, err)
	}
}

// TestParseIntLong checks the divide-and-conquer conversion of long
// decimal strings (no digit limit) against math/big's.
func TestParseIntLong(t *testing.T) {
	for _, n := range []int{1999, 2000, 2001, 4001, 9999, 30011} {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteByte(byte('0' + (i*7+i/3)%10))
		}
		s := sb.String()
		want, _ := new(big.Int).SetString(s, 10)
		for _, base := range []int{10, 0} {
			if base == 0 && s[0] == '0' {
				continue
			}
			_, got, err := ParseInt(s, base, 0)
			if err != nil || got.Cmp(want) != 0 {
				t.Fatalf("n=%d base %d: wrong value (err %v)", n, base, err)
			}
		}
		_, got, err := ParseInt(s, 7, 0)
		want7, _ := new(big.Int).SetString(strings.Map(func(r rune) rune {
			if r >= '7' {
				return '0'
			}
			return r
		}, s), 7)
		_ = want7
		if err == nil && got == nil {
			t.Fatalf("base 7 parsed nothing")
		}
	}
	_, _, err := ParseInt(strings.Repeat("1", 4301), 10, DefaultMaxStrDigits)
	wantErr(t, err, "ValueError", "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits")
}

func TestIntStringLimit(t *testing.T) {
	x := new(big.Int).Exp(big.NewInt(10), big.NewInt(4299), nil)
	if s, err := IntString(x, DefaultMaxStrDigits); err != nil || len(s) != 4300 {
		t.Fatalf("10**4299: %d digits, %v", len(s), err)
	}
	x.Mul(x, big.NewInt(10))
	_, err := IntString(x, DefaultMaxStrDigits)
	wantErr(t, err, "ValueError", "Exceeds the limit (4300 digits) for integer string conversion; use")
	// far over the limit: refused before converting
	huge := new(big.Int).Lsh(big.NewInt(1), 1<<24)
	_, err = IntString(huge, DefaultMaxStrDigits)
	wantErr(t, err, "ValueError", "Exceeds the limit")
	if s, err := IntString(x, 0); err != nil || len(s) != 4301 {
		t.Fatalf("no limit: %d, %v", len(s), err)
	}
}

// TestSizeLimit checks that widths and precisions past the caller's bound
// are refused (a MemoryError) without building the text.
func TestSizeLimit(t *testing.T) {
	const limit = 1 << 20
	big1 := new(big.Int).Lsh(big.NewInt(1), 1<<23)
	tests := []struct {
		name string
		fn   func() (string, error)
	}{
		{"str width", func() (string, error) { return FormatStr("a", "2000000", "str", limit) }},
		{"str fill width", func() (string, error) { return FormatStr("a", "é<600000", "str", limit) }},
		{"int width", func() (string, error) { return FormatInt(1, "9000000000000000000", "int", 0, limit) }},
		{"int zero width", func() (string, error) { return FormatInt(1, "09000000000,", "int", 0, limit) }},
		{"big bin", func() (string, error) { return FormatBigInt(big1, "b", "int", 0, limit) }},
		{"float prec", func() (string, error) { return FormatFloat(1, ".2000000f", "float", limit) }},
		{"float width", func() (string, error) { return FormatFloat(1, "=2000000", "float", limit) }},
		{"complex prec", func() (string, error) { return FormatComplex(1, 2, ".600000e", "complex", limit) }},
		{"percent width", func() (string, error) {
			return Percent("%2000000d", Operand{Args: []Arg{&testArg{kind: "i", i: big.NewInt(1)}}}, 0, limit)
		}},
		{"percent prec", func() (string, error) {
			return Percent("%.2000000d", Operand{Args: []Arg{&testArg{kind: "i", i: big.NewInt(1)}}}, 0, limit)
		}},
		{"percent star", func() (string, error) {
			return Percent("%*s", Operand{Args: []Arg{&testArg{kind: "i", i: big.NewInt(1 << 40)}, &testArg{kind: "s", s: "x"}}}, 0, limit)
		}},
		{"percent float prec", func() (string, error) {
			return Percent("%.2000000f", Operand{Args: []Arg{&testArg{kind: "f", f: 1}}}, 0, limit)
		}},
	}
	for _, tt := range tests {
		s, err := tt.fn()
		var e *Error
		if !errors.As(err, &e) || e.Type != "MemoryError" {
			t.Errorf("%s: got %d bytes, %v; want a MemoryError", tt.name, len(s), err)
		}
	}
	// just under the limit works
	if s, err := FormatStr("a", "1000000", "str", limit); err != nil || len(s) != 1000000 {
		t.Errorf("width under the limit: %d, %v", len(s), err)
	}
}

func TestFactorialContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Factorial(ctx, big.NewInt(100000), 0)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled factorial: %v", err)
	}
	_, err = Factorial(context.Background(), big.NewInt(1e7), 1<<20)
	wantErr(t, err, "MemoryError", "factorial()")
	_, err = Comb(context.Background(), big.NewInt(1e9), big.NewInt(1e6), 1<<20)
	wantErr(t, err, "MemoryError", "comb()")
	v, err := Comb(context.Background(), new(big.Int).Exp(big.NewInt(10), big.NewInt(100), nil), big.NewInt(2), 1<<20)
	if err != nil || v.BitLen() < 600 {
		t.Fatalf("comb(10**100, 2): %v", err)
	}
	f, err := Factorial(context.Background(), big.NewInt(1000), 0)
	if err != nil || f.Cmp(new(big.Int).MulRange(1, 1000)) != 0 {
		t.Fatalf("factorial(1000) wrong: %v", err)
	}
}

func TestRoundIntHugeDigits(t *testing.T) {
	// CPython computes 10**(10**30) here and never answers; the value is 0.
	n, _ := new(big.Int).SetString("-1000000000000000000000000000000", 10)
	if r := RoundInt(big.NewInt(123456), n); r.Sign() != 0 {
		t.Errorf("round(123456, -10**30) = %v", r)
	}
	if r := RoundInt(big.NewInt(500), big.NewInt(-3)); r.Sign() != 0 {
		t.Errorf("round(500, -3) = %v", r)
	}
	if r := RoundInt(big.NewInt(501), big.NewInt(-3)); r.Int64() != 1000 {
		t.Errorf("round(501, -3) = %v", r)
	}
}

func TestErrorText(t *testing.T) {
	_, err := ParseFloat("x")
	if err.Error() != "ValueError: could not convert string to float: 'x'" {
		t.Errorf("Error() = %q", err.Error())
	}
}

// TestReprRoundTrip checks repr on floats of every exponent: it reads back
// as the same float.
func TestReprRoundTrip(t *testing.T) {
	for e := -1074; e <= 1023; e += 7 {
		for _, m := range []float64{1, 1.1, 1.9999999999999998, 1.5} {
			x := math.Ldexp(m, e)
			if math.IsInf(x, 0) {
				continue
			}
			s := FloatRepr(x)
			y, err := ParseFloat(s)
			if err != nil || y != x {
				t.Fatalf("repr(%g) = %q reads back as %g, %v", x, s, y, err)
			}
		}
	}
}

// TestHypotFast checks the double-double hypot against the exact one.
func TestHypotFast(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	fallbacks := 0
	for i := 0; i < 20000; i++ {
		n := 2 + rnd.IntN(4)
		xs := make([]float64, n)
		maxAbs := 0.0
		for k := range xs {
			xs[k] = math.Ldexp(rnd.Float64()-0.5, rnd.IntN(200)-100)
			if i%3 == 0 {
				xs[k] = float64(rnd.IntN(1000)) // exact results: 3, 4, 5
			}
			maxAbs = math.Max(maxAbs, math.Abs(xs[k]))
		}
		if maxAbs == 0 {
			continue
		}
		f, ok := hypotFast(xs, maxAbs)
		if !ok {
			fallbacks++
			continue
		}
		if g := hypotExact(xs, maxAbs); f != g {
			t.Fatalf("hypot%v: fast %v, exact %v", xs, f, g)
		}
	}
	t.Logf("%d fallbacks to the exact computation", fallbacks)
}

// TestIntTrueDiv checks int / int against math/big's correctly rounded
// rational conversion, subnormal and overflowing quotients included.
func TestIntTrueDiv(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	randInt := func() *big.Int {
		bits := 1 + rnd.IntN(1200)
		v := new(big.Int)
		for v.BitLen() < bits {
			v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(rnd.Uint64()))
		}
		v.Rsh(v, uint(v.BitLen()-bits))
		if rnd.IntN(2) == 0 {
			v.Neg(v)
		}
		return v
	}
	for i := 0; i < 20000; i++ {
		a, b := randInt(), randInt()
		if b.Sign() == 0 {
			continue
		}
		want, _ := new(big.Rat).SetFrac(a, b).Float64()
		got, err := IntTrueDiv(a, b)
		if math.IsInf(want, 0) {
			if err == nil {
				t.Fatalf("%v / %v: got %v, want an OverflowError", a, b, got)
			}
			continue
		}
		if err != nil || got != want || math.Signbit(got) != math.Signbit(want) && want != 0 {
			t.Fatalf("%v / %v: got %v (%v), want %v", a, b, got, err, want)
		}
	}
}
