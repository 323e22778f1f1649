package anthropic_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// The HTTP side is model/openai's (model/internal/httpcall): a redirect is
// refused with its redacted target and a hint, a connection error is
// retried and hinted, a host that does not exist is not retried, the
// attempt timeout and a cancelled context have their kinds, and nothing
// of it carries the key.
func TestSharedHTTPSide(t *testing.T) {
	t.Run("redirect", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://u:"+testKey+"@elsewhere.invalid/v1/messages?key="+testKey, http.StatusTemporaryRedirect)
		}))
		defer srv.Close()
		_, err := newP(t, cfg(srv.URL)).Complete(context.Background(), req(false))
		fe := kind(t, err, openai.KindRedirectRefused)
		if fe.Detail["target"] != "https://elsewhere.invalid/v1/messages" || fe.Hint == "" || fe.Detail["attempts"] != 1 {
			t.Fatalf("detail %v hint %q", fe.Detail, fe.Hint)
		}
	})
	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		c := cfg("http://" + addr)
		c.MaxRetries = 2
		var retries []openai.Retry
		c.OnRetry = func(r openai.Retry) { retries = append(retries, r) }
		_, err = newP(t, c).Complete(context.Background(), req(false))
		fe := kind(t, err, model.KindTransport)
		if fe.Detail["attempts"] != 3 || len(retries) != 2 || retries[0].Kind != model.KindTransport || fe.Hint == "" {
			t.Fatalf("detail %v retries %v hint %q", fe.Detail, retries, fe.Hint)
		}
	})
	t.Run("unresolvable host", func(t *testing.T) {
		// .invalid never resolves (RFC 2606); the dial fails as the
		// resolver does for it, so the test needs no DNS.
		dials := 0
		c := cfg("http://rlm-test.invalid")
		c.MaxRetries = 2
		c.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
			dials++
			return nil, &net.DNSError{Err: "no such host", Name: "rlm-test.invalid", IsNotFound: true}
		}}}
		var retries []openai.Retry
		c.OnRetry = func(r openai.Retry) { retries = append(retries, r) }
		_, err := newP(t, c).Complete(context.Background(), req(false))
		fe := kind(t, err, openai.KindHostNotFound)
		if dials != 1 || len(retries) != 0 || fe.Detail["attempts"] != 1 || fe.Detail["host"] != "rlm-test.invalid" || !strings.Contains(fe.Hint, "--base-url") {
			t.Fatalf("dials %d, retries %v, detail %v, hint %q", dials, retries, fe.Detail, fe.Hint)
		}
	})
	t.Run("attempt timeout", func(t *testing.T) {
		stop := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-stop:
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		defer close(stop)
		c := cfg(srv.URL)
		c.Timeout = 20 * time.Millisecond
		_, err := newP(t, c).Complete(context.Background(), req(true))
		fe := kind(t, err, fault.KindTimeout)
		if fe.Detail["timeout_ms"] != int64(20) || fe.Detail["attempts"] != 1 || fe.Hint == "" {
			t.Fatalf("detail %v hint %q", fe.Detail, fe.Hint)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newP(t, cfg("http://127.0.0.1:1")).Complete(ctx, req(false))
		fe := kind(t, err, fault.KindCancelled)
		if !errors.Is(err, context.Canceled) || fe.Detail["attempts"] != 0 {
			t.Fatalf("detail %v, errors.Is(Canceled) %v", fe.Detail, errors.Is(err, context.Canceled))
		}
	})
}

func kind(t *testing.T, err error, k fault.Kind) *fault.Error {
	t.Helper()
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Kind != k {
		t.Fatalf("err = %v, want kind %s", err, k)
	}
	if strings.Contains(fe.Error(), testKey) || strings.Contains(fe.Hint, testKey) {
		t.Fatalf("key leaked: %v", fe)
	}
	for _, v := range fe.Detail {
		if s, ok := v.(string); ok && strings.Contains(s, testKey) {
			t.Fatalf("key leaked in detail: %v", fe.Detail)
		}
	}
	return fe
}
