package launcher

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/mcp"
)

// stdioServe is `rlm mcp serve` (the built binary) driven line by line
// over its stdin and stdout, as a client that writes what it likes.
type stdioServe struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	replies chan stdioReply
	stderr  bytes.Buffer
}

type stdioReply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Result *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent struct {
			Answer any `json:"answer"`
		} `json:"structuredContent"`
	} `json:"result"`
	line string
}

func startServeStdio(t *testing.T, args ...string) *stdioServe {
	t.Helper()
	s := &stdioServe{cmd: exec.Command(builtBinary(t), append([]string{"mcp", "serve"}, args...)...), replies: make(chan stdioReply, 16)}
	s.cmd.Env = binaryEnv()
	s.cmd.Stderr = &s.stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.in.Close(); s.cmd.Process.Kill(); s.cmd.Wait() })
	go func() {
		defer close(s.replies)
		br := bufio.NewReader(out)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				var r stdioReply
				json.Unmarshal(line, &r)
				r.line = string(line)
				s.replies <- r
			}
			if err != nil {
				return
			}
		}
	}()
	s.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.reply(t, `"init"`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdioServe) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatalf("writing to rlm mcp serve (exited? %s): %v", s.stderr.String(), err)
	}
}

// reply returns the next reply with the raw id want (others are skipped).
func (s *stdioServe) reply(t *testing.T, want string) stdioReply {
	t.Helper()
	timeout := time.After(safetyTimeout)
	for {
		select {
		case r, ok := <-s.replies:
			if !ok {
				s.cmd.Wait()
				t.Fatalf("rlm mcp serve closed its stdout (exit %d) before a reply with id %s; stderr: %s", s.cmd.ProcessState.ExitCode(), want, s.stderr.String())
			}
			if string(r.ID) == want {
				return r
			}
		case <-timeout:
			t.Fatalf("no reply with id %s", want)
		}
	}
}

// ping checks the server still answers.
func (s *stdioServe) ping(t *testing.T, id string) {
	t.Helper()
	s.send(t, `{"jsonrpc":"2.0","id":"`+id+`","method":"ping"}`)
	if r := s.reply(t, `"`+id+`"`); r.Error != nil || r.Result == nil {
		t.Fatalf("ping %s: %s", id, r.line)
	}
}

// end closes stdin: the server exits 0 without an error.
func (s *stdioServe) end(t *testing.T) {
	t.Helper()
	s.in.Close()
	for range s.replies {
	}
	s.cmd.Wait()
	if code := s.cmd.ProcessState.ExitCode(); code != 0 || s.stderr.Len() != 0 {
		t.Fatalf("at the end of stdin: exit %d; stderr %s", code, s.stderr.String())
	}
}

// Each bad line the adversarial review sent to rlm mcp serve over stdio
// ended the server, and every run in it, with "config/invalid_usage ...
// see rlm --help". It is answered with a JSON-RPC error now (parse error
// -32700, invalid request -32600), the session goes on, and the end of
// stdin still ends it with exit 0.
func TestMCPServeStdioSurvivesMalformedLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServeStdio(t, "--replay", writeCassette(t, dir, `{"answer":"42"}`))
	for i, c := range []struct {
		line, id string
		code     int
	}{
		{`not json`, "null", -32700},
		{`{}`, "null", -32600},
		{`[]`, "null", -32600},
		{`{"jsonrpc":"1.0","id":"v1","method":"ping"}`, `"v1"`, -32600},
		{`{"jsonrpc":"2.0","id":"a","method":"ping"`, "null", -32700},
		{`[{"jsonrpc":"2.0","id":"b","method":"ping"}]`, "null", -32600},
	} {
		s.send(t, c.line)
		if r := s.reply(t, c.id); r.Error == nil || r.Error.Code != c.code {
			t.Errorf("%s: %s, want error %d", c.line, r.line, c.code)
		}
		s.ping(t, fmt.Sprint("after-", i))
	}
	s.send(t, `{"jsonrpc":"2.0","id":"run","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"q","context_text":"the answer is 42"}}}`)
	if r := s.reply(t, `"run"`); r.Result == nil || r.Result.IsError || r.Result.StructuredContent.Answer != "42" {
		t.Fatalf("rlm_run after the bad lines: %s", r.line)
	}
	s.end(t)
}

