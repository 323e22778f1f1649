package launcher

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/windowtest"
)

// rlm run with a sub-model whose window (--model-window) is far below the
// context: the llm_query over the whole context is re-split into pieces
// that fit and merged (details.auto_split, the trace, -v); with
// --no-auto-split it is refused with prompt_too_large before anything
// reaches the server, and the server is never asked an oversized prompt.
func TestModelWindowSplitThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "big.log")
	if err := os.WriteFile(ctxFile, []byte(strings.Repeat("10:02 billing failed after the cache restarted\n", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := &windowtest.Server{Windows: map[string]int{"small-sub": 600}, Answer: func(m, prompt string) string {
		if m == "small-sub" {
			return "billing failed"
		}
		// The root: one cell, its error (if any) the answer.
		return "```python\ntry:\n    FINAL(llm_query(\"Which service failed?\\n\" + context[:]))\nexcept Exception as e:\n    FINAL(\"refused\")\n```"
	}}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	env := []string{"OPENAI_API_KEY=k", "RLM_BASE_URL=" + hs.URL}
	type out struct {
		Status  string `json:"status"`
		Answer  any    `json:"answer"`
		Details struct {
			AutoSplit struct{ Calls, Pieces, Merges int } `json:"auto_split"`
		} `json:"details"`
		Trace []struct {
			Kind, Name string
			Error      *struct{ Kind string } `json:"error"`
		} `json:"trace"`
	}
	for _, c := range []struct {
		name    string
		extra   []string
		answer  string
		split   bool
		refused bool
	}{
		{"re-split", nil, "billing failed", true, false},
		{"no auto split", []string{"--no-auto-split"}, "refused", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := srv.Stats()
			args := append([]string{"run", "--mode", "code", "--model", "root-model", "--sub-model", "small-sub",
				"--model-window", "small-sub=600:64", "--context", ctxFile, "--json", "-vv"}, c.extra...)
			r := runBinary(t, nil, env, append(args, "Which service failed?")...)
			var o out
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &o) != nil {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if o.Answer != c.answer {
				t.Fatalf("answer %v, want %q\n%s", o.Answer, c.answer, r.stderr)
			}
			if c.split != (o.Details.AutoSplit.Calls > 0 && o.Details.AutoSplit.Pieces > 1 && o.Details.AutoSplit.Merges > 0) {
				t.Errorf("details.auto_split %+v", o.Details.AutoSplit)
			}
			spans, refused := 0, false
			for _, ev := range o.Trace {
				if ev.Kind == "plan_step" && ev.Name == "auto_split" {
					spans++
				}
				refused = refused || ev.Error != nil && ev.Error.Kind == "prompt_too_large"
			}
			if c.split != (spans > 0) || c.refused != refused {
				t.Errorf("%d auto_split spans, prompt_too_large in the trace %v", spans, refused)
			}
			if c.split != strings.Contains(r.stderr, "auto split") {
				t.Errorf("-vv output:\n%s", r.stderr)
			}
			if st := srv.Stats(); st.Refused != before.Refused {
				t.Errorf("the server refused %d prompts", st.Refused-before.Refused)
			}
		})
	}
}

// --model-window refuses a malformed entry before any call.
func TestModelWindowFlagRefusesBadEntries(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"gpt-4o", "=1000", "m=0", "m=abc", "m=1000:2000", "m=1000:0"} {
		r := runBinary(t, nil, nil, "run", "--model-window", bad, "--context", "-", "q")
		if r.code == 0 {
			t.Errorf("--model-window %q accepted", bad)
		}
	}
}
