package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/trace"
)

// TestAPIKeyNeverLeaks triggers every provider error kind with a
// recognisable key, against servers that echo the key back, and checks that
// the key appears in no error text, no JSON-encoded error and no trace.
func TestAPIKeyNeverLeaks(t *testing.T) {
	const key = "sk-FAKE-rlm-9f8e7d6c5b4a3210"
	// Handlers of the slow route outlive their timed-out request and
	// overlap the next one, so the record is guarded.
	var (
		mu      sync.Mutex
		sawAuth []string
	)
	echo := func(w http.ResponseWriter, r *http.Request) string {
		mu.Lock()
		sawAuth = append(sawAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		io.Copy(io.Discard, r.Body)
		return "you sent " + r.Header.Get("Authorization")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/status/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		msg := echo(w, r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "Incorrect API key provided: " + msg, "type": key, "code": key}})
		w.Write(b)
	})
	mux.HandleFunc("/malformed/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		msg := echo(w, r)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices": [`+msg)
	})
	mux.HandleFunc("/stream/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		msg := echo(w, r)
		w.Header().Set("Content-Type", "text/event-stream")
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "code": key}})
		fmt.Fprintf(w, "data: %s\n\n", chunk(`{"content":"x"}`, ""))
		fmt.Fprintf(w, "data: %s\n\n", b)
	})
	mux.HandleFunc("/slow/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		echo(w, r)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	rec := trace.NewRecorder()
	ctx := trace.WithRecorder(context.Background(), rec)
	var errs []error
	call := func(base string, cfgf func(*openai.Config), ctx context.Context, req model.Request) {
		cfg := fast(base)
		cfg.APIKey = key
		cfg.MaxRetries = 1
		if cfgf != nil {
			cfgf(&cfg)
		}
		p, err := openai.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = model.Traced(p, "leak-test").Complete(ctx, req)
		if err == nil {
			t.Fatalf("%s: no error", base)
		}
		errs = append(errs, err)
	}
	req := userReq("hi", false)
	call(srv.URL+"/status", nil, ctx, req)
	call(srv.URL+"/malformed", nil, ctx, req)
	call(srv.URL+"/stream", nil, ctx, userReq("hi", true))
	call(srv.URL+"/slow", func(c *openai.Config) { c.Timeout = 50 * time.Millisecond }, ctx, req)
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel)
	call(srv.URL+"/slow", nil, cctx, req)
	call(deadURL, nil, ctx, req)
	call(srv.URL+"/status", nil, ctx, model.Request{})
	t.Setenv("OPENAI_API_KEY", "")
	_, err := openai.New(openai.Config{BaseURL: "https://api.openai.com/v1"})
	errs = append(errs, err)

	var kinds []string
	for _, err := range errs {
		kinds = append(kinds, string(fault.KindOf(err)))
		js, jerr := json.Marshal(err)
		if jerr != nil {
			t.Fatal(jerr)
		}
		for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), string(js)} {
			if strings.Contains(text, key) {
				t.Errorf("key leaked in %s error: %s", fault.KindOf(err), text)
			}
		}
	}
	slices.Sort(kinds)
	want := []string{"cancelled", "http_status", "invalid_request", "malformed_response", "missing_api_key", "stream_interrupted", "timeout", "transport"}
	if !slices.Equal(kinds, want) {
		t.Errorf("kinds = %v, want %v", kinds, want)
	}
	var buf bytes.Buffer
	if err := trace.WriteJSON(&buf, "leak-test", rec.Events(), rec.Dropped()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), key) {
		t.Errorf("key leaked into the trace:\n%s", buf.String())
	}
	if len(rec.Events()) < 7 {
		t.Errorf("trace has %d events", len(rec.Events()))
	}
	// The key was really sent.
	mu.Lock()
	defer mu.Unlock()
	if len(sawAuth) == 0 || sawAuth[0] != "Bearer "+key {
		t.Errorf("server saw Authorization %q", sawAuth)
	}
}

// TestHeaderSecretsNeverLeak checks that secret-looking custom header
// values (X-Api-Key, a custom Authorization) are scrubbed like the API key
// when a server echoes them back, while ordinary headers are not.
func TestHeaderSecretsNeverLeak(t *testing.T) {
	const hdrKey, bearer = "hdr-FAKE-5a4b3c2d1e", "tok-FAKE-0f9e8d7c6b"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusBadRequest)
		b, _ := json.Marshal(map[string]any{"error": map[string]any{
			"message": "bad: " + r.Header.Get("X-Api-Key") + " " + r.Header.Get("Authorization") + " " + r.Header.Get("X-Title"),
		}})
		w.Write(b)
	}))
	defer srv.Close()
	cfg := fast(srv.URL)
	cfg.APIKey = ""
	cfg.Headers = map[string]string{"X-Api-Key": hdrKey, "Authorization": "Bearer " + bearer, "X-Title": "rlm-tests"}
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Complete(context.Background(), userReq("hi", false))
	fe := wantKind(t, err, model.KindHTTPStatus)
	js, _ := json.Marshal(err)
	for _, text := range []string{err.Error(), string(js)} {
		if strings.Contains(text, hdrKey) || strings.Contains(text, bearer) {
			t.Errorf("header secret leaked: %s", text)
		}
	}
	if msg, _ := fe.Detail["error_message"].(string); !strings.Contains(msg, "rlm-tests") {
		t.Errorf("ordinary header scrubbed too: %q", msg)
	}
}
