package direct_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
)

type ownerIn struct {
	Service string `json:"service"`
}

type ownerOut struct {
	Owner string `json:"owner"`
}

// Run the native tool-calling loop: the model sees the granted tools'
// schemas, calls one, reads the observation and answers. The scripted
// provider stands in for a model (model/openai in real use).
func ExampleRunner_Run() {
	reg := tool.NewRegistry()
	_ = reg.Register(tool.Func("owner_of", "Who owns a service",
		func(ctx context.Context, in ownerIn) (ownerOut, error) { return ownerOut{Owner: "team-payments"}, nil }))

	turn := 0
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		turn++
		if turn == 1 {
			return &model.Response{ToolCalls: []model.ToolCall{{ID: "call_1", Type: "function",
				Name: req.Tools[0].Name, Arguments: `{"service":"billing"}`}}}, nil
		}
		last := req.Messages[len(req.Messages)-1] // the tool's observation
		return &model.Response{Text: "billing is owned by team-payments (" + string(last.Role) + " said so)"}, nil
	})

	r, err := direct.New(direct.Config{
		Provider:         prov,
		Model:            "gpt-4o-mini",
		Capabilities:     capability.MustSet("tool:owner_of"), // tool:NAME, context:search|slice|peek
		Registry:         reg,
		Tools:            tool.NewRuntime(reg, tool.Config{}),
		AuthorityContext: "session:1",
		Mode:             prompt.ModeCompiled, // or prompt.ModeAllTools
		Limits:           direct.Limits{Limits: budget.Limits{MaxToolCalls: 8}, MaxNativeCallsPerBatch: 16},
		// Store and Input (a corpus.Store and a handle) add the context tools.
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := r.Run(context.Background(), "Who owns billing?") // err is a *direct.Error
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Answer)
	fmt.Println(res.Tools, res.Turns, res.ToolCalls)
	for _, ev := range res.Events {
		if ev.Type == direct.EventModel {
			fmt.Println(ev.Turn, ev.Type)
			continue
		}
		fmt.Println(ev.Turn, ev.Type, ev.Name, ev.Status)
	}
	// Output:
	// ok billing is owned by team-payments (tool said so)
	// [owner_of] 2 1
	// 1 model
	// 1 native_tool owner_of ok
	// 2 model
}
