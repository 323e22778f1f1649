package launcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Real MCP peers from the npm registry, installed by .ci/run (block "MCP
// peers"): RLM_MCP_PEERS is their node_modules directory and RLM_MCP_NODE
// a Node.js >= 22 for the conformance suite. Without them these tests
// skip, unless RLM_REQUIRE_MCP_PEERS=1 (CI) makes them required.

func mcpPeers(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("RLM_MCP_PEERS")
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js")); err == nil {
			if _, err := exec.LookPath("node"); err == nil {
				return dir
			}
		}
	}
	if os.Getenv("RLM_REQUIRE_MCP_PEERS") == "1" {
		t.Fatalf("RLM_REQUIRE_MCP_PEERS=1 but the MCP peers are not installed (RLM_MCP_PEERS=%q)", dir)
	}
	t.Skip("MCP peers not installed (set RLM_MCP_PEERS; .ci/run installs them)")
	return ""
}

func peerScript(dir, pkg string) string {
	return filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js")
}

func writeMCPConfig(t *testing.T, dir string, servers map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	p := filepath.Join(dir, "peers.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func callOK(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("rlm %v: exit %d: %s %s", args, code, out, errOut)
	}
	return out
}

func TestMCPPeersStdio(t *testing.T) {
	peers := mcpPeers(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "files")
	os.Mkdir(root, 0o755)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello from the filesystem server\n"), 0o644)
	cfg := writeMCPConfig(t, dir, map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{peerScript(peers, "server-everything"), "stdio"}, "effect": "read"},
		"fs": map[string]any{"command": "node", "args": []string{peerScript(peers, "server-filesystem"), root},
			"tools": map[string]any{"read_text_file": map[string]any{"effect": "read"}}},
	})
	out := callOK(t, "tools", "list", "--workspace", dir, "--mcp", cfg)
	for _, want := range []string{`"mcp.everything.echo"`, `"mcp.everything.get-sum"`, `"mcp.fs.read_text_file"`, `"mcp.fs.write_file"`} {
		if !strings.Contains(out, want) {
			t.Errorf("tools list lacks %s", want)
		}
	}
	out = callOK(t, "tools", "call", "mcp.everything.echo", "--args", `{"message":"hi"}`, "--workspace", dir, "--mcp", cfg, "--allow", "tool:mcp.everything.*")
	if !strings.Contains(out, "Echo: hi") {
		t.Errorf("echo: %s", out)
	}
	out = callOK(t, "tools", "call", "mcp.everything.get-sum", "--args", `{"a":2,"b":40}`, "--workspace", dir, "--mcp", cfg, "--allow", "tool:mcp.everything.get-sum")
	if !strings.Contains(out, "42") {
		t.Errorf("get-sum: %s", out)
	}
	out = callOK(t, "tools", "call", "mcp.fs.read_text_file", "--args", fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "a.txt")), "--workspace", dir, "--mcp", cfg, "--allow", "tool:mcp.fs.*")
	if !strings.Contains(out, "hello from the filesystem server") {
		t.Errorf("read_text_file: %s", out)
	}
	// write_file keeps the default effect class: it needs approval.
	_, _, code := runCLI(t, "", "tools", "call", "mcp.fs.write_file", "--args", fmt.Sprintf(`{"path":%q,"content":"x"}`, filepath.Join(root, "b.txt")),
		"--workspace", dir, "--mcp", cfg, "--allow", "tool:mcp.fs.*", "--state-dir", filepath.Join(dir, "state"))
	if code != 3 {
		t.Errorf("write_file: exit %d, want 3 (approval_required)", code)
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Error("write_file ran without approval")
	}
}

// listeningRE is the line testdata/mcp/report-port.cjs prints on stderr
// once a Node.js server listens.
var listeningRE = regexp.MustCompile(`rlm-test: listening on port (\d+)\n`)

// portWatch is a peer's stderr: it keeps the text and sends the port of
// the first listening line on port.
type portWatch struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	port chan int
}

func (w *portWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := listeningRE.Match(w.buf.Bytes())
	w.buf.Write(p)
	if m := listeningRE.FindSubmatch(w.buf.Bytes()); m != nil && !seen {
		n, _ := strconv.Atoi(string(m[1]))
		w.port <- n // buffered: sent once
	}
	return len(p), nil
}

