package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var _ = flag.Bool("update", false, "rewrite golden files (read by internal/golden)")

func loadBasic(t *testing.T) *Cassette {
	t.Helper()
	c, err := Load(filepath.Join("testdata", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func provider(t *testing.T, base string, cfg func(*openai.Config)) *openai.Provider {
	t.Helper()
	c := openai.Config{BaseURL: base, Model: "gpt-4o-mini", APIKey: "sk-replay-test", RetryBaseDelay: time.Millisecond, RetryMaxDelay: time.Millisecond}
	if cfg != nil {
		cfg(&c)
	}
	p, err := openai.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ask(text string, stream bool) model.Request {
	return model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: text}}, Stream: stream}
}

func TestParseErrors(t *testing.T) {
	comp := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}`
	tests := []struct{ name, in string }{
		{"not json", `{`},
		{"array", `[]`},
		{"no version", `{"interactions":[]}`},
		{"version 2", `{"version":2,"interactions":[]}`},
		{"unknown top-level field", `{"version":1,"interactions":[],"extra":true}`},
		{"interactions wrong type", `{"version":1,"interactions":{}}`},
		{"unknown interaction field", `{"version":1,"interactions":[{"macth":{"contains":"a"},"response":` + comp + `}]}`},
		{"unknown match field", `{"version":1,"interactions":[{"match":{"regex":"a"},"response":` + comp + `}]}`},
		{"no response", `{"version":1,"interactions":[{"match":{"contains":"a"}}]}`},
		{"response not object", `{"version":1,"interactions":[{"response":"hello"}]}`},
		{"response is chunk", `{"version":1,"interactions":[{"response":{"object":"chat.completion.chunk","choices":[{"index":0}]}}]}`},
		{"response without object", `{"version":1,"interactions":[{"response":{"choices":[{"index":0}]}}]}`},
		{"response without choices", `{"version":1,"interactions":[{"response":{"object":"chat.completion","choices":[]}}]}`},
		{"status 200", `{"version":1,"interactions":[{"status":200}]}`},
		{"status and response", `{"version":1,"interactions":[{"status":500,"response":` + comp + `}]}`},
		{"error body without status", `{"version":1,"interactions":[{"error_body":{},"response":` + comp + `}]}`},
		{"negative delay", `{"version":1,"interactions":[{"delay_ms":-1,"response":` + comp + `}]}`},
		{"trailing data", `{"version":1,"interactions":[]} {}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			fe := fault.As(err)
			if fe == nil || fe.Kind != KindMalformedCassette || fe.Phase != fault.PhaseReplay {
				t.Fatalf("err = %v, want replay/malformed_cassette", err)
			}
		})
	}
	if _, err := Parse([]byte(`{"version":1,"interactions":[{"status":503,"retry_after":"1"},{"response":` + comp + `}]}`)); err != nil {
		t.Fatalf("valid cassette rejected: %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.json"))
	if fault.KindOf(err) != fault.KindIO || fault.PhaseOf(err) != fault.PhaseReplay {
		t.Fatalf("err = %v", err)
	}
}

