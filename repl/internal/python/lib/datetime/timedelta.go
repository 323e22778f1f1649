package datetime

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Timedelta is a normalized duration: 0 <= Seconds < 86400,
// 0 <= Microseconds < 1000000 and |Days| <= 999999999.
type Timedelta struct {
	Days, Seconds, Microseconds int64
}

// Number is an int or float argument.
type Number struct {
	IsFloat bool
	I       *big.Int
	F       float64
}

// Int returns the int n as a Number.
func Int(n int64) Number { return Number{I: big.NewInt(n)} }

// Float returns the float f as a Number.
func Float(f float64) Number { return Number{IsFloat: true, F: f} }

// TimedeltaArgs are timedelta()'s arguments; nil ones were not given.
type TimedeltaArgs struct {
	Days, Seconds, Microseconds, Milliseconds, Minutes, Hours, Weeks *Number
}

var (
	bigUsPerSecond = big.NewInt(1000000)
	bigUsPerDay    = big.NewInt(86400000000)
	bigSecPerDay   = big.NewInt(86400)
	bigOne         = big.NewInt(1)
)

// floatToBig converts an integral float like int(float).
func floatToBig(f float64) (*big.Int, error) {
	if math.IsNaN(f) {
		return nil, valueErr("cannot convert float NaN to integer")
	}
	if math.IsInf(f, 0) {
		return nil, &Error{"OverflowError", "cannot convert float infinity to integer"}
	}
	b, _ := new(big.Float).SetFloat64(f).Int(nil)
	return b, nil
}

// accum adds num*factor to sofar as CPython's timedelta constructor does:
// exactly for ints, and for floats the integral part exactly and the
// fraction of a microsecond into leftover.
func accum(sofar *big.Int, num *Number, factor int64, leftover *float64) error {
	if !num.IsFloat {
		sofar.Add(sofar, new(big.Int).Mul(num.I, big.NewInt(factor)))
		return nil
	}
	intpart, frac := math.Modf(num.F)
	x, err := floatToBig(intpart)
	if err != nil {
		return err
	}
	sofar.Add(sofar, x.Mul(x, big.NewInt(factor)))
	if frac == 0 {
		return nil
	}
	d := float64(factor) * frac
	ip, fp := math.Modf(d)
	y, err := floatToBig(ip)
	if err != nil {
		return err
	}
	sofar.Add(sofar, y)
	*leftover += fp
	return nil
}

// NewTimedelta is timedelta(days, seconds, microseconds, milliseconds,
// minutes, hours, weeks).
func NewTimedelta(a TimedeltaArgs) (Timedelta, error) {
	x := new(big.Int)
	leftover := 0.0
	parts := []struct {
		n      *Number
		factor int64
	}{
		{a.Microseconds, 1}, {a.Milliseconds, 1000}, {a.Seconds, 1000000}, {a.Minutes, 60000000},
		{a.Hours, 3600000000}, {a.Days, 86400000000}, {a.Weeks, 604800000000},
	}
	for _, p := range parts {
		if p.n == nil {
			continue
		}
		if err := accum(x, p.n, p.factor, &leftover); err != nil {
			return Timedelta{}, err
		}
	}
	if leftover != 0 {
		whole := math.Round(leftover)
		if math.Abs(whole-leftover) == 0.5 {
			odd := 0.0
			if x.Bit(0) == 1 {
				odd = 1
			}
			whole = 2.0*math.Round((leftover+odd)*0.5) - odd
		}
		x.Add(x, big.NewInt(int64(whole)))
	}
	return TimedeltaFromMicroseconds(x)
}

// TD returns the normalized timedelta(days, seconds, microseconds) for
// small arguments.
func TD(days, seconds, microseconds int64) (Timedelta, error) {
	us := new(big.Int).Mul(big.NewInt(days), bigUsPerDay)
	us.Add(us, new(big.Int).Mul(big.NewInt(seconds), bigUsPerSecond))
	us.Add(us, big.NewInt(microseconds))
	return TimedeltaFromMicroseconds(us)
}

