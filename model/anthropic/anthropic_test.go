package anthropic_test

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

const testKey = "sk-ant-test-0123456789abcdefXYZ"

func cfg(url string) anthropic.Config {
	return anthropic.Config{BaseURL: url + "/v1", Model: "claude-sonnet-4-5", APIKey: testKey, Timeout: 5 * time.Second,
		RetryBaseDelay: time.Millisecond, RetryMaxDelay: 5 * time.Millisecond, MaxRetryAfter: time.Second}
}

// serve answers with testdata/NAME (shaped like the Messages API examples
// in Anthropic's documentation: docs.anthropic.com, "Streaming Messages"
// and "Tool use", and its error shapes) and records the request bodies.
func serve(t *testing.T, names ...string) (*httptest.Server, *[][]byte, *http.Header) {
	t.Helper()
	var bodies [][]byte
	var hdr http.Header
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, b)
		hdr = r.Header.Clone()
		if r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		i := int(n.Add(1)) - 1
		name := names[min(i, len(names)-1)]
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Error(err)
			return
		}
		if strings.Contains(name, "529") {
			w.Header().Set("retry-after", "0")
		}
		replay.NewFixture(name, raw).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies, &hdr
}

func newP(t *testing.T, c anthropic.Config) *anthropic.Provider {
	t.Helper()
	p, err := anthropic.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func req(stream bool) model.Request {
	return model.Request{Stream: stream, Messages: model.MarkCachePrefix([]model.Message{
		{Role: model.RoleSystem, Content: "You are terse."},
		{Role: model.RoleUser, Content: "Read notes.txt"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "toolu_0", Name: "fs_read", Arguments: `{"path":"a"}`}}},
		{Role: model.RoleTool, ToolCallID: "toolu_0", Content: "contents"},
		{Role: model.RoleUser, Content: "and?"},
	}), Tools: []model.Tool{{Name: "fs_read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object"}`)}}}
}

func TestEncodeRequestGolden(t *testing.T) {
	b, err := anthropic.EncodeRequest(req(true), "claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal(b, &v)
	got, _ := json.MarshalIndent(v, "", "  ")
	got = append(got, '\n')
	path := filepath.Join("testdata", "request.golden.json")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		_ = os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil || string(want) != string(got) {
		t.Fatalf("request differs from %s:\n%s", path, got)
	}
}

func TestStreamTextCacheUsage(t *testing.T) {
	srv, bodies, hdr := serve(t, "stream_text.sse")
	var deltas strings.Builder
	r := req(true)
	r.OnDelta = func(s string) { deltas.WriteString(s) }
	resp, err := newP(t, cfg(srv.URL)).Complete(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello, world" || deltas.String() != resp.Text || resp.FinishReason != "stop" || !resp.Meta.Streamed {
		t.Fatalf("resp %+v deltas %q", resp, deltas.String())
	}
	u := resp.Usage
	if u.PromptTokens != 10012 || u.CachedTokens != 8000 || u.CacheWriteTokens != 2000 || u.CompletionTokens != 15 || !u.TokensKnown {
		t.Fatalf("usage %+v", u)
	}
	// claude-sonnet-4: input 3, cache read 0.30, cache write 3.75, output 15 per million.
	want := (12*3.0 + 8000*0.30 + 2000*3.75 + 15*15.0) / 1e6
	if !u.CostEstimated || math.Abs(u.CostUSD-want) > 1e-12 {
		t.Fatalf("cost %v, want %v (%+v)", u.CostUSD, want, u)
	}
	if full := (10012*3.0 + 15*15.0) / 1e6; u.CostUSD >= full {
		t.Errorf("cached input not cheaper: %v >= %v", u.CostUSD, full)
	}
	if hdr.Get("x-api-key") != testKey || hdr.Get("anthropic-version") != anthropic.DefaultVersion {
		t.Errorf("headers %v", *hdr)
	}
	if !strings.Contains(string((*bodies)[0]), `"cache_control":{"type":"ephemeral"}`) {
		t.Errorf("no cache_control sent: %s", (*bodies)[0])
	}
}

func TestToolUse(t *testing.T) {
	for _, name := range []string{"stream_tool_use.sse", "message_tool_use.json"} {
		srv, _, _ := serve(t, name)
		resp, err := newP(t, cfg(srv.URL)).Complete(context.Background(), req(strings.HasSuffix(name, ".sse")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(resp.ToolCalls) != 1 || resp.FinishReason != "tool_calls" {
			t.Fatalf("%s: %+v", name, resp)
		}
		// The response names its server by the base URL's host and port.
		if u, _ := url.Parse(srv.URL); resp.Meta.ServerAddress != u.Hostname() || strconv.Itoa(resp.Meta.ServerPort) != u.Port() {
			t.Errorf("%s: server %s:%d, want %s", name, resp.Meta.ServerAddress, resp.Meta.ServerPort, u.Host)
		}
		tc := resp.ToolCalls[0]
		switch name {
		case "stream_tool_use.sse":
			if tc.ID != "toolu_01A" || tc.Name != "fs_read" || tc.Arguments != `{"path":"notes.txt"}` || resp.Reasoning != "I should read the file." || resp.Text != "Reading it." {
				t.Errorf("%s: %+v", name, resp)
			}
		default:
			if tc.ID != "toolu_01B" || tc.Arguments != `{"location":"Oslo","unit":"celsius"}` || resp.Usage.CachedTokens != 1500 || resp.Usage.PromptTokens != 2000 {
				t.Errorf("%s: %+v", name, resp)
			}
		}
	}
}

func TestRefusal(t *testing.T) {
	srv, _, _ := serve(t, "message_refusal.json")
	resp, err := newP(t, cfg(srv.URL)).Complete(context.Background(), req(false))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "" || resp.Refusal != "I can't help with that." || model.Refused(resp) == nil {
		t.Fatalf("%+v", resp)
	}
}

func TestErrors(t *testing.T) {
	// 529 is retried (retry-after honoured), then succeeds.
	srv, bodies, _ := serve(t, "error_overloaded_529.json", "stream_text.sse")
	var retries int
	c := cfg(srv.URL)
	c.OnRetry = func(openai.Retry) { retries++ }
	if _, err := newP(t, c).Complete(context.Background(), req(true)); err != nil || retries != 1 || len(*bodies) != 2 {
		t.Fatalf("err %v retries %d requests %d", err, retries, len(*bodies))
	}
	srv, _, _ = serve(t, "error_invalid_400.json")
	_, err := newP(t, cfg(srv.URL)).Complete(context.Background(), req(false))
	fe := fault.As(err)
	if fe == nil || fe.Kind != model.KindHTTPStatus || fe.Detail["error_message"] != "max_tokens: Field required" || fe.Detail["error_type"] != "invalid_request_error" {
		t.Fatalf("err %v", err)
	}
	// A mid-stream error event: stream_interrupted, usage handed back.
	srv, _, _ = serve(t, "stream_error.sse")
	resp, err := newP(t, cfg(srv.URL)).Complete(context.Background(), req(true))
	fe = fault.As(err)
	if fe == nil || fe.Kind != model.KindStreamInterrupted || fe.Detail["error_type"] != "overloaded_error" || resp == nil || resp.Usage.PromptTokens != 30 {
		t.Fatalf("err %v resp %+v", err, resp)
	}
	// A missing key for the hosted API.
	t.Setenv("ANTHROPIC_API_KEY", "")
	if _, err := anthropic.New(anthropic.Config{Model: "m"}); fault.KindOf(err) != model.KindMissingAPIKey {
		t.Fatalf("missing key: %v", err)
	}
}

// TestKeyNeverLeaks: a server echoing the key in text, tool input and an
// error body has it scrubbed everywhere.
func TestKeyNeverLeaks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		k := r.Header.Get("x-api-key")
		if strings.Contains(r.URL.RawQuery, "") && r.Header.Get("Accept") == "text/event-stream" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key `+k+`"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"key `+strings.ToUpper(k)+`"},{"type":"tool_use","id":"t","name":"f","input":{"k":"`+k+`"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer srv.Close()
	p := newP(t, cfg(srv.URL))
	resp, err := p.Complete(context.Background(), req(false))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(resp); strings.Contains(strings.ToLower(string(b)), strings.ToLower(testKey)) {
		t.Fatalf("key leaked: %s", b)
	}
	_, err = p.Complete(context.Background(), req(true))
	if b, _ := json.Marshal(fault.As(err)); err == nil || strings.Contains(string(b), testKey) || strings.Contains(err.Error(), testKey) {
		t.Fatalf("key leaked in error: %v %s", err, b)
	}
}

// TestReplayServesMessages: the replay server answers /v1/messages from an
// OpenAI-shaped cassette, streamed and not, so cassettes replay through
// this provider too.
func TestReplayServesMessages(t *testing.T) {
	for _, stream := range []bool{false, true} {
		cas := &replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
			replay.Reply("notes", model.Response{Reasoning: "think", ToolCalls: []model.ToolCall{{ID: "toolu_9", Name: "fs_read", Arguments: `{"path":"n"}`}},
				Meta: model.Meta{Model: "claude-haiku-4-5"}, Usage: budget.Usage{PromptTokens: 100, CachedTokens: 60, CompletionTokens: 5, TotalTokens: 105, TokensKnown: true}}),
		}}
		srv := replay.NewServer(cas)
		c := cfg("")
		c.BaseURL = srv.BaseURL()
		resp, err := newP(t, c).Complete(context.Background(), req(stream))
		srv.Close()
		if err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
		if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "toolu_9" || resp.ToolCalls[0].Arguments != `{"path":"n"}` || resp.Reasoning != "think" ||
			resp.Usage.CachedTokens != 60 || resp.Usage.PromptTokens != 100 || resp.Meta.Streamed != stream {
			t.Fatalf("stream %v: %+v", stream, resp)
		}
	}
}

// TestBrokenStreamHandsBackUsage checks the read contract ("a stream that
// failed after usage arrived returns that usage with the error") for a
// stream that breaks after message_start reported the input usage: cut
// before message_stop, or by a dropped connection. The usage used to be
// dropped, so the call was charged nothing.
func TestBrokenStreamHandsBackUsage(t *testing.T) {
	head := "event: message_start\n" +
		`data: {"type":"message_start","message":{"id":"msg_cut","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5","stop_reason":null,"usage":{"input_tokens":30,"output_tokens":1}}}` + "\n\n" +
		"event: content_block_start\n" +
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Par"}}` + "\n\n"
	for _, tt := range []struct {
		name  string
		abort bool
	}{{"ended before message_stop", false}, {"connection dropped", true}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, head)
				w.(http.Flusher).Flush()
				if tt.abort {
					panic(http.ErrAbortHandler)
				}
			}))
			defer srv.Close()
			resp, err := newP(t, cfg(srv.URL)).Complete(context.Background(), req(true))
			if fault.KindOf(err) != model.KindStreamInterrupted {
				t.Fatalf("err %v, want stream_interrupted", err)
			}
			if resp == nil || !resp.Usage.TokensKnown || resp.Usage.PromptTokens != 30 {
				t.Fatalf("usage not handed back: resp %+v", resp)
			}
		})
	}
}
