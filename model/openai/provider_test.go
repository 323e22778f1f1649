package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	_ "github.com/rlm-go/rlm/bpe" // exact counts for OpenAI models, as the rlm command links them
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fast returns a config with tiny backoffs for tests.
func fast(baseURL string) openai.Config {
	return openai.Config{
		BaseURL:        baseURL,
		Model:          "gpt-4o-mini",
		APIKey:         "sk-test-key",
		Timeout:        5 * time.Second,
		RetryBaseDelay: time.Millisecond,
		RetryMaxDelay:  5 * time.Millisecond,
		MaxRetryAfter:  2 * time.Second,
	}
}

func newProvider(t *testing.T, cfg openai.Config) *openai.Provider {
	t.Helper()
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

func userReq(text string, stream bool) model.Request {
	return model.Request{Messages: []model.Message{
		{Role: model.RoleSystem, Content: "You are terse."},
		{Role: model.RoleUser, Content: text},
	}, Stream: stream}
}

// wantKind fails unless err is a provider *fault.Error of kind k.
func wantKind(t *testing.T, err error, k fault.Kind) *fault.Error {
	t.Helper()
	fe := fault.As(err)
	if fe == nil {
		t.Fatalf("error %v (%T) is not a *fault.Error; want kind %s", err, err, k)
	}
	if fe.Kind != k || fe.Phase != fault.PhaseProvider {
		t.Fatalf("got %s/%s (%v), want provider/%s", fe.Phase, fe.Kind, err, k)
	}
	return fe
}

const textCompletion = `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini-2024-07-18",
 "choices":[{"index":0,"message":{"role":"assistant","content":"Paris is the capital of France."},"finish_reason":"stop"}],
 "usage":{"prompt_tokens":20,"completion_tokens":8,"total_tokens":28}}`

const toolCompletion = `{"id":"chatcmpl-2","object":"chat.completion","created":1700000001,"model":"gpt-4o-mini-2024-07-18",
 "choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[
   {"id":"call_a","type":"function","function":{"name":"search","arguments":"{\"pattern\":\"needle\",\"max_results\":5}"}},
   {"id":"call_b","type":"function","function":{"name":"peek","arguments":"{\"head\":100}"}}]},
  "finish_reason":"tool_calls"}],
 "usage":{"prompt_tokens":50,"completion_tokens":30,"total_tokens":80,"cost":0.00042}}`

func cassette(t *testing.T, js string) *replay.Cassette {
	t.Helper()
	c, err := replay.Parse([]byte(js))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func TestReplayServer(t *testing.T) {
	c := cassette(t, `{"version":1,"interactions":[
		{"match":{"contains":"capital of France"},"response":`+textCompletion+`},
		{"match":{"contains":"find the needle"},"response":`+toolCompletion+`}]}`)
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			srv := replay.NewServer(c)
			defer srv.Close()
			p := newProvider(t, fast(srv.BaseURL()))
			ctx := context.Background()

			resp, err := p.Complete(ctx, userReq("What is the capital of France?", stream))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "Paris is the capital of France." || resp.FinishReason != "stop" {
				t.Errorf("text/finish = %q/%q", resp.Text, resp.FinishReason)
			}
			m := resp.Meta
			if m.HTTPStatus != 200 || m.Attempts != 1 || m.Streamed != stream || m.Model != "gpt-4o-mini-2024-07-18" || m.ID != "chatcmpl-1" || m.Provider != openai.DefaultName {
				t.Errorf("meta = %+v", m)
			}
			u := resp.Usage
			if !u.TokensKnown || u.PromptTokens != 20 || u.CompletionTokens != 8 || u.TotalTokens != 28 || u.Calls != 1 {
				t.Errorf("usage = %+v", u)
			}
			if u.CostKnown || !u.CostEstimated || math.Abs(u.CostUSD-(20*0.15+8*0.60)/1e6) > 1e-12 {
				t.Errorf("estimated cost = %+v", u)
			}

			resp, err = p.Complete(ctx, userReq("Please find the needle.", stream))
			if err != nil {
				t.Fatal(err)
			}
			want := []model.ToolCall{
				{ID: "call_a", Type: "function", Name: "search", Arguments: `{"pattern":"needle","max_results":5}`},
				{ID: "call_b", Type: "function", Name: "peek", Arguments: `{"head":100}`},
			}
			if fmt.Sprint(resp.ToolCalls) != fmt.Sprint(want) || resp.Text != "" || resp.FinishReason != "tool_calls" {
				t.Errorf("tool calls = %+v text %q finish %q", resp.ToolCalls, resp.Text, resp.FinishReason)
			}
			if !resp.Usage.CostKnown || resp.Usage.CostEstimated || resp.Usage.CostUSD != 0.00042 {
				t.Errorf("known cost = %+v", resp.Usage)
			}

			_, err = p.Complete(ctx, userReq("What is the capital of France?", stream))
			fe := wantKind(t, err, model.KindHTTPStatus)
			if fe.Detail["status"] != replay.ExhaustedStatus || fe.Detail["error_code"] != replay.ExhaustedCode || fe.Detail["attempts"] != 1 {
				t.Errorf("exhaustion detail = %v", fe.Detail)
			}
			if st := srv.Stats(); st.Requests != 3 || st.Served != 2 || st.Exhausted != 1 || st.Remaining != 0 {
				t.Errorf("stats = %+v", st)
			}
		})
	}
}

