package fingerprint

import (
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
