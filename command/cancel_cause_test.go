package command

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// A caller that cancels with a cause (context.WithCancelCause, as a
// signal handler might) gets an untyped error from Execute: the plain
// cause is returned as is, not Kind cancelled.
func TestExecuteCancelWithPlainCauseIsTyped(t *testing.T) {
	h := newHost(t, defaultParentCaps(), reply("", `{"answer":"never"}`, 20_000))
	cmd, _ := Compile(loadKB(t), "unknown")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go func() {
		for h.srv.Stats().Requests == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel(errors.New("interrupted by the operator"))
	}()
	_, err := Execute(ctx, cmd, h.register(t, tool.NewRegistry(), cmd), h.parentCaps, Options{})
	// Let the cancelled child's envelope reach the parent (no leak).
	for range 100 {
		pr, _ := h.rt.HandleNext(context.Background(), h.parent, 100*time.Millisecond)
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			break
		}
	}
	fe := fault.As(err)
	if fe == nil || fe.Kind != fault.KindCancelled || fe.Phase != PhaseExecute {
		t.Fatalf("want execute/cancelled, got %v (%T)", err, err)
	}
}