// TimedeltaFromMicroseconds normalizes a number of microseconds, with
// CPython's OverflowError beyond the range.
func TimedeltaFromMicroseconds(us *big.Int) (Timedelta, error) {
	s, u := new(big.Int), new(big.Int)
	s.DivMod(us, bigUsPerSecond, u)
	d, sec := new(big.Int), new(big.Int)
	d.DivMod(s, bigSecPerDay, sec)
	if !d.IsInt64() || d.Int64() > math.MaxInt32 || d.Int64() < math.MinInt32 {
		return Timedelta{}, &Error{"OverflowError", "Python int too large to convert to C int"}
	}
	if days := d.Int64(); days < -MaxDeltaDays || days > MaxDeltaDays {
		return Timedelta{}, &Error{"OverflowError", fmt.Sprintf("days=%d; must have magnitude <= %d", days, MaxDeltaDays)}
	}
	return Timedelta{d.Int64(), sec.Int64(), u.Int64()}, nil
}

// TotalMicroseconds returns the duration in microseconds.
func (t Timedelta) TotalMicroseconds() *big.Int {
	us := new(big.Int).Mul(big.NewInt(t.Days), bigUsPerDay)
	us.Add(us, big.NewInt(t.Seconds*1000000+t.Microseconds))
	return us
}

// TimedeltaMin, TimedeltaMax and TimedeltaResolution are timedelta.min,
// .max and .resolution.
var (
	TimedeltaMin        = Timedelta{-MaxDeltaDays, 0, 0}
	TimedeltaMax        = Timedelta{MaxDeltaDays, 86399, 999999}
	TimedeltaResolution = Timedelta{0, 0, 1}
)

// Add returns t + u.
func (t Timedelta) Add(u Timedelta) (Timedelta, error) {
	return TimedeltaFromMicroseconds(new(big.Int).Add(t.TotalMicroseconds(), u.TotalMicroseconds()))
}

// Sub returns t - u.
func (t Timedelta) Sub(u Timedelta) (Timedelta, error) {
	return TimedeltaFromMicroseconds(new(big.Int).Sub(t.TotalMicroseconds(), u.TotalMicroseconds()))
}

// Neg returns -t.
func (t Timedelta) Neg() (Timedelta, error) {
	return TimedeltaFromMicroseconds(new(big.Int).Neg(t.TotalMicroseconds()))
}

// Abs returns abs(t).
func (t Timedelta) Abs() (Timedelta, error) {
	if t.Days < 0 {
		return t.Neg()
	}
	return t, nil
}

// Bool is bool(t).
func (t Timedelta) Bool() bool { return t != Timedelta{} }

// Compare returns -1, 0 or 1.
func (t Timedelta) Compare(u Timedelta) int {
	switch {
	case t.Days != u.Days:
		return cmpInt(t.Days, u.Days)
	case t.Seconds != u.Seconds:
		return cmpInt(t.Seconds, u.Seconds)
	}
	return cmpInt(t.Microseconds, u.Microseconds)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// divideNearest is m / n rounded half to even.
func divideNearest(m, n *big.Int) (*big.Int, error) {
	if n.Sign() == 0 {
		return nil, errIntDivZero
	}
	q, r := floorDivMod(m, n)
	r2 := new(big.Int).Lsh(r, 1)
	c := r2.Cmp(n)
	if n.Sign() < 0 {
		c = -c
	}
	if c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, bigOne)
	}
	return q, nil
}

func floorDivMod(m, n *big.Int) (*big.Int, *big.Int) {
	q, r := new(big.Int).QuoRem(m, n, new(big.Int))
	if r.Sign() != 0 && r.Sign() != n.Sign() {
		q.Sub(q, bigOne)
		r.Add(r, n)
	}
	return q, r
}

// MulInt returns t * n.
func (t Timedelta) MulInt(n *big.Int) (Timedelta, error) {
	return TimedeltaFromMicroseconds(new(big.Int).Mul(t.TotalMicroseconds(), n))
}

// floatRatio is float.as_integer_ratio().
func floatRatio(f float64) (*big.Int, *big.Int, error) {
	if math.IsNaN(f) {
		return nil, nil, valueErr("cannot convert NaN to integer ratio")
	}
	if math.IsInf(f, 0) {
		return nil, nil, &Error{"OverflowError", "cannot convert Infinity to integer ratio"}
	}
	r := new(big.Rat).SetFloat64(f)
	return new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom()), nil
}

// MulFloat returns t * f, rounded half to even to the microsecond.
func (t Timedelta) MulFloat(f float64) (Timedelta, error) {
	n, d, err := floatRatio(f)
	if err != nil {
		return Timedelta{}, err
	}
	q, err := divideNearest(new(big.Int).Mul(t.TotalMicroseconds(), n), d)
	if err != nil {
		return Timedelta{}, err
	}
	return TimedeltaFromMicroseconds(q)
}

