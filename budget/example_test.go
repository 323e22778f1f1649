package budget_test

import (
	"fmt"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// A Tracker enforces a run's Limits. A model call is admitted with its
// worst case (Reserve), which shrinks the completion bound to what is left,
// and settled with the usage the provider reported; a call that cannot fit
// is refused before it is sent, with a budget kind.
func ExampleTracker_Reserve() {
	limits, err := budget.Limits{MaxTotalTokens: 3000, MaxModelCalls: 10}.Resolve()
	if err != nil {
		fmt.Println(err)
		return
	}
	t := budget.NewTracker(limits)

	r, err := t.Reserve(budget.Worst{Model: "gpt-4o-mini", PromptTokens: 1200, MaxTokens: 4096})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("send max_tokens", r.MaxTokens())
	_ = r.Settle(budget.Usage{PromptTokens: 1200, CompletionTokens: 300, TotalTokens: 1500, TokensKnown: true})

	_, err = t.Reserve(budget.Worst{Model: "gpt-4o-mini", PromptTokens: 1400, MaxTokens: 4096})
	fmt.Println(fault.KindOf(err), fault.As(err).Detail["limit"])

	u := t.Usage()
	fmt.Println(u.TotalTokens, u.Calls)
	// Output:
	// send max_tokens 1800
	// max_total_tokens_exceeded max_total_tokens
	// 1500 1
}
