package rlmlog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/rlmlog"
)

// Read a log written by the official Python RLM's RLMLogger as rlm trace
// events (to view it with the same tools), and write rlm traces back in
// that format.
func ExampleImport() {
	log := `{"type": "metadata", "timestamp": "2026-01-31T11:05:04.339193", "root_model": "gpt-5", "max_depth": 1, "max_iterations": 10, "backend": "openai"}
{"type": "iteration", "iteration": 1, "timestamp": "2026-01-31T11:05:12.120455", "response": "` + "```repl\\nprint(llm_query('count errors'))\\n```" + `", "code_blocks": [{"code": "print(llm_query('count errors'))", "result": {"stdout": "3\n", "stderr": "", "execution_time": 1.5, "rlm_calls": [{"root_model": "gpt-5-mini", "prompt": "count errors", "response": "3", "usage_summary": {"model_usage_summaries": {"gpt-5-mini": {"total_calls": 1, "total_input_tokens": 120, "total_output_tokens": 1}}}, "execution_time": 1.25}]}}], "final_answer": null, "iteration_time": 2.0}
{"type": "iteration", "iteration": 2, "timestamp": "2026-01-31T11:05:14.500000", "response": "FINAL(3)", "code_blocks": [], "final_answer": "3", "iteration_time": 0.5}
`
	if !rlmlog.IsLog([]byte(log)) {
		fmt.Println("not an RLMLogger log")
		return
	}
	events, err := rlmlog.Import(strings.NewReader(log))
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = trace.WriteTree(os.Stdout, events)

	var out bytes.Buffer
	_ = rlmlog.Export(&out, events)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var entry struct {
			Type      string `json:"type"`
			Iteration int    `json:"iteration"`
		}
		_ = json.Unmarshal([]byte(line), &entry)
		fmt.Println(entry.Type, entry.Iteration)
	}
	// Output:
	// ✓ run rlm [d0 10.16s] turns=2
	//   ✓ turn 1 [d0 2.00s]
	//     ✓ plan_step cell [d0 1.50s]
	//       ✓ model_call gpt-5-mini [d1 1.25s] tokens=121(120+1)
	//   ✓ turn 2 [d0 500.0ms]
	// metadata 0
	// iteration 1
	// iteration 2
}
