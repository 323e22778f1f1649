package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/openai"
)

// TestSecretCutByTruncationNeverLeaks puts the API key at every offset
// around the cut of each bounded error field (message: MaxBodyExcerpt,
// type and code: 128 bytes) on every path that reports a server-written
// error: an HTTP error status, an error body with a 2xx status, and an
// error event inside a stream. Secrets are scrubbed before the text is
// cut, so not even the key's first byte may follow the filler.
func TestSecretCutByTruncationNeverLeaks(t *testing.T) {
	const key = "sk-FAKE-rlm-9f8e7d6c5b4a3210"
	const fill = "Z"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		// The path is /KIND/D/chat/completions: D shifts the key.
		parts := strings.Split(r.URL.Path, "/")
		d, _ := strconv.Atoi(parts[2])
		field := func(n int) string { return strings.Repeat(fill, n+d) + key }
		b, _ := json.Marshal(map[string]any{"error": map[string]any{
			"message": field(openai.MaxBodyExcerpt), "type": field(128), "code": field(128),
		}})
		switch {
		case strings.HasPrefix(r.URL.Path, "/status/"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(b)
		case strings.HasPrefix(r.URL.Path, "/ok/"):
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", chunk(`{"content":"x"}`, ""))
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
	}))
	defer srv.Close()
	for _, path := range []string{"status", "ok", "stream"} {
		for d := -len(key) - 2; d <= 2; d++ {
			cfg := fast(fmt.Sprintf("%s/%s/%d", srv.URL, path, d))
			cfg.APIKey = key
			cfg.MaxRetries = 0
			_, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", path == "stream"))
			if err == nil {
				t.Fatalf("%s d=%d: no error", path, d)
			}
			js, _ := json.Marshal(err)
			for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), string(js)} {
				if strings.Contains(text, fill+key[:1]) {
					t.Fatalf("%s d=%d: the head of a cut key leaked: %s", path, d, text)
				}
			}
		}
	}
}
