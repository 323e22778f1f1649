package csv

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// testdata/cases.json records CPython 3.12's results; regenerate with
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json

type recCase struct {
	Kind    string             `json:"kind"`
	Lines   []string           `json:"lines"`
	Dialect map[string]any     `json:"dialect"`
	Limit   *int               `json:"limit"`
	Rows    json.RawMessage    `json:"rows"`
	Err     *string            `json:"err"`
	WRows   [][]map[string]any `json:"wrows"`
	Out     []string           `json:"out"`
	KW      map[string]any     `json:"kw"`
}

func dialectFor(t *testing.T, p map[string]any) (Dialect, error) {
	d := Excel
	if name, ok := p["dialect"]; ok {
		d = Dialects()[name.(string)]
	}
	for k, v := range p {
		var err error
		switch k {
		case "dialect":
		case "delimiter":
			d.Delimiter, err = Char("delimiter", v.(string))
		case "quotechar":
			if v == nil {
				d.QuoteChar = NoChar
			} else {
				d.QuoteChar, err = Char("quotechar", v.(string))
			}
		case "escapechar":
			if v == nil {
				d.EscapeChar = NoChar
			} else {
				d.EscapeChar, err = Char("escapechar", v.(string))
			}
		case "doublequote":
			d.DoubleQuote = v.(bool)
		case "skipinitialspace":
			d.SkipInitialSpace = v.(bool)
		case "lineterminator":
			d.LineTerminator = v.(string)
		case "quoting":
			d.Quoting = Quoting(v.(float64))
		case "strict":
			d.Strict = v.(bool)
		default:
			t.Fatalf("unknown parameter %s", k)
		}
		if err != nil {
			return d, err
		}
	}
	if _, ok := p["quoting"]; !ok && p["dialect"] == nil && d.QuoteChar == NoChar {
		d.Quoting = QuoteNone
	}
	return d, d.Validate()
}

func errText(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return string(e.Type) + ": " + e.Msg
	}
	return "?: " + err.Error()
}

func encVal(v any) any {
	switch x := v.(type) {
	case float64:
		return map[string]any{"f": pyFloatRepr(x)}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = encVal(e)
		}
		return out
	}
	return v
}

