package statistics

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/rlm-go/rlm/repl/internal/python/crmath"
)

// exactSum is _sum: the exact total of the data (or, when any value is not
// finite, the float sum of those in order), their count, and the type T
// the result converts to.
type exactSum struct {
	total    *big.Rat // nil when special holds the total
	special  float64
	count    int
	anyFloat bool // T is float (else int)
}

// accumulator sums ints and finite floats exactly: floats as an integer
// times 2**exp, the exponent lowered as smaller floats come.
type accumulator struct {
	ints      big.Int
	floats    big.Int // times 2**exp
	exp       int
	haveFloat bool
	special   float64
	nonFinite bool
	anyFloat  bool
	count     int
	tmp       big.Int
}

// addScaled adds m * 2**e to the float part.
func (a *accumulator) addScaled(m *big.Int, e int) {
	switch {
	case !a.haveFloat:
		a.floats.Set(m)
		a.exp, a.haveFloat = e, true
	case e >= a.exp:
		a.tmp.Lsh(m, uint(e-a.exp))
		a.floats.Add(&a.floats, &a.tmp)
	default:
		a.floats.Lsh(&a.floats, uint(a.exp-e))
		a.exp = e
		a.floats.Add(&a.floats, m)
	}
}

// mantExp splits a finite non-zero float into an odd integer and a power
// of two.
func mantExp(f float64) (int64, int) {
	mant, exp := math.Frexp(f)
	m := int64(mant * (1 << 53))
	e := exp - 53
	for m&1 == 0 {
		m >>= 1
		e++
	}
	return m, e
}

func (a *accumulator) addFloat(f float64) {
	a.anyFloat = true
	a.count++
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if !a.nonFinite {
			a.nonFinite = true
			a.special = 0
		}
		a.special += f
		return
	}
	if f == 0 {
		return
	}
	m, e := mantExp(f)
	a.addScaled(big.NewInt(m), e)
}

// addFloatSquare adds f*f exactly (f finite).
func (a *accumulator) addFloatSquare(f float64) {
	a.anyFloat = true
	a.count++
	if f == 0 {
		return
	}
	m, e := mantExp(f)
	sq := big.NewInt(m)
	sq.Mul(sq, sq)
	a.addScaled(sq, 2*e)
}

func (a *accumulator) addInt(i *big.Int) {
	a.count++
	a.ints.Add(&a.ints, i)
}

func (a *accumulator) add(v Value) {
	if v.Kind == Float {
		a.addFloat(v.F)
	} else {
		a.addInt(v.I)
	}
}

func (a *accumulator) result() exactSum {
	s := exactSum{count: a.count, anyFloat: a.anyFloat}
	if a.nonFinite {
		s.special = a.special
		return s
	}
	t := new(big.Rat).SetInt(&a.floats)
	if a.haveFloat {
		p := new(big.Int).Lsh(big.NewInt(1), uint(abs(a.exp)))
		if a.exp >= 0 {
			t.Mul(t, new(big.Rat).SetInt(p))
		} else {
			t.Quo(t, new(big.Rat).SetInt(p))
		}
	}
	s.total = t.Add(t, new(big.Rat).SetInt(&a.ints))
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sumOf(data []Value) exactSum {
	var a accumulator
	for _, v := range data {
		a.add(v)
	}
	return a.result()
}

// convert is _convert(value, T) for an exact value.
func convert(r *big.Rat, anyFloat bool) (Value, error) {
	if !anyFloat && r.IsInt() {
		return IntValue(new(big.Int).Set(r.Num())), nil
	}
	f, err := ratToFloat(r)
	return FloatValue(f), err
}

// Mean is statistics.mean.
func Mean(data []Value) (Value, error) {
	s := sumOf(data)
	if s.count < 1 {
		return Value{}, statErr("mean requires at least one data point")
	}
	if s.total == nil {
		return FloatValue(s.special / float64(s.count)), nil
	}
	return convert(new(big.Rat).Quo(s.total, new(big.Rat).SetInt64(int64(s.count))), s.anyFloat)
}

// FMean is statistics.fmean(data, weights); weights nil is None.
func FMean(data, weights []Value) (float64, error) {
	if weights == nil {
		total, err := FSum(data)
		if err != nil {
			return 0, err
		}
		if len(data) == 0 {
			return 0, statErr("fmean requires at least one data point")
		}
		return total / float64(len(data)), nil
	}
	num, err := SumProd(data, weights)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Type == "ValueError" && e.Msg == "Inputs are not the same length" {
			return 0, statErr("data and weights must be the same length")
		}
		return 0, err
	}
	den, err := FSum(weights)
	if err != nil {
		return 0, err
	}
	if den == 0 {
		return 0, statErr("sum of weights must be non-zero")
	}
	v, err := truediv(num, FloatValue(den))
	return v.F, err
}

