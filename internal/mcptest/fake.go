// Package mcptest is a scripted MCP server for fault tests: the test
// binary runs it as a stdio MCP server in a child process (see Main), and
// its tools misbehave on request: crash mid-call, hang, write garbage or
// a 10 MB result, or send a storm of tools/list_changed.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EnvServer, when "1", makes Main serve instead of returning.
const EnvServer = "RLM_MCP_FAKE_SERVER"

// EnvMark names a file the hang tool writes "cancelled" to when the
// client cancels it (notifications/cancelled). When the call starts, it
// writes "started" to the same name with StartedSuffix appended, so a
// test can wait for the call to be in flight before cancelling it.
const EnvMark = "RLM_MCP_FAKE_MARK"

// StartedSuffix ends the name of the hang tool's started mark (see EnvMark).
const StartedSuffix = ".started"

// InitializedSuffix ends the name of the mark the server writes
// "initialized" to (see EnvMark) when the client's last message of the
// handshake arrives: subscriptions/listen after server/discover (protocol
// 2026-07-28), or notifications/initialized after initialize (earlier
// versions). A test waits for it instead of sleeping while a server starts.
const InitializedSuffix = ".initialized"

// writeMark writes s to path aside and renames it into place, so a test
// polling for the mark never reads it created but still empty.
func writeMark(path, s string) {
	if os.WriteFile(path+".tmp", []byte(s), 0o644) == nil {
		_ = os.Rename(path+".tmp", path)
	}
}

// EnvTools, when set to N, adds N extra tools tool_0..tool_{N-1} whose
// descriptions name a distinct topic (for catalog selection tests).
const EnvTools = "RLM_MCP_FAKE_TOOLS"

// Main serves the scripted server on stdio and exits when EnvServer is
// "1"; otherwise it returns at once. Call it first in TestMain.
func Main() {
	if os.Getenv(EnvServer) != "1" {
		return
	}
	err := NewServer().Run(context.Background(), &mcp.StdioTransport{})
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// Topics are the subjects of the extra tools, in order.
var Topics = []string{"weather", "invoice", "kubernetes", "spreadsheet", "calendar", "translation", "stock", "email", "database", "image"}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func args(req *mcp.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

func obj(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return json.RawMessage(`{"type":"object","properties":` + props + `,"required":` + string(req) + `,"additionalProperties":false}`)
}

// NewServer returns the scripted server.
func NewServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "rlm-fake", Version: "1"}, nil)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if p := os.Getenv(EnvMark); p != "" && (method == "subscriptions/listen" || method == "notifications/initialized") {
				writeMark(p+InitializedSuffix, "initialized")
			}
			return next(ctx, method, req)
		}
	})
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: obj(`{"text":{"type":"string"}}`, "text"),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(fmt.Sprint(args(req)["text"])), nil
		})
	s.AddTool(&mcp.Tool{Name: "add", Description: "Add two integers.", InputSchema: obj(`{"a":{"type":"integer"},"b":{"type":"integer"}}`, "a", "b"),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"$ref":"#/$defs/n"}},"required":["sum"],"$defs":{"n":{"type":"integer"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := args(req)
			sum := a["a"].(float64) + a["b"].(float64)
			res := text(fmt.Sprint(sum))
			if a["a"].(float64) == 13 { // a result that violates the output schema
				res.StructuredContent = map[string]any{"sum": "thirteen"}
			} else {
				res.StructuredContent = map[string]any{"sum": sum}
			}
			return res, nil
		})
	s.AddTool(&mcp.Tool{Name: "hang", Description: "Never answers until cancelled.", InputSchema: obj(`{}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			p := os.Getenv(EnvMark)
			if p != "" {
				writeMark(p+StartedSuffix, "started")
			}
			<-ctx.Done()
			if p != "" {
				writeMark(p, "cancelled")
			}
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "crash", Description: "Exits the server mid-call.", InputSchema: obj(`{}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "garbage", Description: "Writes a line that is not JSON-RPC.", InputSchema: obj(`{}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, _ = os.Stdout.WriteString("this is not json-rpc\n")
			return text("ok"), nil
		})
	s.AddTool(&mcp.Tool{Name: "huge", Description: "Returns a 10 MB result.", InputSchema: obj(`{}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(strings.Repeat("x", 10<<20)), nil
		})
	s.AddTool(&mcp.Tool{Name: "storm", Description: "Sends 1000 tools/list_changed notifications and adds the tool added_later.", InputSchema: obj(`{}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			line := `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n"
			for range 1000 {
				_, _ = os.Stdout.WriteString(line)
			}
			s.AddTool(&mcp.Tool{Name: "added_later", Description: "Appeared after list_changed.", InputSchema: obj(`{}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("late"), nil })
			return text("stormed"), nil
		})
	s.AddTool(&mcp.Tool{Name: "bad.schema name", Description: "Its schema has a dangling reference.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"$ref":"#/$defs/missing"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("unreachable"), nil
		})
	s.AddResource(&mcp.Resource{URI: "fake://notes/1", Name: "notes", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain",
				Text: "alpha line\nthe secret number is 42\nomega line\n"}}}, nil
		})
	var n int
	fmt.Sscan(os.Getenv(EnvTools), &n)
	for i := range n {
		topic := Topics[i%len(Topics)]
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%d", i), Description: fmt.Sprintf("Look up %s records, variant %d.", topic, i),
			InputSchema: obj(`{"q":{"type":"string"}}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text(topic), nil })
	}
	return s
}
