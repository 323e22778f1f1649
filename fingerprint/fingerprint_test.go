package fingerprint

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`{"b":1,"a":[true,null,"x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{` { "z" : 1.0 , "y" : 2.5e0 } `, `{"y":2.5,"z":1}`},
		{`"<&>"`, `"<&>"`},
		{`{"n":{"d":1,"c":2}}`, `{"n":{"c":2,"d":1}}`},
	}
	for _, c := range cases {
		got, err := Canonical(json.RawMessage(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if string(got) != c.want {
			t.Errorf("%s: got %s want %s", c.in, got, c.want)
		}
	}
}

func TestOfStableAcrossTypes(t *testing.T) {
	type s struct {
		B int    `json:"b"`
		A string `json:"a"`
	}
	f1 := MustOf(s{B: 1, A: "x"})
	f2 := MustOf(map[string]any{"a": "x", "b": 1})
	if f1 != f2 {
		t.Fatalf("%s != %s", f1, f2)
	}
	if !strings.HasPrefix(f1, "sha256:") || len(f1) != 7+64 {
		t.Fatalf("bad form %s", f1)
	}
	if MustOf(map[string]any{"a": "y", "b": 1}) == f1 {
		t.Fatal("different values, same fingerprint")
	}
}

func TestCanonicalRejectsTrailing(t *testing.T) {
	if _, err := Canonical(json.RawMessage(`{} {}`)); err == nil {
		t.Fatal("want error")
	}
}

func TestCanonicalNumberFastPath(t *testing.T) {
	for _, n := range []string{"0", "-0", "7", "-7", "10", "007", "-01", "123456789012345678", "-123456789012345678",
		"1234567890123456789", "9223372036854775807", "9223372036854775808", "1.0", "1e3", "+5", "", "-", "12a"} {
		got, gerr := canonicalNumber(json.Number(n))
		want, werr := canonicalNumberSlow(json.Number(n))
		if got != want || (gerr == nil) != (werr == nil) {
			t.Errorf("%q: got %q,%v want %q,%v", n, got, gerr, want, werr)
		}
	}
}

// canonicalNumberSlow is canonicalNumber without the plain-integer shortcut.
func canonicalNumberSlow(n json.Number) (string, error) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", errors.New("bad number")
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}

func TestAppendCanonicalValue(t *testing.T) {
	v := map[string]any{"b": []any{json.Number("1.50"), "é\n"}, "a": nil}
	got, err := AppendCanonicalValue([]byte("x"), v)
	if err != nil || string(got) != `x{"a":null,"b":[1.5,"é\n"]}` {
		t.Fatalf("%s %v", got, err)
	}
	if got, err := AppendCanonicalValue([]byte("x"), map[string]any{"a": 1}); err == nil || string(got) != "x" {
		t.Fatalf("%s %v", got, err)
	}
}

// Raw documents had their own function (CanonicalizeJSON) and decoded
// values theirs (CanonicalValue): Canonical of either must give the bytes
// encoding/json plus re-encoding gives, since fingerprints are persisted.
func TestCanonicalPathsAgree(t *testing.T) {
	type tagged struct {
		B json.Number     `json:"b"`
		A string          `json:"a,omitempty"`
		R json.RawMessage `json:"r"`
	}
	values := []any{
		nil, true, "<&>é\x80", json.Number("1.50"), json.Number("-0"), json.Number("1e400"), []any{},
		map[string]any{"z": []any{json.Number("3"), nil, "x"}, "a": map[string]any{}},
		map[string]any{"n": 1, "f": 2.5, "s": []string{"b"}}, // not the decoded form: through encoding/json
		tagged{B: "7", A: "<x>", R: json.RawMessage(` {"b":1, "a":2} `)},
		json.RawMessage(nil), json.RawMessage(` {"b" : [1.0, "\u003c"], "a": null} `), json.RawMessage(`{} {}`), json.RawMessage(``),
	}
	for _, s := range fastSeeds {
		var v any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			values = append(values, v, json.RawMessage(s))
			a, aerr := AppendCanonicalValue(nil, v)
			c, cerr := Canonical(v)
			if string(a) != string(c) || (aerr == nil) != (cerr == nil) {
				t.Errorf("%s: AppendCanonicalValue %s, %v; Canonical %s, %v", s, a, aerr, c, cerr)
			}
		}
	}
	for _, v := range values {
		got, gerr := Canonical(v)
		raw, merr := json.Marshal(v)
		var want []byte
		werr := merr
		if merr == nil {
			want, werr = canonicalizeJSON(raw)
		}
		if string(got) != string(want) || (gerr == nil) != (werr == nil) {
			t.Errorf("%#v: got %s, %v; encoding/json then canonical: %s, %v", v, got, gerr, want, werr)
		}
	}
}
