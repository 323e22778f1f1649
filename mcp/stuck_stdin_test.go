package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/tool"
)

const envStall = "RLM_TEST_STALL_SERVER"

// A stdio MCP server that answers initialize and tools/list, then stops
// reading its stdin (stuck, alive, its stdout open).
func init() {
	if os.Getenv(envStall) != "1" {
		return
	}
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			os.Exit(0)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(line, &m)
		switch m.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"stall","version":"1"}}}`+"\n", m.ID)
		case "tools/list":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"put","inputSchema":{"type":"object"}}]}}`+"\n", m.ID)
			time.Sleep(time.Hour) // stuck: stdin is never read again
		default:
			if len(m.ID) > 0 {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
			}
		}
	}
}

// The per-call limit must bound a call to a server that stopped reading:
// the SDK writes the request synchronously without honouring ctx, so once
// the pipe is full the handler blocks in write forever. The runtime
// abandons it at the time limit, but the blocked write holds the
// connection's write lock: every later call blocks as well, the server is
// never dropped or restarted, and each call leaks a goroutine.
func TestStuckStdinServer(t *testing.T) {
	sc := ServerConfig{Command: os.Args[0], Args: []string{"-test.run=^$"}, Effect: "read", TimeoutMS: 300, StartTimeoutMS: 3000,
		Env: map[string]string{envStall: "1"}}
	h := NewHost(Config{Servers: map[string]ServerConfig{"s": sc}}, Options{})
	reg := tool.NewRegistry()
	if _, err := h.Import(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	rt := tool.NewRuntime(reg, tool.Config{})
	big := `{"blob":"` + strings.Repeat("x", 1<<20) + `"}`
	call := func(args string) tool.Result {
		res, _ := rt.Invoke(context.Background(), tool.Call{Name: "mcp.s.put", Args: json.RawMessage(args),
			Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:mcp.*")}})
		return res
	}
	res := call(big)
	t.Logf("first call: %s %v", res.Status, res.Error)
	res = call(`{}`)
	t.Logf("second call (2 bytes of arguments): %s %v", res.Status, res.Error)
	// The server is hung: the next use should fail fast or restart it,
	// and closing the host must stop it. Measure Close.
	start := time.Now()
	done := make(chan struct{})
	go func() { h.Close(); close(done) }()
	select {
	case <-done:
		t.Logf("Close took %v", time.Since(start))
	case <-time.After(10 * time.Second):
		t.Fatal("Host.Close still blocked after 10s: the handler's write to the stuck server's stdin is never unblocked")
	}
}
