package direct

import (
	"context"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// funcProvider answers every request with text, reporting usage(req), and
// keeps the requests.
type funcProvider struct {
	mu    sync.Mutex
	reqs  []model.Request
	usage func(model.Request) int64
}

func (p *funcProvider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	p.mu.Unlock()
	n := p.usage(req)
	return &model.Response{Text: "the answer", Usage: budget.Usage{PromptTokens: n / 2, CompletionTokens: n - n/2, TotalTokens: n, TokensKnown: true}}, nil
}

func worstOf(req model.Request) int64 { return model.PromptTokens(req, "") + int64(req.MaxTokens) }

func funcFixture(t *testing.T, lim budget.Limits, p *funcProvider) *fixture {
	return newFixture(t, fixOpts{limits: Limits{Limits: lim}, edit: func(c *Config) { c.Provider = p }})
}

// The completion bound is shrunk to what is left of the token budget, and
// a request that cannot get MinReplyTokens is refused before sending.
func TestWorstCaseAdmission(t *testing.T) {
	p := &funcProvider{usage: worstOf}
	if _, err := funcFixture(t, budget.Limits{}, p).run(t, "probe"); err != nil {
		t.Fatal(err)
	}
	prompt := model.PromptTokens(p.reqs[0], "")
	if p.reqs[0].MaxTokens != DefaultMaxTokens {
		t.Fatalf("max_tokens %d", p.reqs[0].MaxTokens)
	}

	p.reqs = nil
	res, err := funcFixture(t, budget.Limits{MaxTotalTokens: prompt + 300}, p).run(t, "probe")
	if err != nil || len(p.reqs) != 1 || p.reqs[0].MaxTokens != 300 || res.Usage.TotalTokens > prompt+300 {
		t.Fatalf("want max_tokens 300 within %d, got %v %d requests %+v", prompt+300, err, len(p.reqs), res)
	}

	p.reqs = nil
	_, err = funcFixture(t, budget.Limits{MaxTotalTokens: prompt + budget.MinReplyTokens - 1}, p).run(t, "probe")
	wantFault(t, err, fault.PhaseBudget, budget.KindMaxTotalTokens)
	if len(p.reqs) != 0 {
		t.Fatalf("%d requests sent", len(p.reqs))
	}
}

// A provider reporting more than the admitted worst case, over the limit,
// ends the run with the budget's kind; the usage is kept.
func TestOverReportIsABudgetError(t *testing.T) {
	p := &funcProvider{usage: func(req model.Request) int64 { return 10 * worstOf(req) }}
	_, err := funcFixture(t, budget.Limits{MaxTotalTokens: 10_000}, p).run(t, "probe")
	de := wantFault(t, err, fault.PhaseBudget, budget.KindMaxTotalTokens)
	if de.Usage.TotalTokens <= 10_000 || de.Usage.Calls != 1 {
		t.Fatalf("usage not kept: %+v", de.Usage)
	}
}