// TestLoadTooLarge checks that Load refuses a cassette above its size
// bound instead of reading it whole.
func TestLoadTooLarge(t *testing.T) {
	defer func(n int64) { maxCassetteBytes = n }(maxCassetteBytes)
	path := filepath.Join(t.TempDir(), "big.json")
	b, err := os.ReadFile(filepath.Join("testdata", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	maxCassetteBytes = int64(len(b))
	if _, err := Load(path); err != nil {
		t.Fatalf("cassette of exactly the limit rejected: %v", err)
	}
	maxCassetteBytes = int64(len(b)) - 1
	_, err = Load(path)
	if fault.KindOf(err) != KindMalformedCassette || fault.PhaseOf(err) != fault.PhaseReplay {
		t.Fatalf("err = %v, want replay/malformed_cassette", err)
	}
	if fe := fault.As(err); fe.Detail["limit_bytes"] != maxCassetteBytes {
		t.Fatalf("detail = %v", fe.Detail)
	}
}

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func TestStreamGolden(t *testing.T) {
	srv := NewServer(loadBasic(t))
	defer srv.Close()
	var all bytes.Buffer
	for _, q := range []string{"capital of France?", "find the needle"} {
		res, body := post(t, srv.BaseURL()+"/chat/completions",
			`{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"`+q+`"}]}`)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("status %d, type %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		all.Write(body)
	}
	golden.Check(t, "stream.golden.txt", all.Bytes())
}

func TestNonStreamingIsVerbatim(t *testing.T) {
	c := loadBasic(t)
	srv := NewServer(c)
	defer srv.Close()
	res, body := post(t, srv.URL()+"/chat/completions", `{"model":"x","messages":[{"role":"user","content":[{"type":"text","text":"the capital of France"}]}]}`)
	if res.StatusCode != 200 || !bytes.Equal(body, c.Interactions[0].Response) || res.Header.Get("X-Replay-Interaction") != "0" {
		t.Fatalf("status %d body %s", res.StatusCode, body)
	}
}

func TestEndpoints(t *testing.T) {
	srv := NewServer(loadBasic(t))
	defer srv.Close()
	res, err := http.Get(srv.BaseURL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != `{"object":"list","data":[{"id":"gpt-4o-mini-2024-07-18","object":"model","created":0,"owned_by":"replay"}]}` {
		t.Fatalf("models: %d %s", res.StatusCode, body)
	}
	tests := []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/v1/chat/completions", "", 405, "method_not_allowed"},
		{"POST", "/v1/embeddings", "{}", 404, "unknown_url"},
		{"POST", "/v1/chat/completions", "{nope", 400, "invalid_json"},
		{"POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"nothing matches"}]}`, ExhaustedStatus, ExhaustedCode},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL()+tt.path, strings.NewReader(tt.body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var eb openai.ErrorBody
		json.NewDecoder(res.Body).Decode(&eb)
		res.Body.Close()
		if res.StatusCode != tt.status || eb.Error == nil || eb.Error.CodeString() != tt.code {
			t.Errorf("%s %s: %d %+v", tt.method, tt.path, res.StatusCode, eb.Error)
		}
	}
	if st := srv.Stats(); st != (Stats{Requests: 1, Exhausted: 1, Remaining: 2, Total: 2}) {
		t.Errorf("stats = %+v", st) // the bad-JSON request is not counted
	}
}

func TestExhaustionThroughProvider(t *testing.T) {
	srv := NewServer(&Cassette{Version: 1})
	defer srv.Close()
	_, err := provider(t, srv.BaseURL(), nil).Complete(context.Background(), ask("hello", false))
	fe := fault.As(err)
	if fe == nil || fe.Kind != model.KindHTTPStatus || fe.Detail["error_code"] != ExhaustedCode || fe.Detail["status"] != ExhaustedStatus || fe.Detail["attempts"] != 1 {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(fmt.Sprint(fe.Detail["error_message"]), "exhausted") {
		t.Fatalf("message does not say exhausted: %v", fe.Detail)
	}
}

func TestDelayAndInvalidInteraction(t *testing.T) {
	c := loadBasic(t)
	c.Interactions[0].DelayMS = 2000
	c.Interactions[1].Response = json.RawMessage(`{"object":"nope"}`) // invalid, not via Parse
	srv := NewServer(c)
	defer srv.Close()
	p := provider(t, srv.BaseURL(), func(cfg *openai.Config) { cfg.Timeout = 100 * time.Millisecond; cfg.MaxRetries = -1 })
	_, err := p.Complete(context.Background(), ask("capital of France", false))
	if fault.KindOf(err) != fault.KindTimeout {
		t.Fatalf("err = %v", err)
	}
	_, err = p.Complete(context.Background(), ask("needle", false))
	if fe := fault.As(err); fe == nil || fe.Detail["status"] != 500 || fe.Detail["error_code"] != string(KindMalformedCassette) {
		t.Fatalf("err = %v", err)
	}
}

func TestConcurrentRequests(t *testing.T) {
	const n = 24
	c := &Cassette{Version: 1}
	for i := range n {
		c.Interactions = append(c.Interactions, Interaction{Response: json.RawMessage(fmt.Sprintf(
			`{"id":"c%d","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"answer %d"},"finish_reason":"stop"}]}`, i, i))})
	}
	srv := NewServer(c)
	defer srv.Close()
	p := provider(t, srv.BaseURL(), nil)
	var (
		mu   sync.Mutex
		seen = map[string]bool{}
		wg   sync.WaitGroup
	)
	for i := range n {
		wg.Go(func() {
			resp, err := p.Complete(context.Background(), ask("q", i%2 == 0))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			seen[resp.Meta.ID] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n {
		t.Fatalf("distinct answers = %d, want %d", len(seen), n)
	}
	if st := srv.Stats(); st.Served != n || st.Remaining != 0 {
		t.Fatalf("stats = %+v", st)
	}
}

func TestRecorderRoundTrip(t *testing.T) {
	live := NewServer(loadBasic(t))
	defer live.Close()
	const key = "sk-recorder-secret-123456"
	p := provider(t, live.BaseURL(), func(c *openai.Config) {
		c.APIKey = key
		c.Headers = map[string]string{"X-Custom": "header-value"}
	})
	rec := NewRecorder(p)
	long := strings.Repeat("padding ", 100) + "Where is the needle?"
	reqs := []model.Request{
		ask("What is the capital of France?", true),
		{Messages: []model.Message{
			{Role: model.RoleSystem, Content: "sys"},
			{Role: model.RoleUser, Content: long},
			{Role: model.RoleAssistant, Content: "thinking"},
		}},
	}
	var want []*model.Response
	for _, r := range reqs {
		resp, err := rec.Complete(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, resp)
	}
	if _, err := rec.Complete(context.Background(), ask("unrecorded", false)); err == nil {
		t.Fatal("expected exhaustion from the live server")
	}
	if rec.Len() != 2 {
		t.Fatalf("recorded %d interactions, want 2 (errors are not recorded)", rec.Len())
	}
	path := filepath.Join(t.TempDir(), "session.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, secret := range []string{key, "Authorization", "header-value", "X-Custom"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Fatalf("cassette contains %q:\n%s", secret, raw)
		}
	}
	c, err := Load(path)
	if err != nil {
		t.Fatalf("recorded cassette does not load: %v\n%s", err, raw)
	}
	if m := c.Interactions[1].Match; m == nil || len(m.Contains) > MaxMatchSnippet || !strings.HasSuffix(m.Contains, "Where is the needle?") {
		t.Fatalf("match = %+v", m)
	}
	golden.Check(t, "recorded.golden.json", raw)

	replayed := NewServer(c)
	defer replayed.Close()
	rp := provider(t, replayed.BaseURL(), nil)
	for i, r := range reqs {
		r.Stream = !r.Stream // the other transport mode must give the same answer
		got, err := rp.Complete(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		w := want[i]
		if got.Text != w.Text || got.Reasoning != w.Reasoning || fmt.Sprint(got.ToolCalls) != fmt.Sprint(w.ToolCalls) ||
			got.FinishReason != w.FinishReason || got.Usage != w.Usage || got.Meta.ID != w.Meta.ID || got.Meta.Model != w.Meta.Model {
			t.Errorf("interaction %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
}

func TestMatchSnippet(t *testing.T) {
	tests := []struct {
		msgs []model.Message
		want string
	}{
		{nil, ""},
		{[]model.Message{{Role: model.RoleSystem, Content: "s"}}, ""},
		{[]model.Message{{Role: model.RoleUser, Content: "  hi  "}, {Role: model.RoleAssistant, Content: "a"}}, "hi"},
		{[]model.Message{{Role: model.RoleUser, Content: "u"}, {Role: model.RoleTool, Content: "tool out", ToolCallID: "c"}}, "tool out"},
		{[]model.Message{{Role: model.RoleUser, Content: strings.Repeat("é", 150)}}, strings.Repeat("é", 100)},
	}
	for i, tt := range tests {
		if got := matchSnippet(tt.msgs); got != tt.want {
			t.Errorf("case %d: %q, want %q", i, got, tt.want)
		}
	}
}

func TestSaveAtomicFailure(t *testing.T) {
	err := (&Cassette{Version: 1}).Save(filepath.Join(t.TempDir(), "missing-dir", "c.json"))
	if fault.KindOf(err) != fault.KindIO {
		t.Fatalf("err = %v", err)
	}
}

func FuzzCassetteDecode(f *testing.F) {
	basic, err := os.ReadFile(filepath.Join("testdata", "basic.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(basic)
	f.Add([]byte(`{"version":1,"interactions":[{"status":429,"retry_after":"1","error_body":{"error":{"message":"x"}}}]}`))
	f.Add([]byte(`{"version":1,"interactions":[{"match":{"contains":"a","model":"m"},"delay_ms":1,"response":{"object":"chat.completion","choices":[{"message":{"content":null}}]}}]}`))
	f.Add([]byte(`{"version":1,"interactions":null}`))
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Parse(in)
		if err != nil {
			if fault.KindOf(err) != KindMalformedCassette {
				t.Fatalf("error kind %q", fault.KindOf(err))
			}
			return
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		c2, err := Parse(out)
		if err != nil {
			t.Fatalf("re-encoded cassette rejected: %v\n%s", err, out)
		}
		if len(c2.Interactions) != len(c.Interactions) {
			t.Fatal("interaction count changed")
		}
		h := NewHandler(c)
		if st := h.Stats(); st.Total != len(c.Interactions) || st.Remaining != st.Total {
			t.Fatalf("stats = %+v", st)
		}
	})
}

func TestReplyBuildsAValidInteraction(t *testing.T) {
	in := Reply("needle", model.Response{Text: "hi", Usage: budget.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5, TokensKnown: true}})
	c := &Cassette{Version: Version, Interactions: []Interaction{in, Reply("", model.Response{ToolCalls: []model.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}}})}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if in.Match == nil || in.Match.Contains != "needle" {
		t.Fatal("match lost")
	}
	comp, err := openai.DecodeCompletion(in.Response)
	if err != nil || comp.Choices[0].FinishReason != "stop" || comp.Usage == nil || comp.Usage.TotalTokens != 5 {
		t.Fatalf("%+v %v", comp, err)
	}
}
