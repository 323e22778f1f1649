package fractions

import (
	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
	"math"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// floorDivMod is Python's divmod on ints (the quotient rounded toward
// negative infinity); y must not be zero.
func floorDivMod(x, y *big.Int) (*big.Int, *big.Int) {
	q, r := new(big.Int).QuoRem(x, y, new(big.Int))
	if r.Sign() != 0 && r.Sign() != y.Sign() {
		q.Sub(q, bigOne)
		r.Add(r, y)
	}
	return q, r
}

func mul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }

func zeroDiv(msg string) error { return python.Errorf(python.ZeroDivisionErrorType, "%s", msg) }

// mono applies op to two fractions (the "monomorphic" operators).
func mono(t *python.Thread, op syntax.Operator, a, b *Fraction) (obj, error) {
	if err := checkBits(t, a.num, a.den, b.num, b.den); err != nil {
		return nil, err
	}
	switch op {
	case syntax.Add:
		f, err := New(new(big.Int).Add(mul(a.num, b.den), mul(b.num, a.den)), mul(a.den, b.den))
		return f, err
	case syntax.Sub:
		f, err := New(new(big.Int).Sub(mul(a.num, b.den), mul(b.num, a.den)), mul(a.den, b.den))
		return f, err
	case syntax.Mult:
		f, err := New(mul(a.num, b.num), mul(a.den, b.den))
		return f, err
	case syntax.Div:
		if b.num.Sign() == 0 {
			r, _ := python.Repr(t, intObj(b.den))
			return nil, zeroDiv("Fraction(" + r + ", 0)")
		}
		f, err := New(mul(a.num, b.den), mul(b.num, a.den))
		return f, err
	case syntax.FloorDiv:
		d := mul(a.den, b.num)
		if d.Sign() == 0 {
			return nil, zeroDiv("integer division or modulo by zero")
		}
		q, _ := floorDivMod(mul(a.num, b.den), d)
		return intObj(q), nil
	case syntax.Mod:
		d := mul(b.num, a.den)
		if d.Sign() == 0 {
			return nil, zeroDiv("integer modulo by zero")
		}
		_, r := floorDivMod(mul(a.num, b.den), d)
		f, err := New(r, mul(a.den, b.den))
		return f, err
	case syntax.Pow:
		return power(t, a, b)
	}
	return python.NotImplemented, nil
}

// divmodFractions is divmod of two fractions.
func divmodFractions(t *python.Thread, a, b *Fraction) (obj, error) {
	if err := checkBits(t, a.num, a.den, b.num, b.den); err != nil {
		return nil, err
	}
	d := mul(a.den, b.num)
	if d.Sign() == 0 {
		return nil, zeroDiv("integer division or modulo by zero")
	}
	q, r := floorDivMod(mul(a.num, b.den), d)
	m, err := New(r, mul(a.den, b.den))
	if err != nil {
		return nil, err
	}
	return python.NewTuple([]obj{intObj(q), m}), nil
}

// power is a ** b for two fractions: exact for an integral exponent, a
// float otherwise.
func power(t *python.Thread, a, b *Fraction) (obj, error) {
	if !b.isInt() {
		fa, err := a.float()
		if err != nil {
			return nil, err
		}
		fb, err := b.float()
		if err != nil {
			return nil, err
		}
		return python.Binary(t, syntax.Pow, python.Float(fa), python.Float(fb))
	}
	p := b.num
	bits := int64(max(a.num.BitLen(), a.den.BitLen()))
	if !p.IsInt64() || (bits > 1 && new(big.Int).Abs(p).Cmp(big.NewInt(1<<40)) > 0) {
		return nil, python.Errorf(python.MemoryErrorType, "")
	}
	e := p.Int64()
	ae := e
	if ae < 0 {
		ae = -ae
	}
	if bits > 1 {
		if err := t.CheckSize(bits*ae/8 + 16); err != nil {
			return nil, err
		}
	}
	// x**ae, interruptible (the size was checked above).
	exp2 := func(x, y *big.Int) (*big.Int, *big.Int, error) {
		px, err := pyfmt.IntPow(t.Context(), x, big.NewInt(ae), 0)
		if err != nil {
			return nil, nil, python.KernelError(t, err)
		}
		py, err := pyfmt.IntPow(t.Context(), y, big.NewInt(ae), 0)
		if err != nil {
			return nil, nil, python.KernelError(t, err)
		}
		return px, py, nil
	}
	switch {
	case e >= 0:
		n, d, err := exp2(a.num, a.den)
		if err != nil {
			return nil, err
		}
		return coprime(n, d), nil
	case a.num.Sign() > 0:
		d, n, err := exp2(a.num, a.den)
		if err != nil {
			return nil, err
		}
		return coprime(n, d), nil
	case a.num.Sign() == 0:
		d, err := pyfmt.IntPow(t.Context(), a.den, big.NewInt(ae), 0)
		if err != nil {
			return nil, python.KernelError(t, err)
		}
		r, _ := python.Repr(t, intObj(d))
		return nil, zeroDiv("Fraction(" + r + ", 0)")
	}
	d, n, err := exp2(new(big.Int).Neg(a.num), new(big.Int).Neg(a.den))
	if err != nil {
		return nil, err
	}
	return coprime(n, d), nil
}

