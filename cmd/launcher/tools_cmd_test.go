package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runTools(t *testing.T, args ...string) (map[string]any, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	var v map[string]any
	if out.Len() > 0 && strings.HasPrefix(strings.TrimSpace(out.String()), "{") {
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out.String())
		}
	}
	return v, out.String() + errb.String(), code
}

func TestToolsList(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"tools", "list", "--workspace", t.TempDir()}, nil, &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	var schemas []map[string]any
	if err := json.Unmarshal(out.Bytes(), &schemas); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range schemas {
		names = append(names, s["name"].(string))
		if s["capability"] != "tool:"+s["name"].(string) || s["arguments"] == nil || s["result"] == nil {
			t.Fatalf("schema %v", s)
		}
	}
	if strings.Join(names, ",") != "fs_list,fs_read,fs_write,rlm_subagent" { // rlm_subagent is always listed (issue 16)
		t.Fatalf("names %v", names)
	}
}

func TestToolsCall(t *testing.T) {
	ws := t.TempDir()
	state := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	base := []string{"--workspace", ws, "--state-dir", state}
	cases := []struct {
		name   string
		args   []string
		code   int
		status string
		kind   string
		trace  string // expected trace.status
	}{
		{"read ok", []string{"fs_read", "--args", `{"path":"a.txt"}`, "--allow", "tool:fs_read"}, 0, "completed", "", "ok"},
		{"no capability", []string{"fs_read", "--args", `{"path":"a.txt"}`}, 1, "failed", "capability_denied", "capability_denied"},
		{"schema before capability", []string{"fs_read", "--args", `{"path":1}`}, 1, "failed", "schema_validation_failed", "malformed_args"},
		{"duplicate keys", []string{"fs_read", "--args", `{"path":"a.txt","path":"b"}`, "--allow", "tool:fs_read"}, 1, "failed", "malformed_args", "malformed_args"},
		{"escape", []string{"fs_read", "--args", `{"path":"../x"}`, "--allow", "tool:fs_read"}, 1, "failed", "confinement_denied", "confinement_denied"},
		{"unknown", []string{"nope"}, 1, "failed", "unknown_tool", "unknown_tool"},
		{"write pends", []string{"fs_write", "--args", `{"path":"b.txt","content":"x"}`, "--allow", "tool:fs_write"}, 3, "approval_required", "approval_required", "approval_required"},
		{"write allowed once", []string{"fs_write", "--args", `{"path":"b.txt","content":"x"}`, "--allow", "tool:fs_write", "--authority", "allow_once"}, 0, "completed", "", "ok"},
		{"exact repeat is a new run", []string{"fs_write", "--args", `{"path":"b.txt","content":"x"}`, "--allow", "tool:fs_write", "--authority", "allow_session"}, 0, "completed", "", "ok"},
		{"list", []string{"fs_list", "--args", `{"path":"."}`, "--allow", "tool:fs_list,tool:fs_read"}, 0, "completed", "", "ok"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"tools", "call"}, c.args...), base...)
			v, raw, code := runTools(t, args...)
			if code != c.code || v["status"] != c.status {
				t.Fatalf("exit %d status %v: %s", code, v["status"], raw)
			}
			for _, k := range []string{"status", "value", "error", "run_id", "replayed", "trace"} {
				if _, ok := v[k]; !ok {
					t.Fatalf("missing %q: %s", k, raw)
				}
			}
			if c.kind != "" {
				if e, _ := v["error"].(map[string]any); e == nil || e["kind"] != c.kind {
					t.Fatalf("error %v want %s", v["error"], c.kind)
				}
			}
			// An approval stop names the pending operation and how to
			// continue the run.
			if approvals, _ := v["approvals"].([]any); c.status == "approval_required" {
				e, _ := v["error"].(map[string]any)
				if len(approvals) != 1 || approvals[0] != v["trace"].(map[string]any)["approval_id"] ||
					!strings.Contains(fmt.Sprint(e["hint"]), "--resume "+fmt.Sprint(v["run_id"])) {
					t.Fatalf("approval stop: %s", raw)
				}
			} else if approvals != nil {
				t.Fatalf("approvals of %s: %s", c.status, raw)
			}
			tr := v["trace"].(map[string]any)
			if tr["status"] != c.trace || tr["tool"] != c.args[0] {
				t.Fatalf("trace %v", tr)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "b.txt")); string(b) != "x" {
		t.Fatalf("write did not happen: %q", b)
	}
}

func TestToolsCallBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"tools", "call", "fs_read", "--authority", "yolo", "--workspace", t.TempDir()},
		{"tools", "call", "fs_read", "--allow", "shell", "--workspace", t.TempDir()},
		{"tools", "call", "fs_read", "--workspace", filepath.Join(t.TempDir(), "missing")},
	} {
		if _, raw, code := runTools(t, args...); code != 1 || !strings.Contains(raw, "rlm:") {
			t.Fatalf("%v: exit %d %s", args, code, raw)
		}
	}
}