func TestReplayMatchOrder(t *testing.T) {
	mk := func(id, text string) string {
		return `{"id":"` + id + `","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"` + text + `"},"finish_reason":"stop"}]}`
	}
	c := cassette(t, `{"version":1,"interactions":[
		{"match":{"contains":"alpha"},"response":`+mk("1", "A1")+`},
		{"match":{"contains":"alpha"},"response":`+mk("2", "A2")+`},
		{"match":{"contains":"alpha","model":"other"},"response":`+mk("3", "A3")+`},
		{"response":`+mk("4", "ANY")+`}]}`)
	srv := replay.NewServer(c)
	defer srv.Close()
	p := newProvider(t, fast(srv.URL()))
	steps := []struct {
		prompt, model, want string
		exhausted           bool
	}{
		{"beta", "", "ANY", false},
		{"alpha", "", "A1", false},
		{"alpha", "", "A2", false},
		{"alpha", "", "", true},
		{"alpha", "other", "A3", false},
	}
	for i, s := range steps {
		req := userReq(s.prompt, i%2 == 1)
		req.Model = s.model
		resp, err := p.Complete(context.Background(), req)
		if s.exhausted {
			wantKind(t, err, model.KindHTTPStatus)
			continue
		}
		if err != nil || resp.Text != s.want {
			t.Fatalf("step %d: resp %+v err %v, want %q", i, resp, err, s.want)
		}
	}
}

func TestReplayInjectedErrorIsRetried(t *testing.T) {
	c := cassette(t, `{"version":1,"interactions":[
		{"status":429,"retry_after":"0","error_body":{"error":{"message":"slow down","type":"rate_limit","code":"rate_limited"}}},
		{"response":`+textCompletion+`}]}`)
	srv := replay.NewServer(c)
	defer srv.Close()
	p := newProvider(t, fast(srv.BaseURL()))
	resp, err := p.Complete(context.Background(), userReq("hi", false))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Meta.Attempts != 2 {
		t.Errorf("attempts = %d, want 2", resp.Meta.Attempts)
	}
}

// counting wraps h and counts requests.
func counting(h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	n := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	return srv, n
}

func writeCompletion(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, body)
}

