package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// scriptedHTTP is a streamable HTTP MCP server answering each request with
// reply(method) (written as is; "" means: never answer until the test ends).
func scriptedHTTP(t *testing.T, sc ServerConfig, reply func(method string) string) *Host {
	return scriptedServer(t, "s", sc, "application/json", reply)
}

// scriptedServer is a streamable HTTP MCP server, the host's server name,
// answering each request with the JSON result reply returns for its
// method, with Content-Type ctype; an empty reply is never answered.
func scriptedServer(t *testing.T, name string, sc ServerConfig, ctype string, reply func(method string) string) *Host {
	t.Helper()
	stop := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "no", http.StatusMethodNotAllowed)
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		if json.Unmarshal(b, &msg) != nil || msg.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if msg.Method == "server/discover" { // the SDK's first probe: answer as an older server would
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"error":{"code":-32601,"message":"method not found"}}`)
			return
		}
		res := `{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"` + name + `","version":"1"}}`
		if msg.Method != "initialize" {
			res = reply(msg.Method)
		}
		if res == "" {
			select {
			case <-stop:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", ctype)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":`+res+`}`)
	}))
	t.Cleanup(func() { close(stop); hs.CloseClientConnections(); hs.Close() })
	sc.URL = hs.URL
	h := NewHost(Config{Servers: map[string]ServerConfig{name: sc}}, Options{})
	t.Cleanup(func() { h.Close() })
	return h
}

// importWithin runs Import under context.Background (as the CLI's
// toolSession does) and reports whether it returned within d.
func importWithin(t *testing.T, h *Host, d time.Duration) (error, bool) {
	done := make(chan error, 1)
	go func() {
		_, err := h.Import(context.Background(), tool.NewRegistry())
		done <- err
	}()
	select {
	case err := <-done:
		return err, true
	case <-time.After(d):
		return nil, false
	}
}

// A server that answers initialize but never tools/list must not hang the
// import forever: docs/mcp.md "A hang is bounded by the per-call limit
// ... none of these crash or hang rlm".
func TestImportToolsListHangIsBounded(t *testing.T) {
	h := scriptedHTTP(t, ServerConfig{Effect: "read", TimeoutMS: 200}, func(m string) string {
		if m == "tools/list" {
			return ""
		}
		return `{}`
	})
	err, ok := importWithin(t, h, 5*time.Second)
	if !ok {
		t.Fatal("Import still blocked after 5s on a server that never answers tools/list (timeout_ms 200)")
	}
	if err == nil {
		t.Fatal("Import succeeded against a server that never answered tools/list")
	}
}

// A server whose tools/list pages are empty but always carry a nextCursor
// makes Import loop forever (MaxTools only counts tools).
func TestImportEndlessEmptyPages(t *testing.T) {
	var pages atomic.Int64
	h := scriptedHTTP(t, ServerConfig{Effect: "read"}, func(m string) string {
		if m == "tools/list" {
			pages.Add(1)
			return `{"tools":[],"nextCursor":"again"}`
		}
		return `{}`
	})
	_, ok := importWithin(t, h, 5*time.Second)
	if !ok {
		t.Fatalf("Import still looping after 5s: %d tools/list pages requested, none with a tool", pages.Load())
	}
}

// max_message_bytes bounds one message from the server. The HTTP bound is
// applied only when Content-Type starts with the exact bytes
// "application/json", while the SDK accepts any spelling that
// mime.ParseMediaType reads as application/json ("Application/JSON",
// "APPLICATION/JSON; charset=utf-8") and then reads the body with io.ReadAll.
func TestHTTPMessageLimitContentTypeCase(t *testing.T) {
	big := `{"tools":[{"name":"t","description":"` + strings.Repeat("x", 1<<20) + `","inputSchema":{"type":"object"}}]}`
	for _, ct := range []string{"application/json", "Application/JSON"} {
		t.Run(ct, func(t *testing.T) {
			h := scriptedServer(t, "s", ServerConfig{Effect: "read", MaxMessageBytes: 64 << 10}, ct, func(m string) string {
				if m == "tools/list" {
					return big
				}
				return `{}`
			})
			_, err := h.Import(context.Background(), tool.NewRegistry())
			if fe := fault.As(err); fe == nil || fe.Kind != KindMessageTooLarge {
				t.Fatalf("a 1 MiB tools/list reply with max_message_bytes 65536 (Content-Type %q): err %v, want mcp/%s", ct, err, KindMessageTooLarge)
			}
		})
	}
}

// The same bound is skipped for an error status: the SDK reads a non-2xx
// body whole (io.ReadAll) to look for a JSON-RPC error in it, whatever its
// Content-Type, and rlm only bounds application/json bodies.
func TestHTTPErrorBodyIsBounded(t *testing.T) {
	var written atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &msg)
		if r.Method != http.MethodPost || msg.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if msg.Method == "server/discover" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"error":{"code":-32601,"message":"method not found"}}`)
			return
		}
		if msg.Method == "initialize" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusBadRequest)
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 256 { // 16 MiB
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer hs.Close()
	h := NewHost(Config{Servers: map[string]ServerConfig{"s": {URL: hs.URL, Effect: "read", MaxMessageBytes: 64 << 10}}}, Options{})
	defer h.Close()
	_, err := h.Import(context.Background(), tool.NewRegistry())
	if err == nil {
		t.Fatal("import succeeded")
	}
	if n := written.Load(); n > 4<<20 {
		t.Fatalf("rlm read %d bytes of one error reply with max_message_bytes 65536 (err: %v)", n, err)
	}
}
