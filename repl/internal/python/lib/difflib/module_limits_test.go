package difflib

import (
	"context"
	"errors"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// TestStepLimit checks that a long comparison counts its work as steps of
// the cell and stops at the cell's step limit.
func TestStepLimit(t *testing.T) {
	Register()
	in := python.New(python.Config{})
	defer in.Close()
	th := python.NewThread(context.Background(), in, 2_000_000, func(string) {})
	err := in.Exec(th, `import difflib
a = "ab" * 20000
b = "ba" * 20000
difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()`, "<test>")
	var stop *python.StopError
	if !errors.As(err, &stop) || stop.Kind != "steps" {
		t.Fatalf("got %v, want the step limit", err)
	}
}
