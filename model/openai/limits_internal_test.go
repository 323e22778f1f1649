package openai

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// TestResponseBodyBounded checks that neither a streamed nor a plain body
// is read past maxResponseBytes: a server that streams without end fails
// with malformed_response instead of filling memory until the timeout.
func TestResponseBodyBounded(t *testing.T) {
	defer func(n int) { maxResponseBytes = n }(maxResponseBytes)
	maxResponseBytes = 64 << 10

	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		piece := `data: {"choices":[{"index":0,"delta":{"content":"` + strings.Repeat("x", 1000) + `"},"finish_reason":null}]}` + "\n\n"
		for {
			if _, err := io.WriteString(w, piece); err != nil {
				return
			}
			if rc.Flush() != nil || r.Context().Err() != nil {
				return
			}
		}
	}))
	defer endless.Close()
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"%s"}}]}`,
			strings.Repeat("y", maxResponseBytes))
	}))
	defer big.Close()

	for _, tt := range []struct {
		name   string
		url    string
		stream bool
	}{{"endless stream", endless.URL, true}, {"large body", big.URL, false}} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(Config{BaseURL: tt.url, Model: "m", APIKey: "k", Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer p.CloseIdleConnections()
			start := time.Now()
			_, err = p.Complete(context.Background(), model.Request{
				Messages: []model.Message{{Role: model.RoleUser, Content: "hi"}}, Stream: tt.stream,
			})
			fe := fault.As(err)
			if fe == nil || fe.Kind != model.KindMalformedResponse || fe.Detail["limit_bytes"] != maxResponseBytes {
				t.Fatalf("err = %v, want malformed_response with limit_bytes", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
