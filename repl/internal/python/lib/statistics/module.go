package statistics

import (
	"errors"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/collections"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// The module wrapper: code mode's statistics module over the kernel above.
//
// The order statistics (median, median_low, median_high, median_grouped,
// mode, multimode, quantiles) work on any Python objects, with Python's
// own comparisons and arithmetic, as CPython's do. The others (means,
// variances, deviations, covariance, correlation, linear regression) take
// ints, bools and floats through the exact kernel; Fraction and Decimal
// values are refused there, and NormalDist is refused.

type obj = python.Object

// Register makes statistics importable.
func Register() {
	python.Setup()
	python.RegisterModule("statistics", load)
}

type module struct {
	errType  *python.Type // StatisticsError
	regType  *python.Type // LinearRegression
	sortedFn obj
}

func load(in *python.Interp) (*python.Module, error) {
	md := &module{}
	md.errType = python.NewBuiltinType("StatisticsError", "statistics", python.ValueErrorType, nil)
	reg, err := collections.NewNamedTuple(nil, "LinearRegression", []string{"slope", "intercept"}, nil, "statistics")
	if err != nil {
		return nil, err
	}
	md.regType = reg
	md.sortedFn, _ = in.Builtins().GetStr("sorted")
	m := python.NewModule("statistics")
	m.Set("StatisticsError", md.errType)
	m.Set("LinearRegression", md.regType)
	funcs := []struct {
		name string
		fn   python.BuiltinFunc
	}{
		{"mean", md.mean}, {"fmean", md.fmean}, {"geometric_mean", md.geometricMean},
		{"harmonic_mean", md.harmonicMean}, {"median", md.median}, {"median_low", md.medianLow},
		{"median_high", md.medianHigh}, {"median_grouped", md.medianGrouped}, {"mode", md.mode},
		{"multimode", md.multimode}, {"quantiles", md.quantiles}, {"variance", md.variance},
		{"pvariance", md.pvariance}, {"stdev", md.stdev}, {"pstdev", md.pstdev},
		{"covariance", md.covariance}, {"correlation", md.correlation},
		{"linear_regression", md.linearRegression},
	}
	all := []obj{python.NewStr("NormalDist"), python.NewStr("StatisticsError")}
	for _, f := range funcs {
		m.Func(f.name, f.fn)
		all = append(all, python.NewStr(f.name))
	}
	nd := python.NewBuiltinType("NormalDist", "statistics", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("statistics.NormalDist", "compute the normal distribution's values with math.erf and math.exp")
	})
	m.Set("NormalDist", nd)
	m.Set("__all__", python.NewList(all))
	return m, nil
}

// statErr raises StatisticsError(msg).
func (md *module) statErr(msg string) error { return python.Errorf(md.errType, "%s", msg) }

// kernelErr converts a kernel error into the Python exception it names.
func (md *module) kernelErr(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Type {
	case "StatisticsError":
		return md.statErr(e.Msg)
	case "TypeError":
		return python.Errorf(python.TypeErrorType, "%s", e.Msg)
	case "OverflowError":
		return python.Errorf(python.OverflowErrorType, "%s", e.Msg)
	case "ZeroDivisionError":
		return python.Errorf(python.ZeroDivisionErrorType, "%s", e.Msg)
	case "AttributeError":
		return python.Errorf(python.AttributeErrorType, "%s", e.Msg)
	case "Unsupported", "LimitError":
		return python.NotSupported("this statistics call ("+e.Msg+")", "")
	}
	return python.Errorf(python.ValueErrorType, "%s", e.Msg)
}

// bind binds a Python function's arguments.
func bind(s *python.Signature, args []obj, kwargs []python.Kwarg) ([]obj, error) {
	a, _, _, err := s.Bind(args, kwargs)
	return a, err
}

// convKind says how a function converts its data: exactly
// (_exact_ratio: Fractions refused), or by float() (fsum, log: Fractions
// converted as float() converts them), or by float() where CPython's
// arithmetic on Fractions would stay exact (Fractions refused).
type convKind int

const (
	exact convKind = iota
	byFloat
	byFloatOnly
)

// isFraction reports whether x is a fractions.Fraction.
func isFraction(x obj) bool {
	c := x.Type()
	return c.Name() == "Fraction" && c.Module() == "fractions"
}

