package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/rlm-go/rlm/fault"
)

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/parse/*.txt")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		"", "{", "}{", `{"`, `{"steps":`, "```json\n{}\n```", `{"answer":"a"} {"answer":"b"}`,
		`{"steps":[{"op":"map","over":{"ref":"var","name":"x"},"as":"i","plan":{"steps":[{"op":"final","value":{"ref":"var","name":"i"}}]},"bind":"m"}]}`,
		`{"steps":[{"op":"final","value":{"text":{"json":{"join":[{"ref":"index","value":[],"index":-9223372036854775808}]}}}}]}`,
	} {
		f.Add(s)
	}
}

// FuzzParse checks that Parse never panics, fails only with typed parse or
// validate errors, and that the canonical JSON of what it accepts parses
// back to the same canonical JSON.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		doc, err := Parse(text)
		if err != nil {
			fe := fault.As(err)
			if fe == nil || (fe.Phase != fault.PhaseParse && fe.Phase != fault.PhaseValidate) || fe.Kind == "" {
				t.Fatalf("untyped or misplaced error: %v", err)
			}
			return
		}
		if doc.IsAnswer == (doc.Plan != nil) {
			t.Fatalf("document is neither or both: %+v", doc)
		}
		if doc.IsAnswer {
			for _, n := range []int{1, 7, 64} {
				if p := Preview(doc.Answer, n); len(p) > n || !utf8.ValidString(p) {
					t.Fatalf("Preview(%d) = %q", n, p)
				}
			}
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := Parse(string(b))
		if err != nil {
			t.Fatalf("canonical form does not parse: %v\n%s", err, b)
		}
		b2, err := json.Marshal(again)
		if err != nil || string(b2) != string(b) {
			t.Fatalf("round trip changed the document:\n%s\n%s", b, b2)
		}
	})
}

// FuzzValidate checks that Validate and Estimate never panic on anything
// Parse accepts and fail only with typed validate errors.
func FuzzValidate(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePlan(text)
		if err != nil {
			return
		}
		_ = p.Estimate()
		cfg := baseConfig()
		cfg.Limits = Limits{Steps: 50, ModelCalls: 10}
		if err := Validate(p, cfg); err != nil {
			if fe := fault.As(err); fe == nil || fe.Phase != fault.PhaseValidate || fe.Detail["path"] == nil {
				t.Fatalf("untyped error or no path: %v", err)
			}
		}
	})
}
