package durable_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model"
)

// BenchmarkDurableStep measures what a durable executor adds to one model
// call: the lookup of its key and the record of its response (a call
// answered at once, so only the checkpoint is timed). One op is one step.
func BenchmarkDurableStep(b *testing.B) {
	url := pgtest.Database(b)
	st, err := durable.Open(context.Background(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	x := durable.NewExecutor(st, "bench", nil)
	resp := &model.Response{Text: "label", Usage: budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true}}
	send := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) { return resp, nil })
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		req := model.Request{Model: "m", Messages: []model.Message{{Role: model.RoleUser, Content: fmt.Sprintf("classify record %d", i)}}}
		if _, err := x.Model(ctx, engine.Call{Kind: engine.CallModel, Depth: 1, Turn: 1}, req, send); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/step")
}

// latency answers the root with the fan-out plan and every sub-call after
// a fixed delay.
type latency time.Duration

func (l latency) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	u := budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true}
	if req.Messages[0].Role == model.RoleSystem {
		return &model.Response{Text: fanOutPlan, Usage: u}, nil
	}
	select {
	case <-time.After(time.Duration(l)):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &model.Response{Text: "label", Usage: u}, nil
}

// BenchmarkFanOut5ms compares one map of 1,000 sub-calls of a model that
// answers in 5 ms, in process and durable (every call checkpointed in
// PostgreSQL), at 16 calls in flight. One op is one whole run.
func BenchmarkFanOut5ms(b *testing.B) {
	const n = 1000
	for _, durableRun := range []bool{false, true} {
		name := "in-process"
		if durableRun {
			name = "durable"
		}
		b.Run(name, func(b *testing.B) {
			var st *durable.Store
			if durableRun {
				var err error
				if st, err = durable.Open(context.Background(), pgtest.Database(b)); err != nil {
					b.Fatal(err)
				}
				defer st.Close()
			}
			run := 0
			for b.Loop() {
				run++
				var x engine.Executor = engine.InProcess{}
				if st != nil {
					x = durable.NewExecutor(st, fmt.Sprintf("run-%d", run), nil)
				}
				eng, h := newBenchEngine(b, latency(5*time.Millisecond), x, records(n))
				res, err := eng.Run(context.Background(), "classify", h)
				if err != nil || len(res.Answer.([]any)) != n {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
		})
	}
}
