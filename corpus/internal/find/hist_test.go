package find

import (
	"math/rand/v2"
	"testing"
)

// TestHistSameFinder: a finder made from a kept histogram is the one made
// from the sample, folding or not.
func TestHistSameFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		sample := make([]byte, rng.IntN(300))
		for i := range sample {
			const alphabet = "aAbBcCdDeE xyzXYZ\n\x80\xff"
			sample[i] = alphabet[rng.IntN(len(alphabet))]
		}
		pat := make([]byte, 1+rng.IntN(6))
		for i := range pat {
			const alphabet = "abcdeABCDExyzXYZ \xff"
			pat[i] = alphabet[rng.IntN(len(alphabet))]
		}
		h := Histogram(sample)
		if a, b := New(pat, sample), NewHist(pat, h); a.r1 != b.r1 || a.r2 != b.r2 || a.b1 != b.b1 || a.b2 != b.b2 {
			t.Fatalf("New(%q, %q) = %+v, NewHist %+v", pat, sample, a, b)
		}
		if a, b := NewFold(pat, sample), NewFoldHist(pat, h); a.r1 != b.r1 || a.b1 != b.b1 || a.u1 != b.u1 || string(a.pat) != string(b.pat) {
			t.Fatalf("NewFold(%q, %q) = %+v, NewFoldHist %+v", pat, sample, a, b)
		}
	}
}
