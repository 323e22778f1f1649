package plan

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
)

var update = flag.Bool("update", false, "rewrite golden files")

// renderParse is the golden form of a Parse result: the canonical JSON of
// the document, indented, or one line naming the error's phase, kind and
// path.
func renderParse(t *testing.T, text string) []byte {
	t.Helper()
	doc, err := Parse(text)
	if err != nil {
		fe := fault.As(err)
		if fe == nil {
			t.Fatalf("untyped error %v", err)
		}
		line := fmt.Sprintf("error phase=%s kind=%s", fe.Phase, fe.Kind)
		for _, k := range []string{"path", "pointer", "field", "op", "ref"} {
			if v, ok := fe.Detail[k]; ok {
				line += fmt.Sprintf(" %s=%v", k, v)
			}
		}
		return []byte(line + "\n")
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

func TestParseGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/parse/*.txt")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".txt")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := renderParse(t, string(text))
			golden := strings.TrimSuffix(in, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
			// Canonical JSON parses back to itself.
			if !bytes.HasPrefix(got, []byte("error")) {
				if again := renderParse(t, string(got)); !bytes.Equal(again, got) {
					t.Errorf("round trip changed the document:\n%s", again)
				}
			}
		})
	}
}

func TestParseKinds(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		phase fault.Phase
		kind  fault.Kind
		path  string
	}{
		{"empty", "", fault.PhaseParse, KindNoJSON, ""},
		{"array only", "[1,2,3]", fault.PhaseParse, KindNoJSON, ""},
		{"empty object", "{}", fault.PhaseParse, KindNoJSON, ""},
		{"too large", strings.Repeat(" ", MaxTextBytes+1), fault.PhaseParse, KindTooLarge, ""},
		{"duplicate nested", `{"steps":[{"op":"final","value":{"a":1,"a":2}}]}`, fault.PhaseParse, jsonstrict.KindDuplicateKey, ""},
		{"too deep", strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200), fault.PhaseParse, jsonstrict.KindTooDeep, ""},
		{"op not string", `{"steps":[{"op":1}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].op"},
		{"op missing", `{"steps":[{"value":1}]}`, fault.PhaseValidate, fault.KindMissingField, "steps[0].op"},
		{"step not object", `{"steps":[1]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0]"},
		{"plan not object", `{"steps":[{"op":"retry","attempts":1,"plan":[],"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].plan"},
		{"plans not list", `{"steps":[{"op":"parallel","plans":{},"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].plans"},
		{"plan without steps", `{"steps":[{"op":"parallel","plans":[{"steps":[{"op":"final","value":1}]},{}],"bind":"x"}]}`, fault.PhaseValidate, fault.KindMissingField, "steps[0].plans[1].steps"},
		{"options not object", `{"steps":[{"op":"model","prompt":"p","options":[],"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].options"},
		{"fail_fast not bool", `{"steps":[{"op":"map","over":[],"as":"i","fail_fast":"yes","plan":{"steps":[{"op":"final","value":1}]},"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].fail_fast"},
		{"attempts zero", `{"steps":[{"op":"retry","attempts":0,"plan":{"steps":[{"op":"final","value":1}]},"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].attempts"},
		{"join not list", `{"steps":[{"op":"final","value":{"join":"a"}}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].value.join"},
		{"ref not string", `{"steps":[{"op":"final","value":{"ref":1}}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].value.ref"},
		{"name not string", `{"steps":[{"op":"final","value":{"ref":"var","name":1}}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].value.name"},
		{"action type not string", `{"steps":[{"op":"context","handle":1,"action":{"type":1},"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].action.type"},
		{"action count float", `{"steps":[{"op":"context","handle":1,"action":{"type":"peek","selector":"head","count":1.5},"bind":"x"}]}`, fault.PhaseValidate, KindInvalidArgument, "steps[0].action.count"},
		{"literal extra key", `{"steps":[{"op":"final","value":{"literal":1,"x":2}}]}`, fault.PhaseValidate, KindUnknownField, "steps[0].value.x"},
		{"top-level extra key", `{"steps":[{"op":"final","value":1}],"thoughts":"..."}`, fault.PhaseValidate, KindUnknownField, "thoughts"},
		{"deep path", `{"steps":[{"op":"parallel","plans":[{"steps":[{"op":"final","value":1}]},{"steps":[{"op":"model","prompt":{"join":["a",{"ref":"nope"}]},"bind":"x"}]}],"bind":"y"}]}`, fault.PhaseValidate, KindUnknownRef, "steps[0].plans[1].steps[0].prompt.join[1].ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.text)
			fe := fault.As(err)
			if fe == nil {
				t.Fatalf("want %s/%s, got %v", tt.phase, tt.kind, err)
			}
			if fe.Phase != tt.phase || fe.Kind != tt.kind {
				t.Fatalf("want %s/%s, got %s/%s (%v)", tt.phase, tt.kind, fe.Phase, fe.Kind, err)
			}
			if tt.path != "" && fe.Detail["path"] != tt.path {
				t.Fatalf("want path %q, got %v", tt.path, fe.Detail["path"])
			}
		})
	}
}

func TestParseNumbers(t *testing.T) {
	doc, err := Parse(`{"answer":[1,-2,2.5,1e2,9223372036854775807,9223372036854775808]}`)
	if err != nil {
		t.Fatal(err)
	}
	got := doc.Answer.([]any)
	want := []any{int64(1), int64(-2), 2.5, 100.0, int64(9223372036854775807), 9223372036854775808.0}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("item %d: got %T %v, want %T %v", i, got[i], got[i], w, w)
		}
	}
	// 1e400 is rejected: TestNonFiniteNumbers.
}

func TestParsePlanRejectsAnswer(t *testing.T) {
	if _, err := ParsePlan(`{"answer":1}`); fault.KindOf(err) != KindNotADocument {
		t.Fatalf("got %v", err)
	}
	p, err := ParsePlan(`{"steps":[{"op":"final","value":1}]}`)
	if err != nil || len(p.Steps) != 1 {
		t.Fatalf("got %v %v", p, err)
	}
}

func TestParseAdversarialIsFast(t *testing.T) {
	// Many unclosed candidates must not make extraction quadratic.
	text := strings.Repeat(`{"a":`, MaxTextBytes/5-10)
	if _, err := Parse(text); err == nil {
		t.Fatal("want an error")
	}
}

// An answer object's other keys are kept as plain-JSON metadata; leading
// reasoning blocks are skipped rather than read as a second document.
func TestParseAnswerMetaAndReasoning(t *testing.T) {
	cases := []struct {
		name, text string
		answer     any
		meta       map[string]Value
	}{
		{"extra keys", `{"answer": "x", "confidence": 0.9, "note": {"ref": "var", "name": "v"}}`, "x",
			map[string]Value{"confidence": 0.9, "note": map[string]any{"ref": "var", "name": "v"}}},
		{"think", "<think>draft {\"answer\": 1}</think>\n{\"answer\": 2}", int64(2), nil},
		{"reasoning", "<reasoning>\nplan {\"steps\":[]}\n</reasoning>{\"answer\": \"ok\"}", "ok", nil},
		{"orphan close", "so {\"answer\": 1}\n</think>\n{\"answer\": 5}", int64(5), nil},
		// A closing tag inside the reply's JSON string is not reasoning.
		{"tag in a string", "Here it is: {\"answer\": \"end it with </think>\"}", "end it with </think>", nil},
		{"tag in a string after a draft", "so {\"answer\": 1}\n</think>\n{\"answer\": \"a </think> b\"}", "a </think> b", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Parse(c.text)
			if err != nil {
				t.Fatal(err)
			}
			if !doc.IsAnswer || fmt.Sprint(doc.Answer) != fmt.Sprint(c.answer) {
				t.Fatalf("answer %#v", doc.Answer)
			}
			if fmt.Sprint(doc.Meta) != fmt.Sprint(c.meta) {
				t.Fatalf("meta %#v, want %#v", doc.Meta, c.meta)
			}
		})
	}
	// A plan object with an unknown key stays rejected, and an unclosed
	// leading reasoning block holds no reply.
	if _, err := Parse(`{"steps":[{"op":"final","value":1}],"confidence":1}`); fault.KindOf(err) != KindUnknownField {
		t.Fatalf("plan with extra key: %v", err)
	}
	if _, err := Parse("<think>{\"answer\": 1}"); fault.KindOf(err) != KindNoJSON {
		t.Fatalf("unclosed reasoning: %v", err)
	}
}

// TestNonFiniteNumbers is issue 18 item 9: a number outside the float64
// range is rejected with a typed error, never clamped.
func TestNonFiniteNumbers(t *testing.T) {
	for _, text := range []string{
		`{"answer": 1e999999}`,
		`{"answer": [-1e400]}`,
		`{"steps":[{"op":"final","value":{"x":1e999}}]}`,
		`{"steps":[{"op":"final","value":{"literal":2e308}}]}`,
		`{"steps":[{"op":"model","prompt":"p","options":{"temperature":1e999},"bind":"m"}]}`,
		`{"answer": 1, "confidence": 1e999}`, // answer metadata is plan text too
		`{"answer": 1, "sources": [{"score": -1e400}]}`,
	} {
		_, err := Parse(text)
		fe := fault.As(err)
		if fe == nil || fe.Kind != KindNonFiniteNumber || fe.Phase != fault.PhaseValidate || fe.Detail["path"] == nil {
			t.Errorf("Parse(%s) = %v, want validate non_finite_number with a path", text, err)
		}
	}
	doc, err := Parse(`{"answer": 1.7e308}`)
	if err != nil || doc.Answer != 1.7e308 {
		t.Fatalf("largest finite: %v %v", doc, err)
	}
}
