package openai

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model"
)

// FuzzStreamAssembly feeds arbitrary bytes to the SSE path (reader and
// assembler) and checks its bounds, the watchdog of issue 18 item 2: no
// more than MaxToolCalls calls, and no more text, reasoning, names or
// arguments than the input holds (work proportional to the input); and
// the usage handed back is always possible (budget.Usage.Possible).
func FuzzStreamAssembly(f *testing.F) {
	head := `{"id":"s","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":`
	for _, s := range []string{
		"data: " + head + `{"content":"hi"},"finish_reason":null}]}` + "\n\ndata: [DONE]\n\n",
		"data: " + head + `{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}},{"index":9223372036854775807},{"index":-1}]},"finish_reason":"tool_calls"}]}` + "\n\n",
		"data: " + head + `{"tool_calls":[{"id":"a"},{"id":"b"},{"function":{"arguments":"x"}}]},"finish_reason":"stop"}]}` + "\r\n\r\n",
		"data: " + head + `{"tool_calls":[` + strings.Repeat(`{"index":1},`, 40) + `{"index":2}]},"finish_reason":"stop"}]}` + "\n\n",
		"data: " + head + `{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":9223372036854775807,"total_tokens":-5,"cost":-1}}` + "\n\ndata: [DONE]\n\n",
	} {
		f.Add([]byte(s))
	}
	p, err := New(Config{BaseURL: "http://127.0.0.1:9/v1", APIKey: "sk-fuzz-key-000"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ctx := context.Background()
		resp, fe := p.readStream(ctx, ctx, strings.NewReader(string(in)), nil)
		if resp != nil && !resp.Usage.Possible() {
			// Issue 30 item 6: what is handed back to be charged is never
			// a negative count or an impossible cost.
			t.Fatalf("usage %+v", resp.Usage)
		}
		if fe != nil {
			if fe.Kind == "" {
				t.Fatalf("untyped error %v", fe)
			}
			return
		}
		if len(resp.ToolCalls) > MaxToolCalls {
			t.Fatalf("%d tool calls", len(resp.ToolCalls))
		}
		out := len(resp.Text) + len(resp.Reasoning)
		for _, c := range resp.ToolCalls {
			out += len(c.Name) + len(c.Arguments) + len(c.ID)
		}
		if out > len(in) {
			t.Fatalf("%d bytes out of %d bytes in", out, len(in))
		}
	})
}

// BenchmarkStreamManyToolCalls reads the hostile stream: one line
// with 200,000 distinct tool-call indexes.
func BenchmarkStreamManyToolCalls(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`data: {"id":"s","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[`)
	for i := range 200000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"index":` + strconv.Itoa(i) + `}`)
	}
	sb.WriteString("]},\"finish_reason\":null}]}\n\ndata: [DONE]\n\n")
	in := sb.String()
	p, err := New(Config{BaseURL: "http://127.0.0.1:9/v1", APIKey: "sk-bench-key-000"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, fe := p.readStream(ctx, ctx, strings.NewReader(in), nil); fe == nil || fe.Kind != model.KindTooManyToolCalls {
			b.Fatalf("got %v", fe)
		}
	}
}
