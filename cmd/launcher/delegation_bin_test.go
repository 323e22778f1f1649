package launcher

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
)

// The black-box tests of issue 16: delegation driven from the outside
// through the built binary.

// refusingServer answers every request with an error and counts them: a
// test that must make no model call points --base-url at it.
func refusingServer(t *testing.T) (url string, requests *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n.Add(1)
		http.Error(w, "no model call expected", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", &n
}

// stallingServer stalls every model request until the client goes away
// (or the test ends); arrived receives when the first request came.
func stallingServer(t *testing.T) (url string, arrived <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Read the body so that the server notices when the client goes
		// away, then stall.
		io.Copy(io.Discard, r.Body)
		select {
		case ch <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv.URL + "/v1", ch
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// cassetteOf writes a cassette of interactions into dir/name.
func cassetteOf(t *testing.T, dir, name string, ins ...replay.Interaction) string {
	t.Helper()
	c := &replay.Cassette{Version: replay.Version, Interactions: ins}
	p := filepath.Join(dir, name)
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// answer is an interaction replying content to a request containing match
// (any request when empty).
func answer(match, content string) replay.Interaction {
	return replay.Reply(match, model.Response{Text: content, Meta: model.Meta{Model: "gpt-4o-mini"},
		Usage: budget.Usage{PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}})
}

func decodeCommandJSON(t *testing.T, r binResult) commandJSON {
	t.Helper()
	var res commandJSON
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("exit %d, not JSON: %s %s", r.code, r.stdout, r.stderr)
	}
	return res
}

func errKind(m map[string]any) string {
	k, _ := m["kind"].(string)
	return k
}

// Item 1: rlm command compile writes the compiled command; rlm command
// exec --compiled executes it through the canonical tool runtime.
func TestDelegationBinaryCompileThenExec(t *testing.T) {
	t.Parallel()
	dir, kb, ctxFile := commandFiles(t)
	r := runBinary(t, nil, nil, "command", "compile", "--kb", kb, "--trigger", "unknown")
	var c map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &c) != nil {
		t.Fatalf("compile: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if c["adapter"] != "rlm_subagent" || c["target"] != "tool:rlm_subagent" || c["payload"].(map[string]any)["query"] != "text" ||
		!strings.HasPrefix(c["fingerprint"].(string), "sha256:") || c["delegation_policy"] == nil {
		t.Fatalf("compiled %s", r.stdout)
	}
	file := writeFile(t, dir, "cmd.json", r.stdout)
	cas := cassetteOf(t, dir, "c.json", answer("Answer over the context.", `{"answer":"two"}`))
	r = runBinary(t, nil, nil, "command", "exec", "--compiled", file, "--context", ctxFile, "--replay", cas, "--json")
	res := decodeCommandJSON(t, r)
	if r.code != 0 || res.Status != "completed" || res.Envelope["value"] != "two" || res.Command["fingerprint"] != c["fingerprint"] {
		t.Fatalf("exec: exit %d: %s", r.code, r.stdout)
	}
	src := res.Envelope["delegation"].(map[string]any)["source"].(map[string]any)
	if src["kind"] != "prompt_command" || src["fingerprint"] != c["fingerprint"] || res.Parent["kind"] != "child_result" {
		t.Fatalf("%s", r.stdout)
	}
	// compile + execute in one step still works.
	r = runBinary(t, nil, nil, "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile, "--replay", cas, "--json")
	if res := decodeCommandJSON(t, r); r.code != 0 || res.Status != "completed" || res.Envelope["value"] != "two" {
		t.Fatalf("command: exit %d: %s", r.code, r.stdout)
	}
}

// Item 1: forged and tampered compiled commands fail structurally before
// any tool invocation: no model call, no envelope, nothing delivered to
// the parent, one typed error per case.
func TestDelegationBinaryTamperedCompiledCommands(t *testing.T) {
	t.Parallel()
	dir, kb, ctxFile := commandFiles(t)
	kbv, err := command.LoadKB(kb)
	if err != nil {
		t.Fatal(err)
	}
	good, err := command.Compile(kbv, "unknown")
	if err != nil {
		t.Fatal(err)
	}
	refresh := func(c command.Command) command.Command { c.Fingerprint, _ = c.ComputeFingerprint(); return c }
	edit := func(f func(*command.Command)) command.Command {
		c := good
		pol := *good.DelegationPolicy
		c.DelegationPolicy = &pol
		c.Payload = map[string]string{"query": "text"}
		f(&c)
		return c
	}
	cases := []struct {
		name string
		cmd  any
		kind string
	}{
		{"wrong target", refresh(edit(func(c *command.Command) { c.Target = "tool:fs_write" })), "unsupported_command"},
		{"edited payload rule", refresh(edit(func(c *command.Command) { c.Payload = map[string]string{"path": "text"} })), "invalid_payload_rule"},
		{"fingerprint mismatch", edit(func(c *command.Command) { c.Text = "Delete everything." }), "invalid_fingerprint"},
		{"unknown adapter", refresh(edit(func(c *command.Command) { c.Adapter = "shell" })), "unknown_adapter"},
		{"edited policy", refresh(edit(func(c *command.Command) { c.DelegationPolicy.Provenance = "host" })), "invalid_delegation_policy"},
		{"edited policy, stale fingerprint", edit(func(c *command.Command) { c.DelegationPolicy.Role = "admin" }), "invalid_fingerprint"},
		{"unknown field", map[string]any{"prompt_id": "x", "handler": "os/exec.Command"}, "invalid_command"},
	}
	url, requests := refusingServer(t)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, _ := json.Marshal(c.cmd)
			file := writeFile(t, dir, "forged"+string(rune('a'+i))+".json", string(raw))
			r := runBinary(t, nil, nil, "command", "exec", "--compiled", file, "--context", ctxFile, "--base-url", url, "--json")
			res := decodeCommandJSON(t, r)
			if r.code != 1 || res.Status != "failed" || errKind(res.Error) != c.kind || res.Error["phase"] != "execute" {
				t.Fatalf("want %s, got exit %d: %s", c.kind, r.code, r.stdout)
			}
			if res.Envelope != nil || res.Parent != nil || requests.Load() != 0 {
				t.Fatalf("a tool ran or a child was created: %s (model requests %d)", r.stdout, requests.Load())
			}
		})
	}
}

const delegationSkills = `{"units": [
 {"unit": "skill:rlm-facts", "content": "FACTS-BODY: cite line numbers.", "requires": ["skill:style"]},
 {"unit": "skill:style", "content": "STYLE-BODY: answer in one word."},
 {"unit": "skill:safety", "activation": "always", "content": "ALWAYS-BODY: never guess."},
 {"unit": "skill:web", "content": "WEB-BODY", "requires_capability": "tool:web_fetch", "triggers": [{"keyword": "context"}]},
 {"unit": "skill:terse", "content": "TERSE-BODY", "conflicts": ["skill:verbose"]},
 {"unit": "skill:verbose", "content": "VERBOSE-BODY"}
]}`

// Item 2: host options fail with a typed error before execution when they
// widen the parent's grant or conflict with the KB or each other; no
// model call is made.
func TestDelegationBinaryHostOptionRefusals(t *testing.T) {
	t.Parallel()
	dir, kb, ctxFile := commandFiles(t)
	skills := writeFile(t, dir, "skills.json", delegationSkills)
	forbidKB := writeFile(t, dir, "forbid.json", `{"prompts": [{"id": "p", "text": "Answer.", "role": "reviewer", "forbidden_skills": ["terse"]}],
  "triggers": [{"id": "p", "trigger": "unknown"}], "actions": [{"id": "p", "action": "delegate_subagent"}]}`)
	url, requests := refusingServer(t)
	for _, c := range []struct {
		name string
		args []string
		kind string
	}{
		{"widening", []string{"--kb", kb, "--allow", "tool:rlm_subagent,context:peek", "--child-allow", "context:peek,tool:fs_write"}, "capability_widening"},
		{"recursive child", []string{"--kb", kb, "--child-allow", "tool:rlm_subagent,context:peek"}, "unbounded_recursive_delegation"},
		{"role conflicts with the KB", []string{"--kb", kb, "--child-role", "admin"}, "delegation_policy_conflict"},
		{"skill the KB forbids", []string{"--kb", forbidKB, "--skills", skills, "--child-skill", "terse"}, "delegation_skill_forbidden"},
		{"skills exclude each other", []string{"--kb", kb, "--skills", skills, "--child-skill", "terse", "--child-skill", "verbose"}, "conflicting_delegation_skills"},
		{"unknown skill", []string{"--kb", kb, "--skills", skills, "--child-skill", "nope"}, "unknown_skill"},
		{"skill without a catalog", []string{"--kb", kb, "--child-skill", "style"}, "skill_catalog_required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"command", "--trigger", "unknown", "--context", ctxFile, "--base-url", url, "--json"}, c.args...)
			r := runBinary(t, nil, nil, args...)
			res := decodeCommandJSON(t, r)
			if r.code != 1 || errKind(res.Error) != c.kind || res.Envelope != nil || requests.Load() != 0 {
				t.Fatalf("want %s and no child, got exit %d: %s (requests %d)", c.kind, r.code, r.stdout, requests.Load())
			}
		})
	}
}

// Items 2 and 3: the host's options reach the child with their
// provenance; the child's instructions are compiled by the prompt
// compiler from the skill catalog (the cassette answers only a request
// carrying the skill bodies), and rlm explain shows why each skill was or
// was not included.
func TestDelegationBinarySkillsAndProvenance(t *testing.T) {
	t.Parallel()
	dir, kb, ctxFile := commandFiles(t)
	skills := writeFile(t, dir, "skills.json", delegationSkills)
	child := answer("FACTS-BODY", `{"answer":"two"}`)
	child.Match.Model = "child-model"
	cas := cassetteOf(t, dir, "c.json", child)
	r := runBinary(t, nil, nil, "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile, "--replay", cas, "--json",
		"--skills", skills, "--child-skill", "style", "--child-role", "reviewer", "--child-model", "child-model", "--child-allow", "context:peek,context:search")
	res := decodeCommandJSON(t, r)
	if r.code != 0 || res.Status != "completed" || res.Envelope["value"] != "two" {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	deleg := res.Envelope["delegation"].(map[string]any)
	prov := map[string]bool{}
	for _, p := range deleg["provenance"].([]any) {
		m := p.(map[string]any)
		prov[m["option"].(string)+"="+m["value"].(string)+"@"+m["source"].(string)] = true
	}
	for _, want := range []string{"role=reviewer@kb", "role=reviewer@host", "skill=rlm-facts@kb", "skill=style@host",
		"model=child-model@host", "capabilities=context:peek,context:search@host"} {
		if !prov[want] {
			t.Errorf("provenance lacks %s: %v", want, deleg["provenance"])
		}
	}
	sk := res.Envelope["skills"].(map[string]any)
	active := map[string]bool{}
	for _, u := range sk["active_units"].([]any) {
		active[u.(string)] = true
	}
	if !active["skill:rlm-facts"] || !active["skill:style"] || !active["skill:safety"] || active["skill:web"] || len(active) != 3 {
		t.Fatalf("active units %v", sk["active_units"])
	}
	// rlm explain reproduces the child's compile.
	for unit, want := range map[string]struct{ state, reason string }{
		"skill:safety":    {"active", "activation(always)"},
		"skill:rlm-facts": {"active", "explicit_selection"},
		"skill:style":     {"active", "explicit_selection"},
		"skill:web":       {"rejected", "capability_denied(tool:web_fetch)"},
		"skill:verbose":   {"hidden", "no_matching_evidence"},
	} {
		r := runBinary(t, nil, nil, "explain", "--skills", skills, "--child-skill", "rlm-facts", "--child-skill", "style",
			"--child-allow", "context:peek,context:search", "--text", "Answer over the context.", "--unit", unit)
		var ex struct {
			State   string   `json:"state"`
			Reasons []string `json:"reasons"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &ex) != nil {
			t.Fatalf("explain %s: exit %d: %s %s", unit, r.code, r.stdout, r.stderr)
		}
		if ex.State != want.state || !strings.Contains(strings.Join(ex.Reasons, " "), want.reason) {
			t.Errorf("explain %s: want %s (%s), got %+v", unit, want.state, want.reason, ex)
		}
	}
}

func planReply(steps ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"steps": steps})
	return string(b)
}

// Item 5: a child gets the tools its --child-allow grants (a view of the
// registry), its calls carry its own authority context, and a tool the
// parent holds but the child was not given is refused.
func TestDelegationBinaryChildTools(t *testing.T) {
	t.Parallel()
	dir, _, ctxFile := commandFiles(t)
	ws := t.TempDir()
	writeFile(t, ws, "notes.txt", "secret notes\n")
	kb := writeFile(t, dir, "kb.json", `{"prompts": [{"id": "p", "text": "Read the notes."}],
  "triggers": [{"id": "p", "trigger": "unknown"}], "actions": [{"id": "p", "action": "delegate_subagent"}]}`)
	read := planReply(map[string]any{"op": "tool", "name": "fs_read", "args": map[string]any{"path": "notes.txt"}, "bind": "f"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "f"}})
	list := planReply(map[string]any{"op": "tool", "name": "fs_list", "args": map[string]any{"path": "."}, "bind": "f"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "f"}})
	base := []string{"command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile, "--workspace", ws, "--json",
		"--allow", "tool:rlm_subagent,tool:fs_read,tool:fs_list,context:peek", "--child-allow", "tool:fs_read,context:peek"}

	r := runBinary(t, nil, nil, append(base, "--replay", cassetteOf(t, dir, "read.json", answer("", read)))...)
	res := decodeCommandJSON(t, r)
	v, _ := res.Envelope["value"].(map[string]any)
	if r.code != 0 || res.Status != "completed" || v["content"] != "secret notes\n" {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	child, _ := res.Envelope["correlation"].(map[string]any)["child"].(string)
	calls, _ := res.Envelope["tool_calls"].([]any)
	if child == "" || len(calls) != 1 {
		t.Fatalf("%s", r.stdout)
	}
	tc := calls[0].(map[string]any)
	rtID := res.Envelope["correlation"].(map[string]any)["runtime"].(string)
	if tc["tool"] != "fs_read" || tc["owner"] != "agent:"+rtID+"/"+child || tc["authority"] != "approve_diff" || tc["authorization"] != "allowed" {
		t.Fatalf("child tool call trace %v", tc)
	}

	// fs_list is the parent's, not the child's.
	r = runBinary(t, nil, nil, append(base, "--replay", cassetteOf(t, dir, "list.json", answer("", list)))...)
	res = decodeCommandJSON(t, r)
	if r.code != 1 || res.Status != "failed" || errKind(res.Error) != "capability_denied" || res.Envelope["status"] != "failed" {
		t.Fatalf("want the child refused fs_list, got exit %d: %s", r.code, r.stdout)
	}
}

// Item 4: rlm_subagent is listed with its schema and limits and callable
// through rlm tools call and rlm direct.
func TestDelegationBinarySubagentTool(t *testing.T) {
	t.Parallel()
	dir, _, ctxFile := commandFiles(t)
	r := runBinary(t, nil, nil, "tools", "list", "--json", "--subagent-timeout-max", "60s", "--subagent-grace", "1s")
	var schemas []struct {
		Name      string `json:"name"`
		Arguments struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		} `json:"arguments"`
		Limits map[string]float64 `json:"limits"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &schemas) != nil {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	found := false
	for _, s := range schemas {
		if s.Name != "rlm_subagent" {
			continue
		}
		found = true
		if s.Arguments.Properties["query"]["type"] != "string" || s.Arguments.Properties["timeout_seconds"]["type"] != "number" ||
			len(s.Arguments.Required) != 1 || s.Limits["time_limit_ms"] != 62000 || s.Limits["max_output_bytes"] != 65536 {
			t.Fatalf("%+v", s)
		}
	}
	if !found {
		t.Fatalf("rlm_subagent not listed: %s", r.stdout)
	}

	caps := "tool:rlm_subagent,context:peek,context:search"
	cas := cassetteOf(t, dir, "call.json", answer("Query: how many lines", `{"answer":"two"}`))
	call := func(args string, extra ...string) (binResult, toolCallOut) {
		t.Helper()
		a := append([]string{"tools", "call", "rlm_subagent", "--allow", caps, "--context", ctxFile, "--replay", cas, "--args", args}, extra...)
		r := runBinary(t, nil, nil, a...)
		var out toolCallOut
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		return r, out
	}
	r, out := call(`{"query":"how many lines"}`)
	if r.code != 0 || out.Status != "completed" || out.Value["status"] != "completed" || out.Value["value"] != "two" {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if src := out.Value["delegation"].(map[string]any)["source"].(map[string]any); src["kind"] != "trusted_host" {
		t.Fatalf("%v", src)
	}
	// Above the host maximum: refused, before any child.
	r, out = call(`{"query":"how many lines","timeout_seconds":120}`, "--subagent-timeout-max", "60s")
	if r.code != 0 || out.Value["status"] != "failed" || errKind(out.Value["error"].(map[string]any)) != "timeout_exceeds_maximum" ||
		out.Value["correlation"].(map[string]any)["child"] != nil {
		t.Fatalf("%s", r.stdout)
	}
	// A wrong type is a schema rejection.
	r, out = call(`{"query":"how many lines","timeout_seconds":"10"}`)
	if r.code != 1 || out.Status != "failed" || errKind(out.Error) != "schema_validation_failed" {
		t.Fatalf("%s", r.stdout)
	}
	// --max-agents 1: the parent is the only live agent allowed.
	r, out = call(`{"query":"how many lines"}`, "--max-agents", "1")
	if r.code != 0 || out.Value["status"] != "failed" || errKind(out.Value["error"].(map[string]any)) != "agent_limit_reached" {
		t.Fatalf("%s", r.stdout)
	}
	// Not granted: the runtime's capability denial.
	r = runBinary(t, nil, nil, "tools", "call", "rlm_subagent", "--allow", "context:peek", "--args", `{"query":"x"}`)
	if r.code != 1 || !strings.Contains(r.stdout, `"capability_denied"`) {
		t.Fatalf("%s %s", r.stdout, r.stderr)
	}

	// rlm direct --allow tool:rlm_subagent: the model calls it natively.
	dc := directCassette(t, dir,
		directReply("", [3]string{"call_1", "rlm_subagent", `{"query":"how many lines"}`}),
		completion(`{"answer":"two"}`),
		directReply("The child says two."))
	r = runBinary(t, nil, nil, "direct", "--allow", caps, "--context", ctxFile, "--replay", dc, "--json", "how many lines?")
	var d struct {
		Status    string           `json:"status"`
		Answer    string           `json:"answer"`
		ToolCalls int              `json:"tool_calls"`
		Events    []map[string]any `json:"events"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || d.Status != "completed" || d.ToolCalls != 1 || d.Answer != "The child says two." {
		t.Fatalf("direct: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	called := false
	for _, e := range d.Events {
		called = called || e["type"] == "native_tool" && e["name"] == "rlm_subagent" && e["status"] == "ok"
	}
	if !called {
		t.Fatalf("direct events do not show the subagent call: %s", r.stdout)
	}
}

type toolCallOut struct {
	Status string         `json:"status"`
	Value  map[string]any `json:"value"`
	Error  map[string]any `json:"error"`
}

// Item 6: SIGUSR1 cancels only the parent agent; its child is cancelled
// and the cancelled envelope is delivered to the parent's mailbox.
func TestDelegationBinaryParentOnlyCancellation(t *testing.T) {
	t.Parallel()
	url, arrived := stallingServer(t)
	_, kb, ctxFile := commandFiles(t)
	cmd, wait := startRLM(t, builtBinary(t), "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile,
		"--base-url", url, "--json")
	select {
	case <-arrived:
	case <-time.After(safetyTimeout): // a safety net, not an assertion on timing
		cmd.Process.Kill()
		out, errOut, _ := wait()
		t.Fatalf("no model call arrived: %s %s", out, errOut)
	}
	if err := cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := wait()
	var res commandJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("exit %d, no JSON: %s %s", code, out, errOut)
	}
	if code != 1 || res.Status != "cancelled" || errKind(res.Error) != "cancelled" {
		t.Fatalf("want cancelled, got %d: %s", code, out)
	}
	if res.Envelope["status"] != "cancelled" || errKind(res.Envelope["error"].(map[string]any)) != "cancelled" ||
		res.Envelope["error"].(map[string]any)["detail"].(map[string]any)["reason"] != "host_cancelled_parent" {
		t.Fatalf("envelope: %s", out)
	}
	v, _ := res.Parent["value"].(map[string]any)
	if res.Parent["kind"] != "child_result" || v["status"] != "cancelled" || v["correlation"].(map[string]any)["child"] != res.Envelope["correlation"].(map[string]any)["child"] {
		t.Fatalf("parent_received: %s", out)
	}
}
