// Package statistics is the algorithmic kernel of CPython 3.12's
// statistics module over ints and floats, with CPython's exactness: sums
// are taken exactly (as fractions) and converted to the type of the data,
// and float-only steps (fsum, sumprod, sqrt, log, exp) round as CPython's
// do.
//
// Data are Values: Python ints (as *big.Int; bools keep their kind, which
// matters where CPython tests for exact types) and floats. Fractions and
// Decimals are not supported: the wrapper converts Fractions to floats
// where CPython's arithmetic does, and refuses them elsewhere. Functions
// that CPython computes on sorted(data) take the data already sorted by
// the wrapper (its own sorted(), which raises what CPython raises for
// incomparable items).
//
// Register makes the module importable by code mode's interpreter: the
// wrapper in module.go exposes the kernel to Python code as CPython's
// statistics module does (and computes the order statistics itself, on
// any Python values).
package statistics

import (
	"fmt"
	"math"
	"math/big"
)

// Kind is the Python type of a Value.
type Kind uint8

// The kinds of values.
const (
	Int Kind = iota
	Bool
	Float
)

// Value is a Python int, bool or float.
type Value struct {
	Kind Kind
	I    *big.Int // for Int and Bool
	F    float64  // for Float
}

// IntValue returns the int v.
func IntValue(v *big.Int) Value { return Value{Kind: Int, I: v} }

// Int64Value returns the int v.
func Int64Value(v int64) Value { return Value{Kind: Int, I: big.NewInt(v)} }

// FloatValue returns the float v.
func FloatValue(v float64) Value { return Value{Kind: Float, F: v} }

// BoolValue returns the bool v.
func BoolValue(v bool) Value {
	if v {
		return Value{Kind: Bool, I: big.NewInt(1)}
	}
	return Value{Kind: Bool, I: big.NewInt(0)}
}

func (v Value) isInt() bool { return v.Kind != Float }

// String formats v as Python's str() does for ints; floats use Go's
// shortest form (the wrapper formats results itself).
func (v Value) String() string {
	switch v.Kind {
	case Float:
		return fmt.Sprint(v.F)
	case Bool:
		if v.I.Sign() != 0 {
			return "True"
		}
		return "False"
	}
	return v.I.String()
}

// Error is a Python exception raised by the kernel. Type is
// "StatisticsError" (a ValueError subclass), "ValueError", "TypeError",
// "OverflowError", "ZeroDivisionError" or "AttributeError" as CPython
// raises them, or "Unsupported" for inputs this kernel refuses.
type Error struct {
	Type string
	Msg  string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

func statErr(msg string) *Error { return &Error{"StatisticsError", msg} }

var errIntTooLarge = &Error{"OverflowError", "int too large to convert to float"}

// toFloat converts like float(x): ints round to nearest, half to even.
func toFloat(v Value) (float64, error) {
	if v.Kind == Float {
		return v.F, nil
	}
	return intToFloat(v.I)
}

func intToFloat(i *big.Int) (float64, error) {
	if i.IsInt64() {
		n := i.Int64()
		if n > -1<<53 && n < 1<<53 {
			return float64(n), nil
		}
	}
	f, _ := new(big.Float).SetInt(i).Float64()
	if math.IsInf(f, 0) {
		return 0, errIntTooLarge
	}
	return f, nil
}

// ratToFloat converts an exact rational like int / int true division:
// correctly rounded, with CPython's OverflowError.
func ratToFloat(r *big.Rat) (float64, error) {
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		return 0, &Error{"OverflowError", "integer division result too large for a float"}
	}
	return f, nil
}

// exactRat returns the exact value of a finite float or an int.
func exactRat(v Value) *big.Rat {
	if v.Kind == Float {
		return new(big.Rat).SetFloat64(v.F)
	}
	return new(big.Rat).SetInt(v.I)
}

// Python binary arithmetic on ints and floats.

func add(a, b Value) (Value, error) {
	if a.isInt() && b.isInt() {
		return IntValue(new(big.Int).Add(a.I, b.I)), nil
	}
	x, y, err := floats(a, b)
	if err != nil {
		return Value{}, err
	}
	return FloatValue(x + y), nil
}