// complexOf is complex(f).
func (f *Fraction) complex() (obj, error) {
	x, err := f.float()
	if err != nil {
		return nil, err
	}
	return python.Complex(complex(x, 0)), nil
}

// PyBinary implements the arithmetic operators with ints, floats,
// complexes and fractions, as Fraction's _operator_fallbacks do.
func (f *Fraction) PyBinary(t *python.Thread, op syntax.Operator, other obj, reflected bool) (obj, error) {
	switch op {
	case syntax.Add, syntax.Sub, syntax.Mult, syntax.Div, syntax.FloorDiv, syntax.Mod:
	case syntax.Pow:
		if reflected {
			return f.rpow(t, other)
		}
		return f.pow(t, other)
	default:
		return python.NotImplemented, nil
	}
	if g, ok := asFraction(other); ok {
		if reflected {
			return mono(t, op, g, f)
		}
		return mono(t, op, f, g)
	}
	switch v := python.Unwrap(other).(type) {
	case python.Float:
		x, err := f.float()
		if err != nil {
			return nil, err
		}
		if reflected {
			return python.Binary(t, op, v, python.Float(x))
		}
		return python.Binary(t, op, python.Float(x), v)
	case python.Complex:
		c, err := f.complex()
		if err != nil {
			return nil, err
		}
		if reflected {
			return python.Binary(t, op, v, c)
		}
		return python.Binary(t, op, c, v)
	}
	return python.NotImplemented, nil
}

// pow is f ** other.
func (f *Fraction) pow(t *python.Thread, other obj) (obj, error) {
	if g, ok := asFraction(other); ok {
		return power(t, f, g)
	}
	x, err := f.float()
	if err != nil {
		return nil, err
	}
	switch python.Unwrap(other).(type) {
	case python.Float, python.Complex:
		return python.Binary(t, syntax.Pow, python.Float(x), other)
	}
	return python.NotImplemented, nil
}

// rpow is other ** f.
func (f *Fraction) rpow(t *python.Thread, other obj) (obj, error) {
	if f.isInt() && f.num.Sign() >= 0 {
		return python.Binary(t, syntax.Pow, other, intObj(f.num))
	}
	if g, ok := asFraction(other); ok {
		return power(t, g, f)
	}
	if f.isInt() {
		return python.Binary(t, syntax.Pow, other, intObj(f.num))
	}
	x, err := f.float()
	if err != nil {
		return nil, err
	}
	return python.Binary(t, syntax.Pow, other, python.Float(x))
}

// PyUnary implements -f, +f (and refuses ~f).
func (f *Fraction) PyUnary(t *python.Thread, op syntax.UnaryOperator) (obj, error) {
	switch op {
	case syntax.USub:
		return coprime(new(big.Int).Neg(f.num), f.den), nil
	case syntax.UAdd:
		return coprime(f.num, f.den), nil
	}
	return nil, python.Errorf(python.TypeErrorType, "bad operand type for unary ~: 'Fraction'")
}

// PyAbs is abs(f).
func (f *Fraction) PyAbs(*python.Thread) (obj, error) {
	return coprime(new(big.Int).Abs(f.num), f.den), nil
}

// PyBool is f != 0.
func (f *Fraction) PyBool(*python.Thread) (bool, error) { return f.num.Sign() != 0, nil }

// PyInt is int(f): truncation toward zero.
func (f *Fraction) PyInt(*python.Thread) (obj, error) { return intObj(f.trunc()), nil }

func (f *Fraction) trunc() *big.Int { return new(big.Int).Quo(f.num, f.den) }

func (f *Fraction) floor() *big.Int {
	q, _ := floorDivMod(f.num, f.den)
	return q
}

func (f *Fraction) ceil() *big.Int {
	q, _ := floorDivMod(new(big.Int).Neg(f.num), f.den)
	return q.Neg(q)
}

