package answer

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// fixed reports the same violations for every value.
type fixed []Violation

func (f fixed) Violations(json.RawMessage) ([]Violation, error) { return f, nil }

// The string rule: a string answer is the string itself when the schema's
// top-level type admits strings, else the JSON text it holds (white space
// and one enclosing json fence removed), else the string.
func TestTextValue(t *testing.T) {
	for _, c := range []struct {
		schema, text, want string
	}{
		{`{"type": "object"}`, `{"a": 1}`, `{"a":1}`},
		{`{"type": "object"}`, "  \n{\"a\": 1}\n", `{"a":1}`},
		{`{"type": "object"}`, "```json\n{\"a\": 1}\n```", `{"a":1}`},
		{`{"type": "object"}`, "```\n[1, 2]\n```", `[1,2]`},
		{`{"type": "object"}`, "```python\n{\"a\": 1}\n```", "\"```python\\n{\\\"a\\\": 1}\\n```\""},
		{`{"type": "object"}`, `{"a": 1, "a": 2}`, `"{\"a\": 1, \"a\": 2}"`},
		{`{"type": "object"}`, `the db`, `"the db"`},
		{`{"type": "integer"}`, `42`, `42`},
		{`{"type": "integer"}`, `"42"`, `"42"`},
		{`{"enum": ["yes", "no"]}`, `yes`, `"yes"`},
		{`{"enum": ["yes", "no"]}`, `"yes"`, `"yes"`},
		{`true`, `{"a": 1}`, `{"a":1}`},
		{`{"type": "string"}`, `{"a": 1}`, `"{\"a\": 1}"`},
		{`{"type": ["string", "null"]}`, `null`, `"null"`},
		{`{"type": ["object", "null"]}`, `null`, `null`},
	} {
		s, err := New(json.RawMessage(c.schema), fixed(nil))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(s.TextValue(c.text)); got != c.want {
			t.Errorf("schema %s, text %q: %s, want %s", c.schema, c.text, got, c.want)
		}
	}
}

func TestCheckAndRepair(t *testing.T) {
	vs := fixed{{Pointer: "/count", Keyword: "type", Message: "got string, want integer"}, {Pointer: "", Keyword: "required", Message: "missing property 'service'"}}
	s, err := New(json.RawMessage(`{"type": "object"}`), vs)
	if err != nil {
		t.Fatal(err)
	}
	got, fe := s.Check(json.RawMessage(`{}`))
	if fault.KindOf(fe) != KindInvalid || fe.Phase != fault.PhaseValidate || fe.Detail["pointer"] != "/count" || fe.Detail["keyword"] != "type" || len(got) != 2 {
		t.Fatalf("%v %v", got, fe)
	}
	msg := s.RepairMessage(got, "Finish again.", 1, 2)
	for _, want := range []string{"- at /count (keyword type): got string, want integer", "- at the answer itself (keyword required)", `{"type":"object"}`, "Finish again. (Repair 1 of 2.)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("repair message lacks %q:\n%s", want, msg)
		}
	}
	// Repair: two repair messages, counted, then the error with the count.
	repairs := 0
	for want := 1; want <= 2; want++ {
		if m, err := s.Repair(got, fe, &repairs, 2, "Finish again."); err != nil || repairs != want || !strings.Contains(m, fmt.Sprintf("(Repair %d of 2.)", want)) {
			t.Fatalf("repair %d: %q, %v, repairs %d", want, m, err, repairs)
		}
	}
	if _, err := s.Repair(got, fe, &repairs, 2, "Finish again."); fault.KindOf(err) != KindInvalid || fault.As(err).Detail["repairs"] != 2 || repairs != 2 {
		t.Fatalf("past the limit: %v, repairs %d", err, repairs)
	}
	none := 0
	if _, err := s.Repair(got, fe, &none, -1, "Finish again."); fault.KindOf(err) != KindInvalid || none != 0 {
		t.Fatalf("no repairs allowed: %v", err)
	}
	ok, _ := New(json.RawMessage(`{}`), fixed(nil))
	if vs, fe := ok.Check(json.RawMessage(`1`)); vs != nil || fe != nil {
		t.Fatalf("%v %v", vs, fe)
	}
}
