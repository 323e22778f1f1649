package pyfmt

import (
	"math/big"
	"strings"
	"testing"
)

var benchFloats = []float64{0.1, 123.456, 1e16, 1.5e-300, 2.0 / 3, 12345678.9, 5e-324, 1e22}

func BenchmarkFloatRepr(b *testing.B) {
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendFloatRepr(buf[:0], benchFloats[i%len(benchFloats)])
	}
}

func BenchmarkFormatInt(b *testing.B) {
	for i := 0; i < b.N; i++ {
		FormatInt(int64(i)*7919, "", "int", DefaultMaxStrDigits, 0)
	}
}

func BenchmarkFormatIntSpec(b *testing.B) {
	for i := 0; i < b.N; i++ {
		FormatInt(int64(i)*7919, ">+15,", "int", DefaultMaxStrDigits, 0)
	}
}

func BenchmarkIntStringBig(b *testing.B) {
	x := new(big.Int).Exp(big.NewInt(7), big.NewInt(5000), nil) // 4226 digits
	for i := 0; i < b.N; i++ {
		IntString(x, DefaultMaxStrDigits)
	}
}

func BenchmarkFormatFloatSpec(b *testing.B) {
	specs := []string{".2f", "10.3e", ",.1f", "g", "#.6g", ".1%", "", ">12.4"}
	for i := 0; i < b.N; i++ {
		FormatFloat(benchFloats[i%len(benchFloats)], specs[i%len(specs)], "float", 0)
	}
}

func BenchmarkFormatStrSpec(b *testing.B) {
	for i := 0; i < b.N; i++ {
		FormatStr("hello", "*^20", "str", 0)
	}
}

func BenchmarkPercent(b *testing.B) {
	op := Operand{Args: []Arg{&testArg{kind: "s", s: "name"}, &testArg{kind: "i", i: big.NewInt(42)}, &testArg{kind: "f", f: 3.14159}}}
	for i := 0; i < b.N; i++ {
		Percent("%-10s|%5d|%8.3f", op, DefaultMaxStrDigits, 0)
	}
}

func BenchmarkParseInt(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ParseInt("  123456789 ", 10, DefaultMaxStrDigits)
	}
}

func BenchmarkParseInt4300(b *testing.B) {
	s := strings.Repeat("7", 4300)
	for i := 0; i < b.N; i++ {
		ParseInt(s, 10, DefaultMaxStrDigits)
	}
}

func BenchmarkParseIntMillionDigits(b *testing.B) {
	s := strings.Repeat("1234567890", 100000)
	for i := 0; i < b.N; i++ {
		ParseInt(s, 10, 0)
	}
}

func BenchmarkParseFloat(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ParseFloat("1_234.5678e-3")
	}
}

func BenchmarkFloatPow(b *testing.B) {
	for i := 0; i < b.N; i++ {
		FloatPow(1.1, float64(i%50)+0.37)
	}
}

func BenchmarkExp(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Exp(float64(i%1400)/2 - 350)
	}
}

func BenchmarkLog(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Log(float64(i%1000) + 0.5)
	}
}

func BenchmarkHypot(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Hypot(3.0, float64(i%100)+0.1)
	}
}

func BenchmarkRoundFloatDigits(b *testing.B) {
	for i := 0; i < b.N; i++ {
		RoundFloatDigits(2.675, 2)
	}
}
