package launcher

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// rlm bench run --suite reads a published benchmark's file and scores its
// tasks as the paper does: a model that always answers (B) gets the two
// LongBench-v2 sample questions whose gold is B, with both methods.
func TestBenchSuiteBinary(t *testing.T) {
	t.Parallel()
	srv := choiceServer("B")
	defer srv.Close()
	data := filepath.Join("..", "..", "bench", "suite", "testdata", "longbench-v2", "data.json")
	res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"),
		"bench", "run", "--suite", "longbench-v2", "--data", data, "--no-cache", "--json")
	var rep struct {
		Suite     string `json:"suite"`
		Runs      int    `json:"runs"`
		Summaries []struct {
			Method   string   `json:"method"`
			Accuracy *float64 `json:"accuracy"`
		} `json:"summaries"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil || res.code != 0 {
		t.Fatalf("exit %d, %v: %s %s", res.code, err, res.stdout, res.stderr)
	}
	if rep.Suite != "longbench-v2" || rep.Runs != 5 || len(rep.Summaries) != 2 {
		t.Fatalf("report %+v", rep)
	}
	for _, s := range rep.Summaries {
		if s.Accuracy == nil || *s.Accuracy != 0.4 {
			t.Fatalf("%s: accuracy %v, want 0.4", s.Method, s.Accuracy)
		}
	}
	// A file that is not there: the suite's typed error, exit 1.
	res = runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"),
		"bench", "run", "--suite", "oolong", "--data", "nowhere.jsonl", "--json")
	if res.code != 1 || !strings.Contains(res.stdout, `"suite_file_missing"`) {
		t.Fatalf("missing file: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	// --suite without --data, or with --task: a usage error.
	if res = runBinary(t, nil, nil, "bench", "run", "--suite", "oolong"); res.code != 2 {
		t.Fatalf("--suite without --data: exit %d: %s", res.code, res.stderr)
	}
}

// choiceServer is an OpenAI-compatible server that answers every request
// "The correct answer is (letter)": as text to the direct method, as a
// plan's final answer to the engine.
func choiceServer(letter string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		text := "The correct answer is (" + letter + ")"
		if !bytes.Contains(body, []byte("You answer questions about the document")) { // the engine: a plan's final answer
			b, _ := json.Marshal(map[string]string{"answer": text})
			text = string(b)
		}
		w.Header().Set("Content-Type", "application/json")
		content, _ := json.Marshal(text)
		io.WriteString(w, `{"id":"c","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":`+
			string(content)+`},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}`)
	}))
}
