package launcher

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// replayHandler serves replies (plan or answer texts) from a cassette whose
// completions name model m.
func replayHandler(m string, replies ...string) http.Handler {
	c := &replay.Cassette{Version: replay.Version}
	for _, r := range replies {
		c.Interactions = append(c.Interactions, replay.Interaction{Response: replay.Reply("", model.Response{Text: r, Meta: model.Meta{Model: m},
			Usage: budget.Usage{PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}}).Response})
	}
	return replay.NewHandler(c)
}

const peekPlan = `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"peek","selector":"head","count":10},"bind":"h"}]}`

type errDoc struct {
	Status string `json:"status"`
	Error  struct {
		Phase  string         `json:"phase"`
		Kind   string         `json:"kind"`
		Hint   string         `json:"hint"`
		Detail map[string]any `json:"detail"`
	} `json:"error"`
	OutputError *struct {
		Phase string `json:"phase"`
		Kind  string `json:"kind"`
	} `json:"output_error"`
	Answer any            `json:"answer"`
	Usage  map[string]any `json:"usage"`
}

func parseDoc(t *testing.T, s string) errDoc {
	t.Helper()
	var d errDoc
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatalf("not JSON (%v): %s", err, s)
	}
	return d
}

// Item 2: an output that cannot be written is found before any model call
// (and before reading stdin) when its directory does not exist; when it
// fails only at the end, the paid answer and the usage are printed first,
// then the output error, and the exit status is non-zero.
func TestOutputErrorsNeverLoseTheAnswer(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("hello world\n"), 0o644)

	t.Run("missing directory fails before any call", func(t *testing.T) {
		for _, flag := range []string{"--trace", "--record"} {
			cs := &countingServer{}
			srv := httptest.NewServer(cs.wrap(replayHandler("gpt-4o-mini", `{"answer":"x"}`)))
			res := runBinary(t, openPipe(t), nil, "run", "--context", "-", "--base-url", srv.URL+"/v1", flag, filepath.Join(dir, "no", "such", "dir", "out.jsonl"), "--json", "q")
			srv.Close()
			d := parseDoc(t, res.stdout)
			if res.code != 1 || d.Error.Phase != "config" || d.Error.Kind != string(kindUnwritableOutput) || d.Error.Hint == "" {
				t.Fatalf("%s: exit %d: %s %s", flag, res.code, res.stdout, res.stderr)
			}
			if n := cs.requests(); n != 0 {
				t.Fatalf("%s: %d model calls before the configuration error", flag, n)
			}
		}
	})

	t.Run("failing at the end prints the answer first", func(t *testing.T) {
		for _, tt := range []struct{ flag, phase, kind string }{
			{"--trace", "trace", "io_error"},
			{"--record", "replay", "io_error"},
		} {
			for _, asJSON := range []bool{false, true} {
				outDir := filepath.Join(t.TempDir(), "out")
				os.Mkdir(outDir, 0o755)
				// The directory exists when the run starts and is gone when
				// the run writes its output.
				h := replayHandler("gpt-4o-mini", peekPlan, `{"answer":"forty-two"}`)
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					os.RemoveAll(outDir)
					h.ServeHTTP(w, r)
				}))
				args := []string{"run", "--context", ctxFile, "--base-url", srv.URL + "/v1", tt.flag, filepath.Join(outDir, "out.json"), "q"}
				if asJSON {
					args = append(args, "--json")
				}
				res := runBinary(t, nil, nil, args...)
				srv.Close()
				if res.code != 1 {
					t.Fatalf("%s json=%v: exit %d, want 1: %s %s", tt.flag, asJSON, res.code, res.stdout, res.stderr)
				}
				if asJSON {
					d := parseDoc(t, res.stdout)
					if d.Status != "completed" || d.Answer != "forty-two" || d.Usage["total_tokens"].(float64) != 110 ||
						d.OutputError == nil || d.OutputError.Phase != tt.phase || d.OutputError.Kind != tt.kind {
						t.Fatalf("%s: %s", tt.flag, res.stdout)
					}
					continue
				}
				usage := strings.Index(res.stderr, "rlm: completed · turns 2 · model calls 2 · tokens 110")
				failure := strings.Index(res.stderr, "rlm: "+tt.phase+"/"+tt.kind)
				if strings.TrimSpace(res.stdout) != "forty-two" || usage < 0 || failure < usage {
					t.Fatalf("%s: answer, usage, then the error expected:\nstdout %s\nstderr %s", tt.flag, res.stdout, res.stderr)
				}
			}
		}
	})
}

