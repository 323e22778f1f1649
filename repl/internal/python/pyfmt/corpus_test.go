package pyfmt

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// The corpus is recorded from CPython 3.12.1 by testdata/gen.py; regenerate
// it (from this directory) with
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/corpus.jsonl

type corpusCase struct {
	Op   string            `json:"op"`
	In   []json.RawMessage `json:"in"`
	Out  json.RawMessage   `json:"out"`
	Err  string            `json:"err"`
	CR   *string           `json:"cr"`
	line int
}

func loadCorpus(t testing.TB) []corpusCase {
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var cases []corpusCase
	for n := 1; sc.Scan(); n++ {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		c.line = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func (c *corpusCase) str(i int) string {
	var s string
	if err := json.Unmarshal(c.In[i], &s); err != nil {
		panic(fmt.Sprintf("line %d: input %d: %v", c.line, i, err))
	}
	return s
}

func (c *corpusCase) float(i int) float64 { return decodeFloat(c.str(i)) }

func (c *corpusCase) bigInt(i int) *big.Int {
	v, ok := new(big.Int).SetString(c.str(i), 10)
	if !ok {
		panic(fmt.Sprintf("line %d: bad int", c.line))
	}
	return v
}

func (c *corpusCase) int(i int) int {
	var n int
	if err := json.Unmarshal(c.In[i], &n); err != nil {
		panic(fmt.Sprintf("line %d: input %d: %v", c.line, i, err))
	}
	return n
}

// latin1 is the bytes a latin-1 decoded text came from (how the corpus
// records bytes).
func latin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

func decodeFloat(s string) float64 {
	u, err := strconv.ParseUint(strings.TrimPrefix(s, "f:"), 16, 64)
	if err != nil {
		panic(err)
	}
	return math.Float64frombits(u)
}

func encodeFloat(f float64) string {
	if math.IsNaN(f) {
		f = math.NaN() // one NaN: CPython's and Go's payloads differ
	}
	return fmt.Sprintf("f:%016x", math.Float64bits(f))
}

// canonical turns a recorded output into the text form the tests compare.
func canonical(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, "f:") {
			return encodeFloat(decodeFloat(v))
		}
		return v
	case map[string]any:
		if b, ok := v["bool"]; ok {
			return fmt.Sprint(b)
		}
		return fmt.Sprintf("len=%v sha256=%v", v["len"], v["sha256"])
	case []any:
		var parts []string
		for _, x := range v {
			b, _ := json.Marshal(x)
			parts = append(parts, canonical(b))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case nil:
		return "None"
	}
	return string(raw)
}

// digest is how the corpus keeps long results.
func digest(s string) string {
	if n := len([]rune(s)); n > 600 {
		h := sha256.Sum256([]byte(s))
		return fmt.Sprintf("len=%d sha256=%s", n, hex.EncodeToString(h[:]))
	}
	return s
}

func errText(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Type + ": " + e.Msg
	}
	return "Go error: " + err.Error()
}

const testLimit = 1 << 26

