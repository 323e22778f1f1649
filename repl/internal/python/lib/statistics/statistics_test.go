package statistics

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// testdata/cases.json records CPython 3.12's results; regenerate with
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json

type recCase struct {
	Fn   string            `json:"fn"`
	Args []json.RawMessage `json:"args"`
	KW   map[string]any    `json:"kw"`
	Out  json.RawMessage   `json:"out"`
}

type encVal map[string]any

func decodeVal(e encVal) Value {
	switch {
	case e["i"] != nil:
		n, ok := new(big.Int).SetString(e["i"].(string), 10)
		if !ok {
			panic(e)
		}
		return IntValue(n)
	case e["b"] != nil:
		return BoolValue(e["b"].(bool))
	}
	f, err := strconv.ParseFloat(e["f"].(string), 64)
	if err != nil {
		panic(err)
	}
	return FloatValue(f)
}

func decodeList(raw json.RawMessage) []Value {
	var es []encVal
	if err := json.Unmarshal(raw, &es); err != nil {
		panic(err)
	}
	out := make([]Value, len(es))
	for i, e := range es {
		out[i] = decodeVal(e)
	}
	return out
}

// pyRepr formats f as Python's repr(float) does.
func pyRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp := s, 0
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(intPart) + exp // decimal point position relative to digits of intPart+frac
	lead := len(intPart+frac) - len(strings.TrimLeft(intPart+frac, "0"))
	point -= lead
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		if neg {
			return "-0.0"
		}
		return "0.0"
	}
	e10 := point - 1
	var out string
	if e10 < -4 || e10 >= 16 {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		if e10 < 0 {
			sign = "-"
			e10 = -e10
		}
		out += fmt.Sprintf("e%s%02d", sign, e10)
	} else if point <= 0 {
		out = "0." + strings.Repeat("0", -point) + digits
	} else if point >= len(digits) {
		out = digits + strings.Repeat("0", point-len(digits)) + ".0"
	} else {
		out = digits[:point] + "." + digits[point:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

func encode(v Value) any {
	switch v.Kind {
	case Float:
		return map[string]any{"f": pyRepr(v.F)}
	case Bool:
		return map[string]any{"b": v.I.Sign() != 0}
	}
	return map[string]any{"i": v.I.String()}
}

func errOut(err error) any {
	var e *Error
	if errors.As(err, &e) {
		return e.Type + ": " + e.Msg
	}
	return "?: " + err.Error()
}

func res(v Value, err error) any {
	if err != nil {
		return errOut(err)
	}
	return encode(v)
}

func fres(f float64, err error) any { return res(FloatValue(f), err) }

func sortValues(data []Value) []Value {
	s := append([]Value(nil), data...)
	sort.SliceStable(s, func(i, j int) bool { c, _ := Compare(s[i], s[j]); return c < 0 })
	return s
}

// modeKey is a key with Python's equality for ints, bools and floats.
func modeKey(v Value) string {
	if v.Kind == Float && (math.IsNaN(v.F) || math.IsInf(v.F, 0)) {
		return fmt.Sprint(v.F)
	}
	return exactRat(v).RatString()
}

func jsonNorm(v any) string {
	b, _ := json.Marshal(v)
	var x any
	json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

func TestRecorded(t *testing.T) {
	f, err := os.Open("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	total, bad := map[string]int{}, map[string]int{}
	for sc.Scan() {
		var c recCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		data := decodeList(c.Args[0])
		var second []Value
		var secondVal *Value
		if len(c.Args) > 1 {
			if c.Args[1][0] == '[' {
				second = decodeList(c.Args[1])
			} else {
				var e encVal
				json.Unmarshal(c.Args[1], &e)
				v := decodeVal(e)
				secondVal = &v
			}
		}
		var got any
		switch c.Fn {
		case "mean":
			got = res(Mean(data))
		case "fmean":
			got = fres(FMean(data, second))
		case "geometric_mean":
			got = fres(GeometricMean(data))
		case "harmonic_mean":
			got = res(HarmonicMean(data, second))
		case "variance":
			got = res(Variance(data, secondVal))
		case "pvariance":
			got = res(PVariance(data, secondVal))
		case "stdev":
			got = fres(Stdev(data, secondVal))
		case "pstdev":
			got = fres(PStdev(data, secondVal))
		case "median":
			got = res(Median(sortValues(data)))
		case "median_low":
			got = res(MedianLow(sortValues(data)))
		case "median_high":
			got = res(MedianHigh(sortValues(data)))
		case "median_grouped":
			iv := 1.0
			if secondVal != nil {
				iv = secondVal.F
			}
			got = fres(MedianGrouped(sortValues(data), iv))
		case "quantiles":
			q, err := Quantiles(sortValues(data), int64(c.KW["n"].(float64)), c.KW["method"].(string), "'"+c.KW["method"].(string)+"'")
			if err != nil {
				got = errOut(err)
			} else {
				l := []any{}
				for _, v := range q {
					l = append(l, encode(v))
				}
				got = l
			}
		case "mode", "multimode":
			keys := make([]string, len(data))
			for i, v := range data {
				keys[i] = modeKey(v)
			}
			if c.Fn == "mode" {
				i, err := Mode(keys)
				if err != nil {
					got = errOut(err)
				} else {
					got = encode(data[i])
				}
			} else {
				l := []any{}
				for _, i := range Multimode(keys) {
					l = append(l, encode(data[i]))
				}
				got = l
			}
		case "covariance":
			got = fres(Covariance(data, second))
		case "correlation":
			m := "linear"
			if c.KW["method"] != nil {
				m = c.KW["method"].(string)
			}
			got = fres(Correlation(data, second, m, "'"+m+"'"))
		case "linear_regression":
			s, i, err := LinearRegression(data, second, c.KW["proportional"] == true)
			if err != nil {
				got = errOut(err)
			} else {
				got = []any{encode(FloatValue(s)), encode(FloatValue(i))}
			}
		case "sumprod":
			got = res(SumProd(data, second))
		case "fsum":
			got = fres(FSum(data))
		default:
			t.Fatalf("unknown function %s", c.Fn)
		}
		total[c.Fn]++
		var want any
		json.Unmarshal(c.Out, &want)
		if jsonNorm(got) != jsonNorm(want) {
			bad[c.Fn]++
			if bad[c.Fn] <= 5 {
				t.Errorf("%s(%s, %v):\n got %s\nwant %s", c.Fn, c.Args, c.KW, jsonNorm(got), jsonNorm(want))
			}
		}
	}
	for fn, n := range total {
		if bad[fn] > 0 {
			t.Errorf("%s: %d of %d differ", fn, bad[fn], n)
		}
	}
	t.Logf("recorded cases: %v", total)
}

func TestLimits(t *testing.T) {
	_, err := Quantiles([]Value{Int64Value(1), Int64Value(2)}, 1<<40, "exclusive", "'exclusive'")
	var e *Error
	if !errors.As(err, &e) || e.Type != "LimitError" {
		t.Fatalf("Quantiles(n=2**40) = %v, want a LimitError", err)
	}
}

func BenchmarkMeanFloats(b *testing.B) {
	data := make([]Value, 1000)
	for i := range data {
		data[i] = FloatValue(float64(i) * 0.37)
	}
	for i := 0; i < b.N; i++ {
		Mean(data)
	}
}

func BenchmarkStdevFloats(b *testing.B) {
	data := make([]Value, 1000)
	for i := range data {
		data[i] = FloatValue(float64(i) * 0.37)
	}
	for i := 0; i < b.N; i++ {
		Stdev(data, nil)
	}
}
