package openai

import "testing"

// TestToolCallCapConfigured: Config.MaxToolCalls raises the cap (rlm direct
// passes its per-batch cap), and "unlimited" still has a ceiling.
func TestToolCallCapConfigured(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, MaxToolCalls}, {64, 64}, {-1, HardMaxToolCalls}, {1 << 20, HardMaxToolCalls}} {
		if got := toolCallCap(c.in); got != c.want {
			t.Errorf("toolCallCap(%d) = %d, want %d", c.in, got, c.want)
		}
	}
	a := Assembler{Max: 20}
	for i := range 20 {
		a.newCall(i)
	}
	if a.TooManyToolCalls() {
		t.Fatal("20 calls under a cap of 20 are too many")
	}
	if _, ok := a.newCall(20); ok || !a.TooManyToolCalls() {
		t.Fatal("the 21st call was kept")
	}
}
