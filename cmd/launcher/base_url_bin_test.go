package launcher

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OPENAI_BASE_URL, which the OpenAI SDKs read, is honoured when neither
// --base-url nor RLM_BASE_URL is given; RLM_BASE_URL wins over it.
func TestOpenAIBaseURLFromEnv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "ctx.txt")
	if err := os.WriteFile(ctxFile, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  func(url string) []string
	}{
		{"OPENAI_BASE_URL", func(url string) []string { return []string{"OPENAI_BASE_URL=" + url} }},
		{"RLM_BASE_URL wins", func(url string) []string {
			return []string{"RLM_BASE_URL=" + url, "OPENAI_BASE_URL=http://127.0.0.1:1/v1"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs := &countingServer{}
			srv := httptest.NewServer(cs.wrap(replayHandler("gpt-4o-mini", `{"answer":"x"}`)))
			defer srv.Close()
			res := runBinary(t, nil, binaryEnv(append(c.env(srv.URL+"/v1"), "OPENAI_API_KEY=sk-test")...),
				"run", "--context", ctxFile, "--json", "q")
			if res.code != 0 || cs.requests() != 1 || !strings.Contains(res.stdout, `"completed"`) {
				t.Fatalf("exit %d, %d requests: %s %s", res.code, cs.requests(), res.stdout, res.stderr)
			}
		})
	}
}
