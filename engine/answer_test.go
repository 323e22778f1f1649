package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	ansschema "github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
)

// incidentSchema is the answer schema of the typed-answer tests.
const incidentSchema = `{"type": "object", "properties": {"service": {"type": "string"}, "count": {"type": "integer"}},
	"required": ["service", "count"], "additionalProperties": false}`

// toolValidator is package tool's validator as an answer.Validator (what
// rlm.CompileAnswerSchema builds; the engine itself never links tool).
type toolValidator struct{ v *tool.Validator }

func (a toolValidator) Violations(raw json.RawMessage) ([]ansschema.Violation, error) {
	vs, err := a.v.Violations(raw)
	out := make([]ansschema.Violation, len(vs))
	for i, v := range vs {
		out[i] = ansschema.Violation{Pointer: v.Pointer, Keyword: v.Keyword, Message: v.Message}
	}
	return out, err
}

func compiledSchema(t testing.TB, schema string) *ansschema.Schema {
	t.Helper()
	v, err := tool.NewValidator("answer", json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ansschema.New(json.RawMessage(schema), toolValidator{v})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// recording answers with replies in order and keeps every request.
type recording struct {
	mu      sync.Mutex
	replies []string
	reqs    []model.Request
}

func (s *recording) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := len(s.reqs)
	s.reqs = append(s.reqs, req)
	text := `{"answer":"out of script"}`
	if i < len(s.replies) {
		text = s.replies[i]
	}
	return &model.Response{Text: text, Usage: budget.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, TokensKnown: true}}, nil
}

// lastUser is the last user message of request i.
func (s *recording) lastUser(i int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.reqs) {
		return ""
	}
	msgs := s.reqs[i].Messages
	return msgs[len(msgs)-1].Content
}

func TestTypedAnswers(t *testing.T) {
	valid := `{"service": "db", "count": 3}`
	for _, tc := range []struct {
		name       string
		mode       string
		maxRepairs int
		replies    []string
		turns      int
		answerJSON string
		kind       fault.Kind
		// repair is what the repair message (the user message of the
		// second request) must hold.
		repair []string
	}{
		{name: "plan valid first time", mode: ModePlan, replies: []string{`{"answer": ` + valid + `}`}, turns: 1, answerJSON: `{"count":3,"service":"db"}`},
		{name: "plan string holding JSON", mode: ModePlan, replies: []string{`{"answer": "{\"service\": \"db\", \"count\": 3}"}`}, turns: 1, answerJSON: `{"service":"db","count":3}`},
		{name: "plan fenced string holding JSON", mode: ModePlan, replies: []string{`{"answer": "` + "```json\\n" + `{\"service\": \"db\", \"count\": 3}\n` + "```" + `"}`}, turns: 1, answerJSON: `{"service":"db","count":3}`},
		{name: "plan repaired", mode: ModePlan, replies: []string{`{"answer": {"service": "db", "count": "three"}}`, `{"answer": ` + valid + `}`},
			turns: 2, answerJSON: `{"count":3,"service":"db"}`, repair: []string{"at /count (keyword type)", "(Repair 1 of 2.)", `{"answer": VALUE}`}},
		{name: "plan prose repaired", mode: ModePlan, replies: []string{`{"answer": "the db, three times"}`, `{"answer": ` + valid + `}`},
			turns: 2, answerJSON: `{"count":3,"service":"db"}`, repair: []string{"at the answer itself (keyword type)"}},
		{name: "plan final step repaired", mode: ModePlan,
			replies: []string{steps(map[string]any{"op": "final", "value": map[string]any{"service": "db"}}), `{"answer": ` + valid + `}`},
			turns:   2, answerJSON: `{"count":3,"service":"db"}`, repair: []string{"at the answer itself (keyword required)", "missing property 'count'"}},
		{name: "plan gives up", mode: ModePlan, maxRepairs: 1, replies: []string{`{"answer": {"service": 1, "count": 3}}`, `{"answer": {"service": 2, "count": 3}}`, `{"answer": ` + valid + `}`},
			turns: 2, kind: ansschema.KindInvalid, repair: []string{"at /service (keyword type)", "(Repair 1 of 1.)"}},
		{name: "plan no repair allowed", mode: ModePlan, maxRepairs: -1, replies: []string{`{"answer": {"service": "db"}}`}, turns: 1, kind: ansschema.KindInvalid},
		{name: "code valid first time", mode: ModeCode, replies: []string{py(`FINAL({"service": "db", "count": 3})`)}, turns: 1, answerJSON: `{"count":3,"service":"db"}`},
		{name: "code string holding JSON", mode: ModeCode, replies: []string{py(`FINAL('{"service": "db", "count": 3}')`)}, turns: 1, answerJSON: `{"service":"db","count":3}`},
		{name: "code FINAL repaired", mode: ModeCode, replies: []string{py(`x = {"service": "db", "count": 3.5}`, `FINAL(x)`), py(`x["count"] = 3`, `FINAL_VAR("x")`)},
			turns: 2, answerJSON: `{"count":3,"service":"db"}`, repair: []string{"finished with an answer that does not match the answer schema", "at /count (keyword type)", "FINAL(value)"}},
		{name: "code answer dict repaired", mode: ModeCode,
			replies: []string{py(`answer = {"content": {"service": "db", "count": 3, "extra": 1}, "ready": True}`), py(`print(answer)`), py(`FINAL({"service": "db", "count": 3})`)},
			turns:   3, answerJSON: `{"count":3,"service":"db"}`, repair: []string{"keyword additionalProperties"}},
		{name: "code cells after a refused FINAL not run", mode: ModeCode,
			replies: []string{py(`FINAL({"service": "db"})`) + "\n" + py(`print("after")`), py(`FINAL({"service": "db", "count": 3})`)},
			turns:   2, answerJSON: `{"count":3,"service":"db"}`, repair: []string{"[cell 2 not run: an earlier cell finished]", "keyword required"}},
		{name: "code gives up", mode: ModeCode, replies: []string{py(`FINAL("nope")`), py(`FINAL("nope")`), py(`FINAL("nope")`), py(`FINAL({"service": "db", "count": 3})`)},
			turns: 3, kind: ansschema.KindInvalid, repair: []string{"(Repair 1 of 2.)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &recording{replies: tc.replies}
			eng, h := scriptedEngine(t, haystack, Config{Mode: tc.mode, MaxRepairs: tc.maxRepairs, AnswerSchema: compiledSchema(t, incidentSchema)}, p)
			res, err := eng.Run(context.Background(), "which service failed, how often?", h)
			if got := fault.KindOf(err); got != tc.kind {
				t.Fatalf("kind %q, want %q (%v)", got, tc.kind, err)
			}
			if res.Turns != tc.turns || res.Counters.Iterations != int64(tc.turns) {
				t.Fatalf("turns %d, iterations %d, want %d", res.Turns, res.Counters.Iterations, tc.turns)
			}
			if string(res.AnswerJSON) != tc.answerJSON {
				t.Fatalf("answer_json %s, want %s", res.AnswerJSON, tc.answerJSON)
			}
			if !strings.Contains(p.lastUser(0), `"required":["service","count"]`) {
				t.Fatalf("the first message does not show the schema: %q", p.lastUser(0))
			}
			for _, want := range tc.repair {
				if msg := p.lastUser(1); !strings.Contains(msg, want) {
					t.Errorf("repair message lacks %q:\n%s", want, msg)
				}
			}
			if tc.kind != "" {
				fe := fault.As(err)
				if _, ok := fe.Detail["pointer"]; !ok || fe.Detail["keyword"] == "" || fe.Hint == "" {
					t.Fatalf("error detail %v hint %q", fe.Detail, fe.Hint)
				}
				if fe.Detail["repairs"] != max(tc.maxRepairs, 0) && !(tc.maxRepairs == 0 && fe.Detail["repairs"] == DefaultMaxRepairs) {
					t.Fatalf("repairs %v", fe.Detail["repairs"])
				}
				if res.AnswerJSON != nil || res.Answer != nil {
					t.Fatalf("a refused answer was kept: %v %s", res.Answer, res.AnswerJSON)
				}
				if res.Partial == nil {
					t.Fatal("the refused answer is not the partial result")
				}
			}
			// Each refused answer is a traced turn ending in answer_invalid.
			rejected := 0
			for _, ev := range res.Trajectory {
				if ev.Kind == trace.KindTurn && ev.Error != nil && ev.Error.Kind == ansschema.KindInvalid {
					rejected++
				}
			}
			want := 0
			for i := range tc.turns {
				if strings.Contains(p.lastUser(i+1), "Your final answer was not accepted") || (tc.kind != "" && i == tc.turns-1) {
					want++
				}
			}
			if rejected != want {
				t.Fatalf("%d rejected turns traced, want %d", rejected, want)
			}
		})
	}
}

