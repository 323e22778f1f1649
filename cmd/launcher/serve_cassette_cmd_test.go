package launcher

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

const serveCassetteJSON = `{"version":1,"interactions":[{"match":{"contains":"ping"},"response":
{"id":"chatcmpl-sc","object":"chat.completion","created":1,"model":"replayed-model",
 "choices":[{"index":0,"message":{"role":"assistant","content":"pong"},"finish_reason":"stop"}],
 "usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}}]}`

func TestServeCassette(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte(serveCassetteJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve-cassette", "--cassette", path, "--addr", "127.0.0.1:0"}, strings.NewReader(""), pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no URL printed: %v (exit %d, stderr %s)", err, <-done, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSpace(line)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*/v1$`).MatchString(base) {
		t.Fatalf("printed %q", base)
	}

	p, err := openai.New(openai.Config{BaseURL: base, Model: "any", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.CloseIdleConnections()
	req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "ping"}}, Stream: true}
	resp, err := p.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "pong" || resp.Meta.Model != "replayed-model" || !resp.Meta.Streamed {
		t.Fatalf("resp = %+v", resp)
	}
	_, err = p.Complete(context.Background(), req)
	if fe := fault.As(err); fe == nil || fe.Kind != model.KindHTTPStatus || fe.Detail["error_code"] != "cassette_exhausted" {
		t.Fatalf("second call: %v", err)
	}
	p.CloseIdleConnections()

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(safetyTimeout): // a safety net, not an assertion on timing
		t.Fatal("serve-cassette did not stop after cancellation")
	}
	if !strings.Contains(stderr.String(), "2 requests, 1 served, 1 exhausted") {
		t.Fatalf("stderr = %s", stderr.String())
	}
}

func TestServeCassetteErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	good := filepath.Join(dir, "good.json")
	os.WriteFile(bad, []byte(`{"version":1,"interactions":[{"response":{"object":"nope"}}]}`), 0o644)
	os.WriteFile(good, []byte(serveCassetteJSON), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no cassette flag", []string{"serve-cassette"}, "invalid_usage"},
		{"missing file", []string{"serve-cassette", "--cassette", filepath.Join(dir, "none.json")}, "io_error"},
		{"malformed", []string{"serve-cassette", "--cassette", bad}, "malformed_cassette"},
		{"bad address", []string{"serve-cassette", "--cassette", good, "--addr", "127.0.0.1:notaport"}, "listen_failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append(tt.args, "--json"), strings.NewReader(""), &stdout, &stderr)
			if code == 0 || jsonErrorKind(stdout.Bytes()) != tt.want {
				t.Fatalf("exit %d, stdout %s, stderr %s; want kind %s", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}

// TestServeCassetteBinaryResponses: the built binary's serve-cassette
// answers a streamed OpenAI Responses API request (POST /v1/responses)
// from the cassette: typed events whose text deltas make the recorded
// answer, ending with response.completed and the recorded usage; SIGINT
// stops it with exit 0 and the counters.
func TestServeCassetteBinaryResponses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(path, []byte(serveCassetteJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(builtBinary(t), "serve-cassette", "--cassette", path, "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL printed: %v", err)
	}
	base := strings.TrimSpace(line)
	res, err := http.Post(base+"/responses", "application/json",
		strings.NewReader(`{"model":"any","instructions":"Answer.","input":[{"role":"user","content":[{"type":"input_text","text":"ping"}]}],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("HTTP %d %s: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	var text strings.Builder
	var last struct {
		Type     string `json:"type"`
		Sequence int    `json:"sequence_number"`
		Response struct {
			Status string `json:"status"`
			Usage  struct {
				InputTokens  int `json:"input_tokens"`
				OutputTokens int `json:"output_tokens"`
				TotalTokens  int `json:"total_tokens"`
			} `json:"usage"`
		} `json:"response"`
	}
	n := 0
	for _, l := range strings.Split(string(body), "\n") {
		data, ok := strings.CutPrefix(l, "data: ")
		if !ok {
			continue
		}
		last.Type = ""
		var ev struct {
			Type  string `json:"type"`
			Delta string `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil || json.Unmarshal([]byte(data), &last) != nil || last.Sequence != n {
			t.Fatalf("event %d: %s (%v)", n, data, err)
		}
		if ev.Type == "response.output_text.delta" {
			text.WriteString(ev.Delta)
		}
		n++
	}
	u := last.Response.Usage
	if text.String() != "pong" || last.Type != "response.completed" || last.Response.Status != "completed" ||
		u.InputTokens != 3 || u.OutputTokens != 1 || u.TotalTokens != 4 {
		t.Fatalf("text %q, last event %+v", text.String(), last)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "1 requests, 1 served, 0 exhausted") {
		t.Fatalf("stderr = %s", stderr.String())
	}
}