// mathLog is math.log of an int or float, with its ValueError.
func mathLog(v Value) (float64, error) {
	domain := &Error{"ValueError", "math domain error"}
	if v.Kind == Float {
		if math.IsNaN(v.F) {
			return v.F, nil
		}
		if v.F <= 0 {
			return 0, domain
		}
		return crmath.Log(v.F), nil
	}
	if v.I.Sign() <= 0 {
		return 0, domain
	}
	if f, err := intToFloat(v.I); err == nil {
		return crmath.Log(f), nil
	}
	// Too large for a float: log(m) + log(2)*e with x = m * 2**e.
	e := v.I.BitLen()
	m, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(v.I), -e).Float64()
	if m == 1 {
		m, e = 0.5, e+1
	}
	return crmath.Log(m) + float64(crmath.Log(2.0)*float64(e)), nil
}

// GeometricMean is statistics.geometric_mean.
func GeometricMean(data []Value) (float64, error) {
	logs := make([]Value, len(data))
	for i, v := range data {
		l, err := mathLog(v)
		if err != nil {
			return 0, statErr("geometric mean requires a non-empty dataset containing positive numbers")
		}
		logs[i] = FloatValue(l)
	}
	m, err := FMean(logs, nil)
	if err != nil {
		if e, ok := err.(*Error); ok && (e.Type == "ValueError" || e.Type == "StatisticsError") {
			return 0, statErr("geometric mean requires a non-empty dataset containing positive numbers")
		}
		return 0, err
	}
	r := crmath.Exp(m)
	if math.IsInf(r, 0) && !math.IsInf(m, 0) {
		return 0, &Error{"OverflowError", "math range error"}
	}
	return r, nil
}

func isNeg(v Value) bool {
	if v.Kind == Float {
		return v.F < 0
	}
	return v.I.Sign() < 0
}

func isZero(v Value) bool {
	if v.Kind == Float {
		return v.F == 0
	}
	return v.I.Sign() == 0
}

// HarmonicMean is statistics.harmonic_mean(data, weights); weights nil is
// None.
func HarmonicMean(data, weights []Value) (Value, error) {
	const errmsg = "harmonic mean does not support negative values"
	n := len(data)
	if n < 1 {
		return Value{}, statErr("harmonic_mean requires at least one data point")
	}
	if n == 1 && weights == nil {
		if isNeg(data[0]) {
			return Value{}, statErr(errmsg)
		}
		return data[0], nil
	}
	var sumWeights exactSum
	if weights == nil {
		sumWeights = exactSum{total: new(big.Rat).SetInt64(int64(n)), count: n}
	} else {
		if len(weights) != n {
			return Value{}, statErr("Number of weights does not match data size")
		}
		for _, w := range weights {
			if isNeg(w) {
				return Value{}, statErr(errmsg)
			}
		}
		sumWeights = sumOf(weights)
	}
	terms := make([]Value, 0, n)
	for i, x := range data {
		if isNeg(x) {
			return Value{}, statErr(errmsg)
		}
		w := Int64Value(1)
		if weights != nil {
			w = weights[i]
		}
		if isZero(w) {
			terms = append(terms, Int64Value(0))
			continue
		}
		t, err := truediv(w, x)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Type == "ZeroDivisionError" {
				return Int64Value(0), nil
			}
			return Value{}, err
		}
		terms = append(terms, t)
	}
	s := sumOf(terms)
	if s.total == nil {
		// A non-finite total: compare and divide as floats.
		if s.special <= 0 {
			return Value{}, statErr("Weighted sum must be positive")
		}
		sw, err := sumToValue(sumWeights)
		if err != nil {
			return Value{}, err
		}
		return truediv(sw, FloatValue(s.special))
	}
	if s.total.Sign() <= 0 {
		return Value{}, statErr("Weighted sum must be positive")
	}
	if sumWeights.total == nil {
		r, err := ratToFloat(s.total)
		if err != nil {
			return Value{}, err
		}
		return FloatValue(sumWeights.special / r), nil
	}
	return convert(new(big.Rat).Quo(sumWeights.total, s.total), s.anyFloat)
}

