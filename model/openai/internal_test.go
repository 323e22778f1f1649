package openai

import (
	"bytes"
	"encoding/json"
	"flag"
	"reflect"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
)

var _ = flag.Bool("update", false, "rewrite golden files (read by internal/golden)")

func TestEncodeRequestGolden(t *testing.T) {
	temp := 0.2
	req := model.Request{
		Messages: []model.Message{
			{Role: model.RoleSystem, Content: "You inspect large inputs."},
			{Role: model.RoleUser, Content: "Find the needle.", Name: "alice"},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Name: "search", Arguments: `{"pattern":"needle"}`}}},
			{Role: model.RoleTool, ToolCallID: "call_1", Content: `[{"offset":42}]`},
		},
		Tools: []model.Tool{{
			Name: "search", Description: "Literal search.", Strict: true,
			Parameters: json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"]}`),
		}},
		ToolChoice:      model.ToolChoice{Mode: "function", Name: "search"},
		MaxTokens:       256,
		Temperature:     &temp,
		ReasoningEffort: "low",
		Stream:          true,
		Extra: map[string]any{
			"model": "ignored", "stream": false, "stream_options": nil, "max_tokens": 1, "temperature": 1.0, // never override
			"top_p": 0.9, "provider": map[string]any{"sort": "price"}, "seed": 7,
		},
	}
	body, err := EncodeRequest(req, "gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden.Check(t, "request.golden.json", pretty.Bytes())
}

func TestEncodeToolChoice(t *testing.T) {
	tests := []struct {
		choice model.ToolChoice
		want   string // JSON of tool_choice, "" when absent
		kind   fault.Kind
	}{
		{model.ToolChoice{}, "", ""},
		{model.ToolChoice{Mode: "auto"}, `"auto"`, ""},
		{model.ToolChoice{Mode: "none"}, `"none"`, ""},
		{model.ToolChoice{Mode: "required"}, `"required"`, ""},
		{model.ToolChoice{Mode: "function", Name: "f"}, `{"function":{"name":"f"},"type":"function"}`, ""},
		{model.ToolChoice{Name: "f"}, `{"function":{"name":"f"},"type":"function"}`, ""},
		{model.ToolChoice{Mode: "function"}, "", model.KindInvalidRequest},
		{model.ToolChoice{Mode: "any"}, "", model.KindInvalidRequest},
	}
	for _, tt := range tests {
		body, err := EncodeRequest(model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "x"}}, ToolChoice: tt.choice}, "m")
		if fault.KindOf(err) != tt.kind {
			t.Errorf("%+v: err %v, want kind %q", tt.choice, err, tt.kind)
			continue
		}
		if err != nil {
			continue
		}
		var m map[string]json.RawMessage
		json.Unmarshal(body, &m)
		if string(m["tool_choice"]) != tt.want {
			t.Errorf("%+v: tool_choice %s, want %s", tt.choice, m["tool_choice"], tt.want)
		}
		if _, ok := m["stream_options"]; ok {
			t.Errorf("stream_options sent without streaming")
		}
	}
}

func TestCompletionRoundTrip(t *testing.T) {
	resp := &model.Response{
		Text: "", Reasoning: "r", FinishReason: "tool_calls",
		ToolCalls: []model.ToolCall{{ID: "c1", Type: "function", Name: "f", Arguments: `{"a":1}`}},
		Meta:      model.Meta{ID: "id1", Model: "m"},
	}
	resp.Usage.PromptTokens, resp.Usage.CompletionTokens, resp.Usage.TotalTokens = 1, 2, 3
	resp.Usage.TokensKnown, resp.Usage.Calls = true, 1
	resp.Usage.CostUSD, resp.Usage.CostKnown = 0.25, true
	b, err := json.Marshal(CompletionFromResponse(resp, "fallback"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := DecodeCompletion(b)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ResponseFromCompletion(c)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, resp) {
		t.Fatalf("round trip\n got %+v\nwant %+v", back, resp)
	}
	if !bytes.Contains(b, []byte(`"content":null`)) || !bytes.Contains(b, []byte(`"object":"chat.completion"`)) {
		t.Fatalf("encoding = %s", b)
	}
}

func FuzzCompletionDecode(f *testing.F) {
	for _, s := range []string{
		`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2,"cost":0.1}}`,
		`{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"a"}],"reasoning":"r"}}],"provider":"x"}`,
		`{"choices":[]}`, `[]`, `null`, `{"choices":[{"message":{"content":1}}]}`, `{} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := DecodeCompletion(in)
		if err != nil {
			return
		}
		resp, err := ResponseFromCompletion(c)
		if err != nil {
			t.Fatalf("decoded completion does not convert: %v", err)
		}
		// Converting back and forth is stable.
		b, err := json.Marshal(CompletionFromResponse(resp, "x"))
		if err != nil {
			t.Fatal(err)
		}
		c2, err := DecodeCompletion(b)
		if err != nil {
			t.Fatalf("re-encoded completion does not decode: %v\n%s", err, b)
		}
		resp2, err := ResponseFromCompletion(c2)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != resp2.Text || resp.Reasoning != resp2.Reasoning || !reflect.DeepEqual(resp.ToolCalls, resp2.ToolCalls) || resp.Usage.TotalTokens != resp2.Usage.TotalTokens {
			t.Fatalf("unstable conversion")
		}
	})
}

func FuzzStreamDecode(f *testing.F) {
	f.Add([]byte("data: {\"id\":\"a\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\",\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]},\"finish_reason\":null}]}\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"}\"}}]},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":1}}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("data: {\"error\":{\"message\":\"x\",\"code\":1}}\n\n"))
	f.Add([]byte(": c\r\n\r\ndata: {\"choices\":[{\"delta\":{\"reasoning_content\":\"r\"},\"finish_reason\":\"stop\"}]}"))
	f.Add([]byte("data: [DONE]\n\n"))
	p := &Provider{call: httpcall.Caller{Name: "fuzz"}, key: "k3y"}
	f.Fuzz(func(t *testing.T, in []byte) {
		ctx := t.Context()
		resp, err := p.readStream(ctx, ctx, bytes.NewReader(in), nil)
		if resp == nil && err == nil {
			t.Fatalf("resp %v, err %v", resp, err)
		}
		if err != nil {
			switch err.Kind {
			case model.KindMalformedResponse, model.KindStreamInterrupted:
			default:
				t.Fatalf("unexpected kind %s", err.Kind)
			}
			return
		}
		for _, tc := range resp.ToolCalls {
			if tc.Type == "" {
				t.Fatalf("tool call without type: %+v", tc)
			}
		}
	})
}
