package pymod

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeJSONAsPython: each case's value (as repr) or error position is
// what CPython's json.loads gives for the same text.
func TestDecodeJSONAsPython(t *testing.T) {
	for _, tc := range []struct {
		in, want, errAt string
	}{
		{in: `1E1000`, want: `inf`},
		{in: `-1e1000`, want: `-inf`},
		{in: `NaN`, want: `nan`},
		{in: `[Infinity,-Infinity]`, want: `[inf, -inf]`},
		{in: `1e5`, want: `100000.0`},
		{in: `-0`, want: `0`},
		{in: `-0.0`, want: `-0.0`},
		{in: `1e-400`, want: `0.0`},
		{in: `12345678901234567890123`, want: `12345678901234567890123`},
		{in: `{"a":1,"a":2,"b":3}`, want: `{"a": 2, "b": 3}`},
		{in: `"\ud83d\ude00"`, want: `"😀"`},
		{in: `"\ud800"`, want: `"\ufffd"`},
		{in: " \t\r\n[ ]\n", want: `[]`},
		{in: `012`, errAt: "line 1 column 2 (char 1)"},
		{in: `1.`, errAt: "line 1 column 2 (char 1)"},
		{in: `-`, errAt: "line 1 column 1 (char 0)"},
		{in: `-NaN`, errAt: "line 1 column 1 (char 0)"},
		{in: `{"a" 1}`, errAt: "line 1 column 6 (char 5)"},
		{in: `[1 2]`, errAt: "line 1 column 4 (char 3)"},
		{in: `{1:2}`, errAt: "line 1 column 2 (char 1)"},
		{in: `"abc`, errAt: "line 1 column 1 (char 0)"},
		{in: `"a\x"`, errAt: "line 1 column 3 (char 2)"},
		{in: `"\u12G4"`, errAt: "line 1 column 3 (char 2)"},
		{in: `  [ ]  x`, errAt: "line 1 column 8 (char 7)"},
		{in: "\"a\x01\"", errAt: "line 1 column 3 (char 2)"},
		{in: "{\"b\":1,\"a\":[]}\n\n  ]", errAt: "line 3 column 3 (char 18)"},
		{in: ``, errAt: "line 1 column 1 (char 0)"},
	} {
		v, err := DecodeJSON(tc.in)
		if tc.errAt != "" {
			var pe *Error
			if !errors.As(err, &pe) || pe.Type != "json.JSONDecodeError" || !strings.HasSuffix(pe.Msg, tc.errAt) {
				t.Errorf("DecodeJSON(%q) = %v, %v; want JSONDecodeError at %s", tc.in, v, err, tc.errAt)
			}
			continue
		}
		if err != nil {
			t.Errorf("DecodeJSON(%q): %v", tc.in, err)
			continue
		}
		if got := Repr(v); got != tc.want && got != strings.ReplaceAll(tc.want, `"`, `'`) {
			t.Errorf("DecodeJSON(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
