package launcher

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/replay"
)

// TestDirectAnthropicToolRoundTrip: rlm direct --provider anthropic runs
// a tool round trip against the replay server's Messages API endpoint
// (its streamed form is tested in model/anthropic).
func TestDirectAnthropicToolRoundTrip(t *testing.T) {
	t.Parallel()
	{
		dir := t.TempDir()
		ctxFile := filepath.Join(dir, "ctx.txt")
		os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
		cas := directCassette(t, dir, directReply("", [3]string{"toolu_s1", "context_search", `{"query":"needle"}`}), directReply("line 2"))
		args := []string{"direct", "--provider", "anthropic", "--model", "claude-haiku-4-5", "--replay", cas, "--json", "--context", ctxFile,
			"--allow", "context:search", "--state-dir", filepath.Join(dir, "state"), "find the needle"}
		r := runBinary(t, nil, nil, args...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		d := parseDirect(t, r.stdout)
		if d.Status != "completed" || d.Answer != "line 2" || eventSummary(d) != "native_context:toolu_s1:ok:" || d.Usage.TotalTokens == 0 {
			t.Errorf("%+v", d)
		}
	}
}

// TestQuirksThroughCLI: responses shaped like what real servers send
// (model/openai/testdata/quirks), through rlm direct and rlm run, streamed
// ones with --stream.
func TestQuirksThroughCLI(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file, cmd, status, answer, errKind string
	}{
		{"content_parts.chunks.txt", "direct", "completed", "3 + 4 = 7", ""},
		{"think_inline.sse", "direct", "completed", "The answer is 4.", ""},
		{"refusal.sse", "direct", "failed", "", "refused"},
		{"refusal.json", "direct", "failed", "", "refused"},
		{"sse_error_line.sse", "direct", "failed", "", "stream_interrupted"},
		{"lmstudio_error_200.json", "direct", "failed", "", "http_status"},
		{"empty_tool_call_id.json", "direct", "", "", ""},
		{"refusal.json", "run", "", "", "refused"},
		{"refusal.sse", "run", "", "", "refused"},
		{"sse_error_line.sse", "run", "", "", "stream_interrupted"},
	}
	for _, c := range cases {
		t.Run(c.cmd+"_"+c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "..", "model", "openai", "testdata", "quirks", c.file))
			if err != nil {
				t.Fatal(err)
			}
			f := replay.NewFixture(c.file, b)
			srv := httptest.NewServer(f)
			defer srv.Close()
			dir := t.TempDir()
			ctxFile := filepath.Join(dir, "ctx.txt")
			os.WriteFile(ctxFile, []byte("some context\n"), 0o644)
			args := []string{c.cmd, "--base-url", srv.URL + "/v1", "--json", "--context", ctxFile, "--max-iterations", "2"}
			if c.cmd == "direct" {
				args = append(args, "--state-dir", filepath.Join(dir, "state"))
			}
			if f.Stream && c.cmd == "run" {
				args = append(args, "--stream")
			}
			r := runBinary(t, nil, nil, append(args, "a question")...)
			var out struct {
				Status string `json:"status"`
				Answer string `json:"answer"`
				Error  *struct {
					Kind    string         `json:"kind"`
					Message string         `json:"message"`
					Detail  map[string]any `json:"detail"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatalf("exit %d, not JSON: %s %s", r.code, r.stdout, r.stderr)
			}
			if c.status != "" && out.Status != c.status || out.Answer != c.answer {
				t.Errorf("status %q answer %q: %s", out.Status, out.Answer, r.stdout)
			}
			switch {
			case c.errKind == "" && c.file == "empty_tool_call_id.json":
				// The calls (to a tool not granted) are kept with their
				// assigned ids and repaired, not refused as a batch.
				if !strings.Contains(r.stdout, `"call_id": "call_`) {
					t.Errorf("no assigned call id: %s", r.stdout)
				}
			case c.errKind != "":
				if out.Error == nil || out.Error.Kind != c.errKind {
					t.Fatalf("error %+v, want %s: %s", out.Error, c.errKind, r.stdout)
				}
				if c.errKind == "refused" && !strings.Contains(out.Error.Message, "I can't") {
					t.Errorf("refusal text lost: %+v", out.Error)
				}
			}
		})
	}
}
