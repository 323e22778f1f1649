package rlm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// Three lines answer a question over a file: the Spec names the model,
// the context and the mode; the key comes from the environment
// (OPENAI_API_KEY) as the CLI reads it. Replay answers from a recorded
// cassette here, so that the example runs without a network.
func ExampleRun() {
	ctx := context.Background()
	res, err := rlm.Run(ctx, rlm.Spec{Model: "gpt-4o-mini", Context: []string{"testdata/app.log"}, Mode: "code",
		Replay: "testdata/quickstart.cassette.json"}, "Which service failed first?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	// Output: billing: connection refused: db:5432
}

// countLines is a tool a program adds: its arguments and result are Go
// types, their JSON Schemas derived from them.
type countLines struct {
	Pattern string `json:"pattern" jsonschema:"minLength=1"` // a substring of the line
}

// A program's tools join the Spec and are granted to the root: the model
// calls them with call_tool in code mode (or a tool step in plan mode).
func ExampleSpec_tools() {
	count := tool.Func("count_lines", "count the lines of the log that contain pattern",
		func(ctx context.Context, in countLines) (int, error) {
			b, err := os.ReadFile("testdata/app.log")
			return strings.Count(string(b), in.Pattern), err
		})
	res, err := rlm.Run(context.Background(), rlm.Spec{Context: []string{"testdata/app.log"}, Mode: "code",
		Tools: []tool.Spec{count}, Replay: "testdata/tool.cassette.json"}, "How many ERROR lines?")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	// Output: 2
}

// A Spec is data: it round-trips through JSON (a durable run stores it),
// and Validate refuses what cannot run with a typed error.
func ExampleSpec_Validate() {
	var spec rlm.Spec
	err := json.Unmarshal([]byte(`{"context": ["big.log"], "mode": "code", "limits": {"max_cost_usd": 0.5, "time_limit_ms": 60000}}`), &spec)
	fmt.Println(err, spec.Mode, spec.Limits.TimeLimit, spec.Validate())

	spec.Mode = "lisp"
	fmt.Println(fault.KindOf(spec.Validate()))

	err = json.Unmarshal([]byte(`{"modle": "gpt-5"}`), &spec)
	fmt.Println(fault.KindOf(err))
	// Output:
	// <nil> code 1m0s <nil>
	// invalid_config
	// invalid_spec
}

// A prompt command compiled from a knowledge base runs under a Spec: the
// parent agent (granted rlm_subagent and the context reads by default)
// delegates to a child that answers over the Spec's context with the
// Spec's provider and limits. A scripted provider answers here.
func ExampleRunCommand() {
	kb, err := command.DecodeKB([]byte(`{
  "prompts":  [{"id": "first-error", "text": "Which service failed first?", "role": "reviewer"}],
  "triggers": [{"id": "first-error", "trigger": "triage"}],
  "actions":  [{"id": "first-error", "action": "delegate_subagent"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := command.Compile(kb, "triage")
	if err != nil {
		fmt.Println(err)
		return
	}
	scripted := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
		return &model.Response{Text: `{"answer": "billing"}`}, nil
	})
	res, err := rlm.RunCommand(context.Background(), rlm.Spec{Context: []string{"testdata/app.log"}}, c, rlm.WithProvider(scripted))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Answer(), res.Envelope.Delegation.Role, res.ParentReceived.Kind)
	// Output: completed billing reviewer child_result
}

// Incident is a typed answer: tool.MustSchemaFor derives its JSON Schema.
type Incident struct {
	Service string `json:"service"`
	Errors  int    `json:"errors"`
}

// With an answer schema the final answer must match it: the model's first
// answer here gives the count as a string, gets a repair message naming
// /errors and keyword type, and answers again. DecodeAnswer turns the
// validated answer (Result.AnswerJSON) into the Go value.
func ExampleDecodeAnswer() {
	ctx := context.Background()
	res, err := rlm.Run(ctx, rlm.Spec{Context: []string{"testdata/app.log"}, Mode: "code", Replay: "testdata/typed.cassette.json"},
		"Which service failed first, and how many ERROR lines are there?", rlm.WithAnswerSchema(tool.MustSchemaFor[Incident]()))
	if err != nil {
		fmt.Println(err)
		return
	}
	inc, err := rlm.DecodeAnswer[Incident](res)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s failed first; %d errors (in %d turns)\n", inc.Service, inc.Errors, res.Turns)
	fmt.Println(string(res.AnswerJSON))
	// Output:
	// billing failed first; 2 errors (in 2 turns)
	// {"errors":2,"service":"billing"}
}
