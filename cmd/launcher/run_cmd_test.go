package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
)

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func completion(content string) json.RawMessage {
	return replay.Reply("", model.Response{Text: content, Meta: model.Meta{Model: "gpt-4o-mini"},
		Usage: budget.Usage{PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}}).Response
}

func writeCassette(t *testing.T, dir string, replies ...string) string {
	t.Helper()
	c := &replay.Cassette{Version: replay.Version}
	for _, r := range replies {
		c.Interactions = append(c.Interactions, replay.Interaction{Response: completion(r)})
	}
	p := filepath.Join(dir, "cassette.json")
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDemo(t *testing.T) {
	out, errOut, code := runCLI(t, "", "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"context_op partition", "model_call gpt-4o-mini", "rlm_child", "budget:", "max_connections=5", "status: completed"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	out, _, code = runCLI(t, "", "demo", "--json")
	var res map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res["status"] != "completed" {
		t.Fatalf("demo --json: %d %.200s", code, out)
	}
	for _, k := range []string{"status", "answer", "usage", "error", "trace"} {
		if _, ok := res[k]; !ok {
			t.Errorf("--json lacks %q", k)
		}
	}
}

func TestRunReplayJSONAndTrace(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
	cas := writeCassette(t, dir,
		`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits"}]}`,
		`{"answer":"line 2"}`)
	tracePath := filepath.Join(dir, "run.jsonl")
	out, errOut, code := runCLI(t, "", "run", "--context", ctxFile, "--replay", cas, "--json", "--trace", tracePath, "where is the needle?")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	var res struct {
		Status string         `json:"status"`
		Answer any            `json:"answer"`
		Usage  map[string]any `json:"usage"`
		Trace  []any          `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Status != "completed" || res.Answer != "line 2" || res.Usage["total_tokens"].(float64) != 110 || len(res.Trace) == 0 {
		t.Fatalf("%v %+v", err, res)
	}
	view, _, code := runCLI(t, "", "trace", "view", tracePath)
	if code != 0 || !strings.Contains(view, "context_op search") || !strings.Contains(view, "turn 2") {
		t.Fatalf("trace view: %d\n%s", code, view)
	}
	// Stdin context and plain output.
	cas2 := writeCassette(t, dir, `{"answer":"from stdin"}`)
	out, _, code = runCLI(t, "some text", "run", "--context", "-", "--replay", cas2, "q")
	if code != 0 || strings.TrimSpace(out) != "from stdin" {
		t.Fatalf("%d %q", code, out)
	}
}

func TestRunFailureExitCodeAndJSONError(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("x\n"), 0o644)
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	out, _, code := runCLI(t, "", "run", "--context", ctxFile, "--replay", cas, "--max-depth", "4", "--json", "q")
	var res struct {
		Status string `json:"status"`
		Error  struct {
			Phase, Kind string
		} `json:"error"`
	}
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Error.Kind != "experimental_deep_recursion_required" || res.Status != "failed" {
		t.Fatalf("%d %s", code, out)
	}
	_, errOut, code := runCLI(t, "", "run", "--context", filepath.Join(dir, "missing"), "--replay", cas, "q")
	if code != 1 || !strings.HasPrefix(errOut, "rlm: context/io_error") {
		t.Fatalf("%d %s", code, errOut)
	}
	// With --json, a failure before the run has the same JSON shape.
	out, _, code = runCLI(t, "", "run", "--context", filepath.Join(dir, "missing"), "--replay", cas, "--json", "q")
	res.Error.Phase, res.Error.Kind, res.Status = "", "", ""
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Status != "failed" || res.Error.Phase != "context" || res.Error.Kind == "" {
		t.Fatalf("%d %s", code, out)
	}
}

// No trace, recorded cassette or output ever contains the API key.
func TestAPIKeyNeverLeaks(t *testing.T) {
	const key = "sk-test-SECRET-0123456789abcdef"
	t.Setenv("RLM_TEST_API_KEY", key)
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		{Response: completion(`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"peek","selector":"head","count":10},"bind":"h"}]}`)},
		{Response: completion(`{"answer":"done"}`)},
	}})
	defer srv.Close()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("hello world\n"), 0o644)
	tracePath := filepath.Join(dir, "t.json")
	recPath := filepath.Join(dir, "rec.json")
	out, errOut, code := runCLI(t, "", "run", "--context", ctxFile, "--base-url", srv.BaseURL(), "--api-key-env", "RLM_TEST_API_KEY",
		"--record", recPath, "--trace", tracePath, "--json", "q")
	if code != 0 {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	// An error path too: the cassette is now exhausted.
	out2, errOut2, _ := runCLI(t, "", "run", "--context", ctxFile, "--base-url", srv.BaseURL(), "--api-key-env", "RLM_TEST_API_KEY", "--json", "q")
	for name, s := range map[string]string{"stdout": out + out2, "stderr": errOut + errOut2, "trace": readFile(t, tracePath), "cassette": readFile(t, recPath)} {
		if strings.Contains(s, key) || strings.Contains(strings.ToLower(s), "bearer ") {
			t.Errorf("%s contains the API key or an Authorization header", name)
		}
	}
	if !strings.Contains(readFile(t, recPath), `done`) {
		t.Fatal("recording incomplete")
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRunWithWorkspaceTool(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("the code word is HERON"), 0o644)
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("context\n"), 0o644)
	plan := `{"steps":[{"op":"tool","name":"fs_read","args":{"path":"notes.txt"},"bind":"f"},{"op":"final","value":{"ref":"var","name":"f"}}]}`
	cas := writeCassette(t, dir, plan)
	out, errOut, code := runCLI(t, "", "run", "--context", ctxFile, "--replay", cas, "--workspace", ws, "--allow", "tool:fs_read", "--json", "read the notes")
	if code != 0 || !strings.Contains(out, "HERON") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	// Without --allow the tool is not granted: capability_denied ends the run.
	cas2 := writeCassette(t, dir, plan)
	out, _, code = runCLI(t, "", "run", "--context", ctxFile, "--replay", cas2, "--workspace", ws, "--json", "read the notes")
	if code != 1 || !strings.Contains(out, `"capability_denied"`) {
		t.Fatalf("%d %s", code, out)
	}
}

// Issue 18 item 5 through the CLI: a write under the default approve_diff
// tier inside a map ends the run (status approval_required, exit 3) with the
// ids of the pending operations in approvals (and details.pending_approvals),
// a hint naming the run to resume, and writes nothing.
func TestRunApprovalInsideMapEndsRun(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("context\n"), 0o644)
	plan := `{"steps":[{"op":"map","over":["a.txt","b.txt","c.txt"],"as":"p","bind":"out","concurrency":1,"plan":{"steps":[` +
		`{"op":"tool","name":"fs_write","args":{"path":{"ref":"var","name":"p"},"content":"x"},"bind":"w"}]}},` +
		`{"op":"final","value":{"ref":"var","name":"out"}}]}`
	cas := writeCassette(t, dir, plan)
	out, errOut, code := runCLI(t, "", "run", "--context", ctxFile, "--replay", cas, "--workspace", ws,
		"--allow", "tool:fs_write", "--state-dir", filepath.Join(dir, "state"), "--json", "write the files")
	var res struct {
		Status string `json:"status"`
		Error  struct {
			Kind string
			Hint string
		} `json:"error"`
		Approvals []string `json:"approvals"`
		RunID     string   `json:"run_id"`
		Details   struct {
			Pending []string `json:"pending_approvals"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s %s", err, out, errOut)
	}
	if code != 3 || res.Status != "approval_required" || res.Error.Kind != "approval_required" || len(res.Details.Pending) != 1 || res.Details.Pending[0] != "approval_1" ||
		!slices.Equal(res.Approvals, res.Details.Pending) || res.RunID == "" || !strings.Contains(res.Error.Hint, "--resume "+res.RunID) {
		t.Fatalf("exit %d %+v\n%s", code, res, errOut)
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 0 {
		t.Fatalf("the workspace was written: %v", entries)
	}
	// The hint's way on: the same command on the same run, under a tier
	// that permits the writes, completes.
	out, errOut, code = runCLI(t, "", "run", "--context", ctxFile, "--replay", cas, "--workspace", ws,
		"--allow", "tool:fs_write", "--state-dir", filepath.Join(dir, "state"), "--json", "--resume", res.RunID, "--authority", "allow_session", "write the files")
	if code != 0 || !strings.Contains(out, `"status": "completed"`) {
		t.Fatalf("resumed: exit %d %s\n%s", code, out, errOut)
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 3 {
		t.Fatalf("the resumed run wrote %v", entries)
	}
}
