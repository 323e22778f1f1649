package launcher

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTraceServeWaitsForFile: rlm trace serve of a file that does not
// exist yet serves at once, says on stderr that it waits, shows the file
// as waiting, follows it once written (and says so), and stops on SIGINT
// with status 0.
func TestTraceServeWaitsForFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "later.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, builtBinary(t), "trace", "serve", "--poll", "20ms", path)
	cmd.Env = binaryEnv()
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var stderr []string
	waitLine := func(sub string) {
		t.Helper()
		for l := range lines {
			stderr = append(stderr, l)
			if strings.Contains(l, sub) {
				return
			}
		}
		t.Fatalf("stderr ended without %q: %q", sub, stderr)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v", err)
	}
	base := strings.TrimSpace(line)
	type file struct {
		Events  int  `json:"events"`
		Waiting bool `json:"waiting"`
	}
	files := func() []file {
		res, err := http.Get(base + "api/files")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var fs []file
		if err := json.NewDecoder(res.Body).Decode(&fs); err != nil {
			t.Fatal(err)
		}
		return fs
	}
	waitLine("waiting for " + path + " to appear")
	if fs := files(); len(fs) != 1 || !fs[0].Waiting || fs[0].Events != 0 {
		t.Fatalf("before the file exists: %+v", fs)
	}
	data := `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"ok","start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:00:01Z","duration_ms":1000}` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if fs := files(); len(fs) != 1 || fs[0].Waiting || fs[0].Events != 1 {
		t.Fatalf("after writing it: %+v", fs)
	}
	// The wait's own message comes from its poll: the server already
	// follows the file.
	waitLine(path + " appeared")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	for l := range lines {
		stderr = append(stderr, l)
	}
	// Status 0, or 130 should the CLI report the interruption.
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
			t.Fatalf("exit: %v: %q", err, stderr)
		}
	}
}
