package launcher

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// TestTraceServeCmd starts the built binary's viewer: it prints a loopback
// URL whose API lists the file, stops on SIGINT, and refuses
// a non-loopback address.
func TestTraceServeCmd(t *testing.T) {
	bin := builtBinary(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	evs := []trace.Event{{Seq: 1, ID: "e1", Kind: trace.KindRun, Name: "rlm", Status: trace.StatusOK}}
	if err := trace.WriteFile(path, "t", evs, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "trace", "serve", path)
	cmd.Env = binaryEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url = strings.TrimSpace(url)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("URL %q", url)
	}
	resp, err := http.Get(url + "api/files")
	if err != nil {
		t.Fatal(err)
	}
	var files []struct {
		Name   string `json:"name"`
		Events int    `json:"events"`
	}
	err = json.NewDecoder(resp.Body).Decode(&files)
	resp.Body.Close()
	if err != nil || len(files) != 1 || files[0].Name != "t.jsonl" || files[0].Events != 1 {
		t.Fatalf("files %+v %v", files, err)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// An interrupted server stops cleanly: status 0, or 130 should the
	// CLI report the interruption as a cancelled command.
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
			t.Fatalf("after SIGINT: %v", err)
		}
	}
	r := runBinary(t, nil, nil, "trace", "serve", "--addr", "0.0.0.0:0", path)
	if r.code == 0 || !strings.Contains(r.stderr, "addr_not_loopback") || !strings.Contains(r.stderr, "--allow-remote") {
		t.Fatalf("non-loopback address: exit %d: %s", r.code, r.stderr)
	}
	// A missing file is waited for (TestTraceServeWaitsForFile); one in
	// a missing directory is refused.
	if r := runBinary(t, nil, nil, "trace", "serve", filepath.Join(dir, "missing", "x.jsonl")); r.code == 0 || !strings.Contains(r.stderr, "io_error") {
		t.Fatalf("missing directory: exit %d: %s", r.code, r.stderr)
	}
	_ = os.Remove(path)
}
