package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
)

// Both sides of MCP in one program: NewServer is `rlm mcp serve` (here over
// streamable HTTP, with a run function that counts lines instead of running
// a model), and a Host imports that server's tools into a tool registry as
// mcp.<server>.<tool>, so calls go through the ordinary tool pipeline.
func ExampleNewHost() {
	srv, err := mcp.NewServer(mcp.ServeConfig{Version: "example",
		Run: func(ctx context.Context, req mcp.RunRequest) (*mcp.RunResult, error) {
			text, _ := req.Store.Text(req.Context, 1<<20)
			return &mcp.RunResult{Status: "completed", Answer: fmt.Sprintf("%d lines", strings.Count(text, "\n"))}, nil
		}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	web := httptest.NewServer(srv.HTTPHandler(""))
	defer web.Close()

	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"rlm": {"url": "` + web.URL + `", "effect": "read"}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	host := mcp.NewHost(cfg, mcp.Options{})
	defer host.Close()
	ctx := context.Background()
	reg := tool.NewRegistry()
	if _, err := host.Import(ctx, reg, "rlm"); err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range host.Imported() {
		fmt.Println(t.Name, t.Effect)
	}

	rt := tool.NewRuntime(reg, tool.Config{})
	res, err := rt.Invoke(ctx, tool.Call{Name: "mcp.rlm.rlm_run",
		Args:       json.RawMessage(`{"query":"How many lines?","context_text":"a\nb\nc\n"}`),
		Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:mcp.rlm.*")}})
	if err != nil || res.Error != nil {
		fmt.Println(err, res.Error)
		return
	}
	var out struct {
		Structured mcp.RunResult `json:"structuredContent"`
	}
	_ = json.Unmarshal(res.Value, &out)
	fmt.Println(out.Structured.Status, out.Structured.Answer)
	// Output:
	// mcp.rlm.context_metadata read
	// mcp.rlm.context_search read
	// mcp.rlm.context_slice read
	// mcp.rlm.rlm_run read
	// completed 3 lines
}
