package openai_test

import (
	"context"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// quirk serves testdata/quirks/NAME (shaped like a body a real server
// sent, see docs/model.md) and completes one request against it.
func quirk(t *testing.T, name string, edit func(*openai.Config), onDelta func(string)) (*model.Response, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "quirks", name))
	if err != nil {
		t.Fatal(err)
	}
	f := replay.NewFixture(name, b)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cfg := fast(srv.URL + "/v1")
	cfg.MaxRetries = -1
	if edit != nil {
		edit(&cfg)
	}
	req := userReq("hi", f.Stream)
	req.OnDelta = onDelta
	return newProvider(t, cfg).Complete(context.Background(), req)
}

func TestQuirkContentParts(t *testing.T) {
	for _, name := range []string{"content_parts.chunks.txt", "content_parts.json"} {
		var streamed strings.Builder
		resp, err := quirk(t, name, nil, func(s string) { streamed.WriteString(s) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Text != "3 + 4 = 7" || resp.Reasoning != "Adding three and four." {
			t.Errorf("%s: text %q reasoning %q", name, resp.Text, resp.Reasoning)
		}
		if resp.Meta.Streamed && streamed.String() != resp.Text {
			t.Errorf("%s: deltas %q", name, streamed.String())
		}
	}
}

func TestQuirkSSEErrorLine(t *testing.T) {
	_, err := quirk(t, "sse_error_line.sse", nil, nil)
	fe := wantKind(t, err, model.KindStreamInterrupted)
	if msg, _ := fe.Detail["error_message"].(string); !strings.Contains(msg, "exceeds the available context size") {
		t.Errorf("error_message %q", msg)
	}
	if fe.Detail["error_type"] != "exceed_context_size_error" || fe.Detail["error_code"] != "400" || fe.Hint == "" {
		t.Errorf("detail %v hint %q", fe.Detail, fe.Hint)
	}
}

func TestQuirkEmptyToolCallIDs(t *testing.T) {
	resp, err := quirk(t, "empty_tool_call_id.json", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 2 {
		t.Fatalf("calls %+v", resp.ToolCalls)
	}
	a, b := resp.ToolCalls[0], resp.ToolCalls[1]
	if a.ID != openai.CallID("q3", 0, "lookup", `{"city":"Oslo"}`) || b.ID != openai.CallID("q3", 1, "lookup", `{"city":"Bergen"}`) || a.ID == b.ID || !strings.HasPrefix(a.ID, "call_") {
		t.Errorf("ids %q %q", a.ID, b.ID)
	}
	again, _ := quirk(t, "empty_tool_call_id.json", nil, nil)
	if again.ToolCalls[0].ID != a.ID {
		t.Errorf("ids not deterministic: %q then %q", a.ID, again.ToolCalls[0].ID)
	}
	resp, err = quirk(t, "empty_tool_call_ids.chunks.txt", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != openai.CallID("q4", 0, "lookup", `{"city": "Oslo"}`) || resp.ToolCalls[0].Arguments != `{"city": "Oslo"}` {
		t.Errorf("streamed calls %+v", resp.ToolCalls)
	}
}

func TestQuirkRefusal(t *testing.T) {
	for _, name := range []string{"refusal.json", "refusal.sse"} {
		resp, err := quirk(t, name, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Text != "" || !strings.HasPrefix(resp.Refusal, "I can't") || !strings.HasSuffix(resp.Refusal, "that.") && !strings.HasSuffix(resp.Refusal, "request.") {
			t.Errorf("%s: text %q refusal %q", name, resp.Text, resp.Refusal)
		}
	}
}

func TestQuirkErrorBodies(t *testing.T) {
	tests := []struct {
		name, msg string
		status    int
	}{
		{"flat_error_400.json", "max_tokens must be at least 1, got -7.", 400},
		{"flat_error_code400.json", "name 'Widget' is not defined", 400},
		{"string_error_500.json", "model requires more system memory than is available", 500},
		{"ollama_model_not_found_404.json", `model "ollama" not found, try pulling it first`, 404},
		{"lmstudio_error_200.json", "Unexpected endpoint or method. (POST /chat/completions)", 200},
	}
	for _, tt := range tests {
		_, err := quirk(t, tt.name, func(c *openai.Config) { c.APIKey, c.Model = "ollama", "ollama" }, nil)
		fe := wantKind(t, err, model.KindHTTPStatus)
		if fe.Detail["error_message"] != tt.msg || fe.Detail["status"] != tt.status || !strings.Contains(fe.Message, tt.msg) || fe.Hint == "" {
			t.Errorf("%s: %v detail %v hint %q", tt.name, fe, fe.Detail, fe.Hint)
		}
	}
}

// TestQuirkShortKeyNotOverRedacted: the placeholder key "x" is not cut out
// of "max_tokens", and a long key is still scrubbed from the same error.
func TestQuirkShortKeyNotOverRedacted(t *testing.T) {
	_, err := quirk(t, "short_key_error_400.json", func(c *openai.Config) { c.APIKey = "x" }, nil)
	fe := wantKind(t, err, model.KindHTTPStatus)
	if msg, _ := fe.Detail["error_message"].(string); msg != "Invalid 'max_tokens': must be positive for key [redacted]" {
		t.Errorf("error_message %q", msg)
	}
}

func TestQuirkUsage(t *testing.T) {
	// Usage that came with a mid-stream error is handed back with it.
	resp, err := quirk(t, "midstream_error_usage.sse", nil, nil)
	wantKind(t, err, model.KindStreamInterrupted)
	if resp == nil || !resp.Usage.TokensKnown || resp.Usage.TotalTokens != 52 || !resp.Usage.CostKnown || resp.Usage.CostUSD != 0.00002 {
		t.Fatalf("usage with the error: %+v", resp)
	}
	if fe := fault.As(err); fe.Detail["error_message"] != "Token limit reached" {
		t.Errorf("detail %v", fe.Detail)
	}
	// xAI cost ticks and cached tokens.
	resp, err = quirk(t, "cost_ticks_cached.json", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := resp.Usage; !u.CostKnown || math.Abs(u.CostUSD-0.00015) > 1e-12 || u.CachedTokens != 250 || u.TotalTokens != 500 {
		t.Errorf("usage %+v", u)
	}
	resp, err = quirk(t, "deepseek_cache_hit.json", nil, nil)
	if err != nil || resp.Usage.CachedTokens != 64 {
		t.Errorf("deepseek cache hit: %+v %v", resp, err)
	}
	// No usage: tokenizer counts, marked estimated.
	resp, err = quirk(t, "no_usage.sse", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if u := resp.Usage; u.TokensKnown || !u.TokensEstimated || u.CompletionTokens != 2 || u.PromptTokens < 10 || u.TotalTokens != u.PromptTokens+u.CompletionTokens || !u.CostEstimated {
		t.Errorf("estimated usage %+v", u)
	}
}

func TestQuirkThinkInline(t *testing.T) {
	for _, name := range []string{"think_inline.sse", "think_inline.json"} {
		var streamed strings.Builder
		resp, err := quirk(t, name, nil, func(s string) { streamed.WriteString(s) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Text != "The answer is 4." || strings.TrimSpace(resp.Reasoning) != "The user wants 2+2." {
			t.Errorf("%s: text %q reasoning %q", name, resp.Text, resp.Reasoning)
		}
		if resp.Meta.Streamed && streamed.String() != resp.Text {
			t.Errorf("%s: deltas %q", name, streamed.String())
		}
	}
}

// TestQuirkLegacyFunctionCall: Azure's legacy message.function_call is
// read as one tool call with an assigned id.
func TestQuirkLegacyFunctionCall(t *testing.T) {
	resp, err := quirk(t, "legacy_function_call.json", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "lookup" || resp.ToolCalls[0].ID != openai.CallID("q12", 0, "lookup", `{"city":"Oslo"}`) {
		t.Fatalf("%+v", resp)
	}
}
