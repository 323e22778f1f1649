package fractions

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

func newThread() *python.Thread {
	in := python.New(python.Config{MaxValueBytes: 1 << 20})
	return python.NewThread(context.Background(), in, 1<<30, func(string) {})
}

// TestGoAPI checks the API other library modules use.
func TestGoAPI(t *testing.T) {
	f, err := New(big.NewInt(6), big.NewInt(-4))
	if err != nil {
		t.Fatal(err)
	}
	if f.Num().String() != "-3" || f.Den().String() != "2" {
		t.Errorf("New(6, -4) = %s/%s, want -3/2", f.Num(), f.Den())
	}
	if _, err := New(big.NewInt(1), big.NewInt(0)); err == nil {
		t.Error("New(1, 0) did not fail")
	}
	n, d, ok := Parts(python.MakeInt(7))
	if !ok || n.Int64() != 7 || d.Int64() != 1 {
		t.Errorf("Parts(7) = %v, %v, %v", n, d, ok)
	}
	n, d, ok = Parts(f)
	if !ok || n.Int64() != -3 || d.Int64() != 2 {
		t.Errorf("Parts(-3/2) = %v, %v, %v", n, d, ok)
	}
	if _, _, ok := Parts(python.Float(1.5)); ok {
		t.Error("Parts(1.5) succeeded")
	}
	g := FromInt(big.NewInt(5))
	if s, _ := g.PyStr(newThread()); s != "5" {
		t.Errorf("str(FromInt(5)) = %q", s)
	}
}

// TestBounds checks that sizes the program controls are bounded.
func TestBounds(t *testing.T) {
	th := newThread()
	for _, src := range []string{"1e999999999", "1e-999999999", "1." + strings.Repeat("5", 5000)} {
		if _, err := parse(th, src); err == nil {
			t.Errorf("Fraction(%.20q...) did not fail", src)
		}
	}
	f, _ := New(big.NewInt(3), big.NewInt(2))
	if _, err := power(th, f, FromInt(big.NewInt(1<<30))); err == nil {
		t.Error("Fraction(3, 2) ** 2**30 did not fail")
	}
	if _, err := f.PyFormat(th, ".999999999f"); err == nil {
		t.Error("format with precision 999999999 did not fail")
	}
}

// FuzzParse checks that Fraction(str) never panics, and that str() of
// what it parses reads back as the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1/2", " -3.25e-2 ", "1_000.5", ".5", "5.", "1.d", "١٢/٣", "1e", "--1", "0x10", "1/0", "7e+3_0"} {
		f.Add(s)
	}
	th := newThread()
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		fr, err := parse(th, s)
		if err != nil {
			if _, ok := python.AsException(err); !ok {
				t.Fatalf("parse(%q): non-Python error %v", s, err)
			}
			return
		}
		str, err := fr.PyStr(th)
		if err != nil {
			return // too many digits to render
		}
		back, err := parse(th, str)
		if err != nil {
			t.Fatalf("parse(str(%q) = %q): %v", s, str, err)
		}
		if back.num.Cmp(fr.num) != 0 || back.den.Cmp(fr.den) != 0 {
			t.Fatalf("round trip of %q: %s/%s != %s/%s", s, back.num, back.den, fr.num, fr.den)
		}
	})
}

// FuzzFormat checks that format(Fraction, spec) never panics.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{".3f", "e", ",.2f", "*^12.3g", "010.3%", "z.1f", "#g", "<010f", "x", "€>9.3F"} {
		f.Add(s, int64(1), int64(3))
	}
	th := newThread()
	f.Fuzz(func(t *testing.T, spec string, n, d int64) {
		if len(spec) > 30 || d == 0 || !utf8.ValidString(spec) {
			return
		}
		fr, err := New(big.NewInt(n), big.NewInt(d))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fr.PyFormat(th, spec); err != nil {
			if _, ok := python.AsException(err); !ok {
				t.Fatalf("format(%s, %q): non-Python error %v", fr.num, spec, err)
			}
		}
	})
}

func BenchmarkAdd(b *testing.B) {
	th := newThread()
	x, _ := New(big.NewInt(355), big.NewInt(113))
	y, _ := New(big.NewInt(-22), big.NewInt(7))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := x.PyBinary(th, syntax.Add, y, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	th := newThread()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(th, " -3.14159e-2 "); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormat(b *testing.B) {
	th := newThread()
	x, _ := New(big.NewInt(355), big.NewInt(113))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := x.PyFormat(th, ",.6f"); err != nil {
			b.Fatal(err)
		}
	}
}
