package launcher

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/internal/mcptest"
	"github.com/rlm-go/rlm/model/replay"
)

// fakeMCPConfig writes an mcpServers file whose server "fake" is this test
// binary serving the scripted server; extra is merged into its entry.
func fakeMCPConfig(t *testing.T, dir string, extra map[string]any) string {
	t.Helper()
	entry := map[string]any{"command": os.Args[0], "args": []string{"-test.run=^$"}, "env": map[string]string{mcptest.EnvServer: "1"}}
	for k, v := range extra {
		entry[k] = v
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fake": entry}})
	p := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestToolsListAndCallMCP(t *testing.T) {
	dir := t.TempDir()
	cfg := fakeMCPConfig(t, dir, nil)
	out, errOut, code := runCLI(t, "", "tools", "list", "--workspace", dir, "--mcp", cfg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var schemas []struct{ Name, Effect, Capability string }
	if err := json.Unmarshal([]byte(out), &schemas); err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, s := range schemas {
		found[s.Name] = s.Effect + " " + s.Capability
	}
	if found["mcp.fake.echo"] != "process tool:mcp.fake.echo" || found["fs_read"] == "" {
		t.Fatalf("list: %v", found)
	}
	if !strings.Contains(errOut, `skipped tool "bad.schema name"`) {
		t.Errorf("the skipped tool is not reported: %q", errOut)
	}
	// Effectful by default: approval required (exit 3), then read-only by
	// the host's configuration.
	_, errOut, code = runCLI(t, "", "tools", "call", "mcp.fake.echo", "--args", `{"text":"hi"}`, "--workspace", dir, "--mcp", cfg,
		"--allow", "tool:mcp.fake.*", "--state-dir", filepath.Join(dir, "state"))
	if code != 3 {
		t.Fatalf("default effect: exit %d, want 3 (approval_required): %s", code, errOut)
	}
	ro := fakeMCPConfig(t, dir, map[string]any{"effect": "read"})
	out, errOut, code = runCLI(t, "", "tools", "call", "mcp.fake.echo", "--args", `{"text":"hi"}`, "--workspace", dir, "--mcp", ro, "--allow", "tool:mcp.fake.echo")
	if code != 0 || !strings.Contains(out, `"text": "hi"`) {
		t.Fatalf("read-only server: exit %d: %s %s", code, out, errOut)
	}
	_, _, code = runCLI(t, "", "tools", "call", "mcp.fake.echo", "--args", `{"text":"hi"}`, "--workspace", dir, "--mcp", ro, "--allow", "tool:mcp.other.*")
	if code != 1 {
		t.Fatalf("without the capability: exit %d", code)
	}
	_, errOut, code = runCLI(t, "", "tools", "list", "--mcp", filepath.Join(dir, "missing.json"))
	if code == 0 || !strings.Contains(errOut, "mcp/invalid_config") {
		t.Fatalf("missing config: %d %s", code, errOut)
	}
}

// TestDirectCallsMCPTool: rlm direct --mcp cfg.json --replay CASSETTE, the
// model calls an MCP tool, and the call goes through capabilities,
// authority and the effect journal like a built-in tool.
func TestDirectCallsMCPTool(t *testing.T) {
	dir := t.TempDir()
	cfg := fakeMCPConfig(t, dir, nil)
	cas := directCassette(t, dir, directReply("", [3]string{"c1", "mcp.fake.echo", `{"text":"ping"}`}), directReply("pong"))
	state := filepath.Join(dir, "state")
	for _, c := range []struct {
		tier, events string
		code         int
	}{
		{"allow_session", "native_tool:c1:ok:", 0},
		{"approve_diff", "native_tool:c1:approval_required:approval_required", 3},
	} {
		out, errOut, code := runCLI(t, "", "direct", "--replay", cas, "--json", "--workspace", dir, "--mcp", cfg,
			"--allow", "tool:mcp.fake.echo", "--authority", c.tier, "--state-dir", state, "echo ping through the fake server")
		if code != c.code {
			t.Fatalf("%s: exit %d: %s %s", c.tier, code, out, errOut)
		}
		d := parseDirect(t, out)
		if got := eventSummary(d); got != c.events {
			t.Errorf("%s: events %q, want %q", c.tier, got, c.events)
		}
		var raw struct {
			RunID string `json:"run_id"`
		}
		json.Unmarshal([]byte(out), &raw)
		if raw.RunID == "" {
			t.Errorf("%s: no run_id: the effectful MCP tool did not open the effect journal", c.tier)
		}
	}
}

func TestDirectReadsMCPResourceContext(t *testing.T) {
	dir := t.TempDir()
	cfg := fakeMCPConfig(t, dir, nil)
	// The second reply is served only if the request carries the resource's
	// line, so the run fails unless the resource became the context.
	c := &replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		{Response: directReply("", [3]string{"s1", "context_search", `{"query":"secret"}`})},
		{Match: &replay.Match{Contains: "the secret number is 42"}, Response: directReply("42")},
	}}
	cas := filepath.Join(dir, "cassette.json")
	if err := c.Save(cas); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "direct", "--replay", cas, "--json", "--mcp", cfg, "--context", "mcp://fake/fake://notes/1",
		"--allow", "context:search", "find the secret number")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if d := parseDirect(t, out); d.Answer != "42" {
		t.Fatalf("the resource did not become the context: %s", out)
	}
	_, errOut, code = runCLI(t, "", "direct", "--replay", cas, "--context", "mcp://fake/x", "q")
	if code == 0 || !strings.Contains(errOut, "--mcp") {
		t.Fatalf("mcp:// without --mcp: %d %s", code, errOut)
	}
}

