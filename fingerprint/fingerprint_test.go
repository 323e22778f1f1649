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

// TestCanonicalRejectsTrailingCloser pins that a stray closing bracket or
// brace after the value is trailing data, like any other.
func TestCanonicalRejectsTrailingCloser(t *testing.T) {
	for _, in := range []string{`{}]`, `{"a":1} }`, `[1]]`, `"x"}`, `1 ]`} {
		if out, err := Canonical(json.RawMessage(in)); err == nil {
			t.Errorf("%s: accepted as %s, want an error", in, out)
		}
	}
}

// TestCanonicalNumberSpellings pins that one number has one canonical
// form however it is spelled, and that the canonical form is a fixed point.
func TestCanonicalNumberSpellings(t *testing.T) {
	same := [][]string{
		{`1e15`, `1000000000000000`, `1000000000000000.0`, `1.0E+15`, `10e14`},
		{`1.5e15`, `1500000000000000`},
		{`-2.5e16`, `-25000000000000000`},
		{`1.234567890123456789e18`, `1234567890123456789`, `123456789012345678900e-2`},
		{`9.2e18`, `9200000000000000000`},
		{`-9.223372036854775808e18`, `-9223372036854775808`},
		{`0.0e-999999999999999999999`, `0`, `-0`, `0e5`},
		{`1e20`, `100000000000000000000`},
	}
	for _, group := range same {
		want, err := Canonical(json.RawMessage(group[0]))
		if err != nil {
			t.Fatalf("%s: %v", group[0], err)
		}
		for _, s := range group[1:] {
			got, err := Canonical(json.RawMessage(s))
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if string(got) != string(want) {
				t.Errorf("%s canonicalizes to %s, %s to %s", group[0], want, s, got)
			}
		}
	}
	// A float64 carrying the value agrees with the JSON spelling.
	if a, b := MustOf(float64(1e15)), MustOf(json.RawMessage(`1e15`)); a != b {
		t.Errorf("float64(1e15) and 1e15 fingerprint differently")
	}
	for _, s := range []string{`1e15`, `1000000000000000.01`, `9223372036854775807.5`, `1e20`, `12345678901234567890`, `1.5`, `-1e-7`} {
		once, err := Canonical(json.RawMessage(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		twice, err := Canonical(json.RawMessage(once))
		if err != nil || string(twice) != string(once) {
			t.Errorf("%s: canonical %s re-canonicalizes to %s (%v)", s, once, twice, err)
		}
	}
}

// A clone goes on from its original's state, and neither's writes reach
// the other.
func TestHasherClone(t *testing.T) {
	h := NewHasher()
	h.Write([]byte(`{"a":`))
	c, ok := h.Clone()
	if !ok {
		t.Fatal("crypto/sha256 cannot be cloned")
	}
	h.Write([]byte(`1}`))
	c.Write([]byte(`2}`))
	if h.Sum() != Bytes([]byte(`{"a":1}`)) || c.Sum() != Bytes([]byte(`{"a":2}`)) {
		t.Fatalf("sums %s and %s", h.Sum(), c.Sum())
	}
}
