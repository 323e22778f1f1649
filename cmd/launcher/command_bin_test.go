package launcher

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startRLM starts the built binary with args and an API key in its
// environment; wait returns stdout, stderr and the exit code.
func startRLM(t *testing.T, bin string, args ...string) (cmd *exec.Cmd, wait func() (string, string, int)) {
	t.Helper()
	cmd = exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sk-test-key", "RLM_BASE_URL=", "RLM_MODEL=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, func() (string, string, int) {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
}

// rlm command --max-total-tokens 1 refuses the child's first model call
// before sending it: its worst case (prompt plus max_tokens) cannot fit.
func TestCommandBinaryHardTokenBudget(t *testing.T) {
	t.Parallel()
	dir, kb, ctxFile := commandFiles(t)
	cas := writeCassette(t, dir, `{"answer":"two"}`)
	_, wait := startRLM(t, builtBinary(t), "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile,
		"--replay", cas, "--max-total-tokens", "1", "--json")
	out, errOut, code := wait()
	var res commandJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	usage, _ := res.Envelope["usage"].(map[string]any)
	if res.Status != "failed" || res.Error["phase"] != "budget" || res.Error["kind"] != "max_total_tokens_exceeded" ||
		usage["calls"] != float64(0) || usage["total_tokens"] != float64(0) {
		t.Fatalf("want a refusal before sending, got %s", out)
	}
}

// SIGINT while the child's model call is in flight: the command reports
// a typed cancelled error, the child's envelope says cancelled, the
// parent received it, and the exit code is 130.
func TestCommandBinaryInterruptedDuringChildModelCall(t *testing.T) {
	t.Parallel()
	url, arrived := stallingServer(t)
	_, kb, ctxFile := commandFiles(t)
	cmd, wait := startRLM(t, builtBinary(t), "command", "--kb", kb, "--trigger", "unknown", "--context", ctxFile,
		"--base-url", url, "--json")
	select {
	case <-arrived:
	case <-time.After(60 * time.Second): // a safety net, not an assertion on timing
		cmd.Process.Kill()
		out, errOut, _ := wait()
		t.Fatalf("no model call arrived: %s %s", out, errOut)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := wait()
	var res commandJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("exit %d, no JSON: %s %s", code, out, errOut)
	}
	if code != 130 || res.Status != "cancelled" || res.Error["kind"] != "cancelled" {
		t.Fatalf("want cancelled and exit 130, got %d: %s", code, out)
	}
	if res.Envelope == nil || res.Envelope["status"] != "cancelled" || res.Envelope["error"].(map[string]any)["kind"] != "cancelled" {
		t.Fatalf("envelope: %s", out)
	}
	v, _ := res.Parent["value"].(map[string]any)
	if res.Parent["kind"] != "child_result" || v["status"] != "cancelled" {
		t.Fatalf("parent_received: %s", out)
	}
}
