package datetime

import "testing"

// TestEpochMicros checks the constant epochMicros against the date it
// stands for.
func TestEpochMicros(t *testing.T) {
	if got := (DateTime{Year: 1970, Month: 1, Day: 1}).micros(); got.Cmp(epochMicros) != 0 {
		t.Fatalf("epochMicros = %v, want %v", epochMicros, got)
	}
}