// Item 2: configuration errors come before the input is read: the
// standard input is a pipe that never ends, so a command that read it first
// would never finish.
func TestConfigErrorsBeforeReadingStdin(t *testing.T) {
	_, kb, _ := commandFiles(t)
	tests := []struct {
		name  string
		args  []string
		phase string
		kind  string
	}{
		{"no key for the default endpoint", []string{"run", "--context", "-", "q"}, "config", "missing_api_key"},
		{"--api-key-env names an unset variable", []string{"run", "--context", "-", "--base-url", "http://127.0.0.1:1/v1", "--api-key-env", "RLM_TEST_UNSET_KEY", "q"}, "config", "missing_api_key"},
		{"direct, no key", []string{"direct", "--context", "-", "q"}, "config", "missing_api_key"},
		{"command, no key", []string{"command", "--kb", kb, "--trigger", "unknown", "--context", "-"}, "config", "missing_api_key"},
		{"bad base URL", []string{"run", "--context", "-", "--base-url", "ftp://x", "q"}, "provider", "invalid_config"},
		{"depth above the supported maximum", []string{"run", "--context", "-", "--max-depth", "4", "--base-url", "http://127.0.0.1:1/v1", "q"}, "validate", "experimental_deep_recursion_required"},
		{"unpriced model under --strict-cost", []string{"run", "--context", "-", "--base-url", "http://127.0.0.1:1/v1", "--model", "my-local-model", "--strict-cost", "q"}, "config", string(kindUnpricedModel)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runBinary(t, openPipe(t), nil, append(tt.args, "--json")...)
			d := parseDoc(t, res.stdout)
			if res.code != 1 || d.Status != "failed" || d.Error.Phase != tt.phase || d.Error.Kind != tt.kind || d.Error.Hint == "" {
				t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
			}
		})
	}
}

// Item 5: the errors users hit most carry a hint, in --json and in text.
func TestErrorHintsThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("hello\n"), 0o644)
	status := func(code int, body string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			w.Write([]byte(body))
		}))
	}
	unauthorized := status(401, `{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}`)
	defer unauthorized.Close()
	notFound := status(404, `404 page not found`)
	defer notFound.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	empty := filepath.Join(dir, "empty.json")
	if err := (&replay.Cassette{Version: replay.Version}).Save(empty); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		args []string
		kind string
	}{
		{"401", []string{"--base-url", unauthorized.URL + "/v1", "--api-key-env", "RLM_TEST_KEY"}, "http_status"},
		{"404 (base URL without /v1)", []string{"--base-url", notFound.URL}, "http_status"},
		{"connection refused", []string{"--base-url", refused}, "transport"},
		{"cassette exhausted", []string{"--replay", empty}, "http_status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := binaryEnv("RLM_TEST_KEY=sk-test-not-a-real-key")
			args := append([]string{"run", "--context", ctxFile}, tt.args...)
			res := runBinary(t, nil, env, append(args, "--json", "q")...)
			d := parseDoc(t, res.stdout)
			if res.code != 1 || d.Error.Kind != tt.kind || d.Error.Hint == "" {
				t.Fatalf("exit %d: want kind %s with a hint: %s %s", res.code, tt.kind, res.stdout, res.stderr)
			}
			res = runBinary(t, nil, env, append(args, "q")...)
			if res.code != 1 || !strings.Contains(res.stderr, "\nhint: "+d.Error.Hint+"\n") {
				t.Fatalf("text output lacks the hint %q: %s", d.Error.Hint, res.stderr)
			}
		})
	}
}

