package durable_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/pgtest"
)

// A run whose database stays unreachable longer than the retries ends with
// db_unavailable and is handed back, not recorded: it stays pending, and a
// resume once the database is back continues it from its checkpoints
// without sending a recorded call again. Before, the run ended "cancelled"
// and that outcome was recorded, so a resume returned it and the calls it
// had paid for were lost.
func TestRunHandedBackWhenDatabaseLost(t *testing.T) {
	defer durable.SetRetryWindow(300 * time.Millisecond)()
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
		t.Fatalf("%d calls sent again on resume, want at most the 16 in flight at the outage", twice)
	}
}
