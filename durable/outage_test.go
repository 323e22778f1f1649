package durable_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model"
)

// A run whose database stays unreachable longer than the retries ends with
// db_unavailable and is handed back, not recorded: it stays pending, and a
// resume once the database is back continues it from its checkpoints
// without sending a recorded call again. Before, the run ended "cancelled"
// and that outcome was recorded, so a resume returned it and the calls it
// had paid for were lost.
func TestRunHandedBackWhenDatabaseLost(t *testing.T) {
	durable.SetRetryWindow(t, 300*time.Millisecond)
	px, url := pgtest.NewProxy(t, pgtest.Database(t))
	ctx := context.Background()
	const n = 120
	var (
		once    sync.Once
		started = make(chan struct{})
		ended   sync.Once
		endFn   func()
	)
	end := func() { ended.Do(endFn) }
	first := &counting{seen: map[string]int{}, stopAfter: 40}
	first.stop = func() {
		once.Do(func() {
			endFn = px.Outage()
			close(started)
			// Ends the outage even if the run waits for it (as it did
			// when its outcome was recorded), so a regression fails
			// instead of hanging.
			time.AfterFunc(20*time.Second, end)
		})
	}
	run := func(p *counting, cfg durable.Config) (*durable.Outcome, error) {
		return durable.Run(ctx, cfg, func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
			eng, h := newEngine(t, p, x, records(n))
			return eng.Run(ctx, "classify", h)
		})
	}
	out, err := run(first, durable.Config{DatabaseURL: url, Spec: "s", Query: "classify"})
	select {
	case <-started:
	default:
		t.Fatalf("the outage never started: %+v, %v", out, err)
	}
	end()
	if err != nil || out == nil || out.Result == nil {
		t.Fatalf("run: %+v, %v", out, err)
	}
	if !out.HandedBack || out.Result.Error == nil || out.Result.Error.Kind != durable.KindDBUnavailable || out.Result.Error.Hint == "" {
		t.Fatalf("want a run handed back with db_unavailable and a hint, got handed_back=%v status=%s error=%+v",
			out.HandedBack, out.Result.Status, out.Result.Error)
	}
	if st, err := durable.State(ctx, url, out.RunID); err != nil || st.Status != "pending" {
		t.Fatalf("state after the hand-back: %+v, %v; want pending", st, err)
	}

	second := &counting{seen: map[string]int{}}
	again, err := run(second, durable.Config{DatabaseURL: url, RunID: out.RunID, Resume: true, Spec: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Finished || again.Result.Status != engine.StatusCompleted || len(again.Result.Answer.([]any)) != n {
		t.Fatalf("resume: finished=%v status=%s error=%+v", again.Finished, again.Result.Status, again.Result.Error)
	}
	if again.Replayed == 0 {
		t.Fatal("the resume answered nothing from checkpoints")
	}
	// Only the calls in flight when the outage began (each holds one of
	// the engine's 16 slots: sent and not yet recorded) are sent again.
	checkResent(t, first, second)
}

// A worker whose database goes away in the middle of a submitted run,
// longer than the retries, continues the run in place once the database
// answers again: the run completes, from its checkpoints, with each call
// sent at most twice.
func TestWorkerContinuesRunAfterDatabaseLost(t *testing.T) {
	durable.SetRetryWindow(t, 300*time.Millisecond)
	url := pgtest.Database(t)
	px, viaProxy := pgtest.NewProxy(t, url)
	ctx := context.Background()
	const n = 120
	var (
		mu      sync.Mutex
		seen    = map[string]int{}
		calls   atomic.Int64
		outages atomic.Int64
	)
	p := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		prompt := req.Messages[len(req.Messages)-1].Content
		mu.Lock()
		seen[prompt]++
		mu.Unlock()
		u := budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true, Calls: 1}
		if req.Messages[0].Role == model.RoleSystem {
			return &model.Response{Text: fanOutPlan, Usage: u}, nil
		}
		if calls.Add(1) == 40 {
			outages.Add(1)
			time.AfterFunc(time.Second, px.Outage()) // three times the retries
		}
		return &model.Response{Text: "label " + strings.TrimPrefix(prompt, "classify "), Usage: u}, nil
	})
	startWorker(t, viaProxy, durable.WorkerConfig{Queue: "q", Concurrency: 4,
		Run: func(ctx context.Context, sub durable.Submission, x *durable.Executor) (*engine.Result, error) {
			eng, h := newEngine(t, p, x, records(n))
			return eng.Run(ctx, sub.Query, h)
		}})
	id, err := durable.Submit(ctx, url, durable.Submission{Spec: "s", Query: "classify", Queue: "q"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	var st durable.RunStatus
	for time.Now().Before(deadline) {
		if st, err = durable.State(ctx, url, id); err == nil && st.Status != "pending" && st.Status != "queued" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if outages.Load() != 1 || st.Status != engine.StatusCompleted || st.Steps.ModelCalls != n+1 {
		t.Fatalf("after %d outage(s): state %+v, %v; want completed with %d records", outages.Load(), st, err, n+1)
	}
	mu.Lock()
	defer mu.Unlock()
	for prompt, k := range seen {
		if k > 2 {
			t.Errorf("%q sent %d times", prompt, k)
		}
	}
}

// A run its caller interrupts (Ctrl-C or SIGTERM of rlm run --db cancel
// its context) is handed back as a crashed one is: it stays pending, and
// a resume continues it from its checkpoints without sending a recorded
// call again. Before, the interruption was recorded as the run's final
// outcome (cancelled) and the calls it had paid for could not be used.
func TestInterruptedRunIsHandedBack(t *testing.T) {
	url := pgtest.Database(t)
	const n = 120
	run := func(ctx context.Context, p *counting, cfg durable.Config) (*durable.Outcome, error) {
		return durable.Run(ctx, cfg, func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
			eng, h := newEngine(t, p, x, records(n))
			return eng.Run(ctx, "classify", h)
		})
	}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	first := &counting{seen: map[string]int{}, stopAfter: 40, stop: interrupt}
	out, err := run(ctx, first, durable.Config{DatabaseURL: url, Spec: "s", Query: "classify"})
	if out == nil || out.Result == nil {
		t.Fatalf("run: %+v, %v", out, err)
	}
	if !out.HandedBack || out.Result.Status != engine.StatusCancelled || out.Result.Error == nil || out.Result.Error.Hint == "" {
		t.Fatalf("want a cancelled run handed back with a hint, got handed_back=%v status=%s error=%+v",
			out.HandedBack, out.Result.Status, out.Result.Error)
	}
	bg := context.Background()
	if st, err := durable.State(bg, url, out.RunID); err != nil || st.Status != "pending" {
		t.Fatalf("state after the interruption: %+v, %v; want pending", st, err)
	}
	second := &counting{seen: map[string]int{}}
	again, err := run(bg, second, durable.Config{DatabaseURL: url, RunID: out.RunID, Resume: true, Spec: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Finished || again.Result.Status != engine.StatusCompleted || len(again.Result.Answer.([]any)) != n || again.Replayed == 0 {
		t.Fatalf("resume: finished=%v status=%s replayed=%d error=%+v", again.Finished, again.Result.Status, again.Replayed, again.Result.Error)
	}
	// Only the calls in flight at the interruption are sent again.
	checkResent(t, first, second)
}

// checkResent fails when the resumed execution (second) sent a call twice,
// or sent again more of the first execution's calls than the engine's 16
// slots held in flight when it stopped.
func checkResent(t *testing.T, first, second *counting) {
	t.Helper()
	twice := 0
	for prompt, k := range second.seen {
		if k > 1 {
			t.Errorf("%q sent %d times on resume", prompt, k)
		}
		if first.seen[prompt] > 0 {
			twice++
		}
	}
	if twice > 16 {
		t.Fatalf("%d calls sent again on resume, want at most the 16 in flight when the first execution stopped", twice)
	}
}
