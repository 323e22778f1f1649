package plan

import (
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// allCaps grants everything the tests use.
var allCaps = capability.MustSet("context:*", "model:*", "tool:*", "rlm", "map", "parallel", "retry", "checkpoint")

func baseConfig() ValidateConfig {
	return ValidateConfig{Granted: allCaps, DefaultModel: "small", DepthRemaining: 1}
}

func mustPlan(t *testing.T, text string) *Plan {
	t.Helper()
	p, err := ParsePlan(text)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return p
}

const ctxHandle = `{"ref":"input","name":"context"}`

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		plan   string
		cfg    func(*ValidateConfig)
		kind   fault.Kind // "" means valid
		path   string
		detail map[string]any
	}{
		{name: "valid all ops", plan: `{"steps":[
			{"op":"context","handle":` + ctxHandle + `,"action":{"type":"partition","strategy":"lines","size":10},"bind":"parts"},
			{"op":"model","prompt":"p","bind":"m"},
			{"op":"rlm","query":"q","context":{"ref":"var","name":"m"},"bind":"c"},
			{"op":"tool","name":"t","bind":"t1"},
			{"op":"map","over":{"ref":"var","name":"parts"},"as":"p","plan":{"steps":[{"op":"model","prompt":{"ref":"var","name":"p"},"bind":"s"}]},"bind":"sums"},
			{"op":"parallel","plans":[{"steps":[{"op":"final","value":1}]},{"steps":[{"op":"tool","name":"t","bind":"s"}]}],"bind":"par"},
			{"op":"retry","attempts":10,"plan":{"steps":[{"op":"tool","name":"t","bind":"s"}]},"bind":"r"},
			{"op":"checkpoint","label":"cp"},
			{"op":"final","value":{"ref":"var","name":"r"}}]}`},
		{name: "no final is fine", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"}]}`},
		{name: "final not last", plan: `{"steps":[{"op":"final","value":1},{"op":"model","prompt":"p","bind":"m"}]}`,
			kind: KindFinalNotLast, path: "steps[0]"},
		{name: "multiple final", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"},{"op":"final","value":1},{"op":"final","value":2}]}`,
			kind: KindMultipleFinal, path: "steps[2]"},
		{name: "final not last in sub-plan", plan: `{"steps":[{"op":"retry","attempts":1,"plan":{"steps":[{"op":"final","value":1},{"op":"tool","name":"t","bind":"x"}]},"bind":"r"}]}`,
			kind: KindFinalNotLast, path: "steps[0].plan.steps[0]"},
		{name: "unbound variable", plan: `{"steps":[{"op":"model","prompt":{"ref":"var","name":"later"},"bind":"m"},{"op":"model","prompt":"p","bind":"later"}]}`,
			kind: KindUnboundVariable, path: "steps[0].prompt", detail: map[string]any{"name": "later"}},
		{name: "rebound variable", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"},{"op":"tool","name":"t","bind":"m"}]}`,
			kind: KindReboundVariable, path: "steps[1].bind"},
		{name: "rebound from earlier turn", plan: `{"steps":[{"op":"model","prompt":"p","bind":"old"}]}`,
			cfg: func(c *ValidateConfig) { c.Bound = []string{"old"} }, kind: KindReboundVariable, path: "steps[0].bind"},
		{name: "earlier turn variable readable", plan: `{"steps":[{"op":"final","value":{"ref":"var","name":"old"}}]}`,
			cfg: func(c *ValidateConfig) { c.Bound = []string{"old"} }},
		{name: "sub-plan sees parent and item", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"},{"op":"map","over":[1,2],"as":"it","plan":{"steps":[{"op":"final","value":[{"ref":"var","name":"m"},{"ref":"var","name":"it"}]}]},"bind":"x"}]}`},
		{name: "sub-plan bindings do not leak", plan: `{"steps":[{"op":"retry","attempts":2,"plan":{"steps":[{"op":"tool","name":"t","bind":"inner"}]},"bind":"r"},{"op":"final","value":{"ref":"var","name":"inner"}}]}`,
			kind: KindUnboundVariable, path: "steps[1].value"},
		{name: "sub-plan may not shadow", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"},{"op":"retry","attempts":2,"plan":{"steps":[{"op":"tool","name":"t","bind":"m"}]},"bind":"r"}]}`,
			kind: KindReboundVariable, path: "steps[1].plan.steps[0].bind"},
		{name: "map as may not shadow", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"},{"op":"map","over":[1],"as":"m","plan":{"steps":[{"op":"final","value":1}]},"bind":"x"}]}`,
			kind: KindReboundVariable, path: "steps[1].as"},
		{name: "sibling branches reuse names", plan: `{"steps":[{"op":"parallel","plans":[{"steps":[{"op":"tool","name":"t","bind":"s"}]},{"steps":[{"op":"tool","name":"t","bind":"s"}]}],"bind":"p"},{"op":"tool","name":"t","bind":"s"}]}`},
		{name: "map bind may equal as", plan: `{"steps":[{"op":"map","over":[1],"as":"x","plan":{"steps":[{"op":"final","value":1}]},"bind":"x"}]}`},
		{name: "invalid bind name", plan: `{"steps":[{"op":"model","prompt":"p","bind":"a-b"}]}`,
			kind: KindInvalidArgument, path: "steps[0].bind", detail: map[string]any{"field": "bind"}},
		{name: "missing bind", plan: `{"steps":[{"op":"model","prompt":"p"}]}`,
			kind: fault.KindMissingField, path: "steps[0].bind", detail: map[string]any{"field": "bind"}},
		{name: "missing prompt", plan: `{"steps":[{"op":"model","bind":"m"}]}`, kind: fault.KindMissingField, path: "steps[0].prompt"},
		{name: "missing handle", plan: `{"steps":[{"op":"context","action":{"type":"peek","selector":"metadata"},"bind":"m"}]}`, kind: fault.KindMissingField, path: "steps[0].handle"},
		{name: "missing action", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"bind":"m"}]}`, kind: fault.KindMissingField, path: "steps[0].action"},
		{name: "missing rlm context", plan: `{"steps":[{"op":"rlm","query":"q","bind":"c"}]}`, kind: fault.KindMissingField, path: "steps[0].context"},
		{name: "missing tool name", plan: `{"steps":[{"op":"tool","bind":"c"}]}`, kind: fault.KindMissingField, path: "steps[0].name"},
		{name: "missing map as", plan: `{"steps":[{"op":"map","over":[],"plan":{"steps":[{"op":"final","value":1}]},"bind":"c"}]}`, kind: fault.KindMissingField, path: "steps[0].as"},
		{name: "missing parallel plans", plan: `{"steps":[{"op":"parallel","plans":[],"bind":"c"}]}`, kind: fault.KindMissingField, path: "steps[0].plans"},
		{name: "missing retry plan", plan: `{"steps":[{"op":"retry","attempts":2,"bind":"c"}]}`, kind: fault.KindMissingField, path: "steps[0].plan"},
		{name: "missing label", plan: `{"steps":[{"op":"checkpoint"}]}`, kind: fault.KindMissingField, path: "steps[0].label"},
		{name: "missing final value", plan: `{"steps":[{"op":"final"}]}`, kind: fault.KindMissingField, path: "steps[0].value"},
		{name: "empty sub-plan", plan: `{"steps":[{"op":"retry","attempts":2,"plan":{"steps":[]},"bind":"c"}]}`, kind: KindEmptyPlan, path: "steps[0].plan.steps"},
		{name: "empty plan", plan: `{"steps":[]}`, kind: KindEmptyPlan, path: "steps"},
		{name: "retry attempts too many", plan: `{"steps":[{"op":"retry","attempts":11,"plan":{"steps":[{"op":"final","value":1}]},"bind":"c"}]}`,
			kind: KindInvalidArgument, path: "steps[0].attempts", detail: map[string]any{"field": "attempts"}},
		{name: "map concurrency above max", plan: `{"steps":[{"op":"map","over":[],"as":"i","concurrency":5,"plan":{"steps":[{"op":"final","value":1}]},"bind":"c"}]}`,
			cfg: func(c *ValidateConfig) { c.MaxConcurrency = 4 }, kind: KindInvalidArgument, path: "steps[0].concurrency"},
		{name: "map concurrency default max", plan: `{"steps":[{"op":"map","over":[],"as":"i","concurrency":17,"plan":{"steps":[{"op":"final","value":1}]},"bind":"c"}]}`,
			kind: KindInvalidArgument, path: "steps[0].concurrency"},
		{name: "too many branches", plan: `{"steps":[{"op":"parallel","plans":[` + repeatJoin(`{"steps":[{"op":"final","value":1}]}`, 17) + `],"bind":"c"}]}`,
			kind: KindInvalidArgument, path: "steps[0].plans"},
		{name: "unknown action type", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"grep"},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.type"},
		{name: "action field of other type", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"slice","start":1,"pattern":"x"},"bind":"m"}]}`,
			kind: KindUnknownField, path: "steps[0].action.pattern"},
		{name: "search without pattern", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"search"},"bind":"m"}]}`,
			kind: fault.KindMissingField, path: "steps[0].action.pattern"},
		{name: "peek bad selector", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"peek","selector":"middle"},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.selector"},
		{name: "peek negative count", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"peek","selector":"head","count":-1},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.count"},
		{name: "slice negative start", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"slice","start":-1,"length":3},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.start"},
		{name: "partition bad strategy", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"partition","strategy":"words","size":3},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.strategy"},
		{name: "partition zero size", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"partition","strategy":"lines","size":-3},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.size"},
		{name: "map bad transform", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"map","transform":"exec"},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.transform"},
		{name: "reduce bad reducer", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"reduce","reducer":"sum"},"bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].action.reducer"},
		{name: "unknown input", plan: `{"steps":[{"op":"final","value":{"ref":"input","name":"secrets"}}]}`,
			kind: KindUnknownInput, path: "steps[0].value", detail: map[string]any{"name": "secrets"}},
		{name: "extra input", plan: `{"steps":[{"op":"final","value":{"ref":"input","name":"extra"}}]}`,
			cfg: func(c *ValidateConfig) { c.Inputs = []string{"extra"} }},
		{name: "nested expression path", plan: `{"steps":[{"op":"final","value":{"a":[1,{"json":{"text":{"ref":"var","name":"nope"}}}]}}]}`,
			kind: KindUnboundVariable, path: "steps[0].value.a[1].json.text"},
		{name: "no model", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"}]}`,
			cfg: func(c *ValidateConfig) { c.DefaultModel = "" }, kind: KindInvalidArgument, path: "steps[0].model"},
		{name: "model name outside vocabulary", plan: `{"steps":[{"op":"model","prompt":"p","model":"a b","bind":"m"}]}`,
			kind: KindInvalidArgument, path: "steps[0].model"},
		{name: "capability context", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"search","pattern":"x"},"bind":"m"}]}`,
			cfg: grant("context:peek"), kind: capability.KindDenied, path: "steps[0]", detail: map[string]any{"capability": "context:search"}},
		{name: "capability default model", plan: `{"steps":[{"op":"model","prompt":"p","bind":"m"}]}`,
			cfg: grant("model:big"), kind: capability.KindDenied, detail: map[string]any{"capability": "model:small"}},
		{name: "capability named model", plan: `{"steps":[{"op":"model","prompt":"p","model":"big","bind":"m"}]}`,
			cfg: grant("model:big")},
		{name: "capability rlm", plan: `{"steps":[{"op":"rlm","query":"q","context":"text","bind":"m"}]}`,
			cfg: grant("model:*"), kind: capability.KindDenied, detail: map[string]any{"capability": "rlm"}},
		{name: "capability tool", plan: `{"steps":[{"op":"tool","name":"fs_write","bind":"m"}]}`,
			cfg: grant("tool:fs_read"), kind: capability.KindDenied, detail: map[string]any{"capability": "tool:fs_write"}},
		{name: "capability map", plan: `{"steps":[{"op":"map","over":[],"as":"i","plan":{"steps":[{"op":"final","value":1}]},"bind":"c"}]}`,
			cfg: grant("parallel"), kind: capability.KindDenied, detail: map[string]any{"capability": "map"}},
		{name: "capability parallel", plan: `{"steps":[{"op":"parallel","plans":[{"steps":[{"op":"final","value":1}]}],"bind":"c"}]}`,
			cfg: grant("map"), kind: capability.KindDenied, detail: map[string]any{"capability": "parallel"}},
		{name: "capability retry", plan: `{"steps":[{"op":"retry","attempts":1,"plan":{"steps":[{"op":"final","value":1}]},"bind":"c"}]}`,
			cfg: grant("map"), kind: capability.KindDenied, detail: map[string]any{"capability": "retry"}},
		{name: "capability checkpoint", plan: `{"steps":[{"op":"checkpoint","label":"x"}]}`,
			cfg: grant("map"), kind: capability.KindDenied, detail: map[string]any{"capability": "checkpoint"}},
		{name: "capability inside sub-plan", plan: `{"steps":[{"op":"map","over":[],"as":"i","plan":{"steps":[{"op":"tool","name":"t","bind":"x"}]},"bind":"c"}]}`,
			cfg: grant("map"), kind: capability.KindDenied, path: "steps[0].plan.steps[0]", detail: map[string]any{"capability": "tool:t"}},
		{name: "final needs no capability", plan: `{"steps":[{"op":"final","value":1}]}`, cfg: grant()},
		{name: "max depth", plan: `{"steps":[{"op":"rlm","query":"q","context":"text","bind":"m"}]}`,
			cfg: func(c *ValidateConfig) { c.DepthRemaining = 0 }, kind: budget.KindMaxDepth, path: "steps[0]"},
		{name: "budget steps", plan: `{"steps":[{"op":"tool","name":"t","bind":"a"},{"op":"tool","name":"t","bind":"b"}]}`,
			cfg: limits(Limits{Steps: 1}), kind: KindBudgetExceeded, detail: map[string]any{"limit": "steps", "estimated": 2, "remaining": 1}},
		{name: "budget model calls with retry", plan: `{"steps":[{"op":"retry","attempts":3,"plan":{"steps":[{"op":"model","prompt":"p","bind":"a"}]},"bind":"r"}]}`,
			cfg: limits(Limits{ModelCalls: 2}), kind: KindBudgetExceeded, detail: map[string]any{"limit": "model_calls", "estimated": 3}},
		// Each rlm step's child answers in at least one model call.
		{name: "budget model calls of rlm steps", plan: `{"steps":[{"op":"rlm","query":"q","context":"a","bind":"x"},{"op":"rlm","query":"q","context":"b","bind":"y"},{"op":"model","prompt":"p","bind":"z"}]}`,
			cfg: limits(Limits{ModelCalls: 2}), kind: KindBudgetExceeded, detail: map[string]any{"limit": "model_calls", "estimated": 3}},
		{name: "budget map counted once", plan: `{"steps":[{"op":"map","over":[1,2,3],"as":"i","plan":{"steps":[{"op":"model","prompt":"p","bind":"a"}]},"bind":"r"}]}`,
			cfg: limits(Limits{ModelCalls: 1})},
		{name: "budget tool calls", plan: `{"steps":[{"op":"tool","name":"t","bind":"a"},{"op":"tool","name":"t","bind":"b"}]}`,
			cfg: limits(Limits{ToolCalls: 1}), kind: KindBudgetExceeded, detail: map[string]any{"limit": "tool_calls"}},
		{name: "budget context ops", plan: `{"steps":[{"op":"context","handle":` + ctxHandle + `,"action":{"type":"peek","selector":"metadata"},"bind":"a"},{"op":"context","handle":` + ctxHandle + `,"action":{"type":"peek","selector":"metadata"},"bind":"b"}]}`,
			cfg: limits(Limits{ContextOps: 1}), kind: KindBudgetExceeded, detail: map[string]any{"limit": "context_ops"}},
		{name: "structure before budget", plan: `{"steps":[{"op":"tool","name":"t","bind":"a"},{"op":"tool","name":"t","bind":"a"}]}`,
			cfg: limits(Limits{Steps: 1}), kind: KindReboundVariable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			err := Validate(mustPlan(t, tt.plan), cfg)
			checkErr(t, err, fault.PhaseValidate, tt.kind, tt.path, tt.detail)
		})
	}
}

func checkErr(t *testing.T, err error, phase fault.Phase, kind fault.Kind, path string, detail map[string]any) {
	t.Helper()
	if kind == "" {
		if err != nil {
			t.Fatalf("want no error, got %v", err)
		}
		return
	}
	fe := fault.As(err)
	if fe == nil || fe.Phase != phase || fe.Kind != kind {
		t.Fatalf("want %s/%s, got %v", phase, kind, err)
	}
	if path != "" && fe.Detail["path"] != path {
		t.Fatalf("want path %q, got %v (%v)", path, fe.Detail["path"], err)
	}
	for k, v := range detail {
		if fe.Detail[k] != v {
			t.Fatalf("detail %s: want %v, got %v (%v)", k, v, fe.Detail[k], err)
		}
	}
}

func grant(caps ...string) func(*ValidateConfig) {
	return func(c *ValidateConfig) { c.Granted = capability.MustSet(caps...) }
}

func limits(l Limits) func(*ValidateConfig) {
	return func(c *ValidateConfig) { c.Limits = l }
}

func repeatJoin(s string, n int) string {
	out := s
	for i := 1; i < n; i++ {
		out += "," + s
	}
	return out
}

// TestValidateGoBuilt covers plans built in Go, which can express things
// the parser rejects earlier.
func TestValidateGoBuilt(t *testing.T) {
	tests := []struct {
		name string
		plan *Plan
		kind fault.Kind
		path string
	}{
		{"nil plan", nil, KindEmptyPlan, "steps"},
		{"unknown op", &Plan{Steps: []Step{{Op: "eval"}}}, KindUnknownOp, "steps[0].op"},
		{"field of other op", &Plan{Steps: []Step{{Op: OpFinal, Value: Lit(1), Bind: "x"}}}, KindUnknownField, "steps[0].bind"},
		{"label on model", &Plan{Steps: []Step{{Op: OpModel, Prompt: Lit("p"), Label: "l", Bind: "x"}}}, KindUnknownField, "steps[0].label"},
		{"invalid expr kind", &Plan{Steps: []Step{{Op: OpFinal, Value: &Expr{}}}}, KindInvalidArgument, "steps[0].value"},
		{"nil operand", &Plan{Steps: []Step{{Op: OpFinal, Value: Text(nil)}}}, fault.KindMissingField, "steps[0].value.text"},
		{"non-JSON literal", &Plan{Steps: []Step{{Op: OpFinal, Value: Lit(make(chan int))}}}, KindInvalidArgument, "steps[0].value"},
		{"action without type", &Plan{Steps: []Step{{Op: OpContext, Handle: Input("context"), Action: &corpus.Action{}, Bind: "x"}}}, fault.KindMissingField, "steps[0].action.type"},
		{"metadata with count", &Plan{Steps: []Step{{Op: OpContext, Handle: Input("context"), Action: &corpus.Action{Type: "peek", Selector: "metadata", Count: 3}, Bind: "x"}}}, KindUnknownField, "steps[0].action.count"},
		{"attempts zero", &Plan{Steps: []Step{{Op: OpRetry, Plan: &Plan{Steps: []Step{{Op: OpFinal, Value: Lit(1)}}}, Bind: "x"}}}, KindInvalidArgument, "steps[0].attempts"},
		{"negative concurrency", &Plan{Steps: []Step{{Op: OpMap, Over: List(), As: "i", Concurrency: -1, Plan: &Plan{Steps: []Step{{Op: OpFinal, Value: Lit(1)}}}, Bind: "x"}}}, KindInvalidArgument, "steps[0].concurrency"},
		{"valid", &Plan{Steps: []Step{{Op: OpFinal, Value: Join(Lit("a"), Index(List(Lit(1)), 0), JSON(Object(map[string]*Expr{"k": Field(Object(map[string]*Expr{"x": Lit(nil)}), "x")})))}}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, Validate(tt.plan, baseConfig()), fault.PhaseValidate, tt.kind, tt.path, nil)
		})
	}
}

func TestEstimate(t *testing.T) {
	p := mustPlan(t, `{"steps":[
		{"op":"context","handle":`+ctxHandle+`,"action":{"type":"partition","strategy":"lines","size":10},"bind":"parts"},
		{"op":"map","over":{"ref":"var","name":"parts"},"as":"p","plan":{"steps":[
			{"op":"model","prompt":"x","bind":"a"},
			{"op":"map","over":[1],"as":"q","plan":{"steps":[{"op":"tool","name":"t","bind":"b"}]},"bind":"inner"}]},"bind":"m"},
		{"op":"parallel","plans":[{"steps":[{"op":"rlm","query":"q","context":"c","bind":"r"}]},{"steps":[{"op":"context","handle":`+ctxHandle+`,"action":{"type":"peek","selector":"metadata"},"bind":"c"}]}],"bind":"par"},
		{"op":"retry","attempts":3,"plan":{"steps":[{"op":"model","prompt":"x","bind":"a"},{"op":"final","value":{"ref":"var","name":"a"}}]},"bind":"r"},
		{"op":"checkpoint","label":"x"},
		{"op":"final","value":1}]}`)
	got := p.Estimate()
	want := Estimate{Steps: 17, ModelCalls: 4, ToolCalls: 1, ContextOps: 2, RLMCalls: 1, Depth: 1, MapFanouts: 2}
	if got != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if s := want.Scale(3); s.Steps != 51 || s.Depth != 1 || s.MapFanouts != 6 {
		t.Fatalf("scale: %+v", s)
	}
}
