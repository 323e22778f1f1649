package launcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// Issue 29 item 5: one result envelope, one status vocabulary and one
// exit-code table for every command with --json, through the built binary.

// envelopeCase is one command line (--json added) and what it prints.
type envelopeCase struct {
	cmd    string // the command's path below rlm, e.g. "tools call"
	args   []string
	stdin  string
	code   int
	status string // the envelope's status; "" for a document (a command whose --json only shapes its failures)
	lines  bool   // JSON lines, one envelope per line (chat)
}

// envelopeFixtures are the inputs of the cases: a context, cassettes, a
// workspace, a trace, a prompt command's knowledge base.
type envelopeFixtures struct {
	dir, ctxFile, runCas, directCas, chatCas, ws, traceFile, kb, cmdCas string
	runWriteCas, directWriteCas                                         string // a write under approve_diff
	approvalRun                                                         string // a run that waits for an approval, in dir/state
}

func newEnvelopeFixtures(t *testing.T) envelopeFixtures {
	t.Helper()
	dir := t.TempDir()
	f := envelopeFixtures{dir: dir}
	f.ctxFile = writeFile(t, dir, "in.txt", "one\ntwo needle\nthree\n")
	sub := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f.runCas = writeCassette(t, sub("run"), `{"answer":"line 2"}`)
	f.directCas = directCassette(t, sub("direct"), directReply("line 2"))
	f.runWriteCas = writeCassette(t, sub("run-write"),
		`{"steps":[{"op":"tool","name":"fs_write","args":{"path":"b.txt","content":"x"},"bind":"w"},{"op":"final","value":"done"}]}`)
	f.directWriteCas = directCassette(t, sub("direct-write"),
		directReply("", [3]string{"w", "fs_write", `{"path":"b.txt","content":"x"}`}), directReply("done"))
	f.chatCas = writeCassette(t, sub("chat"), pyBlock(`FINAL("two")`))
	f.ws = sub("ws")
	writeFile(t, f.ws, "a.txt", "hello")
	f.traceFile = filepath.Join(dir, "run.jsonl")
	if r := runBinary(t, nil, nil, "run", "--context", f.ctxFile, "--replay", f.runCas, "--trace", f.traceFile, "q"); r.code != 0 {
		t.Fatalf("writing the trace: exit %d: %s", r.code, r.stderr)
	}
	r := runBinary(t, nil, nil, "tools", "call", "fs_write", "--args", `{"path":"p.txt","content":"x"}`, "--allow", "tool:fs_write",
		"--workspace", f.ws, "--state-dir", filepath.Join(dir, "state"))
	var stop struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &stop); r.code != 3 || err != nil || stop.RunID == "" {
		t.Fatalf("an approval stop: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	f.approvalRun = stop.RunID
	_, f.kb, _ = commandFiles(t)
	f.cmdCas = writeCassette(t, sub("command"), `{"answer":"two"}`)
	return f
}

// envelopeCases covers every command with --json: on success and on
// failure (and approval_required where a command can stop for one).
func envelopeCases(f envelopeFixtures) []envelopeCase {
	missing := filepath.Join(f.dir, "missing")
	cat := promptData("catalog.json")
	badDB := "postgres://%zz" // refused before any connection
	tool := []string{"--workspace", f.ws, "--state-dir", filepath.Join(f.dir, "state")}
	return []envelopeCase{
		{cmd: "run", args: []string{"run", "--context", f.ctxFile, "--replay", f.runCas, "q"}, status: "completed"},
		{cmd: "run", args: []string{"run", "--context", missing, "--replay", f.runCas, "q"}, code: 1, status: "failed"},
		{cmd: "run", args: []string{"run", "--context", f.ctxFile, "--no-such-flag", "q"}, code: 2, status: "failed"},
		{cmd: "direct", args: []string{"direct", "--context", f.ctxFile, "--replay", f.directCas, "q"}, status: "completed"},
		{cmd: "direct", args: []string{"direct", "--context", missing, "--replay", f.directCas, "q"}, code: 1, status: "failed"},
		{cmd: "run", args: append([]string{"run", "--context", f.ctxFile, "--replay", f.runWriteCas, "--allow", "tool:fs_write", "q"}, tool...), code: 3, status: "approval_required"},
		{cmd: "direct", args: append([]string{"direct", "--context", f.ctxFile, "--replay", f.directWriteCas, "--allow", "tool:fs_write", "q"}, tool...), code: 3, status: "approval_required"},
		{cmd: "chat", args: []string{"chat", "--context", f.ctxFile, "--replay", f.chatCas}, stdin: "how many?\n", status: "completed", lines: true},
		{cmd: "chat", args: []string{"chat", "--context", missing, "--replay", f.chatCas}, stdin: "q\n", code: 1, status: "failed", lines: true},
		{cmd: "demo", args: []string{"demo"}, status: "completed"},
		{cmd: "demo", args: []string{"demo", "--mode", "bogus"}, code: 1, status: "failed"},
		{cmd: "tools call", args: append([]string{"tools", "call", "fs_read", "--args", `{"path":"a.txt"}`, "--allow", "tool:fs_read"}, tool...), status: "completed"},
		{cmd: "tools call", args: append([]string{"tools", "call", "nope"}, tool...), code: 1, status: "failed"},
		{cmd: "tools call", args: append([]string{"tools", "call", "fs_write", "--args", `{"path":"b.txt","content":"x"}`, "--allow", "tool:fs_write"}, tool...), code: 3, status: "approval_required"},
		{cmd: "approve", args: []string{"approve", f.approvalRun, "--state-dir", filepath.Join(f.dir, "state")}, status: "completed"},
		{cmd: "approve", args: []string{"approve", f.approvalRun, "approval_9", "--state-dir", filepath.Join(f.dir, "state")}, code: 1, status: "failed"},
		{cmd: "tools list", args: []string{"tools", "list", "--workspace", f.ws}},
		{cmd: "tools list", args: []string{"tools", "list", "--workspace", missing}, code: 1, status: "failed"},
		{cmd: "trace view", args: []string{"trace", "view", f.traceFile}, status: "completed"},
		{cmd: "trace view", args: []string{"trace", "view", missing}, code: 1, status: "failed"},
		{cmd: "trace import", args: []string{"trace", "import", missing, "-o", filepath.Join(f.dir, "imported.jsonl")}, code: 1, status: "failed"},
		{cmd: "trace import", args: []string{"trace", "import", missing}, code: 2, status: "failed"},
		{cmd: "trace export", args: []string{"trace", "export", "--format", "rlm-jsonl", missing}, code: 1, status: "failed"},
		// A missing file is waited for; one in a missing directory is refused.
		{cmd: "trace serve", args: []string{"trace", "serve", filepath.Join(missing, "run.jsonl")}, code: 1, status: "failed"},
		{cmd: "command", args: []string{"command", "--kb", f.kb, "--trigger", "unknown", "--context", f.ctxFile, "--replay", f.cmdCas}, status: "completed"},
		{cmd: "command", args: []string{"command", "--kb", missing, "--trigger", "unknown", "--context", f.ctxFile}, code: 1, status: "failed"},
		{cmd: "command compile", args: []string{"command", "compile", "--kb", f.kb, "--trigger", "unknown"}},
		{cmd: "command compile", args: []string{"command", "compile", "--kb", missing, "--trigger", "unknown"}, code: 1, status: "failed"},
		{cmd: "command exec", args: []string{"command", "exec", "--compiled", missing, "--context", f.ctxFile}, code: 1, status: "failed"},
		{cmd: "context metadata", args: []string{"context", "metadata", f.ctxFile}},
		{cmd: "context metadata", args: []string{"context", "metadata", missing}, code: 1, status: "failed"},
		{cmd: "context peek", args: []string{"context", "peek", f.ctxFile, "--head", "3"}},
		{cmd: "context peek", args: []string{"context", "peek", f.ctxFile}, code: 2, status: "failed"},
		{cmd: "context slice", args: []string{"context", "slice", f.ctxFile, "0", "3"}},
		{cmd: "context slice", args: []string{"context", "slice", f.ctxFile, "100", "1"}, code: 1, status: "failed"},
		{cmd: "context search", args: []string{"context", "search", f.ctxFile, "needle"}},
		{cmd: "context search", args: []string{"context", "search", f.ctxFile, ""}, code: 1, status: "failed"},
		{cmd: "context partition", args: []string{"context", "partition", f.ctxFile, "--lines", "2"}},
		{cmd: "context do", args: []string{"context", "do", f.ctxFile, `{"type":"reduce","reducer":"count"}`}},
		{cmd: "context do", args: []string{"context", "do", missing, `{"type":"reduce","reducer":"count"}`}, code: 1, status: "failed"},
		{cmd: "context partition", args: []string{"context", "partition", missing, "--lines", "2"}, code: 1, status: "failed"},
		{cmd: "compile", args: []string{"compile", "--catalog", cat, "--input", promptData("input.json"), "--options", promptData("options.json")}},
		{cmd: "compile", args: []string{"compile", "--catalog", missing, "--text", "x"}, code: 1, status: "failed"},
		{cmd: "explain", args: []string{"explain", "--catalog", cat, "--text", "tell me a joke", "--options", promptData("options.json"), "--unit", "tool:task"}},
		{cmd: "explain", args: []string{"explain", "--catalog", cat, "--unit", "tool:nope"}, code: 1, status: "failed"},
		{cmd: "search", args: []string{"search", "--catalog", cat, "--query", "diff", "--limit", "2"}},
		{cmd: "search", args: []string{"search", "--catalog", cat, "--query", ""}, code: 1, status: "failed"},
		{cmd: "bench run", args: []string{"bench", "run", "--task", "haystack", "--replay", f.runCas}, code: 1, status: "failed"},
		{cmd: "bench conformance", args: []string{"bench", "conformance", "--case", "answer_direct"}},
		{cmd: "bench conformance", args: []string{"bench", "conformance", "--bogus"}, code: 2, status: "failed"},
		{cmd: "bench code-corpus", args: []string{"bench", "code-corpus", missing}, code: 1, status: "failed"},
		{cmd: "bench report", args: []string{"bench", "report", missing}, code: 1, status: "failed"},
		{cmd: "bench replay", args: []string{"bench", "replay", missing}, code: 1, status: "failed"},
		{cmd: "result", args: []string{"result", "--db", badDB, "run-1"}, code: 1, status: "failed"},
		{cmd: "status", args: []string{"status", "--db", badDB, "run-1"}, code: 1, status: "failed"},
		{cmd: "submit", args: []string{"submit", "--db", badDB, "--context", f.ctxFile, "--replay", f.runCas, "q"}, code: 1, status: "failed"},
		{cmd: "mcp serve", args: []string{"mcp", "serve"}, code: 1, status: "failed"}, // no API key
		{cmd: "mcp serve", args: []string{"mcp", "serve", "--context", missing}, code: 2, status: "failed"},
		{cmd: "serve-cassette", args: []string{"serve-cassette", "--cassette", missing}, code: 1, status: "failed"},
		{cmd: "serve-cassette", args: []string{"serve-cassette"}, code: 2, status: "failed"},
	}
}

// noSuccessCase lists the commands with --json that the table runs only
// on failure, and why.
var noSuccessCase = map[string]string{
	"bench run":         "a successful run needs a model for every trial (bench_cmd_test.go)",
	"bench code-corpus": "a report, covered by bench_cmd_test.go",
	"bench report":      "a comparison, covered by bench_report_bin_test.go",
	"bench replay":      "needs a recorded run, covered by bench_record_bin_test.go",
	"trace import":      "writes a file (trace_convert_cmd_test.go)",
	"trace export":      "writes a file (trace_convert_cmd_test.go)",
	"trace serve":       "a server",
	"command exec":      "covered by command_cmd_test.go",
	"result":            "needs PostgreSQL (durable_bin_test.go)",
	"status":            "needs PostgreSQL (durable_bin_test.go)",
	"submit":            "needs PostgreSQL (durable_bin_test.go)",
	"mcp serve":         "a server (mcp_serve_bin_test.go)",
	"serve-cassette":    "a server (serve_cassette_cmd_test.go)",
}

// statuses is the status vocabulary of the envelope.
var statuses = []string{statusCompleted, statusFailed, statusCancelled, statusApprovalRequired}

// checkEnvelope checks one envelope: the common keys, a status of the
// vocabulary, error null exactly when completed and otherwise a fault with
// phase and kind, approvals exactly when approval_required (whose error's
// hint says how to continue).
func checkEnvelope(t *testing.T, doc []byte, wantStatus string) {
	t.Helper()
	var env map[string]json.RawMessage
	if err := json.Unmarshal(doc, &env); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, doc)
	}
	for _, k := range []string{"status", "error"} {
		if _, ok := env[k]; !ok {
			t.Fatalf("no %q: %s", k, doc)
		}
	}
	var status string
	if json.Unmarshal(env["status"], &status) != nil || !slices.Contains(statuses, status) || status != wantStatus {
		t.Fatalf("status %s, want %q: %s", env["status"], wantStatus, doc)
	}
	var fe map[string]any
	if err := json.Unmarshal(env["error"], &fe); err != nil {
		t.Fatalf("error: %v: %s", err, doc)
	}
	if (fe == nil) != (status == statusCompleted) {
		t.Fatalf("status %s with error %s", status, env["error"])
	}
	if fe != nil {
		for _, k := range []string{"phase", "kind"} {
			if s, _ := fe[k].(string); s == "" {
				t.Errorf("error without %s: %s", k, env["error"])
			}
		}
	}
	if hint, _ := fe["hint"].(string); status == statusApprovalRequired && !strings.Contains(hint, "--resume") {
		t.Errorf("approval_required without the way on: %s", env["error"])
	}
	var approvals []string
	if raw, ok := env["approvals"]; ok && json.Unmarshal(raw, &approvals) != nil {
		t.Fatalf("approvals: %s", raw)
	}
	if (len(approvals) > 0) != (status == statusApprovalRequired) {
		t.Fatalf("status %s with approvals %v", status, approvals)
	}
	if raw, ok := env["output_error"]; ok {
		var oe map[string]any
		if json.Unmarshal(raw, &oe) != nil || oe["kind"] == nil {
			t.Fatalf("output_error: %s", raw)
		}
	}
}