// PyFloat is float(f).
func (f *Fraction) PyFloat(*python.Thread) (float64, error) { return f.float() }

// roundHalfEven rounds f to an int, ties to even.
func (f *Fraction) roundHalfEven() *big.Int {
	fl, rem := floorDivMod(f.num, f.den)
	c := new(big.Int).Lsh(rem, 1).Cmp(f.den)
	switch {
	case c < 0:
		return fl
	case c > 0:
		return fl.Add(fl, bigOne)
	case fl.Bit(0) == 0:
		return fl
	}
	return fl.Add(fl, bigOne)
}

// PyRound is round(f) and round(f, ndigits).
func (f *Fraction) PyRound(t *python.Thread, nd obj) (obj, error) {
	if nd == nil || nd == python.None {
		return intObj(f.roundHalfEven()), nil
	}
	n, err := python.ArgInt(t, "round", nd)
	if err != nil {
		return nil, err
	}
	an := n
	if an < 0 {
		an = -an
	}
	if an > 1<<24 {
		return nil, python.Errorf(python.MemoryErrorType, "")
	}
	shift, err := pow10(t, an)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		scaled := coprime(mul(f.num, shift), f.den)
		r, err := New(scaled.roundHalfEven(), shift)
		return r, err
	}
	g, err := New(f.num, mul(f.den, shift))
	if err != nil {
		return nil, err
	}
	r, err := New(mul(g.roundHalfEven(), shift), bigOne)
	return r, err
}

// hashModulus is the prime of Python's numeric hash, 2**61 - 1.
var hashModulus = new(big.Int).Sub(new(big.Int).Lsh(bigOne, 61), bigOne)

const hashInf = 314159

// PyHash is hash(f): equal to the hash of an equal int or float.
func (f *Fraction) PyHash(*python.Thread) (int64, error) {
	var h int64
	dinv := new(big.Int).ModInverse(new(big.Int).Mod(f.den, hashModulus), hashModulus)
	if dinv == nil || new(big.Int).Mod(f.den, hashModulus).Sign() == 0 {
		h = hashInf
	} else {
		v := new(big.Int).Mod(new(big.Int).Abs(f.num), hashModulus)
		v.Mul(v, dinv).Mod(v, hashModulus)
		h = v.Int64()
	}
	if f.num.Sign() < 0 {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h, nil
}

// cmpOp applies a comparison to the result of Cmp.
func cmpOp(op python.CmpOp, c int) obj {
	var r bool
	switch op {
	case python.CmpLt:
		r = c < 0
	case python.CmpLe:
		r = c <= 0
	case python.CmpEq:
		r = c == 0
	case python.CmpNe:
		r = c != 0
	case python.CmpGt:
		r = c > 0
	case python.CmpGe:
		r = c >= 0
	}
	return python.MakeBool(r)
}

// PyCompare compares f with a fraction, an int or a float (and, for ==,
// a complex with no imaginary part).
func (f *Fraction) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	if g, ok := asFraction(other); ok {
		return cmpOp(op, mul(f.num, g.den).Cmp(mul(f.den, g.num))), nil
	}
	var x float64
	switch v := python.Unwrap(other).(type) {
	case python.Float:
		x = float64(v)
	case python.Complex:
		if op != python.CmpEq && op != python.CmpNe || imag(v) != 0 {
			return python.NotImplemented, nil
		}
		x = real(v)
	default:
		return python.NotImplemented, nil
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return python.Compare(t, op, python.Float(0), python.Float(x))
	}
	g, err := fromFloat(x)
	if err != nil {
		return nil, err
	}
	return cmpOp(op, mul(f.num, g.den).Cmp(mul(f.den, g.num))), nil
}

// PyRepr renders Fraction(n, d).
func (f *Fraction) PyRepr(t *python.Thread) (string, error) { return f.repr(t, "Fraction") }

// repr renders cls(n, d) (a subclass's name for its instances).
func (f *Fraction) repr(t *python.Thread, cls string) (string, error) {
	n, err := python.Repr(t, intObj(f.num))
	if err != nil {
		return "", err
	}
	d, err := python.Repr(t, intObj(f.den))
	if err != nil {
		return "", err
	}
	return cls + "(" + n + ", " + d + ")", nil
}

// PyStr renders n/d, or n when d is 1.
func (f *Fraction) PyStr(t *python.Thread) (string, error) {
	n, err := python.Repr(t, intObj(f.num))
	if err != nil || f.isInt() {
		return n, err
	}
	d, err := python.Repr(t, intObj(f.den))
	return n + "/" + d, err
}