// A child's answer is not the run's: the schema checks the root's only.
func TestTypedAnswerChildUnchecked(t *testing.T) {
	p := &recording{replies: []string{
		py(`r = rlm_query("name the service", "db failed twice")`, `print(r)`),
		py(`FINAL("db")`),
		py(`FINAL({"service": r, "count": 2})`),
	}}
	eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode, AnswerSchema: compiledSchema(t, incidentSchema)}, p)
	res, err := eng.Run(context.Background(), "which service failed, how often?", h)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.AnswerJSON) != `{"count":2,"service":"db"}` || res.Turns != 2 {
		t.Fatalf("%s turns %d", res.AnswerJSON, res.Turns)
	}
	if strings.Contains(p.lastUser(1), "JSON Schema") {
		t.Fatalf("the child was shown the answer schema: %q", p.lastUser(1))
	}
}

// Without a schema nothing changes: no answer_json, no instructions.
func TestUntypedAnswerHasNoJSON(t *testing.T) {
	p := &recording{replies: []string{`{"answer": "the db, three times"}`}}
	eng, h := scriptedEngine(t, haystack, Config{}, p)
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.AnswerJSON != nil || strings.Contains(p.lastUser(0), "JSON Schema") {
		t.Fatalf("%v %s", err, res.AnswerJSON)
	}
}

// A repair is a turn: it counts against the budgets, and a budget that
// runs out ends the run with its own error, the refused answer as the
// partial result.
func TestTypedAnswerRepairIsBudgeted(t *testing.T) {
	for name, lim := range map[string]budget.Limits{
		"iterations":  {MaxIterations: 1},
		"model calls": {MaxModelCalls: 1},
	} {
		t.Run(name, func(t *testing.T) {
			p := &recording{replies: []string{`{"answer": {"service": "db"}}`, `{"answer": {"service": "db", "count": 3}}`}}
			eng, h := scriptedEngine(t, haystack, Config{Limits: lim, AnswerSchema: compiledSchema(t, incidentSchema)}, p)
			res, err := eng.Run(context.Background(), "q", h)
			if fe := fault.As(err); fe == nil || fe.Phase != fault.PhaseBudget {
				t.Fatalf("%v", err)
			}
			if len(p.reqs) != 1 || res.Partial == nil || res.AnswerJSON != nil {
				t.Fatalf("%d requests, partial %v, answer_json %s", len(p.reqs), res.Partial, res.AnswerJSON)
			}
		})
	}
}
