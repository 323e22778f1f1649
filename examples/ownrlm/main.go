// Command ownrlm is rlm's whole command line with a Go tool of its own:
// package launcher is the rlm binary as a library, and a program passes
// it the tools every session offers (rlm run, chat, direct, submit and
// worker, mcp serve, bench, tools call and list), granted as the
// library's Spec.Tools are. Every command, flag and exit code of rlm
// stays as docs/cli.md gives it:
//
//	go run ./examples/ownrlm tools call service_status --args '{"service":"billing"}'
//	go run ./examples/ownrlm run --mode code --context app.log "Which services are down?"
package main

import (
	"context"
	"os"

	"github.com/rlm-go/rlm/cmd/launcher"
	"github.com/rlm-go/rlm/tool"
)

// statusQuery is the tool's arguments; its JSON Schema is derived from it.
type statusQuery struct {
	Service string `json:"service" jsonschema:"minLength=1"`
}

// serviceStatus is the tool's result.
type serviceStatus struct {
	State string `json:"state"`
}

func main() {
	status := tool.Func("service_status", "the current state of a service (up, degraded or down)",
		func(ctx context.Context, q statusQuery) (serviceStatus, error) {
			states := map[string]string{"billing": "down", "api": "degraded"}
			return serviceStatus{State: states[q.Service]}, nil
		})
	os.Exit(launcher.Main(launcher.Config{Tools: []tool.Spec{status}}))
}
