package launcher

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/internal/mcptest"
)

// The CLI tests below drive the built binary (cmd/rlm): the real main,
// its signal handling, its standard streams and exit status. The binary
// is built once per test process, on first use. Others call run, the
// command line in process.
//
// Tests that only drive the binary call t.Parallel (as do the table rows
// of TestEnvelopeEveryJSONCommand and TestFlagCompletion): each waits on
// a child process of its own, with its own environment, temporary
// directories and loopback ports, so two of them (-parallel defaults to
// GOMAXPROCS) overlap their children's start-up and I/O. Go runs them
// after every serial test has finished, so they never meet a test that
// sets the environment, the working directory or a package variable, or
// one that checks for leaked goroutines. The durable tests stay serial:
// they share CI's PostgreSQL database.

// run is Run with the zero Config: the rlm binary's command line.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return Run(ctx, Config{}, args, stdin, stdout, stderr)
}

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	mcptest.Main() // the test binary doubles as the scripted MCP server (mcp_cmd_test.go)
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// builtBinary returns the path of the rlm binary built from this package.
func builtBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		// go test puts $GOROOT/bin first on the PATH of the test process.
		goTool, err := exec.LookPath("go")
		if err != nil {
			binErr = errors.New("locating the go command: " + err.Error())
			return
		}
		if binDir, binErr = os.MkdirTemp("", "rlm-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "rlm")
		// -buildvcs=auto: stamp the VCS revision when built in a checkout
		// (rlm --version reports it), whatever GOFLAGS says.
		// Under the race detector the binary is built with it too, so
		// concurrent runs of it are checked as well.
		args := []string{"build", "-buildvcs=auto", "-o", binPath}
		if raceEnabled {
			args = append(args, "-race")
		}
		out, err := exec.Command(goTool, append(args, "../rlm")...).CombinedOutput()
		if err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// binaryEnv is the environment of the binary: the test's, without any API
// key, rlm setting or OPENAI_BASE_URL, plus extra ("K=V").
func binaryEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(k, "_API_KEY") || strings.HasPrefix(k, "RLM_") || k == "OPENAI_BASE_URL" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// safetyTimeout only keeps a broken test from hanging forever; no test
// asserts on time.
const safetyTimeout = 3 * time.Minute

type binResult struct {
	stdout, stderr string
	code           int
}

// runBinary runs the built binary with args; stdin, when not nil, is its
// standard input (otherwise it reads from an empty one); a nil env is
// binaryEnv().
func runBinary(t *testing.T, stdin io.Reader, env []string, args ...string) binResult {
	t.Helper()
	return execBinary(t, builtBinary(t), stdin, env, args...)
}

// execBinary runs bin with args, as runBinary does.
func execBinary(t *testing.T, bin string, stdin io.Reader, env []string, args ...string) binResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), safetyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	if cmd.Env == nil {
		cmd.Env = binaryEnv()
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("rlm %v did not finish (blocked?); stderr: %s", args, errb.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return binResult{out.String(), errb.String(), code}
}

// openPipe returns the read end of a pipe whose write end stays open until
// the test ends: reading it blocks forever, so a command that reads it
// before failing never finishes.
func openPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	return r
}

// countingServer serves h and counts chat-completion requests.
type countingServer struct {
	mu sync.Mutex
	n  int
}

func (c *countingServer) requests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *countingServer) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}
