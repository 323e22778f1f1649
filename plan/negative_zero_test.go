package plan

import (
	"encoding/json"
	"testing"
)

// docs/plan.md: "json.Marshal of a *Document gives its canonical form, which
// parses back to the same document (a fuzz-tested property)".
func TestNegativeZeroRoundTrip(t *testing.T) {
	for _, text := range []string{`{"answer":-0.0}`, `{"steps":[{"op":"final","value":-0.0}]}`} {
		doc, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(doc)
		again, err := Parse(string(b))
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(again)
		if string(b) != string(b2) {
			t.Errorf("%s: canonical form %s parses back to %s", text, b, b2)
		}
	}
}
