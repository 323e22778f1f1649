package authority

import (
	"context"
	"testing"
)

// SkipIDs moves the ids of later pending operations past n, never back.
func TestSkipIDs(t *testing.T) {
	s := NewStore()
	cont := func(context.Context) (any, error) { return nil, nil }
	pend := func(arg string) string {
		t.Helper()
		d, err := s.Authorize(Operation{Context: "c", Tool: "w", Effect: EffectWrite, Capability: "tool:w", Args: arg}, cont, nil)
		if err != nil || d.Action != ActionPending {
			t.Fatalf("%+v %v", d, err)
		}
		return d.Record.ID
	}
	if id := pend("a"); id != "approval_1" {
		t.Fatal(id)
	}
	s.SkipIDs(7)
	if id := pend("b"); id != "approval_8" {
		t.Fatal(id)
	}
	s.SkipIDs(3)
	if id := pend("c"); id != "approval_9" {
		t.Fatal(id)
	}
}