func TestEnvelopeEveryJSONCommand(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	f := newEnvelopeFixtures(t)
	cases := envelopeCases(f)
	for i, c := range cases {
		t.Run(strconv.Itoa(i)+"_"+strings.ReplaceAll(c.cmd, " ", "_"), func(t *testing.T) {
			t.Parallel()
			var stdin *strings.Reader
			if c.stdin != "" {
				stdin = strings.NewReader(c.stdin)
			}
			env := binaryEnv("XDG_STATE_HOME=" + t.TempDir())
			var r binResult
			if stdin != nil {
				r = execBinary(t, bin, stdin, env, append(c.args, "--json")...)
			} else {
				r = execBinary(t, bin, nil, env, append(c.args, "--json")...)
			}
			if r.code != c.code {
				t.Fatalf("rlm %v --json: exit %d, want %d\nstdout %s\nstderr %s", c.args, r.code, c.code, r.stdout, r.stderr)
			}
			switch {
			case c.status == "":
				if !json.Valid([]byte(r.stdout)) {
					t.Fatalf("not JSON: %s", r.stdout)
				}
			case c.lines:
				lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
				if len(lines) != 1 {
					t.Fatalf("want one line: %q", r.stdout)
				}
				checkEnvelope(t, []byte(lines[0]), c.status)
			default:
				checkEnvelope(t, []byte(r.stdout), c.status)
			}
		})
	}
	// Every command with a --json flag has a case on failure, and one on
	// success unless noSuccessCase says why not.
	succeeds, fails := map[string]bool{}, map[string]bool{}
	for _, c := range cases {
		if c.code == 0 {
			succeeds[c.cmd] = true
		} else {
			fails[c.cmd] = true
		}
	}
	for _, name := range jsonCommands((&launcher{}).newRootCmd(nil)) {
		if !fails[name] {
			t.Errorf("rlm %s --json has no failure case", name)
		}
		if !succeeds[name] && noSuccessCase[name] == "" {
			t.Errorf("rlm %s --json has no success case", name)
		}
	}
}