// context_text is bounded by its decoded size (16 MiB), whatever its JSON
// form: 3 MiB of é escaped as \u00e9 (Python's json.dumps default, 18 MiB
// on the wire) is served, and 16 MiB + 1 byte is refused with
// mcp/inline_too_large; both ended the server ("frame exceeded the
// configured maximum line length"). A line beyond mcp.MaxLineBytes is
// answered with an error carrying its id and skipped.
func TestMCPServeStdioInlineLimitIsDecoded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServeStdio(t, "--replay", writeCassette(t, dir, `{"answer":"42"}`, `{"answer":"43"}`))
	call := func(id, text string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"q","context_text":"` + text + `"}}}`
	}
	// 3 MiB of é, escaped: served.
	line := call("e", strings.Repeat(`\u00e9`, 3<<20))
	if len(line) <= 16<<20 {
		t.Fatalf("the escaped line is %d bytes, meant to exceed 16 MiB", len(line))
	}
	s.send(t, line)
	if r := s.reply(t, `"e"`); r.Result == nil || r.Result.IsError || r.Result.StructuredContent.Answer != "42" {
		t.Fatalf("3 MiB of escaped é: %.300s", r.line)
	}
	// The largest inline context in the worst escaping: served (1.1 GB
	// peak RSS, docs/mcp.md; not under the race detector, which multiplies
	// it).
	if !raceEnabled {
		s.send(t, call("worst", strings.Repeat(`\u0001`, mcp.MaxInlineBytes)))
		if r := s.reply(t, `"worst"`); r.Result == nil || r.Result.IsError || r.Result.StructuredContent.Answer != "43" {
			t.Fatalf("16 MiB of \\u0001: %.300s", r.line)
		}
	}
	// One byte more, unescaped: refused as a tool error.
	s.send(t, call("over", strings.Repeat("a", mcp.MaxInlineBytes+1)))
	if r := s.reply(t, `"over"`); r.Result == nil || !r.Result.IsError || !strings.Contains(r.Result.Content[0].Text, "mcp/inline_too_large") {
		t.Fatalf("16 MiB + 1: %.300s", r.line)
	}
	s.ping(t, "after-inline")
	// Beyond the line limit: a JSON-RPC error with the request's id.
	s.send(t, call("huge", strings.Repeat("a", mcp.MaxLineBytes)))
	if r := s.reply(t, `"huge"`); r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "longer than") {
		t.Fatalf("beyond the line limit: %.300s", r.line)
	}
	s.ping(t, "after-huge")
	s.end(t)
}

// rlm mcp serve (the built binary, over stdio) lists its prompts, expands
// one into a message naming the call to make, answers that call as the
// message spells it, and refuses a prompt without its required argument
// with invalid params and the typed error.
func TestMCPServePromptsStdio(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "log.txt"), []byte("ok\nERROR disk full\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServeStdio(t, "--root", dir, "--replay", writeCassette(t, dir, `{"answer":"42"}`))
	s.send(t, `{"jsonrpc":"2.0","id":"list","method":"prompts/list"}`)
	var list struct {
		Result struct {
			Prompts []struct {
				Name      string
				Arguments []struct {
					Name     string
					Required bool
				}
			}
		}
	}
	json.Unmarshal([]byte(s.reply(t, `"list"`).line), &list)
	var names []string
	for _, p := range list.Result.Prompts {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "answer_question,find_occurrences,summarize_context" || len(list.Result.Prompts[0].Arguments) != 2 ||
		!list.Result.Prompts[0].Arguments[0].Required {
		t.Fatalf("prompts/list: %+v", list.Result.Prompts)
	}
	s.send(t, `{"jsonrpc":"2.0","id":"get","method":"prompts/get","params":{"name":"answer_question","arguments":{"question":"What failed?","context_path":"log.txt"}}}`)
	var got struct {
		Result struct {
			Messages []struct {
				Role    string
				Content struct{ Type, Text string }
			}
		}
	}
	json.Unmarshal([]byte(s.reply(t, `"get"`).line), &got)
	if len(got.Result.Messages) != 1 || got.Result.Messages[0].Role != "user" ||
		!strings.Contains(got.Result.Messages[0].Content.Text, `Call rlm_run with query set to the question above, word for word, and context_path "log.txt"`) {
		t.Fatalf("prompts/get: %+v", got.Result)
	}
	s.send(t, `{"jsonrpc":"2.0","id":"run","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"What failed?","context_path":"log.txt"}}}`)
	if r := s.reply(t, `"run"`); r.Result == nil || r.Result.IsError || r.Result.StructuredContent.Answer != "42" {
		t.Fatalf("the call the prompt names: %s", r.line)
	}
	s.send(t, `{"jsonrpc":"2.0","id":"bad","method":"prompts/get","params":{"name":"answer_question","arguments":{"context_path":"log.txt"}}}`)
	r := s.reply(t, `"bad"`)
	var bad struct {
		Error struct {
			Code int
			Data struct{ Phase, Kind string }
		}
	}
	json.Unmarshal([]byte(r.line), &bad)
	if bad.Error.Code != -32602 || bad.Error.Data.Phase != string(mcp.Phase) || bad.Error.Data.Kind != string(mcp.KindInvalidPromptArgs) {
		t.Fatalf("prompts/get without its question: %s", r.line)
	}
	s.end(t)
}
