package prompt

import (
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestStrictDecodingIsCaseSensitive pins that a field name spelled in
// another case is rejected like an unknown field: encoding/json matches
// names case-insensitively, so {"activation": "relevant", "Activation":
// "always"} passed the duplicate-key check and the last spelling won.
func TestStrictDecodingIsCaseSensitive(t *testing.T) {
	spec := func(s string) error { _, err := DecodeSpec([]byte(s)); return err }
	file := func(s string) error { _, err := DecodeCatalogFile([]byte(s)); return err }
	input := func(s string) error { _, err := DecodeInput([]byte(s)); return err }
	options := func(s string) error { _, err := DecodeOptions([]byte(s)); return err }
	cases := []struct {
		name   string
		decode func(string) error
		in     string
		want   fault.Kind // "" means accepted
	}{
		{"spec duplicate by case", spec, `{"unit": "tool:x", "activation": "relevant", "Activation": "always"}`, KindInvalidUnitSpec},
		{"spec upper-case field", spec, `{"UNIT": "tool:x"}`, KindInvalidUnitSpec},
		{"spec schema field", spec, `{"unit": "tool:x", "schema": {"Name": "x"}}`, KindInvalidUnitSpec},
		{"spec representation field", spec, `{"unit": "tool:x", "representations": [{"kind": "full", "text": "t", "Utility": 5}]}`, KindInvalidUnitSpec},
		{"trigger duplicate by case", spec, `{"unit": "tool:x", "triggers": [{"phrase": "a", "Phrase": "b"}]}`, KindInvalidTrigger},
		{"file units by case", file, `{"units": [], "Units": [{"unit": "tool:y"}]}`, KindInvalidUnitSpec},
		{"file nested unit", file, `{"units": [{"unit": "tool:y", "Priority": 5}]}`, KindInvalidUnitSpec},
		{"file tool field", file, `{"tools": [{"name": "t", "Capability": "tool:t"}]}`, KindInvalidUnitSpec},
		{"file import field", file, `{"import": {"Category": "c"}}`, KindInvalidUnitSpec},
		{"input duplicate by case", input, `{"text": "a", "Text": "b"}`, KindInvalidInput},
		{"options duplicate by case", options, `{"mode": "compiled", "Mode": "all_tools"}`, KindInvalidOptions},
		{"options policy field", options, `{"policy": {"Max_Context_Tokens": 5}}`, KindInvalidOptions},
		{"options scope item", options, `{"discovery_scope": [{"Kind": "tool"}]}`, KindInvalidDiscoveryScope},
		// Map keys and free-form JSON are data, not field names.
		{"alias map keys", file, `{"tools": [{"name": "Task"}, {"name": "task"}], "import": {"aliases": {"Task": ["a"], "task": ["b"]}}}`, ""},
		{"free-form provenance and parameters", spec, `{"unit": "tool:x", "provenance": {"UNIT": 1, "unit": 2}, "schema": {"parameters": {"Type": "object", "type": "object"}}}`, ""},
		{"exact names", options, `{"mode": "compiled", "policy": {"max_context_tokens": 9000}, "discovery_scope": [{"kind": "tool"}], "parent_discovery_scope": "all"}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.decode(c.in)
			if got := fault.KindOf(err); got != c.want {
				t.Fatalf("%s: kind %q (%v), want %q", c.in, got, err, c.want)
			}
		})
	}
}
