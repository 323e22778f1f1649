package openai_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// toolDeltas returns a chunk whose delta starts n tool calls with indexes
// first, first+1, ...
func toolDeltas(first, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"index":%d,"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}`, first+i, first+i)
	}
	return chunk(`{"tool_calls":[`+b.String()+`]}`, "")
}

// bareDeltas returns a chunk with n tool-call deltas carrying only an
// index, 0..n-1 (one line under the reader's line limit).
func bareDeltas(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"index":%d}`, i)
	}
	return chunk(`{"tool_calls":[`+b.String()+`]}`, "")
}

// TestQuadraticToolCallAssembly is issue 18 item 2: one SSE line with
// 200,000 distinct tool-call indexes fails fast with a typed error instead
// of being assembled call by call, and the cap is the direct runtime's.
func TestQuadraticToolCallAssembly(t *testing.T) {
	if openai.MaxToolCalls != direct.DefaultMaxNativeCallsPerBatch {
		t.Fatalf("provider cap %d differs from the direct runtime's per-batch cap %d", openai.MaxToolCalls, direct.DefaultMaxNativeCallsPerBatch)
	}
	tests := []struct {
		name   string
		events []string
		ok     bool
	}{
		{"200000 calls in one line", []string{bareDeltas(200000), chunk(`{}`, "tool_calls"), "[DONE]"}, false},
		{"one over the cap across chunks", []string{toolDeltas(0, openai.MaxToolCalls), toolDeltas(openai.MaxToolCalls, 1), chunk(`{}`, "tool_calls"), "[DONE]"}, false},
		{"exactly the cap", []string{toolDeltas(0, openai.MaxToolCalls/2), toolDeltas(openai.MaxToolCalls/2, openai.MaxToolCalls/2), chunk(`{}`, "tool_calls"), "[DONE]"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := sseServer(tt.events, nil)
			defer srv.Close()
			cfg := fast(srv.URL)
			cfg.MaxRetries = -1
			resp, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", true))
			if tt.ok {
				if err != nil || len(resp.ToolCalls) != openai.MaxToolCalls {
					t.Fatalf("resp %v, err %v", resp, err)
				}
				return
			}
			fe := wantKind(t, err, model.KindTooManyToolCalls)
			if fe.Detail["limit"] != openai.MaxToolCalls {
				t.Fatalf("detail %v", fe.Detail)
			}
		})
	}
	t.Run("non-streamed", func(t *testing.T) {
		var calls []string
		for i := range openai.MaxToolCalls + 1 {
			calls = append(calls, fmt.Sprintf(`{"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}`, i))
		}
		body := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[` +
			strings.Join(calls, ",") + `]},"finish_reason":"tool_calls"}]}`
		srv, _ := counting(func(w http.ResponseWriter, r *http.Request) { writeCompletion(w, body) })
		defer srv.Close()
		_, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", false))
		wantKind(t, err, model.KindTooManyToolCalls)
	})
}

// TestQuadraticToolCallAssemblyCancelled: an endless stream of tool-call
// fragments stops when the caller cancels.
func TestQuadraticToolCallAssemblyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for r.Context().Err() == nil {
			if _, err := fmt.Fprintf(w, "data: %s\n\n", chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}`, "")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if sent.Add(1) == 100 {
				cancel()
			}
		}
	}))
	defer srv.Close()
	cfg := fast(srv.URL)
	cfg.MaxRetries = -1
	_, err := newProvider(t, cfg).Complete(ctx, userReq("hi", true))
	wantKind(t, err, fault.KindCancelled)
}

// TestToolCallSortExtremeIndexes is issue 18 item 9: calls are ordered by
// index with a comparator that cannot overflow.
func TestToolCallSortExtremeIndexes(t *testing.T) {
	events := []string{
		chunk(`{"tool_calls":[{"index":`+fmt.Sprint(math.MaxInt64)+`,"id":"max","function":{"name":"f"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":`+fmt.Sprint(math.MinInt64)+`,"id":"min","function":{"name":"f"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"zero","function":{"name":"f"}}]}`, ""),
		chunk(`{}`, "tool_calls"), "[DONE]",
	}
	srv, _ := sseServer(events, nil)
	defer srv.Close()
	resp, err := newProvider(t, fast(srv.URL)).Complete(context.Background(), userReq("hi", true))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range resp.ToolCalls {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, ","); got != "min,zero,max" {
		t.Fatalf("order %s, want min,zero,max", got)
	}
}

// TestCredentialsOnRedirects is issue 18 item 3: a redirect is never
// followed, so neither custom secret headers reach another host nor the
// bearer key travels over a downgraded scheme; the answer is a typed
// redirect_refused with the redacted target and a hint.
func TestCredentialsOnRedirects(t *testing.T) {
	var leaked atomic.Int32
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" || r.Header.Get("Api-Key") != "" {
			leaked.Add(1)
		}
		writeCompletion(w, textCompletion)
	}))
	defer sink.Close()
	sinkURL := strings.Replace(sink.URL, "http://", "http://user:pw@", 1) + "/chat/completions?token=s3cr3t#frag"

	t.Run("to another host with secret headers", func(t *testing.T) {
		src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, sinkURL, http.StatusTemporaryRedirect)
		}))
		defer src.Close()
		cfg := fast(src.URL)
		cfg.Headers = map[string]string{"X-Api-Key": "secret-header-value-1", "Api-Key": "secret-header-value-2"}
		_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
		checkRefused(t, err, sink.URL+"/chat/completions")
	})
	t.Run("https to plain http on the same host", func(t *testing.T) {
		src := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, sinkURL, http.StatusTemporaryRedirect)
		}))
		defer src.Close()
		if !strings.HasPrefix(src.URL, "https://127.0.0.1:") || !strings.HasPrefix(sink.URL, "http://127.0.0.1:") {
			t.Fatalf("servers %s %s", src.URL, sink.URL)
		}
		cfg := fast(src.URL)
		cfg.HTTPClient = src.Client() // trusts the test certificate
		_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", false))
		checkRefused(t, err, sink.URL+"/chat/completions")
		// The caller's client is not modified.
		if src.Client().CheckRedirect != nil {
			t.Fatal("the configured client was modified")
		}
	})
	if n := leaked.Load(); n != 0 {
		t.Fatalf("%d requests with credentials reached the redirect target", n)
	}
}

func checkRefused(t *testing.T, err error, target string) {
	t.Helper()
	fe := wantKind(t, err, openai.KindRedirectRefused)
	if fe.Detail["target"] != target || fe.Detail["status"] != http.StatusTemporaryRedirect || fe.Hint == "" {
		t.Fatalf("detail %v, want target %s", fe.Detail, target)
	}
	if s := fmt.Sprint(fe.Detail, fe.Error()); strings.Contains(s, "s3cr3t") || strings.Contains(s, "pw@") {
		t.Fatalf("target not redacted: %s", s)
	}
}