// TrueDivInt returns t / n.
func (t Timedelta) TrueDivInt(n *big.Int) (Timedelta, error) {
	q, err := divideNearest(t.TotalMicroseconds(), n)
	if err != nil {
		return Timedelta{}, err
	}
	return TimedeltaFromMicroseconds(q)
}

// TrueDivFloat returns t / f.
func (t Timedelta) TrueDivFloat(f float64) (Timedelta, error) {
	n, d, err := floatRatio(f)
	if err != nil {
		return Timedelta{}, err
	}
	q, err := divideNearest(new(big.Int).Mul(t.TotalMicroseconds(), d), n)
	if err != nil {
		return Timedelta{}, err
	}
	return TimedeltaFromMicroseconds(q)
}

var errIntDivZero = &Error{"ZeroDivisionError", "integer division or modulo by zero"}

// FloorDivInt returns t // n.
func (t Timedelta) FloorDivInt(n *big.Int) (Timedelta, error) {
	if n.Sign() == 0 {
		return Timedelta{}, errIntDivZero
	}
	q, _ := floorDivMod(t.TotalMicroseconds(), n)
	return TimedeltaFromMicroseconds(q)
}

// TrueDiv returns t / u as a float.
func (t Timedelta) TrueDiv(u Timedelta) (float64, error) {
	d := u.TotalMicroseconds()
	if d.Sign() == 0 {
		return 0, &Error{"ZeroDivisionError", "division by zero"}
	}
	n := t.TotalMicroseconds()
	f, _ := new(big.Rat).SetFrac(n, d).Float64()
	if n.Sign() == 0 && d.Sign() < 0 {
		f = math.Copysign(0, -1)
	}
	return f, nil
}

// FloorDiv returns t // u as an int.
func (t Timedelta) FloorDiv(u Timedelta) (*big.Int, error) {
	d := u.TotalMicroseconds()
	if d.Sign() == 0 {
		return nil, errIntDivZero
	}
	q, _ := floorDivMod(t.TotalMicroseconds(), d)
	return q, nil
}

// Mod returns t % u.
func (t Timedelta) Mod(u Timedelta) (Timedelta, error) {
	d := u.TotalMicroseconds()
	if d.Sign() == 0 {
		return Timedelta{}, &Error{"ZeroDivisionError", "integer modulo by zero"}
	}
	_, r := floorDivMod(t.TotalMicroseconds(), d)
	return TimedeltaFromMicroseconds(r)
}

// DivMod returns divmod(t, u).
func (t Timedelta) DivMod(u Timedelta) (*big.Int, Timedelta, error) {
	d := u.TotalMicroseconds()
	if d.Sign() == 0 {
		return nil, Timedelta{}, errIntDivZero
	}
	q, r := floorDivMod(t.TotalMicroseconds(), d)
	rt, err := TimedeltaFromMicroseconds(r)
	return q, rt, err
}

// TotalSeconds is total_seconds().
func (t Timedelta) TotalSeconds() float64 {
	f, _ := new(big.Rat).SetFrac(t.TotalMicroseconds(), bigUsPerSecond).Float64()
	return f
}

// String is str(t): "[D day[s], ]H:MM:SS[.ffffff]".
func (t Timedelta) String() string {
	mm, ss := t.Seconds/60, t.Seconds%60
	hh, mm := mm/60, mm%60
	s := fmt.Sprintf("%d:%02d:%02d", hh, mm, ss)
	if t.Days != 0 {
		plural := "s"
		if t.Days == 1 || t.Days == -1 {
			plural = ""
		}
		s = fmt.Sprintf("%d day%s, ", t.Days, plural) + s
	}
	if t.Microseconds != 0 {
		s += fmt.Sprintf(".%06d", t.Microseconds)
	}
	return s
}

// Repr is repr(t): "datetime.timedelta(days=1, seconds=5)".
func (t Timedelta) Repr() string {
	var args []string
	if t.Days != 0 {
		args = append(args, fmt.Sprintf("days=%d", t.Days))
	}
	if t.Seconds != 0 {
		args = append(args, fmt.Sprintf("seconds=%d", t.Seconds))
	}
	if t.Microseconds != 0 {
		args = append(args, fmt.Sprintf("microseconds=%d", t.Microseconds))
	}
	if len(args) == 0 {
		args = append(args, "0")
	}
	return "datetime.timedelta(" + strings.Join(args, ", ") + ")"
}
