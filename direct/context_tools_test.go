package direct

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// TestContextToolsDerivedFromCorpus: the context tools offered to the
// model are corpus.ContextTools with the schemas tool.SchemaOf derives from
// their argument types; context_search's text is pattern, and the
// deprecated query is accepted but never offered.
func TestContextToolsDerivedFromCorpus(t *testing.T) {
	f := newFixture(t, fixOpts{})
	sess, err := newSession(context.Background(), &f.cfg, "probe")
	if err != nil {
		t.Fatal(err)
	}
	decls := corpus.ContextTools()
	if len(sess.tools) < len(decls) {
		t.Fatalf("%d tools offered, want the %d context tools first", len(sess.tools), len(decls))
	}
	for i, d := range decls {
		got := sess.tools[i]
		want, err := tool.SchemaOf(d.Args)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != d.Name || got.Description != d.Description || !jsonEqual(t, got.Parameters, want) {
			t.Errorf("tool %d: %s %q %s, want %s %q %s", i, got.Name, got.Description, got.Parameters, d.Name, d.Description, want)
		}
		b, ok := sess.Resolve(d.Name)
		if !ok || b.Kind != BindContext || b.Op != d.Op {
			t.Errorf("binding of %s: %+v", d.Name, b)
		}
	}
	var search struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	if err := json.Unmarshal(sess.tools[0].Parameters, &search); err != nil {
		t.Fatal(err)
	}
	if _, ok := search.Properties["query"]; ok || search.Properties["pattern"] == nil || !slices.Equal(search.Required, []string{"pattern"}) {
		t.Errorf("context_search offers %s", sess.tools[0].Parameters)
	}
}

// TestContextSearchQueryAlias: pattern and its deprecated alias query
// reach the same search; giving both or neither is
// schema/malformed_arguments in the validator's detail style.
func TestContextSearchQueryAlias(t *testing.T) {
	f := newFixture(t, fixOpts{})
	sess, err := newSession(context.Background(), &f.cfg, "probe")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := sess.Resolve(ToolContextSearch)
	for _, c := range []struct {
		name, args string
		detail     map[string]any // nil: valid
	}{
		{"pattern", `{"pattern":"NEEDLE"}`, nil},
		{"query", `{"query":"NEEDLE","regex":false}`, nil},
		{"both", `{"pattern":"a","query":"b"}`, map[string]any{"pointer": "", "keyword": "oneOf", "unexpected": []string{"query"}}},
		{"neither", `{"regex":true}`, map[string]any{"pointer": "", "keyword": "required", "missing": []string{"pattern"}}},
		{"empty_query", `{"query":""}`, map[string]any{"pointer": "/query", "keyword": "minLength"}},
		{"unknown", `{"pattern":"a","text":"b"}`, map[string]any{"pointer": "", "keyword": "additionalProperties", "unexpected": []string{"text"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			entries, err := Normalize([]model.ToolCall{mc("a", ToolContextSearch, c.args)})
			if err != nil {
				t.Fatal(err)
			}
			fe := sess.Validate(b, entries[0].Call)
			if c.detail == nil {
				if fe != nil {
					t.Fatalf("rejected: %v", fe)
				}
				act, err := contextAction(b.Op, entries[0].Call.Args)
				if err != nil || act.Type != corpus.ActionSearch || act.Pattern != "NEEDLE" || act.Regex {
					t.Fatalf("action %+v %v", act, err)
				}
				return
			}
			if fe == nil || fe.Phase != PhaseSchema || fe.Kind != KindMalformedArguments {
				t.Fatalf("verdict %v, want schema/malformed_arguments", fe)
			}
			for k, v := range c.detail {
				if !reflect.DeepEqual(fe.Detail[k], v) {
					t.Errorf("detail %s = %#v, want %#v (all: %v)", k, fe.Detail[k], v, fe.Detail)
				}
			}
		})
	}
}

// TestContextSearchAliasRun: a whole run answers a query-style call and a
// pattern-style call with the same observation.
func TestContextSearchAliasRun(t *testing.T) {
	f := newFixture(t, fixOpts{},
		completion("", call("a", ToolContextSearch, `{"query":"NEEDLE"}`), call("b", ToolContextSearch, `{"pattern":"NEEDLE"}`)), final("done"))
	res, err := f.run(t, "probe")
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	if res.Answer != "done" || res.ContextCalls != 2 {
		t.Fatalf("result %+v", res)
	}
	msgs := f.srv.toolMessages(t)
	var a, b map[string]any
	if json.Unmarshal([]byte(msgs["a"]), &a) != nil || json.Unmarshal([]byte(msgs["b"]), &b) != nil {
		t.Fatalf("observations %v", msgs)
	}
	if a["status"] != ObsOK || !reflect.DeepEqual(a["value"], b["value"]) {
		t.Fatalf("query %v, pattern %v", a, b)
	}
}

// TestContextActionDecoding: each context tool's arguments decode into the
// corpus action its declaration names.
func TestContextActionDecoding(t *testing.T) {
	for _, c := range []struct {
		op, args string
		want     corpus.Action
	}{
		{corpus.ActionSearch, `{"pattern":"x","regex":true}`, corpus.Action{Type: corpus.ActionSearch, Pattern: "x", Regex: true}},
		{corpus.ActionSlice, `{"start":7,"length":3}`, corpus.Action{Type: corpus.ActionSlice, Start: 7, Length: 3}},
		{corpus.ActionSlice, `{"start":1e20}`, corpus.Action{Type: corpus.ActionSlice, Start: 1<<63 - 1}},
		{corpus.ActionPeek, `{"selector":"tail","count":5}`, corpus.Action{Type: corpus.ActionPeek, Selector: "tail", Count: 5}},
	} {
		got, err := contextAction(c.op, json.RawMessage(c.args))
		if err != nil || got != c.want {
			t.Errorf("%s %s: %+v %v, want %+v", c.op, c.args, got, err, c.want)
		}
	}
	if _, err := contextAction(corpus.ActionSlice, json.RawMessage(`{"start":1.5}`)); fault.KindOf(err) != fault.KindInternal {
		t.Errorf("a non-integer start: %v", err)
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
