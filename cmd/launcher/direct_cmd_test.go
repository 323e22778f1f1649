package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/replay"
)

// directReply is one scripted chat.completion: text, or tool calls given
// as {id, name, arguments} triples.
func directReply(text string, calls ...[3]string) json.RawMessage {
	msg := map[string]any{"role": "assistant", "content": text}
	if len(calls) > 0 {
		var list []any
		for _, c := range calls {
			list = append(list, map[string]any{"id": c[0], "type": "function", "function": map[string]any{"name": c[1], "arguments": c[2]}})
		}
		msg["tool_calls"] = list
		if text == "" {
			msg["content"] = nil
		}
	}
	raw, _ := json.Marshal(map[string]any{
		"id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55},
	})
	return raw
}

func directCassette(t *testing.T, dir string, replies ...json.RawMessage) string {
	t.Helper()
	c := &replay.Cassette{Version: replay.Version}
	for _, r := range replies {
		c.Interactions = append(c.Interactions, replay.Interaction{Response: r})
	}
	p := filepath.Join(dir, "direct-cassette.json")
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	return p
}

type directOut struct {
	Status       string `json:"status"`
	Answer       string `json:"answer"`
	Turns        int    `json:"turns"`
	ToolCalls    int    `json:"tool_calls"`
	ContextCalls int    `json:"context_calls"`
	Usage        struct {
		TotalTokens int64 `json:"total_tokens"`
	} `json:"usage"`
	Error *struct {
		Phase string `json:"phase"`
		Kind  string `json:"kind"`
	} `json:"error"`
	Events []struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Name   string `json:"name"`
		Status string `json:"status"`
		Kind   string `json:"kind"`
	} `json:"events"`
}

func parseDirect(t *testing.T, out string) directOut {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"status", "answer", "turns", "tool_calls", "context_calls", "usage", "error", "replayed", "events"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--json lacks %q", k)
		}
	}
	want := 9
	for _, k := range []string{"run_id", "approvals", "approval_details"} { // run_id when tools are granted, approvals (and their details) for an approval stop
		if _, ok := raw[k]; ok {
			want++
		}
	}
	if len(raw) != want {
		t.Errorf("--json has %d keys", len(raw))
	}
	var d directOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func eventSummary(d directOut) string {
	var parts []string
	for _, e := range d.Events {
		if e.CallID != "" {
			parts = append(parts, e.Type+":"+e.CallID+":"+e.Status+":"+e.Kind)
		}
	}
	return strings.Join(parts, " ")
}

func TestDirectCommand(t *testing.T) {
	cases := []struct {
		name     string
		replies  []json.RawMessage
		allow    string
		code     int
		status   string
		errKind  string
		events   string
		wantFile string // content of out.txt, "" for absent
	}{
		{
			name:    "context_round_trip",
			replies: []json.RawMessage{directReply("", [3]string{"s1", "context_search", `{"query":"needle"}`}), directReply("line 2")},
			allow:   "context:search", code: 0, status: "completed",
			events: "native_context:s1:ok:",
		},
		{
			name: "repair_then_answer",
			replies: []json.RawMessage{directReply("", [3]string{"a", "fs_delete", `{}`}, [3]string{"b", "fs_list", `{"path":"."}`}),
				directReply("listed")},
			allow: "tool:fs_list", code: 0, status: "completed",
			events: "native_call_rejected:a:rejected:unavailable_tool_schema native_tool:b:ok:",
		},
		{
			name:    "singleton_write",
			replies: []json.RawMessage{directReply("", [3]string{"w", "fs_write", `{"path":"out.txt","content":"hi"}`}), directReply("done")},
			allow:   "tool:fs_write,tool:fs_read", code: 0, status: "completed",
			events: "native_tool:w:ok:", wantFile: "hi",
		},
		{
			name: "effectful_batch_is_fatal",
			replies: []json.RawMessage{directReply("", [3]string{"w", "fs_write", `{"path":"out.txt"}`}, [3]string{"r", "fs_read", `{"path":"in.txt"}`}),
				directReply("unreachable")},
			allow: "tool:fs_write,tool:fs_read", code: 1, status: "failed", errKind: "effectful_batch_unsupported",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			ws := filepath.Join(dir, "ws")
			if err := os.Mkdir(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			ctxFile := filepath.Join(dir, "ctx.txt")
			os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
			os.WriteFile(filepath.Join(ws, "in.txt"), []byte("input"), 0o644)
			cas := directCassette(t, dir, c.replies...)
			out, errOut, code := runCLI(t, "", "direct", "--replay", cas, "--json", "--context", ctxFile, "--projection", "all_tools",
				"--workspace", ws, "--allow", c.allow, "--authority", "dangerous", "--state-dir", filepath.Join(dir, "state"), "find the needle")
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s %s", code, c.code, out, errOut)
			}
			d := parseDirect(t, out)
			if d.Status != c.status || d.Usage.TotalTokens == 0 || d.Turns == 0 {
				t.Errorf("output %+v", d)
			}
			if c.errKind != "" && (d.Error == nil || d.Error.Kind != c.errKind) {
				t.Errorf("error %+v, want %s", d.Error, c.errKind)
			}
			if got := eventSummary(d); got != c.events {
				t.Errorf("events %q, want %q", got, c.events)
			}
			b, err := os.ReadFile(filepath.Join(ws, "out.txt"))
			if (c.wantFile == "") != (err != nil) || string(b) != c.wantFile {
				t.Errorf("out.txt = %q, %v", b, err)
			}
		})
	}
}

func TestDirectCommandText(t *testing.T) {
	dir := t.TempDir()
	cas := directCassette(t, dir, directReply("plain answer"))
	tracePath := filepath.Join(dir, "direct.jsonl")
	out, errOut, code := runCLI(t, "", "direct", "--replay", cas, "--trace", tracePath, "hello")
	if code != 0 || strings.TrimSpace(out) != "plain answer" {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	if tr := readFile(t, tracePath); !strings.Contains(tr, `"kind":"model_call"`) || !strings.Contains(tr, `"kind":"run"`) {
		t.Fatalf("trace lacks the run or the model call: %s", tr)
	}
	cas = directCassette(t, dir, directReply(""))
	_, errOut, code = runCLI(t, "", "direct", "--replay", cas, "hello")
	if code != 1 || !strings.Contains(errOut, "missing_final_output") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, flag := range []string{"--projection", "--mode"} { // --mode: the deprecated alias
		_, errOut, code = runCLI(t, "", "direct", "--replay", cas, flag, "nope", "hello")
		if code != 1 || !strings.Contains(errOut, "invalid_config") {
			t.Fatalf("%s: exit %d: %s", flag, code, errOut)
		}
	}
}

// A deprecated flag's notice goes to stderr: rlm direct --mode ... --json
// prints one JSON document on stdout.
func TestDeprecatedFlagNoticeOnStderr(t *testing.T) {
	out, errOut, code := runCLI(t, "", "direct", "--mode", "compiled", "--json", "--api-key-env", "RLM_TEST_NO_SUCH_KEY", "hello")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code == 0 {
		t.Fatalf("exit %d, stdout is not one JSON document (%v):\n%s", code, err, out)
	}
	if !strings.Contains(errOut, "Flag --mode has been deprecated, use --projection") {
		t.Fatalf("no notice on stderr: %q", errOut)
	}
}
