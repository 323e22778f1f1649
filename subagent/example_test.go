package subagent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// Register rlm_subagent so that a model can delegate a question to a child
// agent. The host fixes everything that shapes the child (its parent, its
// capabilities, the completer holding the context); the model supplies only
// the query. The completer here answers directly; in the rlm command it is
// an engine run (EngineCompleter).
func ExampleRegister() {
	parentCaps := capability.MustSet("tool:rlm_subagent", "context:search")
	rt, err := agent.New(agent.Options{RootCapabilities: parentCaps})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close()
	parent, _ := rt.Spawn("", agent.Spec{Name: "root"}, parentCaps)

	reg := tool.NewRegistry()
	err = subagent.Register(reg, subagent.Config{
		Runtime: rt, Parent: parent,
		ChildCapabilities: capability.MustSet("context:search"),
		Completer: subagent.CompleterFunc(func(ctx context.Context, req subagent.Request) (subagent.Completion, error) {
			return subagent.Completion{Status: subagent.StatusCompleted,
				Answer: fmt.Sprintf("billing failed first (child %v, parent %v)", req.Capabilities.Strings(), req.Parent == parent)}, nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	tools := tool.NewRuntime(reg, tool.Config{Authority: rt.Authority()})
	res, err := tools.Invoke(context.Background(), tool.Call{Name: subagent.Name,
		Args:       json.RawMessage(`{"query":"Which service failed first?"}`),
		Invocation: tool.Invocation{Capabilities: parentCaps}})
	if err != nil || res.Error != nil {
		fmt.Println(err, res.Error)
		return
	}
	env, err := subagent.Decode(res.Value)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(env.Status, string(env.Value))
	// Output:
	// completed "billing failed first (child [context:search], parent true)"
}
