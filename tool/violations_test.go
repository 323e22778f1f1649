package tool

import (
	"encoding/json"
	"testing"
)

// Violations lists every failing leaf with its pointer and keyword, in
// the validator's order.
func TestViolations(t *testing.T) {
	v, err := NewValidator("answer", json.RawMessage(`{"type": "object", "properties": {"n": {"type": "integer"}, "id": {}, "tags": {"type": "array", "items": {"enum": ["a", "b"]}}},
		"required": ["n", "id"], "additionalProperties": false}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		raw  string
		want []Violation
	}{
		{`{"n": 1, "id": 2}`, nil},
		{`{"n": "1", "id": 2}`, []Violation{{Pointer: "/n", Keyword: "type"}}},
		{`{"n": 1}`, []Violation{{Pointer: "", Keyword: "required"}}},
		{`{"n": 1, "id": 2, "tags": ["a", "c"], "x~/": 0}`, []Violation{{Pointer: "", Keyword: "additionalProperties"}, {Pointer: "/tags/1", Keyword: "enum"}}},
		{`[]`, []Violation{{Pointer: "", Keyword: "type"}}},
	} {
		got, err := v.Violations(json.RawMessage(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %+v, want %+v", c.raw, got, c.want)
		}
		for i := range got {
			if got[i].Pointer != c.want[i].Pointer || got[i].Keyword != c.want[i].Keyword || got[i].Message == "" {
				t.Fatalf("%s: %+v, want %+v", c.raw, got, c.want)
			}
		}
	}
	if _, err := v.Violations(json.RawMessage(`{"n": 1, "n": 2}`)); err == nil {
		t.Fatal("duplicate keys accepted")
	}
}
