package engine

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/fault"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
)

// nestedRunTools is a tool runtime whose one tool, "sub", answers by
// running another engine (as an rlm_subagent child does) with the tool
// call's context.
type nestedRunTools struct {
	eng *Engine
	h   corpus.Handle
}

func (n *nestedRunTools) Schemas() []model.Tool {
	return []model.Tool{{Name: "sub", Description: "runs a nested engine", Parameters: json.RawMessage(`{"type":"object"}`)}}
}

func (n *nestedRunTools) Call(ctx context.Context, _ capability.Set, name string, _ json.RawMessage) (json.RawMessage, error) {
	res, err := n.eng.Run(ctx, "inner", n.h)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res.Answer)
}

// A run started by a tool call of a session's query (an rlm_subagent
// child, docs/budget.md) is a run of its own: its root must get its own
// interpreter over its own context, not the session's interpreter.
func TestNestedRunDoesNotReuseSessionInterpreter(t *testing.T) {
	// The inner engine: code mode, its own store and context.
	innerP := &script{replies: []string{py(`FINAL(len(context))`)}}
	inner, innerH := scriptedEngine(t, "0123456789", Config{Mode: ModeCode}, innerP)

	outerP := &script{}
	outerP.answer = func(req model.Request) (*model.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "Query: outer") {
			return &model.Response{Text: py(`x = call_tool("sub")`, `print(x)`, `y = context.find("secret")`, `FINAL([x, y])`)}, nil
		}
		return &model.Response{Text: py(`FINAL("saw: " + ` + "\"\"\"" + last[:min(len(last), 300)] + "\"\"\"" + `)`)}, nil
	}
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("code", "tool:sub"))
	outer, outerH := scriptedEngine(t, haystack, Config{Mode: ModeCode, Capabilities: caps, Tools: &nestedRunTools{eng: inner, h: innerH}}, outerP)
	s, err := outer.NewSession(outerH)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Ask(context.Background(), "outer")
	if err != nil {
		t.Fatalf("err %v", err)
	}
	got, _ := json.Marshal(res.Answer)
	// inner context is 10 bytes; "secret" is at offset 15 of haystack.
	if string(got) != "[10,15]" {
		t.Fatalf("answer %s, want [10,15]", got)
	}
}

// Saved data names user variables; Save never writes a host or standard
// name (context, FINAL, llm_query, print, ...), so a saved session that
// holds one is invalid data: it must not replace the session's input or
// its builtins.
func TestResumeRejectsPredeclaredNames(t *testing.T) {
	for _, name := range []string{"context", "context_0", "FINAL", "llm_query", "print", "True", "None", "len", "if"} {
		t.Run(name, func(t *testing.T) {
			p := &script{replies: []string{py(`FINAL(context[:5])`)}}
			eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode}, p)
			data := []byte(`{"version": 1, "history": [], "globals": {"` + name + `": "forged input"}}`)
			s, err := eng.ResumeSession(data, h)
			if fault.KindOf(err) == KindInvalidSession {
				return
			}
			if err != nil {
				t.Fatalf("err %v", err)
			}
			res, err := s.Ask(context.Background(), "q")
			t.Fatalf("resumed a session that rebinds %s: answer %#v, err %v", name, res.Answer, err)
		})
	}
}

// docs/engine.md: a finishing cell after a cell that printed is not
// accepted, and "the observation shows the real output and says so". A
// long output must not cut that notice (nor the exception of a cell)
// away: the model is then told neither that its FINAL was refused nor why.
func TestDeferredFinalNoticeSurvivesTruncation(t *testing.T) {
	for name, second := range map[string]string{
		"deferred FINAL": py(`FINAL("guess")`),
		"exception":      py(`1 // 0`),
	} {
		t.Run(name, func(t *testing.T) {
			var obs string
			p := &script{}
			p.answer = func(req model.Request) (*model.Response, error) {
				last := req.Messages[len(req.Messages)-1].Content
				if strings.Contains(last, "Query: q") {
					return &model.Response{Text: py(`print("x" * 20000)`) + "\n" + second}, nil
				}
				obs = last
				return &model.Response{Text: py(`FINAL("done")`)}, nil
			}
			eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode}, p)
			if _, err := eng.Run(context.Background(), "q", h); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(obs, "not accepted") && !strings.Contains(obs, "ZeroDivisionError") {
				t.Fatalf("the observation (%d bytes) does not report cell 2; its end: %q", len(obs), obs[max(0, len(obs)-300):])
			}
		})
	}
}

// A stepped slice of a context is text; when it would be longer than
// PromptBytes it must not be silently cut short (a wrong value the model
// cannot tell from a right one): it is an error the cell sees, as .text()
// of too large a context is.
func TestSteppedSliceNotSilentlyTruncated(t *testing.T) {
	text := strings.Repeat("ab", 200) // 400 bytes
	var obs string
	p := &script{}
	p.answer = func(req model.Request) (*model.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "Query: q") {
			return &model.Response{Text: py(`s = context[::2]`, `FINAL(len(s))`)}, nil
		}
		obs = last
		return &model.Response{Text: py(`FINAL("error seen")`)}, nil
	}
	eng, h := scriptedEngine(t, text, Config{Mode: ModeCode, PromptBytes: 100}, p)
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "error seen" && res.Answer != int64(200) {
		t.Fatalf("context[::2] of 400 bytes gave %v bytes, no error (observation %q)", res.Answer, obs)
	}
}

// docs/code.md: "a batch that cannot fit max_model_calls is refused
// before any call". For a run a tool call started (an rlm_subagent
// child), docs/budget.md: each admission is checked against the child's
// own limits and what is left of the caller's. A batch that fits the
// child's own limit but not the caller's must be refused before any
// sub-call too, not run until the caller's budget cuts it off midway.
func TestBatchAdmissionCountsCallerBudget(t *testing.T) {
	var sub atomic.Int64
	p := &script{}
	p.answer = func(req model.Request) (*model.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "Query: q") {
			return &model.Response{Text: py(`r = llm_query_batched(["p"] * 10, concurrency=1)`, `FINAL(len(r))`)}, nil
		}
		sub.Add(1)
		return &model.Response{Text: "ok"}, nil
	}
	eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode}, p)
	caller := budget.NewTracker(mustResolve(t, budget.Limits{MaxModelCalls: 4}))
	res, err := eng.Run(budget.WithTracker(context.Background(), caller, 0), "q", h)
	if fault.KindOf(err) != budget.KindMaxModelCalls {
		t.Fatalf("err %v, answer %v", err, res.Answer)
	}
	if n := sub.Load(); n != 0 {
		t.Fatalf("the batch was admitted and made %d sub-calls before the caller's max_model_calls (4) stopped it", n)
	}
}

func mustResolve(t *testing.T, l budget.Limits) budget.Limits {
	t.Helper()
	r, err := l.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}
