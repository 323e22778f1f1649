package durable_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// A call that failed (not recorded) and was then retried in the same turn
// is recorded under the failed attempt's place: a resumed run finds the
// retry's record for its first identical call instead of sending it (and
// paying) again while the record goes unused.
func TestRetriedCallIsFoundOnResume(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "classify record 1"}}}
	call := engine.Call{Kind: engine.CallModel, Depth: 1, Turn: 1}
	var sent atomic.Int64
	fails := atomic.Int64{}
	fails.Store(1)
	p := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		sent.Add(1)
		if fails.Add(-1) >= 0 {
			return nil, fault.New(fault.PhaseProvider, model.KindHTTPStatus, "bad gateway")
		}
		return &model.Response{Text: "label", Usage: budget.Usage{PromptTokens: 3, CompletionTokens: 1, TotalTokens: 4, TokensKnown: true, Calls: 1}}, nil
	})
	x := durable.NewExecutor(st, "retried", nil)
	if _, err := x.Model(ctx, call, req, p); err == nil {
		t.Fatal("the first attempt should fail")
	}
	if resp, err := x.Model(ctx, call, req, p); err != nil || resp.Text != "label" {
		t.Fatalf("the retry: %v %v", resp, err)
	}
	if sent.Load() != 2 || x.Recorded() != 1 {
		t.Fatalf("%d sent, %d recorded", sent.Load(), x.Recorded())
	}
	resumed := durable.NewExecutor(st, "retried", nil)
	resp, err := resumed.Model(ctx, call, req, model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
		return nil, errors.New("sent again although its retry is recorded")
	}))
	if err != nil || resp.Text != "label" || resumed.Replayed() != 1 {
		t.Fatalf("resumed: %v %v, %d replayed", resp, err, resumed.Replayed())
	}
}