// serveClient connects an SDK client to `rlm mcp serve` (the built binary)
// over stdio, logging every message to log.
func serveClient(t *testing.T, log *strings.Builder, env []string, args ...string) *mcpsdk.ClientSession {
	t.Helper()
	cmd := exec.Command(builtBinary(t), append([]string{"mcp", "serve"}, args...)...)
	cmd.Env = env
	var tr mcpsdk.Transport = &mcpsdk.CommandTransport{Command: cmd}
	tr = &mcpsdk.LoggingTransport{Transport: tr, Writer: &lockedWriter{b: log}}
	sess, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return sess
}

func TestMCPServeBinary(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "doc.txt"), []byte("alpha\nthe answer is 42\nomega\n"), 0o644)
	cas := writeCassette(t, dir, `{"answer":"42"}`)
	const key = "sk-test-never-in-mcp-0123456789"
	var log strings.Builder
	sess := serveClient(t, &log, binaryEnv("OPENAI_API_KEY="+key), "--replay", cas, "--root", dir)
	ctx := context.Background()
	res, err := sess.CallTool(ctx, &mcpsdk.CallToolParams{Name: "context_search", Arguments: map[string]any{"path": "doc.txt", "pattern": "answer"}})
	if err != nil || res.IsError {
		t.Fatalf("context_search: %v %+v", err, res)
	}
	res, err = sess.CallTool(ctx, &mcpsdk.CallToolParams{Name: "rlm_run", Arguments: map[string]any{"query": "what is the answer?", "context_path": "doc.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Status  string `json:"status"`
		Answer  any    `json:"answer"`
		TraceID string `json:"trace_id"`
	}
	json.Unmarshal(b, &out)
	if res.IsError || out.Status != "completed" || out.Answer != "42" || !strings.HasPrefix(out.TraceID, "trace-") {
		t.Fatalf("rlm_run: %s", b)
	}
	res, err = sess.CallTool(ctx, &mcpsdk.CallToolParams{Name: "rlm_run", Arguments: map[string]any{"query": "q", "context_path": "/etc/passwd"}})
	if err != nil || !res.IsError {
		t.Fatalf("outside the roots: %v %+v", err, res)
	}
	sess.Close()
	if strings.Contains(log.String(), key) {
		t.Fatal("the API key appeared in an MCP message")
	}
}

type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func TestMCPServeHTTPBearer(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "doc.txt"), []byte("one\ntwo\n"), 0o644)
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	// A non-loopback address needs a token.
	out, err := exec.Command(builtBinary(t), "mcp", "serve", "--http", "0.0.0.0:0", "--replay", cas).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "bearer token") {
		t.Fatalf("non-loopback without a token: %v %s", err, out)
	}
	url := serveHTTP(t, binaryEnv("RLM_TEST_TOKEN=s3cret-token"), "--bearer-token-env", "RLM_TEST_TOKEN", "--root", dir, "--replay", cas)
	ctx := context.Background()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: HTTP %d", resp.StatusCode)
	}
	hc := &http.Client{Transport: bearer{"s3cret-token"}}
	sess, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test"}, nil).Connect(ctx,
		&mcpsdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res, err := sess.CallTool(ctx, &mcpsdk.CallToolParams{Name: "context_metadata", Arguments: map[string]any{"path": "doc.txt"}})
	if err != nil || res.IsError {
		t.Fatalf("context_metadata over HTTP: %v %+v", err, res)
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// serveHTTP starts `rlm mcp serve --http 127.0.0.1:0 ARGS` (stopped at the
// end of the test) and returns its URL.
func serveHTTP(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, builtBinary(t), append([]string{"mcp", "serve", "--http", "127.0.0.1:0"}, args...)...)
	srv.Env = env
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Wait() })
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	url := strings.TrimSpace(strings.TrimPrefix(line, "rlm: mcp: serving streamable HTTP on "))
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("serve said %q", line)
	}
	return url
}

// TestRunPlanCallsMCPTool: rlm run's plan language calls an MCP tool by its
// registered name, through the same runtime.
func TestRunPlanCallsMCPTool(t *testing.T) {
	dir := t.TempDir()
	cfg := fakeMCPConfig(t, dir, map[string]any{"effect": "read"})
	ctxFile := filepath.Join(dir, "ctx.txt")
	os.WriteFile(ctxFile, []byte("context\n"), 0o644)
	plan := `{"steps":[{"op":"tool","name":"mcp.fake.add","args":{"a":20,"b":22},"bind":"f"},{"op":"final","value":{"ref":"var","name":"f"}}]}`
	cas := writeCassette(t, dir, plan)
	out, errOut, code := runCLI(t, "", "run", "--replay", cas, "--json", "--context", ctxFile, "--workspace", dir, "--mcp", cfg,
		"--allow", "tool:mcp.fake.*", "add them")
	if code != 0 || !strings.Contains(out, `"sum": 42`) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
}
