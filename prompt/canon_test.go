package prompt

import (
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/fingerprint"
)

var canonSeeds = []string{
	`{"unit": "tool:x"}`,
	`{"unit": "mcp_tool:s/x", "description": "a <b> & c", "schema": {"parameters": {"type": "object", "b": [1, 2.5, "<&>", "\u2028"]}}, "activation": "always"}`,
	`{"unit": "skill:x", "triggers": [{"phrase": "Review PR", "weight": 3}, {"signal": "s"}, {"keyword": "k\u2028"}], "aliases": ["A", "a"]}`,
	`{"unit": "instruction:x", "representations": [{"kind": "full", "text": "t\n\"q\"", "utility": 2}], "provenance": [1, {"b": 2, "a": 1}]}`,
	`{"unit": "tool:x2", "requires": ["tool:y"], "suggests": ["tool:z"], "conflicts": ["tool:w"], "supersedes": ["tool:v"], "priority": 7, "available": false, "provider_visible": false, "mandatory_context": false}`,
	`{"unit": "tool:\u00e9t\u00e9", "description": "caf\u00e9 <b>&amp;</b> \u0001", "content": "\ud83d\ude00", "requires_capability": "tool:a.b"}`,
}

// checkUnitCanonical asserts that the hand-written canonical form of the
// unit is the generic one, byte for byte.
func checkUnitCanonical(t *testing.T, u Unit) {
	t.Helper()
	want, err := fingerprint.Canonical(u)
	if err != nil {
		t.Fatal(err)
	}
	if got := u.appendCanonical(nil); string(got) != string(want) {
		t.Fatalf("unit %s:\nfast    %s\ngeneric %s", u.ID, got, want)
	}
}

// TestUnitCanonicalMatchesGeneric pins the catalog fingerprint: each unit's
// canonical form equals fingerprint.Canonical, and the catalog fingerprint
// equals fingerprint.Of over the units.
func TestUnitCanonicalMatchesGeneric(t *testing.T) {
	var specs []Spec
	for _, s := range canonSeeds {
		sp, err := DecodeSpec([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, sp)
	}
	gen, _ := genSpecs(genCatalog(600, 3))
	specs = append(specs, gen...)
	c, err := NewCatalog(specs)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range c.Units() {
		checkUnitCanonical(t, u)
		checkFunctionJSON(t, u)
	}
	if want := fingerprint.MustOf(c.Units()); c.Fingerprint() != want {
		t.Fatalf("catalog fingerprint %s, generic %s", c.Fingerprint(), want)
	}
	// nil and empty slices differ in JSON, and so in the fingerprint.
	u := c.Units()[0]
	u.Aliases, u.Triggers, u.Representations, u.Requires = nil, nil, nil, nil
	checkUnitCanonical(t, u)
	u.Aliases, u.Triggers, u.Representations, u.Requires = []string{}, []Trigger{}, []Representation{}, []UnitID{}
	checkUnitCanonical(t, u)
	u.Schema = nil
	checkUnitCanonical(t, u)
}

// checkFunctionJSON asserts that the function JSON token counting reads is
// what encoding/json writes for the provider function tool.
func checkFunctionJSON(t *testing.T, u Unit) {
	t.Helper()
	if u.Schema == nil {
		return
	}
	want, err := json.Marshal(struct {
		Function struct {
			Description string          `json:"description"`
			Name        string          `json:"name"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
		Type string `json:"type"`
	}{Function: struct {
		Description string          `json:"description"`
		Name        string          `json:"name"`
		Parameters  json.RawMessage `json:"parameters"`
	}{u.Schema.Description, u.Schema.Name, u.Schema.Parameters}, Type: "function"})
	if err != nil {
		t.Fatal(err)
	}
	if got := appendFunctionJSON(nil, u.Schema); string(got) != string(want) {
		t.Fatalf("unit %s:\nfast    %s\ngeneric %s", u.ID, got, want)
	}
}

func FuzzUnitCanonical(f *testing.F) {
	for _, s := range canonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSpec(data)
		if err != nil {
			return
		}
		u, err := Normalize(s)
		if err != nil {
			return
		}
		checkUnitCanonical(t, u)
		checkFunctionJSON(t, u)
	})
}
