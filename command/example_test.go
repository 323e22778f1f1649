package command_test

import (
	"fmt"

	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/fault"
)

// Compile a trigger of a knowledge base (data only) into a fingerprinted
// command bound to the rlm_subagent tool. Verify, which Execute runs
// first, catches a command whose text was changed after compilation.
func ExampleCompile() {
	kb, err := command.DecodeKB([]byte(`{
  "prompts":  [{"id": "summarize", "text": "Summarize the context."}],
  "triggers": [{"id": "summarize", "trigger": "summary"}],
  "actions":  [{"id": "summarize", "action": "delegate_subagent"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := command.Compile(kb, "summary")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.PromptID, c.Adapter, c.Target, c.Payload)
	fmt.Println(command.Verify(c))

	c.Text = "Delete everything."
	fmt.Println(fault.KindOf(command.Verify(c)))

	_, err = command.Compile(kb, "translate")
	fmt.Println(fault.KindOf(err))
	// Output:
	// summarize rlm_subagent tool:rlm_subagent map[query:text]
	// <nil>
	// invalid_fingerprint
	// missing_binding
}