// value converts one datum to a kernel value.
func value(t *python.Thread, fn string, x obj, kind convKind) (Value, error) {
	switch v := python.Unwrap(x).(type) {
	case python.Float:
		return FloatValue(float64(v)), nil
	case python.Bool:
		return BoolValue(bool(v)), nil
	}
	if n := python.ToBig(x); n != nil {
		return IntValue(n), nil
	}
	if isFraction(x) {
		if kind == byFloat {
			f, err := python.Call(t, python.FloatType, []obj{x}, nil)
			if err != nil {
				return Value{}, err
			}
			fv, _, err := python.FloatValue(f)
			return FloatValue(fv), err
		}
		return Value{}, python.NotSupported("statistics."+fn+" over Fraction values", "convert them to float, or use mean, median, mode or quantiles, which take Fractions")
	}
	if x.Type().Name() == "Decimal" {
		return Value{}, python.NotSupported("statistics over Decimal values", "convert them to float")
	}
	if kind != exact {
		return Value{}, python.Errorf(python.TypeErrorType, "must be real number, not %s", python.TypeName(x))
	}
	return Value{}, python.Errorf(python.TypeErrorType, "can't convert type '%s' to numerator/denominator", x.Type().Name())
}

// values converts the items of an iterable.
func values(t *python.Thread, fn string, data obj, kind convKind) ([]Value, error) {
	var out []Value
	err := python.Iterate(t, data, func(x obj) error {
		v, err := value(t, fn, x, kind)
		if err != nil {
			return err
		}
		out = append(out, v)
		if len(out)&1023 == 0 {
			if err := t.CheckSize(int64(len(out)) * 48); err != nil {
				return err
			}
			return t.Tick(1)
		}
		return nil
	})
	if out == nil && err == nil {
		out = []Value{}
	}
	return out, err
}

// toObj converts a kernel value to a Python object.
func toObj(v Value) obj {
	if v.Kind != Float && v.I == nil {
		return python.None // the zero Value of an error return
	}
	switch v.Kind {
	case Float:
		return python.Float(v.F)
	case Bool:
		return python.MakeBool(v.I.Sign() != 0)
	}
	return python.MakeBigInt(v.I)
}

func dataArg(name string, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: name, Pos: []string{"data"}, Required: 1}, args, kwargs)
	if err != nil {
		return nil, err
	}
	return a[0], nil
}

// mean is statistics.mean(data).
func (md *module) mean(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("mean", args, kwargs)
	if err != nil {
		return nil, err
	}
	items, err := python.ToSlice(t, data)
	if err != nil {
		return nil, err
	}
	if r, ok, err := md.fractionMean(t, items); ok || err != nil {
		return r, err
	}
	vs := make([]Value, len(items))
	for i, x := range items {
		if vs[i], err = value(t, "mean", x, exact); err != nil {
			return nil, err
		}
	}
	r, err := Mean(vs)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return toObj(r), nil
}

// fractionMean is mean(data) for data of Fractions and ints (at least one
// Fraction, no float): the exact total divided by the count, a Fraction,
// with Python's own arithmetic, as CPython's _convert gives it.
func (md *module) fractionMean(t *python.Thread, items []obj) (obj, bool, error) {
	any := false
	for _, x := range items {
		switch {
		case isFraction(x):
			any = true
		case python.ToBig(x) != nil:
		default:
			return nil, false, nil
		}
	}
	if !any {
		return nil, false, nil
	}
	var total obj = python.MakeInt(0)
	for i, x := range items {
		var err error
		if total, err = python.Binary(t, syntax.Add, total, x); err != nil {
			return nil, true, err
		}
		if i&1023 == 1023 {
			if err := t.Tick(1); err != nil {
				return nil, true, err
			}
		}
	}
	r, err := python.Binary(t, syntax.Div, total, python.MakeInt(int64(len(items))))
	return r, true, err
}

// fmean is statistics.fmean(data, weights=None).
func (md *module) fmean(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "fmean", Pos: []string{"data", "weights"}, Required: 1}, args, kwargs)
	if err != nil {
		return nil, err
	}
	var ws []Value
	if w := a[1]; w != nil && w != python.None {
		if ws, err = values(t, "fmean", w, byFloatOnly); err != nil {
			return nil, err
		}
	}
	kind := byFloat
	if ws != nil {
		// sumprod(data, weights) is exact on Fractions.
		kind = byFloatOnly
	}
	vs, err := values(t, "fmean", a[0], kind)
	if err != nil {
		return nil, err
	}
	r, err := FMean(vs, ws)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return python.Float(r), nil
}

// geometricMean is statistics.geometric_mean(data).
func (md *module) geometricMean(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("geometric_mean", args, kwargs)
	if err != nil {
		return nil, err
	}
	vs, err := values(t, "geometric_mean", data, byFloat)
	if err != nil {
		return nil, err
	}
	r, err := GeometricMean(vs)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return python.Float(r), nil
}

