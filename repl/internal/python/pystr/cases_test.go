package pystr

import (
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The recorded cases come from CPython 3.12; regenerate them with
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_cases.py

type recorded struct {
	Want      any    `json:"v"`
	Err       []any  `json:"e"`
	Unicode   []any  `json:"u"`
	Surrogate bool   `json:"surrogate"`
	raw       string // for messages
}

type testCase struct {
	fn   string
	args []any
	want recorded
}

func loadCases(t testing.TB) []testCase {
	f, err := os.Open("testdata/cases.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw [][3]json.RawMessage
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	cases := make([]testCase, len(raw))
	for i, r := range raw {
		var c testCase
		if err := json.Unmarshal(r[0], &c.fn); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(r[1], &c.args); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(r[2], &c.want); err != nil {
			t.Fatal(err)
		}
		c.want.raw = string(r[2])
		cases[i] = c
	}
	return cases
}

func str(v any) string { return v.(string) }

func integer(v any) int { return int(v.(float64)) }

func opt(v any) Opt {
	if v == nil {
		return None
	}
	return Int(integer(v))
}

func unhex(v any) string {
	b, err := hex.DecodeString(v.(string))
	if err != nil {
		panic(err)
	}
	return string(b)
}

func firstRuneOf(s string) rune {
	r, _ := firstRune(s)
	return r
}

const noLimit = math.MaxInt

// errSkip marks a case the harness cannot run.
var errSkip = errors.New("skip")

// call runs one recorded case with pystr.
func call(c testCase) (any, error) {
	a := c.args
	switch c.fn {
	case "len":
		return Len(str(a[0])), nil
	case "isascii":
		return IsASCII(str(a[0])), nil
	case "isalpha":
		return IsAlpha(str(a[0])), nil
	case "isalnum":
		return IsAlnum(str(a[0])), nil
	case "isdecimal":
		return IsDecimal(str(a[0])), nil
	case "isdigit":
		return IsDigit(str(a[0])), nil
	case "isnumeric":
		return IsNumeric(str(a[0])), nil
	case "isspace":
		return IsSpace(str(a[0])), nil
	case "isupper":
		return IsUpper(str(a[0])), nil
	case "islower":
		return IsLower(str(a[0])), nil
	case "istitle":
		return IsTitle(str(a[0])), nil
	case "isidentifier":
		return IsIdentifier(str(a[0])), nil
	case "isprintable":
		return IsPrintable(str(a[0])), nil
	case "upper":
		return Upper(str(a[0])), nil
	case "lower":
		return Lower(str(a[0])), nil
	case "casefold":
		return Casefold(str(a[0])), nil
	case "swapcase":
		return SwapCase(str(a[0])), nil
	case "title":
		return Title(str(a[0])), nil
	case "capitalize":
		return Capitalize(str(a[0])), nil
	case "repr":
		return Repr(str(a[0])), nil
	case "ascii":
		return ASCII(str(a[0])), nil
	case "getitem":
		return GetItem(str(a[0]), integer(a[1]))
	case "contains":
		return Contains(str(a[0]), str(a[1])), nil
	case "find", "rfind", "index", "rindex", "count", "startswith", "endswith":
		return callSearch(c.fn, str(a[0]), str(a[1]), opt(a[2]), opt(a[3]))
	case "replace":
		return Replace(str(a[0]), str(a[1]), str(a[2]), integer(a[3]), noLimit)
	case "partition", "rpartition":
		f := Partition
		if c.fn == "rpartition" {
			f = RPartition
		}
		x, y, z, err := f(str(a[0]), str(a[1]))
		return []string{x, y, z}, err
	case "split", "rsplit":
		s, maxsplit := str(a[0]), integer(a[2])
		if a[1] == nil {
			if c.fn == "split" {
				return SplitWhitespace(s, maxsplit), nil
			}
			return RSplitWhitespace(s, maxsplit), nil
		}
		if c.fn == "split" {
			return Split(s, str(a[1]), maxsplit)
		}
		return RSplit(s, str(a[1]), maxsplit)
	case "splitlines":
		return SplitLines(str(a[0]), a[1].(bool)), nil
	case "strip", "lstrip", "rstrip":
		s := str(a[0])
		if a[1] == nil {
			return map[string]func(string) string{"strip": Strip, "lstrip": LStrip, "rstrip": RStrip}[c.fn](s), nil
		}
		return map[string]func(string, string) string{"strip": StripChars, "lstrip": LStripChars, "rstrip": RStripChars}[c.fn](s, str(a[1])), nil
	case "removeprefix":
		return RemovePrefix(str(a[0]), str(a[1])), nil
	case "removesuffix":
		return RemoveSuffix(str(a[0]), str(a[1])), nil
	case "expandtabs":
		return ExpandTabs(str(a[0]), integer(a[1]), noLimit)
	case "center":
		return Center(str(a[0]), integer(a[1]), firstRuneOf(str(a[2])), noLimit)
	case "ljust":
		return LJust(str(a[0]), integer(a[1]), firstRuneOf(str(a[2])), noLimit)
	case "rjust":
		return RJust(str(a[0]), integer(a[1]), firstRuneOf(str(a[2])), noLimit)
	case "zfill":
		return ZFill(str(a[0]), integer(a[1]), noLimit)
	case "encode":
		b, err := Encode(str(a[0]), str(a[1]), str(a[2]), noLimit)
		return hex.EncodeToString([]byte(b)), err
	case "decode":
		return Decode(unhex(a[0]), str(a[1]), str(a[2]), noLimit)
	case "join":
		var parts []string
		for _, p := range a[1].([]any) {
			parts = append(parts, str(p))
		}
		return Join(str(a[0]), parts, noLimit)
	case "slice":
		return Slice(str(a[0]), opt(a[1]), opt(a[2]), opt(a[3]))
	case "indices":
		lo, hi, st, n, err := SliceIndices(opt(a[1]), opt(a[2]), opt(a[3]), integer(a[0]))
		return []int{lo, hi, st, n}, err
	case "lookup_encoding":
		return LookupEncoding(str(a[0]))
	case "category":
		return Category(firstRuneOf(str(a[0]))), nil
	case "name":
		return Name(firstRuneOf(str(a[0])))
	case "decimal":
		return Decimal(firstRuneOf(str(a[0])))
	case "digit":
		return Digit(firstRuneOf(str(a[0])))
	case "numeric":
		return Numeric(firstRuneOf(str(a[0])))
	case "east_asian_width":
		return EastAsianWidth(firstRuneOf(str(a[0]))), nil
	case "combining":
		return Combining(firstRuneOf(str(a[0]))), nil
	case "mirrored":
		return Mirrored(firstRuneOf(str(a[0]))), nil
	case "bidirectional":
		return Bidirectional(firstRuneOf(str(a[0]))), nil
	case "lookup":
		return Lookup(str(a[0]))
	case "lookup_codepoint":
		r, err := LookupCodePoint(str(a[0]))
		return string(r), err
	case "normalize":
		return Normalize(str(a[0]), str(a[1]))
	case "is_normalized":
		return IsNormalized(str(a[0]), str(a[1]))
	case "format":
		return Format[fval](str(a[0]), fakeHandler{}, noLimit)
	case "translate", "translate_log":
		res, log, err := translateLogged(str(a[0]), a[1].([]any))
		if c.fn == "translate_log" {
			return log, nil
		}
		return []any{res, log}, err
	case "maketrans":
		pairs, err := MakeTrans(str(a[0]), str(a[1]), str(a[2]))
		if err != nil {
			return nil, err
		}
		// As Python's dict: a later entry replaces an earlier one in place.
		var keys []rune
		vals := map[rune]any{}
		for _, p := range pairs {
			if _, ok := vals[p.Key]; !ok {
				keys = append(keys, p.Key)
			}
			if p.Delete {
				vals[p.Key] = nil
			} else {
				vals[p.Key] = int(p.Value)
			}
		}
		out := [][]any{}
		for _, k := range keys {
			out = append(out, []any{int(k), vals[k]})
		}
		return out, nil
	case "maketrans_key":
		r, err := MakeTransKey(str(a[0]))
		return int(r), err
	}
	return nil, fmt.Errorf("unknown function %q", c.fn)
}

func callSearch(fn, s, sub string, start, end Opt) (any, error) {
	x := NewIndex(s)
	var v1, v2 any
	var err1, err2 error
	switch fn {
	case "find":
		v1, v2 = Find(s, sub, start, end), x.Find(sub, start, end)
	case "rfind":
		v1, v2 = RFind(s, sub, start, end), x.RFind(sub, start, end)
	case "index":
		v1, err1 = IndexOf(s, sub, start, end)
		v2, err2 = x.IndexOf(sub, start, end)
	case "rindex":
		v1, err1 = RIndexOf(s, sub, start, end)
		v2, err2 = x.RIndexOf(sub, start, end)
	case "count":
		v1, v2 = Count(s, sub, start, end), x.Count(sub, start, end)
	case "startswith":
		v1, v2 = StartsWith(s, sub, start, end), x.StartsWith(sub, start, end)
	case "endswith":
		v1, v2 = EndsWith(s, sub, start, end), x.EndsWith(sub, start, end)
	}
	if v1 != v2 || (err1 == nil) != (err2 == nil) {
		return nil, fmt.Errorf("package function gives %v, %v; Index method %v, %v", v1, err1, v2, err2)
	}
	return v1, err1
}

func translateLogged(s string, items []any) (string, []any, error) {
	table := map[rune]Mapping{}
	for _, it := range items {
		kv := it.([]any)
		k := rune(integer(kv[0]))
		switch v := kv[1].(type) {
		case nil:
			table[k] = Mapping{Kind: Delete}
		case string:
			table[k] = Mapping{Kind: ToString, Str: v}
		case float64:
			table[k] = Mapping{Kind: ToRune, Rune: rune(v)}
		}
	}
	log := []any{}
	res, err := Translate(s, func(r rune) (Mapping, error) {
		log = append(log, float64(r))
		return table[r], nil // the zero Mapping is Keep
	}, noLimit)
	return res, log, err
}

// fval is a value of the format test: an R object of Python's
// gen_cases.py (named n), or a str.
type fval struct {
	isStr bool
	s     string
}

type fakeHandler struct{}

func (fakeHandler) Arg(k FieldKey) (fval, error) {
	if k.IsInt {
		if k.Int < 4 {
			return fval{s: strconv.Itoa(k.Int)}, nil
		}
		return fval{}, &Error{"IndexError", fmt.Sprintf("Replacement index %d out of range for positional args tuple", k.Int)}
	}
	switch k.Str {
	case "a", "b", "name":
		return fval{s: k.Str}, nil
	}
	return fval{}, &Error{"KeyError", k.Str}
}

func (fakeHandler) GetAttr(v fval, name string) (fval, error) {
	if v.isStr {
		return fval{}, errSkip
	}
	if strings.HasPrefix(name, "__") {
		return fval{}, &Error{"AttributeError", name}
	}
	return fval{s: v.s + "." + name}, nil
}

func (fakeHandler) GetItem(v fval, k FieldKey) (fval, error) {
	if v.isStr {
		return fval{}, errSkip
	}
	if k.IsInt {
		return fval{s: v.s + "[" + strconv.Itoa(k.Int) + "]"}, nil
	}
	return fval{s: v.s + "[" + Repr(k.Str) + "]"}, nil
}

func (fakeHandler) Convert(v fval, conv rune) (fval, error) {
	if v.isStr {
		return fval{}, errSkip
	}
	switch conv {
	case 's':
		return fval{isStr: true, s: "S(" + v.s + ")"}, nil
	case 'r':
		return fval{isStr: true, s: "R(" + v.s + ")"}, nil
	}
	var b []byte
	for _, r := range "R(" + v.s + ")" {
		if r < 0x80 {
			b = append(b, byte(r))
		} else {
			b = appendEscape(b, r)
		}
	}
	return fval{isStr: true, s: string(b)}, nil
}

func (fakeHandler) FormatValue(v fval, spec string) (string, error) {
	if v.isStr {
		if spec != "" {
			return "", errSkip
		}
		return v.s, nil
	}
	return "<" + v.s + "|" + spec + ">", nil
}

// normalize turns a Go result into what encoding/json gives for the
// recorded one.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// check compares a result with the recorded one, returning a description
// of the difference or "".
func check(c testCase, got any, err error) string {
	w := c.want
	switch {
	case w.Surrogate:
		var u *UnsupportedError
		if !errors.As(err, &u) {
			return fmt.Sprintf("want UnsupportedError (Python's result has a lone surrogate), got %#v, %v", got, err)
		}
		return ""
	case w.Err != nil:
		if err == nil {
			return fmt.Sprintf("want %v, got %#v", w.Err, got)
		}
		typ, msg := w.Err[0].(string), w.Err[1].(string)
		if c.fn == "lookup_codepoint" {
			return "" // Python raises SyntaxError from the literal; any error will do
		}
		var pe *Error
		var ue *UnicodeError
		switch {
		case errors.As(err, &ue):
			if ue.Type != typ || ue.Error() != msg {
				return fmt.Sprintf("want %s: %s, got %s: %s", typ, msg, ue.Type, ue.Error())
			}
			u := w.Unicode
			obj := u[1].(string)
			if ue.Type == "UnicodeDecodeError" {
				obj = unhex(obj)
			}
			if ue.Encoding != u[0] || ue.Object != obj || ue.Start != integer(u[2]) || ue.End != integer(u[3]) || ue.Reason != u[4] {
				return fmt.Sprintf("want %v, got %+v", u, *ue)
			}
		case errors.As(err, &pe):
			if pe.Type != typ || pe.Msg != msg {
				return fmt.Sprintf("want %s: %q, got %s: %q", typ, msg, pe.Type, pe.Msg)
			}
		default:
			return fmt.Sprintf("want %s: %s, got %v", typ, msg, err)
		}
		return ""
	}
	if err != nil {
		if c.fn == "lookup_encoding" && strings.HasPrefix(err.Error(), "LookupError: unsupported encoding") {
			if _, ok := find2(codecNames[:], strings.ReplaceAll(w.Want.(string), "-", "_")); !ok {
				return "" // a codec Python has and pystr refuses
			}
		}
		return fmt.Sprintf("want %v, got error %v", c.want.raw, err)
	}
	if g := normalize(got); !reflect.DeepEqual(g, w.Want) {
		return fmt.Sprintf("want %#v, got %#v", w.Want, g)
	}
	return ""
}

func TestRecordedCases(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < 2000 {
		t.Fatalf("only %d cases", len(cases))
	}
	fails := map[string]int{}
	ran, skipped := 0, 0
	for _, c := range cases {
		got, err := call(c)
		if errors.Is(err, errSkip) {
			skipped++
			continue
		}
		ran++
		if d := check(c, got, err); d != "" {
			fails[c.fn]++
			if fails[c.fn] <= 5 {
				args, _ := json.Marshal(c.args)
				t.Errorf("%s%s: %s", c.fn, args, d)
			}
		}
	}
	total := 0
	for fn, n := range fails {
		total += n
		t.Logf("%s: %d failures", fn, n)
	}
	t.Logf("%d recorded cases, %d run, %d skipped (format values the harness cannot model), %d failed", len(cases), ran, skipped, total)
}
