package rlm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/model"
)

const incidentSchema = `{"type": "object", "properties": {"service": {"type": "string"}, "count": {"type": "integer"}},
	"required": ["service", "count"], "additionalProperties": false}`

type incident struct {
	Service string `json:"service"`
	Count   int    `json:"count"`
}

// replies answers with its replies in order (the last one again when
// they run out) and keeps the requests.
type replies struct {
	mu   sync.Mutex
	text []string
	reqs []model.Request
}

func (p *replies) Complete(_ context.Context, req model.Request) (*model.Response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := min(len(p.reqs), len(p.text)-1)
	p.reqs = append(p.reqs, req)
	return &model.Response{Text: p.text[i], Usage: budget.Usage{Calls: 1, PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}}, nil
}

func (p *replies) lastUser(i int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i >= len(p.reqs) {
		return ""
	}
	m := p.reqs[i].Messages
	return m[len(m)-1].Content
}

func TestCompileAnswerSchema(t *testing.T) {
	for name, schema := range map[string]string{
		"empty":        ``,
		"not JSON":     `{"type": `,
		"bad keyword":  `{"type": 5}`,
		"external ref": `{"$ref": "https://example.com/s.json"}`,
		"too large":    `{"description": "` + strings.Repeat("x", answer.MaxSchemaBytes) + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := CompileAnswerSchema(json.RawMessage(schema))
			if fault.KindOf(err) != KindAnswerSchemaInvalid || fault.As(err).Phase != fault.PhaseConfig || fault.As(err).Hint == "" {
				t.Fatalf("%v", err)
			}
		})
	}
	for _, schema := range []string{incidentSchema, `true`, `{"type": ["string", "null"]}`} {
		if _, err := CompileAnswerSchema(json.RawMessage(schema)); err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
	}
}

// A schema that cannot be read or compiled is refused when the session
// opens, naming the file; both forms at once are a usage error.
func TestOpenAnswerSchema(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"type": "objekt"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		spec Spec
		kind fault.Kind
		file string
	}{
		"missing file": {Spec{AnswerSchemaFile: filepath.Join(dir, "none.json")}, KindAnswerSchemaInvalid, filepath.Join(dir, "none.json")},
		"bad file":     {Spec{AnswerSchemaFile: bad}, KindAnswerSchemaInvalid, bad},
		"bad inline":   {Spec{AnswerSchema: json.RawMessage(`{"minimum": "x"}`)}, KindAnswerSchemaInvalid, ""},
		"both":         {Spec{AnswerSchema: json.RawMessage(incidentSchema), AnswerSchemaFile: bad}, KindInvalidUsage, ""},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(context.Background(), c.spec, WithProvider(&replies{text: []string{"x"}}))
			if err == nil {
				s.Close()
			}
			if fault.KindOf(err) != c.kind {
				t.Fatalf("%v", err)
			}
			if f, _ := fault.As(err).Detail["file"].(string); f != c.file {
				t.Fatalf("file %q, want %q", f, c.file)
			}
		})
	}
}