// run computes one case: its canonical output, or its error.
func (c *corpusCase) run() (string, error) {
	f := encodeFloat
	intText := func(small int64, b *big.Int, err error) (string, error) {
		if err != nil {
			return "", err
		}
		if b != nil {
			return b.String(), nil
		}
		return strconv.FormatInt(small, 10), nil
	}
	switch c.Op {
	case "repr":
		return FloatRepr(c.float(0)), nil
	case "hex":
		return FloatHex(c.float(0)), nil
	case "ratio":
		n, d, err := AsIntegerRatio(c.float(0))
		if err != nil {
			return "", err
		}
		return "(" + n.String() + ", " + d.String() + ")", nil
	case "is_integer":
		return fmt.Sprint(IsInteger(c.float(0))), nil
	case "hash_float":
		h, ok := HashFloat(c.float(0))
		if !ok {
			return "None", nil
		}
		return strconv.FormatInt(h, 10), nil
	case "float_to_int":
		return intText(FloatToInt(c.float(0)))
	case "complex_repr":
		return ComplexRepr(c.float(0), c.float(1)), nil
	case "hash_complex":
		h, _ := HashComplex(c.float(0), c.float(1))
		return strconv.FormatInt(h, 10), nil
	case "int_str":
		return IntString(c.bigInt(0), DefaultMaxStrDigits)
	case "int_base":
		return IntBase(c.bigInt(0), c.int(1)), nil
	case "hash_int":
		return strconv.FormatInt(HashBigInt(c.bigInt(0)), 10), nil
	case "int_to_float":
		v, err := IntToFloat(c.bigInt(0))
		return f(v), err
	case "int_parse":
		return intText(ParseInt(c.str(0), c.int(1), DefaultMaxStrDigits))
	case "int_parse_bytes":
		return intText(ParseIntBytes(latin1(c.str(0)), c.int(1), DefaultMaxStrDigits))
	case "float_parse":
		v, err := ParseFloat(c.str(0))
		return f(v), err
	case "float_parse_bytes":
		v, err := ParseFloatBytes(latin1(c.str(0)))
		return f(v), err
	case "fromhex":
		v, err := FloatFromHex(c.str(0))
		return f(v), err
	case "format_int":
		return FormatBigInt(c.bigInt(0), c.str(1), c.str(2), DefaultMaxStrDigits, testLimit)
	case "format_float":
		return FormatFloat(c.float(0), c.str(1), c.str(2), testLimit)
	case "format_complex":
		return FormatComplex(c.float(0), c.float(1), c.str(2), c.str(3), testLimit)
	case "format_str":
		return FormatStr(c.str(0), c.str(1), c.str(2), testLimit)
	case "percent":
		var op struct {
			Kind  string          `json:"kind"`
			Items json.RawMessage `json:"items"`
			Self  json.RawMessage `json:"self"`
		}
		if err := json.Unmarshal(c.In[1], &op); err != nil {
			panic(err)
		}
		return Percent(c.str(0), makeOperand(op.Kind, op.Items, op.Self), DefaultMaxStrDigits, testLimit)
	case "round_float":
		return intText(RoundFloat(c.float(0)))
	case "round_float_n":
		n := c.bigInt(1)
		nn := n.Int64()
		if !n.IsInt64() {
			nn = math.MaxInt64 * int64(n.Sign())
		}
		v, err := RoundFloatDigits(c.float(0), nn)
		return f(v), err
	case "round_int":
		return RoundInt(c.bigInt(0), c.bigInt(1)).String(), nil
	case "fmod":
		v, err := FloatMod(c.float(0), c.float(1))
		return f(v), err
	case "floordiv":
		v, err := FloatFloorDiv(c.float(0), c.float(1))
		return f(v), err
	case "divmod":
		q, m, err := FloatDivmod(c.float(0), c.float(1))
		return "(" + f(q) + ", " + f(m) + ")", err
	case "truediv":
		v, err := FloatTrueDiv(c.float(0), c.float(1))
		return f(v), err
	case "pow", "pow_cr":
		v, cplx, err := FloatPow(c.float(0), c.float(1))
		if cplx {
			return "complex", err
		}
		return f(v), err
	case "exp":
		v, err := Exp(c.float(0))
		return f(v), err
	case "log":
		v, err := Log(c.float(0))
		return f(v), err
	case "log2":
		v, err := Log2(c.float(0))
		return f(v), err
	case "log10":
		v, err := Log10(c.float(0))
		return f(v), err
	case "sqrt":
		v, err := Sqrt(c.float(0))
		return f(v), err
	case "log_int", "log2_int", "log10_int":
		base := map[string]byte{"log_int": 'e', "log2_int": 2, "log10_int": 10}[c.Op]
		v, err := LogInt(c.bigInt(0), base)
		return f(v), err
	case "log_base":
		lx, err := Log(c.float(0))
		if err != nil {
			return "", err
		}
		lb, err := Log(c.float(1))
		if err != nil {
			return "", err
		}
		v, err := LogBase(lx, lb)
		return f(v), err
	case "log_base_int":
		lx, err := LogInt(c.bigInt(0), 'e')
		if err != nil {
			return "", err
		}
		lb, err := LogInt(c.bigInt(1), 'e')
		if err != nil {
			return "", err
		}
		v, err := LogBase(lx, lb)
		return f(v), err
	case "perm_n":
		v, err := Perm(context.Background(), c.bigInt(0), nil, 1<<20)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "hypot":
		xs := make([]float64, len(c.In))
		for i := range xs {
			xs[i] = c.float(i)
		}
		return f(Hypot(xs...)), nil
	case "fsum":
		xs := make([]float64, len(c.In))
		for i := range xs {
			xs[i] = c.float(i)
		}
		v, err := Fsum(xs)
		return f(v), err
	case "factorial":
		v, err := Factorial(context.Background(), c.bigInt(0), 1<<20)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "comb", "perm":
		fn := Comb
		if c.Op == "perm" {
			fn = Perm
		}
		v, err := fn(context.Background(), c.bigInt(0), c.bigInt(1), 1<<20)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "isqrt":
		v, err := Isqrt(c.bigInt(0))
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "gcd", "lcm":
		xs := make([]*big.Int, len(c.In))
		for i := range xs {
			xs[i] = c.bigInt(i)
		}
		if c.Op == "gcd" {
			g, err := GCD(context.Background(), xs...)
			if err != nil {
				return "", err
			}
			return g.String(), nil
		}
		v, err := LCM(context.Background(), 1<<20, xs...)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "int_pow":
		v, err := IntPow(context.Background(), c.bigInt(0), c.bigInt(1), 1<<20)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "int_pow_mod":
		v, err := IntPowMod(context.Background(), c.bigInt(0), c.bigInt(1), c.bigInt(2))
		if err != nil {
			return "", err
		}
		return v.String(), nil
	case "int_floordiv", "int_mod", "int_divmod":
		q, r, err := IntDivmod(c.bigInt(0), c.bigInt(1))
		switch c.Op {
		case "int_floordiv":
			q, err = IntFloorDiv(c.bigInt(0), c.bigInt(1))
			if err != nil {
				return "", err
			}
			return q.String(), nil
		case "int_mod":
			r, err = IntMod(c.bigInt(0), c.bigInt(1))
			if err != nil {
				return "", err
			}
			return r.String(), nil
		}
		if err != nil {
			return "", err
		}
		return "(" + q.String() + ", " + r.String() + ")", nil
	case "int_truediv":
		v, err := IntTrueDiv(c.bigInt(0), c.bigInt(1))
		return f(v), err
	case "int_pow_neg":
		v, err := IntPowNegative(c.bigInt(0), c.bigInt(1))
		return f(v), err
	}
	return "", fmt.Errorf("unknown op %q", c.Op)
}