func TestRetryAfterHonoured(t *testing.T) {
	tests := []struct {
		name    string
		header  string
		value   string
		maxWait time.Duration
		minGap  time.Duration
		maxGap  time.Duration
	}{
		{"seconds", "Retry-After", "1", 5 * time.Second, time.Second, 3 * time.Second},
		{"seconds capped", "Retry-After", "30", 150 * time.Millisecond, 150 * time.Millisecond, 2 * time.Second},
		{"milliseconds", "Retry-After-Ms", "120", 5 * time.Second, 120 * time.Millisecond, 2 * time.Second},
		{"http date", "Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), 100 * time.Millisecond, 100 * time.Millisecond, 2 * time.Second},
		// Values past int64 or the duration range are capped, not ignored
		// (ignored, the retry came after a jittered backoff of at most 5 ms).
		{"seconds beyond int64", "Retry-After", "99999999999999999999", 150 * time.Millisecond, 150 * time.Millisecond, 2 * time.Second},
		{"milliseconds beyond range", "Retry-After-Ms", "1e13", 150 * time.Millisecond, 150 * time.Millisecond, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var times []time.Time
			srv, n := counting(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				times = append(times, time.Now())
				mu.Unlock()
				if len(times) == 1 {
					w.Header().Set(tt.header, tt.value)
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusTooManyRequests)
					io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`)
					return
				}
				writeCompletion(w, textCompletion)
			})
			defer srv.Close()
			cfg := fast(srv.URL)
			cfg.MaxRetryAfter = tt.maxWait
			p := newProvider(t, cfg)
			resp, err := p.Complete(context.Background(), userReq("hi", false))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Meta.Attempts != 2 || n.Load() != 2 {
				t.Fatalf("attempts = %d, server saw %d", resp.Meta.Attempts, n.Load())
			}
			if gap := times[1].Sub(times[0]); gap < tt.minGap || gap > tt.maxGap {
				t.Errorf("gap between attempts %v, want in [%v, %v]", gap, tt.minGap, tt.maxGap)
			}
		})
	}
}

func TestRetryPolicy(t *testing.T) {
	tests := []struct {
		status    int
		retryable bool
	}{
		{400, false}, {401, false}, {403, false}, {404, false}, {422, false},
		{408, true}, {409, true}, {429, true}, {500, true}, {502, true}, {503, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			srv, n := counting(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				io.WriteString(w, `{"error":{"message":"nope","type":"x","code":null}}`)
			})
			defer srv.Close()
			cfg := fast(srv.URL)
			cfg.MaxRetries = 2
			p := newProvider(t, cfg)
			_, err := p.Complete(context.Background(), userReq("hi", false))
			fe := wantKind(t, err, model.KindHTTPStatus)
			want := 1
			if tt.retryable {
				want = 3
			}
			if int(n.Load()) != want || fe.Detail["attempts"] != want || fe.Detail["status"] != tt.status {
				t.Errorf("server saw %d requests, detail %v; want %d attempts", n.Load(), fe.Detail, want)
			}
			if fe.Detail["error_message"] != "nope" || fe.Detail["error_type"] != "x" {
				t.Errorf("detail = %v", fe.Detail)
			}
			if _, ok := fe.Detail["error_code"]; ok {
				t.Errorf("null code reported: %v", fe.Detail)
			}
		})
	}
}

func TestNoRetries(t *testing.T) {
	srv, n := counting(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	defer srv.Close()
	cfg := fast(srv.URL)
	cfg.MaxRetries = -1
	_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
	wantKind(t, err, model.KindHTTPStatus)
	if n.Load() != 1 {
		t.Fatalf("server saw %d requests, want 1", n.Load())
	}
}

func TestBodyExcerptBounded(t *testing.T) {
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		io.WriteString(w, strings.Repeat("é", 10000))
	})
	defer srv.Close()
	_, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", false))
	fe := wantKind(t, err, model.KindHTTPStatus)
	ex, _ := fe.Detail["body_excerpt"].(string)
	if len(ex) > openai.MaxBodyExcerpt+len("…") || len(ex) < openai.MaxBodyExcerpt/2 || !strings.HasPrefix(ex, "éé") {
		t.Fatalf("excerpt has %d bytes", len(ex))
	}
}

func TestTransportErrorRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	cfg := fast(url)
	cfg.MaxRetries = 2
	_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
	fe := wantKind(t, err, model.KindTransport)
	if fe.Detail["attempts"] != 3 {
		t.Errorf("attempts = %v, want 3", fe.Detail["attempts"])
	}
}

// sseServer streams the given data payloads, flushing after each.
func sseServer(events []string, then func(w http.ResponseWriter)) (*httptest.Server, *atomic.Int32) {
	return counting(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for _, e := range events {
			fmt.Fprintf(w, "data: %s\n\n", e)
			w.(http.Flusher).Flush()
		}
		if then != nil {
			then(w)
		}
	})
}

const chunkHead = `"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"m"`

func chunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{` + chunkHead + `,"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
}

func TestStreamInterrupted(t *testing.T) {
	partial := []string{chunk(`{"role":"assistant","content":""}`, ""), chunk(`{"content":"Hel"}`, "")}
	tests := []struct {
		name   string
		events []string
		then   func(w http.ResponseWriter)
		detail map[string]any
	}{
		{"connection aborted", partial, func(http.ResponseWriter) { panic(http.ErrAbortHandler) }, nil},
		{"error event (500 after partial stream)", append(partial, `{"error":{"message":"upstream provider failed","code":500}}`), nil,
			map[string]any{"error_message": "upstream provider failed", "error_code": "500"}},
		{"ended without DONE", partial, nil, nil},
		{"error event type", partial, func(w http.ResponseWriter) {
			io.WriteString(w, "event: error\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n")
		}, map[string]any{"error_message": "overloaded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := sseServer(tt.events, tt.then)
			defer srv.Close()
			start := time.Now()
			resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", true))
			if resp != nil {
				t.Fatalf("got a response %+v", resp)
			}
			fe := wantKind(t, err, model.KindStreamInterrupted)
			if n.Load() != 1 || fe.Detail["attempts"] != 1 {
				t.Errorf("retried after streaming began: server saw %d, detail %v", n.Load(), fe.Detail)
			}
			for k, v := range tt.detail {
				if fe.Detail[k] != v {
					t.Errorf("detail[%s] = %v, want %v", k, fe.Detail[k], v)
				}
			}
			if time.Since(start) > 2*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
		})
	}
}

// TestBrokenStreamHandsBackUsage checks that a stream which breaks after
// the server reported usage (Perplexity sends it with every chunk) hands
// that usage back with stream_interrupted, as a mid-stream error event
// does, so the failed call is charged. It used to be dropped.
func TestBrokenStreamHandsBackUsage(t *testing.T) {
	withUsage := `{` + chunkHead + `,"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}],"usage":{"prompt_tokens":11,"completion_tokens":3,"total_tokens":14}}`
	events := []string{chunk(`{"role":"assistant","content":""}`, ""), withUsage}
	for _, tt := range []struct {
		name string
		then func(http.ResponseWriter)
		kind fault.Kind
	}{
		{"connection aborted", func(http.ResponseWriter) { panic(http.ErrAbortHandler) }, model.KindStreamInterrupted},
		{"ended without DONE", nil, model.KindStreamInterrupted},
		// Any other end of the stream hands the usage back too.
		{"malformed event", func(w http.ResponseWriter) { io.WriteString(w, "data: {not json}\n\n") }, model.KindMalformedResponse},
		{"too many tool calls", func(w http.ResponseWriter) {
			var calls []string
			for i := range 3 {
				calls = append(calls, fmt.Sprintf(`{"index":%d,"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}`, i, i))
			}
			io.WriteString(w, "data: "+chunk(`{"tool_calls":[`+strings.Join(calls, ",")+`]}`, "")+"\n\n")
		}, model.KindTooManyToolCalls},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := sseServer(events, tt.then)
			defer srv.Close()
			cfg := fast(srv.URL)
			cfg.MaxToolCalls = 2
			resp, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", true))
			wantKind(t, err, tt.kind)
			if resp == nil || !resp.Usage.TokensKnown || resp.Usage.PromptTokens != 11 || resp.Usage.TotalTokens != 14 {
				t.Fatalf("usage not handed back: resp %+v", resp)
			}
			if resp.Text != "" {
				t.Errorf("a failed stream handed back text %q", resp.Text)
			}
		})
	}
}

// TestStreamWithByteOrderMark checks that a stream starting with a UTF-8
// byte-order mark (recognised as a stream by the sniffing, and skipped by
// the event-stream grammar) keeps its first event: the mark used to be
// read as part of the first field name, so the first chunk was lost.
func TestStreamWithByteOrderMark(t *testing.T) {
	for _, ct := range []string{"text/event-stream", ""} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			io.WriteString(w, "\xef\xbb\xbfdata: "+chunk(`{"content":"Hello"}`, "")+"\n\n")
			io.WriteString(w, "data: "+chunk(`{"content":" world"}`, "stop")+"\n\ndata: [DONE]\n\n")
		}))
		resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", false))
		srv.Close()
		if err != nil {
			t.Fatalf("content type %q: %v", ct, err)
		}
		if resp.Text != "Hello world" || !resp.Meta.Streamed {
			t.Errorf("content type %q: text %q streamed %v", ct, resp.Text, resp.Meta.Streamed)
		}
	}
}

