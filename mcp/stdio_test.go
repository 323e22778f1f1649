package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
)

// linesServer is a server whose run function answers at once.
func linesServer(t testing.TB) *Server {
	t.Helper()
	run := func(ctx context.Context, req RunRequest) (*RunResult, error) {
		return &RunResult{Status: "completed", Answer: "ok"}, nil
	}
	srv, err := NewServer(ServeConfig{Limits: budget.DefaultLimits, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// reply is one line the server wrote.
type reply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
	Result json.RawMessage `json:"result"`
}

// lineSession is one stdio session over pipes: send writes lines to the
// server's stdin, replies are its stdout, done its result.
type lineSession struct {
	in        chan string
	closeOnce sync.Once
	replies   chan reply
	done      chan error
}

const initLines = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

func startLines(t testing.TB, srv *Server, limit int) *lineSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &lineSession{in: make(chan string, 64), replies: make(chan reply, 64), done: make(chan error, 1)}
	go func() { // one writer: lines arrive in order; a server that stops reading shows as a missing reply
		for d := range s.in {
			inW.Write([]byte(d))
		}
		inW.Close()
	}()
	go func() {
		s.done <- srv.serveLines(context.Background(), inR, outW, limit)
		outW.Close()
	}()
	go func() {
		defer close(s.replies)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var r reply
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				r.ID = json.RawMessage(fmt.Sprintf("%q", "unparsable reply: "+sc.Text()))
			}
			s.replies <- r
		}
		io.Copy(io.Discard, outR)
	}()
	return s
}

// send queues data for the server's stdin.
func (s *lineSession) send(data string) { s.in <- data }

// until collects replies until one has id want (a raw JSON id).
func (s *lineSession) until(t *testing.T, want string) []reply {
	t.Helper()
	var got []reply
	timeout := time.After(time.Minute) // only keeps a broken test from hanging
	for {
		select {
		case r, ok := <-s.replies:
			if !ok {
				t.Fatalf("the session ended (%v) before a reply with id %s; got %+v", <-s.done, want, got)
			}
			got = append(got, r)
			if string(r.ID) == want {
				return got
			}
		case <-timeout:
			t.Fatalf("no reply with id %s; got %+v", want, got)
		}
	}
}

// end closes stdin (unless closed already) and returns the session's
// result.
func (s *lineSession) end(t *testing.T) error {
	t.Helper()
	s.closeOnce.Do(func() { close(s.in) })
	for range s.replies {
	}
	return <-s.done
}

// Every malformed line is answered with a JSON-RPC error (with the line's
// id when it is a request whose id can be read, else null) and the session
// goes on: a ping after each is answered. The SDK's stdio transport ended
// the session (and rlm mcp serve) at the first of them.
func TestServeLinesMalformed(t *testing.T) {
	s := startLines(t, linesServer(t), MaxLineBytes)
	s.send(initLines)
	s.until(t, `"init"`)
	for i, c := range []struct {
		name, line string
		id         string // the reply's raw id; "" for no reply
		code       int
	}{
		{"not json", `not json`, "null", -32700},
		{"cut", `{"jsonrpc":"2.0","id":1,"method":"ping"`, "null", -32700},
		{"trailing data", `{"jsonrpc":"2.0","id":1,"method":"ping"} {"x":1}`, "null", -32700},
		{"empty object", `{}`, "null", -32600},
		{"empty batch", `[]`, "null", -32600},
		{"batch", `[{"jsonrpc":"2.0","id":"b","method":"ping"}]`, "null", -32600},
		{"number", `5`, "null", -32600},
		{"string", `"ping"`, "null", -32600},
		{"null", `null`, "null", -32600},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":2,"method":"ping"}`, "2", -32600},
		{"jsonrpc missing", `{"id":"v","method":"ping"}`, `"v"`, -32600},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":"n","method":"ping"}`, `"n"`, -32600},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", -32600},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "null", -32600},
		{"id beyond 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, "null", -32600},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", -32600},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, "null", -32600},
		{"method a number", `{"jsonrpc":"2.0","id":3,"method":5}`, "3", -32600},
		{"method null", `{"jsonrpc":"2.0","id":"m","method":null}`, `"m"`, -32600},
		{"neither", `{"jsonrpc":"2.0","params":{}}`, "null", -32600},
		{"response without result", `{"jsonrpc":"2.0","id":7}`, "null", -32600},
		{"response with both", `{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}`, "null", -32600},
		{"deep", `{"jsonrpc":"2.0","id":"d","method":"ping","params":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}`, `"d"`, -32600},
		{"unknown method (the SDK answers)", `{"jsonrpc":"2.0","id":"u","method":"nope"}`, `"u"`, -32601},
		{"notification with an id (the SDK answers)", `{"jsonrpc":"2.0","id":"ni","method":"notifications/initialized"}`, `"ni"`, -32600},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/nope"}`, "", 0},
		{"escaped member name", `{"jsonrpc":"2.0","\u0069d":"esc","method":"ping"}`, `"esc"`, 0},
		{"CRLF", "{\"jsonrpc\":\"2.0\",\"id\":\"crlf\",\"method\":\"ping\"}\r", `"crlf"`, 0},
		{"blank", "  \t ", "", 0},
		{"invalid UTF-8", "\xff\xfe", "null", -32700},
		{"a response to nothing", `{"jsonrpc":"2.0","id":"r","result":{}}`, "", 0},
	} {
		s.send(c.line + "\n")
		ping := fmt.Sprintf(`"after-%d"`, i)
		s.send(`{"jsonrpc":"2.0","id":` + ping + `,"method":"ping"}` + "\n")
		got := s.until(t, ping)
		if c.id != "" && !has(got, c.id) {
			got = append(got, s.until(t, c.id)...) // an answer from the SDK may come after the ping's
		}
		var answers []reply
		for _, r := range got {
			if string(r.ID) != ping {
				answers = append(answers, r)
			}
		}
		switch {
		case c.id == "" && len(answers) != 0:
			t.Errorf("%s: answered %+v, want no reply", c.name, answers)
		case c.id == "":
		case len(answers) != 1 || string(answers[0].ID) != c.id:
			t.Errorf("%s: replies %+v, want one with id %s", c.name, answers, c.id)
		case c.code == 0 && answers[0].Error != nil:
			t.Errorf("%s: error %+v, want a result", c.name, answers[0].Error)
		case c.code != 0 && (answers[0].Error == nil || answers[0].Error.Code != c.code):
			t.Errorf("%s: reply %+v, want error %d", c.name, answers[0], c.code)
		}
	}
	// A tool call still works, then the end of stdin ends the session
	// without an error.
	s.send(`{"jsonrpc":"2.0","id":"run","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"q","context_text":"x"}}}` + "\n")
	if got := s.until(t, `"run"`); got[len(got)-1].Error != nil || !strings.Contains(string(got[len(got)-1].Result), `"answer":"ok"`) {
		t.Fatalf("rlm_run after the bad lines: %+v", got[len(got)-1])
	}
	if err := s.end(t); err != nil {
		t.Fatalf("at the end of stdin: %v", err)
	}
}

