package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
)

// sseEvent is one event of a raw text/event-stream body, its fields as
// written (a field given twice keeps the last; data lines are joined).
type sseEvent struct {
	fields map[string]string
	has    map[string]bool
}

func parseSSE(t *testing.T, body []byte) []sseEvent {
	t.Helper()
	var evs []sseEvent
	for _, block := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(block) == "" {
			continue
		}
		ev := sseEvent{fields: map[string]string{}, has: map[string]bool{}}
		for _, line := range strings.Split(block, "\n") {
			if strings.HasPrefix(line, ":") {
				continue
			}
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			if name == "data" && ev.has["data"] {
				value = ev.fields["data"] + "\n" + value
			}
			ev.fields[name], ev.has[name] = value, true
		}
		evs = append(evs, ev)
	}
	return evs
}

// rawPost sends one JSON-RPC message to the streamable HTTP handler as a
// client of protocol version proto would and returns the response.
func rawPost(t *testing.T, url, session, proto, msg string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", proto)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func readAll(t *testing.T, resp *http.Response) []byte {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHTTPStreamsArePrimed reads the raw event streams of POSTs to the
// streamable HTTP server: for a 2025-11-25 client the first event is the
// priming event (an id, empty data) with the retry field, then the
// response with its own id, and a GET with the priming event's id as
// Last-Event-ID replays the response (the id resumes the stream); a
// 2025-06-18 client, which would parse the empty data as a message, gets
// no priming event and no retry field.
func TestHTTPStreamsArePrimed(t *testing.T) {
	srv, err := NewServer(ServeConfig{Limits: budget.DefaultLimits, Run: func(context.Context, RunRequest) (*RunResult, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.HTTPHandler(""))
	defer hs.Close()
	for _, tc := range []struct {
		proto  string
		primed bool
	}{{"2025-11-25", true}, {"2025-06-18", false}, {"2025-03-26", false}} {
		t.Run(tc.proto, func(t *testing.T) {
			resp := rawPost(t, hs.URL, "", tc.proto, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+tc.proto+
				`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
			session := resp.Header.Get("Mcp-Session-Id")
			initEvents := parseSSE(t, readAll(t, resp))
			if session == "" || len(initEvents) == 0 {
				t.Fatalf("initialize: session %q, events %v", session, initEvents)
			}
			defer func() { // end the session, and its goroutines, as a client does
				req, _ := http.NewRequest(http.MethodDelete, hs.URL, nil)
				req.Header.Set("Mcp-Session-Id", session)
				req.Header.Set("Mcp-Protocol-Version", tc.proto)
				if r, err := http.DefaultClient.Do(req); err == nil {
					readAll(t, r)
				}
			}()
			if r := rawPost(t, hs.URL, session, tc.proto, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.StatusCode != http.StatusAccepted {
				t.Fatalf("initialized: HTTP %d", r.StatusCode)
			} else {
				readAll(t, r)
			}
			resp = rawPost(t, hs.URL, session, tc.proto, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Fatalf("Content-Type %q", ct)
			}
			raw := readAll(t, resp)
			evs := parseSSE(t, raw)
			for name, stream := range map[string][]sseEvent{"initialize": initEvents, "tools/list": evs} {
				first := stream[0]
				if !tc.primed {
					if first.fields["data"] == "" || first.has["retry"] || bytes.Contains(raw, []byte("retry:")) {
						t.Fatalf("%s: a %s stream got a priming event or a retry field: %q", name, tc.proto, raw)
					}
					continue
				}
				if first.fields["id"] == "" || !first.has["data"] || first.fields["data"] != "" || first.fields["retry"] != "1000" {
					t.Fatalf("%s: the first event is not the priming event with retry 1000: %+v (raw %q)", name, first.fields, raw)
				}
			}
			last := evs[len(evs)-1]
			var msg struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal([]byte(last.fields["data"]), &msg); err != nil || msg.ID != 2 || len(msg.Result) == 0 || last.fields["id"] == "" {
				t.Fatalf("the stream does not end with the response and its id: %q", raw)
			}
			if !tc.primed {
				return
			}
			// The priming event's id resumes the stream: a GET with it as
			// Last-Event-ID is given the response the stream carried.
			req, _ := http.NewRequest(http.MethodGet, hs.URL, nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", tc.proto)
			req.Header.Set("Last-Event-ID", evs[0].fields["id"])
			gr, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			replay := readAll(t, gr)
			if gr.StatusCode != http.StatusOK || !bytes.Contains(replay, []byte(last.fields["data"])) {
				t.Fatalf("resuming after the priming event: HTTP %d %q", gr.StatusCode, replay)
			}
		})
	}
}