func TestStreamToolCallsManyChunks(t *testing.T) {
	var events []string
	events = append(events, chunk(`{"role":"assistant","content":null}`, ""))
	// Two interleaved calls whose names and arguments arrive piecemeal; the
	// first call's name is resent in full, as some servers do.
	args0 := `{"pattern":"ünïcödé needle","max_results":10}`
	args1 := `{"n":1}`
	events = append(events, chunk(`{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"sea","arguments":""}}]}`, ""))
	events = append(events, chunk(`{"tool_calls":[{"index":0,"function":{"name":"rch"}}]}`, ""))
	events = append(events, chunk(`{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"peek"}}]}`, ""))
	for i, r := range []rune(args0) {
		frag, _ := json.Marshal(string(r))
		events = append(events, chunk(`{"tool_calls":[{"index":0,"function":{"arguments":`+string(frag)+`}}]}`, ""))
		if i < len(args1) {
			frag, _ := json.Marshal(args1[i : i+1])
			events = append(events, chunk(`{"tool_calls":[{"index":1,"function":{"name":"peek","arguments":`+string(frag)+`}}]}`, ""))
		}
	}
	events = append(events, chunk(`{}`, "tool_calls"),
		`{`+chunkHead+`,"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12,"cost":0.5}}`, "[DONE]")
	srv, _ := sseServer(events, nil)
	defer srv.Close()
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", true))
	if err != nil {
		t.Fatal(err)
	}
	want := []model.ToolCall{
		{ID: "call_0", Type: "function", Name: "search", Arguments: args0},
		{ID: "call_1", Type: "function", Name: "peek", Arguments: args1},
	}
	if fmt.Sprint(resp.ToolCalls) != fmt.Sprint(want) {
		t.Fatalf("tool calls\n got %+v\nwant %+v", resp.ToolCalls, want)
	}
	if resp.FinishReason != "tool_calls" || !resp.Meta.Streamed || resp.Usage.TotalTokens != 12 || !resp.Usage.CostKnown || resp.Usage.CostUSD != 0.5 {
		t.Fatalf("resp = %+v", resp)
	}
}

