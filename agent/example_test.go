package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// Spawn agents whose capabilities only narrow from parent to child, and
// run a unit of work for one of them on the runtime's bounded pool.
func ExampleRuntime_SupervisedCall() {
	rt, err := agent.New(agent.Options{RootCapabilities: capability.MustSet("tool:fs_read", "tool:fs_list")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close()

	lead, err := rt.Spawn("", agent.Spec{Name: "lead"}, capability.MustSet("tool:fs_read", "tool:fs_list"))
	if err != nil {
		fmt.Println(err)
		return
	}
	reader, _ := rt.Spawn(lead, agent.Spec{Name: "reader"}, capability.MustSet("tool:fs_read"))
	_, err = rt.Spawn(lead, agent.Spec{Name: "writer"}, capability.MustSet("tool:fs_write"))
	fmt.Println(fault.KindOf(err))

	upper := func(ctx context.Context, id agent.ID, w agent.Work) (json.RawMessage, error) {
		var s string
		_ = json.Unmarshal(w.Payload, &s)
		return json.Marshal(strings.ToUpper(s))
	}
	out, err := rt.SupervisedCall(context.Background(), reader,
		agent.Work{Type: "shout", Payload: json.RawMessage(`"disk full"`)}, upper, 5*time.Second)
	fmt.Println(string(out), err)

	// The parent is told through its own mailbox.
	h, err := rt.HandleNext(context.Background(), lead, time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Status, h.Reply.Kind, h.Reply.Child == reader, string(h.Reply.Value))
	// Output:
	// capability_denied
	// "DISK FULL" <nil>
	// processed child_result true "DISK FULL"
}
