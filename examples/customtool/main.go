// Command customtool gives the model a tool of its own: a Go function
// with typed arguments and result, granted by adding it to the Spec. The
// model calls it from code mode (call_tool), through the runtime's
// validation, capability check and trace. By default the model's replies
// come from a recorded cassette (no network, no key):
//
//	go run ./examples/customtool
//
// With -live it calls the OpenAI API instead (key from OPENAI_API_KEY).
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/tool"
)

//go:embed cassette.json
var cassette []byte

// statusQuery is the tool's arguments; its JSON Schema is derived from it.
type statusQuery struct {
	Service string `json:"service" jsonschema:"minLength=1"`
}

// serviceStatus is the tool's result.
type serviceStatus struct {
	State string `json:"state"`
}

func main() {
	live := flag.Bool("live", false, "call the OpenAI API (OPENAI_API_KEY) instead of the recorded cassette")
	flag.Parse()
	status := tool.Func("service_status", "the current state of a service (up, degraded or down)",
		func(ctx context.Context, q statusQuery) (serviceStatus, error) {
			states := map[string]string{"billing": "down", "api": "degraded"}
			return serviceStatus{State: states[q.Service]}, nil
		})
	spec := rlm.Spec{Mode: "code", Context: []string{writeTemp("app-*.log", []byte(sampleLog))}, Tools: []tool.Spec{status}}
	defer os.Remove(spec.Context[0])
	if !*live {
		spec.Replay = writeTemp("cassette-*.json", cassette)
		defer os.Remove(spec.Replay)
	}
	res, err := rlm.Run(context.Background(), spec, "Which services are down or degraded now?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Answer)
	fmt.Printf("%d tool call(s)\n", res.Counters.ToolCalls)
}

const sampleLog = `2026-12-01T10:00:01Z api INFO started
2026-12-01T10:00:07Z billing ERROR connection refused: db:5432
2026-12-01T10:00:09Z api ERROR upstream billing unavailable
`

// writeTemp writes data to a new temporary file and returns its path.
func writeTemp(pattern string, data []byte) string {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		log.Fatal(err)
	}
	return f.Name()
}
