package launcher

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm"
)

// approvalOut is the part of a result envelope an approval flow reads.
type approvalOut struct {
	Status string `json:"status"`
	Error  *struct {
		Kind string `json:"kind"`
		Hint string `json:"hint"`
	} `json:"error"`
	Approvals       []string             `json:"approvals"`
	ApprovalDetails []rlm.ApprovalDetail `json:"approval_details"`
	RunID           string               `json:"run_id"`
	Replayed        bool                 `json:"replayed"`
	Trace           json.RawMessage      `json:"trace"`
}

func parseApproval(t *testing.T, r binResult) approvalOut {
	t.Helper()
	var out approvalOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("not JSON (exit %d): %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
	}
	return out
}

// argOf is the string argument key of a JSON object.
func argOf(t *testing.T, raw json.RawMessage, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("args %s: %v", raw, err)
	}
	s, _ := m[key].(string)
	return s
}

// Issue 29 item 6, through the built binary: an approval stop (exit 3)
// names the run and the approval and says how to go on; rlm approve lists
// what it would do and records the decision; the same command with
// --resume then performs the approved write once (a denied one fails
// with approval_denied and writes nothing), for rlm tools call and rlm run.
func TestApproveThenResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtBinary(t)
	dir := t.TempDir()
	state, ws := filepath.Join(dir, "state"), filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	env := binaryEnv("XDG_STATE_HOME=" + t.TempDir()) // never the user's journal
	rlm := func(args ...string) binResult { t.Helper(); return execBinary(t, bin, nil, env, args...) }
	tool := []string{"--allow", "tool:fs_write", "--workspace", ws, "--state-dir", state}
	write := func(path, content string, extra ...string) []string {
		args := []string{"tools", "call", "fs_write", "--args", `{"path":"` + path + `","content":"` + content + `"}`}
		return append(append(args, tool...), extra...)
	}
	file := func(name string) string {
		b, err := os.ReadFile(filepath.Join(ws, name))
		if err != nil {
			return "<none>"
		}
		return string(b)
	}

	// tools call: stop, list, approve, resume.
	stop := parseApproval(t, rlm(write("a.txt", "x")...))
	if stop.Status != statusApprovalRequired || !slices.Equal(stop.Approvals, []string{"approval_1"}) || stop.RunID == "" ||
		!strings.Contains(stop.Error.Hint, "rlm approve "+stop.RunID) || !strings.Contains(stop.Error.Hint, "--resume "+stop.RunID) {
		t.Fatalf("approval stop: %+v", stop)
	}
	run := stop.RunID
	r := rlm("approve", run, "--state-dir", state)
	if r.code != 0 || !strings.Contains(r.stdout, "approval_1\tpending\tfs_write\t") || !strings.Contains(r.stdout, `"path":"a.txt"`) {
		t.Fatalf("list: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		kind string
	}{
		{[]string{"approve", run, "approval_9", "--state-dir", state}, 1, "approval_not_found"},
		{[]string{"approve", run, "approval_1", "approval_9", "--state-dir", state}, 1, "approval_not_found"}, // nothing recorded
		{[]string{"approve", "run-unknown", "--state-dir", state}, 1, "unknown_run"},
		{[]string{"approve", run, "--state-dir", filepath.Join(dir, "elsewhere")}, 1, "unknown_run"},
		{[]string{"approve", run, "--deny", "--state-dir", state}, 2, "invalid_usage"},
	} {
		r := rlm(append(c.args, "--json")...)
		if r.code != c.code || jsonErrorKind([]byte(r.stdout)) != c.kind {
			t.Errorf("rlm %v: exit %d %s, want %d %s", c.args, r.code, r.stdout, c.code, c.kind)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Error("rlm approve created a state directory")
	}
	dec := parseApproval(t, rlm("approve", run, "approval_1", "--state-dir", state, "--json"))
	if dec.Status != statusCompleted || len(dec.ApprovalDetails) != 1 || dec.ApprovalDetails[0].State != "approved" || dec.ApprovalDetails[0].Tool != "fs_write" {
		t.Fatalf("approve: %+v", dec)
	}
	if r := rlm("approve", run, "approval_1", "--state-dir", state, "--json"); r.code != 1 || jsonErrorKind([]byte(r.stdout)) != "approval_not_pending" {
		t.Fatalf("approving twice: exit %d %s", r.code, r.stdout)
	}
	if file("a.txt") != "<none>" {
		t.Fatal("written before the resume")
	}
	done := parseApproval(t, rlm(write("a.txt", "x", "--resume", run)...))
	if done.Status != statusCompleted || done.Replayed || done.RunID != run || !strings.Contains(string(done.Trace), `"authorization": "approved"`) || file("a.txt") != "x" {
		t.Fatalf("resumed: %+v, file %q", done, file("a.txt"))
	}
	// Once: resumed again it replays (the changed file stays changed), and
	// changed arguments wait for their own approval.
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("changed"), 0o644)
	if again := parseApproval(t, rlm(write("a.txt", "x", "--resume", run)...)); again.Status != statusCompleted || !again.Replayed || file("a.txt") != "changed" {
		t.Fatalf("resumed again: %+v, file %q", again, file("a.txt"))
	}
	other := parseApproval(t, rlm(write("a.txt", "y", "--resume", run)...))
	if other.Status != statusApprovalRequired || len(other.Approvals) != 1 || other.Approvals[0] == "approval_1" {
		t.Fatalf("changed arguments: %+v", other)
	}

	// Denied: the resumed call fails with approval_denied, nothing written.
	r = rlm("approve", run, other.Approvals[0], "--deny", "--reason", "not that", "--state-dir", state)
	if r.code != 0 {
		t.Fatalf("deny: exit %d %s", r.code, r.stderr)
	}
	denied := parseApproval(t, rlm(write("a.txt", "y", "--resume", run)...))
	if denied.Status != statusFailed || denied.Error == nil || denied.Error.Kind != "approval_denied" || file("a.txt") != "changed" {
		t.Fatalf("denied: %+v, file %q", denied, file("a.txt"))
	}

	// rlm run: the plan's write stops the run; approved, the resumed run
	// (the model asked again) writes once and completes.
	ctxFile := writeFile(t, dir, "in.txt", "one\n")
	cas := writeCassette(t, t.TempDir(),
		`{"steps":[{"op":"tool","name":"fs_write","args":{"path":"b.txt","content":"z"},"bind":"w"},{"op":"final","value":"done"}]}`)
	runArgs := append([]string{"run", "--context", ctxFile, "--replay", cas, "--json", "q"}, tool...)
	stop = parseApproval(t, rlm(runArgs...))
	if stop.Status != statusApprovalRequired || len(stop.Approvals) != 1 || stop.RunID == "" || stop.RunID == run ||
		len(stop.ApprovalDetails) != 1 || stop.ApprovalDetails[0].ID != stop.Approvals[0] || stop.ApprovalDetails[0].Tool != "fs_write" ||
		argOf(t, stop.ApprovalDetails[0].Args, "content") != "z" || stop.ApprovalDetails[0].State != "pending" {
		t.Fatalf("run stop: %+v %s", stop, stop.ApprovalDetails)
	}
	if r := rlm("approve", stop.RunID, stop.Approvals[0], "--state-dir", state); r.code != 0 || !strings.Contains(r.stderr, "--resume "+stop.RunID) {
		t.Fatalf("approve: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = rlm(append(runArgs, "--resume", stop.RunID)...)
	if done := parseApproval(t, r); r.code != 0 || done.Status != statusCompleted || file("b.txt") != "z" {
		t.Fatalf("resumed run: exit %d %+v, file %q\n%s", r.code, done, file("b.txt"), r.stderr)
	}
}