func TestStreamReasoningAndComments(t *testing.T) {
	body := ": OPENROUTER PROCESSING\n\n" +
		"data: " + chunk(`{"role":"assistant","reasoning":"think "}`, "") + "\n\n" +
		"data: " + chunk(`{"reasoning_content":"hard"}`, "") + "\r\n\r\n" +
		"data: " + chunk(`{"content":"4"}`, "stop") + "\n\n" +
		"data: [DONE]\n\n"
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		io.WriteString(w, body)
	})
	defer srv.Close()
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("2+2", true))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "4" || resp.Reasoning != "think hard" || resp.Usage.TokensKnown || resp.Usage.CostEstimated {
		t.Fatalf("resp = %+v", resp)
	}
}

func TestStreamWithoutContentType(t *testing.T) {
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no sniffing
		io.WriteString(w, "data: "+chunk(`{"content":"ok"}`, "stop")+"\n\ndata: [DONE]\n\n")
	})
	defer srv.Close()
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", true))
	if err != nil || resp.Text != "ok" || !resp.Meta.Streamed {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestStreamFallsBackToJSON(t *testing.T) {
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) { writeCompletion(w, textCompletion) })
	defer srv.Close()
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", true))
	if err != nil || resp.Text != "Paris is the capital of France." || resp.Meta.Streamed {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

func TestMalformedResponse(t *testing.T) {
	tests := []struct {
		name, ctype, body string
		stream            bool
	}{
		{"not json", "application/json", `{"id": "x", "choices": [`, false},
		{"html", "text/html", `<html>gateway</html>`, false},
		{"no choices", "application/json", `{"id":"x","object":"chat.completion","choices":[]}`, false},
		{"wrong types", "application/json", `{"id":"x","choices":[{"message":{"content":42}}]}`, false},
		{"bad chunk", "text/event-stream", "data: {\"choices\": nope}\n\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := counting(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				io.WriteString(w, tt.body)
			})
			defer srv.Close()
			_, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", tt.stream))
			fe := wantKind(t, err, model.KindMalformedResponse)
			if n.Load() != 1 || fe.Detail["body_excerpt"] == nil {
				t.Errorf("server saw %d; detail %v", n.Load(), fe.Detail)
			}
		})
	}
}

