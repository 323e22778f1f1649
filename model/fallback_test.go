package model_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/trace"
)

// modelServer is an OpenAI-compatible server whose answer depends on the
// requested model: "gpt-4o" answers with fail (a status and an error body,
// or a reply when fail is 0), "gpt-4o-mini" always answers.
func modelServer(t *testing.T, status int, errBody string) (*httptest.Server, *[]string) {
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		asked = append(asked, req.Model)
		w.Header().Set("Content-Type", "application/json")
		if req.Model == "gpt-4o" && status != 0 {
			w.WriteHeader(status)
			fmt.Fprint(w, errBody)
			return
		}
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":"answered by %s"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":100,"total_tokens":1100}}`, req.Model, req.Model)
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

func provider(t *testing.T, base string) model.Provider {
	t.Helper()
	p, err := openai.New(openai.Config{BaseURL: base, Model: "gpt-4o", APIKey: "sk-test", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A primary model that fails with a server error, a rate limit that
// outlived the retries, a context-length error or a refused connection is
// replaced by the fallback model, whose answer and usage (priced as the
// fallback's) come back, with a trace note of the switch; other failures
// are returned as they are.
func TestFallback(t *testing.T) {
	ctxLen := `{"error":{"message":"This model's maximum context length is 128000 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}`
	for _, c := range []struct {
		name     string
		status   int
		body     string
		refused  bool // the primary's server does not listen
		resplit  bool // the caller re-splits a refusal for length (model.WithResplit)
		fellBack bool
		kind     fault.Kind
	}{
		{name: "server error", status: 500, body: `{"error":{"message":"boom"}}`, fellBack: true},
		{name: "bad gateway", status: 502, body: `bad gateway`, fellBack: true},
		{name: "rate limited", status: 429, body: `{"error":{"message":"slow down","type":"rate_limit_exceeded"}}`, fellBack: true},
		{name: "context length", status: 400, body: ctxLen, fellBack: true},
		{name: "context length, the caller re-splits", status: 400, body: ctxLen, resplit: true, kind: model.KindHTTPStatus},
		{name: "server error, the caller re-splits", status: 500, body: `{"error":{"message":"boom"}}`, resplit: true, fellBack: true},
		{name: "connection refused", refused: true, fellBack: true},
		{name: "other bad request", status: 400, body: `{"error":{"message":"bad temperature","type":"invalid_request_error"}}`, kind: model.KindHTTPStatus},
		{name: "unauthorized", status: 401, body: `{"error":{"message":"bad key"}}`, kind: model.KindHTTPStatus},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, asked := modelServer(t, c.status, c.body)
			primary := provider(t, srv.URL+"/v1")
			var fallbacks []model.FallbackModel
			if c.refused {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				dead := "http://" + ln.Addr().String() + "/v1"
				ln.Close()
				primary = provider(t, dead)
				fallbacks = append(fallbacks, model.FallbackModel{Provider: provider(t, srv.URL+"/v1"), Model: "gpt-4o-mini"})
			} else {
				fallbacks = append(fallbacks, model.FallbackModel{Model: "gpt-4o"}, model.FallbackModel{Model: "gpt-4o-mini"})
			}
			rec := trace.NewRecorder()
			ctx := trace.WithRecorder(context.Background(), rec)
			if c.resplit {
				ctx = model.WithResplit(ctx)
			}
			resp, err := model.Fallback(primary, fallbacks).Complete(ctx, model.Request{Model: "gpt-4o",
				Messages: []model.Message{{Role: model.RoleUser, Content: "q"}}})
			var notes int
			for _, ev := range rec.Events() {
				if ev.Kind == trace.KindNote && ev.Name == model.NoteFallback {
					notes++
					if ev.Attrs["from"] != "gpt-4o" || ev.Attrs["to"] != "gpt-4o-mini" {
						t.Errorf("note %v", ev.Attrs)
					}
				}
			}
			if !c.fellBack {
				if fault.KindOf(err) != c.kind || notes != 0 || len(*asked) != 1 {
					t.Fatalf("err %v, notes %d, asked %v: want %s and no fallback", err, notes, *asked, c.kind)
				}
				return
			}
			if err != nil || resp.Text != "answered by gpt-4o-mini" || notes != 1 {
				t.Fatalf("resp %+v, err %v, notes %d", resp, err, notes)
			}
			// gpt-4o was skipped (the request's own model), gpt-4o-mini
			// answered and its usage is priced as gpt-4o-mini's.
			want, _ := budget.EstimateCost("gpt-4o-mini", 1000, 100)
			if resp.Usage.CostUSD != want || !resp.Usage.CostEstimated {
				t.Fatalf("cost %v (estimated %v), want gpt-4o-mini's %v", resp.Usage.CostUSD, resp.Usage.CostEstimated, want)
			}
		})
	}
}

// When every model fails, the last error says which models were tried.
func TestFallbackAllFail(t *testing.T) {
	fail := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Usage: budget.Usage{Calls: 1, PromptTokens: 10, TotalTokens: 10}},
			fault.New(fault.PhaseProvider, model.KindStreamInterrupted, "cut").With("model", req.Model)
	})
	resp, err := model.Fallback(fail, []model.FallbackModel{{Model: "b"}, {Model: "c"}}).Complete(context.Background(), model.Request{Model: "a"})
	fe := fault.As(err)
	if fe == nil || fe.Detail["models_tried"] != "a,b,c" || fe.Detail["model"] != "c" {
		t.Fatalf("err %v", err)
	}
	// The three attempts' usage is handed back with the error.
	if resp == nil || resp.Usage.Calls != 3 || resp.Usage.TotalTokens != 30 {
		t.Fatalf("resp %+v", resp)
	}
}
