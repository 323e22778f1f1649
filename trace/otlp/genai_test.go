package otlp

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// genAIRequired lists, per span operation, the attributes the OpenTelemetry
// GenAI semantic conventions (semantic-conventions v1.37.0,
// docs/gen-ai/gen-ai-spans.md: inference and execute tool spans) make
// Required, or Conditionally Required or Recommended where rlm has the
// value: this receiver fails a span that lacks one.
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
