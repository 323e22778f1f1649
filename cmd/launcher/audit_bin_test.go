package launcher

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/model/replay"
)

// rlm direct --context - with rlm_subagent granted: the child answers over
// the same context (docs/agents.md), which was read from stdin once. The
// child's plan returns the head of its context; the root's last reply is
// only in the cassette for a request that carries that text back.
func TestDirectSubagentChildSeesStdinContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const magic = "MAGIC-STDIN-LINE-7731"
	child := planReply(
		map[string]any{"op": "context", "handle": map[string]any{"ref": "input", "name": "context"},
			"action": map[string]any{"type": "peek", "selector": "head", "count": 200}, "bind": "p"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "p"}})
	cas := cassetteOf(t, dir, "stdin-child.json",
		replay.Interaction{Response: directReply("", [3]string{"call_1", "rlm_subagent", `{"query":"read it"}`})},
		answer("Query: read it", child),
		replay.Interaction{Match: &replay.Match{Contains: magic}, Response: directReply("The child read it.")})
	r := runBinary(t, strings.NewReader("first line\n"+magic+"\n"), nil,
		"direct", "--allow", "tool:rlm_subagent,context:peek", "--context", "-", "--replay", cas, "--json", "what does the input say?")
	var d directOut
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("exit %d, not JSON: %s %s", r.code, r.stdout, r.stderr)
	}
	if r.code != 0 || d.Status != "completed" || d.Answer != "The child read it." {
		t.Fatalf("the child did not answer over the stdin context: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
}

// rlm mcp serve --record FILE: the model interactions of the calls served
// are written to the cassette when the server stops, as --record promises
// on every command that takes the provider flags.
func TestMCPServeRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "doc.txt", "alpha\nthe answer is 42\n")
	cas := writeCassette(t, dir, `{"answer":"42"}`)
	rec := filepath.Join(dir, "recorded.json")
	var log strings.Builder
	sess := serveClient(t, &log, binaryEnv(), "--replay", cas, "--record", rec, "--root", dir)
	res, err := sess.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: "rlm_run",
		Arguments: map[string]any{"query": "what is the answer?", "context_path": "doc.txt"}})
	if err != nil || res.IsError {
		t.Fatalf("rlm_run: %v %+v", err, res)
	}
	if err := sess.Close(); err != nil { // stdin closed: the server exits
		t.Fatal(err)
	}
	c, err := replay.Load(rec)
	if err != nil {
		t.Fatalf("--record wrote no cassette: %v", err)
	}
	if len(c.Interactions) != 1 {
		t.Fatalf("recorded %d interactions, want 1", len(c.Interactions))
	}
}

// rlm chat waiting for its next query on stdin: SIGTERM (or Ctrl-C) ends
// the session with exit status 130, as it ends every other command; it was
// swallowed, and the process kept waiting for input.
func TestChatInterruptedWhileWaitingForQuery(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := writeFile(t, dir, "in.txt", "a\nb\n")
	cas := writeCassette(t, dir, pyBlock(`FINAL("first")`))
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdinW.Close()
	cmd := exec.Command(builtBinary(t), "chat", "--context", ctxFile, "--replay", cas)
	cmd.Env = binaryEnv()
	cmd.Stdin = stdinR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdinR.Close()
	defer cmd.Process.Kill()
	io.WriteString(stdinW, "first?\n")
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "first\n" {
		t.Fatalf("first answer %q, %v; stderr %s", line, err, errb.String())
	}
	// The session now waits for the next query; stdin stays open.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(safetyTimeout): // a safety net, not an assertion on timing
		cmd.Process.Kill()
		<-done
		t.Fatalf("rlm chat did not stop after SIGTERM while waiting for a query; stderr %s", errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitInterrupted, errb.String())
	}
}

// An error's hint names only flags the failing command has: rlm context
// takes its input as an argument, so "check the --context path" sent the
// user to a flag that does not exist there.
func TestHintsNameExistingFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	flagRe := regexp.MustCompile(`--[a-z][a-z0-9-]*`)
	for _, tt := range []struct {
		args []string
		kind string
	}{
		{[]string{"context", "metadata", missing}, "io_error"},
		{[]string{"context", "search", missing, "x"}, "io_error"},
		{[]string{"context", "peek", missing, "--head", "10"}, "io_error"},
		{[]string{"run", "--context", missing, "--replay", cas, "q"}, "io_error"},
		{[]string{"trace", "view", missing}, "io_error"},
	} {
		t.Run(strings.Join(tt.args[:2], "_"), func(t *testing.T) {
			r := runBinary(t, nil, nil, append(tt.args, "--json")...)
			var out struct {
				Error struct {
					Kind string `json:"kind"`
					Hint string `json:"hint"`
				} `json:"error"`
			}
			if r.code != 1 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Error.Kind != tt.kind {
				t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
			}
			cmd, _, err := (&launcher{}).newRootCmd(nil).Find(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range flagRe.FindAllString(out.Error.Hint, -1) {
				if cmd.Flags().Lookup(f[2:]) == nil && cmd.InheritedFlags().Lookup(f[2:]) == nil {
					t.Errorf("%s: the hint %q names %s, which the command does not have", cmd.CommandPath(), out.Error.Hint, f)
				}
			}
		})
	}
}

// A malformed --otlp-endpoint is configuration: it is refused before the
// input is read (stdin here never ends), as every other flag is.
func TestOTLPEndpointCheckedBeforeReadingStdin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	for _, name := range []string{"run", "direct"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, builtBinary(t), name, "--context", "-", "--replay", cas, "--otlp-endpoint", "ftp://collector", "--json", "q")
			cmd.Env = binaryEnv()
			cmd.Stdin = openPipe(t)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			_ = cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("rlm %s read stdin before refusing the endpoint (blocked); stderr %s", name, errb.String())
			}
			d := parseDoc(t, out.String())
			if cmd.ProcessState.ExitCode() != 1 || d.Error.Phase != "config" || d.Error.Kind != "invalid_otlp_endpoint" {
				t.Fatalf("exit %d: %s %s", cmd.ProcessState.ExitCode(), out.String(), errb.String())
			}
		})
	}
}
