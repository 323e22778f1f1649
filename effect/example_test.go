package effect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/effect"
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