// harmonicMean is statistics.harmonic_mean(data, weights=None).
func (md *module) harmonicMean(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "harmonic_mean", Pos: []string{"data", "weights"}, Required: 1}, args, kwargs)
	if err != nil {
		return nil, err
	}
	items, err := python.ToSlice(t, a[0])
	if err != nil {
		return nil, err
	}
	if len(items) == 1 && (a[1] == nil || a[1] == python.None) {
		// A single value is returned as it is (after its checks).
		x := items[0]
		switch python.Unwrap(x).(type) {
		case python.Float, python.Bool:
		default:
			if python.ToBig(x) == nil {
				if isFraction(x) {
					neg, err := python.Less(t, x, python.MakeInt(0))
					if err != nil {
						return nil, err
					}
					if neg {
						return nil, md.statErr("harmonic mean does not support negative values")
					}
					return x, nil
				}
				return nil, python.Errorf(python.TypeErrorType, "unsupported type")
			}
		}
	}
	vs := make([]Value, len(items))
	for i, x := range items {
		if vs[i], err = value(t, "harmonic_mean", x, exact); err != nil {
			return nil, err
		}
	}
	var ws []Value
	if w := a[1]; w != nil && w != python.None {
		if ws, err = values(t, "harmonic_mean", w, exact); err != nil {
			return nil, err
		}
	}
	r, err := HarmonicMean(vs, ws)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	if len(items) == 1 && ws == nil {
		return items[0], nil
	}
	return toObj(r), nil
}

// sorted returns sorted(data) as a slice.
func (md *module) sorted(t *python.Thread, data obj) ([]obj, error) {
	r, err := python.Call(t, md.sortedFn, []obj{data}, nil)
	if err != nil {
		return nil, err
	}
	return r.(*python.List).Items(), nil
}

