package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

const fuzzLimit = 1 << 16

// FuzzFormatSpec feeds any spec to the format functions: no panics, no
// result over the limit, and a str result as long as the width asks.
func FuzzFormatSpec(f *testing.F) {
	for _, s := range []string{"", ">10", "x^+#012_.3f", "é<5", "0=10,d", ",_", ".", "z.2e", "99999999999999999999", "#010b", "c", "%", "n", ".1000000f", "{", "0<10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		check := func(s string, err error) {
			if err == nil && len(s) > fuzzLimit {
				t.Fatalf("spec %q: %d bytes over the limit", spec, len(s))
			}
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("spec %q: error %T", spec, err)
				}
			}
		}
		check(FormatInt(-1234567, spec, "int", DefaultMaxStrDigits, fuzzLimit))
		check(FormatBigInt(new(big.Int).Lsh(big.NewInt(-3), 200), spec, "int", DefaultMaxStrDigits, fuzzLimit))
		check(FormatFloat(-1234.5678, spec, "float", fuzzLimit))
		check(FormatFloat(math.Inf(1), spec, "float", fuzzLimit))
		check(FormatFloat(5e-324, spec, "float", fuzzLimit))
		check(FormatComplex(1.5, math.Copysign(0, -1), spec, "complex", fuzzLimit))
		s, err := FormatStr("héllo", spec, "str", fuzzLimit)
		check(s, err)
		if err == nil {
			sp, _ := ParseSpec(spec, "str", false)
			if n := utf8.RuneCountInString(s); n < sp.Width && n != 5 && sp.Prec < 0 {
				t.Fatalf("spec %q: %q narrower than the width", spec, s)
			}
		}
	})
}

// fuzzArgs are the values FuzzPercent formats.
var fuzzArgs = []Arg{
	&testArg{kind: "i", i: big.NewInt(42)},
	&testArg{kind: "f", f: -2.5},
	&testArg{kind: "s", s: "héllo"},
	&testArg{kind: "i", i: big.NewInt(-7)},
	&testArg{kind: "b", b: true},
	&testArg{kind: "n"},
}

// FuzzPercent feeds any format to Percent with a tuple and with a mapping.
func FuzzPercent(f *testing.F) {
	for _, s := range []string{"%s", "%(a)s", "%-*.*f", "%#x %o %c", "%%", "%5%", "%(a", "%.999999999d", "%*s", "%é", "%ld %r %a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		for _, op := range []Operand{
			{Args: fuzzArgs},
			{Args: fuzzArgs[:1]},
			{Args: fuzzArgs[2:3], Lookup: func(key string) (Arg, error) {
				if len(key) > 0 && key[0] < 'm' {
					return fuzzArgs[len(key)%len(fuzzArgs)], nil
				}
				return nil, &Error{Type: "KeyError", Msg: quote(key, 0)}
			}},
		} {
			s, err := Percent(format, op, DefaultMaxStrDigits, fuzzLimit)
			if err == nil && len(s) > fuzzLimit+len(format) {
				t.Fatalf("%q: %d bytes", format, len(s))
			}
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("%q: error %T", format, err)
				}
			}
		}
	})
}

// FuzzParseInt checks int() of any text: an accepted decimal reads back
// as its str(), and Go's own parser agrees on plain ASCII input.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{"0", "-12_345", " 0x_1F ", "0b101", "١٢٣", "1__2", "0_0", "01", "+", "9223372036854775808"} {
		f.Add(s, 10)
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, base int) {
		if base < -1 || base > 40 {
			base = base & 31
		}
		small, b, err := ParseInt(s, base, DefaultMaxStrDigits)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error %T", s, err)
			}
			return
		}
		v := big.NewInt(small)
		if b != nil {
			v = b
		}
		if base == 10 {
			clean := strings.ReplaceAll(strings.TrimSpace(toASCIINumber(s)), "_", "")
			if w, ok := new(big.Int).SetString(clean, 10); ok && w.Cmp(v) != 0 {
				t.Fatalf("%q: got %v, want %v", s, v, w)
			}
			if !isASCIIDigits(clean) {
				return
			}
		}
		str, err := IntString(v, 0)
		if err != nil {
			t.Fatal(err)
		}
		if s2, b2, err := ParseInt(str, 10, 0); err != nil || (b2 == nil && s2 != small) || (b2 != nil && b2.Cmp(v) != 0) {
			t.Fatalf("%q: str %q reads back differently (%v)", s, str, err)
		}
	})
}

func isASCIIDigits(s string) bool {
	s = strings.TrimLeft(s, "+-")
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// FuzzParseFloat checks float() of any text against strconv on the
// cleaned text, and repr round trips.
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"1.5", " -inf ", "1_0e1_0", "nan", ".5", "1e-400", "0x1p1", "1__0", "١٫٢"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseFloat(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error %T", s, err)
			}
			return
		}
		clean := strings.ReplaceAll(strings.TrimSpace(toASCIINumber(s)), "_", "")
		if w, err2 := strconv.ParseFloat(clean, 64); err2 == nil && w != x && !math.IsNaN(w) {
			t.Fatalf("%q: got %v, strconv %v", s, x, w)
		}
		if y, err := ParseFloat(FloatRepr(x)); err != nil || (y != x && !math.IsNaN(x)) {
			t.Fatalf("%q: repr %q reads back as %v", s, FloatRepr(x), y)
		}
	})
}

// FuzzFromHex checks float.fromhex on any text, and that float.hex round
// trips.
func FuzzFromHex(f *testing.F) {
	for _, s := range []string{"0x1.8p1", "-0x1p-1074", "0x1.fffffffffffff8p1023", "inf", "0x.8", "0x1p99999999999999999999"} {
		f.Add(s, uint64(0x3ff8000000000000))
	}
	f.Fuzz(func(t *testing.T, s string, u uint64) {
		if _, err := FloatFromHex(s); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error %T", s, err)
			}
		}
		x := math.Float64frombits(u)
		if math.IsNaN(x) {
			return
		}
		y, err := FloatFromHex(FloatHex(x))
		if err != nil || math.Float64bits(y) != u {
			t.Fatalf("%v: hex %q reads back as %v (%v)", x, FloatHex(x), y, err)
		}
		// Go's hex float parser agrees on the value
		if g, err := strconv.ParseFloat(FloatHex(x), 64); err == nil && g != x {
			t.Fatalf("%v: strconv reads %q as %v", x, FloatHex(x), g)
		}
	})
}
