package meter_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
)

// A Meter admits every model call and context operation of a run against
// its budget tracker and capabilities. Here a call's max_tokens is shrunk
// to what the token budget leaves, the next call is refused before it is
// sent, and a context operation whose capability is not granted is denied
// without being counted.
func ExampleMeter() {
	limits, err := budget.Limits{MaxTotalTokens: 2000}.Resolve()
	if err != nil {
		fmt.Println(err)
		return
	}
	tr := budget.NewTracker(limits)
	m := meter.New(tr)

	sent := 0
	provider := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		sent++
		fmt.Println("sent with max_tokens", req.MaxTokens)
		return &model.Response{Text: "ok", Usage: budget.Usage{PromptTokens: 900, CompletionTokens: 900, TotalTokens: 1800, TokensKnown: true}}, nil
	})
	req := model.Request{Model: "gpt-4o-mini", MaxTokens: 4096, Messages: []model.Message{{Role: model.RoleUser, Content: "Summarize the log."}}}

	// A direct loop's turn: the call and the turn are counted together.
	resp, err := m.Model(context.Background(), meter.ModelCall{Provider: provider, Request: req, Turn: true})
	fmt.Println(resp.Text, err)
	_, err = m.Model(context.Background(), meter.ModelCall{Provider: provider, Request: req, Turn: true})
	fmt.Println(fault.KindOf(err), "sent:", sent)

	_, _, err = m.Context(context.Background(), capability.MustSet("context:slice"), meter.ContextOp{Op: "regex"})
	fmt.Println(fault.KindOf(err), fault.As(err).Detail["capability"])

	c := tr.Counters()
	fmt.Println("model calls", c.ModelCalls, "turns", c.Iterations, "context ops", c.ContextOps)
	// Output:
	// sent with max_tokens 1984
	// ok <nil>
	// max_total_tokens_exceeded sent: 1
	// capability_denied context:search
	// model calls 1 turns 1 context ops 0
}
