package openai_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// Every error a user commonly hits carries a one-line hint.
func TestErrorHints(t *testing.T) {
	status := func(code int, body string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_, _ = w.Write([]byte(body))
		}))
	}
	// A port nothing listens on: listen, note the address, close.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	exhausted := replay.NewServer(&replay.Cassette{Version: replay.Version})
	defer exhausted.Close()

	tests := []struct {
		name string
		base func() (string, func())
		kind fault.Kind
	}{
		{"401", func() (string, func()) {
			s := status(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return s.URL + "/v1", s.Close
		}, model.KindHTTPStatus},
		{"404", func() (string, func()) { s := status(404, `404 page not found`); return s.URL, s.Close }, model.KindHTTPStatus},
		{"429", func() (string, func()) { s := status(429, `{"error":{"message":"slow down"}}`); return s.URL, s.Close }, model.KindHTTPStatus},
		{"connection refused", func() (string, func()) { return refused, func() {} }, model.KindTransport},
		{"cassette exhausted", func() (string, func()) { return exhausted.BaseURL(), func() {} }, model.KindHTTPStatus},
		{"malformed", func() (string, func()) { s := status(200, `{"hello":1}`); return s.URL, s.Close }, model.KindMalformedResponse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, done := tt.base()
			defer done()
			cfg := fast(base)
			cfg.MaxRetries = -1
			p := newProvider(t, cfg)
			_, err := p.Complete(context.Background(), userReq("hi", false))
			fe := wantKind(t, err, tt.kind)
			if fe.Hint == "" {
				t.Fatalf("%s has no hint: %v", tt.name, err)
			}
			p.CloseIdleConnections()
		})
	}
}

// OnRetry is called once per retried attempt, before the back-off, with
// the failed attempt's status and the wait.
func TestOnRetry(t *testing.T) {
	srv, n := counting(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(429)
	})
	defer srv.Close()
	var mu sync.Mutex
	var got []openai.Retry
	cfg := fast(srv.URL)
	cfg.MaxRetries = 2
	cfg.OnRetry = func(r openai.Retry) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
	}
	p := newProvider(t, cfg)
	defer p.CloseIdleConnections()
	_, err := p.Complete(context.Background(), userReq("hi", false))
	wantKind(t, err, model.KindHTTPStatus)
	mu.Lock()
	defer mu.Unlock()
	if n.Load() != 3 || len(got) != 2 {
		t.Fatalf("%d attempts, %d OnRetry calls; want 3 and 2", n.Load(), len(got))
	}
	for i, r := range got {
		if r.Attempt != i+1 || r.Status != 429 || r.Kind != model.KindHTTPStatus || r.Wait != 0 || r.Model != "gpt-4o-mini" {
			t.Fatalf("retry %d = %+v", i, r)
		}
	}
}

// A timeout names the request timeout in its hint.
func TestTimeoutHint(t *testing.T) {
	srv := blocking()
	defer srv.Close()
	cfg := fast(srv.URL)
	cfg.Timeout = 50 * time.Millisecond
	cfg.MaxRetries = -1
	p := newProvider(t, cfg)
	defer p.CloseIdleConnections()
	_, err := p.Complete(context.Background(), userReq("hi", false))
	if fe := wantKind(t, err, fault.KindTimeout); fe.Hint == "" {
		t.Fatalf("no hint: %v", err)
	}
}
