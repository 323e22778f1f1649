package random

import (
	"math"
	"testing"
)

// TestMagicConstants checks the constants NV_MAGICCONST, LOG4 and
// SG_MAGICCONST against the expressions of CPython's random.py, computed
// with the module's own exp and log (the hex values were recorded from
// CPython 3.12.1: random.NV_MAGICCONST.hex() and so on).
func TestMagicConstants(t *testing.T) {
	exp := func(x float64) float64 { v, _ := pyExp(x); return v }
	log := func(x float64) float64 { v, _ := mathLog(x); return v }
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"NV_MAGICCONST", nvMagicConst, 4 * exp(-0.5) / math.Sqrt(2.0)},
		{"LOG4", log4, log(4.0)},
		{"SG_MAGICCONST", sgMagicConst, 1.0 + log(4.5)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