// pyFloatRepr is enough of repr(float) for these tests.
func pyFloatRepr(f float64) string {
	switch {
	case f != f:
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func source(lines []string) LineSource {
	i := 0
	return func() (string, bool, error) {
		if i >= len(lines) {
			return "", false, nil
		}
		i++
		return lines[i-1], true, nil
	}
}

func jsonEq(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestRecorded(t *testing.T) {
	f, err := os.Open("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	counts := map[string]int{}
	for sc.Scan() {
		var c recCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		counts[c.Kind]++
		d, derr := dialectFor(t, c.Dialect)
		switch c.Kind {
		case "dialect":
			got := "null"
			if derr != nil {
				got = errText(derr)
			}
			want := "null"
			if c.Err != nil {
				want = *c.Err
			}
			if got != want {
				t.Errorf("dialect %v: got %s, want %s", c.Dialect, got, want)
			}
		case "read":
			if derr != nil {
				t.Fatalf("dialect %v: %v", c.Dialect, derr)
			}
			rd := NewReader(d)
			if c.Limit != nil {
				rd.FieldLimit = *c.Limit
			}
			src := source(c.Lines)
			var rows []any
			var gotErr any
			for {
				row, err := rd.Next(src)
				if err == io.EOF {
					break
				}
				if err != nil {
					gotErr = errText(err)
					break
				}
				rows = append(rows, []any{encVal(row), rd.LineNum()})
			}
			var want []any
			json.Unmarshal(c.Rows, &want)
			var wantErr any
			if c.Err != nil {
				wantErr = *c.Err
			}
			if !jsonEq(rows, want) && !(len(rows) == 0 && len(want) == 0) || gotErr != wantErr {
				t.Errorf("read %q %v:\n got %s %v\nwant %s %v", c.Lines, c.Dialect, mustJSON(rows), gotErr, c.Rows, wantErr)
			}
		case "write":
			if derr != nil {
				t.Fatalf("dialect %v: %v", c.Dialect, derr)
			}
			w := NewWriter(d)
			for i, row := range c.WRows {
				var fields []Field
				for _, v := range row {
					switch {
					case v["none"] != nil:
						fields = append(fields, Field{Kind: KindNone})
					case v["s"] != nil:
						fields = append(fields, Field{Text: v["s"].(string), Kind: KindString})
					default:
						fields = append(fields, Field{Text: v["n"].(string), Kind: KindNumber})
					}
				}
				got, err := w.Row(fields)
				if err != nil {
					got = errText(err)
				}
				if got != c.Out[i] {
					t.Errorf("write %v %v: got %q, want %q", c.Dialect, row, got, c.Out[i])
				}
			}
		case "dictread":
			dr := &DictReader{R: NewReader(Excel), RestVal: nil}
			if v, ok := c.KW["restkey"]; ok {
				dr.RestKey = v
			}
			if v, ok := c.KW["restval"]; ok {
				dr.RestVal = v
			}
			if v, ok := c.KW["fieldnames"]; ok {
				dr.Fieldnames, dr.HaveFieldnames = v.([]any), true
			}
			src := source(c.Lines)
			var rows []any
			var gotErr any
			for {
				pairs, err := dr.Next(src)
				if err == io.EOF {
					break
				}
				if err != nil {
					gotErr = errText(err)
					break
				}
				rows = append(rows, []any{dictPairs(pairs), dr.LineNum})
			}
			var want []any
			json.Unmarshal(c.Rows, &want)
			var wantErr any
			if c.Err != nil {
				wantErr = *c.Err
			}
			if !jsonEq(rows, want) && !(len(rows) == 0 && len(want) == 0) || gotErr != wantErr {
				t.Errorf("dictread %q %v:\n got %s %v\nwant %s %v", c.Lines, c.KW, mustJSON(rows), gotErr, c.Rows, wantErr)
			}
		}
	}
	t.Logf("recorded cases: %v", counts)
}

// dictPairs applies Python's dict semantics to the pairs (a repeated key
// keeps its first place and takes the last value).
func dictPairs(pairs []Pair) []any {
	var out [][]any
	idx := map[any]int{}
	for _, p := range pairs {
		if i, ok := idx[p.Key]; ok {
			out[i][1] = encVal(p.Value)
			continue
		}
		idx[p.Key] = len(out)
		out = append(out, []any{p.Key, encVal(p.Value)})
	}
	res := make([]any, len(out))
	for i, p := range out {
		res[i] = p
	}
	return res
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestParseFloat(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"1.5", "1.5"}, {" 7 ", "7.0"}, {"1_000", "1000.0"}, {"1__0", "err"}, {"_1", "err"}, {"1_", "err"},
		{"1e5", "100000.0"}, {".5", "0.5"}, {"5.", "5.0"}, {".", "err"}, {"e5", "err"}, {"-inf", "-inf"},
		{"Infinity", "inf"}, {"nan", "nan"}, {"+-1", "err"}, {"1e", "err"}, {"1e+", "err"}, {"١٢", "12.0"},
		{"1e999", "inf"}, {"0x10", "err"}, {"", "err"}, {"1.5e-3", "0.0015"}, {"1_0.2_5", "10.25"}, {"1._5", "err"},
	} {
		v, err := ParseFloat(c.in)
		got := pyFloatRepr(v)
		if err != nil {
			got = "err"
		}
		if got != c.want {
			t.Errorf("ParseFloat(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// FuzzReader checks that no input panics or hangs the reader.
func FuzzReader(f *testing.F) {
	f.Add("a,b\n\"c\nd\",e\n", ",", "\"", "\\", byte(0))
	f.Add("1,2.5,x\r\n", ";", "'", "", byte(2))
	f.Fuzz(func(t *testing.T, text, delim, quote, esc string, q byte) {
		d := Excel
		if r, err := Char("delimiter", delim); err == nil {
			d.Delimiter = r
		}
		if r, err := Char("quotechar", quote); err == nil {
			d.QuoteChar = r
		}
		if r, err := Char("escapechar", esc); err == nil {
			d.EscapeChar = r
		}
		d.Quoting = Quoting(q % 6)
		d.Strict = q&8 != 0
		d.SkipInitialSpace = q&16 != 0
		d.DoubleQuote = q&32 == 0
		if d.Validate() != nil {
			return
		}
		rd := NewReader(d)
		rd.FieldLimit = 1000
		src := source(strings.SplitAfter(text, "\n"))
		for i := 0; i < 10000; i++ {
			if _, err := rd.Next(src); err != nil {
				return
			}
		}
		t.Fatal("reader did not stop")
	})
}

func BenchmarkReader(b *testing.B) {
	lines := strings.SplitAfter(strings.Repeat("abc,\"d,e\",123,4.5,xyz\r\n", 100), "\n")
	for i := 0; i < b.N; i++ {
		rd := NewReader(Excel)
		src := source(lines)
		for {
			if _, err := rd.Next(src); err != nil {
				break
			}
		}
	}
}

func BenchmarkWriter(b *testing.B) {
	w := NewWriter(Excel)
	row := []Field{{"abc", KindString}, {"d,e", KindString}, {"123", KindNumber}, {"q\"x", KindString}}
	for i := 0; i < b.N; i++ {
		w.Row(row)
	}
}
