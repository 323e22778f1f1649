package launcher

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Documented CLI contracts the binary did not keep; each test failed before.

// README: "with `--json` every command prints a failure as {"status":
// "failed", "error": {...}}". A flag value cobra rejects placed before
// --json loses --json: the error is text on stderr and stdout is empty.
func TestJSONFlagAfterRejectedFlag(t *testing.T) {
	dir := t.TempDir()
	ctxFile := writeFile(t, dir, "in.txt", "one\n")
	for _, args := range [][]string{
		{"run", "--context", ctxFile, "--max-cost", "abc", "--json", "q"},
		{"direct", "--max-iterations", "x", "--json", "q"},
		{"tools", "list", "--bogus", "--json"},
	} {
		r := runBinary(t, nil, nil, args...)
		if r.code != 2 || jsonErrorKind([]byte(r.stdout)) != string(kindUsage) {
			t.Errorf("rlm %v: exit %d; stdout %q; stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// docs/corpus.md (CLI): "errors print `rlm: context/<kind>: …` and a
// `hint:` line on stderr". Refusals of the operation itself carry none.
func TestContextErrorsHaveHint(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "in.txt", "one ERROR\ntwo\n")
	for _, args := range [][]string{
		{"context", "search", f, ""},
		{"context", "search", f, "x", "--max-results", "-1"},
		{"context", "slice", f, "100", "1"},
	} {
		r := runBinary(t, nil, nil, args...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "rlm: context/") || !strings.Contains(r.stderr, "\nhint: ") {
			t.Errorf("rlm %v: exit %d; stderr %q", args, r.code, r.stderr)
		}
	}
}

// docs/trace.md: malformed_trace is "a JSONL line that is not an event".
// A log of the official RLM (which rlm trace serve converts) or any JSON
// object is printed by rlm trace view as empty events, exit 0.
func TestTraceViewNonEvents(t *testing.T) {
	official, err := filepath.Abs("../../trace/rlmlog/testdata/official.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	junk := writeFile(t, dir, "junk.jsonl", "{}\n{\"foo\":1}\n")
	for _, f := range []string{official, junk} {
		r := runBinary(t, nil, nil, "trace", "view", f)
		converted := strings.Contains(r.stdout, "run ") && !strings.Contains(r.stdout, "·  [d0 0µs]")
		rejected := r.code == 1 && strings.HasPrefix(r.stderr, "rlm: trace/malformed")
		if !converted && !rejected {
			t.Errorf("trace view %s: exit %d; stdout %q", filepath.Base(f), r.code, r.stdout)
		}
	}
}

// benchServer answers the first n chat requests at once and stalls every
// later one until the client goes away; arrived receives when a stalled
// request came in.
func benchServer(t *testing.T, n int) (url string, arrived <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{}, 1)
	var mu sync.Mutex
	seen := 0
	body := completion("The number is 1234567.")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		seen++
		k := seen
		mu.Unlock()
		if k <= n {
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
			return
		}
		select {
		case ch <- struct{}{}:
		default:
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", ch
}

// interruptBench starts rlm bench run (direct method, runs trials), waits
// for the second model request and sends SIGINT.
func interruptBench(t *testing.T, runs string) (string, string, int) {
	t.Helper()
	url, arrived := benchServer(t, 1)
	cmd, wait := startRLM(t, builtBinary(t), "bench", "run", "--task", "niah", "--size", "2k", "--runs", runs,
		"--methods", "direct", "--base-url", url, "--json")
	select {
	case <-arrived:
	case <-time.After(safetyTimeout):
		cmd.Process.Kill()
		out, errOut, _ := wait()
		t.Fatalf("the second trial never called the model: %s %s", out, errOut)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	return wait()
}

// README: "Ctrl-C cancels cleanly, prints the usage and any partial
// result, and exits 130". Interrupted during its last trial, bench run
// exits 0 and reports the cancelled trial as an ordinary failure.
func TestBenchInterruptedLastTrialExits130(t *testing.T) {
	out, errOut, code := interruptBench(t, "2")
	if code != 130 {
		t.Fatalf("exit %d, want 130; stdout %.300s; stderr %s", code, out, errOut)
	}
}

// docs/bench.md: "The report is always printed." Interrupted with trials
// left, bench run prints no report: the trial already paid for is lost.
func TestBenchInterruptedPrintsReport(t *testing.T) {
	out, errOut, code := interruptBench(t, "3")
	var rep struct {
		Trials []struct {
			Status string `json:"status"`
		} `json:"trials"`
	}
	if err := json.Unmarshal(bytes.TrimSpace([]byte(out)), &rep); err != nil || len(rep.Trials) == 0 || rep.Trials[0].Status != "ok" {
		t.Fatalf("exit %d: no report with the finished trial on stdout: %q; stderr %s", code, out, errOut)
	}
}
