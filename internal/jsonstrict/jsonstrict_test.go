package jsonstrict

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		in      string
		kind    fault.Kind
		pointer string
	}{
		{`{"a":1,"b":[1,2,{"c":null}]}`, "", ""},
		{`{"a":1,"a":2}`, KindDuplicateKey, "/a"},
		{`{"x":{"k/~":1,"k/~":2}}`, KindDuplicateKey, "/x/k~1~0"},
		{`[{"a":1},{"b":1,"b":1}]`, KindDuplicateKey, "/1/b"},
		{`{"a":1} {"b":2}`, KindTrailingData, ""},
		{`{"a":}`, KindMalformedJSON, "/a"},
		{``, KindMalformedJSON, ""},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), KindTooDeep, ""},
		{`123456789012345678901234567890`, "", ""},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.in))
		if fault.KindOf(err) != c.kind {
			t.Errorf("%.40s: kind %q, want %q (%v)", c.in, fault.KindOf(err), c.kind, err)
			continue
		}
		if c.pointer != "" && fault.As(err).Detail["pointer"] != c.pointer {
			t.Errorf("%s: pointer %v want %s", c.in, fault.As(err).Detail["pointer"], c.pointer)
		}
	}
}

func TestNumbersExact(t *testing.T) {
	v, err := Decode([]byte(`{"n":123456789012345678901234567890}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.(map[string]any)["n"].(json.Number).String() != "123456789012345678901234567890" {
		t.Fatal("number not exact")
	}
}

func TestDecodeObjectAndUnmarshal(t *testing.T) {
	if _, err := DecodeObject([]byte(`[1]`)); fault.KindOf(err) != KindMalformedJSON {
		t.Fatal("array accepted as object")
	}
	var s struct{ A int }
	if err := Unmarshal([]byte(`{"A":1,"A":2}`), &s); fault.KindOf(err) != KindDuplicateKey {
		t.Fatal("duplicate accepted")
	}
	if err := Unmarshal([]byte(`{"A":"x"}`), &s); fault.KindOf(err) != KindMalformedJSON {
		t.Fatal("shape mismatch accepted")
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"a":2}`, `[1,"x",null,true]`, `{"a":{"b":[{"c":1e999}]}}`, `"\u0000"`, `[[[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			if fault.As(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		// Anything accepted must also be valid for encoding/json.
		if !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("accepted value does not re-encode: %v", err)
		}
	})
}