func TestErrorWith200(t *testing.T) {
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
		writeCompletion(w, `{"error":{"message":"No endpoints found","code":404}}`)
	})
	defer srv.Close()
	_, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", false))
	fe := wantKind(t, err, model.KindHTTPStatus)
	if fe.Detail["error_code"] != "404" {
		t.Fatalf("detail = %v", fe.Detail)
	}
}

// blocking is a server that answers only when the client goes away.
func blocking() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
}

func TestTimeout(t *testing.T) {
	t.Run("slow headers", func(t *testing.T) {
		srv := blocking()
		defer srv.Close()
		cfg := fast(srv.URL)
		cfg.Timeout = 100 * time.Millisecond
		start := time.Now()
		_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
		wantKind(t, err, fault.KindTimeout)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("slow stream", func(t *testing.T) {
		srv, n := sseServer([]string{chunk(`{"content":"a"}`, "")}, func(w http.ResponseWriter) {
			time.Sleep(2 * time.Second)
		})
		defer srv.Close()
		cfg := fast(srv.URL)
		cfg.Timeout = 150 * time.Millisecond
		_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", true))
		wantKind(t, err, fault.KindTimeout)
		if n.Load() != 1 {
			t.Errorf("timed-out stream retried: %d requests", n.Load())
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		srv := blocking()
		defer srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := newProvider(t, fast(srv.URL)).Complete(ctx, userReq("hi", false))
		wantKind(t, err, fault.KindTimeout)
	})
}

func TestCancelled(t *testing.T) {
	t.Run("in flight", func(t *testing.T) {
		srv := blocking()
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := newProvider(t, fast(srv.URL)).Complete(ctx, userReq("hi", false))
		wantKind(t, err, fault.KindCancelled)
		if d := time.Since(start); d > time.Second {
			t.Errorf("cancellation took %v", d)
		}
	})
	t.Run("during backoff", func(t *testing.T) {
		srv, n := counting(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(503)
		})
		defer srv.Close()
		cfg := fast(srv.URL)
		cfg.MaxRetryAfter = time.Minute
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// Cancelled once the first attempt failed and the 60 s back-off
		// begins (OnRetry), not after a fixed delay: a first round trip
		// slower than the delay was cancelled in flight instead.
		var wait time.Duration
		var cancelled time.Time
		cfg.OnRetry = func(r openai.Retry) { wait, cancelled = r.Wait, time.Now(); cancel() }
		_, err := newProvider(t, cfg).Complete(ctx, userReq("hi", false))
		fe := wantKind(t, err, fault.KindCancelled)
		if cancelled.IsZero() {
			t.Fatalf("no retry was announced: %v", fe.Detail)
		}
		if d := time.Since(cancelled); d >= wait || n.Load() != 1 || fe.Detail["last_error_kind"] != "http_status" {
			t.Errorf("returned %v after the cancellation (back-off %v), %d requests, detail %v", d, wait, n.Load(), fe.Detail)
		}
	})
	t.Run("before start", func(t *testing.T) {
		srv, n := counting(func(w http.ResponseWriter, r *http.Request) {})
		defer srv.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newProvider(t, fast(srv.URL)).Complete(ctx, userReq("hi", false))
		wantKind(t, err, fault.KindCancelled)
		if n.Load() != 0 {
			t.Errorf("request sent after cancellation")
		}
	})
}

// TestCancelledErrorsCarryModel checks the documented details of every
// provider error ("attempts", "model", "provider", "host") on the two
// paths where the context ends outside an attempt: before the first one
// and while waiting to retry. Both used to leave "model" out.
func TestCancelledErrorsCarryModel(t *testing.T) {
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(503)
	})
	defer srv.Close()
	cfg := fast(srv.URL)
	cfg.MaxRetryAfter = time.Minute
	for _, tt := range []struct {
		name    string
		backoff bool // cancel when the back-off begins; false: before the call
	}{{"before start", false}, {"during backoff", true}} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := cfg
			if tt.backoff {
				cfg.OnRetry = func(openai.Retry) { cancel() }
			} else {
				cancel()
			}
			_, err := newProvider(t, cfg).Complete(ctx, userReq("hi", false))
			fe := wantKind(t, err, fault.KindCancelled)
			for _, k := range []string{"attempts", "model", "provider", "host"} {
				if _, ok := fe.Detail[k]; !ok {
					t.Errorf("detail %q missing: %v", k, fe.Detail)
				}
			}
			if fe.Detail["model"] != "gpt-4o-mini" {
				t.Errorf("model = %v", fe.Detail["model"])
			}
		})
	}
}

