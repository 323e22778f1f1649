package anthropic_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/replay"
)

// Call the Messages API. The replay server stands in for
// https://api.anthropic.com/v1 (it speaks /v1/messages too); against the
// real API leave APIKey empty and set ANTHROPIC_API_KEY. The system message
// becomes the request's system prompt and usage is priced from the table.
func ExampleNew() {
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		replay.Reply("capital of France", model.Response{Text: "Paris", FinishReason: "stop", Meta: model.Meta{Model: "claude-sonnet-4-5"},
			Usage: budget.Usage{PromptTokens: 20, CompletionTokens: 2, TotalTokens: 22, TokensKnown: true}}),
	}})
	defer srv.Close()

	p, err := anthropic.New(anthropic.Config{BaseURL: srv.BaseURL(), Model: "claude-sonnet-4-5", APIKey: "sk-ant-test"})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := p.Complete(context.Background(), model.Request{Messages: []model.Message{
		{Role: model.RoleSystem, Content: "Answer in one word."},
		{Role: model.RoleUser, Content: "What is the capital of France?"},
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %d tokens $%.6f (estimated: %v)\n", resp.Text, resp.Usage.TotalTokens, resp.Usage.CostUSD, resp.Usage.CostEstimated)
	// Output:
	// Paris 22 tokens $0.000090 (estimated: true)
}
