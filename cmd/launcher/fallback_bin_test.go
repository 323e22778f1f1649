package launcher

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// --fallback-model: a root model whose context the prompt exceeds (an
// error no retry fixes) is replaced by the fallback, which answers; the
// switch is in the trace.
func TestFallbackModelBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "ctx.txt")
	if err := os.WriteFile(ctxFile, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	answer := replayHandler("gpt-4o-mini", `{"answer":"from the fallback"}`)
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		mu.Lock()
		asked = append(asked, req.Model)
		mu.Unlock()
		if req.Model == "gpt-4o" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"maximum context length exceeded","type":"invalid_request_error","code":"context_length_exceeded"}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		answer.ServeHTTP(w, r)
	}))
	defer srv.Close()
	res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"),
		"run", "--model", "gpt-4o", "--fallback-model", "gpt-4o-mini", "--context", ctxFile, "--json", "q")
	var doc struct {
		Status string `json:"status"`
		Answer any    `json:"answer"`
		Trace  []struct {
			Kind  string         `json:"kind"`
			Name  string         `json:"name"`
			Attrs map[string]any `json:"attrs"`
		} `json:"trace"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || res.code != 0 || doc.Answer != "from the fallback" {
		t.Fatalf("exit %d, %v: %s %s", res.code, err, res.stdout, res.stderr)
	}
	notes := 0
	for _, ev := range doc.Trace {
		if ev.Kind == "note" && ev.Name == "model fallback" && ev.Attrs["from"] == "gpt-4o" && ev.Attrs["to"] == "gpt-4o-mini" {
			notes++
		}
	}
	if notes != 1 || strings.Join(asked, ",") != "gpt-4o,gpt-4o-mini" {
		t.Fatalf("%d fallback notes, models asked %v", notes, asked)
	}
}
