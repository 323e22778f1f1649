package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzServeLines drives the stdio loop of rlm mcp serve with arbitrary
// lines after an initialize: it must not panic, must not end before its
// stdin does, must end cleanly then, and must answer every line that is a
// request (an object with "method" and an id MCP allows) with a reply
// carrying that id, and every line over the limit with one reply (the id
// its start shows, or null). subscriptions/listen is the exception: a call that stays open
// by design, answered when cancelled or when the session ends (and a call
// reusing its id is refused with id null).
func FuzzServeLines(f *testing.F) {
	for _, seed := range []string{
		`not json`,
		`{}`,
		`[]`,
		`{"jsonrpc":"1.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"rlm_run","arguments":{"query":"q","context_text":"\u00e9"}}}`,
		`{"jsonrpc":"2.0","id":"m","method":"tools/call","params":{"name":"context_metadata","arguments":{"path":"x"}}}`,
		`{"jsonrpc":"2.0","id":"l","method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"c","method":"notifications/cancelled","params":{"requestId":"t"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"init"}}`,
		`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":"\u0000","method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}` + "\r\n\r\n",
		`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"_meta":{"x":"` + strings.Repeat("y", 600) + `"}}}`,
		`{"jsonrpc":"2.0","id":"d","method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
	} {
		f.Add([]byte(seed))
	}
	const limit = 512
	srv := linesServer(f)
	f.Fuzz(func(t *testing.T, input []byte) {
		s := startLines(t, srv, limit)
		s.send(initLines)
		s.until(t, `"init"`)
		listening := map[string]bool{} // ids of subscriptions/listen calls, open for the session
		for i, line := range bytes.Split(input, []byte("\n")) {
			// Each line is followed by a ping: a reply the server writes
			// itself comes before the ping's; the SDK's may come after.
			barrier := normID(json.RawMessage(fmt.Sprintf(`"\u0000barrier-%d"`, i)))
			s.send(string(line) + "\n" + `{"jsonrpc":"2.0","id":` + barrier + `,"method":"ping"}` + "\n")
			id, isRequest, listen := requestID(line)
			over := len(line) > limit
			if listen && !over {
				listening[id] = true
				isRequest = false
			}
			seenBarrier, answered := false, !over && !isRequest
			timeout := time.After(time.Minute) // only keeps a broken server from hanging the fuzzer
			for !seenBarrier || !answered {
				select {
				case r, ok := <-s.replies:
					if !ok {
						t.Fatalf("line %d %q: the session ended before its stdin: %v", i, line, <-s.done)
					}
					got := normID(r.ID)
					switch {
					case got == barrier && !seenBarrier:
						seenBarrier = true
					case over && !answered: // with the id its head shows, else null
						answered = true
					case isRequest && !answered:
						// null: the id is that of a call still open (the SDK refuses a reused id)
						answered = got == id || (got == "null" && listening[id])
					}
				case <-timeout:
					t.Fatalf("line %d %q: no reply (barrier %v, answered %v)", i, line, seenBarrier, answered)
				}
			}
		}
		if err := s.end(t); err != nil {
			t.Fatalf("at the end of stdin: %v", err)
		}
	})
}

// requestID returns the normalised id of a line that is a JSON object
// with a "method" member and an id MCP allows (a string, or an integer of
// at most 2^53 in magnitude), and whether it is subscriptions/listen (a
// call that stays open by design).
func requestID(line []byte) (id string, ok, listen bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return "", false, false
	}
	raw, hasID := m["id"]
	method, hasMethod := m["method"]
	if !hasID || !hasMethod {
		return "", false, false
	}
	var name string
	listen = json.Unmarshal(method, &name) == nil && name == "subscriptions/listen"
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		return normID(raw), true, listen
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	return normID(raw), err == nil && v <= 1<<53 && v >= -(1<<53), listen
}

// normID is an id as a comparable string: strings by their decoded value,
// numbers by their value, a missing id as null.
func normID(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 {
		return "null"
	}
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	if v == nil {
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