func sumToValue(s exactSum) (Value, error) {
	if s.total == nil {
		return FloatValue(s.special), nil
	}
	if s.total.IsInt() {
		return IntValue(s.total.Num()), nil
	}
	f, err := ratToFloat(s.total)
	return FloatValue(f), err
}

// Median is statistics.median of sorted data.
func Median(sorted []Value) (Value, error) {
	n := len(sorted)
	if n == 0 {
		return Value{}, statErr("no median for empty data")
	}
	if n%2 == 1 {
		return sorted[n/2], nil
	}
	s, err := add(sorted[n/2-1], sorted[n/2])
	if err != nil {
		return Value{}, err
	}
	return truediv(s, Int64Value(2))
}

// MedianLow is statistics.median_low of sorted data.
func MedianLow(sorted []Value) (Value, error) {
	n := len(sorted)
	if n == 0 {
		return Value{}, statErr("no median for empty data")
	}
	if n%2 == 1 {
		return sorted[n/2], nil
	}
	return sorted[n/2-1], nil
}

// MedianHigh is statistics.median_high of sorted data.
func MedianHigh(sorted []Value) (Value, error) {
	n := len(sorted)
	if n == 0 {
		return Value{}, statErr("no median for empty data")
	}
	return sorted[n/2], nil
}

// MedianGrouped is statistics.median_grouped of sorted data, with interval
// already converted by float(). Comparisons with a NaN are refused.
func MedianGrouped(sorted []Value, interval float64) (float64, error) {
	n := len(sorted)
	if n == 0 {
		return 0, statErr("no median for empty data")
	}
	x := sorted[n/2]
	i, ok := bisect(sorted, x, 0, true)
	if !ok {
		return 0, errNaN
	}
	j, ok := bisect(sorted, x, i, false)
	if !ok {
		return 0, errNaN
	}
	fx, err := toFloat(x)
	if err != nil {
		return 0, err
	}
	L := fx - interval/2.0
	cf := i
	f := j - i
	half, _ := truediv(Int64Value(int64(n)), Int64Value(2))
	num := float64(interval * (half.F - float64(cf)))
	return L + num/float64(f), nil
}

var errNaN = &Error{"Unsupported", "comparisons with NaN in statistics are not supported"}