func TestUnknownFieldsAndCost(t *testing.T) {
	tests := []struct {
		name          string
		body          string
		wantReasoning string
		cost          float64
		known, est    bool
	}{
		{"openrouter extras, cost known", `{"id":"gen-1","provider":"DeepInfra","object":"chat.completion","created":1,"model":"meta-llama/llama-3.1-8b-instruct",
		  "choices":[{"logprobs":null,"finish_reason":"stop","native_finish_reason":"stop","index":0,
		    "message":{"role":"assistant","content":"ok","refusal":null,"reasoning":"because","reasoning_details":[{"type":"reasoning.text","text":"because"}]}}],
		  "usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12,"cost":0.0000031,"is_byok":false,
		    "prompt_tokens_details":{"cached_tokens":0},"cost_details":{"upstream_inference_cost":null},"completion_tokens_details":{"reasoning_tokens":1}}}`,
			"because", 0.0000031, true, false},
		{"reasoning_content, estimated", `{"id":"x","object":"chat.completion","model":"gpt-4o","system_fingerprint":"fp","service_tier":"default",
		  "choices":[{"index":0,"message":{"role":"assistant","content":[{"type":"text","text":"o"},{"type":"text","text":"k"}],"reasoning_content":"r","annotations":[]},"finish_reason":"stop"}],
		  "usage":{"prompt_tokens":1000000,"completion_tokens":1000000,"total_tokens":2000000}}`,
			"r", 12.5, false, true},
		{"unpriced model, no cost", `{"id":"x","object":"chat.completion","model":"my-local-model","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],
		  "usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`, "", 0, false, false},
		// No usage: tokens counted with the tokenizer (20 prompt, 1
		// completion, issue 17 item 6) and priced.
		{"no usage, tokens estimated", `{"id":"x","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`,
			"", 20*2.5e-6 + 1*10e-6, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := counting(func(w http.ResponseWriter, r *http.Request) { writeCompletion(w, tt.body) })
			defer srv.Close()
			resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", false))
			if err != nil {
				t.Fatal(err)
			}
			u := resp.Usage
			if resp.Text != "ok" || resp.Reasoning != tt.wantReasoning || u.CostKnown != tt.known || u.CostEstimated != tt.est || math.Abs(u.CostUSD-tt.cost) > 1e-12 {
				t.Fatalf("resp = %+v", resp)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	var got http.Header
	var body map[string]any
	srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		json.NewDecoder(r.Body).Decode(&body)
		if r.URL.Path != "/api/v1/chat/completions" || r.Method != http.MethodPost {
			w.WriteHeader(404)
			return
		}
		writeCompletion(w, textCompletion)
	})
	defer srv.Close()
	cfg := fast(srv.URL + "/api/v1/")
	cfg.Headers = map[string]string{"HTTP-Referer": "https://example.org", "X-Title": "rlm tests"}
	if _, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", true)); err != nil {
		t.Fatal(err)
	}
	if got.Get("Authorization") != "Bearer sk-test-key" || got.Get("X-Title") != "rlm tests" || got.Get("HTTP-Referer") != "https://example.org" ||
		got.Get("Content-Type") != "application/json" || got.Get("Accept") != "text/event-stream" {
		t.Fatalf("headers = %v", got)
	}
	if body["stream"] != true || fmt.Sprint(body["stream_options"]) != "map[include_usage:true]" || body["model"] != "gpt-4o-mini" {
		t.Fatalf("body = %v", body)
	}

	// A local server without a key gets no Authorization header.
	t.Setenv("OPENAI_API_KEY", "")
	cfg = fast(srv.URL + "/api/v1")
	cfg.APIKey = ""
	if _, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false)); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["Authorization"]; ok {
		t.Fatalf("Authorization sent without a key: %v", got)
	}
}

