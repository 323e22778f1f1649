package effect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/tool"
)

// Drive one effectful call through the journal: prepare, claim, record the
// dispatch durably, run the effect, record what it did. A repeat of the
// same call (same run, call id and payload), even after a restart, replays
// the observation; a call dispatched but never observed is never run
// again blindly: it needs reconciliation.
func ExampleJournal_Prepare() {
	dir, _ := os.MkdirTemp("", "rlm-effect-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	send := effect.Request{Kind: "tool", RunID: "run-1", RunCallID: "call-1",
		Payload: map[string]any{"tool": "send_email", "to": "ops@example.com"}}
	j, err := effect.OpenDir(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, _ := j.Prepare(ctx, send)
	fmt.Println(d.Action)
	d, _ = j.Begin(ctx, d.Ticket)
	_ = j.Dispatch(ctx, d.Ticket) // synced before the effect
	// ... send the email ...
	_ = j.Observe(ctx, d.Ticket, effect.Observation{Status: effect.ObservedSucceeded, Value: json.RawMessage(`{"id":"msg-7"}`)})

	crash := send
	crash.RunCallID = "call-2"
	d, _ = j.Prepare(ctx, crash)
	d, _ = j.Begin(ctx, d.Ticket)
	_ = j.Dispatch(ctx, d.Ticket) // and then the process dies
	_ = j.Close()

	j, _ = effect.OpenDir(dir) // the restart
	defer j.Close()
	d, _ = j.Prepare(ctx, send)
	fmt.Println(d.Action, string(d.Observation.Value))
	d, _ = j.Prepare(ctx, crash)
	fmt.Println(d.Action, d.State)
	// Output:
	// execute
	// replay {"id":"msg-7"}
	// reconciliation_required indeterminate
}

// Finish an approval after the process that asked for it is gone: a run
// stops with approval_required (the pending operation is persisted in the
// journal), a host records the decision (the CLI's "rlm approve"), and the
// resumed run performs the approved call once. Resuming again replays it.
func ExampleJournal_Decide() {
	dir, _ := os.MkdirTemp("", "rlm-approval-example")
	defer os.RemoveAll(dir)
	j, err := effect.OpenDir(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer j.Close()
	ctx := context.Background()

	type page struct {
		Service string `json:"service"`
	}
	reg := tool.NewRegistry()
	notify := tool.Func("notify", "Page the on-call engineer", func(ctx context.Context, in page) (page, error) {
		fmt.Println("paging", in.Service)
		return in, nil
	})
	notify.Effect = authority.EffectNetworkWrite
	_ = reg.Register(notify)
	call := tool.Call{Name: "notify", Args: json.RawMessage(`{"service":"billing"}`),
		Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:notify")}}

	// The run: approve_diff (the default tier) makes the call wait.
	run := tool.NewRun()
	res, _ := tool.NewRuntime(reg, tool.Config{Journal: j, Run: run}).Invoke(ctx, call)
	fmt.Println(res.Status, res.ApprovalID)

	// Later, maybe in another process: list and decide.
	pending, _ := j.Approvals(ctx, run.ID())
	fmt.Println(pending[0].ID, pending[0].Tool, string(pending[0].Args), pending[0].State)
	if _, err := j.Decide(ctx, run.ID(), res.ApprovalID, effect.Approve, "expected page"); err != nil {
		fmt.Println(err)
		return
	}

	// The resumed run (a fresh runtime, as a new process has) runs it once.
	for range 2 {
		rt := tool.NewRuntime(reg, tool.Config{Journal: j, Run: tool.ResumeRun(run.ID())})
		res, _ = rt.Invoke(ctx, call)
		fmt.Println(res.Status, res.Replayed, res.Trace.Authorization)
	}
	// Output:
	// approval_required approval_1
	// approval_1 notify {"service":"billing"} pending
	// paging billing
	// ok false approved
	// ok true allowed
}
