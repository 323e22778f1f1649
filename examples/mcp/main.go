// Command mcp serves a Recursive Language Model to MCP clients: one
// session (rlm.Open) becomes an MCP server (Session.MCPServer) whose tools
// are rlm_run, context_metadata, context_search and context_slice over the
// files under a root directory. The model's endpoint and key stay in this
// process; a client sends only queries and paths.
//
// By default the program is its own client: it writes a sample log under a
// temporary root, connects an MCP client in memory, lists the tools, runs
// context_search and rlm_run (the model's replies from a recorded
// cassette: no network, no key) and prints what came back:
//
//	go run ./examples/mcp
//
// With -stdio ROOT it serves real clients over stdin and stdout instead
// (an MCP client's server command), calling the OpenAI API (key from
// OPENAI_API_KEY):
//
//	go run ./examples/mcp -stdio /srv/logs
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
)

//go:embed cassette.json
var cassette []byte

func main() {
	stdio := flag.String("stdio", "", "serve MCP clients on stdin/stdout over the files under this root, with the OpenAI API")
	flag.Parse()
	ctx := context.Background()
	spec := rlm.Spec{Model: "gpt-4o-mini", Limits: budget.Limits{MaxCostUSD: 0.50}}
	root := *stdio
	if root == "" {
		root = tempRoot()
		defer os.RemoveAll(root)
		spec.Replay = filepath.Join(root, "cassette.json")
	}
	sess, err := rlm.Open(ctx, spec)
	check(err)
	defer sess.Close()
	srv, err := sess.MCPServer(rlm.MCPServe{Roots: []string{root}})
	check(err)
	defer srv.Close()
	if *stdio != "" {
		check(srv.ServeStdio(ctx))
		return
	}

	// The program's own client, connected in memory.
	serverEnd, clientEnd := mcpsdk.NewInMemoryTransports()
	_, err = srv.SDK().Connect(ctx, serverEnd, nil)
	check(err)
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "example", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, clientEnd, nil)
	check(err)
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	check(err)
	for _, t := range tools.Tools {
		fmt.Println("tool:", t.Name)
	}
	found := call(ctx, cs, "context_search", map[string]any{"path": "app.log", "pattern": "ERROR"})
	for _, m := range found["value"].([]any) {
		fmt.Println("match:", m.(map[string]any)["value"])
	}
	run := call(ctx, cs, "rlm_run", map[string]any{"query": "Which service failed first, and why?", "context_path": "app.log"})
	fmt.Printf("rlm_run %s: %s\n", run["status"], run["answer"])
}

// call calls one tool and returns its structured result.
func call(ctx context.Context, cs *mcpsdk.ClientSession, name string, args map[string]any) map[string]any {
	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: name, Arguments: args})
	check(err)
	out, ok := res.StructuredContent.(map[string]any)
	if res.IsError || !ok {
		log.Fatalf("%s failed: %v", name, res.Content)
	}
	return out
}

// tempRoot writes the sample log and the cassette under a new directory.
func tempRoot() string {
	dir, err := os.MkdirTemp("", "rlm-mcp-example-")
	check(err)
	check(os.WriteFile(filepath.Join(dir, "app.log"), []byte(sampleLog), 0o644))
	check(os.WriteFile(filepath.Join(dir, "cassette.json"), cassette, 0o644))
	return dir
}

const sampleLog = `2026-12-01T10:00:01Z api INFO started
2026-12-01T10:00:07Z billing ERROR connection refused: db:5432
2026-12-01T10:00:09Z api ERROR upstream billing unavailable
`

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
