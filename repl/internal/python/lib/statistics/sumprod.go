package statistics

import (
	"math"
)

// Triple-length accumulation of products, as CPython's math.sumprod does
// for floats: error-free products and sums, rounded once at the end.

type doubleLength struct{ hi, lo float64 }

type tripleLength struct{ hi, lo, tiny float64 }

func dlSum(a, b float64) doubleLength {
	x := a + b
	z := x - a
	y := (a - (x - z)) + (b - z)
	return doubleLength{x, y}
}

func dlMul(x, y float64) doubleLength {
	z := x * y
	zz := math.FMA(x, y, -z)
	return doubleLength{z, zz}
}

func tlFMA(x, y float64, total tripleLength) tripleLength {
	pr := dlMul(x, y)
	sm := dlSum(total.hi, pr.hi)
	r1 := dlSum(total.lo, pr.lo)
	r2 := dlSum(r1.hi, sm.lo)
	return tripleLength{sm.hi, r2.hi, float64(total.tiny+r1.lo) + r2.lo}
}

func tlToD(total tripleLength) float64 {
	last := dlSum(total.lo, total.hi)
	return float64(total.tiny+last.lo) + last.hi
}

// SumProd is math.sumprod(p, q) (3.12) for ints, bools and floats: exact
// for ints, triple-length accumulation for floats and float-int pairs,
// plain Python arithmetic once a pair fits neither path, with CPython's
// ValueError "Inputs are not the same length" when the shorter one ends.
func SumProd(p, q []Value) (Value, error) {
	total := Int64Value(0)
	intPath, fltPath := true, true
	var intTotal int64
	intInUse, fltInUse := false, false
	var fltTotal tripleLength
	var err error
	for k := 0; ; k++ {
		pStop, qStop := k >= len(p), k >= len(q)
		if pStop != qStop {
			return Value{}, &Error{"ValueError", "Inputs are not the same length"}
		}
		finished := pStop
		if intPath {
			if !finished && p[k].Kind == Int && q[k].Kind == Int && p[k].I.IsInt64() && q[k].I.IsInt64() {
				a, b := p[k].I.Int64(), q[k].I.Int64()
				if prod, over := mulInt64(a, b); !over {
					s := intTotal + prod
					if !((intTotal >= 0) == (prod >= 0) && (s >= 0) != (intTotal >= 0)) {
						intTotal = s
						intInUse = true
						continue
					}
				}
			}
			intPath = false
			if intInUse {
				if total, err = add(total, Int64Value(intTotal)); err != nil {
					return Value{}, err
				}
				intTotal, intInUse = 0, false
			}
		}
		if fltPath {
			if !finished {
				var fp, fq float64
				ok := true
				pf, qf := p[k].Kind == Float, q[k].Kind == Float
				switch {
				case pf && qf:
					fp, fq = p[k].F, q[k].F
				case pf:
					fp = p[k].F
					fq, err = intToFloat(q[k].I)
					ok = err == nil
				case qf:
					fq = q[k].F
					fp, err = intToFloat(p[k].I)
					ok = err == nil
				default:
					ok = false
				}
				if ok {
					nt := tlFMA(fp, fq, fltTotal)
					if !math.IsInf(nt.hi, 0) && !math.IsNaN(nt.hi) {
						fltTotal = nt
						fltInUse = true
						continue
					}
				}
			}
			fltPath = false
			if fltInUse {
				if total, err = add(total, FloatValue(tlToD(fltTotal))); err != nil {
					return Value{}, err
				}
				fltTotal, fltInUse = tripleLength{}, false
			}
		}
		if finished {
			return total, nil
		}
		term, err := mul(p[k], q[k])
		if err != nil {
			return Value{}, err
		}
		if total, err = add(total, term); err != nil {
			return Value{}, err
		}
	}
}

// mulInt64 returns a*b and whether it overflows int64.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, false
	}
	c := a * b
	if a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 || c/b != a {
		return 0, true
	}
	return c, false
}
