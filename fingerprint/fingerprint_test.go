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
		got, err := CanonicalizeJSON([]byte(c.in))
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
	if _, err := CanonicalizeJSON([]byte(`{} {}`)); err == nil {
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
