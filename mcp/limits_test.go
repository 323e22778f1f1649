package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// A time limit in milliseconds too large for a time.Duration wrapped when
// converted (a negative or tiny limit: every tool skipped, or every call
// timing out at once). It is refused as invalid_config; the largest
// representable value is accepted as it is.
func TestHugeTimeoutsAreInvalidConfig(t *testing.T) {
	maxMS := int64(math.MaxInt64 / int64(time.Millisecond))
	for _, c := range []struct {
		field string
		ms    int64
		ok    bool
	}{
		{"timeout_ms", 1e18, false},
		{"timeout_ms", math.MaxInt64, false},
		{"timeout_ms", maxMS + 1, false},
		{"timeout_ms", maxMS, true},
		{"start_timeout_ms", 1e18, false},
		{"start_timeout_ms", math.MaxInt64, false},
		{"start_timeout_ms", maxMS, true},
	} {
		doc := `{"mcpServers":{"s":{"command":"x","` + c.field + `":` + strconv.FormatInt(c.ms, 10) + `}}}`
		cfg, err := ParseConfig([]byte(doc))
		if c.ok {
			if err != nil {
				t.Errorf("%s=%d: %v", c.field, c.ms, err)
				continue
			}
			sc := cfg.Servers["s"]
			if sc.callTimeout() <= 0 || sc.startTimeout() <= 0 {
				t.Errorf("%s=%d: timeouts %v %v", c.field, c.ms, sc.callTimeout(), sc.startTimeout())
			}
			continue
		}
		if fault.KindOf(err) != fault.KindInvalidConfig {
			t.Errorf("%s=%d: %v (call timeout %v, start timeout %v), want invalid_config", c.field, c.ms, err,
				cfg.Servers["s"].callTimeout(), cfg.Servers["s"].startTimeout())
		}
	}
}

// A max_message_bytes as large as an int64 means "no practical limit":
// the limit plus one wrapped negative, so every message was too large.
func TestHugeMessageLimit(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"x"}` + "\n"
	fail := &failure{}
	r := &frameReader{src: bufio.NewReaderSize(bytes.NewReader([]byte(msg)), 16), closer: io.NopCloser(nil), limit: math.MaxInt, fail: fail}
	out, err := io.ReadAll(r)
	if err != nil || string(out) != msg {
		t.Errorf("stdio frame reader with limit MaxInt: %q, %v (failure %v)", out, err, fail.get())
	}
	// Through the transport as configured.
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, msg)
	}))
	defer hs.Close()
	fail = &failure{}
	rt := &headerRoundTripper{next: http.DefaultTransport, limit: math.MaxInt64, fail: fail}
	req, _ := http.NewRequest(http.MethodGet, hs.URL, nil)
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	out, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(out) != msg {
		t.Errorf("round trip with limit MaxInt64: %q, %v (failure %v)", out, err, fail.get())
	}
}

// A caller's time_limit_ms too large for a time.Duration is larger than
// any ceiling, so it is ignored; it wrapped into an arbitrary (sometimes
// sub-millisecond) limit.
func TestNarrowHugeTimeLimit(t *testing.T) {
	ceiling := budget.Limits{TimeLimit: time.Minute}
	for _, ms := range []int64{18446744073710, math.MaxInt64, 1e18, math.MaxInt64/int64(time.Millisecond) + 1} {
		if got := (RunArgs{TimeLimitMS: ms}).Narrow(ceiling).TimeLimit; got != time.Minute {
			t.Errorf("time_limit_ms %d: time limit %v, want the ceiling's 1m0s", ms, got)
		}
	}
}

// dynServer is a streamable HTTP MCP server whose tool list the test sets
// and which answers 503 to everything while down.
type dynServer struct {
	mu    sync.Mutex
	tools []string
	down  atomic.Bool
	// downInit receives a value each time initialize is refused while down.
	downInit chan struct{}
}

func (d *dynServer) setTools(names ...string) {
	d.mu.Lock()
	d.tools = names
	d.mu.Unlock()
}

func (d *dynServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "no", http.StatusMethodNotAllowed)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &msg)
	if d.down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		if msg.Method == "initialize" {
			select {
			case d.downInit <- struct{}{}:
			default:
			}
		}
		return
	}
	if msg.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var res string
	switch msg.Method {
	case "initialize":
		res = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"dyn","version":"1"}}`
	case "tools/list":
		d.mu.Lock()
		var ts []map[string]any
		for _, n := range d.tools {
			ts = append(ts, map[string]any{"name": n, "inputSchema": map[string]any{"type": "object"}})
		}
		d.mu.Unlock()
		js, _ := json.Marshal(map[string]any{"tools": ts})
		res = string(js)
	case "tools/call":
		res = `{"content":[{"type":"text","text":"ok"}]}`
	default:
		res = `{}`
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":`+res+`}`)
}

// A tools/list_changed that arrives while the server is failing starts a
// re-import that cannot reach it. The change must not be lost: once the
// server is reached again, its tools are listed again and the registry
// follows them.
func TestListChangedDuringRestartIsNotLost(t *testing.T) {
	d := &dynServer{tools: []string{"a"}, downInit: make(chan struct{}, 1)}
	hs := httptest.NewServer(d)
	defer hs.Close()
	changed := make(chan string, 16)
	h := NewHost(Config{Servers: map[string]ServerConfig{"dyn": {URL: hs.URL, Effect: "read"}}},
		Options{Backoff: func(int) time.Duration { return 0 }, OnChange: func(s string) { changed <- s }})
	defer h.Close()
	reg, call := importedTool(t, h, "mcp.dyn.a")
	if res := call(); res.Status != tool.StatusOK {
		t.Fatalf("a: %+v", res.Error)
	}
	s := h.servers["dyn"]
	// The server fails: the call drops the connection.
	d.down.Store(true)
	if res := call(); mcpKind(res) != KindServerCrashed {
		t.Fatalf("a while down: %+v, want mcp/%s", res.Error, KindServerCrashed)
	}
	// Its tools change, and the notification arrives as it fails: the
	// re-import cannot start it.
	d.setTools("a", "b")
	s.markDirty()
	<-d.downInit
	for { // the failed start is recorded
		s.mu.Lock()
		idle := s.pending == nil
		s.mu.Unlock()
		if idle {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// The server is back; the next use reconnects.
	d.down.Store(false)
	if res := call(); res.Status != tool.StatusOK {
		t.Fatalf("a after the restart: %+v", res.Error)
	}
	// Guard against a hang only: the change is never applied without the fix.
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("after the reconnect the tools were not listed again: mcp.dyn.b never registered")
	}
	if _, ok := reg.Lookup("mcp.dyn.b"); !ok {
		t.Fatal("mcp.dyn.b not registered after the change")
	}
}
