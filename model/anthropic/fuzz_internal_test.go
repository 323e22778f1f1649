package anthropic

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzStream: any body gives a response or a provider error of a stream
// kind, never a panic, never more tool calls than the cap, and never a
// usage that is not possible (budget.Usage.Possible).
func FuzzStream(f *testing.F) {
	shapes, _ := filepath.Glob(filepath.Join("testdata", "shapes", "*.sse"))
	for _, n := range append([]string{"stream_text.sse", "stream_tool_use.sse", "stream_error.sse"}, shapes...) {
		if !strings.HasPrefix(n, "testdata") {
			n = filepath.Join("testdata", n)
		}
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{}}\n\n"))
	f.Add([]byte("data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"usage\":{\"input_tokens\":9223372036854775807,\"output_tokens\":-1}}}\n\n" +
		"data: {\"type\":\"message_delta\",\"delta\":{},\"usage\":{\"output_tokens\":9223372036854775807,\"cache_read_input_tokens\":9223372036854775807}}\n\n"))
	p, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKey: "k", MaxToolCalls: 2})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ctx := t.Context()
		resp, ferr := p.readStream(ctx, ctx, bytes.NewReader(in), nil)
		if resp == nil && ferr == nil {
			t.Fatal("neither response nor error")
		}
		if resp != nil && len(resp.ToolCalls) > 2 {
			t.Fatalf("%d tool calls over the cap", len(resp.ToolCalls))
		}
		if resp != nil && !resp.Usage.Possible() {
			t.Fatalf("impossible usage handed back: %+v", resp.Usage)
		}
	})
}

// FuzzDecodeResponse: a non-streamed body decodes or fails, and converts.
func FuzzDecodeResponse(f *testing.F) {
	shapes, _ := filepath.Glob(filepath.Join("testdata", "shapes", "*.json"))
	for _, n := range append([]string{filepath.Join("testdata", "message_tool_use.json")}, shapes...) {
		b, _ := os.ReadFile(n)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if r, err := DecodeResponse(in); err == nil {
			if u := ToResponse(r).Usage; !u.Possible() {
				t.Fatalf("impossible usage %+v", u)
			}
		}
	})
}