// libmOps are the functions computed to be correctly rounded where CPython
// calls glibc, which is not always: their cases carry the correctly rounded
// result ("cr") too.
var libmOps = map[string]bool{"pow_cr": true, "exp": true, "log": true, "log2": true, "log10": true}

func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	if len(cases) < 3000 {
		t.Fatalf("only %d cases", len(cases))
	}
	pass := map[string]int{}
	total := map[string]int{}
	libmDiff := map[string]int{}
	failures := 0
	failed := map[string]int{}
	for i := range cases {
		c := &cases[i]
		total[c.Op]++
		got, err := c.run()
		var gotText, want string
		if err != nil {
			gotText = "error " + errText(err)
		} else {
			gotText = digest(got)
		}
		if c.Err != "" {
			want = "error " + c.Err
		} else {
			want = canonical(c.Out)
		}
		if gotText == want {
			pass[c.Op]++
			continue
		}
		if libmOps[c.Op] && c.Err == "" && c.CR != nil && gotText == encodeFloat(decodeFloat(*c.CR)) && want != gotText {
			// CPython's libm is not correctly rounded here; we are.
			libmDiff[c.Op]++
			continue
		}
		failures++
		if failed[c.Op]++; failed[c.Op] <= 6 {
			t.Errorf("line %d: %s %s:\n got  %q\n want %q", c.line, c.Op, inputsText(c), gotText, want)
		}
	}
	var ops []string
	for op := range total {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	all := 0
	for _, op := range ops {
		all += pass[op]
		t.Logf("%-18s %5d/%5d equal to CPython; %d where only glibc misrounds", op, pass[op], total[op], libmDiff[op])
	}
	t.Logf("total %d/%d equal to CPython, %d failures", all, len(cases), failures)
	// glibc's exp and pow misround about one case in a thousand, log10
	// (an older algorithm) a few in a thousand: allow what was measured.
	for op, n := range libmDiff {
		if n*100 > total[op] {
			t.Errorf("%s: %d of %d cases differ from CPython", op, n, total[op])
		}
	}
}

