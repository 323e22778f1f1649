package otlp

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
)

// genAIRequired lists, per span operation, the attributes a span built
// from synthetic events (the provider and the direct loop's tool call id
// recorded by hand) must carry: Required, or Conditionally Required or
// Recommended where rlm has the value. TestGenAIConventionsEngineRun checks
// the requirement levels themselves over a real run.
var genAIRequired = map[string][]string{
	"chat": {"gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model", "gen_ai.response.model", "gen_ai.response.id",
		"gen_ai.response.finish_reasons", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.request.max_tokens"},
	"execute_tool": {"gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.tool.type"},
}

// Every chat and execute_tool span carries the GenAI attributes rlm has the
// value of; a failed one carries error.type; the request model is the one
// asked for and the response model the one that answered.
func TestGenAISemanticConventions(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	exp, err := Start(context.Background(), Config{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder(trace.WithObserver(exp.Observe))
	ctx := trace.WithRecorder(context.Background(), rec)
	for _, c := range []struct {
		provider string
		err      error
	}{{"openai-compatible", nil}, {"anthropic", nil}, {"replay", fault.New(fault.PhaseProvider, "http_status", "503")}} {
		_, call := trace.Start(ctx, trace.KindModelCall, "gpt-4o")
		call.Set("model", "gpt-4o-2024-08-06")
		call.Set("provider", c.provider)
		call.Set("response_id", "chatcmpl-1")
		call.Set("finish_reason", "stop")
		call.Set("max_tokens", 1024)
		call.SetTokens(100, 10, 110)
		call.End(c.err)
	}
	_, tool := trace.Start(ctx, trace.KindToolCall, "fs_read")
	tool.Set("call_id", "call_abc")
	tool.End(nil)
	exp.Shutdown(context.Background())

	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.spans) != 4 {
		t.Fatalf("%d spans", len(rc.spans))
	}
	providers := map[string]int{}
	for _, sp := range rc.spans {
		a := attrs(sp)
		op := a["gen_ai.operation.name"].GetStringValue()
		for _, k := range genAIRequired[op] {
			if _, ok := a[k]; !ok {
				t.Errorf("%s span %q lacks %s", op, sp.Name, k)
			}
		}
		if _, failed := a["rlm.error.phase"]; failed && a["error.type"].GetStringValue() == "" {
			t.Errorf("failed span %q lacks error.type", sp.Name)
		}
		if op == "chat" {
			providers[a["gen_ai.provider.name"].GetStringValue()]++
			if sp.Name != "chat gpt-4o" || a["gen_ai.request.model"].GetStringValue() != "gpt-4o" ||
				a["gen_ai.response.model"].GetStringValue() != "gpt-4o-2024-08-06" || a["gen_ai.response.id"].GetStringValue() != "chatcmpl-1" {
				t.Errorf("chat span %q: %v", sp.Name, a)
			}
		}
		if op == "execute_tool" && (sp.Name != "execute_tool fs_read" || a["gen_ai.tool.call.id"].GetStringValue() != "call_abc") {
			t.Errorf("tool span %q: %v", sp.Name, a)
		}
	}
	if providers["openai"] != 2 || providers["anthropic"] != 1 {
		t.Errorf("providers %v: want openai for the OpenAI-compatible and replay servers, anthropic for the Messages API", providers)
	}
}

// requirement is one attribute a GenAI span must carry: Required ones
// always (when is nil), Conditionally Required ones when their condition
// holds on the span's other attributes, and the Recommended ones rlm has
// the value of (docs/trace.md says which).
type requirement struct {
	key  string
	why  string
	when func(a map[string]*commonpb.AnyValue, sp *tracepb.Span) bool
}

func has(key string) func(map[string]*commonpb.AnyValue, *tracepb.Span) bool {
	return func(a map[string]*commonpb.AnyValue, _ *tracepb.Span) bool { _, ok := a[key]; return ok }
}

func failed(_ map[string]*commonpb.AnyValue, sp *tracepb.Span) bool {
	return sp.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR
}

// genAIConventions are the requirement levels of the OpenTelemetry GenAI
// semantic conventions v1.41.0 (docs/gen-ai/gen-ai-spans.md: the inference
// span, the execute tool span; docs/gen-ai/gen-ai-agent-spans.md: the
// invoke agent internal span) for the spans rlm exports.
var genAIConventions = map[string][]requirement{
	"chat": {
		{key: "gen_ai.operation.name", why: "Required"},
		{key: "gen_ai.provider.name", why: "Required"},
		{key: "gen_ai.request.model", why: "Conditionally Required: if available (the model rlm asked for)"},
		{key: "error.type", why: "Conditionally Required: if the operation ended in an error", when: failed},
		{key: "server.port", why: "Conditionally Required: if server.address is set", when: has("server.address")},
		{key: "server.address", why: "Recommended: rlm knows the provider's base URL"},
		{key: "gen_ai.response.model", why: "Recommended: the server names the model", when: func(_ map[string]*commonpb.AnyValue, sp *tracepb.Span) bool { return !failed(nil, sp) }},
		{key: "gen_ai.response.id", why: "Recommended: the server's completion id", when: func(_ map[string]*commonpb.AnyValue, sp *tracepb.Span) bool { return !failed(nil, sp) }},
		{key: "gen_ai.response.finish_reasons", why: "Recommended", when: func(_ map[string]*commonpb.AnyValue, sp *tracepb.Span) bool { return !failed(nil, sp) }},
		{key: "gen_ai.usage.input_tokens", why: "Recommended", when: func(_ map[string]*commonpb.AnyValue, sp *tracepb.Span) bool { return !failed(nil, sp) }},
		{key: "gen_ai.usage.output_tokens", why: "Recommended", when: func(_ map[string]*commonpb.AnyValue, sp *tracepb.Span) bool { return !failed(nil, sp) }},
	},
	"execute_tool": {
		{key: "gen_ai.operation.name", why: "Required"},
		{key: "error.type", why: "Conditionally Required: if the operation ended in an error", when: failed},
		{key: "gen_ai.tool.name", why: "Recommended"},
		{key: "gen_ai.tool.type", why: "Recommended"},
	},
	"invoke_agent": {
		{key: "gen_ai.operation.name", why: "Required"},
		{key: "gen_ai.provider.name", why: "Required"},
		{key: "gen_ai.agent.name", why: "Conditionally Required: when available"},
		{key: "gen_ai.agent.id", why: "Conditionally Required: if applicable"},
		{key: "gen_ai.request.model", why: "Conditionally Required: if available (a model call ran under the agent)",
			when: func(a map[string]*commonpb.AnyValue, _ *tracepb.Span) bool {
				return a["gen_ai.provider.name"].GetStringValue() != "_OTHER"
			}},
		{key: "error.type", why: "Conditionally Required: if the operation ended in an error", when: failed},
	},
}

// notOn lists attributes a span of an operation must not carry: the
// invoke agent internal span has no server.* and no response.* (those are
// the inference span's).
var notOn = map[string][]string{
	"invoke_agent": {"server.address", "server.port", "gen_ai.response.model", "gen_ai.response.id"},
}

// checkConventions fails every GenAI span lacking an attribute its
// operation requires, and returns the spans by operation.
func checkConventions(t *testing.T, spans []*tracepb.Span) map[string][]*tracepb.Span {
	t.Helper()
	byOp := map[string][]*tracepb.Span{}
	for _, sp := range spans {
		a := attrs(sp)
		op := a["gen_ai.operation.name"].GetStringValue()
		if op == "" {
			continue
		}
		byOp[op] = append(byOp[op], sp)
		reqs, ok := genAIConventions[op]
		if !ok {
			t.Errorf("span %q: operation %q is not one this receiver checks", sp.Name, op)
		}
		for _, r := range reqs {
			if r.when != nil && !r.when(a, sp) {
				continue
			}
			if v, ok := a[r.key]; !ok || (v.GetStringValue() == "" && v.GetIntValue() == 0 && v.GetArrayValue() == nil && v.GetDoubleValue() == 0) {
				t.Errorf("%s span %q lacks %s (%s)", op, sp.Name, r.key, r.why)
			}
		}
		for _, k := range notOn[op] {
			if _, ok := a[k]; ok {
				t.Errorf("%s span %q carries %s", op, sp.Name, k)
			}
		}
	}
	return byOp
}

// A real engine run — a root plan that calls a tool, starts an rlm child
// and calls a failing tool, over the OpenAI-compatible provider and a
// replay server — exports chat, execute_tool and invoke_agent spans that
// each carry every attribute the conventions require of them.
func TestGenAIConventionsEngineRun(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"), goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"))
	rc := &receiver{}
	coll := httptest.NewServer(rc)
	defer coll.Close()
	exp, err := Start(context.Background(), Config{Endpoint: coll.URL})
	if err != nil {
		t.Fatal(err)
	}
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	reply := func(match string, v any) replay.Interaction {
		text, ok := v.(string)
		if !ok {
			text = js(v)
		}
		return replay.Reply(match, model.Response{Text: text, FinishReason: "stop", Meta: model.Meta{ID: "chatcmpl-" + strconv.Itoa(len(match)), Model: "test-model-2026"},
			Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}})
	}
	steps := func(s ...map[string]any) map[string]any { return map[string]any{"steps": s} }
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		reply("Query: root", steps(
			map[string]any{"op": "tool", "name": "upper", "args": map[string]any{"s": "abc"}, "bind": "u"},
			map[string]any{"op": "rlm", "query": "child question", "context": "some child text", "bind": "c"},
			map[string]any{"op": "tool", "name": "boom", "args": map[string]any{"s": "x"}, "bind": "b"},
		)),
		reply("Query: child question", `{"answer":"child answer"}`),
		reply("Observation:", `{"answer":"done"}`),
	}})
	defer srv.Close()
	prov, err := openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "test-model", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	for _, name := range []string{"upper", "boom"} {
		err := reg.Register(tool.Spec{
			Name: name, Description: name + " a string",
			Args:   json.RawMessage(`{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}`),
			Result: json.RawMessage(`{"type":"string"}`),
			Effect: authority.EffectRead,
			Handler: func(ctx context.Context, req tool.Request) (any, error) {
				if req.Tool == "boom" {
					return nil, fault.New(fault.PhaseTool, "boom", "the tool failed")
				}
				return "ABC", nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("input", "some text\n")
	if err != nil {
		t.Fatal(err)
	}
	caps := engine.DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:upper", "tool:boom"))
	eng, err := engine.New(engine.Config{Provider: prov, Model: "test-model", Store: store, Capabilities: caps,
		Tools: &tool.ModelTools{Registry: reg, Invoker: tool.NewRuntime(reg, tool.Config{})}})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder(trace.WithObserver(exp.Observe))
	if res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "root question", h); err != nil || res.Answer != "done" {
		t.Fatalf("%v %+v", err, res)
	}
	if st := exp.Shutdown(context.Background()); st.Failed != 0 || st.Dropped != 0 {
		t.Fatalf("stats %+v", st)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	byOp := checkConventions(t, rc.spans)
	if n := len(byOp["chat"]); n != 3 {
		t.Errorf("%d chat spans, want 3 (root, child, root again)", n)
	}
	if n := len(byOp["execute_tool"]); n != 2 {
		t.Errorf("%d execute_tool spans, want 2", n)
	}
	// The root run and the child: agents, named, with the provider and
	// the model of their own calls.
	agents := map[string]int{}
	for _, sp := range byOp["invoke_agent"] {
		a := attrs(sp)
		agents[sp.Name]++
		if sp.Kind != tracepb.Span_SPAN_KIND_INTERNAL || a["gen_ai.provider.name"].GetStringValue() != "openai" ||
			a["gen_ai.request.model"].GetStringValue() != "test-model" || a["gen_ai.agent.id"].GetStringValue() != a["rlm.event.id"].GetStringValue() {
			t.Errorf("agent span %q (%v): %v", sp.Name, sp.Kind, a)
		}
	}
	if agents["invoke_agent rlm"] != 1 || agents["invoke_agent rlm_child"] != 1 {
		t.Errorf("agent spans %v, want one invoke_agent rlm and one invoke_agent rlm_child", agents)
	}
	// Chat spans name the replay server by host and port, nothing else.
	u, err := url.Parse(srv.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range byOp["chat"] {
		a := attrs(sp)
		if a["server.address"].GetStringValue() != u.Hostname() || strconv.FormatInt(a["server.port"].GetIntValue(), 10) != u.Port() {
			t.Errorf("chat span %q: server %v:%v, want %s", sp.Name, a["server.address"], a["server.port"], u.Host)
		}
	}
	var failedTool bool
	for _, sp := range byOp["execute_tool"] {
		if sp.Name == "execute_tool boom" && attrs(sp)["error.type"].GetStringValue() == "boom" {
			failedTool = true
		}
	}
	if !failedTool {
		t.Error("the failed tool call has no execute_tool span with error.type boom")
	}
}

// An agent span takes the provider and requested model of its own model
// calls over a nested agent's (even one that ended first), a nested
// agent's when it made none, and _OTHER without request.model when no
// model call ran under it; its token usage sums every call beneath it.
func TestAgentSpanProviderAndModel(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	exp, err := Start(context.Background(), Config{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder(trace.WithObserver(exp.Observe))
	ctx := trace.WithRecorder(context.Background(), rec)
	call := func(ctx context.Context, provider, name string) {
		_, sp := trace.Start(ctx, trace.KindModelCall, name)
		sp.Set("provider", provider)
		sp.SetTokens(100, 10, 110)
		sp.End(nil)
	}
	// root run: a child (anthropic) ends before the root's own call (openai).
	rctx, run := trace.Start(ctx, trace.KindRun, "rlm")
	tctx, turn := trace.Start(rctx, trace.KindTurn, "turn 1")
	sctx, step := trace.Start(tctx, trace.KindPlanStep, "rlm")
	cctx, child := trace.Start(trace.WithDepth(sctx, 1), trace.KindChild, "depth 1")
	call(cctx, "anthropic", "claude-x")
	child.End(nil)
	step.End(nil)
	call(tctx, "openai-compatible", "gpt-4o")
	turn.End(nil)
	run.End(nil)
	// a direct run whose only call is that of the run its rlm_subagent
	// tool call started
	dctx, direct := trace.Start(ctx, trace.KindRun, "direct")
	toolCtx, tool := trace.Start(dctx, trace.KindToolCall, "rlm_subagent")
	subCtx, sub := trace.Start(toolCtx, trace.KindRun, "rlm")
	call(subCtx, "openai-compatible", "gpt-4o-mini")
	sub.End(nil)
	tool.End(nil)
	direct.End(nil)
	// a run that made no model call
	_, empty := trace.Start(ctx, trace.KindRun, "rlm")
	empty.End(fault.New(fault.PhaseConfig, "invalid_config", "refused before any call"))
	exp.Shutdown(context.Background())

	rc.mu.Lock()
	defer rc.mu.Unlock()
	var agentSpans []*tracepb.Span
	for _, sp := range rc.spans {
		if attrs(sp)["gen_ai.operation.name"].GetStringValue() == "invoke_agent" {
			agentSpans = append(agentSpans, sp)
		}
	}
	checkConventions(t, agentSpans)
	got := map[string]string{}
	for _, sp := range agentSpans {
		a := attrs(sp)
		got[a["rlm.event.id"].GetStringValue()] = sp.Name + " " + a["gen_ai.provider.name"].GetStringValue() + " " + a["gen_ai.request.model"].GetStringValue() +
			" " + strconv.FormatInt(a["gen_ai.usage.input_tokens"].GetIntValue(), 10)
	}
	want := []string{"invoke_agent rlm openai gpt-4o 200", "invoke_agent rlm_child anthropic claude-x 100",
		"invoke_agent direct openai gpt-4o-mini 100", "invoke_agent rlm openai gpt-4o-mini 100", "invoke_agent rlm _OTHER  0"}
	var have []string
	for _, ev := range rec.Events() {
		if isAgent(ev.Kind) {
			have = append(have, got[ev.ID])
		}
	}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("agent spans:\n%s\nwant:\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
}
