package launcher

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model/replay"
)

// The documented CLI contract checked through the built binary: what the
// README and docs/*.md promise about streams, hints, exit codes and files.

// rlm trace export -o OUT that fails (here: a trace with no run) leaves no
// OUT behind, and an OUT written by an earlier export keeps its content.
func TestTraceExportFailureLeavesNoOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noRun := writeFile(t, dir, "turn.jsonl", `{"seq":1,"id":"e1","kind":"turn","name":"t","status":"ok"}`+"\n")
	fresh := filepath.Join(dir, "fresh.jsonl")
	r := runBinary(t, nil, nil, "trace", "export", noRun, "-o", fresh)
	if r.code != 1 || !strings.HasPrefix(r.stderr, "rlm: trace/malformed_trace") {
		t.Fatalf("exit %d; stderr %s", r.code, r.stderr)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Fatalf("a failed export left %s behind (stat: %v)", fresh, err)
	}
	old := writeFile(t, dir, "old.jsonl", "earlier export\n")
	if r := runBinary(t, nil, nil, "trace", "export", noRun, "-o", old); r.code != 1 {
		t.Fatalf("exit %d; stderr %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(old); err != nil || string(b) != "earlier export\n" {
		t.Fatalf("a failed export changed the existing output: %q, %v", b, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

// A failed query of rlm chat is printed like every other error (README:
// "Errors are printed once, with a hint: line"): "rlm: phase/kind: ...",
// the server's message once, and the hint; the session goes on and exits 1.
func TestChatQueryErrorPrintedWithHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := writeFile(t, dir, "in.txt", "a\nb\n")
	empty := filepath.Join(dir, "empty.json")
	if err := (&replay.Cassette{Version: replay.Version}).Save(empty); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, strings.NewReader("q?\n"), nil, "chat", "--context", ctxFile, "--replay", empty)
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q; stderr %s", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "rlm: provider/http_status") {
		t.Fatalf("the error is not printed as rlm: phase/kind:\n%s", r.stderr)
	}
	if n := strings.Count(r.stderr, "cassette exhausted"); n != 1 {
		t.Fatalf("the server's message appears %d times:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stderr, "\nhint: ") {
		t.Fatalf("no hint line:\n%s", r.stderr)
	}
}

// rlm chat --context - is refused with a hint (a hint line in text, the
// "hint" field in JSON), not a hint hidden in the detail.
func TestChatStdinContextRefusedWithHint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cas := writeCassette(t, dir, pyBlock(`FINAL("x")`))
	r := runBinary(t, nil, nil, "chat", "--context", "-", "--replay", cas)
	if r.code != 1 || !strings.HasPrefix(r.stderr, "rlm: config/invalid") {
		t.Fatalf("exit %d; stderr %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "\nhint: ") || strings.Contains(r.stderr, "hint=") {
		t.Fatalf("the hint is not a hint line:\n%s", r.stderr)
	}
}

// rlm mcp serve over stdio stopped by Ctrl-C stops as it does over --http
// (and as rlm serve-cassette and rlm trace serve do): exit 0, no error. It
// printed "config/invalid_usage: context canceled" with the hint "see rlm
// --help", a usage error for a normal stop.
func TestMCPServeStdioInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cas := writeCassette(t, dir, `{"answer":"42"}`)
	cmd := exec.Command(builtBinary(t), "mcp", "serve", "--replay", cas)
	cmd.Env = binaryEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// An answered initialize: the server runs (and handles signals).
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize: %q, %v; stderr %s", line, err, errb.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(safetyTimeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("rlm mcp serve did not stop after SIGINT; stderr %s", errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 || strings.Contains(errb.String(), string(kindUsage)) {
		t.Fatalf("exit %d; stderr %s", code, errb.String())
	}
}

// --max-depth above the supported maximum (3; before issue 31, above 1
// without --experimental-deep-recursion) is refused with the same kind by
// every command that takes the budget flags (docs/errors.md:
// validate/experimental_deep_recursion_required), before any model call,
// with or without the deprecated flag; rlm direct said
// config/invalid_limits.
func TestDeepRecursionRefusedAlikeByEveryCommand(t *testing.T) {
	t.Parallel()
	dir, kb, ctxFile := commandFiles(t)
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	for _, args := range [][]string{
		{"run", "--context", ctxFile, "q"},
		{"direct", "--context", ctxFile, "q"},
		{"command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile},
	} {
		t.Run(args[0], func(t *testing.T) {
			for _, extra := range [][]string{nil, {"--experimental-deep-recursion"}} {
				r := runBinary(t, nil, nil, append(append(args, extra...), "--replay", cas, "--max-depth", "4", "--json")...)
				if r.code != 1 || jsonErrorKind([]byte(r.stdout)) != string(engine.KindDeepRecursionRequired) {
					t.Fatalf("%v: exit %d, kind %q; stdout %s", extra, r.code, jsonErrorKind([]byte(r.stdout)), r.stdout)
				}
			}
		})
	}
}

// rlm status prints JSON; with --json its failure is JSON too (README:
// "with --json every command prints a failure as {"status": "failed",
// "error": {...}}"), not "unknown flag: --json". No database is needed: the
// URL is refused before connecting.
func TestStatusJSONError(t *testing.T) {
	t.Parallel()
	r := runBinary(t, nil, nil, "status", "--db", "not-a-url", "--json", "run-1")
	if r.code != 1 || jsonErrorKind([]byte(r.stdout)) != string(fault.KindInvalid) || r.stderr != "" {
		t.Fatalf("exit %d; stdout %s; stderr %s", r.code, r.stdout, r.stderr)
	}
}
