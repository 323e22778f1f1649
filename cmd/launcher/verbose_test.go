package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the model said, through the built binary: -v prints each turn's
// reply, the rejection and repair, and the observation; --stream streams
// root replies (the deltas are printed with -v); --max-repairs bounds the
// repairs; --trace-content keeps replies in the trace.
func TestRunVerboseStreamRepairsBinary(t *testing.T) {
	dir := t.TempDir()
	bin := builtBinary(t)
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
	search := `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits"}]}`
	const fake = "sk-FAKE-rlm-9f8e7d6c5b4a3210"

	t.Run("verbose", func(t *testing.T) {
		cas := writeCassette(t, t.TempDir(), "<think>let me search</think>"+search, "oops, key "+fake, `{"answer":"line 2","confidence":0.8}`)
		out, errOut, code := binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "-v", "where is the needle?")
		if code != 0 || strings.TrimSpace(out) != "line 2" {
			t.Fatalf("exit %d: %s\n%s", code, out, errOut)
		}
		for _, want := range []string{"── turn 1 · depth 0", `"pattern":"needle"`, "plan ran", "observation:", "two needle",
			"── turn 2", "oops, key", "rejected (attempt 1): parse/no_json; a repair message follows", "── turn 3", `{"answer":"line 2","confidence":0.8}`, "final answer"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("-v output lacks %q:\n%s", want, errOut)
			}
		}
		if strings.Contains(errOut, "9f8e7d6c") {
			t.Errorf("-v output shows the key:\n%s", errOut)
		}
	})

	t.Run("stream", func(t *testing.T) {
		cas := writeCassette(t, t.TempDir(), search, `{"answer":"line 2, streamed"}`)
		tracePath := filepath.Join(t.TempDir(), "t.jsonl")
		out, errOut, code := binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "--stream", "-v", "--trace", tracePath, "--trace-content", "q")
		if code != 0 || strings.TrimSpace(out) != "line 2, streamed" {
			t.Fatalf("exit %d: %s\n%s", code, out, errOut)
		}
		if !strings.Contains(errOut, "streaming\n"+`{"answer":"line 2, streamed"}`) {
			t.Errorf("streamed deltas not printed:\n%s", errOut)
		}
		raw, err := os.ReadFile(tracePath)
		if err != nil {
			t.Fatal(err)
		}
		streamed, replies := 0, 0
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			var ev struct {
				Kind  string         `json:"kind"`
				Attrs map[string]any `json:"attrs"`
			}
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("%v: %.300s", err, line)
			}
			if ev.Kind == "model_call" && ev.Attrs["stream"] == true {
				streamed++
			}
			if ev.Kind == "turn" && ev.Attrs["reply"] != nil {
				replies++
			}
		}
		if streamed != 2 || replies != 2 {
			t.Errorf("trace: %d streamed model calls, %d turn replies:\n%.2000s", streamed, replies, raw)
		}
	})

	t.Run("max repairs", func(t *testing.T) {
		cas := writeCassette(t, t.TempDir(), "bad", "bad", "bad", `{"answer":"ok"}`)
		out, errOut, code := binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "--json", "q")
		var res struct {
			Error struct {
				Kind   string         `json:"kind"`
				Detail map[string]any `json:"detail"`
			} `json:"error"`
			Details map[string]any `json:"details"`
		}
		if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Error.Kind != "no_json" {
			t.Fatalf("exit %d: %s\n%s", code, out, errOut)
		}
		if res.Error.Detail["attempt"] != 3.0 || res.Error.Detail["repairs"] != 2.0 || res.Error.Detail["reply_excerpt"] != "bad" {
			t.Errorf("detail %v", res.Error.Detail)
		}
		if p, _ := res.Details["partial"].(map[string]any); p["rejected_reply"] != "bad" {
			t.Errorf("partial %v", res.Details["partial"])
		}
		out, errOut, code = binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "--max-repairs", "3", "q")
		if code != 0 || strings.TrimSpace(out) != "ok" {
			t.Fatalf("--max-repairs 3: exit %d: %s\n%s", code, out, errOut)
		}
	})
}