func has(rs []reply, id string) bool {
	for _, r := range rs {
		if string(r.ID) == id {
			return true
		}
	}
	return false
}

// A line over the limit is answered (with its id when the id comes before
// the cut of its head) and skipped; a line of exactly the limit is served.
func TestServeLinesTooLong(t *testing.T) {
	const limit = 1024
	s := startLines(t, linesServer(t), limit)
	s.send(initLines)
	s.until(t, `"init"`)
	pad := func(line string, n int) string { // line grown to n bytes by spaces inside it
		return strings.Replace(line, `"method"`, strings.Repeat(" ", n-len(line))+`"method"`, 1)
	}
	ping := `{"jsonrpc":"2.0","id":"edge","method":"ping"}`
	big := strings.Repeat("x", 3*lineHeadBytes)
	for _, c := range []struct {
		name, line, id string
		code           int
	}{
		{"exactly the limit", pad(ping, limit), `"edge"`, 0},
		{"one byte over", pad(ping, limit+1), `"edge"`, -32600},
		{"CR counts", pad(ping, limit) + "\r", `"edge"`, -32600},
		{"id first", `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"q","context_text":"` + big + `"}}}`, `"big"`, -32600},
		{"id last", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"q","context_text":"` + big + `"}},"id":"late"}`, "null", -32600},
		{"not json", big, "null", -32600},
		{"a response", `{"jsonrpc":"2.0","id":"resp","result":"` + big + `"}`, "null", -32600},
	} {
		s.send(c.line + "\n")
		got := s.until(t, c.id)
		r := got[len(got)-1]
		if len(got) != 1 {
			t.Errorf("%s: replies %+v", c.name, got)
		}
		if c.code == 0 {
			if r.Error != nil {
				t.Errorf("%s: %+v, want a result", c.name, r.Error)
			}
			continue
		}
		if r.Error == nil || r.Error.Code != c.code || r.Error.Data["max_line_bytes"] != float64(limit) {
			t.Errorf("%s: %+v, want error %d with max_line_bytes", c.name, r.Error, c.code)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n")
	s.until(t, `"after"`)
	if err := s.end(t); err != nil {
		t.Fatal(err)
	}
}

// The last line may lack its newline; the session ends cleanly after it.
func TestServeLinesLastLineWithoutNewline(t *testing.T) {
	s := startLines(t, linesServer(t), MaxLineBytes)
	s.send(initLines + `not json`)
	s.until(t, `"init"`)
	s.closeOnce.Do(func() { close(s.in) })
	got := s.until(t, "null")
	if got[len(got)-1].Error == nil || got[len(got)-1].Error.Code != -32700 {
		t.Fatalf("%+v", got)
	}
	if err := s.end(t); err != nil {
		t.Fatal(err)
	}
}

// The line limit admits the largest inline context in its worst JSON
// escaping.
func TestMaxLineBytesAdmitsEscapedInline(t *testing.T) {
	esc, _ := json.Marshal(strings.Repeat("\x01", 1000))
	perByte := (len(esc) - 2) / 1000
	if perByte != 6 {
		t.Fatalf("the worst escaping is %d bytes a byte, the limit assumes 6", perByte)
	}
	if MaxLineBytes < perByte*MaxInlineBytes+64<<10 {
		t.Fatalf("MaxLineBytes %d leaves too little for the rest of a message", MaxLineBytes)
	}
	if !bytes.Equal(esc[1:7], []byte(`\u0001`)) {
		t.Fatalf("escaping: %s", esc[:8])
	}
}