func sub(a, b Value) (Value, error) {
	if a.isInt() && b.isInt() {
		return IntValue(new(big.Int).Sub(a.I, b.I)), nil
	}
	x, y, err := floats(a, b)
	if err != nil {
		return Value{}, err
	}
	return FloatValue(x - y), nil
}

func mul(a, b Value) (Value, error) {
	if a.isInt() && b.isInt() {
		return IntValue(new(big.Int).Mul(a.I, b.I)), nil
	}
	x, y, err := floats(a, b)
	if err != nil {
		return Value{}, err
	}
	return FloatValue(x * y), nil
}

func truediv(a, b Value) (Value, error) {
	if a.isInt() && b.isInt() {
		if b.I.Sign() == 0 {
			return Value{}, &Error{"ZeroDivisionError", "division by zero"}
		}
		f, err := ratToFloat(new(big.Rat).SetFrac(a.I, b.I))
		return FloatValue(f), err
	}
	x, y, err := floats(a, b)
	if err != nil {
		return Value{}, err
	}
	if y == 0 {
		return Value{}, &Error{"ZeroDivisionError", "float division by zero"}
	}
	return FloatValue(x / y), nil
}

func floats(a, b Value) (float64, float64, error) {
	x, err := toFloat(a)
	if err != nil {
		return 0, 0, err
	}
	y, err := toFloat(b)
	if err != nil {
		return 0, 0, err
	}
	return x, y, nil
}

// Compare compares two values exactly as Python does (ints and floats by
// their exact values). It reports ok false when either is a NaN.
func Compare(a, b Value) (c int, ok bool) {
	if a.isInt() && b.isInt() {
		return a.I.Cmp(b.I), true
	}
	if a.Kind == Float && b.Kind == Float {
		switch {
		case math.IsNaN(a.F) || math.IsNaN(b.F):
			return 0, false
		case a.F < b.F:
			return -1, true
		case a.F > b.F:
			return 1, true
		}
		return 0, true
	}
	if a.Kind == Float {
		c, ok := Compare(b, a)
		return -c, ok
	}
	// a int, b float
	switch {
	case math.IsNaN(b.F):
		return 0, false
	case math.IsInf(b.F, 1):
		return -1, true
	case math.IsInf(b.F, -1):
		return 1, true
	}
	return exactRat(a).Cmp(exactRat(b)), true
}

// FSum is math.fsum: the correctly rounded sum, with CPython's handling of
// infinities, NaNs and intermediate overflow.
func FSum(values []Value) (float64, error) {
	var partials []float64
	specialSum, infSum := 0.0, 0.0
	for _, v := range values {
		x, err := toFloat(v)
		if err != nil {
			return 0, err
		}
		xsave := x
		i := 0
		for _, y := range partials {
			if math.Abs(x) < math.Abs(y) {
				x, y = y, x
			}
			hi := x + y
			lo := y - (hi - x)
			if lo != 0 {
				partials[i] = lo
				i++
			}
			x = hi
		}
		partials = partials[:i]
		if x != 0 {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				// A non-finite x comes from a NaN or an infinity among the
				// values, or from overflow.
				if !math.IsInf(xsave, 0) && !math.IsNaN(xsave) {
					return 0, &Error{"OverflowError", "intermediate overflow in fsum"}
				}
				if math.IsInf(xsave, 0) {
					infSum += xsave
				}
				specialSum += xsave
				partials = partials[:0]
			} else {
				partials = append(partials, x)
			}
		}
	}
	if specialSum != 0 {
		if math.IsNaN(infSum) {
			return 0, &Error{"ValueError", "-inf + inf in fsum"}
		}
		return specialSum, nil
	}
	hi := 0.0
	n := len(partials)
	if n > 0 {
		n--
		hi = partials[n]
		var lo float64
		for n > 0 {
			x := hi
			n--
			y := partials[n]
			hi = x + y
			yr := hi - x
			lo = y - yr
			if lo != 0 {
				break
			}
		}
		if n > 0 && (lo < 0 && partials[n-1] < 0 || lo > 0 && partials[n-1] > 0) {
			y := lo * 2
			x := hi + y
			yr := x - hi
			if y == yr {
				hi = x
			}
		}
	}
	return hi, nil
}