// Item 5: one error is printed once: no repeated server message (it used
// to appear in the message, detail.error_message, detail.body_excerpt and
// again in the JSON line), one error line, nothing on stdout.
func TestErrorPrintedOnce(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("hello\n"), 0o644)
	empty := filepath.Join(dir, "empty.json")
	if err := (&replay.Cassette{Version: replay.Version}).Save(empty); err != nil {
		t.Fatal(err)
	}
	res := runBinary(t, nil, nil, "run", "--context", ctxFile, "--replay", empty, "q")
	if res.code != 1 || res.stdout != "" {
		t.Fatalf("exit %d, stdout %q", res.code, res.stdout)
	}
	if n := strings.Count(res.stderr, "cassette exhausted"); n != 1 {
		t.Fatalf("the server's message appears %d times:\n%s", n, res.stderr)
	}
	if n := strings.Count(res.stderr, "rlm: provider/http_status"); n != 1 {
		t.Fatalf("the error is printed %d times:\n%s", n, res.stderr)
	}
	if strings.Contains(res.stderr, `{"phase"`) {
		t.Fatalf("text mode printed JSON too:\n%s", res.stderr)
	}
}

// Item 5: every command prints a failure in the same JSON shape with
// --json: {"status": "failed", "error": {"phase", "kind", ...}}.
func TestJSONErrorShapeIsShared(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	cas := writeCassette(t, dir, `{"answer":"x"}`)
	cat := promptData("catalog.json")
	commands := map[string][]string{
		"run":     {"run", "--context", missing, "--replay", cas, "q"},
		"context": {"context", "metadata", missing},
		"compile": {"compile", "--catalog", missing, "--text", "x"},
		"explain": {"explain", "--catalog", cat, "--unit", "tool:nope"},
		"search":  {"search", "--catalog", cat, "--query", ""},
		"direct":  {"direct", "--context", missing, "--replay", cas, "q"},
		"bench":   {"bench", "run", "--task", "haystack", "--replay", cas},
		"trace":   {"trace", "view", missing},
		"usage":   {"run", "--json", "--no-such-flag"},
	}
	var want []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range commands {
			if !yield(k) {
				return
			}
		}
	}) {
		out, errOut, code := runCLI(t, "", append(commands[name], "--json")...)
		var doc map[string]json.RawMessage
		wantCode := 1
		if name == "usage" {
			wantCode = 2 // a command line rejected: the usage row of exitCodes
		}
		if code != wantCode || json.Unmarshal([]byte(out), &doc) != nil {
			t.Fatalf("%s: exit %d: %s %s", name, code, out, errOut)
		}
		var e map[string]any
		if json.Unmarshal(doc["error"], &e) != nil || e["phase"] == nil || e["kind"] == nil || string(doc["status"]) != `"failed"` {
			t.Fatalf("%s: %s", name, out)
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range doc {
				if !yield(k) {
					return
				}
			}
		})
		if want == nil {
			want = keys
		}
		if !slices.Equal(keys, want) || errOut != "" {
			t.Fatalf("%s: keys %v, want %v; stderr %q", name, keys, want, errOut)
		}
	}
	if !slices.Equal(want, []string{"error", "status"}) {
		t.Fatalf("shape %v", want)
	}
}