func inputsText(c *corpusCase) string {
	var parts []string
	for _, in := range c.In {
		s := string(in)
		if len(s) > 80 {
			s = s[:80] + "..."
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// testArg is an Arg over the values the corpus records.
type testArg struct {
	kind       string // i f s b n c o
	i          *big.Int
	f, im      float64
	s          string
	b          bool
	typ        string
	str, repr_ string
	ascii      string
}

func decodeArg(raw json.RawMessage) *testArg {
	var v []json.RawMessage
	if err := json.Unmarshal(raw, &v); err != nil {
		panic(err)
	}
	var kind string
	json.Unmarshal(v[0], &kind)
	a := &testArg{kind: kind}
	str := func(i int) string {
		var s string
		json.Unmarshal(v[i], &s)
		return s
	}
	switch kind {
	case "i":
		a.i, _ = new(big.Int).SetString(str(1), 10)
	case "f":
		a.f = decodeFloat(str(1))
	case "s":
		a.s = str(1)
	case "b":
		json.Unmarshal(v[1], &a.b)
	case "c":
		a.f, a.im = decodeFloat(str(1)), decodeFloat(str(2))
	case "o":
		a.typ, a.str, a.repr_, a.ascii = str(1), str(2), str(3), str(4)
	}
	return a
}

func (a *testArg) TypeName() string {
	return map[string]string{"i": "int", "f": "float", "s": "str", "b": "bool", "n": "NoneType", "c": "complex", "o": a.typ}[a.kind]
}

func (a *testArg) Str() (string, error) {
	if a.kind == "s" {
		return a.s, nil
	}
	return a.Repr()
}

func (a *testArg) Repr() (string, error) {
	switch a.kind {
	case "i":
		return IntString(a.i, DefaultMaxStrDigits)
	case "f":
		return FloatRepr(a.f), nil
	case "s":
		return quote(a.s, 0), nil
	case "b":
		if a.b {
			return "True", nil
		}
		return "False", nil
	case "n":
		return "None", nil
	case "c":
		return ComplexRepr(a.f, a.im), nil
	}
	return a.repr_, nil
}

func (a *testArg) ASCII() (string, error) {
	if a.kind == "o" {
		return a.ascii, nil
	}
	r, err := a.Repr()
	var b strings.Builder
	for _, c := range r {
		if c < 0x80 {
			b.WriteRune(c)
		} else {
			writeEscape(&b, c)
		}
	}
	return b.String(), err
}

func (a *testArg) IsInt() bool { return a.kind == "i" || a.kind == "b" }

func (a *testArg) Int(index bool) (int64, *big.Int, bool, error) {
	switch a.kind {
	case "i":
		if a.i.IsInt64() {
			return a.i.Int64(), nil, true, nil
		}
		return 0, a.i, true, nil
	case "b":
		if a.b {
			return 1, nil, true, nil
		}
		return 0, nil, true, nil
	case "f":
		if index {
			return 0, nil, false, nil
		}
		v, b, err := FloatToInt(a.f)
		return v, b, err == nil, err
	}
	return 0, nil, false, nil
}

func (a *testArg) Float() (float64, bool, error) {
	switch a.kind {
	case "f":
		return a.f, true, nil
	case "i":
		f, err := IntToFloat(a.i)
		return f, err == nil, err
	case "b":
		if a.b {
			return 1, true, nil
		}
		return 0, true, nil
	}
	return 0, false, nil
}

func (a *testArg) Text() (string, bool) { return a.s, a.kind == "s" }

func makeOperand(kind string, items, self json.RawMessage) Operand {
	switch kind {
	case "dict":
		var m map[string]json.RawMessage
		if err := json.Unmarshal(items, &m); err != nil {
			panic(err)
		}
		return Operand{
			Args: []Arg{decodeArg(self)},
			Lookup: func(key string) (Arg, error) {
				raw, ok := m[key]
				if !ok {
					return nil, &Error{Type: "KeyError", Msg: quote(key, 0)}
				}
				return decodeArg(raw), nil
			},
		}
	case "list":
		var l []json.RawMessage
		json.Unmarshal(items, &l)
		return Operand{
			Args: []Arg{decodeArg(l[0])},
			Lookup: func(string) (Arg, error) {
				return nil, &Error{Type: "TypeError", Msg: "list indices must be integers or slices, not str"}
			},
		}
	}
	var l []json.RawMessage
	json.Unmarshal(items, &l)
	op := Operand{}
	for _, x := range l {
		op.Args = append(op.Args, decodeArg(x))
	}
	return op
}