// jsonCommands lists the runnable commands that have a --json flag (their
// own or inherited), by path below rlm.
func jsonCommands(root *cobra.Command) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c.Flags().Lookup("json") != nil || c.Runnable() && c.InheritedFlags().Lookup("json") != nil {
			out = append(out, strings.TrimPrefix(c.CommandPath(), root.Name()+" "))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

// exitCodeRow matches a row of the exit-code table of docs/cli.md:
// | 3 | `approval_required` | ... |
var exitCodeRow = regexp.MustCompile("(?m)^\\| (\\d+) \\| `([a-z_]+)` \\|")

// The exit-code table: docs/cli.md shows exitCodes, and the built binary
// exits with each code for its outcome.
func TestExitCodeTable(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range exitCodeRow.FindAllStringSubmatch(string(doc), -1) {
		documented = append(documented, m[1]+" "+m[2])
	}
	var table []string
	for _, e := range exitCodes {
		table = append(table, strconv.Itoa(e.Code)+" "+e.Outcome)
	}
	if !slices.Equal(documented, table) {
		t.Fatalf("docs/cli.md's exit codes %q, exitCodes %q", documented, table)
	}

	bin := builtBinary(t)
	f := newEnvelopeFixtures(t)
	lines := map[string][]string{
		statusCompleted:        {"run", "--context", f.ctxFile, "--replay", f.runCas, "q"},
		statusFailed:           {"run", "--context", filepath.Join(f.dir, "missing"), "--replay", f.runCas, "q"},
		outcomeUsage:           {"run", "--context", f.ctxFile, "--max-cost", "abc", "q"},
		statusApprovalRequired: {"tools", "call", "fs_write", "--args", `{"path":"b.txt","content":"x"}`, "--allow", "tool:fs_write", "--workspace", f.ws},
	}
	for _, e := range exitCodes {
		if e.Outcome == outcomeInterrupted {
			if code := interruptedRun(t, bin, f); code != e.Code {
				t.Errorf("%s: exit %d, want %d", e.Outcome, code, e.Code)
			}
			continue
		}
		args, ok := lines[e.Outcome]
		if !ok {
			t.Fatalf("no command line for %s", e.Outcome)
		}
		// Text and JSON output exit alike.
		for _, extra := range [][]string{nil, {"--json"}} {
			r := execBinary(t, bin, nil, binaryEnv("XDG_STATE_HOME="+t.TempDir()), append(args, extra...)...)
			if r.code != e.Code {
				t.Errorf("%s %v: exit %d, want %d; %s %s", e.Outcome, extra, r.code, e.Code, r.stdout, r.stderr)
			}
		}
	}
}

// interruptedRun runs rlm run --json against a server that never answers,
// sends SIGINT once the model call arrived, checks the cancelled envelope
// and returns the exit code.
func interruptedRun(t *testing.T, bin string, f envelopeFixtures) int {
	t.Helper()
	url, arrived := stallingServer(t)
	cmd, wait := startRLM(t, bin, "run", "--context", f.ctxFile, "--base-url", url, "--json", "q")
	select {
	case <-arrived:
	case <-time.After(safetyTimeout): // a safety net, not an assertion on timing
		cmd.Process.Kill()
		out, errOut, _ := wait()
		t.Fatalf("no model call arrived: %s %s", out, errOut)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := wait()
	checkEnvelope(t, bytes.TrimSpace([]byte(out)), statusCancelled)
	if errOut != "" && !strings.Contains(errOut, "rlm:") {
		t.Logf("stderr: %s", errOut)
	}
	return code
}

// The one mapping from a result's error to its status and exit code, and
// from a command's error to its outcome.
func TestResultStatusAndExitCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fe     *fault.Error
		status string
		code   int
	}{
		{nil, statusCompleted, 0},
		{fault.New(fault.PhaseBudget, budget.KindMaxCost, "x"), statusFailed, 1},
		{fault.New(fault.PhaseTool, authority.KindApprovalRequired, "x").With("approval_id", "approval_7"), statusApprovalRequired, 3},
		// A cancelled result of a process not interrupted (rlm command's
		// SIGUSR1) exits as failed; run turns an interruption into 130.
		{fault.New(fault.PhaseExecute, fault.KindCancelled, "x"), statusCancelled, 1},
	} {
		env := newEnvelope(c.fe, nil, "run-1")
		code := 0
		var ee exitError
		if err := exitFor(env); errors.As(err, &ee) {
			code = ee.code
		}
		if env.Status != c.status || code != c.code {
			t.Errorf("%v: status %s exit %d, want %s %d", c.fe, env.Status, code, c.status, c.code)
		}
		if c.status == statusApprovalRequired && (!slices.Equal(env.Approvals, []string{"approval_7"}) || env.Error.Hint != rlm.ApprovalHint("run-1")) {
			t.Errorf("approval envelope %+v", env)
		}
	}
	// A complete result whose output failed exits 1.
	if err := exitFor(envelope{Status: statusCompleted, OutputError: fault.New(fault.PhaseTrace, fault.KindIO, "x")}); !errors.Is(err, exitError{code: 1}) {
		t.Errorf("output error: %v", err)
	}
	// Errors returned before a command ran are usage errors; a plain error
	// returned by a command is internal, not a usage error.
	plain := errors.New("unknown flag: --x")
	if o := errorOutcome(commandError(plain, false)); o != outcomeUsage {
		t.Errorf("before the command: %s", o)
	}
	if err := commandError(plain, true); errorOutcome(err) != statusFailed || fault.KindOf(err) != fault.KindInternal {
		t.Errorf("from the command: %v", err)
	}
	if o := errorOutcome(fault.New(fault.PhaseConfig, kindUsage, "x")); o != outcomeUsage {
		t.Errorf("a usage fault: %s", o)
	}
}
