package launcher_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/cmd/launcher"
	"github.com/rlm-go/rlm/tool"
)

// A program's own rlm: the whole command line, with a Go tool every
// session offers. Here one command line runs in process: rlm tools call.
func ExampleRun() {
	type query struct {
		Service string `json:"service" jsonschema:"minLength=1"`
	}
	type status struct {
		State string `json:"state"`
	}
	serviceStatus := tool.Func("service_status", "the current state of a service",
		func(ctx context.Context, q query) (status, error) {
			return status{State: map[string]string{"billing": "down"}[q.Service]}, nil
		})
	cfg := launcher.Config{Tools: []tool.Spec{serviceStatus}}

	var out bytes.Buffer
	code := launcher.Run(context.Background(), cfg,
		[]string{"tools", "call", "service_status", "--args", `{"service":"billing"}`}, nil, &out, os.Stderr)
	var res struct {
		Status string `json:"status"`
		Value  status `json:"value"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		fmt.Println(err)
	}
	fmt.Println(code, res.Status, res.Value.State)
	// Output: 0 completed down
}
