package durable_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model"
)

// echo answers each request with its last message, after a short delay.
var echo = model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
	select {
	case <-time.After(2 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &model.Response{Text: "re: " + req.Messages[len(req.Messages)-1].Content,
		Usage: budget.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: 2, TokensKnown: true}}, nil
})

// startWorker serves queue with echo until the test ends.
func startWorker(t *testing.T, url string, cfg durable.WorkerConfig) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	cfg.DatabaseURL, cfg.Provider = url, echo
	cfg.OnReady = func(string) { close(ready) }
	go func() { done <- durable.Work(ctx, cfg) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("worker: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
	})
}

// sendConcurrently sends n distinct requests at once through the run's
// queue and checks that each caller gets the answer to its own request.
func sendConcurrently(t *testing.T, url, queue string, n int) string {
	t.Helper()
	out, err := durable.Run(context.Background(), durable.Config{DatabaseURL: url, Spec: "s", Queue: queue},
		func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
			p := x.SubProvider(nil)
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Go(func() {
					q := fmt.Sprintf("request %d", i)
					resp, err := p.Complete(ctx, model.Request{Model: "m", Messages: []model.Message{{Role: model.RoleUser, Content: q}}})
					switch {
					case err != nil:
						errs[i] = err
					case resp.Text != "re: "+q:
						errs[i] = fmt.Errorf("%q answered %q", q, resp.Text)
					}
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					return nil, err
				}
			}
			return &engine.Result{Status: engine.StatusCompleted}, nil
		})
	if err != nil || out.Result.Status != engine.StatusCompleted {
		t.Fatalf("run: %v %+v", err, out)
	}
	return out.RunID
}

func callWorkflows(t *testing.T, url, run string) int {
	t.Helper()
	st, err := durable.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM dbos.workflow_status WHERE name = $1 AND workflow_uuid LIKE $2`,
		durable.CallWorkflowName, run+"/call/%").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Requests waiting to be enqueued together share call workflows of at
// most MaxBatch requests, and every caller gets its own answer.
func TestQueuedCallsShareWorkflows(t *testing.T) {
	url := pgtest.Database(t)
	startWorker(t, url, durable.WorkerConfig{Queue: "q", Concurrency: 16})
	const n = 64
	run := sendConcurrently(t, url, "q", n)
	if w := callWorkflows(t, url, run); w < n/durable.MaxBatch || w >= n {
		t.Fatalf("%d requests went out in %d call workflows, want between %d and %d", n, w, n/durable.MaxBatch, n-1)
	}
}

// On a queue with a rate limit (which DBOS counts in workflows) every
// request is its own call workflow, so the limit counts requests.
func TestRateLimitedQueueSendsOneRequestPerWorkflow(t *testing.T) {
	url := pgtest.Database(t)
	startWorker(t, url, durable.WorkerConfig{Queue: "lim", Concurrency: 16, RateLimit: 1000, RatePeriod: time.Minute})
	const n = 12
	run := sendConcurrently(t, url, "lim", n)
	if w := callWorkflows(t, url, run); w != n {
		t.Fatalf("%d requests went out in %d call workflows, want one each", n, w)
	}
}
