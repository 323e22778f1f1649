package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testKB = `{
  "prompts": [{"id": "delegate-unknown", "text": "Answer over the context.", "role": "reviewer", "skills": ["rlm-facts"]}],
  "triggers": [{"id": "delegate-unknown", "trigger": "unknown"}],
  "actions": [{"id": "delegate-unknown", "action": "delegate_subagent"}]
}`

func commandFiles(t *testing.T) (dir, kb, ctxFile string) {
	t.Helper()
	dir = t.TempDir()
	kb = filepath.Join(dir, "kb.json")
	ctxFile = filepath.Join(dir, "in.txt")
	if err := os.WriteFile(kb, []byte(testKB), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ctxFile, []byte("one\ntwo needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, kb, ctxFile
}

type commandJSON struct {
	Status   string          `json:"status"`
	Command  map[string]any  `json:"command"`
	Envelope map[string]any  `json:"envelope"`
	Parent   map[string]any  `json:"parent_received"`
	Error    map[string]any  `json:"error"`
	Raw      json.RawMessage `json:"-"`
}

func TestCommandCmdReplay(t *testing.T) {
	dir, kb, ctxFile := commandFiles(t)
	cas := writeCassette(t, dir, `{"answer":"two"}`)
	out, errOut, code := runCLI(t, "", "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile, "--replay", cas, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	var res commandJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "completed" || res.Command["target"] != "tool:rlm_subagent" || res.Envelope["value"] != "two" || res.Error != nil {
		t.Fatalf("%s", out)
	}
	deleg := res.Envelope["delegation"].(map[string]any)
	src := deleg["source"].(map[string]any)
	if src["kind"] != "prompt_command" || src["fingerprint"] != res.Command["fingerprint"] || deleg["role"] != "reviewer" {
		t.Fatalf("%v", deleg)
	}
	if res.Parent["kind"] != "child_result" || res.Parent["value"].(map[string]any)["status"] != "completed" {
		t.Fatalf("parent_received %v", res.Parent)
	}
	// Plain output prints the answer.
	cas = writeCassette(t, dir, `{"answer":"two"}`)
	out, _, code = runCLI(t, "", "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile, "--replay", cas)
	if code != 0 || strings.TrimSpace(out) != "two" {
		t.Fatalf("%d %q", code, out)
	}
}

func TestCommandCmdErrors(t *testing.T) {
	dir, kb, ctxFile := commandFiles(t)
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	cases := []struct {
		name  string
		args  []string
		phase string
		kind  string
	}{
		{"missing binding", []string{"--trigger", "nope"}, "compile", "missing_binding"},
		{"capability denied", []string{"--trigger", "unknown", "--allow", "context:search"}, "tool", "capability_denied"},
		{"timeout above maximum", []string{"--trigger", "unknown", "--subagent-timeout", "1s", "--subagent-timeout-max", "500ms"}, "subagent", "invalid_subagent_timeout_policy"},
	}
	for _, c := range cases {
		args := append([]string{"command", "--kb", kb, "--context", ctxFile, "--replay", cas, "--json"}, c.args...)
		out, errOut, code := runCLI(t, "", args...)
		var res commandJSON
		if code == 0 || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("%s: exit %d %s %s", c.name, code, out, errOut)
		}
		if res.Status != "failed" || res.Error["phase"] != c.phase || res.Error["kind"] != c.kind {
			t.Errorf("%s: %s", c.name, out)
		}
	}
	// A failed child (exhausted cassette) exits non-zero with the envelope.
	empty := writeCassette(t, dir)
	out, _, code := runCLI(t, "", "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile, "--replay", empty, "--json")
	var res commandJSON
	if code == 0 || json.Unmarshal([]byte(out), &res) != nil || res.Envelope["status"] != "failed" || res.Error == nil {
		t.Fatalf("%d %s", code, out)
	}
}