// median is statistics.median(data).
func (md *module) median(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("median", args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := md.sorted(t, data)
	if err != nil {
		return nil, err
	}
	n := len(s)
	if n == 0 {
		return nil, md.statErr("no median for empty data")
	}
	if n%2 == 1 {
		return s[n/2], nil
	}
	sum, err := python.Binary(t, syntax.Add, s[n/2-1], s[n/2])
	if err != nil {
		return nil, err
	}
	return python.Binary(t, syntax.Div, sum, python.MakeInt(2))
}

// medianLow is statistics.median_low(data).
func (md *module) medianLow(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("median_low", args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := md.sorted(t, data)
	if err != nil {
		return nil, err
	}
	n := len(s)
	if n == 0 {
		return nil, md.statErr("no median for empty data")
	}
	if n%2 == 1 {
		return s[n/2], nil
	}
	return s[n/2-1], nil
}

// medianHigh is statistics.median_high(data).
func (md *module) medianHigh(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("median_high", args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := md.sorted(t, data)
	if err != nil {
		return nil, err
	}
	if len(s) == 0 {
		return nil, md.statErr("no median for empty data")
	}
	return s[len(s)/2], nil
}

// bisect is bisect_left (left) or bisect_right of x in a[lo:], with
// Python's comparisons.
func bisectObj(t *python.Thread, a []obj, x obj, lo int, left bool) (int, error) {
	hi := len(a)
	for lo < hi {
		mid := (lo + hi) / 2
		var less bool
		var err error
		if left {
			less, err = python.Less(t, a[mid], x)
		} else {
			less, err = python.Less(t, x, a[mid])
			less = !less
		}
		if err != nil {
			return 0, err
		}
		if less {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// medianGrouped is statistics.median_grouped(data, interval=1.0).
func (md *module) medianGrouped(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "median_grouped", Pos: []string{"data", "interval"}, Required: 1}, args, kwargs)
	if err != nil {
		return nil, err
	}
	s, err := md.sorted(t, a[0])
	if err != nil {
		return nil, err
	}
	n := len(s)
	if n == 0 {
		return nil, md.statErr("no median for empty data")
	}
	x := s[n/2]
	i, err := bisectObj(t, s, x, 0, true)
	if err != nil {
		return nil, err
	}
	j, err := bisectObj(t, s, x, i, false)
	if err != nil {
		return nil, err
	}
	var interval obj = python.Float(1)
	if a[1] != nil {
		interval = a[1]
	}
	toF := func(v obj) (float64, error) {
		r, err := python.Call(t, python.FloatType, []obj{v}, nil)
		if err != nil {
			if python.IsInstance(err, python.ValueErrorType) {
				return 0, python.Errorf(python.TypeErrorType, "Value cannot be converted to a float")
			}
			return 0, err
		}
		f, _, err := python.FloatValue(r)
		return f, err
	}
	iv, err := toF(interval)
	if err != nil {
		return nil, err
	}
	xv, err := toF(x)
	if err != nil {
		return nil, err
	}
	l := xv - iv/2.0
	f := float64(j - i)
	return python.Float(l + iv*(float64(n)/2-float64(i))/f), nil
}

// counts counts the items of data in first-seen order (a Counter).
func counts(t *python.Thread, data obj) ([]obj, []int, error) {
	d := python.NewDict(8)
	var keys []obj
	var ns []int
	err := python.Iterate(t, data, func(x obj) error {
		v, ok, err := d.Get(t, x)
		if err != nil {
			return err
		}
		if ok {
			i, _ := python.AsInt64(v)
			ns[i]++
			return nil
		}
		if err := d.Set(t, x, python.MakeInt(int64(len(keys)))); err != nil {
			return err
		}
		keys = append(keys, x)
		ns = append(ns, 1)
		if len(keys)&1023 == 0 {
			if err := t.CheckSize(int64(len(keys)) * 64); err != nil {
				return err
			}
			return t.Tick(1)
		}
		return nil
	})
	return keys, ns, err
}

// mode is statistics.mode(data).
func (md *module) mode(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("mode", args, kwargs)
	if err != nil {
		return nil, err
	}
	keys, ns, err := counts(t, data)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, md.statErr("no mode for empty data")
	}
	best := 0
	for i, n := range ns {
		if n > ns[best] {
			best = i
		}
	}
	return keys[best], nil
}

// multimode is statistics.multimode(data).
func (md *module) multimode(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	data, err := dataArg("multimode", args, kwargs)
	if err != nil {
		return nil, err
	}
	keys, ns, err := counts(t, data)
	if err != nil {
		return nil, err
	}
	maxN := 0
	for _, n := range ns {
		maxN = max(maxN, n)
	}
	out := []obj{}
	for i, n := range ns {
		if n == maxN {
			out = append(out, keys[i])
		}
	}
	return python.NewList(out), nil
}

// quantiles is statistics.quantiles(data, *, n=4, method='exclusive').
func (md *module) quantiles(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "quantiles", Pos: []string{"data"}, Required: 1, KwOnly: []string{"n", "method"}}, args, kwargs)
	if err != nil {
		return nil, err
	}
	nObj, method := a[1], a[2]
	if nObj == nil {
		nObj = python.MakeInt(4)
	}
	if method == nil {
		method = python.NewStr("exclusive")
	}
	lt, err := python.Less(t, nObj, python.MakeInt(1))
	if err != nil {
		return nil, err
	}
	if lt {
		return nil, md.statErr("n must be at least 1")
	}
	data, err := md.sorted(t, a[0])
	if err != nil {
		return nil, err
	}
	ld := int64(len(data))
	if ld < 2 {
		return nil, md.statErr("must have at least two data points")
	}
	incl, err := python.Equal(t, method, python.NewStr("inclusive"))
	if err != nil {
		return nil, err
	}
	excl, err := python.Equal(t, method, python.NewStr("exclusive"))
	if err != nil {
		return nil, err
	}
	if !incl && !excl {
		r, err := python.Repr(t, method)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "Unknown method: %s", r)
	}
	n, ok, err := python.IndexValue(t, nObj)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(nObj))
	}
	if n > MaxQuantiles {
		return nil, python.NotSupported("quantiles with n beyond 1048576", "use a smaller n")
	}
	if err := t.CheckSize(n * 16); err != nil {
		return nil, err
	}
	// interp is (data[lo] * (n - delta) + data[lo + 1] * delta) / n.
	interp := func(lo, delta int64) (obj, error) {
		x, err := python.Binary(t, syntax.Mult, data[lo], python.MakeInt(n-delta))
		if err != nil {
			return nil, err
		}
		y, err := python.Binary(t, syntax.Mult, data[lo+1], python.MakeInt(delta))
		if err != nil {
			return nil, err
		}
		s, err := python.Binary(t, syntax.Add, x, y)
		if err != nil {
			return nil, err
		}
		return python.Binary(t, syntax.Div, s, python.MakeInt(n))
	}
	out := make([]obj, 0, max(n-1, 0))
	for i := int64(1); i < n; i++ {
		if i&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
		var v obj
		if incl {
			m := ld - 1
			j, delta := i*m/n, i*m%n
			v, err = interp(j, delta)
		} else {
			m := ld + 1
			j := i * m / n
			j = min(max(j, 1), ld-1)
			v, err = interp(j-1, i*m-j*n)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return python.NewList(out), nil
}

// spread runs variance, pvariance, stdev or pstdev.
func (md *module) spread(t *python.Thread, name, center string, args []obj, kwargs []python.Kwarg, f func(data []Value, c *Value) (obj, error)) (obj, error) {
	a, err := bind(&python.Signature{Name: name, Pos: []string{"data", center}, Required: 1}, args, kwargs)
	if err != nil {
		return nil, err
	}
	var c *Value
	if a[1] != nil && a[1] != python.None {
		v, err := value(t, name, a[1], exact)
		if err != nil {
			return nil, err
		}
		c = &v
	}
	vs, err := values(t, name, a[0], exact)
	if err != nil {
		return nil, err
	}
	r, err := f(vs, c)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return r, nil
}

func (md *module) variance(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	return md.spread(t, "variance", "xbar", args, kwargs, func(d []Value, c *Value) (obj, error) {
		v, err := Variance(d, c)
		return toObj(v), err
	})
}

func (md *module) pvariance(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	return md.spread(t, "pvariance", "mu", args, kwargs, func(d []Value, c *Value) (obj, error) {
		v, err := PVariance(d, c)
		return toObj(v), err
	})
}

func (md *module) stdev(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	return md.spread(t, "stdev", "xbar", args, kwargs, func(d []Value, c *Value) (obj, error) {
		v, err := Stdev(d, c)
		return python.Float(v), err
	})
}

func (md *module) pstdev(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	return md.spread(t, "pstdev", "mu", args, kwargs, func(d []Value, c *Value) (obj, error) {
		v, err := PStdev(d, c)
		return python.Float(v), err
	})
}

// pairs converts the x and y arguments of covariance, correlation and
// linear_regression: both must have a len().
func pairs(t *python.Thread, fn string, x, y obj, kind convKind) ([]Value, []Value, error) {
	if _, err := python.Len(t, x); err != nil {
		return nil, nil, err
	}
	if _, err := python.Len(t, y); err != nil {
		return nil, nil, err
	}
	xs, err := values(t, fn, x, kind)
	if err != nil {
		return nil, nil, err
	}
	ys, err := values(t, fn, y, kind)
	if err != nil {
		return nil, nil, err
	}
	return xs, ys, nil
}

// covariance is statistics.covariance(x, y, /).
func (md *module) covariance(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "covariance", Pos: []string{"x", "y"}, PosOnly: 2, Required: 2}, args, kwargs)
	if err != nil {
		return nil, err
	}
	xs, ys, err := pairs(t, "covariance", a[0], a[1], byFloat)
	if err != nil {
		return nil, err
	}
	r, err := Covariance(xs, ys)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return python.Float(r), nil
}

