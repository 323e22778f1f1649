package math

import (
	"math"
	"testing"
)

// TestDegreeConstants checks radToDeg and degToRad against the float64
// divisions C makes (CPython's degrees and radians).
func TestDegreeConstants(t *testing.T) {
	pi := math.Pi // a variable: the divisions below are float64's
	if want := 180.0 / pi; radToDeg != want {
		t.Errorf("radToDeg = %x, want %x", radToDeg, want)
	}
	if want := pi / 180.0; degToRad != want {
		t.Errorf("degToRad = %x, want %x", degToRad, want)
	}
}
