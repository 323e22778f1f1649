package prompt_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/prompt"
)

// Build a catalog from a tool registry's schemas (data, never handlers) and
// compile it for one turn: the model sees the always-visible tools and the
// ones the text gives evidence for, among those the capabilities allow, and
// Explain says why a unit is or is not visible.
func ExampleCatalog_Compile() {
	params := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	specs, err := prompt.ImportTools([]prompt.ToolSchema{
		{Name: "task", Description: "Delegate a subtask", Parameters: json.RawMessage(`{"type":"object"}`), Capability: "tool:task", Effect: "write"},
		{Name: "fs_read", Description: "Read a file", Parameters: params, Capability: "tool:fs_read", Effect: "read"},
		{Name: "fs_write", Description: "Save output", Parameters: params, Capability: "tool:fs_write", Effect: "write"},
		{Name: "deploy", Description: "Deploy a service", Parameters: json.RawMessage(`{"type":"object"}`), Capability: "tool:deploy", Effect: "network_write"},
	}, prompt.ImportOptions{AlwaysVisibleTools: []string{"task"}, Aliases: map[string][]string{"fs_read": {"read"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	cat, err := prompt.NewCatalog(specs) // with the host's own units: append(hostUnits, specs...)
	if err != nil {
		fmt.Println(err)
		return
	}

	res, err := cat.Compile(context.Background(),
		prompt.Input{Text: "read the config file, then deploy"},
		prompt.Options{Capabilities: capability.MustSet("tool:task", "tool:fs_read", "tool:fs_write")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.ActiveUnits)
	for _, t := range res.ToolSchemas {
		fmt.Println(t.Function.Name)
	}
	for _, id := range []prompt.UnitID{"tool:fs_write", "tool:deploy"} {
		ex, _ := res.Explain(id)
		fmt.Println(id, ex.State, ex.Reasons)
	}
	// Output:
	// [tool:fs_read tool:task]
	// fs_read
	// task
	// tool:fs_write hidden [no_matching_evidence]
	// tool:deploy rejected [capability_denied(tool:deploy)]
}
