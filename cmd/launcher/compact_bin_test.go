package launcher

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/compacttest"
	"github.com/rlm-go/rlm/model"
)

// compactRun is the --json result of a compaction run, as far as the
// tests read it.
type compactRun struct {
	Status string `json:"status"`
	Answer any    `json:"answer"`
	Usage  struct {
		TotalTokens int64   `json:"total_tokens"`
		CostUSD     float64 `json:"cost_usd"`
	} `json:"usage"`
	Error *struct {
		Phase  string         `json:"phase"`
		Kind   string         `json:"kind"`
		Hint   string         `json:"hint"`
		Detail map[string]any `json:"detail"`
	} `json:"error"`
	Trace []struct {
		Kind   string         `json:"kind"`
		Name   string         `json:"name"`
		Status string         `json:"status"`
		Attrs  map[string]any `json:"attrs"`
	} `json:"trace"`
}

// Issue 31's done-when through the binary: a 60-turn code-mode session
// against an OpenAI-compatible server whose window is 16k tokens
// (--context-window 16000) completes with compaction, which -v shows and
// the trace records, and fails without it (--no-compaction) with
// prompt_too_large before any request over the window reaches the
// server.
func TestCompactSixtyTurnsBinary(t *testing.T) {
	t.Parallel()
	const window, turns = 16_000, 60
	ctxFile := filepath.Join(t.TempDir(), "ctx.txt")
	if err := os.WriteFile(ctxFile, []byte(strings.Repeat("a line of the context\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, extra ...string) (*compacttest.Session, binResult, compactRun) {
		t.Helper()
		s := &compacttest.Session{Window: window, Turns: turns}
		srv := httptest.NewServer(s)
		t.Cleanup(srv.Close)
		args := append([]string{"run", "--mode", "code", "--context-window", fmt.Sprint(window), "--context", ctxFile, "--json"}, extra...)
		r := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"), append(args, "sum the turns")...)
		var out compactRun
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%v: exit %d\n%s\n%s", err, r.code, r.stdout, r.stderr)
		}
		return s, r, out
	}
	t.Run("compaction", func(t *testing.T) {
		s, r, out := run(t, "-v")
		st := s.Stats()
		if r.code != 0 || out.Status != "completed" || fmt.Sprint(out.Answer) != fmt.Sprint(s.Answer()) || st.Over != 0 || !st.SawVars {
			t.Fatalf("exit %d, %+v, %+v\n%s", r.code, out, st, r.stderr)
		}
		n := 0
		for _, ev := range out.Trace {
			if ev.Kind == "note" && ev.Name == engine.NoteCompaction && ev.Status == "ok" {
				if after, before := ev.Attrs["tokens_after"].(float64), ev.Attrs["tokens_before"].(float64); after >= before {
					t.Fatalf("%+v", ev.Attrs)
				}
				n++
			}
		}
		if n < 2 || n != st.SummaryCalls || strings.Count(r.stderr, "── compaction ") != n {
			t.Fatalf("%d compactions in the trace, %d summary calls, -v shows %d", n, st.SummaryCalls, strings.Count(r.stderr, "── compaction "))
		}
		t.Logf("%d turns, %d compactions, largest request %d of %d tokens, %d tokens, $%.4f", turns, n, st.MaxRequest, window, out.Usage.TotalTokens, out.Usage.CostUSD)
	})
	t.Run("no compaction", func(t *testing.T) {
		s, r, out := run(t, "--no-compaction")
		if r.code == 0 || out.Status != "failed" || out.Error == nil || out.Error.Kind != string(model.KindPromptTooLarge) ||
			out.Error.Detail["window"] != float64(window) || out.Error.Detail["model"] != "gpt-4o-mini" || !strings.Contains(out.Error.Hint, "--compact-at") {
			t.Fatalf("exit %d, %+v", r.code, out.Error)
		}
		st := s.Stats()
		if st.Over != 0 || st.RootCalls >= turns || st.SummaryCalls != 0 {
			t.Fatalf("%+v", st)
		}
		t.Logf("without compaction: %s after %d root calls", out.Error.Kind, st.RootCalls)
	})
}

// --compact-at takes a share above 0 and at most 1, and not with
// --no-compaction; both are refused before any call.
func TestCompactFlagsRefused(t *testing.T) {
	t.Parallel()
	ctxFile := filepath.Join(t.TempDir(), "ctx.txt")
	if err := os.WriteFile(ctxFile, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"--compact-at", "0"}, {"--compact-at", "1.5"}, {"--compact-at", "x"}, {"--compact-at", "0.5", "--no-compaction"}} {
		r := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL=http://127.0.0.1:1/v1"),
			append(append([]string{"run", "--mode", "code", "--context", ctxFile}, bad...), "q")...)
		if r.code == 0 || !strings.Contains(r.stderr, "compact") {
			t.Errorf("%v: exit %d\n%s", bad, r.code, r.stderr)
		}
	}
}
