package model_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/model"
)

// Any function can be a Provider: here a scripted one that answers from
// the last user message, as tests and examples of the other packages do.
// Real backends are model/openai and model/anthropic; model/replay serves
// recorded cassettes.
func ExampleProviderFunc() {
	var prov model.Provider = model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		return &model.Response{Text: strings.ToUpper(last), FinishReason: "stop", Meta: model.Meta{Provider: "scripted", Model: req.Model}}, nil
	})

	req := model.Request{Model: "tiny", MaxTokens: 64, Messages: []model.Message{
		{Role: model.RoleSystem, Content: "Shout."},
		{Role: model.RoleUser, Content: "disk full"},
	}}
	resp, err := prov.Complete(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text, resp.FinishReason, resp.Meta.Model)

	// The server reported no usage: count it with the tokenizer instead,
	// as the engine does before charging the budget.
	u := model.EstimateUsage(req, resp, "tiny")
	fmt.Println(u.TokensKnown, u.TokensEstimated, u.PromptTokens > 0, u.CompletionTokens > 0)
	fmt.Println(model.Refused(resp) == nil)
	// Output:
	// DISK FULL stop tiny
	// false true true true
	// true
}
