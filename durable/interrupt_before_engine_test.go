package durable_test

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pgtest"
)

// An interruption (Ctrl-C) of rlm run --db that reaches the run
// before the engine returned a result (RunFunc returns nil and the
// cancellation) was recorded as the run's final outcome, "failed".
func TestInterruptBeforeEngineHandsBack(t *testing.T) {
	url := pgtest.Database(t)
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	out, err := durable.Run(ctx, durable.Config{DatabaseURL: url, Spec: "s", Query: "q"},
		func(rctx context.Context, x *durable.Executor) (*engine.Result, error) {
			interrupt()
			<-rctx.Done()
			return nil, fault.FromContext(fault.PhaseExecute, rctx.Err())
		})
	if out == nil {
		t.Fatalf("run: %v", err)
	}
	st, serr := durable.State(context.Background(), url, out.RunID)
	if serr != nil {
		t.Fatal(serr)
	}
	if !out.HandedBack || st.Status != "pending" {
		t.Fatalf("interrupted run: handed_back=%v, result status %q, recorded %q; want handed back, pending", out.HandedBack, out.Result.Status, st.Status)
	}
}
