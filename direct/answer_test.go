package direct

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// toolValidator is package tool's validator as an answer.Validator (what
// rlm.CompileAnswerSchema builds).
type toolValidator struct{ v *tool.Validator }

func (a toolValidator) Violations(raw json.RawMessage) ([]answer.Violation, error) {
	vs, err := a.v.Violations(raw)
	out := make([]answer.Violation, len(vs))
	for i, v := range vs {
		out[i] = answer.Violation{Pointer: v.Pointer, Keyword: v.Keyword, Message: v.Message}
	}
	return out, err
}

// The final text of a typed run must match the schema: a refused text
// is an answer_rejected event and a repair message (the text kept in the
// conversation, its bytes charged), then the repaired answer is
// AnswerJSON; past MaxRepairs the run fails with answer_invalid.
func TestTypedFinalText(t *testing.T) {
	const schema = `{"type": "object", "properties": {"id": {"type": "string", "pattern": "^NEEDLE-"}}, "required": ["id"]}`
	v, err := tool.NewValidator("answer", json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := answer.New(json.RawMessage(schema), toolValidator{v})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		maxRepairs int
		texts      []string
		kind       fault.Kind
		answerJSON string
		rejected   int
	}{
		{"valid", 0, []string{`{"id": "NEEDLE-42"}`}, "", `{"id":"NEEDLE-42"}`, 0},
		{"repaired", 0, []string{`{"id": "42"}`, "The id is 42.", "```json\n{\"id\": \"NEEDLE-42\"}\n```"}, "", `{"id":"NEEDLE-42"}`, 2},
		{"gives up", 1, []string{`{"id": "42"}`, `{"id": "43"}`}, answer.KindInvalid, "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var responses []json.RawMessage
			for _, text := range c.texts {
				responses = append(responses, final(text))
			}
			f := newFixture(t, fixOpts{edit: func(cfg *Config) { cfg.AnswerSchema, cfg.MaxRepairs = sch, c.maxRepairs }}, responses...)
			res, err := f.run(t, "which id?")
			if fault.KindOf(err) != c.kind || string(res.AnswerJSON) != c.answerJSON || res.Turns != len(c.texts) {
				t.Fatalf("%v %s turns %d", err, res.AnswerJSON, res.Turns)
			}
			rejected := 0
			for _, ev := range res.Events {
				if ev.Type == EventAnswerRejected {
					rejected++
				}
			}
			if rejected != c.rejected {
				t.Fatalf("%d answer_rejected events, want %d: %+v", rejected, c.rejected, res.Events)
			}
			reqs := f.srv.requests(t)
			if first := reqs[0].Messages[1].Content; first == nil || !strings.Contains(*first, "JSON Schema") {
				t.Fatal("the schema is not in the first request")
			}
			if len(reqs) > 1 {
				last := reqs[1].Messages[len(reqs[1].Messages)-1].Content
				if last == nil || !strings.Contains(*last, "at /id (keyword pattern)") {
					t.Fatalf("repair message %v", last)
				}
			}
			if c.kind != "" && fault.As(err).Detail["repairs"] != c.maxRepairs {
				t.Fatalf("%v", fault.As(err).Detail)
			}
		})
	}
}
