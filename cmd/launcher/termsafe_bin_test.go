package launcher

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// hostileReply is a reply whose prose writes the clipboard (OSC 52), sets
// the window title (OSC 0) and clears the screen (CSI 2 J), and whose
// answer carries the same sequences (JSON escapes, so the plan parses).
const (
	hostileProse  = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4K\x07Here is the plan.\n"
	hostileAnswer = `{"answer":"done\u001b]52;c;cm0gLXJmIH4K\u0007\u001b]0;title\u0007\u001b[2J"}`
	// rawAnswer is the answer as the run returns it.
	rawAnswer = "done\x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;title\x07\x1b[2J"
)

// controls lists the terminal controls in s (ESC, BEL, C1).
func controls(s string) []string {
	var found []string
	for _, c := range []string{"\x1b", "\x07", "\u009b", "\u009d"} {
		if strings.Contains(s, c) {
			found = append(found, c)
		}
	}
	return found
}

// Control sequences from a model's reply do not reach the terminal: -v
// shows them inert (ESC as ␛), the answer on a pipe stays byte for byte,
// and --raw keeps the bytes in -v output. Before, -v copied OSC 52, OSC 0
// and ESC[2J from the reply to stderr.
func TestVerboseNeutralizesControlSequencesBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := builtBinary(t)
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo\n"), 0o644)
	cas := writeCassette(t, dir, hostileProse+hostileAnswer)

	out, errOut, code := binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "-v", "q")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	if c := controls(errOut); len(c) > 0 {
		t.Errorf("-v output holds terminal controls %q:\n%q", c, errOut)
	}
	for _, want := range []string{"␛]0;pwned␇␛[2J␛]52;c;cm0gLXJmIH4K␇Here is the plan.", "final answer"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-v output lacks %q:\n%s", want, errOut)
		}
	}
	if out != rawAnswer+"\n" {
		t.Errorf("the answer on a pipe is not byte for byte: %q", out)
	}

	_, errOut, code = binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "-v", "--raw", "q")
	if code != 0 || !strings.Contains(errOut, hostileProse) {
		t.Errorf("--raw: exit %d, the reply is not byte for byte:\n%q", code, errOut)
	}
}

// The --stream deltas printed by -v are neutralized too.
func TestStreamNeutralizesControlSequencesBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\n"), 0o644)
	cas := writeCassette(t, dir, hostileProse+hostileAnswer)
	out, errOut, code := binRun(t, builtBinary(t), "run", "--context", ctxFile, "--replay", cas, "--stream", "-v", "q")
	if code != 0 || out != rawAnswer+"\n" {
		t.Fatalf("exit %d: %q\n%s", code, out, errOut)
	}
	if c := controls(errOut); len(c) > 0 || !strings.Contains(errOut, "streaming\n␛]0;pwned") {
		t.Errorf("streamed -v output holds %q:\n%q", c, errOut)
	}
}

// rlm trace view neutralizes what a trace file holds: a hostile (or
// hand-edited) file may name an event with a bidi override, which would
// reorder the line shown (trace.WriteTree already escaped C0 and C1
// controls, not these).
func TestTraceViewNeutralizesBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := builtBinary(t)
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo needle\n"), 0o644)
	search := `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits"}]}`
	cas := writeCassette(t, dir, search, `{"answer":"ok"}`)
	tracePath := filepath.Join(dir, "t.jsonl")
	if out, errOut, code := binRun(t, bin, "run", "--context", ctxFile, "--replay", cas, "--trace", tracePath, "q"); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	raw, err := os.ReadFile(tracePath)
	if err != nil || !strings.Contains(string(raw), `"name":"search"`) {
		t.Fatalf("%v: %.500s", err, raw)
	}
	hostile := filepath.Join(dir, "hostile.jsonl")
	os.WriteFile(hostile, []byte(strings.ReplaceAll(string(raw), `"name":"search"`, `"name":"search \u202eevil\u001b[2J"`)), 0o644)
	out, errOut, code := binRun(t, bin, "trace", "view", hostile)
	if code != 0 || !strings.Contains(out, "search \ufffdevil") {
		t.Fatalf("exit %d: %q\n%s", code, out, errOut)
	}
	if c := controls(out); len(c) > 0 || strings.ContainsRune(out, '\u202e') {
		t.Errorf("trace view shows controls %q or a bidi override:\n%q", c, out)
	}
}

// An error's text on stderr quotes a server's message: neutralized.
func TestReportErrorNeutralizes(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := fault.New(fault.PhaseProvider, "http_status", "server said \x1b]52;c;eA==\x07").With("body_excerpt", "\x1b[2Jgone")
	reportError(&stdout, &stderr, err, false)
	if c := controls(stderr.String()); len(c) > 0 || !strings.Contains(stderr.String(), "␛]52;c;eA==␇") {
		t.Fatalf("error text holds %q: %q", c, stderr.String())
	}
	// The JSON form keeps the text exactly (escaped by JSON).
	stdout.Reset()
	reportError(&stdout, &stderr, err, true)
	var doc struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(stdout.Bytes(), &doc) != nil || doc.Error.Message != "server said \x1b]52;c;eA==\x07" {
		t.Fatalf("--json: %s", stdout.String())
	}
}