// The Spec's answer schema round-trips through JSON; rlm submit carries
// the schema itself, not the path of its file.
func TestSpecAnswerSchemaJSON(t *testing.T) {
	sp := Spec{AnswerSchema: json.RawMessage(`{"type":"object"}`), MaxRepairs: 3}
	b, err := json.Marshal(sp)
	if err != nil {
		t.Fatal(err)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil || string(back.AnswerSchema) != `{"type":"object"}` || back.MaxRepairs != 3 {
		t.Fatalf("%v %s", err, b)
	}
}

// Typed answers through a Session in every path: the engine (plan, code),
// auto mode's direct call and the direct runtime: refused, repaired,
// and decoded; or refused past max repairs.
func TestSessionTypedAnswers(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "app.log")
	if err := os.WriteFile(ctxFile, []byte("db ERROR\ndb ERROR\ndb ERROR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	schemaFile := filepath.Join(dir, "incident.schema.json")
	if err := os.WriteFile(schemaFile, []byte(incidentSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	const good, bad = `{"service": "db", "count": 3}`, `{"service": "db", "count": "3"}`
	run := func(mode string) func(s *Session) (Answered, *fault.Error, int, error) {
		return func(s *Session) (Answered, *fault.Error, int, error) {
			res, err := s.Run(context.Background(), "which service, how many?")
			if res == nil {
				return nil, nil, 0, err
			}
			return res, res.Error, res.Turns, err
		}
	}
	directRun := func(s *Session) (Answered, *fault.Error, int, error) {
		res, err := s.Direct(context.Background(), "which service, how many?")
		if res == nil {
			return nil, nil, 0, err
		}
		return res, res.Error, res.Turns, err
	}
	fence := func(s string) string { return "```python\n" + s + "\n```" }
	for _, c := range []struct {
		name       string
		mode       string
		maxRepairs int
		replies    []string
		do         func(*Session) (Answered, *fault.Error, int, error)
		turns      int
		kind       fault.Kind
	}{
		{"plan", engine.ModePlan, 0, []string{`{"answer": ` + bad + `}`, `{"answer": ` + good + `}`}, run(engine.ModePlan), 2, ""},
		{"code", engine.ModeCode, 0, []string{fence(`FINAL(` + bad + `)`), fence(`FINAL(` + good + `)`)}, run(engine.ModeCode), 2, ""},
		{"auto direct", ModeAuto, 0, []string{bad, "```json\n" + good + "\n```"}, run(ModeAuto), 2, ""},
		{"auto direct gives up", ModeAuto, 1, []string{bad}, run(ModeAuto), 2, answer.KindInvalid},
		{"direct", "", 0, []string{bad, good}, directRun, 2, ""},
		{"direct gives up", "", -1, []string{bad}, directRun, 1, answer.KindInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &replies{text: c.replies}
			s, err := Open(context.Background(), Spec{Mode: c.mode, Context: []string{ctxFile}, AnswerSchemaFile: schemaFile, MaxRepairs: c.maxRepairs,
				ContextWindow: 1 << 20}, WithProvider(p))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			res, fe, turns, err := c.do(s)
			if fault.KindOf(err) != c.kind || turns != c.turns {
				t.Fatalf("%v, turns %d", err, turns)
			}
			if !strings.Contains(p.lastUser(0), "JSON Schema") {
				t.Fatalf("the first request does not show the schema: %q", p.lastUser(0))
			}
			if c.kind != "" {
				if fe == nil || fe.Detail["keyword"] != "type" || fe.Detail["pointer"] != "/count" {
					t.Fatalf("%+v", fe)
				}
				if _, err := DecodeAnswer[incident](res); fault.KindOf(err) != KindAnswerDecode {
					t.Fatalf("decoded a failed run's answer: %v", err)
				}
				return
			}
			if msg := p.lastUser(1); !strings.Contains(msg, "at /count (keyword type)") {
				t.Fatalf("repair message %q", msg)
			}
			inc, err := DecodeAnswer[incident](res)
			if err != nil || inc != (incident{"db", 3}) {
				t.Fatalf("%v %+v", err, inc)
			}
		})
	}
}

// The envelope of a typed run carries answer_json next to answer.
func TestAnswerJSONEnvelope(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "app.log")
	if err := os.WriteFile(ctxFile, []byte("db ERROR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &replies{text: []string{`{"answer": "{\"service\": \"db\", \"count\": 1}"}`}}
	res, err := Run(context.Background(), Spec{Context: []string{ctxFile}}, "q", WithProvider(p), WithAnswerSchema(json.RawMessage(incidentSchema)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Envelope())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if string(doc["answer"]) != `"{\"service\": \"db\", \"count\": 1}"` || string(doc["answer_json"]) != `{"service":"db","count":1}` {
		t.Fatalf("answer %s answer_json %s", doc["answer"], doc["answer_json"])
	}
	// Without a schema there is no answer_json.
	res, err = Run(context.Background(), Spec{Context: []string{ctxFile}}, "q", WithProvider(&replies{text: []string{`{"answer": "db"}`}}))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res.Envelope()); strings.Contains(string(b), "answer_json") {
		t.Fatalf("%s", b)
	}
}

func TestDecodeAnswer(t *testing.T) {
	completed := func(answer any, raw string) *Result {
		r := &Result{Result: &engine.Result{Status: StatusCompleted, Answer: answer}}
		if raw != "" {
			r.AnswerJSON = json.RawMessage(raw)
		}
		return r
	}
	for name, c := range map[string]struct {
		res  Answered
		want incident
		kind fault.Kind
	}{
		"answer_json":          {completed("ignored", `{"service":"db","count":2}`), incident{"db", 2}, ""},
		"untyped object":       {completed(map[string]any{"service": "db", "count": 2}, ""), incident{"db", 2}, ""},
		"untyped fenced text":  {completed("```json\n{\"service\":\"db\",\"count\":2}\n```", ""), incident{"db", 2}, ""},
		"prose":                {completed("the db, twice", ""), incident{}, KindAnswerDecode},
		"unknown field":        {completed(nil, `{"service":"db","count":2,"x":1}`), incident{}, KindAnswerDecode},
		"wrong type":           {completed(nil, `{"service":"db","count":"2"}`), incident{}, KindAnswerDecode},
		"failed run":           {&Result{Result: &engine.Result{Status: StatusFailed}}, incident{}, KindAnswerDecode},
		"no result":            {&Result{}, incident{}, KindAnswerDecode},
		"direct text":          {&DirectResult{Result: &direct.Result{Status: direct.StatusOK, Answer: `{"service":"db","count":2}`}}, incident{"db", 2}, ""},
		"direct failed":        {&DirectResult{Result: &direct.Result{Status: direct.StatusError, Error: fault.New(fault.PhaseExecute, fault.KindInternal, "x")}}, incident{}, KindAnswerDecode},
		"direct typed":         {&DirectResult{Result: &direct.Result{Status: direct.StatusOK, Answer: "x", AnswerJSON: json.RawMessage(`{"service":"db","count":2}`)}}, incident{"db", 2}, ""},
		"untyped text not obj": {completed(`[1, 2]`, ""), incident{}, KindAnswerDecode},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeAnswer[incident](c.res)
			if fault.KindOf(err) != c.kind || got != c.want {
				t.Fatalf("%+v %v", got, err)
			}
		})
	}
}

