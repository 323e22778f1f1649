package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
)

// TestRecordedShapes replays testdata/shapes: bodies written for this
// project in the shapes of real Messages API recordings (issue 34: server
// web search and tool search streams, a code-execution message, a
// server-side compaction stream with usage.iterations, refusals with
// stop_details, redacted thinking, prompt-cache writes, thinking with a
// signature before tool calls, adaptive thinking with a stop sequence,
// block, delta and event types no client knows yet, a 404 error body).
// Each asserts the text, reasoning, tool calls, usage and error; before
// issue 34 item 4 the server-tool shapes and future blocks failed the
// whole reply as malformed_response, the compaction usage read 55277/8,
// and the refusal details were dropped.
func TestRecordedShapes(t *testing.T) {
	type usage struct{ prompt, cached, written, completion int64 }
	tests := []struct {
		file        string
		text        string
		reasoning   string
		refusal     string
		category    string
		explanation string
		calls       []model.ToolCall
		finish      string
		usage       usage
		cost        float64 // estimated cost, USD (0: not checked)
		kind        fault.Kind
		errType     string
	}{
		{file: "web_search.sse", text: "From the search: high water is at 06:12.", finish: "stop",
			usage: usage{9100, 0, 0, 210}},
		{file: "tool_search.sse", text: "Looking for a tool. Found it; converting.", finish: "tool_calls",
			calls: []model.ToolCall{{ID: "toolu_01Convert", Type: "function", Name: "convert_units", Arguments: `{"value":12.5,"from":"mi","to":"km"}`}},
			usage: usage{1480, 0, 0, 160}},
		{file: "code_execution.json", text: "7 × 191 = 1337.", reasoning: "Multiply with the sandbox.", finish: "stop",
			usage: usage{4100, 0, 0, 95}},
		// The final message_delta usage with the iterations summed:
		// input 100+181, cache reads 55096+0, output 83+8. Priced as
		// claude-sonnet-4: input 3, cache read 0.30, output 15 per million.
		{file: "compaction.sse", text: `The last line is "done".`, finish: "stop",
			usage: usage{55377, 55096, 0, 91}, cost: (281*3.0 + 55096*0.30 + 91*15.0) / 1e6},
		{file: "refusal_stop_details.sse", refusal: "This request was declined under the usage policy (shape written for rlm's tests).",
			category: "policy_shape", explanation: "This request was declined under the usage policy (shape written for rlm's tests).",
			finish: "refusal", usage: usage{61, 0, 0, 0}},
		{file: "refusal_stop_details.json", refusal: "Declined under the usage policy (JSON shape written for rlm's tests).",
			category: "policy_shape", explanation: "Declined under the usage policy (JSON shape written for rlm's tests).",
			finish: "refusal", usage: usage{44, 0, 0, 0}},
		{file: "redacted_thinking.sse", text: "That string looks like a test trigger.", finish: "stop",
			usage: usage{90, 0, 0, 120}},
		// claude-sonnet-4: cache write 3.75 per million (1.25x input).
		{file: "cache_write.json", text: "Go is a compiled language with garbage collection.", finish: "stop",
			usage: usage{1532, 1111, 418, 33}, cost: (3*3.0 + 1111*0.30 + 418*3.75 + 33*15.0) / 1e6},
		{file: "thinking_signature_tool.sse", reasoning: "Check the clock first.", finish: "tool_calls",
			calls: []model.ToolCall{{ID: "toolu_01Clock", Type: "function", Name: "clock", Arguments: "{}"}, {ID: "toolu_02Clock", Type: "function", Name: "clock", Arguments: "{}"}},
			usage: usage{500, 0, 0, 70}},
		{file: "adaptive_thinking_stop_sequence.sse", text: "\n\n1. Puffin\n2. Tern\n", reasoning: "Two names, short.", finish: "stop",
			usage: usage{30, 0, 0, 41}},
		{file: "future_blocks.json", text: "Kept.", finish: "tool_calls",
			calls: []model.ToolCall{{ID: "toolu_01Future", Type: "function", Name: "lookup", Arguments: `{"q":"a"}`}},
			usage: usage{12, 0, 0, 4}},
		{file: "future_blocks.sse", text: "Kept.", finish: "stop", usage: usage{12, 0, 0, 4}},
		{file: "error_not_found_404.json", kind: model.KindHTTPStatus, errType: "not_found_error"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			stream := strings.HasSuffix(tt.file, ".sse")
			srv, _, _ := serve(t, filepath.Join("shapes", tt.file))
			var deltas strings.Builder
			r := req(stream)
			r.OnDelta = func(s string) { deltas.WriteString(s) }
			resp, err := newP(t, cfg(srv.URL)).Complete(context.Background(), r)
			if tt.kind != "" {
				fe := fault.As(err)
				if fe == nil || fe.Kind != tt.kind || fe.Detail["error_type"] != tt.errType {
					t.Fatalf("err %v, want kind %s type %s", err, tt.kind, tt.errType)
				}
				return
			}
			if err != nil {
				t.Fatalf("err %v", err)
			}
			if resp.Text != tt.text || resp.Reasoning != tt.reasoning || resp.Refusal != tt.refusal || resp.FinishReason != tt.finish {
				t.Errorf("text %q reasoning %q refusal %q finish %q", resp.Text, resp.Reasoning, resp.Refusal, resp.FinishReason)
			}
			if stream && deltas.String() != tt.text {
				t.Errorf("OnDelta got %q, want the text", deltas.String())
			}
			if resp.RefusalCategory != tt.category || resp.RefusalExplanation != tt.explanation {
				t.Errorf("refusal details %q %q", resp.RefusalCategory, resp.RefusalExplanation)
			}
			if !slices.Equal(resp.ToolCalls, tt.calls) {
				t.Errorf("tool calls %+v, want %+v", resp.ToolCalls, tt.calls)
			}
			u := resp.Usage
			if got := (usage{u.PromptTokens, u.CachedTokens, u.CacheWriteTokens, u.CompletionTokens}); got != tt.usage || !u.TokensKnown ||
				u.TotalTokens != tt.usage.prompt+tt.usage.completion {
				t.Errorf("usage %+v, want %+v", u, tt.usage)
			}
			if tt.cost != 0 && (!u.CostEstimated || math.Abs(u.CostUSD-tt.cost) > 1e-12) {
				t.Errorf("cost %v, want %v", u.CostUSD, tt.cost)
			}
			re := model.Refused(resp)
			switch {
			case tt.refusal == "" && re != nil:
				t.Errorf("refused %v", re)
			case tt.refusal != "" && (re == nil || re.Kind != model.KindRefused || re.Detail["refusal"] != tt.refusal ||
				re.Detail["category"] != tt.category || re.Detail["explanation"] != tt.explanation):
				t.Errorf("refused error %+v", re)
			}
		})
	}
}

