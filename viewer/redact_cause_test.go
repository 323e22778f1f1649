package viewer

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNodeRedactsCauseDetail: docs/trace.md: "Node detail is redacted
// again when served (trace.Redact on attributes and error details), so an
// imported or hand-edited file shows no secret-looking values either."
// The error's cause chain (which fault.Error's JSON carries under "cause",
// and which the recorder's own snapshot redacts) is served as it is.
func TestNodeRedactsCauseDetail(t *testing.T) {
	const key = "sk-test-CAUSE-0123456789abcdef"
	dir := t.TempDir()
	path := filepath.Join(dir, "raw.jsonl")
	raw := `{"seq":1,"id":"e1","kind":"model_call","name":"m","status":"error","error":{"phase":"provider","kind":"unauthorized","message":"bad key",` +
		`"cause":{"phase":"provider","kind":"http","message":"request failed","detail":{"api_key":"` + key + `"}}}}` + "\n"
	if err := os.WriteFile(path, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, Options{}, path)
	resp, err := http.Get(srv.URL + "/api/node?file=0&pos=0")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if strings.Contains(string(body), key) {
		t.Fatalf("the served node detail contains the key: %s", body)
	}
}

// The summary's answer (in /api/files and /api/tree) is redacted as the
// node detail is; before, a credential-looking answer was served as
// recorded.
func TestSummaryAnswerRedacted(t *testing.T) {
	const key = "Bearer ANSWER-0123456789abcdef"
	path := filepath.Join(t.TempDir(), "raw.jsonl")
	raw := `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"ok","attrs":{"answer":"` + key + `"}}` + "\n"
	if err := os.WriteFile(path, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, Options{}, path)
	for _, u := range []string{"/api/files", "/api/tree?file=0"} {
		resp, err := http.Get(srv.URL + u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.Contains(string(body), key) || !strings.Contains(string(body), `"answer"`) {
			t.Fatalf("%s: %d %s", u, resp.StatusCode, body)
		}
	}
}
