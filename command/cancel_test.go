package command

import (
	"context"
	"testing"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// Cancelling the caller while the child's model call is in flight is a
// typed cancelled error; the child's envelope says cancelled and the
// parent receives it as its child_result.
func TestCancelledWhileChildModelCallInFlight(t *testing.T) {
	h := newHost(t, defaultParentCaps(), reply("", `{"answer":"never"}`, 20_000))
	cmd, _ := Compile(loadKB(t), "unknown")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for h.srv.Stats().Requests == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := Execute(ctx, cmd, h.register(t, tool.NewRegistry(), cmd), h.parentCaps, Options{})
	fe := fault.As(err)
	if fe == nil || fe.Kind != fault.KindCancelled || fe.Phase != PhaseExecute {
		t.Fatalf("want execute/cancelled, got %v (%T)", err, err)
	}
	// The envelope reaches the parent's mailbox (bounded by the
	// supervision grace).
	var got *agent.Reply
	for range 100 {
		pr, err := h.rt.HandleNext(context.Background(), h.parent, 100*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			got = pr.Reply
			break
		}
	}
	if got == nil {
		t.Fatal("the parent received no child_result")
	}
	env, err := subagent.Decode(got.Value)
	if err != nil {
		t.Fatal(err)
	}
	if env.Status != subagent.EnvelopeCancelled || env.Error == nil || env.Error.Kind != fault.KindCancelled || env.Usage.Calls != 1 {
		t.Fatalf("envelope %+v", env)
	}
	if env.Correlation.Child == nil || *env.Correlation.Child != h.children(t)[0] {
		t.Fatalf("correlation %+v", env.Correlation)
	}
}