// BenchmarkAnswerCheck measures what a typed answer adds to the turn that
// gives it: the string rule and the schema check (docs/engine.md, "Typed
// answers").
func BenchmarkAnswerCheck(b *testing.B) {
	s, err := CompileAnswerSchema(json.RawMessage(incidentSchema))
	if err != nil {
		b.Fatal(err)
	}
	const text = "```json\n{\"service\": \"billing\", \"count\": 42}\n```"
	for b.Loop() {
		if _, fe := s.Check(s.TextValue(text)); fe != nil {
			b.Fatal(fe)
		}
	}
}

// BenchmarkCompileAnswerSchema measures compiling the schema when a
// session opens.
func BenchmarkCompileAnswerSchema(b *testing.B) {
	for b.Loop() {
		if _, err := CompileAnswerSchema(json.RawMessage(incidentSchema)); err != nil {
			b.Fatal(err)
		}
	}
}

// A durable run's fingerprint covers its answer schema, and is unchanged
// without one (runs recorded before typed answers still resume).
func TestFingerprintCoversAnswerSchema(t *testing.T) {
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("input", "db ERROR\n")
	if err != nil {
		t.Fatal(err)
	}
	plain, _, err := fingerprintRun(engine.Config{Store: store}, h, "q")
	if err != nil {
		t.Fatal(err)
	}
	want, err := fingerprint.Of(map[string]any{
		"query": "q", "context": fingerprint.Bytes([]byte("db ERROR\n")), "model": "", "sub_model": "", "mode": "",
		"limits": specLimits(budget.Limits{}), "capabilities": []string{}, "deep": false,
	})
	if err != nil || plain != want {
		t.Fatalf("the fingerprint without a schema changed: %s, want %s (%v)", plain, want, err)
	}
	var typed []string
	for _, schema := range []string{incidentSchema, `{"type": "object"}`} {
		s, err := CompileAnswerSchema(json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		fp, _, err := fingerprintRun(engine.Config{Store: store, AnswerSchema: s}, h, "q")
		if err != nil {
			t.Fatal(err)
		}
		typed = append(typed, fp)
	}
	if typed[0] == plain || typed[1] == plain || typed[0] == typed[1] {
		t.Fatalf("%s %v", plain, typed)
	}
}