func (w *portWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// The server listens on a port the system gives it (PORT=0), which the
// preloaded report-port.cjs prints: a port chosen here and closed before
// node binds it may be taken by another process in between.
func TestMCPPeerEverythingHTTP(t *testing.T) {
	peers := mcpPeers(t)
	preload, err := filepath.Abs(filepath.Join("testdata", "mcp", "report-port.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "-r", preload, peerScript(peers, "server-everything"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT=0")
	stderr := &portWatch{port: make(chan int, 1)}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	defer func() { cmd.Process.Kill(); <-exited }()
	var port int
	select {
	case port = <-stderr.port:
	case <-exited:
		t.Fatalf("server-everything exited before listening: %v\n%s", waitErr, stderr.String())
	case <-time.After(safetyTimeout): // a safety net, not an assertion on timing
		t.Fatalf("server-everything did not listen; stderr: %s", stderr.String())
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	dir := t.TempDir()
	cfg := writeMCPConfig(t, dir, map[string]any{"web": map[string]any{"url": "http://" + addr + "/mcp", "effect": "read"}})
	out := callOK(t, "tools", "call", "mcp.web.echo", "--args", `{"message":"over http"}`, "--workspace", dir, "--mcp", cfg, "--allow", "tool:mcp.web.*")
	if !strings.Contains(out, "Echo: over http") {
		t.Errorf("echo over streamable HTTP: %s", out)
	}
}

func TestMCPPeerTypeScriptClient(t *testing.T) {
	peers := mcpPeers(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "doc.txt"), []byte("alpha\nthe answer is 42\nomega\n"), 0o644)
	cas := writeCassette(t, dir, `{"answer":"42"}`)
	out, err := exec.Command("node", filepath.Join("testdata", "mcp", "ts-client.mjs"), peers, builtBinary(t), dir, cas).CombinedOutput()
	if err != nil {
		t.Fatalf("ts client: %v\n%s", err, out)
	}
	var got struct {
		Tools          []string
		Search         struct{ Value []map[string]any }
		Run            struct{ Status, Answer, TraceID string }
		OutsideIsError bool
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Join(got.Tools, ",") != "context_metadata,context_search,context_slice,rlm_run" || len(got.Search.Value) != 1 ||
		got.Run.Status != "completed" || got.Run.Answer != "42" || !got.OutsideIsError {
		t.Fatalf("ts client saw %s", out)
	}
}

// Scenarios of @modelcontextprotocol/conformance that apply to rlm. The
// others need tools, prompts or resources of the suite's reference server
// (test_simple_text, ...), or client features rlm does not offer
// (elicitation, sampling, OAuth); docs/mcp.md lists them.
var (
	conformanceServer = []string{"server-initialize", "ping", "logging-set-level", "tools-list", "resources-list", "prompts-list",
		"server-sse-multiple-streams", "dns-rebinding-protection"}
	conformanceClient = []string{"initialize", "tools_call", "sse-retry"}
	passedRE          = regexp.MustCompile(`Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings?`)
)

func conformance(t *testing.T, node, suite string, args ...string) (passed, total int) {
	t.Helper()
	cmd := exec.Command(node, append([]string{suite}, args...)...)
	cmd.Dir = t.TempDir() // results/ go here
	cmd.Env = append(os.Environ(), "RLM_BIN="+builtBinary(t))
	out, err := cmd.CombinedOutput()
	m := passedRE.FindSubmatch(out)
	if err != nil || m == nil || string(m[3]) != "0" || string(m[4]) != "0" { // a warning fails the scenario too
		t.Errorf("conformance %v: %v\n%s", args, err, out)
		return 0, 0
	}
	fmt.Sscan(string(m[1]), &passed)
	fmt.Sscan(string(m[2]), &total)
	return passed, total
}

func TestMCPConformance(t *testing.T) {
	peers := mcpPeers(t)
	node := os.Getenv("RLM_MCP_NODE")
	if node == "" {
		if os.Getenv("RLM_REQUIRE_MCP_PEERS") == "1" {
			t.Fatal("RLM_MCP_NODE (Node.js >= 22 for the conformance suite) is not set")
		}
		t.Skip("RLM_MCP_NODE not set")
	}
	suite := peerScript(peers, "conformance")
	dir := t.TempDir()
	cas := filepath.Join(dir, "empty.json")
	os.WriteFile(cas, []byte(`{"version":1,"interactions":[]}`), 0o644)
	url := serveHTTP(t, os.Environ(), "--root", dir, "--replay", cas)
	var sp, st, cp, ct int
	for _, sc := range conformanceServer {
		p, n := conformance(t, node, suite, "server", "--url", url, "--scenario", sc)
		sp, st = sp+p, st+n
	}
	client, _ := filepath.Abs(filepath.Join("..", "..", "mcp", "testdata", "conformance-client.sh"))
	for _, sc := range conformanceClient {
		p, n := conformance(t, node, suite, "client", "--command", client, "--scenario", sc)
		cp, ct = cp+p, ct+n
	}
	t.Logf("conformance: server %d scenarios, %d/%d checks passed; client %d scenarios, %d/%d checks passed",
		len(conformanceServer), sp, st, len(conformanceClient), cp, ct)
}