// correlation is statistics.correlation(x, y, /, *, method='linear').
func (md *module) correlation(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "correlation", Pos: []string{"x", "y"}, PosOnly: 2, Required: 2, KwOnly: []string{"method"}}, args, kwargs)
	if err != nil {
		return nil, err
	}
	method := "linear"
	methodRepr := "'linear'"
	if m := a[2]; m != nil {
		if methodRepr, err = python.Repr(t, m); err != nil {
			return nil, err
		}
		if python.IsStr(m) {
			method, _ = python.StrOf(t, python.Unwrap(m))
		} else {
			method = ""
			if _, err := python.Hash(t, m); err != nil {
				return nil, err
			}
		}
	}
	kind := byFloat
	if method == "ranked" {
		// The ranks order the values exactly.
		kind = byFloatOnly
	}
	xs, ys, err := pairs(t, "correlation", a[0], a[1], kind)
	if err != nil {
		return nil, err
	}
	r, err := Correlation(xs, ys, method, methodRepr)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return python.Float(r), nil
}

// linearRegression is statistics.linear_regression(x, y, /, *,
// proportional=False).
func (md *module) linearRegression(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, err := bind(&python.Signature{Name: "linear_regression", Pos: []string{"x", "y"}, PosOnly: 2, Required: 2, KwOnly: []string{"proportional"}}, args, kwargs)
	if err != nil {
		return nil, err
	}
	prop := false
	if a[2] != nil {
		if prop, err = python.TruthE(t, a[2]); err != nil {
			return nil, err
		}
	}
	kind := byFloat
	if prop {
		// sumprod(x, y) is exact on Fractions.
		kind = byFloatOnly
	}
	xs, ys, err := pairs(t, "linear_regression", a[0], a[1], kind)
	if err != nil {
		return nil, err
	}
	slope, icpt, err := LinearRegression(xs, ys, prop)
	if err != nil {
		return nil, md.kernelErr(err)
	}
	return python.NewInstance(md.regType, python.NewTuple([]obj{python.Float(slope), python.Float(icpt)})), nil
}

var _ = big.NewInt
