package math

import "testing"

func benchUnary(b *testing.B, f func(float64) float64, lo, hi float64) {
	x := lo
	step := (hi - lo) / 997
	for b.Loop() {
		x += step
		if x > hi {
			x = lo
		}
		f(x)
	}
}

func BenchmarkSin(b *testing.B)  { benchUnary(b, crSin, -10, 10) }
func BenchmarkCos(b *testing.B)  { benchUnary(b, crCos, -10, 10) }
func BenchmarkTan(b *testing.B)  { benchUnary(b, crTan, -10, 10) }
func BenchmarkAtan(b *testing.B) { benchUnary(b, crAtan, -10, 10) }
func BenchmarkAsin(b *testing.B) { benchUnary(b, crAsin, -1, 1) }
func BenchmarkAcos(b *testing.B) { benchUnary(b, crAcos, -1, 1) }
func BenchmarkSinh(b *testing.B) { benchUnary(b, sinh, -10, 10) }

func BenchmarkAtan2(b *testing.B) {
	benchUnary(b, func(x float64) float64 { return crAtan2(x, 1.7) }, -10, 10)
}

// BenchmarkSinHuge measures the multiple-precision path.
func BenchmarkSinHuge(b *testing.B) { benchUnary(b, crSin, 1e200, 2e200) }