// bisect is bisect_left (left) or bisect_right of x in a[lo:].
func bisect(a []Value, x Value, lo int, left bool) (int, bool) {
	hi := len(a)
	for lo < hi {
		mid := (lo + hi) / 2
		c, ok := Compare(a[mid], x)
		if !ok {
			return 0, false
		}
		if c < 0 || !left && c == 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, true
}

// Mode is statistics.mode over keys (equal keys for equal items): the
// index of the first item of the most common key (the first such key to
// appear, on ties).
func Mode[K comparable](keys []K) (int, error) {
	idx := Multimode(keys)
	if len(idx) == 0 {
		return 0, statErr("no mode for empty data")
	}
	return idx[0], nil
}

// Multimode is statistics.multimode over keys: the indexes of the first
// items of the most common keys, in order of first appearance.
func Multimode[K comparable](keys []K) []int {
	counts := map[K]int{}
	var first []int
	for i, k := range keys {
		if _, ok := counts[k]; !ok {
			first = append(first, i)
		}
		counts[k]++
	}
	maxc := 0
	for _, c := range counts {
		maxc = max(maxc, c)
	}
	out := []int{}
	for _, i := range first {
		if counts[keys[i]] == maxc {
			out = append(out, i)
		}
	}
	return out
}

// MaxQuantiles bounds n in Quantiles (the result has n-1 items).
const MaxQuantiles = 1 << 24

// Quantiles is statistics.quantiles(data, n=n, method=method) of sorted
// data. methodRepr is repr(method) for the error message.
func Quantiles(sorted []Value, n int64, method, methodRepr string) ([]Value, error) {
	if n < 1 {
		return nil, statErr("n must be at least 1")
	}
	ld := int64(len(sorted))
	if ld < 2 {
		return nil, statErr("must have at least two data points")
	}
	if method != "inclusive" && method != "exclusive" {
		return nil, &Error{"ValueError", "Unknown method: " + methodRepr}
	}
	if n > MaxQuantiles {
		return nil, &Error{"LimitError", fmt.Sprintf("quantiles(n=%d) exceeds this interpreter's limit of %d", n, MaxQuantiles)}
	}
	var result []Value
	interp := func(a, b Value, wa, wb int64) error {
		x, err := mul(a, Int64Value(wa))
		if err != nil {
			return err
		}
		y, err := mul(b, Int64Value(wb))
		if err != nil {
			return err
		}
		s, err := add(x, y)
		if err != nil {
			return err
		}
		v, err := truediv(s, Int64Value(n))
		if err != nil {
			return err
		}
		result = append(result, v)
		return nil
	}
	if method == "inclusive" {
		m := ld - 1
		for i := int64(1); i < n; i++ {
			j, delta := i*m/n, i*m%n
			if err := interp(sorted[j], sorted[j+1], n-delta, delta); err != nil {
				return nil, err
			}
		}
		return result, nil
	}
	m := ld + 1
	for i := int64(1); i < n; i++ {
		j := i * m / n
		if j < 1 {
			j = 1
		} else if j > ld-1 {
			j = ld - 1
		}
		delta := i*m - j*n
		if err := interp(sorted[j-1], sorted[j], n-delta, delta); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// sumSquares is _ss: the exact sum of squared deviations, the type, and
// the count. With c given, the deviations are computed in Python
// arithmetic as (x - c) * (x - c) and summed exactly.
func sumSquares(data []Value, c *Value) (ss exactSum, err error) {
	if c != nil {
		sq := make([]Value, len(data))
		for i, x := range data {
			d, err := sub(x, *c)
			if err != nil {
				return exactSum{}, err
			}
			if sq[i], err = mul(d, d); err != nil {
				return exactSum{}, err
			}
		}
		return sumOf(sq), nil
	}
	var sx, sxx accumulator
	for _, x := range data {
		sx.add(x)
		if x.Kind == Float {
			if math.IsInf(x.F, 0) || math.IsNaN(x.F) {
				sxx.addFloat(x.F)
				continue
			}
			sxx.addFloatSquare(x.F)
		} else {
			sxx.addInt(new(big.Int).Mul(x.I, x.I))
		}
	}
	s := sx.result()
	if s.count == 0 {
		return exactSum{total: new(big.Rat), count: 0, anyFloat: s.anyFloat}, nil
	}
	if s.total == nil {
		return s, nil
	}
	q := sxx.result()
	n := new(big.Rat).SetInt64(int64(s.count))
	// ssd = (count*sxx - sx*sx) / count
	ssd := new(big.Rat).Mul(n, q.total)
	ssd.Sub(ssd, new(big.Rat).Mul(s.total, s.total))
	ssd.Quo(ssd, n)
	return exactSum{total: ssd, count: s.count, anyFloat: s.anyFloat}, nil
}

func variance(data []Value, c *Value, pop bool, name string) (exactSum, *big.Rat, error) {
	ss, err := sumSquares(data, c)
	if err != nil {
		return exactSum{}, nil, err
	}
	min := 2
	if pop {
		min = 1
	}
	if ss.count < min {
		return exactSum{}, nil, statErr(fmt.Sprintf("%s requires at least %s data point%s", name, map[int]string{1: "one", 2: "two"}[min], map[int]string{1: "", 2: "s"}[min]))
	}
	div := int64(ss.count)
	if !pop {
		div--
	}
	if ss.total == nil {
		return ss, nil, nil
	}
	return ss, new(big.Rat).Quo(ss.total, new(big.Rat).SetInt64(div)), nil
}

func finishVariance(ss exactSum, r *big.Rat, pop bool) (Value, error) {
	if r == nil {
		div := float64(ss.count)
		if !pop {
			div--
		}
		return FloatValue(ss.special / div), nil
	}
	return convert(r, ss.anyFloat)
}

// Variance is statistics.variance(data, xbar); xbar nil is None.
func Variance(data []Value, xbar *Value) (Value, error) {
	ss, r, err := variance(data, xbar, false, "variance")
	if err != nil {
		return Value{}, err
	}
	return finishVariance(ss, r, false)
}

// PVariance is statistics.pvariance(data, mu); mu nil is None.
func PVariance(data []Value, mu *Value) (Value, error) {
	ss, r, err := variance(data, mu, true, "pvariance")
	if err != nil {
		return Value{}, err
	}
	return finishVariance(ss, r, true)
}

// Stdev is statistics.stdev(data, xbar); xbar nil is None.
func Stdev(data []Value, xbar *Value) (float64, error) {
	_, r, err := variance(data, xbar, false, "stdev")
	if err != nil {
		return 0, err
	}
	return sqrtOfRat(r)
}

// PStdev is statistics.pstdev(data, mu); mu nil is None.
func PStdev(data []Value, mu *Value) (float64, error) {
	_, r, err := variance(data, mu, true, "pstdev")
	if err != nil {
		return 0, err
	}
	return sqrtOfRat(r)
}

func sqrtOfRat(r *big.Rat) (float64, error) {
	if r == nil {
		// CPython takes mss.numerator of a float here.
		return 0, &Error{"AttributeError", "'float' object has no attribute 'numerator'"}
	}
	return floatSqrtOfFrac(r.Num(), r.Denom())
}

// floatSqrtOfFrac is _float_sqrt_of_frac: sqrt(n/m) correctly rounded.
func floatSqrtOfFrac(n, m *big.Int) (float64, error) {
	const sqrtBitWidth = 2*53 + 3
	q := n.BitLen() - m.BitLen() - sqrtBitWidth
	q = floorDiv2(q)
	var num, den *big.Int
	if q >= 0 {
		num = isqrtRTO(n, new(big.Int).Lsh(m, uint(2*q)))
		num.Lsh(num, uint(q))
		den = big.NewInt(1)
	} else {
		num = isqrtRTO(new(big.Int).Lsh(n, uint(-2*q)), m)
		den = new(big.Int).Lsh(big.NewInt(1), uint(-q))
	}
	return ratToFloat(new(big.Rat).SetFrac(num, den))
}

func floorDiv2(q int) int {
	if q >= 0 {
		return q / 2
	}
	return -((-q + 1) / 2)
}

// isqrtRTO is _integer_sqrt_of_frac_rto: isqrt(n // m), with its last bit
// set when inexact (round to odd).
func isqrtRTO(n, m *big.Int) *big.Int {
	a := new(big.Int).Sqrt(new(big.Int).Quo(n, m))
	chk := new(big.Int).Mul(a, a)
	chk.Mul(chk, m)
	if chk.Cmp(n) != 0 {
		a.SetBit(a, 0, 1)
	}
	return a
}

// Covariance is statistics.covariance(x, y).
func Covariance(x, y []Value) (float64, error) {
	n := len(x)
	if len(y) != n {
		return 0, statErr("covariance requires that both inputs have same number of data points")
	}
	if n < 2 {
		return 0, statErr("covariance requires at least two data points")
	}
	dx, _, err := deviations(x)
	if err != nil {
		return 0, err
	}
	dy, _, err := deviations(y)
	if err != nil {
		return 0, err
	}
	sxy, err := SumProd(dx, dy)
	if err != nil {
		return 0, err
	}
	v, err := truediv(sxy, Int64Value(int64(n-1)))
	return v.F, err
}

// deviations returns xi - fsum(x)/n for each xi, and the mean.
func deviations(x []Value) ([]Value, float64, error) {
	s, err := FSum(x)
	if err != nil {
		return nil, 0, err
	}
	bar := s / float64(len(x))
	out := make([]Value, len(x))
	for i, xi := range x {
		d, err := sub(xi, FloatValue(bar))
		if err != nil {
			return nil, 0, err
		}
		out[i] = d
	}
	return out, bar, nil
}

// rank is _rank(data, start=start) with ties averaged.
func rank(data []Value, start float64) ([]Value, error) {
	idx := make([]int, len(data))
	for i := range idx {
		idx[i] = i
	}
	bad := false
	sort.SliceStable(idx, func(a, b int) bool {
		c, ok := Compare(data[idx[a]], data[idx[b]])
		if !ok {
			bad = true
		}
		return c < 0
	})
	if bad {
		return nil, errNaN
	}
	result := make([]Value, len(data))
	i := start - 1
	for g := 0; g < len(idx); {
		h := g + 1
		for h < len(idx) {
			if c, _ := Compare(data[idx[g]], data[idx[h]]); c != 0 {
				break
			}
			h++
		}
		size := h - g
		r := i + float64(size+1)/2
		for _, k := range idx[g:h] {
			result[k] = FloatValue(r)
		}
		i += float64(size)
		g = h
	}
	return result, nil
}

// Correlation is statistics.correlation(x, y, method=method) with method
// "linear" or "ranked"; methodRepr is repr(method) for the error.
func Correlation(x, y []Value, method, methodRepr string) (float64, error) {
	n := len(x)
	if len(y) != n {
		return 0, statErr("correlation requires that both inputs have same number of data points")
	}
	if n < 2 {
		return 0, statErr("correlation requires at least two data points")
	}
	var err error
	switch method {
	case "ranked":
		start := float64(n-1) / -2
		if x, err = rank(x, start); err != nil {
			return 0, err
		}
		if y, err = rank(y, start); err != nil {
			return 0, err
		}
	case "linear":
		if x, _, err = deviations(x); err != nil {
			return 0, err
		}
		if y, _, err = deviations(y); err != nil {
			return 0, err
		}
	default:
		return 0, &Error{"ValueError", "Unknown method: " + methodRepr}
	}
	sxy, err := SumProd(x, y)
	if err != nil {
		return 0, err
	}
	sxx, err := SumProd(x, x)
	if err != nil {
		return 0, err
	}
	syy, err := SumProd(y, y)
	if err != nil {
		return 0, err
	}
	p, err := mul(sxx, syy)
	if err != nil {
		return 0, err
	}
	pf, err := toFloat(p)
	if err != nil {
		return 0, err
	}
	if pf < 0 {
		return 0, &Error{"ValueError", "math domain error"}
	}
	v, err := truediv(sxy, FloatValue(math.Sqrt(pf)))
	if err != nil {
		if e, ok := err.(*Error); ok && e.Type == "ZeroDivisionError" {
			return 0, statErr("at least one of the inputs is constant")
		}
		return 0, err
	}
	return v.F, nil
}

// LinearRegression is statistics.linear_regression(x, y,
// proportional=proportional): the slope and the intercept.
func LinearRegression(x, y []Value, proportional bool) (slope, intercept float64, err error) {
	n := len(x)
	if len(y) != n {
		return 0, 0, statErr("linear regression requires that both inputs have same number of data points")
	}
	if n < 2 {
		return 0, 0, statErr("linear regression requires at least two data points")
	}
	var xbar, ybar float64
	if !proportional {
		if x, xbar, err = deviations(x); err != nil {
			return 0, 0, err
		}
		if y, ybar, err = deviations(y); err != nil {
			return 0, 0, err
		}
	}
	sxy, err := SumProd(x, y)
	if err != nil {
		return 0, 0, err
	}
	if sxy, err = add(sxy, FloatValue(0)); err != nil {
		return 0, 0, err
	}
	sxx, err := SumProd(x, x)
	if err != nil {
		return 0, 0, err
	}
	s, err := truediv(sxy, sxx)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Type == "ZeroDivisionError" {
			return 0, 0, statErr("x is constant")
		}
		return 0, 0, err
	}
	slope = s.F
	if proportional {
		return slope, 0.0, nil
	}
	return slope, ybar - float64(slope*xbar), nil
}
