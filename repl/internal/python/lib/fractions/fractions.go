// Package fractions is code mode's fractions module: Fraction, exact
// rational numbers, as CPython 3.12 has them (construction from ints,
// floats, strings and other fractions; arithmetic under the numeric
// tower's rules; comparisons and hashes consistent with ints and floats;
// limit_denominator; float-style format specifications).
//
// Other library modules (statistics) build and read fractions with New,
// FromInt and Parts.
package fractions

import (
	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
	"math"
	"math/big"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// Register makes fractions importable (and calls Setup).
func Register() {
	python.Setup()
	python.RegisterModule("fractions", load)
	Setup()
}

// Fraction is a fractions.Fraction: num/den in lowest terms, den > 0.
// The two ints are never modified once the Fraction is made.
type Fraction struct {
	num, den *big.Int
}

// FractionType is fractions.Fraction. It holds no state, so one type
// serves every interpreter. It is nil until Setup has run.
var FractionType *python.Type

var setupOnce sync.Once

// Setup makes FractionType, once; Register calls it. Another package that
// uses FractionType, or the Fractions of New and FromInt, calls Setup
// first. Nothing of the package touches the interpreter before, so that
// importing it costs nothing.
func Setup() { setupOnce.Do(setup) }

func setup() {
	FractionType = python.NewBuiltinType("Fraction", "fractions", nil, fractionNew)
	FractionType.SetPythonClass()
	addMethods(FractionType)
}

// Type returns fractions.Fraction.
func (*Fraction) Type() *python.Type { return FractionType }

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("fractions")
	m.Set("Fraction", FractionType)
	m.Set("__all__", python.NewList([]obj{python.NewStr("Fraction")}))
	return m, nil
}

var bigOne = big.NewInt(1)

// New returns the Fraction num/den in lowest terms (den != 0; a negative
// den moves the sign to num). It does not modify num or den.
func New(num, den *big.Int) (*Fraction, error) {
	if den.Sign() == 0 {
		r, _ := python.Repr(nil, python.MakeBigInt(num))
		return nil, python.Errorf(python.ZeroDivisionErrorType, "Fraction(%s, 0)", r)
	}
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(n), new(big.Int).Abs(d))
	if d.Sign() < 0 {
		g.Neg(g)
	}
	if g.Sign() != 0 && g.Cmp(bigOne) != 0 {
		n.Quo(n, g)
		d.Quo(d, g)
	} else if d.Sign() < 0 {
		n.Neg(n)
		d.Neg(d)
	}
	return &Fraction{num: n, den: d}, nil
}

// coprime makes a Fraction of a numerator and a positive denominator
// already in lowest terms (they are not copied).
func coprime(num, den *big.Int) *Fraction { return &Fraction{num: num, den: den} }

// FromInt returns the Fraction n/1.
func FromInt(n *big.Int) *Fraction { return coprime(new(big.Int).Set(n), big.NewInt(1)) }

// Parts returns the numerator and denominator of a Fraction (or of an
// int, whose denominator is 1). The ints must not be modified.
func Parts(x python.Object) (num, den *big.Int, ok bool) {
	switch v := python.Unwrap(x).(type) {
	case *Fraction:
		return v.num, v.den, true
	}
	if iv, ok := python.IntValue(x); ok {
		return python.ToBig(iv), bigOne, true
	}
	return nil, nil, false
}

// Num returns the numerator (do not modify it).
func (f *Fraction) Num() *big.Int { return f.num }

// Den returns the denominator (do not modify it).
func (f *Fraction) Den() *big.Int { return f.den }

// fromFloat is the exact value of a finite float.
func fromFloat(x float64) (*Fraction, error) {
	switch {
	case math.IsNaN(x):
		return nil, python.Errorf(python.ValueErrorType, "cannot convert NaN to integer ratio")
	case math.IsInf(x, 0):
		return nil, python.Errorf(python.OverflowErrorType, "cannot convert Infinity to integer ratio")
	}
	r := new(big.Rat)
	r.SetFloat64(x)
	return coprime(new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())), nil
}

// asFraction returns x as a Fraction when it is a Rational: a Fraction or
// an int.
func asFraction(x obj) (*Fraction, bool) {
	switch v := python.Unwrap(x).(type) {
	case *Fraction:
		return v, true
	}
	if iv, ok := python.IntValue(x); ok {
		return coprime(python.ToBig(iv), bigOne), true
	}
	return nil, false
}

// fractionNew is Fraction(numerator=0, denominator=None).
func fractionNew(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "Fraction.__new__", Pos: []string{"cls", "numerator", "denominator"}, Required: 1}).Values(append([]obj{cls}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	f, err := construct(t, a[1], a[2])
	if err != nil {
		return nil, err
	}
	if cls != FractionType {
		return python.NewInstance(cls, f), nil
	}
	return f, nil
}

func construct(t *python.Thread, numerator, denominator obj) (*Fraction, error) {
	if numerator == nil {
		numerator = python.MakeInt(0)
	}
	if denominator == nil || denominator == python.None {
		if f, ok := asFraction(numerator); ok {
			return f, nil
		}
		switch v := python.Unwrap(numerator).(type) {
		case python.Float:
			return fromFloat(float64(v))
		}
		if python.IsStr(numerator) {
			s, err := python.StrOf(t, numerator)
			if err != nil {
				return nil, err
			}
			return parse(t, s)
		}
		if numerator.Type().Module() == "decimal" {
			return nil, python.NotSupported("Fraction(Decimal)", "decimal is not available in code mode; pass a str such as Fraction('1.47') or an int ratio")
		}
		return nil, python.Errorf(python.TypeErrorType, "argument should be a string or a Rational instance")
	}
	n, ok1 := asFraction(numerator)
	d, ok2 := asFraction(denominator)
	if !ok1 || !ok2 {
		return nil, python.Errorf(python.TypeErrorType, "both arguments should be Rational instances")
	}
	num := new(big.Int).Mul(n.num, d.den)
	den := new(big.Int).Mul(d.num, n.den)
	if err := checkBits(t, num, den); err != nil {
		return nil, err
	}
	return New(num, den)
}

// checkBits bounds the size of ints a result is made of.
// checkBits bounds the operands of a Fraction operation: their size
// against the value bound, and their length against what the reduction to
// lowest terms (a GCD, which math/big cannot interrupt) finishes in well
// under a second.
func checkBits(t *python.Thread, xs ...*big.Int) error {
	n := 0
	for _, x := range xs {
		n += x.BitLen()
	}
	if err := t.CheckSize(int64(n/8 + 16)); err != nil {
		return err
	}
	if n > maxOperandBits {
		return python.NotSupported("fractions.Fraction arithmetic on numerators and denominators longer than 2**18 bits in all",
			"the reduction to lowest terms could not be interrupted by the cell's time limit; use int arithmetic on the numerators and denominators")
	}
	return nil
}

// maxOperandBits bounds the total length of a Fraction operation's
// operands (see checkBits).
const maxOperandBits = pyfmt.GCDLeafBits

func (f *Fraction) isInt() bool { return f.den.Cmp(bigOne) == 0 }

// float is float(f): the correctly rounded quotient, with int division's
// OverflowError.
func (f *Fraction) float() (float64, error) {
	x, _ := new(big.Rat).SetFrac(f.num, f.den).Float64()
	if math.IsInf(x, 0) {
		return 0, python.Errorf(python.OverflowErrorType, "integer division result too large for a float")
	}
	return x, nil
}

func intObj(x *big.Int) obj { return python.MakeBigInt(x) }
