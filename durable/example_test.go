package durable_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/fault"
)

// A submitted run reads its contexts on whichever worker takes it, so a
// worker checks first that it can read them: a path only the submitting
// machine has is refused with context_unreadable and a hint, before
// anything runs. (Submitting, working and resuming need PostgreSQL; see
// docs/distributed.md.)
func ExampleSubmission_CheckContexts() {
	dir, _ := os.MkdirTemp("", "rlm-durable-example")
	defer os.RemoveAll(dir)
	shared := filepath.Join(dir, "app.log")
	_ = os.WriteFile(shared, []byte("ERROR disk full\n"), 0o644)

	sub := durable.Submission{RunID: "run-1", Query: "What failed?", Contexts: []string{shared}}
	fmt.Println(sub.CheckContexts())

	sub.Contexts = append(sub.Contexts, filepath.Join(dir, "only-on-my-laptop.log"))
	err := sub.CheckContexts()
	fmt.Println(fault.KindOf(err), fault.As(err).Detail["run_id"])
	fmt.Println(fault.HintOf(err) != "")
	// Output:
	// <nil>
	// context_unreadable run-1
	// true
}
