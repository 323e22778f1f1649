package viewer

import (
	"io"
	"net/http"
	"net/http/httptest"
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
	srv := serveLine(t, `{"seq":1,"id":"e1","kind":"model_call","name":"m","status":"error","error":{"phase":"provider","kind":"unauthorized","message":"bad key",`+
		`"cause":{"phase":"provider","kind":"http","message":"request failed","detail":{"api_key":"`+key+`"}}}}`)
	status, body := fetch(t, srv.URL+"/api/node?file=0&pos=0")
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	if strings.Contains(body, key) {
		t.Fatalf("the served node detail contains the key: %s", body)
	}
}

// The summary's answer (in /api/files and /api/tree) is redacted as the
// node detail is; before, a credential-looking answer was served as
// recorded.
func TestSummaryAnswerRedacted(t *testing.T) {
	const key = "Bearer ANSWER-0123456789abcdef"
	srv := serveLine(t, `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"ok","attrs":{"answer":"`+key+`"}}`)
	for _, u := range []string{"/api/files", "/api/tree?file=0"} {
		status, body := fetch(t, srv.URL+u)
		if status != 200 || strings.Contains(body, key) || !strings.Contains(body, `"answer"`) {
			t.Fatalf("%s: %d %s", u, status, body)
		}
	}
}

// serveLine serves a trace file holding the one JSONL line.
func serveLine(t *testing.T, line string) *httptest.Server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "raw.jsonl")
	if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return serve(t, Options{}, path)
}

// fetch GETs url and returns the status and the body.
func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
