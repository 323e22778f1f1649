package durable_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

type fixedProvider struct {
	resp  model.Response
	calls int
}

func (p *fixedProvider) Complete(context.Context, model.Request) (*model.Response, error) {
	p.calls++
	r := p.resp
	return &r, nil
}

// Responses and tool results that PostgreSQL's jsonb cannot hold as they
// are (a NUL character, invalid UTF-8, an unpaired surrogate escape, a number
// beyond numeric's range) are
// recorded all the same and replayed exactly, and so is a result that
// looks like the stored form of such a record. Before, their record
// failed (SQLSTATE 22P05, 22021) and ended the run, whose paid responses
// were lost, as were those of every call recorded in the same statement.
func TestUnusualContentIsRecordedAndReplayed(t *testing.T) {
	cases := []struct {
		name string
		text string          // a model response's text
		tool json.RawMessage // a tool result
	}{
		{"nul", "a\x00b", json.RawMessage(`{"content":"x\u0000y"}`)},
		{"invalid utf-8", "plain", json.RawMessage("{\"content\":\"x\xffy\"}")},
		{"unpaired surrogate", "plain", json.RawMessage(`{"content":"\ud800"}`)},
		{"wrapper look-alike", "plain", json.RawMessage(`{"rlm_base64":"e30="}`)},
		{"number out of numeric's range", "plain", json.RawMessage(`{"n":1e999999}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st := openStore(t)
			var failures []error
			x := durable.NewExecutor(st, "run", func(err error) { failures = append(failures, err) })
			p := &fixedProvider{resp: model.Response{Text: tc.text}}
			req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "q"}}}
			c := engine.Call{Kind: engine.CallModel, Turn: 1}
			if _, err := x.Model(ctx, c, req, p); err != nil {
				t.Fatal(err)
			}
			ran := 0
			tool := func(context.Context) (json.RawMessage, error) { ran++; return tc.tool, nil }
			tc1 := engine.Call{Kind: engine.CallTool, Turn: 1}
			if _, err := x.Tool(ctx, tc1, "t", json.RawMessage(`{}`), tool); err != nil {
				t.Fatal(err)
			}
			for _, err := range failures {
				t.Errorf("a record failed: kind %s: %v", fault.KindOf(err), err)
			}
			if x.Recorded() != 2 {
				t.Fatalf("recorded %d calls, want 2", x.Recorded())
			}

			y := durable.NewExecutor(st, "run", nil)
			resp, err := y.Model(ctx, c, req, p)
			if err != nil || p.calls != 1 || resp.Text != tc.text {
				t.Fatalf("replayed %q, %v, provider called %d times", resp.Text, err, p.calls)
			}
			out, err := y.Tool(ctx, tc1, "t", json.RawMessage(`{}`), tool)
			if err != nil || ran != 1 || !sameJSON(out, tc.tool) {
				t.Fatalf("replayed %q, %v, tool ran %d times", out, err, ran)
			}
		})
	}
}

// sameJSON reports whether a and b are the same JSON value (jsonb keeps
// values, not their spelling).
func sameJSON(a, b json.RawMessage) bool {
	if string(a) == string(b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