// TestRefusalDetailsRoundTrip: a refusal's category and explanation
// survive FromResponse (the replay server's message) and ToResponse,
// as JSON and as a stream.
func TestRefusalDetailsRoundTrip(t *testing.T) {
	in := &model.Response{Refusal: "no", RefusalCategory: "cyber", RefusalExplanation: "declined by policy", Meta: model.Meta{Model: "claude-opus-4-6"}}
	m := anthropic.FromResponse(in, "msg_x")
	if m.StopReason != "refusal" || m.StopDetails == nil || m.StopDetails.Category != "cyber" {
		t.Fatalf("message %+v", m)
	}
	b, _ := json.Marshal(m)
	r, err := anthropic.DecodeResponse(b)
	if err != nil {
		t.Fatal(err)
	}
	var sse bytes.Buffer
	anthropic.WriteStream(&sse, m, nil)
	var asm anthropic.Assembler
	for _, chunk := range strings.Split(sse.String(), "\n\n") {
		_, data, ok := strings.Cut(chunk, "data: ")
		if !ok {
			continue
		}
		var ev anthropic.Event
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		if _, _, err := asm.Add(&ev); err != nil {
			t.Fatal(err)
		}
	}
	for name, out := range map[string]*model.Response{"json": anthropic.ToResponse(r), "stream": anthropic.ToResponse(asm.Response())} {
		if out.Refusal != "no" || out.RefusalCategory != "cyber" || out.RefusalExplanation != "declined by policy" {
			t.Errorf("%s: %+v", name, out)
		}
	}
}