// Item 4: Ctrl-C cancels a run whose model call is in flight: the command
// prints what it did (the usage line) and exits 130.
func TestInterruptExits130(t *testing.T) {
	dir, kb, ctxFile := commandFiles(t)
	for _, args := range [][]string{
		{"run", "--context", ctxFile, "q"},
		{"direct", "--context", ctxFile, "q"},
		{"command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile},
	} {
		t.Run(args[0], func(t *testing.T) {
			arrived := make(chan struct{}, 1)
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// Read the body so that the server notices when the client
				// goes away, then stall.
				io.Copy(io.Discard, r.Body)
				select {
				case arrived <- struct{}{}:
				default:
				}
				select {
				case <-r.Context().Done():
				case <-release:
				}
			}))
			defer srv.Close()
			defer close(release)
			cmd := exec.Command(builtBinary(t), append(args, "--base-url", srv.URL+"/v1")...)
			cmd.Env = binaryEnv()
			cmd.Dir = dir
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-arrived:
			case <-time.After(safetyTimeout):
				cmd.Process.Kill()
				t.Fatalf("no model call arrived; stderr %s", errb.String())
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
				t.Fatalf("did not stop after SIGINT; stderr %s", errb.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitInterrupted, errb.String())
			}
			if !strings.Contains(errb.String(), "model calls 1") || !strings.Contains(errb.String(), "cancel") {
				t.Fatalf("no usage line or cancellation reported:\n%s", errb.String())
			}
		})
	}
}

// Item 4: a model without a price: a notice, once, that the cost is
// unknown and --max-cost cannot be enforced; the usage line says "cost
// unknown", never "$0.0000"; the JSON usage has cost_known and
// cost_estimated false.
func TestUnpricedModel(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("hello\n"), 0o644)
	for _, asJSON := range []bool{false, true} {
		srv := httptest.NewServer(replayHandler("my-local-model", peekPlan, `{"answer":"hi"}`))
		args := []string{"run", "--context", ctxFile, "--base-url", srv.URL + "/v1", "--model", "my-local-model", "q"}
		if asJSON {
			args = append(args, "--json")
		}
		res := runBinary(t, nil, nil, args...)
		srv.Close()
		if res.code != 0 {
			t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
		}
		if n := strings.Count(res.stderr, "no price for my-local-model"); n != 1 || !strings.Contains(res.stderr, "--max-cost cannot be enforced") {
			t.Fatalf("notice printed %d times:\n%s", n, res.stderr)
		}
		if strings.Contains(res.stderr, "$0.0000") || strings.Contains(res.stdout, "$0.0000") {
			t.Fatalf("an unknown cost is printed as known:\n%s", res.stderr)
		}
		if asJSON {
			d := parseDoc(t, res.stdout)
			if d.Usage["cost_known"] != false || d.Usage["cost_estimated"] != false {
				t.Fatalf("usage %v", d.Usage)
			}
		} else if !strings.Contains(res.stderr, "cost unknown") {
			t.Fatalf("usage line lacks cost unknown:\n%s", res.stderr)
		}
	}
}

// Item 6: rlm --version reports the module version and the VCS revision
// recorded in the binary.
func TestVersion(t *testing.T) {
	res := runBinary(t, nil, nil, "--version")
	if res.code != 0 || !strings.HasPrefix(res.stdout, "rlm version ") {
		t.Fatalf("exit %d: %q", res.code, res.stdout)
	}
	info, err := exec.Command("go", "version", "-m", builtBinary(t)).Output()
	if err != nil {
		t.Skip("go version -m:", err)
	}
	for line := range strings.SplitSeq(string(info), "\n") {
		if _, rev, ok := strings.Cut(line, "vcs.revision="); ok && !strings.Contains(res.stdout, strings.TrimSpace(rev)) {
			t.Fatalf("--version %q lacks revision %s", res.stdout, rev)
		}
	}
}

// Item 6: --request-timeout's help states the provider's real default.
func TestRequestTimeoutHelp(t *testing.T) {
	out, _, code := runCLI(t, "", "run", "--help")
	if code != 0 || !strings.Contains(out, "default "+openai.DefaultTimeout.String()) {
		t.Fatalf("help does not state %s:\n%s", openai.DefaultTimeout, out)
	}
}
