package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// Every property of every tool's output schema says what JSON types it
// takes (strict clients such as the MCP Inspector's --strict warn on an
// empty schema), recursively.
func TestOutputSchemasAreTyped(t *testing.T) {
	f := newServeFixture(t, true)
	res, err := f.sess.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 5 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	var check func(tool, path string, s any)
	check = func(tool, path string, s any) {
		m, ok := s.(map[string]any)
		if !ok || len(m) == 0 {
			t.Errorf("%s: %s has the empty schema %v", tool, path, s)
			return
		}
		if _, ok := m["type"]; !ok {
			t.Errorf("%s: %s has no type: %v", tool, path, m)
		}
		props, _ := m["properties"].(map[string]any)
		for k, v := range props {
			check(tool, path+"/"+k, v)
		}
		if items, ok := m["items"]; ok {
			check(tool, path+"/items", items)
		}
	}
	for _, tl := range res.Tools {
		b, _ := json.Marshal(tl.OutputSchema)
		var s any
		if err := json.Unmarshal(b, &s); err != nil || tl.OutputSchema == nil {
			t.Errorf("%s: no output schema", tl.Name)
			continue
		}
		check(tl.Name, "", s)
	}
}

// A failed rlm_run is a tool error whose structured content is the typed
// error with status failed and the call's limits (never a zeroed result),
// and so is a failed context operation.
func TestFailedCallsCarryTheirError(t *testing.T) {
	f := newServeFixture(t, false)
	ctx := context.Background()
	for _, c := range []struct {
		tool string
		args map[string]any
		kind fault.Kind
	}{
		{ToolRun, map[string]any{"query": " "}, fault.KindInvalid},
		{ToolRun, map[string]any{"query": "q", "context_path": "nope.txt", "max_iterations": 3}, fault.KindNotFound},
		{ToolContextSearch, map[string]any{"path": "nope.txt", "pattern": "x"}, fault.KindNotFound},
	} {
		res := f.call(t, ctx, c.tool, c.args, nil)
		m := structured(t, res)
		e, _ := m["error"].(map[string]any)
		if !res.IsError || e["kind"] != string(c.kind) {
			t.Fatalf("%s %v: error %v, structured %v", c.tool, c.args, res.IsError, m)
		}
		if c.tool != ToolRun {
			continue
		}
		lim, _ := m["limits"].(map[string]any)
		if m["status"] != "failed" || lim["max_model_calls"] == float64(0) {
			t.Fatalf("%s: status %v, limits %v", c.tool, m["status"], lim)
		}
		if c.args["max_iterations"] != nil && lim["max_iterations"] != float64(3) {
			t.Fatalf("limits not narrowed: %v", lim)
		}
	}
}

// The output schemas accept what the tools return: a completed and a
// failed run result with every limit set (budget.Limits encodes its time
// limit in milliseconds), and context outputs.
func TestRunOutputSchemaValidates(t *testing.T) {
	run, err := tool.NewValidator("rlm_run", runOutputSchema())
	if err != nil {
		t.Fatal(err)
	}
	lim := budget.DefaultLimits
	lim.TimeLimit = 90 * time.Second
	for _, r := range []RunResult{
		{Status: "completed", Answer: "text", Usage: budget.Usage{Calls: 2, TotalTokens: 10, CostUSD: 0.1, CostKnown: true}, TraceID: "trace-1", Limits: lim},
		{Status: "completed", Answer: map[string]any{"n": 1}, Limits: lim},
		{Status: "failed", Error: fault.New(Phase, fault.KindNotFound, "x").With("path", "p").WithHint("h"), Limits: lim},
	} {
		b, _ := json.Marshal(r)
		if err := run.Validate(b); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	ctxOut, err := tool.NewValidator("context", contextOutputSchema())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []ContextOutput{{Value: []any{map[string]any{"offset": 1}}, Truncated: true}, {Value: "text"},
		{Error: fault.New(Phase, fault.KindNotFound, "x")}} {
		b, _ := json.Marshal(o)
		if err := ctxOut.Validate(b); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}
