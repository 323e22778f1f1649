package authority_test

import (
	"context"
	"fmt"

	"github.com/rlm-go/rlm/authority"
)

// Under the default tier (approve_diff) an effect does not run: it becomes
// a pending operation holding its continuation, which runs once when a
// human approves it. Under allow_session it runs at once.
func ExampleStore_Authorize() {
	s := authority.NewStore()
	op := authority.Operation{Context: "session:1", Tool: "fs_write", Effect: authority.EffectWrite,
		Capability: "tool:fs_write", Args: map[string]any{"path": "notes.txt", "content": "hi"}}
	write := func(ctx context.Context) (any, error) { return "wrote notes.txt", nil }

	d, err := s.Authorize(op, write, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Action, d.Tier, d.Record.State, d.Record.Tool)

	if _, err := s.Approve(d.Record.ID, nil); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := s.Await(context.Background(), d.Record.ID)
	fmt.Println(res.State, res.Outcome, res.Err)

	_ = s.Set("session:2", authority.AllowSession)
	op.Context = "session:2"
	d, _ = s.Authorize(op, write, nil)
	fmt.Println(d.Action, d.Permit)
	// Output:
	// pending approve_diff pending fs_write
	// resolved wrote notes.txt <nil>
	// execute allow_session
}