func TestAPIKeyFromEnv(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENROUTER_API_KEY", "")
	t.Setenv("MY_KEY", "")
	tests := []struct {
		name, base, env string
		setenv          map[string]string
		wantErr         bool
		wantEnv         string
	}{
		{"openai default, missing", "", "", nil, true, "OPENAI_API_KEY"},
		{"openrouter, missing", "https://openrouter.ai/api/v1", "", nil, true, "OPENROUTER_API_KEY"},
		{"openrouter, present", "https://openrouter.ai/api/v1", "", map[string]string{"OPENROUTER_API_KEY": "k"}, false, ""},
		{"custom env, missing", "https://api.openai.com/v1", "MY_KEY", map[string]string{"OPENAI_API_KEY": "k"}, true, "MY_KEY"},
		{"custom env, present", "", "MY_KEY", map[string]string{"MY_KEY": "k"}, false, ""},
		{"ollama needs none", "http://localhost:11434/v1", "", nil, false, ""},
		{"vllm needs none", "http://127.0.0.1:8000/v1", "", nil, false, ""},
		{"named env on a local server, missing", "http://127.0.0.1:8000/v1", "MY_KEY", nil, true, "MY_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.setenv {
				t.Setenv(k, v)
			}
			_, err := openai.New(openai.Config{BaseURL: tt.base, APIKeyEnv: tt.env, Model: "m"})
			if !tt.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			fe := fault.As(err)
			if fe == nil || fe.Phase != fault.PhaseConfig || fe.Kind != model.KindMissingAPIKey || fe.Hint == "" {
				t.Fatalf("got %v, want config/missing_api_key with a hint", err)
			}
			if fe.Detail["env"] != tt.wantEnv {
				t.Fatalf("detail = %v", fe.Detail)
			}
		})
	}
	_, err := openai.New(openai.Config{BaseURL: "ftp://x", APIKey: "k"})
	wantKind(t, err, fault.KindInvalidConfig)
}

func TestInvalidRequest(t *testing.T) {
	p := newProvider(t, fast("http://127.0.0.1:1/v1"))
	tests := []model.Request{
		{},
		{Messages: []model.Message{{Role: "robot", Content: "x"}}},
		{Messages: []model.Message{{Role: model.RoleTool, Content: "x"}}},
		{Messages: []model.Message{{Role: model.RoleUser, Content: "x"}}, ToolChoice: model.ToolChoice{Mode: "sometimes"}},
		{Messages: []model.Message{{Role: model.RoleUser, Content: "x"}}, ToolChoice: model.ToolChoice{Mode: "function"}},
		{Messages: []model.Message{{Role: model.RoleUser, Content: "x"}}, Tools: []model.Tool{{Name: "t", Parameters: json.RawMessage(`{`)}}},
	}
	for i, req := range tests {
		_, err := p.Complete(context.Background(), req)
		if fault.KindOf(err) != model.KindInvalidRequest {
			t.Errorf("case %d: err = %v", i, err)
		}
	}
	noModel := newProvider(t, openai.Config{BaseURL: "http://127.0.0.1:1/v1"})
	if _, err := noModel.Complete(context.Background(), userReq("x", false)); fault.KindOf(err) != model.KindInvalidRequest {
		t.Errorf("no model: err = %v", err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	srv, n := counting(func(w http.ResponseWriter, r *http.Request) { writeCompletion(w, textCompletion) })
	defer srv.Close()
	p := newProvider(t, fast(srv.URL))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			_, err := p.Complete(context.Background(), userReq("hi", i%2 == 0))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n.Load() != 8 {
		t.Fatalf("requests = %d", n.Load())
	}
}

// TestConcurrentRequestsReuseConnections: a provider without an HTTP
// client of its own keeps its connections to the API host, so rounds of
// 48 concurrent requests (a map at --max-concurrency 48) open at most 48
// connections, not one per request after the first round (the standard
// library's default transport keeps 2 idle connections per host).
func TestConcurrentRequestsReuseConnections(t *testing.T) {
	const width, rounds = 48, 5
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, textCompletion)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	p := newProvider(t, fast(srv.URL+"/v1"))
	for range rounds {
		var wg sync.WaitGroup
		for range width {
			wg.Go(func() {
				if _, err := p.Complete(context.Background(), userReq("capital?", false)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	// Without reuse every request dials (width*rounds connections). With
	// it a round dials only where a connection of the round before is not
	// yet back in the idle pool: net/http returns it from the connection's
	// read loop after the body is read, so under load a few of a round's
	// requests can start before theirs is back. Twice the width still
	// proves reuse, never depending on that timing.
	if n := opened.Load(); n > 2*width {
		t.Fatalf("%d rounds of %d concurrent requests opened %d connections; want at most %d", rounds, width, n, 2*width)
	}
}
