package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
)

// F1. Ollama >= 0.20 (ollama/ollama#15457) and some vLLM tool parsers
// (ai-dynamo/dynamo#4723) stream each parallel tool call in its own chunk,
// all with "index": 0 but each with its own id. Two calls must come
// back, not one merged call with concatenated arguments.
func TestReusedToolCallIndexWithNewID(t *testing.T) {
	events := []string{
		chunk(`{"role":"assistant","content":null}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"file_write","arguments":"{\"filePath\":"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"hello.py\"}"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"call_b","type":"function","function":{"name":"file_write","arguments":"{\"filePath\":\"world.py\"}"}}]}`, ""),
		chunk(`{}`, "tool_calls"),
		"[DONE]",
	}
	srv, _ := sseServer(events, nil)
	defer srv.Close()
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("write two files", true))
	if err != nil {
		t.Fatal(err)
	}
	want := []model.ToolCall{
		{ID: "call_a", Type: "function", Name: "file_write", Arguments: `{"filePath":"hello.py"}`},
		{ID: "call_b", Type: "function", Name: "file_write", Arguments: `{"filePath":"world.py"}`},
	}
	if fmt.Sprint(resp.ToolCalls) != fmt.Sprint(want) {
		t.Fatalf("tool calls\n got %+v\nwant %+v", resp.ToolCalls, want)
	}
}

// F2. Hugging Face TGI reports a failure inside a stream as
// data: {"error":"...","error_type":"..."} (router/src/server.rs,
// impl From<InferError> for Event). docs/model.md: a stream that carried
// an error (a chunk with error) is stream_interrupted with the server's
// message in error_message.
func TestStreamErrorStringChunk(t *testing.T) {
	events := []string{
		chunk(`{"role":"assistant","content":""}`, ""),
		chunk(`{"content":"Hel"}`, ""),
		`{"error":"Request failed during generation: Server error: CUDA out of memory","error_type":"generation"}`,
	}
	srv, _ := sseServer(events, nil)
	defer srv.Close()
	_, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", true))
	fe := wantKind(t, err, model.KindStreamInterrupted)
	if fe.Detail["error_message"] != "Request failed during generation: Server error: CUDA out of memory" {
		t.Fatalf("error_message = %v", fe.Detail["error_message"])
	}
}

// F3. A non-streamed completion with more tool calls than the cap is
// too_many_tool_calls; the server billed it (usage in the body), so the
// usage must be handed back with the error, as it is for the same
// response streamed (docs/model.md, stream_interrupted row; "usage the
// server billed is never lost").
func TestNonStreamTooManyToolCallsHandsBackUsage(t *testing.T) {
	var calls []string
	for i := range 3 {
		calls = append(calls, fmt.Sprintf(`{"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}`, i))
	}
	body := `{"id":"chatcmpl-x","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"finish_reason":"tool_calls",` +
		`"message":{"role":"assistant","content":null,"tool_calls":[` + strings.Join(calls, ",") + `]}}],` +
		`"usage":{"prompt_tokens":1000,"completion_tokens":60,"total_tokens":1060}}`
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) { writeCompletion(w, body) })
	defer srv.Close()
	cfg := fast(srv.URL)
	cfg.MaxToolCalls = 2
	resp, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
	wantKind(t, err, model.KindTooManyToolCalls)
	if resp == nil || !resp.Usage.TokensKnown || resp.Usage.TotalTokens != 1060 {
		t.Fatalf("billed usage not handed back: resp %+v", resp)
	}
}

// F4. An attempt whose error body is still arriving when Config.Timeout
// passes exceeded Timeout: docs/model.md says it is Kind timeout and not
// retried. It is retried instead, each attempt taking the full Timeout.
func TestErrorBodyPastTimeoutNotRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":{"message":"upstream`)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the rest of the body never comes
	}))
	defer srv.Close()
	cfg := fast(srv.URL)
	// Long enough that a loaded machine delivers the request and the
	// error's head within it: only the body's stall is to time out.
	cfg.Timeout = time.Second
	cfg.MaxRetries = 2
	start := time.Now()
	_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
	fe := fault.As(err)
	if fe == nil || fe.Kind != fault.KindTimeout || n.Load() != 1 {
		t.Fatalf("after %v: %d attempts, err %v; want one attempt and Kind timeout", time.Since(start).Round(time.Millisecond), n.Load(), err)
	}
}

// F5. The replay server answers a streaming request from a hand-written
// cassette differently than a non-streaming one: the legacy
// function_call (Azure) and Mistral-style thinking content parts are read
// by openai.ResponseFromCompletion (so by the non-streamed path and the
// /v1/messages path) but dropped by the chunk stream.
func TestReplayStreamKeepsWhatJSONKeeps(t *testing.T) {
	c := cassette(t, `{"version":1,"interactions":[
	 {"response":{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"function_call",
	   "message":{"role":"assistant","content":null,"function_call":{"name":"lookup","arguments":"{\"q\":1}"}}}]}},
	 {"response":{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop",
	   "message":{"role":"assistant","content":[{"type":"thinking","thinking":"2 and 2"},{"type":"text","text":"4"}]}}]}}]}`)
	get := func(stream bool) []*model.Response {
		srv := replay.NewServer(c)
		defer srv.Close()
		p := newProvider(t, fast(srv.BaseURL()))
		var out []*model.Response
		for range 2 {
			resp, err := p.Complete(context.Background(), userReq("q", stream))
			if err != nil {
				t.Fatalf("stream=%v: %v", stream, err)
			}
			out = append(out, resp)
		}
		return out
	}
	js, st := get(false), get(true)
	for i := range js {
		if fmt.Sprint(js[i].ToolCalls) != fmt.Sprint(st[i].ToolCalls) || js[i].Reasoning != st[i].Reasoning || js[i].Text != st[i].Text {
			t.Errorf("interaction %d differs\n json:   calls %+v reasoning %q text %q\n stream: calls %+v reasoning %q text %q",
				i, js[i].ToolCalls, js[i].Reasoning, js[i].Text, st[i].ToolCalls, st[i].Reasoning, st[i].Text)
		}
	}
}
